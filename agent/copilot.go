// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// GitHub Copilot CLI runs guard hook as a command hook for preToolUse: a
// hooks file of .github/hooks/, which Copilot runs only in a folder the
// user trusts, or of ~/.copilot/hooks/, which it runs in any. Its input is
// one JSON object in one of two shapes. With a camelCase event
// (preToolUse): sessionId, timestamp (milliseconds), cwd, toolName, one of
// Copilot's own tool names (bash, view, create, edit, grep, glob, ...), and
// toolArgs, an object. With a PascalCase event (PreToolUse, the VS
// Code-compatible form, which Copilot also sends the hooks of
// .claude/settings.json): hook_event_name, session_id, timestamp (an ISO
// string), cwd, tool_name, Claude Code's name of the tool (Bash, Read,
// Write, Edit, Grep, Glob), and tool_input, which holds Copilot's own
// arguments all the same: path, not file_path, and grep's and glob's
// directories in paths, a string or a list. The answer, to either, is
// exit 0 with
//
//	{"permissionDecision": "allow"|"ask"|"deny", "permissionDecisionReason": "..."}
//
// and "modifiedArgs" for a rewritten call. Copilot tells the model
// "Denied by preToolUse hook: " and the reason of a deny; an ask where
// nobody can answer (copilot -p) is a deny with the reason too. Exit 2,
// and any other non-zero exit (a crash, a missing guard), denies as well,
// but the model then gets no reason: exit 2 with nothing on stdout is
// "hook exited with code 2", whatever stderr says. Exit 0 with no answer,
// or one Copilot cannot read, lets the call run, and so does a timeout.
//
// Checked against GitHub Copilot CLI 1.0.102 headless (copilot -p; see
// e2e/copilot_test.go); what an ask does in an interactive session is not.

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"

	"guard/engine"
)

// Copilot is the adapter for GitHub Copilot CLI.
type Copilot struct{}

// copilotTool is one of Copilot's own tools: the kind of call it makes,
// the fields that may name its path (at most one may be there), and the
// field of its command, pattern or URL.
type copilotTool struct {
	kind  engine.Kind
	path  []string
	field string
}

// copilotTools are Copilot's own tools whose input guard reads, by
// Copilot's names.
var copilotTools = map[string]copilotTool{
	"bash":               {kind: engine.KindShell, field: "command"},
	"powershell":         {kind: engine.KindTool},
	"view":               {kind: engine.KindRead, path: []string{"path", "file_path"}},
	"create":             {kind: engine.KindWrite, path: []string{"path", "file_path"}},
	"edit":               {kind: engine.KindEdit, path: []string{"path", "file_path"}},
	"str_replace_editor": {kind: engine.KindEdit, path: []string{"path", "file_path"}},
	"grep":               {kind: engine.KindSearch, path: []string{"paths", "path"}, field: "pattern"},
	"rg":                 {kind: engine.KindSearch, path: []string{"paths", "path"}, field: "pattern"},
	"glob":               {kind: engine.KindList, path: []string{"paths", "path"}, field: "pattern"},
	"web_fetch":          {kind: engine.KindFetch, field: "url"},
}

// copilotClaudeNames are the Claude Code names the PascalCase shape gives
// Copilot's tools, with the Copilot tool whose arguments its tool_input
// holds. Copilot's documentation names powershell Bash there too (on
// Windows; not seen here): guard would judge its command as a shell's.
var copilotClaudeNames = map[string]string{
	"Bash": "bash", "Read": "view", "Write": "create", "Edit": "edit",
	"Grep": "grep", "Glob": "glob", "WebFetch": "web_fetch",
}

// Decode reads a preToolUse input of either shape.
func (Copilot) Decode(data []byte) (*Event, error) {
	raw, err := readObject(data)
	if err != nil {
		return nil, err
	}
	if _, camel := raw["toolName"]; !camel {
		return decodeCopilotPascal(raw, data)
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
		// Copilot 1.0.102 sends an object; a JSON string, as some
		// builds were reported to send, is read as the object it holds.
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
	ev.Call = engine.Call{Kind: engine.KindTool, Tool: tool, Cwd: cwd, Session: ev.Session}
	if t, ok := copilotTools[tool]; ok {
		ev.Call.Kind = t.kind
		if ev.Call.Input, err = copilotInput(tool, t, in); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// decodeCopilotPascal reads the PascalCase shape: Claude Code's fields
// and tool names, without Claude Code's transcript_path and
// permission_mode (an input with them is Claude Code's, sent to --agent
// copilot by mistake, and Claude Code would take Copilot's answer for no
// decision), and Copilot's own arguments. The tool's kind is left to the
// policy, by its Claude Code name.
func decodeCopilotPascal(raw map[string]any, data []byte) (*Event, error) {
	_, transcript := raw["transcript_path"]
	_, mode := raw["permission_mode"]
	if transcript || mode {
		return nil, deny("the hook input has Claude Code's transcript_path or permission_mode: it is not Copilot's; give guard hook the --agent it runs under")
	}
	ev, err := decodeEvent(data, "GitHub Copilot", map[string]string{"PreToolUse": "PreToolUse"})
	if err != nil {
		return nil, err
	}
	name, ok := copilotClaudeNames[ev.Call.Tool]
	if !ok {
		// Not one of Copilot's own tools: read as Claude Code's.
		if ev.Call.Input, err = ClaudeInput(ev.Call.Tool, ev.Raw); err != nil {
			return nil, err
		}
		return ev, nil
	}
	if ev.Call.Input, err = copilotInput(ev.Call.Tool, copilotTools[name], ev.Raw); err != nil {
		return nil, err
	}
	return ev, nil
}

// copilotInput returns what the engine judges of a Copilot tool's
// arguments. A field that is there but is not a string guard can judge is
// an error, and so is more than one of the path fields: a search with
// none is of the working directory, and guard must not judge one path
// where the tool reads another. paths, Copilot's list of the directories
// grep and glob read, may hold one; guard judges one path per call.
func copilotInput(tool string, t copilotTool, in map[string]any) (engine.Input, error) {
	var out engine.Input
	var found []string
	for _, k := range t.path {
		if _, ok := in[k]; ok {
			found = append(found, k)
		}
	}
	if len(found) > 1 {
		return out, deny("the %s call names its path in both %q and %q: guard cannot tell which the tool reads", tool, found[0], found[1])
	}
	if len(found) == 1 {
		k := found[0]
		v := in[k]
		if list, ok := v.([]any); ok && k == "paths" {
			if len(list) != 1 {
				return out, deny("the %s call names %d paths; guard judges one path per call: make one call for each", tool, len(list))
			}
			v = list[0]
		}
		s, ok := v.(string)
		if !ok || s == "" {
			return out, deny("the %s call's %q field is not a path guard can judge", tool, k)
		}
		out.Path = s
	}
	err := setField(&out, tool, t.kind, in, t.field)
	return out, err
}

// copilotOutput is Copilot's answer.
type copilotOutput struct {
	PermissionDecision       string         `json:"permissionDecision"`
	PermissionDecisionReason string         `json:"permissionDecisionReason,omitempty"`
	ModifiedArgs             map[string]any `json:"modifiedArgs,omitempty"`
}

// Answer renders a decision for Copilot. A deny is Copilot's deny
// answer, with guard's reason and hints, as the deny line guard hook
// writes on stderr elsewhere: Copilot hands the reason to the model, and
// does not read stderr.
func (Copilot) Answer(ev *Event, d *engine.Decision, where string) Answer {
	out := copilotOutput{PermissionDecisionReason: answerReason(d, where)}
	switch d.Verdict {
	case engine.Allow:
		out.PermissionDecision = "allow"
	case engine.Ask:
		out.PermissionDecision = "ask"
	default:
		return copilotDeny(Deny(d, where))
	}
	if d.Rewrite != nil {
		if _, ok := ev.Raw["command"]; !ok || ev.Call.Kind != engine.KindShell && ev.Call.Tool != "Bash" || *d.Rewrite != (engine.Input{Command: d.Rewrite.Command}) {
			return copilotDeny(&Denial{Why: fmt.Sprintf("guard cannot rewrite the input of tool %s", ev.Call.Tool)})
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

// copilotDeny is Copilot's deny answer for a denial: "guard: denied: ",
// the reason, and a "guard: hint: " line for each hint, as JSON on
// stdout, and exit 2 as well: Copilot shows the JSON's reason, and blocks
// on exit 2 even where it could not read the JSON.
func copilotDeny(dn *Denial) Answer {
	msg := "guard: denied: " + oneLine(dn.Why)
	for _, h := range dn.Hints {
		if h != "" {
			msg += "\nguard: hint: " + oneLine(h)
		}
	}
	data, err := json.Marshal(copilotOutput{PermissionDecision: "deny", PermissionDecisionReason: Clip(msg, maxReason)})
	if err != nil {
		return Answer{Deny: dn}
	}
	return Answer{Stdout: append(data, '\n'), Deny: dn}
}

// ConfigPaths are Copilot's hooks, settings and instructions.
func (Copilot) ConfigPaths() []string {
	return []string{"{project}/.github/hooks/**", "{project}/.github/copilot/**", "~/.copilot/**",
		"{project}/.github/copilot-instructions.md"}
}

// Reports is false: guard takes Copilot's preToolUse alone.
func (Copilot) Reports() bool { return false }
