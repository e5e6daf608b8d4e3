// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// The shape of hook inputs: reading one as a JSON object with the checks
// every adapter makes, the fields every agent's tool event has, and whose
// input it is by its shape, for a guard hook not told its agent.

import (
	"bytes"
	"encoding/json"
	"path/filepath"

	"guard/engine"
)

// geminiOnlyEvents are hook events Gemini CLI has and Claude Code and
// Codex do not. SessionStart, SessionEnd and Notification are shared.
var geminiOnlyEvents = map[string]bool{
	"BeforeTool": true, "AfterTool": true, "BeforeAgent": true, "AfterAgent": true,
	"BeforeModel": true, "AfterModel": true, "BeforeToolSelection": true, "PreCompress": true,
}

// droidModes are the permission_mode values of Factory Droid's hook
// input (Droid 0.215.0's names of its autonomy levels), none of them
// Claude Code's.
var droidModes = map[string]bool{"off": true, "spec": true, "auto-low": true, "auto-medium": true, "auto-high": true}

// cursorEvents are the Cursor hook events guard decides.
var cursorEvents = map[string]bool{"beforeShellExecution": true, "beforeReadFile": true, "beforeMCPExecution": true, "preToolUse": true}

// Detect names the adapter for a hook input by its shape: "antigravity",
// "windsurf", "goose", "kiro", "opencode", "cline", "cursor", "copilot",
// "gemini", "qwen", "codex", "droid" or "claude", or "" for an input that
// is not one JSON object.
//
//   - An input with Antigravity's toolCall object is Antigravity's.
//   - An input with guard_opencode is what guard's OpenCode plugin sent.
//   - An input with Cline's camelCase hookName is Cline's.
//   - An input with Cascade's agent_action_name is Windsurf's.
//   - An input with goose's event and matcher_context is goose's.
//   - A preToolUse event without Cursor's conversation_id is Kiro CLI's.
//   - A Cursor event (beforeShellExecution, preToolUse, ...) with Cursor's
//     conversation_id is Cursor's.
//   - An input with Copilot's camelCase toolName is Copilot's (its
//     VS Code-compatible shape is Claude Code's, and is read as that).
//   - A Gemini CLI event (BeforeTool, AfterTool, BeforeModel, ...) is
//     Gemini's; so is an event the agents share (SessionStart, SessionEnd,
//     Notification) with Gemini's "timestamp" field, which no other of
//     the three sends.
//   - An input with a "tool_call_id" field is Qwen Code's: it sends the
//     model's id of the call there on every tool event, Claude Code never.
//   - An input with a "turn_id" field is Codex's: Codex sends it on every
//     tool event, Claude Code never.
//   - An input whose permission_mode is one of Factory Droid's (auto-high,
//     say) is Droid's: its shape is Claude Code's.
//   - Any other object is Claude Code's, and its adapter judges it.
//
// Codex's SessionEnd has neither turn_id nor timestamp, and is Claude
// Code's by its shape: the two adapters read a SessionEnd alike (its
// session and working directory), so nothing depends on telling them
// apart there.
func Detect(data []byte) string {
	raw, err := readObject(data)
	if err != nil {
		return ""
	}
	event, _ := raw["hook_event_name"].(string)
	_, timestamp := raw["timestamp"].(string)
	_, turn := raw["turn_id"]
	_, conversation := raw["conversation_id"]
	_, camelTool := raw["toolName"]
	_, toolCall := raw["toolCall"].(map[string]any)
	_, cascade := raw["agent_action_name"]
	_, gooseContext := raw["matcher_context"]
	gooseEvent, _ := raw["event"].(string)
	_, qwenCall := raw["tool_call_id"]
	_, openCode := raw["guard_opencode"]
	_, clineHook := raw["hookName"].(string)
	mode, _ := raw["permission_mode"].(string)
	switch {
	case toolCall:
		return "antigravity"
	case openCode:
		return "opencode"
	case clineHook:
		return "cline"
	case cascade:
		return "windsurf"
	case gooseContext && gooseEvent != "":
		return "goose"
	case event == "preToolUse" && !conversation:
		return "kiro"
	case conversation && cursorEvents[event]:
		return "cursor"
	case camelTool:
		return "copilot"
	case geminiOnlyEvents[event]:
		return "gemini"
	case qwenCall:
		return "qwen"
	case turn:
		return "codex"
	case timestamp && (event == "SessionStart" || event == "SessionEnd" || event == "Notification"):
		return "gemini"
	case droidModes[mode]:
		return "droid"
	}
	return "claude"
}

// readObject reads a hook input that must be one JSON object, and nothing
// after it. Numbers stay json.Numbers, so that a rewritten input keeps
// them as the agent sent them.
func readObject(data []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, deny("the hook input is empty; guard hook reads the agent's hook event as JSON on stdin")
	}
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
	return raw, nil
}

// stringField returns the string field key of a hook input: "" when it is
// absent or null; a *Denial when it is required and absent, or is there
// and not a string.
func stringField(raw map[string]any, key string, required bool) (string, error) {
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

// decodeEvent reads what every agent's hook event holds: its name, mapped
// to guard's by names (an event not in names is denied), its session, and
// for a tool event (any but SessionEnd) the tool's name, the absolute
// working directory, the tool's input, an object, kept in Raw, and the
// call's id (tool_use_id), where it has one. The
// adapter then gives the call its kind and input. agent names the agent
// in messages.
func decodeEvent(data []byte, agent string, names map[string]string) (*Event, error) {
	raw, err := readObject(data)
	if err != nil {
		return nil, err
	}
	name, err := stringField(raw, "hook_event_name", false)
	if err != nil {
		return nil, err
	}
	ev := &Event{Name: names[name]} // names[""] is the event of an input without one, if any
	if _, ok := raw["hook_event_name"]; !ok && ev.Name == "" {
		return nil, deny("the hook input has no %q field", "hook_event_name")
	}
	if ev.Name == "" {
		return nil, deny("guard hook decides %s's tool calls; it does not take its %q event", agent, name)
	}
	if ev.Session, err = stringField(raw, "session_id", false); err != nil {
		return nil, err
	}
	if ev.Name == "SessionEnd" {
		cwd, err := stringField(raw, "cwd", false)
		if err != nil {
			return nil, err
		}
		ev.Call = engine.Call{Cwd: cwd, Session: ev.Session}
		return ev, nil
	}
	tool, err := stringField(raw, "tool_name", true)
	if err != nil {
		return nil, err
	}
	if tool == "" {
		return nil, deny("the hook input's tool_name is empty")
	}
	cwd, err := stringField(raw, "cwd", true)
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
	ev.Call = engine.Call{Tool: tool, Cwd: cwd, Session: ev.Session}
	if id, ok := raw["tool_use_id"].(string); ok && len(id) <= MaxCallID {
		ev.CallID = id
	}
	return ev, nil
}
