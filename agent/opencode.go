// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// OpenCode runs no hook process: it loads JavaScript plugins, and a
// plugin's "tool.execute.before" hook is called before every tool call
// with the tool's name, the session's and the call's ids, and the call's
// arguments, which the hook may change in place; a hook that throws stops
// the call, and OpenCode hands the error's message to the model as the
// tool's error. guard init --agent opencode writes guard's own plugin
// (.opencode/plugins/guard.js, or ~/.opencode/plugins/guard.js),
// which for every call runs guard hook --agent opencode, waits for it, and
// sends it one JSON object on stdin in guard's own protocol, version 1:
//
//	{"guard_opencode": 1, "hook": "tool.execute.before", "tool": "bash",
//	 "sessionID": "ses_...", "callID": "call_...",
//	 "directory": "/abs/project", "worktree": "/abs/repository",
//	 "args": {"command": "ls", "description": "..."}}
//
// directory and worktree are OpenCode's, as it gives them to a plugin;
// args are the call's arguments as the tool will take them. The plugin
// lets the call run only on exit 0 with
//
//	{"guard_opencode": 1, "decision": "allow"}
//
// or the same with "args", the call's arguments rewritten, which the plugin
// puts in place of the old ones. Exit 2 is a deny, and guard's stderr
// (the reason, and the hints) is the error the model gets. Anything else
// blocks too: the plugin fails closed when guard is missing, crashes,
// runs past the timeout, exits with another code, or answers something
// that is not that allow. OpenCode's plugin hook has no way to ask the
// user, so guard refuses what it would ask.
//
// What OpenCode does outside the plugin is OpenCode's: it leaves every
// plugin out under --pure (OPENCODE_PURE), a project's .opencode/ under
// OPENCODE_DISABLE_PROJECT_CONFIG, and a plugin it cannot load (a syntax
// error) without a word, running every call unchecked; and a plugin that
// runs after guard's can change the arguments again.
//
// Checked with OpenCode 1.18.33 (opencode run against a scripted model,
// e2e/opencode_test.go): the tools offered and the arguments the plugin
// gets (the golden inputs in testdata/opencode), that the plugins/
// directories of the project's .opencode/ and of ~/.opencode/ load, that
// arguments changed in place are those the tool runs with, that the
// error thrown reaches the model, and that a plugin that does not load
// lets the call run. From OpenCode's own code (the binary's bundled
// source), not run: that plugin/ loads as plugins/ does, that the tools
// join a relative path to the directory, that bash runs $SHELL, and the
// configuration paths below.

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"guard/engine"
)

// OpenCode is the adapter for OpenCode.
type OpenCode struct{}

// openCodeProtocol is the version of guard's plugin protocol: the
// plugin sends it as guard_opencode and wants it back in the answer.
const openCodeProtocol = 1

// openCodeTool is one of OpenCode's own tools: the kind of call it makes,
// the field of its path, and the field of its command, pattern or URL.
type openCodeTool struct {
	kind        engine.Kind
	path, field string
}

// openCodeTools are OpenCode's tools whose input guard reads. bash, read,
// write, edit, glob, grep and webfetch are among those OpenCode 1.18.33
// offered the model in the e2e runs (with todowrite, task and skill);
// apply_patch (offered to GPT models in place of edit and write),
// websearch and codesearch are from its bundled source; list, which
// 1.18.33 did not offer, is from OpenCode's documentation, unchecked. A
// tool that is not listed is of
// KindTool: the policy's tier of its name decides.
var openCodeTools = map[string]openCodeTool{
	"bash":        {kind: engine.KindShell, field: "command"},
	"read":        {kind: engine.KindRead, path: "filePath"},
	"write":       {kind: engine.KindWrite, path: "filePath"},
	"edit":        {kind: engine.KindEdit, path: "filePath"},
	"apply_patch": {kind: engine.KindWrite},
	"glob":        {kind: engine.KindList, path: "path", field: "pattern"},
	"grep":        {kind: engine.KindSearch, path: "path", field: "pattern"},
	"list":        {kind: engine.KindList, path: "path"},
	"webfetch":    {kind: engine.KindFetch, field: "url"},
	"websearch":   {kind: engine.KindFetch}, // no URL: denied, as a search carries its query out
	"codesearch":  {kind: engine.KindFetch}, // as websearch
}

// Decode reads the plugin's event. A relative path is the directory's,
// joined lexically, as OpenCode's tools join it; bash runs in its
// workdir, the directory's where it is relative. An apply_patch call is
// a write of the one file its patch names, as for Codex, whose patch
// format OpenCode's apply_patch takes.
func (OpenCode) Decode(data []byte) (*Event, error) {
	raw, err := readObject(data)
	if err != nil {
		return nil, err
	}
	if v, ok := raw["guard_opencode"].(json.Number); !ok || v.String() != fmt.Sprint(openCodeProtocol) {
		return nil, &Denial{Why: fmt.Sprintf("the hook input is not version %d of guard's OpenCode plugin protocol (guard_opencode)", openCodeProtocol),
			Hints: []string{"guard init --agent opencode writes the plugin this guard speaks with"}}
	}
	hook, err := stringField(raw, "hook", true)
	if err != nil {
		return nil, err
	}
	if hook != "tool.execute.before" {
		return nil, deny("guard hook decides OpenCode's tool calls; it does not take its %q hook", hook)
	}
	ev := &Event{Name: "PreToolUse"}
	if ev.Session, err = stringField(raw, "sessionID", false); err != nil {
		return nil, err
	}
	if id, err := stringField(raw, "callID", false); err == nil && len(id) <= MaxCallID {
		ev.CallID = id
	}
	tool, err := stringField(raw, "tool", true)
	if err != nil {
		return nil, err
	}
	if tool == "" {
		return nil, deny("the hook input's tool is empty")
	}
	dir, err := stringField(raw, "directory", true)
	if err != nil {
		return nil, err
	}
	if !filepath.IsAbs(dir) {
		return nil, deny("the hook input's directory %q is not an absolute path", dir)
	}
	in, ok := raw["args"].(map[string]any)
	if !ok {
		return nil, deny("the hook input's args is not a JSON object")
	}
	if _, ok := in["__proto__"]; ok {
		// Given back in a rewrite, the plugin's assignment would make it
		// the arguments' prototype: fields guard did not judge.
		return nil, deny("the hook input's args have a __proto__ key")
	}
	ev.Raw = in
	ev.Call = engine.Call{Kind: engine.KindTool, Tool: tool, Cwd: filepath.Clean(dir), Session: ev.Session}
	t, ok := openCodeTools[tool]
	if !ok {
		return ev, nil // todowrite, task, skill, MCP tools (<server>_<tool>), and every other tool
	}
	ev.Call.Kind = t.kind
	if ev.Call.Input, err = openCodeInput(tool, t, in, ev.Call.Cwd); err != nil {
		return nil, err
	}
	if tool == "bash" {
		wd, err := openCodePath(tool, in, "workdir", ev.Call.Cwd)
		if err != nil {
			return nil, err
		}
		if wd != "" {
			ev.Call.Cwd = wd // the command runs there, wherever that is: the engine judges it
		}
	}
	return ev, nil
}

// openCodeInput returns what the engine judges of an OpenCode tool's
// arguments.
func openCodeInput(tool string, t openCodeTool, in map[string]any, dir string) (engine.Input, error) {
	var out engine.Input
	var err error
	if tool == "apply_patch" {
		patch, err := inputString(tool, in, "patchText")
		if err != nil || patch == "" {
			return out, cmpErr(err, deny("the apply_patch call has no patchText"))
		}
		out.Path, err = patchFile(patch, dir)
		return out, err
	}
	if t.path != "" {
		if out.Path, err = openCodePath(tool, in, t.path, dir); err != nil {
			return out, err
		}
	}
	err = setField(&out, tool, t.kind, in, t.field)
	return out, err
}

// setField reads the string field of a tool's input (if field is not "")
// into what the engine judges of a call of the kind: its command, URL or
// pattern.
func setField(out *engine.Input, tool string, kind engine.Kind, in map[string]any, field string) error {
	if field == "" {
		return nil
	}
	v, err := inputString(tool, in, field)
	if err != nil {
		return err
	}
	switch kind {
	case engine.KindShell:
		out.Command = v
	case engine.KindFetch:
		out.URL = v
	default:
		out.Pattern = v
	}
	return nil
}

// askRefused is the deny of what guard would ask, for an agent that
// cannot ask: it says so, with guard's hint and where to turn instead.
func askRefused(agent string, d *engine.Decision, where string) *Denial {
	hints := []string{"ask the user to run it, or to allow it in guard's policy"}
	if h := d.Hint(); h != "" {
		hints = append([]string{h}, hints...)
	}
	return &Denial{Why: agent + " cannot ask the user, so guard refuses what it would ask: " + Reason(d, where), Hints: hints}
}

// cmpErr returns err, or def where err is nil.
func cmpErr(err error, def *Denial) error {
	if err != nil {
		return err
	}
	return def
}

// openCodePath returns the path in an OpenCode tool's field key, made
// absolute against dir as OpenCode's tools make it (joined, lexically; ~
// is a name like any other), or "" where the field is absent.
func openCodePath(tool string, in map[string]any, key, dir string) (string, error) {
	p, err := inputString(tool, in, key)
	switch {
	case err != nil || p == "":
		return "", err
	case strings.ContainsRune(p, 0):
		return "", deny("the %s call's %s holds a NUL byte", tool, key)
	case !filepath.IsAbs(p):
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p), nil
}

// openCodeAnswer is the plugin's allow.
type openCodeAnswer struct {
	Protocol int            `json:"guard_opencode"`
	Decision string         `json:"decision"`
	Args     map[string]any `json:"args,omitempty"`
}

// Answer renders a decision for guard's OpenCode plugin: the allow, with
// the rewritten arguments where guard rewrites the command, or a deny.
// An ask is a deny, which says that OpenCode cannot ask.
func (OpenCode) Answer(ev *Event, d *engine.Decision, where string) Answer {
	switch d.Verdict {
	case engine.Allow:
	case engine.Ask:
		return Answer{Deny: askRefused("OpenCode's plugin", d, where)}
	default:
		return Answer{Deny: Deny(d, where)}
	}
	out := openCodeAnswer{Protocol: openCodeProtocol, Decision: "allow"}
	if d.Rewrite != nil {
		if ev.Call.Kind != engine.KindShell || d.Rewrite.Command == "" || *d.Rewrite != (engine.Input{Command: d.Rewrite.Command}) {
			return Answer{Deny: &Denial{Why: fmt.Sprintf("guard cannot rewrite the input of tool %s", ev.Call.Tool)}}
		}
		out.Args = maps.Clone(ev.Raw)
		out.Args["command"] = d.Rewrite.Command
	}
	data, err := json.Marshal(out)
	if err != nil {
		return Answer{Deny: &Denial{Why: fmt.Sprintf("encoding the answer: %v", err)}}
	}
	return Answer{Stdout: append(data, '\n')}
}

// ConfigPaths are OpenCode's configuration: opencode.json and
// opencode.jsonc and the .opencode directories (plugins, agents, commands,
// tools, config), which OpenCode 1.18 reads in every directory from the
// project up to the repository's top and in the home directory; its
// config directory ($XDG_CONFIG_HOME/opencode, ~/.config/opencode); and
// $OPENCODE_CONFIG_DIR and $OPENCODE_CONFIG; and its cache
// ($XDG_CACHE_HOME/opencode, ~/.cache/opencode), where it installs the npm
// packages of the plugins a configuration names (packages/) and loads
// their code from (its bundled source, not run). Like CLAUDE.md for
// Claude Code, AGENTS.md is not among them.
func (OpenCode) ConfigPaths() []string {
	return []string{"**/.opencode/**", "**/.opencode", "**/opencode.json", "**/opencode.jsonc",
		"~/.config/opencode/**", "{$XDG_CONFIG_HOME}/opencode/**", "{$OPENCODE_CONFIG_DIR}/**", "{$OPENCODE_CONFIG}",
		"~/.cache/opencode/**", "{$XDG_CACHE_HOME}/opencode/**"}
}

// Reports is false: guard's plugin runs guard hook before a call alone.
func (OpenCode) Reports() bool { return false }
