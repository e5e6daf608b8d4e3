// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// GitHub Copilot CLI runs guard hook as a command hook for preToolUse (a
// hooks file of .github/hooks/, or ~/.copilot/hooks/). Its input is one
// JSON object in one of two shapes: with a camelCase event (preToolUse),
// sessionId, timestamp (milliseconds), cwd, toolName and toolArgs, Copilot's
// own tool names (bash, view, create, edit, grep, glob, web_fetch, ...);
// with a PascalCase event (PreToolUse, the VS Code-compatible form),
// session_id, cwd, tool_name and tool_input under Claude Code's tool names.
// The answer is
//
//	{"permissionDecision": "allow"|"ask", "permissionDecisionReason": "..."}
//
// with "modifiedArgs" for a rewritten call; a deny is exit 2, which Copilot
// also takes for a deny (so is any other non-zero exit, a crash; but a
// timeout lets the call run). Copilot resolves an ask to a deny when no
// one can answer it.
//
// From Copilot's documentation: guard has not run against Copilot itself.

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"

	"guard/engine"
)

// Copilot is the adapter for GitHub Copilot CLI.
type Copilot struct{}

// copilotTools are Copilot's own tool names, with the Claude Code tool
// each stands for (whose fields guard reads) and the fields Copilot names
// differently.
var copilotTools = map[string]struct {
	kind  engine.Kind
	path  []string
	field string // the command, pattern or URL
}{
	"bash":               {kind: engine.KindShell, field: "command"},
	"powershell":         {kind: engine.KindTool},
	"view":               {kind: engine.KindRead, path: []string{"path", "file_path"}},
	"create":             {kind: engine.KindWrite, path: []string{"path", "file_path"}},
	"edit":               {kind: engine.KindEdit, path: []string{"path", "file_path"}},
	"str_replace_editor": {kind: engine.KindEdit, path: []string{"path", "file_path"}},
	"grep":               {kind: engine.KindSearch, path: []string{"path"}, field: "pattern"},
	"rg":                 {kind: engine.KindSearch, path: []string{"path"}, field: "pattern"},
	"glob":               {kind: engine.KindList, path: []string{"path"}, field: "pattern"},
	"web_fetch":          {kind: engine.KindFetch, field: "url"},
}

// Decode reads a preToolUse input of either shape.
func (Copilot) Decode(data []byte) (*Event, error) {
	raw, err := readObject(data)
	if err != nil {
		return nil, err
	}
	if _, camel := raw["toolName"]; !camel {
		// The VS Code-compatible shape is Claude Code's, tools and all, but
		// without Claude Code's transcript_path and permission_mode: an
		// input with them is Claude Code's, sent to --agent copilot by
		// mistake, and Claude Code would take Copilot's allow for no
		// decision.
		_, transcript := raw["transcript_path"]
		_, mode := raw["permission_mode"]
		if transcript || mode {
			return nil, deny("the hook input has Claude Code's transcript_path or permission_mode: it is not Copilot's; give guard hook the --agent it runs under")
		}
		ev, err := Claude{}.Decode(data)
		if err == nil && ev.Name != "PreToolUse" {
			return nil, deny("guard hook decides Copilot's preToolUse calls, not %q", ev.Name)
		}
		return ev, err
	}
	ev := &Event{Name: "PreToolUse"}
	if ev.Session, err = stringField(raw, "sessionId", false); err != nil {
		return nil, err
	}
	tool, err := stringField(raw, "toolName", true)
	if err != nil {
		return nil, err
	}
	cwd, err := stringField(raw, "cwd", true)
	if err != nil {
		return nil, err
	}
	if !filepath.IsAbs(cwd) {
		return nil, deny("the hook input's cwd %q is not an absolute path", cwd)
	}
	args := raw["toolArgs"]
	if s, ok := args.(string); ok {
		// Some builds send the arguments as a JSON string.
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			return nil, deny("the hook input's toolArgs is not a JSON object: %v", err)
		}
		args = m
	}
	in, ok := args.(map[string]any)
	if !ok {
		return nil, deny("the hook input's toolArgs is not a JSON object")
	}
	ev.Raw = in
	call := engine.Call{Kind: engine.KindTool, Tool: tool, Cwd: cwd, Session: ev.Session}
	if t, ok := copilotTools[tool]; ok {
		call.Kind = t.kind
		for _, k := range t.path {
			if _, there := in[k]; there {
				if call.Input.Path, err = inputString(tool, in, k); err != nil {
					return nil, err
				}
				break
			}
		}
		if t.field != "" {
			v, err := inputString(tool, in, t.field)
			if err != nil {
				return nil, err
			}
			switch t.kind {
			case engine.KindShell:
				call.Input.Command = v
			case engine.KindFetch:
				call.Input.URL = v
			default:
				call.Input.Pattern = v
			}
		}
	}
	ev.Call = call
	return ev, nil
}

// copilotOutput is Copilot's answer.
type copilotOutput struct {
	PermissionDecision       string         `json:"permissionDecision"`
	PermissionDecisionReason string         `json:"permissionDecisionReason,omitempty"`
	ModifiedArgs             map[string]any `json:"modifiedArgs,omitempty"`
}

// Answer renders a decision for Copilot.
func (Copilot) Answer(ev *Event, d *engine.Decision, where string) Answer {
	out := copilotOutput{PermissionDecisionReason: Reason(d, where)}
	switch d.Verdict {
	case engine.Allow:
		out.PermissionDecision = "allow"
	case engine.Ask:
		out.PermissionDecision = "ask"
	default:
		return Answer{Deny: Deny(d, where)}
	}
	if d.Rewrite != nil {
		if _, ok := ev.Raw["command"]; !ok || ev.Call.Kind != engine.KindShell || *d.Rewrite != (engine.Input{Command: d.Rewrite.Command}) {
			return Answer{Deny: &Denial{Why: fmt.Sprintf("guard cannot rewrite the input of tool %s", ev.Call.Tool)}}
		}
		out.ModifiedArgs = maps.Clone(ev.Raw)
		out.ModifiedArgs["command"] = d.Rewrite.Command
	}
	data, err := json.Marshal(out)
	if err != nil {
		return Answer{Deny: &Denial{Why: fmt.Sprintf("encoding the answer: %v", err)}}
	}
	return Answer{Stdout: append(data, '\n')}
}

// ConfigPaths are Copilot's hooks, settings and instructions.
func (Copilot) ConfigPaths() []string {
	return []string{"{project}/.github/hooks/**", "{project}/.github/copilot/**", "~/.copilot/**",
		"{project}/.github/copilot-instructions.md"}
}
