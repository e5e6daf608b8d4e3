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
	"encoding/json"
	"fmt"
	"maps"

	"guard/engine"
)

// Claude is the adapter for Claude Code.
type Claude struct{}

// claudeFields names, for each Claude Code tool guard judges by its input,
// the field that holds what the engine judges. A tool that is not listed
// (an MCP tool a policy gives a kind, say) is read by the generic fields.
var claudeFields = map[string]struct{ command, path, pattern, url, glob string }{
	"Bash":         {command: "command"},
	"Monitor":      {command: "command"},
	"Read":         {path: "file_path"},
	"Write":        {path: "file_path"},
	"Edit":         {path: "file_path"},
	"MultiEdit":    {path: "file_path"},
	"NotebookRead": {path: "notebook_path"},
	"NotebookEdit": {path: "notebook_path"},
	"Glob":         {path: "path", pattern: "pattern"},
	"Grep":         {path: "path", pattern: "pattern", glob: "glob"},
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
		if _, ok := in["paths"]; ok && f.path != "" {
			// Not a field of Claude Code's tool: another agent's (Copilot's
			// grep reads the directories it lists there).
			return engine.Input{}, deny("the %s call names paths, which guard does not know for this tool: it cannot tell what the tool reads", tool)
		}
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
		if v, ok := in[f.glob]; ok && f.glob != "" {
			// Any string, the empty one too: guard adds to it and judges
			// none of it.
			if out.Glob, ok = v.(string); !ok && bad == nil {
				bad = deny("the %s call's %q field is not a string guard can judge", tool, f.glob)
			}
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

// Decode reads a PreToolUse, PermissionRequest, PostToolUse (or
// PostToolUseFailure) or SessionEnd input. Field names
// are matched exactly; others are ignored. A SessionEnd input has no call:
// only its session and working directory.
func (Claude) Decode(data []byte) (*Event, error) {
	ev, err := decodeEvent(data, "Claude Code", claudeEvents)
	if err != nil || ev.Name == "SessionEnd" {
		return ev, err
	}
	if raw, _ := readObject(data); copilotShape(raw) {
		// GitHub Copilot CLI runs Claude Code's hooks too, giving its own
		// tools Claude Code's names and keeping their arguments (path,
		// paths), which Claude Code's fields would miss.
		if name, ok := copilotClaudeNames[ev.Call.Tool]; ok {
			if ev.Call.Input, err = copilotInput(ev.Call.Tool, copilotTools[name], ev.Raw); err != nil {
				return nil, err
			}
			return ev, nil
		}
	}
	input, err := ClaudeInput(ev.Call.Tool, ev.Raw)
	if err != nil {
		return nil, err
	}
	ev.Call.Input = input
	// Claude Code's Grep runs ripgrep with --hidden --no-follow and a -g
	// for each word of its glob field, after them those of its own that
	// leave files out (read from its 2.1.332 binary): a glob guard adds
	// there keeps a secret out of the search.
	ev.Call.SearchGlobs = ev.Call.Tool == "Grep"
	return ev, nil
}

// claudeEvents maps Claude Code's hook events to guard's; an input without
// hook_event_name is a PreToolUse call.
// PostToolUseFailure, which Claude Code sends for a call that ran and
// failed (a command's exit status other than 0), is a PostToolUse: the
// call ran.
var claudeEvents = map[string]string{"": "PreToolUse", "PreToolUse": "PreToolUse", "PermissionRequest": "PermissionRequest",
	"PostToolUse": "PostToolUse", "PostToolUseFailure": "PostToolUse", "SessionEnd": "SessionEnd"}

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
// answer, and a PermissionRequest guard's deny only. A rewritten input is sent whole as updatedInput. The answer
// without one has a fixed shape, written without reflection;
// TestClaudeAnswerShape checks it against encoding/json.
func (Claude) Answer(ev *Event, d *engine.Decision, where string) Answer {
	switch ev.Name {
	case "PostToolUse", "SessionEnd":
		return Answer{}
	case "PermissionRequest":
		// A prompt that follows guard's allow is the user's own ask
		// rule in Claude Code: guard does not answer it for the user.
		return permissionAnswer(d, where, false)
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
	var updated map[string]any
	if d.Rewrite != nil {
		var err error
		if updated, err = claudeRewrite(ev, d.Rewrite); err != nil {
			return Answer{Deny: &Denial{Why: err.Error()}}
		}
	}
	return preToolUseAnswer(decision, answerReason(d, where), updated)
}

// preToolUseAnswer is the answer to a PreToolUse call in Claude Code's
// shape, which Factory Droid reads too: decision (allow or ask), its
// reason, and the whole rewritten input where there is one. The answer
// without one has a fixed shape, written without reflection.
func preToolUseAnswer(decision, reason string, updated map[string]any) Answer {
	if updated == nil {
		data := append([]byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"`), decision...)
		data = appendJSONString(append(data, `","permissionDecisionReason":`...), reason)
		return Answer{Stdout: append(data, "}}\n"...)}
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
	switch {
	case ok && f.command != "" && in.Command != "" && *in == (engine.Input{Command: in.Command}):
		out := maps.Clone(ev.Raw)
		out[f.command] = in.Command
		return out, nil
	case ok && f.glob != "" && in.Glob != "" && *in == (engine.Input{Path: ev.Call.Input.Path, Pattern: ev.Call.Input.Pattern, Glob: in.Glob}):
		// A search with the globs that leave secrets out.
		out := maps.Clone(ev.Raw)
		out[f.glob] = in.Glob
		return out, nil
	}
	return nil, fmt.Errorf("guard cannot rewrite the input of tool %s", ev.Call.Tool)
}

// ConfigPaths are Claude Code's settings, hooks, skills, agents, commands
// and MCP servers, in the project and in the home directory.
func (Claude) ConfigPaths() []string {
	return []string{
		"{project}/.claude/**", "{project}/.claude", "**/.claude/settings*.json",
		"~/.claude/**", "{project}/.mcp.json", "~/.mcp.json", "~/.claude.json",
	}
}

// copilotShape reports whether a PascalCase hook input is GitHub Copilot
// CLI's: an ISO timestamp, which Claude Code does not send, and no
// transcript_path, which it does.
func copilotShape(raw map[string]any) bool {
	_, timestamp := raw["timestamp"].(string)
	_, transcript := raw["transcript_path"]
	return timestamp && !transcript
}

func deny(format string, a ...any) *Denial {
	return &Denial{Why: fmt.Sprintf(format, a...)}
}

// Reports is true: Claude Code sends PostToolUse where guard is registered for it.
func (Claude) Reports() bool { return true }
