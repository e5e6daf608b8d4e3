// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// Kiro CLI (kiro-cli, formerly Amazon Q Developer CLI) runs guard hook as
// a preToolUse hook of an agent configuration: the hooks field of a JSON
// file in the project's .kiro/agents/ or the user's ~/.kiro/agents/, a
// list of handlers per event, each {"command", "matcher", "timeout_ms",
// "cache_ttl_seconds"}; no matcher is every tool (kiro.dev/docs/cli/hooks,
// "Tool matching"; kiro.dev/docs/cli/custom-agents/configuration-reference,
// "Hooks field"). Kiro CLI runs the hooks of the agent in use only: guard
// init writes an agent named guard, which the user starts with kiro-cli
// chat --agent guard or makes the default (kiro-cli agent set-default
// guard; the chat.defaultAgent setting, which aws/amazon-q-developer-cli's
// crates/chat-cli/src/cli/agent/mod.rs reads before its built-in default).
//
// Its input is one JSON object on stdin: hook_event_name ("preToolUse",
// camelCase), cwd, tool_name and tool_input, and no session
// (kiro.dev/docs/cli/hooks, "Hook event"; the same fields in
// aws/amazon-q-developer-cli's crates/chat-cli/src/cli/chat/cli/hooks.rs,
// run_hook, which runs the command with bash -c). tool_name is the tool's
// name as the model called it, @server/tool for an MCP tool. The built-in
// tools have had two sets of names: fs_read, fs_write and execute_bash
// (the Q CLI's tool_index.json and kiro.dev/docs/cli/chat/permissions as
// first published), and read, write and shell (the same page now, and
// kiro.dev/docs/cli/reference/built-in-tools); guard reads both.
//
// The answer is the exit code alone (kiro.dev/docs/cli/hooks, "Hook
// output"; the Q CLI's crates/chat-cli/src/cli/chat/mod.rs, which runs
// the PreToolUse hooks before a tool, and hooks.rs, which drops a hook
// that fails to run or times out): 0 lets the
// tool run (Kiro CLI may still ask its user), 2 blocks it and hands stderr
// to the model ("PreToolHook blocked the tool execution: <stderr>"); any
// other exit, a timeout or a hook that cannot start lets it run. Kiro CLI
// has no ask for a hook and cannot change a tool's input, so guard refuses
// what it would ask, and the shell commands it allows only in its sandbox
// (exitAnswer). A successful answer is cached for cache_ttl_seconds,
// keyed by the hook, not the call: guard init writes 0, no cache.
//
// From Kiro CLI's documentation and the Q CLI's source: Kiro CLI is not
// on npm, and guard has not run against it. Kiro CLI 3.0's default V3
// harness also reads hooks from standalone files (.kiro/hooks/*.json,
// kiro.dev/docs/cli/v3/hooks), where "existing embedded hooks in agent
// configs still work during the transition"; the input V3 gives a command
// hook is not published, and guard denies an input it does not know.

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"guard/engine"
)

// Kiro is the adapter for Kiro CLI.
type Kiro struct{}

// kiroKinds are the kinds of Kiro CLI's built-in tools guard reads the
// input of, by both of their names; any other tool is of KindTool, decided
// by its name.
var kiroKinds = map[string]engine.Kind{
	"execute_bash": engine.KindShell, "shell": engine.KindShell,
	"fs_read": engine.KindRead, "read": engine.KindRead,
	"fs_write": engine.KindWrite, "write": engine.KindWrite,
}

// Decode reads a preToolUse input.
func (Kiro) Decode(data []byte) (*Event, error) {
	ev, err := decodeEvent(data, "Kiro CLI", map[string]string{"preToolUse": "PreToolUse"})
	if err != nil {
		return nil, err
	}
	tool := ev.Call.Tool
	switch kiroKinds[tool] {
	case engine.KindShell:
		// execute_bash: {command, summary} (tool_index.json).
		ev.Call.Kind = engine.KindShell
		ev.Call.Input.Command, err = inputString(tool, ev.Raw, "command")
	case engine.KindRead:
		ev.Call.Kind, ev.Call.Input, err = kiroRead(tool, ev.Raw)
	case engine.KindWrite:
		ev.Call.Kind, ev.Call.Input, err = kiroWrite(tool, ev.Raw)
	default:
		ev.Call.Kind = engine.KindTool
	}
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// kiroRead is the call of an fs_read input: {operations: [{mode, path,
// pattern, image_paths, ...}], summary} (tool_index.json; fs_read.rs reads
// every operation of the list). Line reads a file, Directory lists one,
// Search searches a file or directory for pattern, Image reads the files
// of image_paths. guard judges one path per call: the operations must name
// one, in one mode. A path starting ~ is the home's, as fs_read's
// sanitize_path_tool_arg expands a leading ~ component, and the engine
// reads it so.
func kiroRead(tool string, in map[string]any) (engine.Kind, engine.Input, error) {
	ops, ok := in["operations"].([]any)
	if !ok || len(ops) == 0 {
		return "", engine.Input{}, deny("the %s call has no list of operations guard can judge", tool)
	}
	var kind engine.Kind
	var out engine.Input
	for _, o := range ops {
		op, ok := o.(map[string]any)
		if !ok {
			return "", engine.Input{}, deny("an operation of the %s call is not a JSON object", tool)
		}
		mode, err := inputString(tool, op, "mode")
		if err != nil {
			return "", engine.Input{}, err
		}
		var k engine.Kind
		var got engine.Input
		switch mode {
		case "Line":
			k = engine.KindRead
			got.Path, err = inputString(tool, op, "path")
		case "Directory":
			k = engine.KindList
			got.Path, err = inputString(tool, op, "path")
		case "Search":
			k = engine.KindSearch
			if got.Path, err = inputString(tool, op, "path"); err == nil {
				got.Pattern, err = inputString(tool, op, "pattern")
			}
		case "Image":
			k = engine.KindRead
			paths, _ := op["image_paths"].([]any)
			if len(paths) != 1 {
				return "", engine.Input{}, &Denial{Why: fmt.Sprintf("the %s call reads %d images; guard judges one path per call", tool, len(paths)),
					Hints: []string{"read one image at a time"}}
			}
			if s, ok := paths[0].(string); ok {
				got.Path = s
			}
		default:
			return "", engine.Input{}, deny("the %s call's operation has the mode %q, which guard does not know", tool, mode)
		}
		switch {
		case err != nil:
			return "", engine.Input{}, err
		case got.Path == "":
			return "", engine.Input{}, deny("the %s call's %s operation names no path guard can judge", tool, mode)
		case kind != "" && (k != kind || got != out):
			return "", engine.Input{}, &Denial{Why: fmt.Sprintf("the %s call batches operations on more than one path; guard judges one path per call", tool),
				Hints: []string{"read one path at a time"}}
		}
		kind, out = k, got
	}
	return kind, out, nil
}

// kiroWrite is the call of an fs_write input: {command: create |
// str_replace | insert | append, path, file_text, old_str, new_str,
// insert_line} (tool_index.json; fs_write.rs's FsWrite is tagged by
// command). create writes the file whole, the others change it.
func kiroWrite(tool string, in map[string]any) (engine.Kind, engine.Input, error) {
	command, err := inputString(tool, in, "command")
	if err != nil {
		return "", engine.Input{}, err
	}
	var kind engine.Kind
	switch command {
	case "create":
		kind = engine.KindWrite
	case "str_replace", "insert", "append":
		kind = engine.KindEdit
	default:
		return "", engine.Input{}, deny("the %s call's command %q is not one guard knows (create, str_replace, insert, append)", tool, command)
	}
	p, err := inputString(tool, in, "path")
	return kind, engine.Input{Path: p}, err
}

// Answer renders a decision for Kiro CLI: exit 0 and no output to allow,
// exit 2 and the reason on stderr to deny (exitAnswer).
func (Kiro) Answer(_ *Event, d *engine.Decision, where string) Answer {
	return exitAnswer("Kiro CLI", d, where)
}

// ConfigPaths are Kiro CLI's agents, hooks, steering, prompts and
// settings, in the project's .kiro/ and the user's ~/.kiro/
// (kiro.dev/docs/cli/chat/configuration, "Configuration file paths").
func (Kiro) ConfigPaths() []string {
	return []string{"{project}/.kiro/**", "{project}/.kiro", "~/.kiro/**"}
}

// Reports is false: guard is registered for Kiro CLI's preToolUse alone.
func (Kiro) Reports() bool { return false }

// kiroAgentName is the name of the agent configuration guard init writes,
// and its file's: .kiro/agents/guard.json.
const kiroAgentName = "guard"

// Install writes guard's hook into an agent configuration of its own, the
// project's .kiro/agents/guard.json, or ~/.kiro/agents/guard.json: Kiro
// CLI runs the hooks of the agent in use, and guard does not rewrite
// another's. A new one has every tool ("tools": ["*"]: an agent without
// tools has none) and nothing else; fields the user adds stay. The hook
// has no matcher (every tool), a timeout_ms of HookTimeout and no cache.
func (Kiro) Install(dir string, project bool, guard string) ([]FileChange, error) {
	name := filepath.Join(dir, ".kiro", "agents", kiroAgentName+".json")
	handler := map[string]any{"command": quote(guard) + " hook --agent kiro", "timeout_ms": HookTimeout * 1000, "cache_ttl_seconds": 0}
	return installFlat(name, []string{"preToolUse"}, handler, func(root map[string]any) {
		for k, v := range map[string]any{"name": kiroAgentName, "tools": []any{"*"},
			"description": "every tool, each call decided by guard hook before it runs"} {
			if _, ok := root[k]; !ok {
				root[k] = v
			}
		}
	})
}

// Doctor is what guard doctor checks of Kiro CLI's installation, in the
// project dir and the user's agents.
func (Kiro) Doctor(env func(string) string, dir string) DoctorSpec {
	home := env("HOME")
	return DoctorSpec{Agent: "kiro",
		Files: []string{filepath.Join(dir, ".kiro", "agents", kiroAgentName+".json"), filepath.Join(home, ".kiro", "agents", kiroAgentName+".json")},
		Pre:   "preToolUse", AllTools: []string{""}, Flat: true, TimeoutKey: "timeout_ms", TimeoutMs: true,
		Input: func(command, dir string) []byte {
			in := map[string]any{"hook_event_name": "preToolUse", "cwd": dir, "tool_name": "execute_bash",
				"tool_input": map[string]any{"command": command, "summary": "guard doctor"}}
			if command != doctorDenyCanary {
				in["tool_name"], in["tool_input"] = "fs_read", map[string]any{"operations": []any{map[string]any{"mode": "Line", "path": doctorReadCanary(dir)}}}
			}
			data, _ := json.Marshal(in)
			return data
		},
		Allowed: exitAllowed,
		Extra:   kiroChecks,
	}
}

// kiroChecks are what guard doctor checks of Kiro CLI's guard hooks that
// the flat list of handlers does not show: each hook's matcher (none, or
// "*", is every tool) and cache (a cached answer is the hook's, whatever
// the call), and that the guard agent must be the one in use.
func kiroChecks(found map[string][]FoundHook) []Check {
	var checks []Check
	for _, h := range found["preToolUse"] {
		m, hasMatcher := h.H["matcher"]
		checks = append(checks, Check{OK: !hasMatcher || m == "*",
			What: fmt.Sprintf("guard's preToolUse hook in %s has no matcher: it runs before every tool", h.File),
			Fix:  "remove its matcher: another lets other tools run unchecked"})
		checks = append(checks, Check{OK: numberIsZero(h.H["cache_ttl_seconds"]),
			What: fmt.Sprintf("guard's preToolUse hook in %s caches no answer", h.File),
			Fix:  "set cache_ttl_seconds to 0: Kiro CLI reuses a cached answer for any call the hook matches"})
	}
	return append(checks, Check{Warn: true, What: "Kiro CLI runs guard only in chats with the " + kiroAgentName + " agent",
		Fix: "kiro-cli chat --agent " + kiroAgentName + ", or make it the default: kiro-cli agent set-default " + kiroAgentName})
}

// numberIsZero reports whether a settings value is absent or the number 0.
func numberIsZero(v any) bool {
	if v == nil {
		return true
	}
	n, ok := v.(json.Number)
	f, err := n.Float64()
	return ok && err == nil && f == 0
}
