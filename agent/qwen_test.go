// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"guard/engine"
)

// TestQwenDecodeGolden decodes what Qwen Code 0.24.4 sent guard
// (qwen -p --approval-mode yolo; e2e/qwen_test.go).
func TestQwenDecodeGolden(t *testing.T) {
	const proj = "/tmp/e2e/proj"
	for _, tc := range []struct {
		file  string
		name  string
		call  engine.Call // Session is the file's
		input string      // tool_input as Raw holds it, as JSON
	}{
		{"pretooluse-run_shell_command.json", "PreToolUse", engine.Call{Kind: engine.KindShell, Tool: "run_shell_command", Input: engine.Input{Command: "cat hello.txt"}, Cwd: proj}, `{"command":"cat hello.txt"}`},
		// directory is where the command runs.
		{"pretooluse-run_shell_command-directory.json", "PreToolUse", engine.Call{Kind: engine.KindShell, Tool: "run_shell_command", Input: engine.Input{Command: "pwd"}, Cwd: proj + "/sub"}, `{"command":"pwd","directory":"/tmp/e2e/proj/sub"}`},
		{"pretooluse-read_file.json", "PreToolUse", engine.Call{Kind: engine.KindRead, Tool: "read_file", Input: engine.Input{Path: proj + "/hello.txt"}, Cwd: proj}, `{"file_path":"/tmp/e2e/proj/hello.txt"}`},
		{"pretooluse-write_file.json", "PreToolUse", engine.Call{Kind: engine.KindWrite, Tool: "write_file", Input: engine.Input{Path: proj + "/new.txt"}, Cwd: proj}, `{"content":"n\n","file_path":"/tmp/e2e/proj/new.txt"}`},
		{"pretooluse-edit.json", "PreToolUse", engine.Call{Kind: engine.KindEdit, Tool: "edit", Input: engine.Input{Path: proj + "/hello.txt"}, Cwd: proj}, `{"file_path":"/tmp/e2e/proj/hello.txt","new_string":"bye","old_string":"hello"}`},
		// A relative path is the working directory's, as Qwen Code resolves it.
		{"pretooluse-grep_search.json", "PreToolUse", engine.Call{Kind: engine.KindSearch, Tool: "grep_search", Input: engine.Input{Path: proj + "/sub", Pattern: "package"}, Cwd: proj}, `{"path":"sub","pattern":"package"}`},
		{"pretooluse-glob.json", "PreToolUse", engine.Call{Kind: engine.KindList, Tool: "glob", Input: engine.Input{Path: proj + "/sub", Pattern: "**/*.go"}, Cwd: proj}, `{"path":"sub","pattern":"**/*.go"}`},
		// The model called web_fetch through tool_call: the hook gets web_fetch.
		{"pretooluse-web_fetch.json", "PreToolUse", engine.Call{Kind: engine.KindFetch, Tool: "web_fetch", Input: engine.Input{URL: "https://example.com/x"}, Cwd: proj}, `{"prompt":"x","url":"https://example.com/x"}`},
		{"posttooluse-run_shell_command.json", "PostToolUse", engine.Call{Kind: engine.KindShell, Tool: "run_shell_command", Input: engine.Input{Command: "cat hello.txt"}, Cwd: proj}, `{"command":"cat hello.txt"}`},
	} {
		data := readGolden(t, "qwen/"+tc.file)
		ev, err := Qwen{}.Decode(data)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		var raw struct {
			Session string `json:"session_id"`
			CallID  string `json:"tool_use_id"`
		}
		json.Unmarshal(data, &raw)
		want := tc.call
		want.Session = raw.Session
		in, _ := json.Marshal(ev.Raw)
		if ev.Name != tc.name || ev.Session != raw.Session || ev.CallID != raw.CallID || !sameCall(ev.Call, want) || string(in) != tc.input {
			t.Errorf("%s: decoded %s %q %q %+v %s\nwant      %s %q %q %+v %s", tc.file, ev.Name, ev.Session, ev.CallID, ev.Call, in, tc.name, raw.Session, raw.CallID, want, tc.input)
		}
	}
}

// qwenInput is a PreToolUse input of Qwen Code in /p for tool with input.
func qwenInput(tool, input string) string {
	return `{"session_id":"s","transcript_path":"/h/.qwen/projects/-p/chats/s.jsonl","cwd":"/p","hook_event_name":"PreToolUse","timestamp":"2026-12-07T02:08:02.275Z","permission_mode":"yolo","tool_name":"` +
		tool + `","tool_input":` + input + `,"tool_use_id":"toolu_1","tool_call_id":"call_1"}`
}

// qwenCases are PreToolUse inputs of tools and what guard judges of each:
// the kind, the input and the working directory.
var qwenCases = []struct {
	tool, input string
	kind        engine.Kind
	want        engine.Input
	cwd         string
}{
	{"run_shell_command", `{"command":"ls","is_background":false,"description":"list","timeout":1000}`, engine.KindShell, engine.Input{Command: "ls"}, "/p"},
	{"run_shell_command", `{"command":"ls","directory":"/tmp"}`, engine.KindShell, engine.Input{Command: "ls"}, "/tmp"},
	{"run_shell_command", `{"command":"ls","directory":"/p/a/../b/"}`, engine.KindShell, engine.Input{Command: "ls"}, "/p/b"},
	{"run_shell_command", `{"command":"ls","directory":"sub"}`, engine.KindShell, engine.Input{Command: "ls"}, "/p/sub"},
	{"run_shell_command", `{"directory":"/p"}`, engine.KindShell, engine.Input{}, "/p"}, // no command: the engine denies
	{"read_file", `{"file_path":"/home/u/.ssh/id_rsa","offset":1,"limit":null}`, engine.KindRead, engine.Input{Path: "/home/u/.ssh/id_rsa"}, "/p"},
	{"read_file", `{"file_path":"a/../../etc/passwd"}`, engine.KindRead, engine.Input{Path: "/etc/passwd"}, "/p"},
	{"read_file", `{}`, engine.KindRead, engine.Input{}, "/p"}, // no path: the engine denies
	{"write_file", `{"file_path":"/p/.qwen/settings.json","content":"{}"}`, engine.KindWrite, engine.Input{Path: "/p/.qwen/settings.json"}, "/p"},
	{"edit", `{"file_path":"/p/a.go","old_string":"a","new_string":"b","replace_all":true}`, engine.KindEdit, engine.Input{Path: "/p/a.go"}, "/p"},
	{"notebook_edit", `{"notebook_path":"/p/n.ipynb","new_source":"x"}`, engine.KindEdit, engine.Input{Path: "/p/n.ipynb"}, "/p"},
	{"grep_search", `{"pattern":"TODO","glob":"*.go","path":"/etc","limit":5}`, engine.KindSearch, engine.Input{Path: "/etc", Pattern: "TODO"}, "/p"},
	{"grep_search", `{"pattern":"TODO"}`, engine.KindSearch, engine.Input{Pattern: "TODO"}, "/p"},
	{"glob", `{"pattern":"/home/u/.ssh/*"}`, engine.KindList, engine.Input{Pattern: "/home/u/.ssh/*"}, "/p"},
	{"list_directory", `{"path":"/etc","ignore":["*.bak"]}`, engine.KindList, engine.Input{Path: "/etc"}, "/p"},
	{"web_fetch", `{"url":"https://go.dev/x","prompt":"read it"}`, engine.KindFetch, engine.Input{URL: "https://go.dev/x"}, "/p"},
	{"web_fetch", `{"prompt":"https://go.dev/x"}`, engine.KindFetch, engine.Input{}, "/p"}, // no url: the engine denies
	{"web_search", `{"query":"guard"}`, engine.KindFetch, engine.Input{}, "/p"},
	// Tools guard does not judge by their input: the policy's tier of the
	// name decides.
	{"agent", `{"description":"d","prompt":"p","working_dir":"/"}`, engine.KindTool, engine.Input{}, "/p"},
	{"tool_call", `{"name":"web_fetch","arguments":{"url":"https://x"}}`, engine.KindTool, engine.Input{}, "/p"},
	{"skill", `{"skill":"x"}`, engine.KindTool, engine.Input{}, "/p"},
	{"exec", `{"command":"ls"}`, engine.KindTool, engine.Input{}, "/p"},
	{"mcp__github__get_issue", `{"path":"/x"}`, engine.KindTool, engine.Input{}, "/p"},
	{"Bash", `{"command":"ls"}`, engine.KindTool, engine.Input{}, "/p"}, // not a Qwen Code tool
}

func init() {
	seen := map[string]bool{}
	for _, tc := range qwenCases {
		if seen[tc.tool+tc.input] {
			panic(fmt.Sprintf("qwenCases: duplicate case %s %s", tc.tool, tc.input))
		}
		seen[tc.tool+tc.input] = true
	}
}

func TestQwenDecode(t *testing.T) {
	for _, tc := range qwenCases {
		ev, err := Qwen{}.Decode([]byte(qwenInput(tc.tool, tc.input)))
		if err != nil {
			t.Errorf("%s %s: %v", tc.tool, tc.input, err)
			continue
		}
		want := engine.Call{Kind: tc.kind, Tool: tc.tool, Input: tc.want, Cwd: tc.cwd, Session: "s"}
		if ev.Name != "PreToolUse" || ev.CallID != "toolu_1" || !sameCall(ev.Call, want) || ev.Raw == nil {
			t.Errorf("%s %s:\ndecoded %s %q %+v\nwant    PreToolUse %+v", tc.tool, tc.input, ev.Name, ev.CallID, ev.Call, want)
		}
	}
}

// TestQwenDecodeDenied: malformed inputs, and fields guard cannot judge,
// are denied with these reasons.
func TestQwenDecodeDenied(t *testing.T) {
	for _, tc := range []struct{ in, why string }{
		{``, "the hook input is empty; guard hook reads the agent's hook event as JSON on stdin"},
		{`[]`, "the hook input is not a JSON object: json: cannot unmarshal array into Go value of type map[string]interface {}"},
		{qwenInput("read_file", `{}`) + ` {}`, "the hook input has data after its JSON object"},
		{`{}`, `the hook input has no "hook_event_name" field`},
		{`{"hook_event_name":"BeforeTool","tool_name":"read_file","cwd":"/p","tool_input":{}}`, `guard hook decides Qwen Code's tool calls; it does not take its "BeforeTool" event`},
		{`{"hook_event_name":"PermissionRequest","tool_name":"run_shell_command","cwd":"/p","tool_input":{"command":"ls"}}`, `guard hook decides Qwen Code's tool calls; it does not take its "PermissionRequest" event`},
		{`{"hook_event_name":"PostToolUseFailure","tool_name":"run_shell_command","cwd":"/p","tool_input":{"command":"ls"}}`, `guard hook decides Qwen Code's tool calls; it does not take its "PostToolUseFailure" event`},
		{`{"hook_event_name":"PreToolUse","cwd":"/p","tool_input":{}}`, `the hook input has no "tool_name" field`},
		{`{"hook_event_name":"PreToolUse","tool_name":"glob","cwd":"p","tool_input":{}}`, `the hook input's cwd "p" is not an absolute path`},
		{`{"hook_event_name":"PreToolUse","tool_name":"glob","cwd":"/p","tool_input":"ls"}`, "the hook input's tool_input is not a JSON object"},
		{qwenInput("run_shell_command", `{"command":["ls"]}`), `the run_shell_command call's "command" field is not a string guard can judge`},
		{qwenInput("run_shell_command", `{"command":"ls","directory":""}`), `the run_shell_command call's "directory" field is not a path guard can judge`},
		{qwenInput("run_shell_command", `{"command":"ls","directory":7}`), `the run_shell_command call's "directory" field is not a path guard can judge`},
		{qwenInput("read_file", `{"file_path":null}`), `the read_file call's "file_path" field is not a path guard can judge`},
		{qwenInput("grep_search", `{"pattern":7}`), `the grep_search call's "pattern" field is not a string guard can judge`},
		{qwenInput("web_fetch", `{"url":{}}`), `the web_fetch call's "url" field is not a string guard can judge`},
		{qwenInput("read_file", `{"file_path":"/p/a\u0000b"}`), `the read_file call's file_path holds a NUL byte`},
		{qwenInput("write_file", `{"file_path":"~/.qwen/settings.json","content":"{}"}`), `the write_file call's file_path "~/.qwen/settings.json" starts with ~, which guard does not read as Qwen Code does`},
	} {
		ev, err := Qwen{}.Decode([]byte(tc.in))
		d, ok := err.(*Denial)
		switch {
		case err == nil:
			t.Errorf("%s: decoded %+v, want the denial %q", tc.in, ev.Call, tc.why)
		case !ok:
			t.Errorf("%s: error %T, want *Denial", tc.in, err)
		case d.Why != tc.why:
			t.Errorf("%s: denied\n%q\nwant\n%q", tc.in, d.Why, tc.why)
		}
	}
}

// TestQwenAnswer: the exact answer for each verdict; a call guard allows
// only rewritten is denied, Qwen Code taking no rewrite.
func TestQwenAnswer(t *testing.T) {
	shell := &Event{Name: "PreToolUse", Call: engine.Call{Kind: engine.KindShell, Tool: "run_shell_command"}, Raw: map[string]any{"command": "go test ./..."}}
	leaf := engine.Leaf{Verdict: engine.Allow, Kind: "command", Text: "go test ./...", Why: "go test is allowed"}
	ask := leaf
	ask.Verdict, ask.Rule, ask.Why = engine.Ask, "go", `go test <runs> "the project's" code`
	no := leaf
	no.Verdict, no.Why, no.Hint = engine.Deny, "go test -exec runs a program", "use go test without -exec"
	allow := &engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{leaf}}
	asks := &engine.Decision{Verdict: engine.Ask, Leaves: []engine.Leaf{ask}}
	denies := &engine.Decision{Verdict: engine.Deny, Leaves: []engine.Leaf{no}}
	rewrite := func(d *engine.Decision) *engine.Decision {
		d2 := *d
		d2.Rewrite = &engine.Input{Command: "'/usr/local/bin/guard' 'run' -- bash --noprofile --norc -c 'go test ./...'"}
		return &d2
	}
	const refused = "; it must run in guard's sandbox (guard run), and Qwen Code cannot run a call rewritten by its PreToolUse hook, so guard refuses it"
	for _, tc := range []struct {
		name string
		ev   *Event
		d    *engine.Decision
		want string
	}{
		{"allow", shell, allow, `exit 0: {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"guard (p): allowed: go test is allowed"}}` + "\n"},
		{"ask", shell, asks, `exit 0: {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"guard (p): needs approval: go test \u003cruns\u003e \"the project's\" code (rule go)"}}` + "\n"},
		{"deny", shell, denies, "exit 2: go test -exec runs a program (p)"},
		{"rewrite allow", shell, rewrite(allow), "exit 2: guard (p): allowed: go test is allowed" + refused},
		{"rewrite ask", shell, rewrite(asks), `exit 2: guard (p): needs approval: go test <runs> "the project's" code (rule go)` + refused},
		{"rewrite deny", shell, rewrite(denies), "exit 2: go test -exec runs a program (p)"},
		// PostToolUse and SessionEnd get no answer, whatever the verdict.
		{"PostToolUse", &Event{Name: "PostToolUse", Call: shell.Call, Raw: shell.Raw}, denies, "exit 0: "},
		{"SessionEnd", &Event{Name: "SessionEnd"}, allow, "exit 0: "},
	} {
		if got := answerString(Qwen{}.Answer(tc.ev, tc.d, "p")); got != tc.want {
			t.Errorf("%s: answer\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
	if a := (Qwen{}).Answer(shell, denies, "p"); len(a.Deny.Hints) != 1 || a.Deny.Hints[0] != no.Hint {
		t.Errorf("deny: hints %q, want %q", a.Deny.Hints, no.Hint)
	}
	// The rewrite to issue instead, then the file tools; an ask has no
	// rewrite to issue.
	if a := (Qwen{}).Answer(shell, rewrite(allow), "p"); len(a.Deny.Hints) != 2 || !strings.HasSuffix(a.Deny.Hints[0], ": "+rewrite(allow).Rewrite.Command) ||
		!strings.HasPrefix(a.Deny.Hints[1], "read and search files with read_file, ") {
		t.Errorf("rewrite allow: hints %q, want the rewrite, then the file tools named", a.Deny.Hints)
	}
	if a := (Qwen{}).Answer(shell, rewrite(asks), "p"); len(a.Deny.Hints) != 1 || !strings.HasPrefix(a.Deny.Hints[0], "read and search files with read_file, ") {
		t.Errorf("rewrite ask: hints %q, want the file tools named, and no rewrite", a.Deny.Hints)
	}
}

// TestQwenDefaultPolicy: the golden inputs under the default policy, with
// and without guard run to rewrite into: cat hello.txt is allowed where
// it runs unbounded, and refused where guard would bound it.
func TestQwenDefaultPolicy(t *testing.T) {
	data := readGolden(t, "qwen/pretooluse-run_shell_command.json")
	for _, tc := range []struct {
		sandbox bool
		want    string
	}{
		{false, `exit 0: {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"`},
		{true, "exit 2: guard (policy default): allowed: cat is allowed; it must run in guard's sandbox"},
	} {
		_, a := decideDefault(t, Qwen{}, data, tc.sandbox)
		if got := answerString(a); !strings.HasPrefix(got, tc.want) {
			t.Errorf("sandbox %v: %s\nwant it to start %s", tc.sandbox, got, tc.want)
		}
	}
}

// TestQwenInstall: guard init writes guard's hooks into Qwen Code's
// settings, keeps what else is there, and planned again changes nothing.
func TestQwenInstall(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, ".qwen", "settings.json")
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	old := `{"model":{"name":"qwen3-coder"},"hooks":{"PreToolUse":[{"matcher":"write_file","hooks":[{"type":"command","command":"lint.sh"}]}]}}`
	if err := os.WriteFile(name, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	changes, err := Qwen{}.Install(dir, true, "/usr/local/bin/guard")
	if err != nil || len(changes) != 1 || changes[0].Path != name {
		t.Fatalf("Install: %v, %+v", err, changes)
	}
	var got map[string]any
	if err := json.Unmarshal(changes[0].New, &got); err != nil {
		t.Fatal(err)
	}
	hooks := got["hooks"].(map[string]any)
	guard := map[string]any{"type": "command", "command": "'/usr/local/bin/guard' hook --agent qwen", "timeout": float64(HookTimeout)}
	for _, tc := range []struct {
		event, matcher string
		groups         int
	}{
		{"PreToolUse", "*", 2},
		{"PostToolUse", "*", 1},
		{"SessionEnd", "", 1},
	} {
		groups, _ := hooks[tc.event].([]any)
		if len(groups) != tc.groups {
			t.Errorf("%s: %d groups, want %d: %v", tc.event, len(groups), tc.groups, groups)
			continue
		}
		g := groups[len(groups)-1].(map[string]any)
		m, hasMatcher := g["matcher"]
		h := g["hooks"].([]any)[0].(map[string]any)
		if tc.matcher != "" && m != tc.matcher || tc.matcher == "" && hasMatcher || fmt.Sprint(h) != fmt.Sprint(guard) {
			t.Errorf("%s: group %v, want matcher %q and %v", tc.event, g, tc.matcher, guard)
		}
	}
	if m := got["model"].(map[string]any); m["name"] != "qwen3-coder" {
		t.Errorf("the other settings were not kept: %s", changes[0].New)
	}
	if !strings.Contains(string(changes[0].New), `"lint.sh"`) {
		t.Errorf("the other hook was not kept: %s", changes[0].New)
	}
	if err := os.WriteFile(name, changes[0].New, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := Qwen{}.Install(dir, true, "/usr/local/bin/guard")
	if err != nil || len(again) != 1 || string(again[0].New) != string(changes[0].New) {
		t.Errorf("planned again: %v\n%s\nwant\n%s", err, again[0].New, changes[0].New)
	}
	user, err := Qwen{}.Install(filepath.Join(dir, "home"), false, "/usr/local/bin/guard")
	if err != nil || len(user) != 1 || user[0].Path != filepath.Join(dir, "home", ".qwen", "settings.json") {
		t.Errorf("user scope: %v, %+v", err, user)
	}
}
