// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// Cursor runs guard hook as a command hook of .cursor/hooks.json for
// beforeShellExecution (the terminal command), beforeReadFile,
// beforeMCPExecution and preToolUse (every tool, with its input). Its
// input is one JSON object: hook_event_name, conversation_id,
// workspace_roots, and the event's own fields (command and cwd; file_path;
// tool_name and tool_input). The answer is always a JSON object,
//
//	{"permission": "allow"}
//
// with "updated_input" for a rewritten preToolUse call, because with
// failClosed the IDE takes no output for a failure and the CLI for an
// allow; a deny is exit 2 with the reason on stderr. Cursor does not
// enforce an ask on preToolUse, and runs an asked shell command without a
// prompt in its auto-review mode, so guard refuses what it would ask.
//
// From Cursor's documentation: guard has not run against Cursor itself.

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"

	"guard/engine"
)

// Cursor is the adapter for Cursor.
type Cursor struct{}

// Decode reads a beforeShellExecution, beforeReadFile, beforeMCPExecution
// or preToolUse input.
func (Cursor) Decode(data []byte) (*Event, error) {
	raw, err := readObject(data)
	if err != nil {
		return nil, err
	}
	event, err := stringField(raw, "hook_event_name", true)
	if err != nil {
		return nil, err
	}
	ev := &Event{Name: "PreToolUse"}
	if ev.Session, err = stringField(raw, "conversation_id", false); err != nil {
		return nil, err
	}
	cwd, err := stringField(raw, "cwd", false)
	if err != nil {
		return nil, err
	}
	if cwd == "" {
		if roots, ok := raw["workspace_roots"].([]any); ok && len(roots) > 0 {
			cwd, _ = roots[0].(string)
		}
	}
	var call engine.Call
	switch event {
	case "beforeShellExecution":
		cmd, err := stringField(raw, "command", true)
		if err != nil {
			return nil, err
		}
		call = engine.Call{Kind: engine.KindShell, Tool: "Shell", Input: engine.Input{Command: cmd}}
	case "beforeReadFile":
		p, err := stringField(raw, "file_path", true)
		if err != nil {
			return nil, err
		}
		call = engine.Call{Kind: engine.KindRead, Tool: "Read", Input: engine.Input{Path: p}}
	case "beforeMCPExecution":
		tool, err := stringField(raw, "tool_name", true)
		if err != nil {
			return nil, err
		}
		call = engine.Call{Kind: engine.KindTool, Tool: "MCP:" + tool}
	case "preToolUse":
		tool, err := stringField(raw, "tool_name", true)
		if err != nil {
			return nil, err
		}
		in, ok := raw["tool_input"].(map[string]any)
		if !ok {
			return nil, deny("the hook input's tool_input is not a JSON object")
		}
		ev.Raw = in
		if call, err = cursorCall(tool, in); err != nil {
			return nil, err
		}
		if wd, _ := in["working_directory"].(string); tool == "Shell" && wd != "" {
			cwd = wd
		}
	default:
		return nil, deny("guard hook decides Cursor's tool calls; it does not take its %q event", event)
	}
	if !filepath.IsAbs(cwd) {
		return nil, deny("the hook input's working directory %q is not an absolute path", cwd)
	}
	call.Cwd, call.Session = cwd, ev.Session
	ev.Call = call
	return ev, nil
}

// cursorCall is the call of a preToolUse tool: Shell a shell command, Read
// a read, Write and Delete writes, Grep a search; MCP tools and the rest
// are tools, decided by their names.
func cursorCall(tool string, in map[string]any) (engine.Call, error) {
	// The fields are names the tool's input has had; a call that fills
	// two of them with different values names two paths (or patterns),
	// and guard cannot tell which the tool uses.
	str := func(keys ...string) (string, error) {
		val, field := "", ""
		for _, k := range keys {
			if _, ok := in[k]; !ok {
				continue
			}
			s, err := inputString(tool, in, k)
			if err != nil {
				return "", err
			}
			if field != "" && s != val {
				return "", deny("the %s call names %q in %s and %q in %s; guard cannot tell which it uses", tool, val, field, s, k)
			}
			val, field = s, k
		}
		return val, nil
	}
	c := engine.Call{Tool: tool}
	var err error
	switch tool {
	case "Shell":
		c.Kind = engine.KindShell
		c.Input.Command, err = str("command")
	case "Read":
		c.Kind = engine.KindRead
		c.Input.Path, err = str("file_path", "path", "target_file")
	case "Write", "Delete":
		c.Kind = engine.KindWrite
		c.Input.Path, err = str("file_path", "path", "target_file")
	case "Grep":
		c.Kind = engine.KindSearch
		if c.Input.Path, err = str("path", "target_directory"); err == nil {
			c.Input.Pattern, err = str("pattern", "query")
		}
	default:
		c.Kind = engine.KindTool
	}
	return c, err
}

// cursorOutput is Cursor's answer.
type cursorOutput struct {
	Permission   string         `json:"permission"`
	UserMessage  string         `json:"user_message,omitempty"`
	AgentMessage string         `json:"agent_message,omitempty"`
	UpdatedInput map[string]any `json:"updated_input,omitempty"`
}

// Answer renders a decision for Cursor: allow as an explicit answer, with
// the rewritten command for a preToolUse Shell call; ask and deny as a
// deny. A call that must run rewritten where Cursor takes no rewrite
// (beforeShellExecution) is denied.
func (Cursor) Answer(ev *Event, d *engine.Decision, where string) Answer {
	if d.Verdict == engine.Ask {
		return Answer{Deny: &Denial{Why: Reason(d, where) + "; Cursor does not enforce an ask, so guard refuses what it would ask",
			Hints: []string{d.Hint()}}}
	}
	if d.Verdict != engine.Allow {
		return Answer{Deny: Deny(d, where)}
	}
	out := cursorOutput{Permission: "allow"}
	if d.Rewrite != nil {
		if ev.Raw == nil || ev.Call.Tool != "Shell" || *d.Rewrite != (engine.Input{Command: d.Rewrite.Command}) {
			return Answer{Deny: Unbounded(d, where, "it must run in guard's sandbox, and Cursor's "+
				"beforeShellExecution cannot rewrite a command: register guard for preToolUse")}
		}
		out.UpdatedInput = maps.Clone(ev.Raw)
		out.UpdatedInput["command"] = d.Rewrite.Command
	}
	data, err := json.Marshal(out)
	if err != nil {
		return Answer{Deny: &Denial{Why: fmt.Sprintf("encoding the answer: %v", err)}}
	}
	return Answer{Stdout: append(data, '\n')}
}

// ConfigPaths are Cursor's hooks, rules and settings.
func (Cursor) ConfigPaths() []string {
	return []string{"{project}/.cursor/**", "{project}/.cursor", "~/.cursor/**", "{project}/.cursorrules"}
}

// Reports is false: guard takes none of Cursor's events after a call (afterShellExecution
// and the like).
func (Cursor) Reports() bool { return false }
