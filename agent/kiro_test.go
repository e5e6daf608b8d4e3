// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"guard/engine"
)

// The golden inputs under testdata/kiro are Kiro CLI's documented shapes
// (kiro.dev/docs/cli/hooks, the Q CLI's docs/hooks.md): its preToolUse
// examples of fs_read and of an MCP tool as published, and execute_bash
// and fs_write in the same shape with the arguments of the Q CLI's
// tool_index.json. Kiro CLI is not on npm; no real client sent them.

// kiroInput is a preToolUse input in /p for tool with input.
func kiroInput(tool, input string) string {
	return `{"hook_event_name":"preToolUse","cwd":"/p","tool_name":"` + tool + `","tool_input":` + input + `}`
}

// TestKiroDecodeGolden decodes Kiro CLI's documented inputs.
func TestKiroDecodeGolden(t *testing.T) {
	const cwd = "/current/working/directory"
	for _, tc := range []struct {
		file string
		call engine.Call
	}{
		{"pretooluse-fs_read.json", engine.Call{Kind: engine.KindRead, Tool: "fs_read", Input: engine.Input{Path: cwd + "/docs/hooks.md"}, Cwd: cwd}},
		{"pretooluse-mcp.json", engine.Call{Kind: engine.KindTool, Tool: "@postgres/query", Cwd: cwd}},
		{"pretooluse-execute_bash.json", engine.Call{Kind: engine.KindShell, Tool: "execute_bash", Input: engine.Input{Command: "git status"}, Cwd: cwd}},
		{"pretooluse-fs_write.json", engine.Call{Kind: engine.KindEdit, Tool: "fs_write", Input: engine.Input{Path: cwd + "/docs/hooks.md"}, Cwd: cwd}},
	} {
		data := readGolden(t, "kiro/"+tc.file)
		ev, err := Kiro{}.Decode(data)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		var raw struct {
			ToolInput map[string]any `json:"tool_input"`
		}
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		in, _ := json.Marshal(ev.Raw)
		want, _ := json.Marshal(raw.ToolInput)
		if ev.Name != "PreToolUse" || ev.Session != "" || !sameCall(ev.Call, tc.call) || string(in) != string(want) {
			t.Errorf("%s: decoded %s %+v %s\nwant       PreToolUse %+v %s", tc.file, ev.Name, ev.Call, in, tc.call, want)
		}
	}
}

// TestKiroDecode: each tool's input becomes the call guard judges, by
// either of a tool's names, and what guard cannot judge is denied.
func TestKiroDecode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		kind engine.Kind
		want engine.Input
		err  string // a substring of the denial
	}{
		{kiroInput("shell", `{"command":"ls -la"}`), engine.KindShell, engine.Input{Command: "ls -la"}, ""},
		{kiroInput("execute_bash", `{"command":""}`), "", engine.Input{}, "not a string guard can judge"},
		{kiroInput("execute_bash", `{"summary":"x"}`), engine.KindShell, engine.Input{}, ""}, // no command: the engine denies
		{kiroInput("read", `{"operations":[{"mode":"Directory","path":"/p/src","depth":1}]}`), engine.KindList, engine.Input{Path: "/p/src"}, ""},
		{kiroInput("fs_read", `{"operations":[{"mode":"Search","path":"~/notes","pattern":"token"}]}`), engine.KindSearch, engine.Input{Path: "~/notes", Pattern: "token"}, ""},
		{kiroInput("fs_read", `{"operations":[{"mode":"Image","image_paths":["/p/a.png"]}]}`), engine.KindRead, engine.Input{Path: "/p/a.png"}, ""},
		// The same path twice is one call; two paths are two.
		{kiroInput("fs_read", `{"operations":[{"mode":"Line","path":"a.go","start_line":1},{"mode":"Line","path":"a.go","start_line":40}]}`), engine.KindRead, engine.Input{Path: "a.go"}, ""},
		{kiroInput("fs_read", `{"operations":[{"mode":"Line","path":"/p/a.go"},{"mode":"Line","path":"/h/.ssh/id_rsa"}]}`), "", engine.Input{}, "batches operations on more than one path"},
		{kiroInput("fs_read", `{"operations":[{"mode":"Line","path":"/p/a"},{"mode":"Directory","path":"/p/a"}]}`), "", engine.Input{}, "batches operations"},
		{kiroInput("fs_read", `{"operations":[{"mode":"Image","image_paths":["/p/a.png","/h/.ssh/id_rsa"]}]}`), "", engine.Input{}, "reads 2 images"},
		{kiroInput("fs_read", `{"operations":[{"mode":"Line"}]}`), "", engine.Input{}, "names no path"},
		{kiroInput("fs_read", `{"operations":[{"mode":"Tail","path":"/p/a"}]}`), "", engine.Input{}, `the mode "Tail"`},
		{kiroInput("fs_read", `{"operations":[]}`), "", engine.Input{}, "no list of operations"},
		{kiroInput("fs_read", `{"mode":"Line","path":"/p/a"}`), "", engine.Input{}, "no list of operations"},
		{kiroInput("fs_read", `{"operations":["/p/a"]}`), "", engine.Input{}, "not a JSON object"},
		{kiroInput("fs_write", `{"command":"create","path":"/p/b.go","file_text":"x"}`), engine.KindWrite, engine.Input{Path: "/p/b.go"}, ""},
		{kiroInput("write", `{"command":"append","path":"/p/b.go","new_str":"x"}`), engine.KindEdit, engine.Input{Path: "/p/b.go"}, ""},
		{kiroInput("fs_write", `{"command":"delete","path":"/p/b.go"}`), "", engine.Input{}, `command "delete"`},
		{kiroInput("fs_write", `{"command":"create","path":7}`), "", engine.Input{}, "not a string guard can judge"},
		{kiroInput("use_aws", `{"service_name":"s3","operation_name":"ls"}`), engine.KindTool, engine.Input{}, ""},
		// Not Kiro CLI's preToolUse input.
		{`{"hook_event_name":"postToolUse","cwd":"/p","tool_name":"fs_read","tool_input":{},"tool_response":{}}`, "", engine.Input{}, `does not take its "postToolUse" event`},
		{`{"hook_event_name":"PreToolUse","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"}}`, "", engine.Input{}, `does not take its "PreToolUse" event`},
		{`{"hook_event_name":"preToolUse","cwd":"p","tool_name":"shell","tool_input":{"command":"ls"}}`, "", engine.Input{}, "not an absolute path"},
		{`{"hook_event_name":"preToolUse","cwd":"/p","tool_name":"shell"}`, "", engine.Input{}, `no "tool_input" field`},
	} {
		ev, ok := decoded(t, Kiro{}, "kiro", tc.in, tc.err)
		if ok && (ev.Call.Kind != tc.kind || ev.Call.Input != tc.want || ev.Call.Cwd != "/p") {
			t.Errorf("%s: got %s %+v in %s, want %s %+v", tc.in, ev.Call.Kind, ev.Call.Input, ev.Call.Cwd, tc.kind, tc.want)
		}
	}
}

// TestKiroDefaultPolicy decides Kiro CLI's inputs with the default policy,
// as guard hook would, and checks the exact answers: exit 0 and nothing
// on stdout, or exit 2 and the reason.
func TestKiroDefaultPolicy(t *testing.T) {
	const refuse = "; Kiro CLI has no ask for a hook, so guard refuses what it would ask"
	checkAnswers(t, Kiro{}, []answerCase{
		{"@kiro/pretooluse-fs_read.json", false, "exit 0, silent"},
		{"@kiro/pretooluse-execute_bash.json", false, "exit 0, silent"},
		// Where guard run works, git status must run in it, which Kiro
		// CLI cannot be told to do.
		{"@kiro/pretooluse-execute_bash.json", true, "exit 2: guard (policy default): allowed: git status is allowed; it must run in guard's sandbox, " +
			"and Kiro CLI's hook cannot rewrite a command to run there, so guard refuses it"},
		{"@kiro/pretooluse-fs_write.json", false, "exit 2: guard (policy default): needs approval: fs_write: writing /current/working/directory/docs/hooks.md: " +
			"needs approval once in this session; once approved, the session is granted dir /current/working/directory/docs (rule paths.write)" + refuse},
		{"@kiro/pretooluse-mcp.json", false, "exit 2: guard (policy default): needs approval: tool @postgres/query is not in the policy's [tools] table; it needs approval" + refuse},
		{kiroInput("fs_read", `{"operations":[{"mode":"Line","path":"~/.ssh/id_rsa"}]}`), false, "exit 2: fs_read: ~/.ssh/id_rsa is a secret file " +
			"(~/.ssh/**; OpenSSH: private keys and the per-user client configuration): guard does not let it be read or written (rule paths.secret ~/.ssh/**, policy default)"},
		{kiroInput("fs_write", `{"command":"create","path":"/p/.kiro/agents/guard.json","file_text":"{}"}`), false, "exit 2: fs_write: /p/.kiro/agents/guard.json is protected: " +
			"it configures a coding agent ({project}/.kiro/**), and no tool may change it (rule paths.protected {project}/.kiro/**, policy default)"},
		{kiroInput("execute_bash", `{"command":"rm -rf victim"}`), true, "exit 2: rm -r: it deletes directories recursively (rule rm -r, policy default)"},
	})
}

// TestKiroChecks: guard doctor fails a guard hook with a matcher of some
// tools or a cache, and always says which agent carries the hook.
func TestKiroChecks(t *testing.T) {
	for _, tc := range []struct {
		hook string
		fail []string // the checks that fail, by a word of their What
	}{
		{`{"command":"guard hook --agent kiro","timeout_ms":30000,"cache_ttl_seconds":0}`, nil},
		{`{"command":"guard hook --agent kiro","matcher":"*"}`, nil},
		{`{"command":"guard hook --agent kiro","matcher":"fs_*"}`, []string{"no matcher"}},
		{`{"command":"guard hook --agent kiro","cache_ttl_seconds":300}`, []string{"caches no answer"}},
		{`{"command":"guard hook --agent kiro","cache_ttl_seconds":"0"}`, []string{"caches no answer"}},
	} {
		var h map[string]any
		dec := json.NewDecoder(strings.NewReader(tc.hook))
		dec.UseNumber()
		if err := dec.Decode(&h); err != nil {
			t.Fatal(err)
		}
		var failed []string
		warned := false
		for _, c := range kiroChecks(map[string][]FoundHook{"preToolUse": {{File: "/p/.kiro/agents/guard.json", H: h}}}) {
			switch {
			case c.Warn:
				warned = strings.Contains(c.Fix, "kiro-cli chat --agent guard")
			case !c.OK:
				failed = append(failed, c.What)
			}
		}
		if !warned || len(failed) != len(tc.fail) {
			t.Errorf("%s: failed %q (warned %v), want %q", tc.hook, failed, warned, tc.fail)
			continue
		}
		for i, w := range tc.fail {
			if !strings.Contains(failed[i], w) {
				t.Errorf("%s: failed %q, want %q", tc.hook, failed[i], w)
			}
		}
	}
}
