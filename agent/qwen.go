// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// Qwen Code runs guard hook as a command hook for PreToolUse (and
// PostToolUse and SessionEnd, for the session tier), registered in
// .qwen/settings.json or ~/.qwen/settings.json in Claude Code's shape.
// Its input is Claude Code's, with Qwen Code's own tool names and
// arguments: session_id, transcript_path, cwd, hook_event_name,
// timestamp, permission_mode (Qwen Code's approval mode: yolo, default,
// auto-edit, plan), prompt_id, tool_name, tool_input, tool_use_id (an id
// Qwen Code makes) and tool_call_id (the model's id of the call). A
// tool the model reaches through tool_call comes to the hook under its
// own name and arguments. The answer is Claude Code's:
//
//	{"hookSpecificOutput": {"hookEventName": "PreToolUse",
//	  "permissionDecision": "allow"|"ask", "permissionDecisionReason": "..."}}
//
// and a deny is exit 2 with the reason on stderr, which Qwen Code hands
// the model as the tool's result, as it is. An ask is refused with its
// reason where nobody can answer it (qwen -p), and put to the user in an
// interactive session (read in Qwen Code's scheduler, not run).
//
// Qwen Code fires PreToolUse when the call is about to run, after its own
// approval, and reads no updatedInput there: the call runs as the model
// made it (checked: an updatedInput command did not run). So a call that
// must run in guard's sandbox (every allowed shell command that guard
// rewrites to guard run) is denied, saying why: Qwen Code has no way to
// take the rewrite from PreToolUse. Its PermissionRequest hook does take
// updatedInput, but Qwen Code fires it only for a call it would prompt
// for, which none is under --yolo, a read-only command is not, and
// headless mode refuses before the hook (read in its scheduler).
//
// Qwen Code fails open: exit 1, output that is not JSON, and a missing
// guard (bash exits 127) let the call run (checked), and so do any code
// but 2 and a timeout (read in 0.24.4's hook runner), which has no option
// that makes a failure block.
//
// Checked against Qwen Code 0.24.4 headless (qwen -p --approval-mode
// yolo; see e2e/qwen_test.go): the tool names, their input and the
// answers above; run_shell_command runs bash -c whatever $SHELL is. Qwen
// Code refuses a relative file_path (read_file, write_file, edit) and a
// relative run_shell_command directory before the hook runs, and
// resolves grep_search's and glob's relative path against the working
// directory (checked). It unescapes shell-escaped file paths before the
// hook sees them (read, not run). Where its tools read a path otherwise
// than the hook is given it (a leading ~, say) is not known: such a path
// is refused.

import (
	"fmt"
	"path/filepath"
	"strings"

	"guard/engine"
)

// Qwen is the adapter for Qwen Code.
type Qwen struct{}

// qwenEvents are the Qwen Code hook events guard takes, by their names,
// which are guard's.
var qwenEvents = map[string]string{"PreToolUse": "PreToolUse", "PostToolUse": "PostToolUse", "SessionEnd": "SessionEnd"}

// qwenTools are Qwen Code 0.24.4's tools that guard judges by their
// input, by the names the hook gets, read as Copilot's are: the kind of
// call, the field of its path (for run_shell_command, the directory it
// runs in), and the field of its command, pattern or URL. A tool that is
// not listed is of KindTool: the policy's tier of its name decides
// (agent, skill, todo_write, save_memory, exec, lsp, MCP tools, ...).
var qwenTools = map[string]copilotTool{
	"run_shell_command": {kind: engine.KindShell, path: []string{"directory"}, field: "command"},
	"read_file":         {kind: engine.KindRead, path: []string{"file_path"}},
	"write_file":        {kind: engine.KindWrite, path: []string{"file_path"}},
	"edit":              {kind: engine.KindEdit, path: []string{"file_path"}},
	"notebook_edit":     {kind: engine.KindEdit, path: []string{"notebook_path"}},
	"grep_search":       {kind: engine.KindSearch, path: []string{"path"}, field: "pattern"},
	"glob":              {kind: engine.KindList, path: []string{"path"}, field: "pattern"},
	"list_directory":    {kind: engine.KindList, path: []string{"path"}},
	"web_fetch":         {kind: engine.KindFetch, field: "url"},
	"web_search":        {kind: engine.KindFetch}, // no URL: denied, as a search carries its query out
}

// Decode reads a PreToolUse, PostToolUse or SessionEnd input.
func (Qwen) Decode(data []byte) (*Event, error) {
	ev, err := decodeEvent(data, "Qwen Code", qwenEvents)
	if err != nil || ev.Name == "SessionEnd" {
		return ev, err
	}
	t, ok := qwenTools[ev.Call.Tool]
	if !ok {
		ev.Call.Kind = engine.KindTool
		return ev, nil
	}
	ev.Call.Kind = t.kind
	in, err := copilotInput(ev.Call.Tool, t, ev.Raw)
	if err != nil {
		return nil, err
	}
	if in.Path, err = qwenPath(ev.Call.Tool, t, in.Path, ev.Call.Cwd); err != nil {
		return nil, err
	}
	if t.kind == engine.KindShell {
		if in.Path != "" {
			ev.Call.Cwd = in.Path // the command runs there, wherever that is: the engine judges it
		}
		in.Path = ""
	}
	ev.Call.Input = in
	return ev, nil
}

// qwenPath returns the path p a Qwen Code tool names, made absolute
// against cwd lexically, or "" for none. A path that starts with ~ is
// refused: guard does not guess whether Qwen Code expands it.
func qwenPath(tool string, t copilotTool, p, cwd string) (string, error) {
	switch {
	case p == "":
		return "", nil
	case strings.ContainsRune(p, 0):
		return "", deny("the %s call's %s holds a NUL byte", tool, t.path[0])
	case strings.HasPrefix(p, "~"):
		return "", &Denial{Why: fmt.Sprintf("the %s call's %s %q starts with ~, which guard does not read as Qwen Code does", tool, t.path[0], p),
			Hints: []string{"give the absolute path"}}
	case !filepath.IsAbs(p):
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p), nil
}

// Answer renders a decision for Qwen Code: allow and ask as Claude Code's
// answers, a deny as exit 2 with the reason. A call guard allows only
// rewritten is denied: Qwen Code takes no rewrite from PreToolUse.
// PostToolUse and SessionEnd get no answer.
func (Qwen) Answer(ev *Event, d *engine.Decision, where string) Answer {
	if ev.Name != "PreToolUse" {
		return Answer{}
	}
	if d.Rewrite != nil && d.Verdict != engine.Deny {
		den := Unbounded(d, where, "it must run in guard's sandbox (guard run), and Qwen Code "+
			"cannot run a call rewritten by its PreToolUse hook, so guard refuses it")
		den.Hints = append(den.Hints, "read and search files with read_file, grep_search and glob, which need no sandbox")
		return Answer{Deny: den}
	}
	return Claude{}.Answer(ev, d, where)
}

// ConfigPaths are Qwen Code's settings, hooks, commands, agents and
// skills, in the project and in the home directory. Like CLAUDE.md for
// Claude Code, QWEN.md is not among them.
func (Qwen) ConfigPaths() []string {
	return []string{"{project}/.qwen/**", "{project}/.qwen", "**/.qwen/settings.json", "~/.qwen/**"}
}

// Reports is true: Qwen Code sends PostToolUse where guard is registered for it.
func (Qwen) Reports() bool { return true }
