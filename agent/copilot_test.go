// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"guard/engine"
)

// The golden inputs under testdata/copilot are what GitHub Copilot CLI
// 1.0.102 sent guard in the e2e runs, with the test's temporary directory
// renamed /tmp/e2e: the camelCase preToolUse input, and under
// claude-compatible/ the PascalCase PreToolUse one (Claude Code's fields
// and tool names, Copilot's own arguments), which Detect reads as Claude
// Code's and so is not in TestDetectGolden's testdata/*/ files.

// TestCopilotDecodeGolden decodes what Copilot sent guard.
func TestCopilotDecodeGolden(t *testing.T) {
	const proj, home = "/tmp/e2e/proj", "/tmp/e2e/home"
	for _, tc := range []struct {
		file string
		call engine.Call // Session is the file's
	}{
		{"pretooluse-bash.json", engine.Call{Kind: engine.KindShell, Tool: "bash", Input: engine.Input{Command: "echo e2e-hook-input | wc -c"}, Cwd: proj}},
		{"pretooluse-view.json", engine.Call{Kind: engine.KindRead, Tool: "view", Input: engine.Input{Path: proj + "/hello.txt"}, Cwd: proj}},
		{"pretooluse-create.json", engine.Call{Kind: engine.KindWrite, Tool: "create", Input: engine.Input{Path: proj + "/new.txt"}, Cwd: proj}},
		{"pretooluse-edit.json", engine.Call{Kind: engine.KindEdit, Tool: "edit", Input: engine.Input{Path: proj + "/hello.txt"}, Cwd: proj}},
		// grep and glob name their directories in paths, a list or a
		// string: not the working directory.
		{"pretooluse-grep-paths.json", engine.Call{Kind: engine.KindSearch, Tool: "grep", Input: engine.Input{Path: home, Pattern: "token"}, Cwd: proj}},
		{"pretooluse-grep-paths-string.json", engine.Call{Kind: engine.KindSearch, Tool: "grep", Input: engine.Input{Path: home, Pattern: "token"}, Cwd: proj}},
		{"pretooluse-glob.json", engine.Call{Kind: engine.KindList, Tool: "glob", Input: engine.Input{Path: home + "/.ssh", Pattern: "**/*"}, Cwd: proj}},
		// The PascalCase shape: Claude Code's tool names, whose kind the
		// policy gives, and Copilot's arguments (path, paths).
		{"claude-compatible/pretooluse-bash.json", engine.Call{Tool: "Bash", Input: engine.Input{Command: "cat hello.txt"}, Cwd: proj}},
		{"claude-compatible/pretooluse-read.json", engine.Call{Tool: "Read", Input: engine.Input{Path: proj + "/hello.txt"}, Cwd: proj}},
		{"claude-compatible/pretooluse-write.json", engine.Call{Tool: "Write", Input: engine.Input{Path: proj + "/new.txt"}, Cwd: proj}},
		{"claude-compatible/pretooluse-edit.json", engine.Call{Tool: "Edit", Input: engine.Input{Path: proj + "/hello.txt"}, Cwd: proj}},
		{"claude-compatible/pretooluse-grep.json", engine.Call{Tool: "Grep", Input: engine.Input{Path: home, Pattern: "token"}, Cwd: proj}},
		{"claude-compatible/pretooluse-glob.json", engine.Call{Tool: "Glob", Input: engine.Input{Path: home + "/.ssh", Pattern: "**/*"}, Cwd: proj}},
		// A tool Copilot gives no Claude Code name keeps its own.
		{"claude-compatible/pretooluse-read_bash.json", engine.Call{Tool: "read_bash", Cwd: proj}},
	} {
		data := readGolden(t, "copilot/"+tc.file)
		ev, err := Copilot{}.Decode(data)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		var raw struct {
			Session   string         `json:"sessionId"`
			Snake     string         `json:"session_id"`
			ToolArgs  map[string]any `json:"toolArgs"`
			ToolInput map[string]any `json:"tool_input"`
		}
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		want := tc.call
		want.Session = raw.Session + raw.Snake
		args := raw.ToolArgs
		if args == nil {
			args = raw.ToolInput
		}
		if ev.Name != "PreToolUse" || !sameCall(ev.Call, want) || fmt.Sprint(ev.Raw) != fmt.Sprint(args) {
			t.Errorf("%s: decoded %s %+v %v\nwant       PreToolUse %+v %v", tc.file, ev.Name, ev.Call, ev.Raw, want, args)
		}
		// Without --agent, guard reads the camelCase shape as Copilot's,
		// the other as Claude Code's.
		wantAgent := "copilot"
		if strings.HasPrefix(tc.file, "claude-compatible/") {
			wantAgent = "claude"
		}
		if got := Detect(data); got != wantAgent {
			t.Errorf("%s: Detect = %q, want %q", tc.file, got, wantAgent)
		}
	}
}

// TestCopilotDefaultPolicy decides the golden inputs with the default
// policy, as guard hook would, and checks the exact answer: exit 0 and
// Copilot's answer, or for a deny Copilot's answer and exit 2.
func TestCopilotDefaultPolicy(t *testing.T) {
	answer := func(decision, reason string) string {
		b, _ := json.Marshal(map[string]string{"permissionDecision": decision, "permissionDecisionReason": reason})
		if decision == "deny" {
			return "exit 2 after: " + string(b) + "\n" // and the deny lines on stderr
		}
		return "exit 0: " + string(b) + "\n"
	}
	writing := func(tool, path, dir string) string {
		return "guard (policy default): needs approval: " + tool + ": writing " + path + ": needs approval once in this session; once approved, the session is granted dir " + dir + " (rule paths.write)"
	}
	const proj = "/tmp/e2e/proj"
	sshDenied := ": /tmp/e2e/home/.ssh is a secret file (~/.ssh/**; OpenSSH: private keys and the per-user client configuration): guard does not let it be read or written (rule paths.secret ~/.ssh/**, policy default)"
	for _, tc := range []struct{ file, want string }{
		{"pretooluse-bash.json", answer("allow", "guard (policy default): allowed: every part is allowed: echo e2e-hook-input; wc -c; it runs outside the sandbox, on guard's judgment alone: guard run is not available")},
		{"pretooluse-view.json", answer("allow", "guard (policy default): allowed: view: reading "+proj+"/hello.txt")},
		{"pretooluse-create.json", answer("ask", writing("create", proj+"/new.txt", proj))},
		{"pretooluse-edit.json", answer("ask", writing("edit", proj+"/hello.txt", proj))},
		{"pretooluse-grep-paths.json", answer("allow", "guard (policy default): allowed: grep: reading /tmp/e2e/home")},
		{"pretooluse-glob.json", answer("deny", "guard: denied: glob"+sshDenied)},
		{"claude-compatible/pretooluse-bash.json", answer("allow", "guard (policy default): allowed: cat is allowed; it runs outside the sandbox, on guard's judgment alone: guard run is not available")},
		{"claude-compatible/pretooluse-read.json", answer("allow", "guard (policy default): allowed: Read: reading "+proj+"/hello.txt")},
		{"claude-compatible/pretooluse-write.json", answer("ask", writing("Write", proj+"/new.txt", proj))},
		{"claude-compatible/pretooluse-edit.json", answer("ask", writing("Edit", proj+"/hello.txt", proj))},
		{"claude-compatible/pretooluse-glob.json", answer("deny", "guard: denied: Glob"+sshDenied)},
		{"claude-compatible/pretooluse-read_bash.json", answer("allow", "guard (policy default): allowed: tool read_bash is allowed")},
	} {
		_, a := decideDefault(t, Copilot{}, readGolden(t, "copilot/"+tc.file), false)
		if got := answerString(a); got != tc.want {
			t.Errorf("%s: answer\n%s\nwant\n%s", tc.file, got, tc.want)
		}
	}
	rewritten := `"command":"'/usr/local/bin/guard' 'run' '--profile' 'test' -- bash --noprofile --norc -c 'npm test'","description":"run the tests"`
	for _, tc := range []struct{ in, want string }{
		// The default policy allows npm test only in the sandbox: guard
		// rewrites it to run under guard run, the rest of the arguments
		// kept, in either shape.
		{copilotCamel("bash", `{"command":"npm test","description":"run the tests"}`),
			`exit 0: {"permissionDecision":"allow","permissionDecisionReason":"guard (policy default): allowed: npm test is allowed","modifiedArgs":{` + rewritten + `}}` + "\n"},
		{copilotPascal("Bash", `{"command":"npm test","description":"run the tests"}`),
			`exit 0: {"permissionDecision":"allow","permissionDecisionReason":"guard (policy default): allowed: npm test is allowed","modifiedArgs":{` + rewritten + `}}` + "\n"},
		{copilotCamel("bash", `{"command":"rm -rf victim","description":"remove it"}`),
			answer("deny", "guard: denied: rm -r: it deletes directories recursively (rule rm -r, policy default)\nguard: hint: delete single files, or ask the user")},
		{copilotCamel("view", `{"path":"/tmp/e2e/home/.ssh/id_rsa"}`),
			answer("deny", "guard: denied: view: /tmp/e2e/home/.ssh/id_rsa is a secret file (~/.ssh/**; OpenSSH: private keys and the per-user client configuration): guard does not let it be read or written (rule paths.secret ~/.ssh/**, policy default)")},
		{copilotCamel("grep", `{"pattern":"BEGIN","paths":["/tmp/e2e/home/.ssh"],"output_mode":"content"}`),
			answer("deny", "guard: denied: grep"+sshDenied)},
		{copilotPascal("Grep", `{"pattern":"BEGIN","paths":"/tmp/e2e/home/.ssh"}`),
			answer("deny", "guard: denied: Grep"+sshDenied)},
		{copilotCamel("create", `{"path":"/p/.github/hooks/guard.json","file_text":"{}"}`),
			answer("deny", "guard: denied: create: /p/.github/hooks/guard.json is protected: it configures a coding agent ({project}/.github/hooks/**), and no tool may change it (rule paths.protected {project}/.github/hooks/**, policy default)\nguard: hint: write inside the project; files that configure the agent, git and the tool chain are protected")},
	} {
		_, a := decideDefault(t, Copilot{}, []byte(tc.in), true)
		if got := answerString(a); got != tc.want {
			t.Errorf("%s: answer\n%s\nwant\n%s", tc.in, got, tc.want)
		}
	}
}

// copilotCamel is a camelCase preToolUse input in /p for tool with args.
func copilotCamel(tool, args string) string {
	return `{"sessionId":"s","timestamp":1796146199719,"cwd":"/p","toolName":"` + tool + `","toolArgs":` + args + `}`
}

// copilotPascal is a PascalCase PreToolUse input in /p for tool with
// input.
func copilotPascal(tool, input string) string {
	return `{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-12-01T17:29:59.719Z","cwd":"/p","tool_name":"` + tool + `","tool_input":` + input + `}`
}

// TestCopilotPaths: grep's and glob's paths must name one path guard can
// judge, in either shape, and a tool may name its path once: a search
// whose path guard did not read would be judged as one of the working
// directory.
func TestCopilotPaths(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{copilotCamel("grep", `{"pattern":"x","paths":["/a","/b"]}`), "names 2 paths; guard judges one path per call"},
		{copilotCamel("grep", `{"pattern":"x","paths":[]}`), "names 0 paths"},
		{copilotCamel("glob", `{"pattern":"x","paths":[7]}`), `"paths" field is not a path guard can judge`},
		{copilotCamel("glob", `{"pattern":"x","paths":""}`), `"paths" field is not a path guard can judge`},
		{copilotCamel("grep", `{"pattern":"x","paths":"/a","path":"/b"}`), `names its path in both "paths" and "path"`},
		{copilotCamel("view", `{"path":"/a","file_path":"/b"}`), `names its path in both "path" and "file_path"`},
		{copilotCamel("view", `{"path":["/a"]}`), `"path" field is not a path guard can judge`},
		{copilotPascal("Glob", `{"pattern":"x","paths":["/a","/b"]}`), "names 2 paths"},
		{copilotPascal("Read", `{"path":"/a","file_path":"/b"}`), "names its path in both"},
		{copilotPascal("Bash", `{"command":7}`), "not a string guard can judge"},
		// Copilot's PascalCase events are PreToolUse and its own others;
		// guard decides the first only.
		{`{"hook_event_name":"PostToolUse","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"}}`, `does not take its "PostToolUse" event`},
	} {
		if _, err := (Copilot{}).Decode([]byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want %q", tc.in, err, tc.err)
		}
	}
	for _, tc := range []struct {
		in   string
		want engine.Input
	}{
		{copilotCamel("grep", `{"pattern":"x","paths":["/a"]}`), engine.Input{Path: "/a", Pattern: "x"}},
		{copilotCamel("grep", `{"pattern":"x","path":"/a"}`), engine.Input{Path: "/a", Pattern: "x"}},
		{copilotCamel("grep", `{"pattern":"x"}`), engine.Input{Pattern: "x"}}, // the working directory, as Copilot's default
		{copilotCamel("view", `{"file_path":"/a"}`), engine.Input{Path: "/a"}},
		{copilotPascal("Grep", `{"pattern":"x","paths":["/a"]}`), engine.Input{Path: "/a", Pattern: "x"}},
		{copilotPascal("Read", `{"file_path":"/a"}`), engine.Input{Path: "/a"}},
		{copilotPascal("WebFetch", `{"url":"https://example.com"}`), engine.Input{URL: "https://example.com"}},
		// Not one of Copilot's tools: read by Claude Code's generic fields.
		{copilotPascal("mcp_tool", `{"path":"/a"}`), engine.Input{Path: "/a"}},
	} {
		ev, err := Copilot{}.Decode([]byte(tc.in))
		if err != nil || ev.Call.Input != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.in, ev, err, tc.want)
		}
	}
}
