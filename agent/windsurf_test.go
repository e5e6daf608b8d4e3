// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"errors"
	"strings"
	"testing"

	"guard/engine"
)

// The golden inputs under testdata/windsurf are the examples of Windsurf's
// documentation (docs.windsurf.com/windsurf/cascade/hooks, "Hook Events")
// with the common fields it leaves out for brevity (trajectory_id,
// execution_id, timestamp) put back. Windsurf is an IDE, not on npm; no
// real client sent them.

// inWorkspace runs guard hook's Windsurf adapter as if in dir, the
// workspace root Cascade runs its hooks in, for the rest of the test.
func inWorkspace(t *testing.T, dir string) {
	t.Helper()
	saved := windsurfDir
	windsurfDir = func() (string, error) { return dir, nil }
	t.Cleanup(func() { windsurfDir = saved })
}

// windsurfInput is a Cascade hook input of event with tool_info.
func windsurfInput(event, info string) string {
	return `{"agent_action_name":"` + event + `","trajectory_id":"t","execution_id":"e","timestamp":"2026-01-01T00:00:00Z","tool_info":` + info + `}`
}

// TestWindsurfDecode: each pre-hook's input becomes the call guard judges,
// in the directory the command names or the workspace, and what guard
// cannot judge is denied.
func TestWindsurfDecode(t *testing.T) {
	inWorkspace(t, "/Users/yourname/project")
	for _, tc := range []struct {
		in   string
		call engine.Call // Session is "t", or the golden file's
		err  string      // a substring of the denial
	}{
		{"@windsurf/pre_run_command.json", engine.Call{Kind: engine.KindShell, Tool: "run_command", Input: engine.Input{Command: "npm install package-name"}, Cwd: "/Users/yourname/project"}, ""},
		// A read may be of a directory, read recursively: judged as a
		// search of the tree.
		{"@windsurf/pre_read_code.json", engine.Call{Kind: engine.KindSearch, Tool: "read_code", Input: engine.Input{Path: "/Users/yourname/project/file.py"}, Cwd: "/Users/yourname/project"}, ""},
		{"@windsurf/pre_write_code.json", engine.Call{Kind: engine.KindWrite, Tool: "write_code", Input: engine.Input{Path: "/Users/yourname/project/file.py"}, Cwd: "/Users/yourname/project"}, ""},
		{"@windsurf/pre_mcp_tool_use.json", engine.Call{Kind: engine.KindTool, Tool: "mcp__github__create_issue", Cwd: "/Users/yourname/project"}, ""},
		{windsurfInput("pre_run_command", `{"command_line":"make","cwd":"/Users/yourname/project/sub"}`), engine.Call{Kind: engine.KindShell, Tool: "run_command", Input: engine.Input{Command: "make"}, Cwd: "/Users/yourname/project/sub"}, ""},
		// A directory outside the workspace would be the project guard
		// judges the command in, and guard run bounds it to.
		{windsurfInput("pre_run_command", `{"command_line":"make test","cwd":"/w/sub"}`), engine.Call{}, "is not in the workspace"},
		{windsurfInput("pre_run_command", `{"command_line":"make test","cwd":"/Users/yourname/projectX"}`), engine.Call{}, "is not in the workspace"},
		{windsurfInput("pre_run_command", `{"command_line":"make test","cwd":"/Users/yourname/project/../other"}`), engine.Call{}, "is not in the workspace"},
		{windsurfInput("pre_read_code", `{"file_path":"/h/.ssh"}`), engine.Call{Kind: engine.KindSearch, Tool: "read_code", Input: engine.Input{Path: "/h/.ssh"}, Cwd: "/Users/yourname/project"}, ""},
		{windsurfInput("pre_run_command", `{"command_line":"make","cwd":"sub"}`), engine.Call{}, "not an absolute path"},
		{windsurfInput("pre_run_command", `{"command_line":"make"}`), engine.Call{Kind: engine.KindShell, Tool: "run_command", Input: engine.Input{Command: "make"}, Cwd: "/Users/yourname/project"}, ""},
		{windsurfInput("pre_run_command", `{"command_line":["make"],"cwd":"/w"}`), engine.Call{}, "not a string guard can judge"},
		{windsurfInput("pre_read_code", `{"file_path":"file.py"}`), engine.Call{}, "not an absolute path"},
		{windsurfInput("pre_write_code", `{"edits":[]}`), engine.Call{}, "not an absolute path"},
		{windsurfInput("pre_mcp_tool_use", `{"mcp_tool_name":"create_issue"}`), engine.Call{}, "names no MCP server and tool"},
		{windsurfInput("pre_read_code", `"/p/a"`), engine.Call{}, "tool_info is not a JSON object"},
		// Not a pre-hook of a tool.
		{windsurfInput("post_run_command", `{"command_line":"make","cwd":"/w"}`), engine.Call{}, `does not take its "post_run_command" event`},
		{windsurfInput("pre_user_prompt", `{"user_prompt":"hi"}`), engine.Call{}, `does not take its "pre_user_prompt" event`},
		{`{"tool_info":{"command_line":"make","cwd":"/w"}}`, engine.Call{}, `no "agent_action_name" field`},
	} {
		want := tc.call
		want.Session = "t"
		if strings.HasPrefix(tc.in, "@") {
			want.Session = "trajectory-1"
		}
		if ev, ok := decoded(t, Windsurf{}, "windsurf", tc.in, tc.err); ok && (ev.Name != "PreToolUse" || !sameCall(ev.Call, want)) {
			t.Errorf("%s: decoded %s %+v, want %+v", tc.in, ev.Name, ev.Call, want)
		}
	}
	windsurfDir = func() (string, error) { return "", errors.New("no such directory") }
	if _, err := (Windsurf{}).Decode(readGolden(t, "windsurf/pre_read_code.json")); err == nil || !strings.Contains(err.Error(), "no such directory") {
		t.Errorf("a read event without a working directory: %v, want a denial", err)
	}
}

// TestWindsurfDefaultPolicy decides Cascade's inputs with the default
// policy, as guard hook would, and checks the exact answers.
func TestWindsurfDefaultPolicy(t *testing.T) {
	inWorkspace(t, "/Users/yourname/project")
	const refuse = "; Windsurf has no ask for a hook, so guard refuses what it would ask"
	checkAnswers(t, Windsurf{}, []answerCase{
		{"@windsurf/pre_read_code.json", true, "exit 0, silent"},
		{"@windsurf/pre_run_command.json", false, "exit 2: guard (policy default): needs approval: no rule for npm install (rule npm)" + refuse},
		{"@windsurf/pre_write_code.json", false, "exit 2: guard (policy default): needs approval: write_code: writing /Users/yourname/project/file.py: " +
			"needs approval once in this session; once approved, the session is granted dir /Users/yourname/project (rule paths.write)" + refuse},
		{"@windsurf/pre_mcp_tool_use.json", false, "exit 2: guard (policy default): needs approval: tool mcp__github__create_issue needs approval (rule tools.mcp__*)" + refuse},
		{windsurfInput("pre_run_command", `{"command_line":"ls","cwd":"/Users/yourname/project"}`), false, "exit 0, silent"},
		{windsurfInput("pre_run_command", `{"command_line":"ls","cwd":"/Users/yourname/project"}`), true, "exit 2: guard (policy default): allowed: ls is allowed; " +
			"it must run in guard's sandbox, and Windsurf's hook cannot rewrite a command to run there, so guard refuses it"},
		{windsurfInput("pre_read_code", `{"file_path":"/tmp/e2e/home/.aws/credentials"}`), false, "exit 2: read_code: /tmp/e2e/home/.aws/credentials is a secret file " +
			"(~/.aws/**; AWS CLI: the AWS access keys and SSO session tokens): guard does not let it be read or written (rule paths.secret ~/.aws/**, policy default)"},
		{windsurfInput("pre_write_code", `{"file_path":"/Users/yourname/project/.windsurf/hooks.json","edits":[]}`), false, "exit 2: write_code: " +
			"/Users/yourname/project/.windsurf/hooks.json is protected: it configures a coding agent ({project}/.windsurf/**), and no tool may change it " +
			"(rule paths.protected {project}/.windsurf/**, policy default)"},
	})
}

// TestWindsurfChecks: guard doctor fails an installation without guard on
// each pre-hook of a tool, or with a hook moved out of the workspace root.
func TestWindsurfChecks(t *testing.T) {
	hook := func(h map[string]any) []FoundHook { return []FoundHook{{File: "/w/.windsurf/hooks.json", H: h}} }
	guard := map[string]any{"command": "guard hook --agent windsurf", "show_output": true}
	moved := map[string]any{"command": "guard hook --agent windsurf", "working_directory": "/tmp"}
	for _, tc := range []struct {
		found map[string][]FoundHook
		fail  []string
	}{
		{map[string][]FoundHook{"pre_run_command": hook(guard), "pre_read_code": hook(guard), "pre_write_code": hook(guard), "pre_mcp_tool_use": hook(guard)}, nil},
		{map[string][]FoundHook{"pre_run_command": hook(guard), "pre_read_code": hook(guard)},
			[]string{"guard hook runs on pre_mcp_tool_use", "guard hook runs on pre_write_code"}},
		{map[string][]FoundHook{"pre_run_command": hook(guard), "pre_read_code": hook(moved), "pre_write_code": hook(guard), "pre_mcp_tool_use": hook(guard)},
			[]string{"guard's pre_read_code hook in /w/.windsurf/hooks.json runs in the workspace root"}},
	} {
		var failed []string
		for _, c := range windsurfChecks(tc.found) {
			if !c.OK {
				failed = append(failed, c.What)
			}
		}
		if strings.Join(failed, "; ") != strings.Join(tc.fail, "; ") {
			t.Errorf("%v: failed %q, want %q", tc.found, failed, tc.fail)
		}
	}
}
