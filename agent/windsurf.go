// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// Windsurf's agent, Cascade, runs guard hook as a Cascade hook of
// hooks.json: the workspace's .windsurf/hooks.json, or the user's
// ~/.codeium/windsurf/hooks.json, merged with the system's
// (/etc/windsurf/hooks.json) and run in that order, each event a list of
// handlers {"command", "show_output", "working_directory"}, with no
// matcher and no timeout option (docs.windsurf.com/windsurf/cascade/hooks,
// "Configuration"). guard is registered for the four pre-hooks of tools:
// pre_run_command, pre_read_code, pre_write_code and pre_mcp_tool_use.
//
// Its input is one JSON object on stdin: agent_action_name (the event),
// trajectory_id (the conversation), execution_id (the agent's turn),
// timestamp, and tool_info, the event's own: command_line and cwd for
// pre_run_command; file_path for pre_read_code ("may be a directory path
// when Cascade reads a directory recursively") and pre_write_code (with
// its edits); mcp_server_name, mcp_tool_name and mcp_tool_arguments for
// pre_mcp_tool_use (the same page, "Hook Events").
//
// The answer is the exit code alone (the same page, "Exit Codes"): 0 lets
// the action run, 2 blocks a pre-hook's action and shows Cascade stderr,
// and any other exit lets it run. Cascade has no ask for a hook and takes
// no changed input, so guard refuses what it would ask, and the shell
// commands it allows only in its sandbox (exitAnswer).
//
// A pre_run_command's cwd outside the workspace root guard hook runs in
// (or a symbolic link out of it) is refused: guard would take it for the
// project, and guard run would bound the command to that other tree.
// With a workspace of several roots, a command in another root is refused
// so too.
//
// From Windsurf's documentation: Windsurf is an IDE, not on npm, and guard
// has not run against it.

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"guard/engine"
)

// Windsurf is the adapter for Windsurf's Cascade.
type Windsurf struct{}

// windsurfEvents are the Cascade pre-hooks guard decides, with the name of
// the tool each stands for in guard's messages and decision log.
var windsurfEvents = map[string]string{
	"pre_run_command":  "run_command",
	"pre_read_code":    "read_code",
	"pre_write_code":   "write_code",
	"pre_mcp_tool_use": "mcp_tool_use",
}

// windsurfDir is the directory guard hook runs in: a Cascade hook runs in
// its working_directory, by default the workspace root (the same page,
// "Configuration Options"). The read and write events name no directory,
// and their calls are judged in it. Tests replace it.
var windsurfDir = os.Getwd

// Decode reads a pre_run_command, pre_read_code, pre_write_code or
// pre_mcp_tool_use input.
func (Windsurf) Decode(data []byte) (*Event, error) {
	raw, err := readObject(data)
	if err != nil {
		return nil, err
	}
	event, err := stringField(raw, "agent_action_name", true)
	if err != nil {
		return nil, err
	}
	tool, ok := windsurfEvents[event]
	if !ok {
		return nil, deny("guard hook decides Windsurf's tool calls; it does not take its %q event", event)
	}
	ev := &Event{Name: "PreToolUse"}
	if ev.Session, err = stringField(raw, "trajectory_id", false); err != nil {
		return nil, err
	}
	info, ok := raw["tool_info"].(map[string]any)
	if !ok {
		return nil, deny("the hook input's tool_info is not a JSON object")
	}
	ev.Raw = info
	call := engine.Call{Tool: tool}
	cwd := ""
	switch event {
	case "pre_run_command":
		call.Kind = engine.KindShell
		if call.Input.Command, err = inputString(tool, info, "command_line"); err == nil {
			cwd, err = inputString(tool, info, "cwd")
		}
	case "pre_read_code":
		// A directory is read recursively: judged as a search of the
		// tree, which the engine refuses where it holds a secret.
		call.Kind = engine.KindSearch
		call.Input.Path, err = windsurfPath(tool, info)
	case "pre_write_code":
		call.Kind = engine.KindWrite
		call.Input.Path, err = windsurfPath(tool, info)
	case "pre_mcp_tool_use":
		// MCP tools by Claude Code's form of their names,
		// mcp__SERVER__TOOL, which the policy's tiers name.
		var server, name string
		if server, err = inputString(tool, info, "mcp_server_name"); err == nil {
			name, err = inputString(tool, info, "mcp_tool_name")
		}
		if err == nil && (server == "" || name == "") {
			err = deny("the pre_mcp_tool_use input names no MCP server and tool")
		}
		call.Kind, call.Tool = engine.KindTool, "mcp__"+server+"__"+name
	}
	if err != nil {
		return nil, err
	}
	if cwd == "" {
		if cwd, err = windsurfDir(); err != nil {
			return nil, deny("guard hook's working directory, the workspace Cascade runs it in: %v", err)
		}
	}
	if !filepath.IsAbs(cwd) {
		return nil, deny("the hook input's working directory %q is not an absolute path", cwd)
	}
	cwd = filepath.Clean(cwd)
	if call.Kind == engine.KindShell {
		// The model names the command's directory, which guard hook
		// takes for the project, and guard run bounds the command to.
		root, err := windsurfDir()
		if err != nil || !dirWithin(cwd, root) {
			return nil, &Denial{Why: fmt.Sprintf("the %s call's cwd %s is not in the workspace %s, the project guard judges its commands in", tool, cwd, root),
				Hints: []string{"run the command in the workspace, in a directory that is no symbolic link out of it"}}
		}
	}
	call.Cwd, call.Session = cwd, ev.Session
	ev.Call = call
	return ev, nil
}

// windsurfPath returns a read or write event's file_path, which must be
// an absolute path: the documentation shows only absolute ones, and guard
// does not guess what Cascade would make of another.
func windsurfPath(tool string, info map[string]any) (string, error) {
	p, err := inputString(tool, info, "file_path")
	switch {
	case err != nil:
		return "", err
	case !filepath.IsAbs(p):
		return "", deny("the %s input's file_path %q is not an absolute path", tool, p)
	}
	return p, nil
}

// Answer renders a decision for Windsurf: exit 0 and no output to allow,
// exit 2 and the reason on stderr to deny (exitAnswer).
func (Windsurf) Answer(_ *Event, d *engine.Decision, where string) Answer {
	return exitAnswer("Windsurf", d, where)
}

// ConfigPaths are Windsurf's hooks, rules, workflows and MCP settings in
// the workspace (.windsurf/, .windsurfrules) and the user's ~/.codeium/
// (hooks.json, the JetBrains plugin's hooks.json, windsurf/mcp_config.json,
// memories and global rules).
func (Windsurf) ConfigPaths() []string {
	return []string{"{project}/.windsurf/**", "{project}/.windsurf", "{project}/.windsurfrules", "~/.codeium/**"}
}

// Reports is false: guard is registered for Cascade's pre-hooks alone.
func (Windsurf) Reports() bool { return false }

// windsurfCanary is guard doctor's hook input for a canary in dir.
func windsurfCanary(command, dir string) map[string]any {
	in := map[string]any{"agent_action_name": "pre_run_command", "trajectory_id": "guard-doctor", "execution_id": "guard-doctor",
		"timestamp": "2026-01-01T00:00:00Z", "tool_info": map[string]any{"command_line": command, "cwd": dir}}
	if command != doctorDenyCanary {
		in["agent_action_name"], in["tool_info"] = "pre_read_code", map[string]any{"file_path": doctorReadCanary(dir)}
	}
	return in
}

// Install registers guard in Windsurf's hooks.json (the workspace's
// .windsurf/, or ~/.codeium/windsurf/) for the four pre-hooks of tools,
// with show_output, so that the user sees guard's reasons in Cascade too.
// Cascade has no option that makes a failing hook block, and no timeout.
func (Windsurf) Install(dir string, project bool, guard string) ([]FileChange, error) {
	name := filepath.Join(dir, ".windsurf", "hooks.json")
	if !project {
		name = filepath.Join(dir, ".codeium", "windsurf", "hooks.json")
	}
	handler := map[string]any{"command": quote(guard) + " hook --agent windsurf", "show_output": true}
	return installFlat(name, slices.Sorted(maps.Keys(windsurfEvents)), handler, nil)
}

// Doctor is what guard doctor checks of Windsurf's installation, in the
// workspace and the user's hooks.json.
func (Windsurf) Doctor(env func(string) string, dir string) DoctorSpec {
	home := env("HOME")
	return DoctorSpec{Agent: "windsurf",
		Files: []string{filepath.Join(dir, ".windsurf", "hooks.json"), filepath.Join(home, ".codeium", "windsurf", "hooks.json")},
		Pre:   "pre_run_command", AllTools: []string{""}, Flat: true,
		Input: func(command, dir string) []byte {
			data, _ := json.Marshal(windsurfCanary(command, dir))
			return data
		},
		Allowed: exitAllowed,
		Extra:   windsurfChecks,
	}
}

// windsurfChecks are what guard doctor checks of Windsurf's guard hooks
// beyond pre_run_command's: that guard runs on the other three pre-hooks
// of tools, and in the workspace root, where it judges the read and write
// events, which name no directory (a working_directory moves it).
func windsurfChecks(found map[string][]FoundHook) []Check {
	var checks []Check
	for _, ev := range slices.Sorted(maps.Keys(windsurfEvents)) {
		if ev != "pre_run_command" {
			checks = append(checks, Check{OK: len(found[ev]) > 0, What: "guard hook runs on " + ev,
				Fix: "guard init --agent windsurf: without it Cascade's " + windsurfEvents[ev] + " runs unchecked"})
		}
		for _, h := range found[ev] {
			if _, moved := h.H["working_directory"]; moved {
				checks = append(checks, Check{What: fmt.Sprintf("guard's %s hook in %s runs in the workspace root", ev, h.File),
					Fix: "remove its working_directory: guard judges the files Cascade reads and writes against the directory it runs in"})
			}
		}
	}
	return checks
}
