// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// Factory Droid runs guard hook as a command hook for PreToolUse,
// registered under "hooks" in .factory/settings.json (or
// ~/.factory/settings.json) in Claude Code's shape: matcher groups of
// handlers {"type": "command", "command", "timeout"} (seconds). Droid
// 0.215.0 also reads a .factory/hooks.json that holds the events at its
// top, not under "hooks" (one under "hooks" there is ignored). Its input
// is Claude Code's: session_id, transcript_path, cwd, permission_mode
// (auto-high, say), hook_event_name, tool_name and tool_input, with
// Droid's own tool names: Execute {summary, command, riskLevel,
// riskLevelReason, timeout, fireAndForget}, Read {file_path}, Create
// {file_path, content}, Edit {file_path, old_str, new_str}, Grep
// {pattern, path, glob_pattern, ...}, Glob {patterns, folder}, LS
// {directory_path}, and the rest (Task, Skill, TodoWrite, FetchUrl,
// WebSearch, ...). There is no tool_use_id.
//
// Its answer is Claude Code's: exit 0 with hookSpecificOutput's
// permissionDecision allow (Droid then skips its own permission check),
// with updatedInput for a rewritten call, which Droid merges over the
// tool's input; for a changed Execute command it drops riskLevel and
// riskLevelReason and runs its command blocklist on the new one. Exit 2
// denies, and the model gets "Error: " and guard's stderr. Droid does not
// enforce an ask: it logs it and goes on to its own permission check,
// which lets the call run at --auto high, so guard refuses what it would
// ask. Exit 1, exit 3 (which ends the whole run), a crash, a missing
// binary and a timeout (60 s unless the handler says) let the call run:
// Droid has no option that makes a failing hook block.
//
// Checked against Droid 0.215.0 headless (droid exec with a custom
// model; see e2e/droid_test.go): the input, the deny, the allow and the
// rewrite; the failures letting the call run were seen there too (exit
// 1, SIGKILL, a missing program, a timeout). The ask's handling was read
// from its bundled code, not run.

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"guard/engine"
)

// Droid is the adapter for Factory Droid.
type Droid struct{}

// droidTools are Droid's tools whose input guard reads, by Droid's names,
// with their kind and fields (as copilotInput reads them). A tool that is
// not listed is of KindTool: the policy's tier of its name decides.
var droidTools = map[string]copilotTool{
	"Execute":  {kind: engine.KindShell, field: "command"},
	"Read":     {kind: engine.KindRead, path: []string{"file_path"}},
	"Create":   {kind: engine.KindWrite, path: []string{"file_path"}},
	"Edit":     {kind: engine.KindEdit, path: []string{"file_path"}},
	"Grep":     {kind: engine.KindSearch, path: []string{"path"}, field: "pattern"},
	"Glob":     {kind: engine.KindList, path: []string{"folder"}, field: "patterns"},
	"LS":       {kind: engine.KindList, path: []string{"directory_path"}},
	"FetchUrl": {kind: engine.KindFetch, field: "url"},
}

// droidTask is the name guard judges Droid's Task tool by: a policy that
// trusts Droid's subagents to come through guard allows it in [tools].
const droidTask = "droid:Task"

// Decode reads a PreToolUse input.
func (Droid) Decode(data []byte) (*Event, error) {
	ev, err := decodeEvent(data, "Factory Droid", map[string]string{"PreToolUse": "PreToolUse"})
	if err != nil {
		return nil, err
	}
	tool := ev.Call.Tool
	t, ok := droidTools[tool]
	if !ok {
		ev.Call.Kind = engine.KindTool
		if tool == "Task" {
			// Droid's subagents run through its daemon, and nothing has
			// shown that their calls come through guard's hook as Claude
			// Code's do, for which the default policy allows Task: under
			// a name of its own, Droid's Task is not Claude Code's.
			ev.Call.Tool = droidTask
		}
		return ev, nil
	}
	in := ev.Raw
	if list, ok := in["patterns"].([]any); ok && tool == "Glob" {
		// Glob takes a pattern or a list of them: guard judges one.
		if len(list) != 1 {
			return nil, &Denial{Why: fmt.Sprintf("the Glob call names %d patterns; guard judges one pattern per call", len(list)),
				Hints: []string{"make one Glob call for each pattern"}}
		}
		in = maps.Clone(in)
		in["patterns"] = list[0]
	}
	ev.Call.Kind = t.kind
	if ev.Call.Input, err = copilotInput(tool, t, in); err != nil {
		return nil, err
	}
	return ev, nil
}

// Answer renders a decision for Droid: an allow in Claude Code's shape,
// with the rewritten command of an Execute call; an ask and a deny as a
// deny (exit 2, the reason on stderr).
func (Droid) Answer(ev *Event, d *engine.Decision, where string) Answer {
	switch d.Verdict {
	case engine.Allow:
	case engine.Ask:
		return Answer{Deny: &Denial{Why: Reason(d, where) + "; Droid does not enforce a hook's ask (its own permission check decides instead), so guard refuses what it would ask",
			Hints: []string{d.Hint()}}}
	default:
		return Answer{Deny: Deny(d, where)}
	}
	var updated map[string]any
	if d.Rewrite != nil {
		if ev.Call.Tool != "Execute" || *d.Rewrite != (engine.Input{Command: d.Rewrite.Command}) || d.Rewrite.Command == "" {
			return Answer{Deny: &Denial{Why: fmt.Sprintf("guard cannot rewrite the input of tool %s", ev.Call.Tool)}}
		}
		updated = maps.Clone(ev.Raw)
		updated["command"] = d.Rewrite.Command
	}
	return preToolUseAnswer("allow", answerReason(d, where), updated)
}

// ConfigPaths are Droid's settings, hooks, droids, commands, skills and
// MCP servers, in the project and in the home directory; and, read from
// 0.215.0's bundled code, not run: the home $FACTORY_HOME_OVERRIDE names
// in place of $HOME, .factory-dev (its directory's name where
// FACTORY_ENV is development), the runtime settings file (droid
// --settings, $FACTORY_RUNTIME_SETTINGS_PATH) and the local managed
// settings file ($FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH).
func (Droid) ConfigPaths() []string {
	return []string{"{project}/.factory/**", "{project}/.factory", "~/.factory/**", "~/.factory-dev/**",
		"{$FACTORY_HOME_OVERRIDE}/.factory/**", "{$FACTORY_HOME_OVERRIDE}/.factory-dev/**",
		"{$FACTORY_RUNTIME_SETTINGS_PATH}", "{$FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH}"}
}

// Reports is false: guard refuses what it would ask in Droid, so nothing
// is approved that a PostToolUse would grant.
func (Droid) Reports() bool { return false }

// Install registers guard in Droid's settings.json (the project's
// .factory/, or ~/.factory/) for PreToolUse, every tool. Droid has no
// option that makes a failing hook block.
func (Droid) Install(dir string, project bool, guard string) ([]FileChange, error) {
	f := hooksFile{
		path:   filepath.Join(dir, ".factory", "settings.json"),
		events: []hookEvent{{"PreToolUse", "*", true}},
		handler: func(command string, _ hookEvent) map[string]any {
			return map[string]any{"type": "command", "command": command, "timeout": HookTimeout}
		},
	}
	return installHooks(f, guard, "droid")
}

// Doctor is what guard doctor checks of Droid's installation, in the
// project dir and the user's settings.
func (Droid) Doctor(env func(string) string, dir string) DoctorSpec {
	home := env("HOME")
	return DoctorSpec{Agent: "droid",
		Files: []string{filepath.Join(dir, ".factory", "settings.json"), filepath.Join(dir, ".factory", "settings.local.json"), filepath.Join(home, ".factory", "settings.json")},
		Pre:   "PreToolUse", AllTools: []string{"*", ""},
		Input: func(command, dir string) []byte {
			in, _ := json.Marshal(map[string]any{"session_id": "guard-doctor", "transcript_path": "", "cwd": dir, "permission_mode": "auto-high",
				"hook_event_name": "PreToolUse", "tool_name": "Execute", "tool_input": map[string]any{"command": command, "summary": "guard doctor's canary"}})
			return in
		},
		Allowed: func(code int, stdout string) bool {
			return code == 0 && strings.Contains(stdout, `"permissionDecision":"allow"`)
		}}
}
