// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// Codex CLI runs guard hook as a command hook for PreToolUse (and
// PostToolUse and SessionEnd, for the session tier), registered in
// hooks.json next to a config layer, and only once the user has trusted
// it: an untrusted hook is skipped without a word. Its input is one JSON
// object on stdin: hook_event_name, session_id, turn_id, cwd, model,
// tool_name and tool_input. Codex names its shell tool Bash, whatever the
// model called (exec_command, shell), with the command line in
// tool_input.command; apply_patch holds its patch in tool_input.command;
// an MCP tool is mcp__<server>__<tool>.
//
// The answer to allow is exit 0 and no output, and that is all Codex
// takes: "allow" alone, and "ask", are answers it does not support, and it
// runs the call. So guard refuses what it would ask. A rewritten call is
// allowed with
//
//	{"hookSpecificOutput": {"hookEventName": "PreToolUse",
//	  "permissionDecision": "allow", "updatedInput": {...}}}
//
// and a deny is exit 2 with the reason on stderr, which Codex hands to
// the model. Any other exit code, a crash, a timeout, exit 2 without a
// reason, and output Codex does not know (a field it has no name for)
// let the call run.

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"guard/engine"
)

// Codex is the adapter for Codex CLI.
type Codex struct{}

// codexEvents maps Codex's hook events to guard's.
var codexEvents = map[string]string{
	"PreToolUse":        "PreToolUse",
	"PermissionRequest": "PermissionRequest",
	"PostToolUse":       "PostToolUse",
	"SessionEnd":        "SessionEnd",
}

// Decode reads a PreToolUse, PermissionRequest, PostToolUse or SessionEnd
// input. Field names are matched exactly; others are ignored.
//
// An apply_patch call is a write of the one file its patch names. The
// engine decides one path per call, so a patch that names more than one
// file (a move names two), or none, is denied, with a hint to apply one
// file's patch at a time. A Bash call that is nothing but apply_patch
// with its patch as a here-document (apply_patch <<'EOF' ... EOF) is
// such a call too, of the tool apply_patch: Codex applies that patch
// itself, and so guard judges the file it writes.
func (Codex) Decode(data []byte) (*Event, error) {
	ev, err := decodeEvent(data, "Codex", codexEvents)
	if err != nil || ev.Name == "SessionEnd" {
		return ev, err
	}
	// Codex sends turn_id with every tool event. Without it the input is
	// another agent's, sent to guard hook --agent codex by mistake, and
	// Codex's allow (no output) would let that agent decide on its own.
	if raw, _ := readObject(data); raw["turn_id"] == nil {
		return nil, deny("the hook input has no turn_id, which Codex sends with every tool event: it is not Codex's; give guard hook the --agent it runs under")
	}
	tool := ev.Call.Tool
	switch tool {
	case "Bash":
		ev.Call.Kind = engine.KindShell
		ev.Call.Input.Command, err = inputString(tool, ev.Raw, "command")
		if patch, ok := heredocPatch(ev.Call.Input.Command); ok && err == nil {
			// Codex applies the patch itself: an apply_patch call.
			ev.Call.Kind, ev.Call.Tool, ev.Call.Input = engine.KindWrite, "apply_patch", engine.Input{}
			ev.Call.Input.Path, err = patchFile(patch, ev.Call.Cwd)
		}
	case "apply_patch":
		ev.Call.Kind = engine.KindWrite
		var patch string
		if patch, err = inputString(tool, ev.Raw, "command"); err != nil {
			break
		}
		ev.Call.Input.Path, err = patchFile(patch, ev.Call.Cwd)
	default:
		ev.Call.Kind = engine.KindTool // mcp__<server>__<tool>, and every other tool
	}
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// heredocStart is the first line of a shell command that hands
// apply_patch its patch as a here-document with a quoted delimiter, in
// which the shell expands nothing. It is compiled on first use, not when
// the package starts.
var heredocStart = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:apply_patch|applypatch) <<(?:'([A-Za-z_][A-Za-z0-9_]*)'|"([A-Za-z_][A-Za-z0-9_]*)")\n`)
})

// heredocPatch returns the patch of a Bash call that is nothing but
// apply_patch and its here-document: Codex applies such a patch itself,
// and reports the call to the hook as Bash. Whatever else the command
// holds (a cd before it, a command after it, a line that ends the
// here-document early, a delimiter the shell expands in) makes it a shell
// command, which the engine judges as one.
func heredocPatch(cmd string) (string, bool) {
	m := heredocStart().FindStringSubmatch(cmd)
	if m == nil {
		return "", false
	}
	delim := m[1] + m[2]
	body := strings.TrimSuffix(cmd[len(m[0]):], "\n")
	i := strings.LastIndex(body, "\n")
	if i < 0 || body[i+1:] != delim {
		return "", false
	}
	body = body[:i+1]
	for line := range strings.Lines(body) {
		if strings.TrimSuffix(line, "\n") == delim {
			return "", false
		}
	}
	return body, true
}

// patchMarkers start the lines of a patch that name a file. Codex wants
// a space after the colon; a line without one is counted too.
var patchMarkers = []string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"}

// patchFile returns the one file an apply_patch patch names, absolute: a
// relative path is Codex's working directory joined with it, unresolved,
// as Codex opens it. A patch that names no file or more than one is
// denied.
//
// Every line is read, trimmed of white space as Codex's parser trims
// them, whether Codex would take it for a file's header or not (a line of
// a file's contents that reads like one, say): counting one too many
// denies a patch guard could have judged; counting one too few would let
// a file go unjudged.
func patchFile(patch, cwd string) (string, error) {
	var files []string
	seen := map[string]bool{}
	for line := range strings.Lines(patch) {
		line = strings.TrimSpace(line)
		for _, m := range patchMarkers {
			name, ok := strings.CutPrefix(line, m)
			if !ok {
				continue
			}
			name = strings.TrimSpace(name)
			if name == "" {
				return "", deny("apply_patch: the patch has a %q line without a path", m)
			}
			if !filepath.IsAbs(name) {
				name = strings.TrimSuffix(cwd, "/") + "/" + name
			}
			if !seen[name] {
				seen[name] = true
				files = append(files, name)
			}
		}
	}
	hint := []string{"apply one file's patch at a time: one apply_patch call per file, and a move as a delete and an add"}
	switch len(files) {
	case 0:
		return "", &Denial{Why: "apply_patch: the patch names no file guard can judge", Hints: hint}
	case 1:
		return files[0], nil
	}
	return "", &Denial{Why: fmt.Sprintf("apply_patch: the patch names %d files (%s); guard judges one file per call", len(files), strings.Join(files, ", ")), Hints: hint}
}

type codexOutput struct {
	HookSpecificOutput codexDecision `json:"hookSpecificOutput"`
}

type codexDecision struct {
	HookEventName      string         `json:"hookEventName"`
	PermissionDecision string         `json:"permissionDecision"`
	UpdatedInput       map[string]any `json:"updatedInput"`
}

// Answer renders a decision for Codex. A PostToolUse or SessionEnd event
// gets no answer, and a PermissionRequest guard's allow or deny. An
// allowed call gets the silent one: exit 0 and no output. An ask is a
// deny that says so. A rewritten input is sent whole as updatedInput.
func (Codex) Answer(ev *Event, d *engine.Decision, where string) Answer {
	switch ev.Name {
	case "PostToolUse", "SessionEnd":
		return Answer{}
	case "PermissionRequest":
		// Codex's only approval that guard can give: of a command that
		// asks to leave Codex's sandbox, say, which guard allows.
		return permissionAnswer(d, where, true)
	}
	switch d.Verdict {
	case engine.Allow:
	case engine.Ask:
		return Answer{Deny: askRefused("Codex", d, where)}
	default:
		return Answer{Deny: Deny(d, where)}
	}
	if d.Rewrite == nil {
		return Answer{Silent: true}
	}
	if ev.Call.Kind != engine.KindShell || d.Rewrite.Command == "" || *d.Rewrite != (engine.Input{Command: d.Rewrite.Command}) {
		return Answer{Deny: &Denial{Why: fmt.Sprintf("guard cannot rewrite the input of tool %s", ev.Call.Tool)}}
	}
	in := maps.Clone(ev.Raw)
	in["command"] = d.Rewrite.Command
	data, err := json.Marshal(codexOutput{HookSpecificOutput: codexDecision{
		HookEventName: "PreToolUse", PermissionDecision: "allow", UpdatedInput: in,
	}})
	if err != nil {
		return Answer{Deny: &Denial{Why: fmt.Sprintf("encoding the answer: %v", err)}}
	}
	return Answer{Stdout: append(data, '\n')}
}

// ConfigPaths are Codex's configuration, hooks, rules, skills and trust
// records, in the project (Codex reads a .codex layer in every directory
// from the project root down to the working directory) and in the home
// directory. A CODEX_HOME elsewhere is not known here. Like CLAUDE.md
// for Claude Code, AGENTS.md is not among them.
func (Codex) ConfigPaths() []string {
	return []string{
		"{project}/.codex/**", "{project}/.codex", "**/.codex/config.toml", "**/.codex/hooks.json",
		"**/.codex/rules/**", "~/.codex/**",
	}
}

// Reports is true: Codex sends PostToolUse where guard is registered for it.
func (Codex) Reports() bool { return true }
