// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// Gemini CLI runs guard hook as a command hook for BeforeTool (and
// AfterTool and SessionEnd, for the session tier), registered in
// .gemini/settings.json. Its input is one JSON object on stdin:
// hook_event_name, session_id, cwd, timestamp, tool_name and tool_input.
// The answer to allow is exit 0 with
//
//	{"decision": "allow"}
//
// which leaves Gemini CLI's own policy engine to run, as any allow does;
// to ask, {"decision": "ask", "reason": "..."}, which makes Gemini CLI ask
// the user even where its policy would allow. A rewritten call is allowed
// with the whole new input in hookSpecificOutput.tool_input. A deny is
// exit 2 with the reason on stderr, which Gemini CLI hands to the model as
// "Tool execution blocked: <reason>". Exit 1, a crash, a timeout or
// output without a decision let the call run.
//
// Gemini CLI reads the paths of its file tools its own way, and the
// adapter refuses what it cannot follow (Gemini CLI 0.61.0): it
// percent-decodes a path before it opens it ("a%2e%2e" is "a.."), drops a
// leading @ when no file has the name as written, and replace looks a
// relative path it does not find up by its base name anywhere in the
// workspace. A path with % or a leading @ is denied, and so is a relative
// path for replace.

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"guard/engine"
)

// Gemini is the adapter for Gemini CLI.
type Gemini struct{}

// geminiEvents maps Gemini CLI's hook events to guard's.
var geminiEvents = map[string]string{
	"BeforeTool": "PreToolUse",
	"AfterTool":  "PostToolUse",
	"SessionEnd": "SessionEnd",
}

// geminiPathFields are the fields that name a file or directory in Gemini
// CLI's tools, in this release or an earlier one (read_file took
// absolute_path, grep_search and glob took path). A call that names two
// different paths in them is denied: guard cannot tell which the tool
// reads.
var geminiPathFields = []string{"file_path", "dir_path", "path", "absolute_path"}

// geminiTools names, for each Gemini CLI tool guard judges by its input,
// the kind of call it makes and where its pattern is. Every path field of
// geminiPathFields is read for a tool of a path kind. A tool that is not
// listed is of KindTool: the policy's tier of its name decides.
var geminiTools = map[string]struct {
	kind    engine.Kind
	pattern string
}{
	"run_shell_command":   {kind: engine.KindShell},
	"read_file":           {kind: engine.KindRead},
	"write_file":          {kind: engine.KindWrite},
	"replace":             {kind: engine.KindEdit},
	"glob":                {kind: engine.KindList, pattern: "pattern"},
	"list_directory":      {kind: engine.KindList},
	"grep_search":         {kind: engine.KindSearch, pattern: "pattern"},
	"search_file_content": {kind: engine.KindSearch, pattern: "pattern"}, // grep_search's old name
	"web_fetch":           {kind: engine.KindFetch},
	"google_web_search":   {kind: engine.KindFetch}, // no URL: denied, as a search carries its query out
}

// Decode reads a BeforeTool, AfterTool or SessionEnd input; they are
// guard's PreToolUse, PostToolUse and SessionEnd. Field names are matched
// exactly; others are ignored.
//
// read_many_files is a tool of KindTool, not a read: its include globs
// match case-insensitively in every workspace directory, which is no one
// path guard can judge.
func (Gemini) Decode(data []byte) (*Event, error) {
	ev, err := decodeEvent(data, "Gemini CLI", geminiEvents)
	if err != nil || ev.Name == "SessionEnd" {
		return ev, err
	}
	tool := ev.Call.Tool
	t, ok := geminiTools[tool]
	if !ok {
		ev.Call.Kind = engine.KindTool // mcp_<server>_<tool>, and every other tool
		return ev, nil
	}
	ev.Call.Kind = t.kind
	in := &ev.Call.Input
	switch t.kind {
	case engine.KindShell:
		if in.Command, err = inputString(tool, ev.Raw, "command"); err != nil {
			return nil, err
		}
		dir, err := geminiPath(tool, ev.Raw, ev.Call.Cwd, []string{"dir_path", "directory"})
		if err != nil {
			return nil, err
		}
		if dir != "" {
			ev.Call.Cwd = dir // the command runs there, wherever that is: the engine judges it
		}
	case engine.KindFetch:
		if tool == "web_fetch" {
			in.URL, err = geminiURL(ev.Raw)
		}
	default:
		if in.Path, err = geminiPath(tool, ev.Raw, ev.Call.Cwd, geminiPathFields); err != nil {
			return nil, err
		}
		if tool == "replace" && in.Path != "" && !filepath.IsAbs(rawPath(ev.Raw)) {
			return nil, &Denial{Why: fmt.Sprintf("replace names the relative path %q, which Gemini CLI looks up by its base name anywhere in the workspace when it is not there", rawPath(ev.Raw)),
				Hints: []string{"give replace the file's absolute path"}}
		}
		if t.pattern != "" {
			in.Pattern, err = inputString(tool, ev.Raw, t.pattern)
		}
	}
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// inputString returns the string field key of a tool's input: "" when it
// is absent; an error when it is there and not a non-empty string, as
// ClaudeInput says.
func inputString(tool string, in map[string]any, key string) (string, error) {
	v, ok := in[key]
	if !ok {
		return "", nil
	}
	s, isString := v.(string)
	if !isString || s == "" {
		return "", deny("the %s call's %q field is not a string guard can judge", tool, key)
	}
	return s, nil
}

// rawPath returns the first path field of a Gemini CLI tool's input as
// written.
func rawPath(in map[string]any) string {
	for _, k := range geminiPathFields {
		if s, ok := in[k].(string); ok {
			return s
		}
	}
	return ""
}

// geminiPath returns the path a Gemini CLI tool names in the fields keys,
// made absolute against cwd as Gemini CLI does (path.resolve: lexically,
// and ~ is a name like any other), or "" when it names none. The fields
// present must name one path, which Gemini CLI opens as written.
func geminiPath(tool string, in map[string]any, cwd string, keys []string) (string, error) {
	p, field := "", ""
	for _, k := range keys {
		s, err := inputString(tool, in, k)
		if err != nil {
			return "", err
		}
		switch {
		case s == "":
			continue
		case p != "" && s != p:
			return "", deny("the %s call names two paths, %q in %s and %q in %s; guard cannot tell which it uses", tool, p, field, s, k)
		}
		p, field = s, k
	}
	switch {
	case p == "":
		return "", nil
	case strings.ContainsRune(p, 0):
		return "", deny("the %s call's %s holds a NUL byte, which Gemini CLI drops", tool, field)
	case strings.HasPrefix(p, "@"):
		return "", &Denial{Why: fmt.Sprintf("the %s call's %s %q starts with @, which Gemini CLI drops when no file has that name", tool, field, p),
			Hints: []string{"name the path without the @"}}
	case strings.Contains(p, "%"):
		return "", &Denial{Why: fmt.Sprintf("the %s call's %s %q holds %%, and Gemini CLI percent-decodes a path before it opens it", tool, field, p),
			Hints: []string{"name the path without percent signs"}}
	case !filepath.IsAbs(p):
		p = filepath.Join(cwd, p)
	}
	return p, nil
}

// geminiURL returns the one URL a web_fetch call fetches: its url field
// (where Gemini CLI fetches directly), and every word of its prompt with
// :// in it, as Gemini CLI finds them, must name the same URL. No URL is
// "", which the engine denies. A github.com blob URL is the
// raw.githubusercontent.com URL Gemini CLI fetches instead.
func geminiURL(in map[string]any) (string, error) {
	direct, err := inputString("web_fetch", in, "url")
	if err != nil {
		return "", err
	}
	prompt, err := inputString("web_fetch", in, "prompt")
	if err != nil {
		return "", err
	}
	urls := map[string]bool{}
	if direct != "" {
		urls[direct] = true
	}
	// Gemini CLI splits the prompt at white space (JavaScript's \s): a
	// word is cut at ASCII white space here, and a word with any other
	// byte outside printable ASCII, or a backslash, is one guard cannot
	// tell how Gemini CLI splits or parses.
	for _, w := range strings.FieldsFunc(prompt, func(r rune) bool { return r == ' ' || r >= '\t' && r <= '\r' }) {
		if !strings.Contains(w, "://") {
			continue
		}
		for i := 0; i < len(w); i++ {
			if w[i] < 0x21 || w[i] > 0x7e || w[i] == '\\' {
				return "", deny("web_fetch: the prompt names the URL %q, which guard cannot read as Gemini CLI does", w)
			}
		}
		urls[w] = true
	}
	switch len(urls) {
	case 0:
		return "", nil
	case 1:
	default:
		return "", &Denial{Why: fmt.Sprintf("web_fetch: the call names %d URLs; guard judges one URL per call", len(urls)),
			Hints: []string{"fetch one URL at a time"}}
	}
	var raw string
	for u := range urls {
		raw = u
	}
	return githubRaw(raw), nil
}

// githubBlob is the start of a github.com blob URL's path, which Gemini
// CLI rewrites to the raw file. It is compiled on first use, not when the
// package starts.
var githubBlob = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/([^/]+/[^/]+)/blob/`) })

// githubRaw returns the URL Gemini CLI fetches for raw: a github.com URL
// of a blob becomes the raw.githubusercontent.com URL of the file.
func githubRaw(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() != "github.com" || !strings.Contains(u.Path, "/blob/") {
		return raw
	}
	u.Host = strings.Replace(u.Host, "github.com", "raw.githubusercontent.com", 1)
	u.Path = githubBlob().ReplaceAllString(u.Path, "/$1/")
	u.RawPath = ""
	return u.String()
}

type geminiOutput struct {
	Decision           string        `json:"decision"`
	Reason             string        `json:"reason,omitempty"`
	SystemMessage      string        `json:"systemMessage,omitempty"`
	HookSpecificOutput geminiRewrite `json:"hookSpecificOutput"`
}

type geminiRewrite struct {
	ToolInput map[string]any `json:"tool_input"`
}

// Answer renders a decision for Gemini CLI. An AfterTool or SessionEnd
// event gets no answer. The answer without a rewrite has a fixed shape,
// written without reflection; TestGeminiAnswerShape checks it against
// encoding/json.
func (Gemini) Answer(ev *Event, d *engine.Decision, where string) Answer {
	if ev.Name == "PostToolUse" || ev.Name == "SessionEnd" {
		return Answer{}
	}
	var decision, reason string
	switch d.Verdict {
	case engine.Allow:
		decision = "allow"
	case engine.Ask:
		decision, reason = "ask", answerReason(d, where)
	default:
		return Answer{Deny: Deny(d, where)}
	}
	if d.Rewrite == nil {
		data := append([]byte(`{"decision":"`), decision...)
		if reason != "" {
			// Gemini CLI shows the user only systemMessage when it asks.
			data = appendJSONString(append(data, `","reason":`...), reason)
			data = appendJSONString(append(data, `,"systemMessage":`...), reason)
		} else {
			data = append(data, '"')
		}
		return Answer{Stdout: append(data, "}\n"...)}
	}
	if ev.Call.Kind != engine.KindShell || d.Rewrite.Command == "" || *d.Rewrite != (engine.Input{Command: d.Rewrite.Command}) {
		return Answer{Deny: &Denial{Why: fmt.Sprintf("guard cannot rewrite the input of tool %s", ev.Call.Tool)}}
	}
	// Gemini CLI builds the tool anew from tool_input (or merges it over
	// the model's arguments, on another path): the whole input goes, with
	// the command replaced.
	in := maps.Clone(ev.Raw)
	in["command"] = d.Rewrite.Command
	data, err := json.Marshal(geminiOutput{Decision: decision, Reason: reason, SystemMessage: reason, HookSpecificOutput: geminiRewrite{ToolInput: in}})
	if err != nil {
		return Answer{Deny: &Denial{Why: fmt.Sprintf("encoding the answer: %v", err)}}
	}
	return Answer{Stdout: append(data, '\n')}
}

// ConfigPaths are Gemini CLI's settings, hooks, extensions, commands and
// policies, in the project and in the home directory. Like CLAUDE.md for
// Claude Code, GEMINI.md is not among them.
func (Gemini) ConfigPaths() []string {
	return []string{"{project}/.gemini/**", "{project}/.gemini", "**/.gemini/settings.json", "~/.gemini/**"}
}

// Reports is true: Gemini CLI sends AfterTool where guard is registered for it.
func (Gemini) Reports() bool { return true }
