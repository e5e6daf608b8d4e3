// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"strings"
	"testing"

	"guard/engine"
)

// TestCursorCopilotDecode: each input shape of Cursor and Copilot becomes
// the call guard judges, and what is malformed is denied.
func TestCursorCopilotDecode(t *testing.T) {
	for _, tc := range []struct {
		agent Adapter
		in    string
		kind  engine.Kind
		tool  string
		input engine.Input
		cwd   string
		err   string // a substring of the denial
	}{
		{Cursor{}, `{"hook_event_name":"beforeShellExecution","conversation_id":"c1","workspace_roots":["/p"],"command":"git status","cwd":"/p/src"}`,
			engine.KindShell, "Shell", engine.Input{Command: "git status"}, "/p/src", ""},
		{Cursor{}, `{"hook_event_name":"beforeShellExecution","conversation_id":"c1","workspace_roots":["/p"],"command":"ls"}`,
			engine.KindShell, "Shell", engine.Input{Command: "ls"}, "/p", ""},
		{Cursor{}, `{"hook_event_name":"beforeReadFile","conversation_id":"c1","workspace_roots":["/p"],"file_path":"/p/.env"}`,
			engine.KindRead, "Read", engine.Input{Path: "/p/.env"}, "/p", ""},
		{Cursor{}, `{"hook_event_name":"preToolUse","conversation_id":"c1","workspace_roots":["/p"],"cwd":"/p","tool_name":"Shell","tool_input":{"command":"npm test","working_directory":"/p/web"}}`,
			engine.KindShell, "Shell", engine.Input{Command: "npm test"}, "/p/web", ""},
		{Cursor{}, `{"hook_event_name":"preToolUse","conversation_id":"c1","cwd":"/p","tool_name":"Write","tool_input":{"file_path":"/p/a.go"}}`,
			engine.KindWrite, "Write", engine.Input{Path: "/p/a.go"}, "/p", ""},
		// Two path fields of the tool's input that disagree: guard cannot
		// tell which Cursor reads; the same path twice is one path.
		{Cursor{}, `{"hook_event_name":"preToolUse","conversation_id":"c1","cwd":"/p","tool_name":"Read","tool_input":{"file_path":"/p/a.go","target_file":"/h/.ssh/id_rsa"}}`,
			"", "", engine.Input{}, "", "guard cannot tell which it uses"},
		{Cursor{}, `{"hook_event_name":"preToolUse","conversation_id":"c1","cwd":"/p","tool_name":"Write","tool_input":{"path":"/p/a.go","file_path":"/p/.git/hooks/pre-commit"}}`,
			"", "", engine.Input{}, "", "guard cannot tell which it uses"},
		{Cursor{}, `{"hook_event_name":"preToolUse","conversation_id":"c1","cwd":"/p","tool_name":"Grep","tool_input":{"path":"/p/src","target_directory":"/h","pattern":"x"}}`,
			"", "", engine.Input{}, "", "guard cannot tell which it uses"},
		{Cursor{}, `{"hook_event_name":"preToolUse","conversation_id":"c1","cwd":"/p","tool_name":"Read","tool_input":{"file_path":"/p/a.go","path":"/p/a.go"}}`,
			engine.KindRead, "Read", engine.Input{Path: "/p/a.go"}, "/p", ""},
		{Cursor{}, `{"hook_event_name":"preToolUse","conversation_id":"c1","cwd":"/p","tool_name":"MCP:get_issue","tool_input":{}}`,
			engine.KindTool, "MCP:get_issue", engine.Input{}, "/p", ""},
		{Cursor{}, `{"hook_event_name":"beforeMCPExecution","conversation_id":"c1","workspace_roots":["/p"],"tool_name":"get_issue","tool_input":"{}"}`,
			engine.KindTool, "MCP:get_issue", engine.Input{}, "/p", ""},
		{Cursor{}, `{"hook_event_name":"afterFileEdit","conversation_id":"c1","workspace_roots":["/p"]}`, "", "", engine.Input{}, "", "does not take its \"afterFileEdit\" event"},
		{Cursor{}, `{"hook_event_name":"beforeShellExecution","conversation_id":"c1","command":"ls","cwd":"rel"}`, "", "", engine.Input{}, "", "not an absolute path"},
		{Cursor{}, `{"hook_event_name":"beforeShellExecution","conversation_id":"c1","command":7,"cwd":"/p"}`, "", "", engine.Input{}, "", "is not a string"},

		{Copilot{}, `{"sessionId":"s1","timestamp":1767225600000,"cwd":"/p","toolName":"bash","toolArgs":{"command":"git log"}}`,
			engine.KindShell, "bash", engine.Input{Command: "git log"}, "/p", ""},
		{Copilot{}, `{"sessionId":"s1","timestamp":1767225600000,"cwd":"/p","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`,
			engine.KindShell, "bash", engine.Input{Command: "ls"}, "/p", ""},
		{Copilot{}, `{"sessionId":"s1","cwd":"/p","toolName":"view","toolArgs":{"path":"/p/a.go"}}`,
			engine.KindRead, "view", engine.Input{Path: "/p/a.go"}, "/p", ""},
		{Copilot{}, `{"sessionId":"s1","cwd":"/p","toolName":"create","toolArgs":{"path":"/p/b.go","file_text":"x"}}`,
			engine.KindWrite, "create", engine.Input{Path: "/p/b.go"}, "/p", ""},
		{Copilot{}, `{"sessionId":"s1","cwd":"/p","toolName":"web_fetch","toolArgs":{"url":"https://example.com"}}`,
			engine.KindFetch, "web_fetch", engine.Input{URL: "https://example.com"}, "/p", ""},
		{Copilot{}, `{"sessionId":"s1","cwd":"/p","toolName":"github-mcp-server-get_issue","toolArgs":{}}`,
			engine.KindTool, "github-mcp-server-get_issue", engine.Input{}, "/p", ""},
		{Copilot{}, `{"hook_event_name":"PreToolUse","session_id":"s1","timestamp":"2026-12-01T00:00:00Z","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"}}`,
			"", "Bash", engine.Input{Command: "ls"}, "/p", ""},
		{Copilot{}, `{"sessionId":"s1","cwd":"/p","toolName":"bash","toolArgs":[1]}`, "", "", engine.Input{}, "", "toolArgs is not a JSON object"},
		{Copilot{}, `{"hook_event_name":"PreToolUse","session_id":"s1","transcript_path":"/h/t.jsonl","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"}}`,
			"", "", engine.Input{}, "", "it is not Copilot's"},
		{Copilot{}, `{"sessionId":"s1","cwd":"/p","toolName":"bash","toolArgs":{"command":""}}`, "", "", engine.Input{}, "", "not a string guard can judge"},
	} {
		ev, err := tc.agent.Decode([]byte(tc.in))
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%T %s: error %v, want %q", tc.agent, tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("%T %s: %v", tc.agent, tc.in, err)
		case ev.Call.Kind != tc.kind || ev.Call.Tool != tc.tool || ev.Call.Input != tc.input || ev.Call.Cwd != tc.cwd || ev.Name != "PreToolUse":
			t.Errorf("%T %s: got %s %s %+v in %s (%s), want %s %s %+v in %s", tc.agent, tc.in, ev.Call.Kind, ev.Call.Tool, ev.Call.Input, ev.Call.Cwd, ev.Name,
				tc.kind, tc.tool, tc.input, tc.cwd)
		}
		// Copilot's VS Code-compatible shape is Claude Code's, and is read
		// as that; every other decodable input is its own agent's.
		want := map[Adapter]string{Cursor{}: "cursor", Copilot{}: "copilot"}[tc.agent]
		if strings.Contains(tc.in, `"tool_name":"Bash"`) && want == "copilot" {
			want = "claude"
		}
		if got := Detect([]byte(tc.in)); err == nil && got != want {
			t.Errorf("Detect(%s) = %q, want %q", tc.in, got, want)
		}
	}
}

// TestCursorCopilotAnswer: the exact answers.
func TestCursorCopilotAnswer(t *testing.T) {
	allow := &engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{{Verdict: engine.Allow, Kind: "command", Text: "ls", Why: "ls is allowed"}}}
	ask := &engine.Decision{Verdict: engine.Ask, Leaves: []engine.Leaf{{Verdict: engine.Ask, Kind: "command", Text: "make", Rule: "make", Why: "make needs approval"}}}
	deny := &engine.Decision{Verdict: engine.Deny, Leaves: []engine.Leaf{{Verdict: engine.Deny, Kind: "command", Text: "rm -rf /", Rule: "rm", Why: "rm -rf deletes directories"}}}
	rewrite := &engine.Decision{Verdict: engine.Allow, Leaves: allow.Leaves, Rewrite: &engine.Input{Command: "'/g' 'run' -- bash -c 'ls'"}}
	shellPre := &Event{Name: "PreToolUse", Call: engine.Call{Tool: "Shell", Kind: engine.KindShell}, Raw: map[string]any{"command": "ls", "working_directory": "/p"}}
	shellBefore := &Event{Name: "PreToolUse", Call: engine.Call{Tool: "Shell", Kind: engine.KindShell}}
	bash := &Event{Name: "PreToolUse", Call: engine.Call{Tool: "bash", Kind: engine.KindShell}, Raw: map[string]any{"command": "ls"}}
	pascalBash := &Event{Name: "PreToolUse", Call: engine.Call{Tool: "Bash"}, Raw: map[string]any{"command": "ls", "description": "d"}}
	view := &Event{Name: "PreToolUse", Call: engine.Call{Tool: "view", Kind: engine.KindRead}, Raw: map[string]any{"path": "/p/a", "command": "x"}}
	denyHint := &engine.Decision{Verdict: engine.Deny, Leaves: []engine.Leaf{{Verdict: engine.Deny, Kind: "command", Text: "rm -rf /", Rule: "rm", Why: "rm -rf deletes directories", Hint: "delete single files"}}}
	for _, tc := range []struct {
		name   string
		agent  Adapter
		ev     *Event
		d      *engine.Decision
		stdout string
		deny   string // a substring of the deny's reason
	}{
		{"cursor allow", Cursor{}, shellBefore, allow, `{"permission":"allow"}` + "\n", ""},
		{"cursor ask is refused", Cursor{}, shellBefore, ask, "", "Cursor does not enforce an ask"},
		{"cursor deny", Cursor{}, shellBefore, deny, "", "rm -rf deletes directories (rule rm, p)"},
		{"cursor rewrite", Cursor{}, shellPre, rewrite, `{"permission":"allow","updated_input":{"command":"'/g' 'run' -- bash -c 'ls'","working_directory":"/p"}}` + "\n", ""},
		{"cursor cannot rewrite beforeShellExecution", Cursor{}, shellBefore, rewrite, "", "cannot rewrite a command"},
		{"copilot allow", Copilot{}, bash, allow, `{"permissionDecision":"allow","permissionDecisionReason":"guard (p): allowed: ls is allowed"}` + "\n", ""},
		{"copilot ask", Copilot{}, bash, ask, `{"permissionDecision":"ask","permissionDecisionReason":"guard (p): needs approval: make needs approval (rule make)"}` + "\n", ""},
		// Copilot gives the model the reason of its deny answer, and none
		// of exit 2's: guard writes the answer and exits 2 as well.
		{"copilot deny", Copilot{}, bash, deny, `{"permissionDecision":"deny","permissionDecisionReason":"guard: denied: rm -rf deletes directories (rule rm, p)"}` + "\n", ""},
		{"copilot deny with a hint", Copilot{}, bash, denyHint, `{"permissionDecision":"deny","permissionDecisionReason":"guard: denied: rm -rf deletes directories (rule rm, p)\nguard: hint: delete single files"}` + "\n", ""},
		{"copilot rewrite", Copilot{}, bash, rewrite, `{"permissionDecision":"allow","permissionDecisionReason":"guard (p): allowed: ls is allowed","modifiedArgs":{"command":"'/g' 'run' -- bash -c 'ls'"}}` + "\n", ""},
		{"copilot rewrite of Bash", Copilot{}, pascalBash, rewrite, `{"permissionDecision":"allow","permissionDecisionReason":"guard (p): allowed: ls is allowed","modifiedArgs":{"command":"'/g' 'run' -- bash -c 'ls'","description":"d"}}` + "\n", ""},
		{"copilot cannot rewrite view", Copilot{}, view, rewrite, `{"permissionDecision":"deny","permissionDecisionReason":"guard: denied: guard cannot rewrite the input of tool view"}` + "\n", ""},
	} {
		a := tc.agent.Answer(tc.ev, tc.d, "p")
		if strings.HasPrefix(tc.stdout, `{"permissionDecision":"deny"`) {
			if a.Deny == nil || string(a.Stdout) != tc.stdout {
				t.Errorf("%s: stdout %s (deny %+v), want %s and a deny", tc.name, a.Stdout, a.Deny, tc.stdout)
			}
			continue
		}
		switch {
		case tc.deny != "":
			if a.Deny == nil || a.Stdout != nil || !strings.Contains(a.Deny.Why, tc.deny) {
				t.Errorf("%s: %+v, want a deny with %q", tc.name, a, tc.deny)
			}
		case a.Deny != nil || string(a.Stdout) != tc.stdout:
			t.Errorf("%s: stdout %s (deny %+v), want %s", tc.name, a.Stdout, a.Deny, tc.stdout)
		}
	}
}
