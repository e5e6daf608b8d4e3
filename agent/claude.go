// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// Claude Code runs guard hook as a command hook for PreToolUse (and
// PostToolUse, for the session tier). Its input is one JSON object on
// stdin: hook_event_name, session_id, cwd, tool_name and tool_input. The
// answer to allow or ask is exit 0 with
//
//	{"hookSpecificOutput": {"hookEventName": "PreToolUse",
//	  "permissionDecision": "allow"|"ask", "permissionDecisionReason": "..."}}
//
// and, for a rewritten call, "updatedInput", which replaces the whole tool
// input. A deny is exit 2 with the reason on stderr, which Claude Code
// hands to the model: any other failure (exit 1, a crash, a timeout) lets
// the call run.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"

	"guard/engine"
)

// Claude is the adapter for Claude Code.
type Claude struct{}

// claudeFields names, for each Claude Code tool guard judges by its input,
// the field that holds what the engine judges. A tool that is not listed
// (an MCP tool a policy gives a kind, say) is read by the generic fields.
var claudeFields = map[string]struct{ command, path, pattern, url string }{
	"Bash":         {command: "command"},
	"Monitor":      {command: "command"},
	"Read":         {path: "file_path"},
	"Write":        {path: "file_path"},
	"Edit":         {path: "file_path"},
	"MultiEdit":    {path: "file_path"},
	"NotebookRead": {path: "notebook_path"},
	"NotebookEdit": {path: "notebook_path"},
	"Glob":         {path: "path", pattern: "pattern"},
	"Grep":         {path: "path", pattern: "pattern"},
	"LS":           {path: "path"},
	"WebFetch":     {url: "url"},
}

// genericPathFields are the fields that may name the path of a tool
// guard does not know; exactly one must be present.
var genericPathFields = []string{"file_path", "notebook_path", "path"}

// ClaudeInput returns what the engine judges of a Claude Code tool's
// input. A field the tool uses that is missing stays empty, and a call
// whose kind needs it is denied; a field that is there but is not a
// string, or is an empty string, is an error: guard cannot tell what the
// tool will make of it.
func ClaudeInput(tool string, in map[string]any) (engine.Input, error) {
	var bad error
	str := func(key string) string {
		v, ok := in[key]
		if !ok {
			return ""
		}
		s, isString := v.(string)
		if (!isString || s == "") && bad == nil {
			bad = deny("the %s call's %q field is not a string guard can judge", tool, key)
		}
		return s
	}
	if f, ok := claudeFields[tool]; ok {
		var out engine.Input
		if f.command != "" {
			out.Command = str(f.command)
		}
		if f.path != "" {
			out.Path = str(f.path)
		}
		if f.pattern != "" {
			out.Pattern = str(f.pattern)
		}
		if f.url != "" {
			out.URL = str(f.url)
		}
		return out, bad
	}
	out := engine.Input{Command: str("command"), Pattern: str("pattern"), URL: str("url")}
	n := 0
	for _, k := range genericPathFields {
		if _, ok := in[k]; ok {
			n++
			out.Path = str(k)
		}
	}
	if n > 1 {
		out.Path = "" // which one the tool uses is unknown: a call that needs a path is denied
	}
	return out, bad
}

// Decode reads a PreToolUse, PostToolUse or SessionEnd input. Field names
// are matched exactly; others are ignored. A SessionEnd input has no call:
// only its session and working directory.
func (Claude) Decode(data []byte) (*Event, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, deny("the hook input is empty; guard hook reads a PreToolUse call as JSON on stdin")
	}
	// One pass over the input: a Write's content or a long command is
	// scanned twice (to find the value's end, then to decode it), not once
	// more per field.
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		return nil, deny("the hook input is not a JSON object: %v", err)
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return nil, deny("the hook input has data after its JSON object")
	}
	if raw == nil {
		return nil, deny("the hook input is not a JSON object")
	}
	str := func(key string, required bool) (string, error) {
		v, ok := raw[key]
		if !ok {
			if required {
				return "", deny("the hook input has no %q field", key)
			}
			return "", nil
		}
		if v == nil {
			return "", nil // null, as encoding/json leaves a string it is given null for
		}
		s, ok := v.(string)
		if !ok {
			return "", deny("the hook input's %q field is not a string", key)
		}
		return s, nil
	}
	ev := &Event{}
	var err error
	if ev.Name, err = str("hook_event_name", false); err != nil {
		return nil, err
	}
	switch ev.Name {
	case "":
		ev.Name = "PreToolUse"
	case "PreToolUse", "PostToolUse", "SessionEnd":
	default:
		return nil, deny("guard hook decides PreToolUse calls, not %q", ev.Name)
	}
	if ev.Session, err = str("session_id", false); err != nil {
		return nil, err
	}
	if ev.Name == "SessionEnd" {
		cwd, err := str("cwd", false)
		if err != nil {
			return nil, err
		}
		ev.Call = engine.Call{Cwd: cwd, Session: ev.Session}
		return ev, nil
	}
	tool, err := str("tool_name", true)
	if err != nil {
		return nil, err
	}
	if tool == "" {
		return nil, deny("the hook input's tool_name is empty")
	}
	cwd, err := str("cwd", true)
	if err != nil {
		return nil, err
	}
	if !filepath.IsAbs(cwd) {
		return nil, deny("the hook input's cwd %q is not an absolute path", cwd)
	}
	ti, ok := raw["tool_input"]
	if !ok {
		return nil, deny("the hook input has no \"tool_input\" field")
	}
	if ev.Raw, ok = ti.(map[string]any); !ok {
		return nil, deny("the hook input's tool_input is not a JSON object")
	}
	input, err := ClaudeInput(tool, ev.Raw)
	if err != nil {
		return nil, err
	}
	ev.Call = engine.Call{Tool: tool, Input: input, Cwd: cwd, Session: ev.Session}
	return ev, nil
}

type claudeOutput struct {
	HookSpecificOutput claudeDecision `json:"hookSpecificOutput"`
}

type claudeDecision struct {
	HookEventName            string         `json:"hookEventName"`
	PermissionDecision       string         `json:"permissionDecision"`
	PermissionDecisionReason string         `json:"permissionDecisionReason"`
	UpdatedInput             map[string]any `json:"updatedInput,omitempty"`
}

// Answer renders a decision for Claude Code. A PostToolUse event gets no
// answer. A rewritten input is sent whole as updatedInput. The answer
// without one has a fixed shape, written without reflection;
// TestClaudeAnswerShape checks it against encoding/json.
func (Claude) Answer(ev *Event, d *engine.Decision, where string) Answer {
	if ev.Name == "PostToolUse" || ev.Name == "SessionEnd" {
		return Answer{}
	}
	var decision string
	switch d.Verdict {
	case engine.Allow:
		decision = "allow"
	case engine.Ask:
		decision = "ask"
	default:
		return Answer{Deny: Deny(d, where)}
	}
	reason := Reason(d, where)
	if d.Rewrite == nil {
		data := append([]byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"`), decision...)
		data = appendJSONString(append(data, `","permissionDecisionReason":`...), reason)
		return Answer{Stdout: append(data, "}}\n"...)}
	}
	updated, err := claudeRewrite(ev, d.Rewrite)
	if err != nil {
		return Answer{Deny: &Denial{Why: err.Error()}}
	}
	data, err := json.Marshal(claudeOutput{HookSpecificOutput: claudeDecision{
		HookEventName:            "PreToolUse",
		PermissionDecision:       decision,
		PermissionDecisionReason: reason,
		UpdatedInput:             updated,
	}})
	if err != nil {
		return Answer{Deny: &Denial{Why: fmt.Sprintf("encoding the answer: %v", err)}}
	}
	return Answer{Stdout: append(data, '\n')}
}

// claudeRewrite returns the tool input with the rewritten fields in place:
// Claude Code takes updatedInput as the whole new input.
func claudeRewrite(ev *Event, in *engine.Input) (map[string]any, error) {
	f, ok := claudeFields[ev.Call.Tool]
	if !ok || f.command == "" || in.Command == "" || *in != (engine.Input{Command: in.Command}) {
		return nil, fmt.Errorf("guard cannot rewrite the input of tool %s", ev.Call.Tool)
	}
	out := maps.Clone(ev.Raw)
	out[f.command] = in.Command
	return out, nil
}

// ConfigPaths are Claude Code's settings, hooks, skills, agents, commands
// and MCP servers, in the project and in the home directory.
func (Claude) ConfigPaths() []string {
	return []string{
		"{project}/.claude/**", "{project}/.claude", "**/.claude/settings*.json",
		"~/.claude/**", "{project}/.mcp.json", "~/.mcp.json", "~/.claude.json",
	}
}

func deny(format string, a ...any) *Denial {
	return &Denial{Why: fmt.Sprintf(format, a...)}
}
