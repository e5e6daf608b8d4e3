// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"guard/engine"
)

// TestGeminiDecodeGolden decodes what Gemini CLI 0.61.0 sent guard.
func TestGeminiDecodeGolden(t *testing.T) {
	const proj = "/tmp/e2e/proj"
	for _, tc := range []struct {
		file  string
		name  string
		call  engine.Call // Session is the file's
		input string      // tool_input as Raw holds it, as JSON
	}{
		{"beforetool-run_shell_command.json", "PreToolUse", engine.Call{Kind: engine.KindShell, Tool: "run_shell_command", Input: engine.Input{Command: "cat hello.txt"}, Cwd: proj}, `{"command":"cat hello.txt"}`},
		// dir_path is where the command runs.
		{"beforetool-run_shell_command-dir_path.json", "PreToolUse", engine.Call{Kind: engine.KindShell, Tool: "run_shell_command", Input: engine.Input{Command: "pwd"}, Cwd: proj + "/sub"}, `{"command":"pwd","dir_path":"sub"}`},
		// A relative path is the project's, as Gemini CLI resolves it.
		{"beforetool-read_file.json", "PreToolUse", engine.Call{Kind: engine.KindRead, Tool: "read_file", Input: engine.Input{Path: proj + "/hello.txt"}, Cwd: proj}, `{"file_path":"hello.txt"}`},
		{"beforetool-write_file.json", "PreToolUse", engine.Call{Kind: engine.KindWrite, Tool: "write_file", Input: engine.Input{Path: proj + "/new.txt"}, Cwd: proj}, `{"content":"n\n","file_path":"/tmp/e2e/proj/new.txt"}`},
		{"beforetool-replace.json", "PreToolUse", engine.Call{Kind: engine.KindEdit, Tool: "replace", Input: engine.Input{Path: proj + "/hello.txt"}, Cwd: proj}, `{"file_path":"/tmp/e2e/proj/hello.txt","instruction":"x","new_string":"ho","old_string":"hi"}`},
		{"beforetool-glob.json", "PreToolUse", engine.Call{Kind: engine.KindList, Tool: "glob", Input: engine.Input{Pattern: "**/*.go"}, Cwd: proj}, `{"pattern":"**/*.go"}`},
		{"beforetool-list_directory.json", "PreToolUse", engine.Call{Kind: engine.KindList, Tool: "list_directory", Input: engine.Input{Path: proj + "/sub"}, Cwd: proj}, `{"dir_path":"sub"}`},
		{"beforetool-grep_search.json", "PreToolUse", engine.Call{Kind: engine.KindSearch, Tool: "grep_search", Input: engine.Input{Path: proj + "/sub", Pattern: "package"}, Cwd: proj}, `{"dir_path":"sub","pattern":"package"}`},
		{"beforetool-web_fetch.json", "PreToolUse", engine.Call{Kind: engine.KindFetch, Tool: "web_fetch", Input: engine.Input{URL: "https://example.com/x"}, Cwd: proj}, `{"prompt":"summarize https://example.com/x"}`},
		{"beforetool-google_web_search.json", "PreToolUse", engine.Call{Kind: engine.KindFetch, Tool: "google_web_search", Cwd: proj}, `{"query":"x"}`},
		{"aftertool-run_shell_command.json", "PostToolUse", engine.Call{Kind: engine.KindShell, Tool: "run_shell_command", Input: engine.Input{Command: "cat hello.txt"}, Cwd: proj}, `{"command":"cat hello.txt"}`},
		{"sessionend.json", "SessionEnd", engine.Call{Cwd: proj}, `null`},
	} {
		data := readGolden(t, "gemini/"+tc.file)
		ev, err := Gemini{}.Decode(data)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		var raw struct {
			Session string `json:"session_id"`
		}
		json.Unmarshal(data, &raw)
		want := tc.call
		want.Session = raw.Session
		in, _ := json.Marshal(ev.Raw)
		if ev.Name != tc.name || ev.Session != raw.Session || !sameCall(ev.Call, want) || string(in) != tc.input {
			t.Errorf("%s: decoded %s %q %+v %s\nwant      %s %q %+v %s", tc.file, ev.Name, ev.Session, ev.Call, in, tc.name, raw.Session, want, tc.input)
		}
	}
}

// sameCall compares the fields of a call that an adapter fills in.
func sameCall(a, b engine.Call) bool {
	return a.Kind == b.Kind && a.Tool == b.Tool && a.Input == b.Input && a.Cwd == b.Cwd && a.Session == b.Session
}

// geminiInput is a BeforeTool input in /p for tool with input.
func geminiInput(tool, input string) string {
	return `{"session_id":"s","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-12-01T15:32:04.635Z","tool_name":"` + tool + `","tool_input":` + input + `}`
}

// geminiCases are BeforeTool inputs of tools and what guard judges of
// each: the kind, the input and the working directory.
var geminiCases = []struct {
	tool, input string
	kind        engine.Kind
	want        engine.Input
	cwd         string
}{
	{"run_shell_command", `{"command":"ls","description":"list","is_background":false}`, engine.KindShell, engine.Input{Command: "ls"}, "/p"},
	{"run_shell_command", `{"command":"ls","dir_path":"/tmp"}`, engine.KindShell, engine.Input{Command: "ls"}, "/tmp"},
	{"run_shell_command", `{"command":"ls","dir_path":"../q/./r"}`, engine.KindShell, engine.Input{Command: "ls"}, "/q/r"},
	{"run_shell_command", `{"command":"ls","directory":"sub"}`, engine.KindShell, engine.Input{Command: "ls"}, "/p/sub"}, // the field's old name
	{"run_shell_command", `{"command":"ls","dir_path":"sub","directory":"sub"}`, engine.KindShell, engine.Input{Command: "ls"}, "/p/sub"},
	{"run_shell_command", `{"dir_path":"sub"}`, engine.KindShell, engine.Input{}, "/p/sub"}, // no command: the engine denies
	// ~ is a name like any other to Gemini CLI's path.resolve.
	{"read_file", `{"file_path":"~/.ssh/id_rsa"}`, engine.KindRead, engine.Input{Path: "/p/~/.ssh/id_rsa"}, "/p"},
	{"read_file", `{"file_path":"/home/u/.ssh/id_rsa","start_line":1}`, engine.KindRead, engine.Input{Path: "/home/u/.ssh/id_rsa"}, "/p"},
	{"read_file", `{"absolute_path":"/etc/passwd"}`, engine.KindRead, engine.Input{Path: "/etc/passwd"}, "/p"}, // the field's old name
	{"read_file", `{"file_path":"a/../../etc/passwd"}`, engine.KindRead, engine.Input{Path: "/etc/passwd"}, "/p"},
	{"read_file", `{}`, engine.KindRead, engine.Input{}, "/p"}, // no path: the engine denies
	{"write_file", `{"file_path":"out.txt","content":"x"}`, engine.KindWrite, engine.Input{Path: "/p/out.txt"}, "/p"},
	{"write_file", `{"file_path":"/p/.gemini/settings.json","content":"{}"}`, engine.KindWrite, engine.Input{Path: "/p/.gemini/settings.json"}, "/p"},
	{"replace", `{"file_path":"/p/a.go","instruction":"i","old_string":"a","new_string":"b"}`, engine.KindEdit, engine.Input{Path: "/p/a.go"}, "/p"},
	{"glob", `{"pattern":"src/**/*.ts","dir_path":"/p/web","case_sensitive":false}`, engine.KindList, engine.Input{Path: "/p/web", Pattern: "src/**/*.ts"}, "/p"},
	{"glob", `{"pattern":"/home/u/.ssh/*"}`, engine.KindList, engine.Input{Pattern: "/home/u/.ssh/*"}, "/p"},
	{"glob", `{"pattern":"*.go","path":"cmd"}`, engine.KindList, engine.Input{Path: "/p/cmd", Pattern: "*.go"}, "/p"}, // the field's old name
	{"list_directory", `{"dir_path":"/etc","ignore":["*.bak"]}`, engine.KindList, engine.Input{Path: "/etc"}, "/p"},
	{"grep_search", `{"pattern":"TODO","dir_path":"src","include_pattern":"*.go"}`, engine.KindSearch, engine.Input{Path: "/p/src", Pattern: "TODO"}, "/p"},
	{"grep_search", `{"pattern":"TODO"}`, engine.KindSearch, engine.Input{Pattern: "TODO"}, "/p"},
	{"search_file_content", `{"pattern":"x","path":"/etc"}`, engine.KindSearch, engine.Input{Path: "/etc", Pattern: "x"}, "/p"},
	// web_fetch: the one URL of its prompt or its url field.
	{"web_fetch", `{"prompt":"Summarize https://go.dev/doc/ please"}`, engine.KindFetch, engine.Input{URL: "https://go.dev/doc/"}, "/p"},
	{"web_fetch", `{"prompt":"compare https://go.dev/ and https://go.dev/"}`, engine.KindFetch, engine.Input{URL: "https://go.dev/"}, "/p"},
	{"web_fetch", `{"url":"https://go.dev/x"}`, engine.KindFetch, engine.Input{URL: "https://go.dev/x"}, "/p"},
	{"web_fetch", `{"url":"https://go.dev/x","prompt":"read https://go.dev/x"}`, engine.KindFetch, engine.Input{URL: "https://go.dev/x"}, "/p"},
	{"web_fetch", `{"prompt":"no URL here"}`, engine.KindFetch, engine.Input{}, "/p"}, // the engine denies
	{"web_fetch", `{"prompt":"see ftp://x/y"}`, engine.KindFetch, engine.Input{URL: "ftp://x/y"}, "/p"},
	// A github.com blob is fetched from raw.githubusercontent.com.
	{"web_fetch", `{"prompt":"https://github.com/golang/go/blob/master/README.md"}`, engine.KindFetch, engine.Input{URL: "https://raw.githubusercontent.com/golang/go/master/README.md"}, "/p"},
	{"web_fetch", `{"prompt":"https://github.com/golang/go/tree/master"}`, engine.KindFetch, engine.Input{URL: "https://github.com/golang/go/tree/master"}, "/p"},
	{"google_web_search", `{"query":"guard"}`, engine.KindFetch, engine.Input{}, "/p"},
	// Tools guard does not judge by their input: the policy's tier of the
	// name decides.
	{"read_many_files", `{"include":["src/*.go"]}`, engine.KindTool, engine.Input{}, "/p"},
	{"mcp_github_get_issue", `{"issue":1,"path":"/x"}`, engine.KindTool, engine.Input{}, "/p"},
	{"write_todos", `{"todos":[]}`, engine.KindTool, engine.Input{}, "/p"},
	{"activate_skill", `{"name":"x"}`, engine.KindTool, engine.Input{}, "/p"},
	{"Bash", `{"command":"ls"}`, engine.KindTool, engine.Input{}, "/p"}, // not a Gemini CLI tool
}

func init() {
	seen := map[string]bool{}
	for _, tc := range geminiCases {
		if seen[tc.tool+tc.input] {
			panic(fmt.Sprintf("geminiCases: duplicate case %s %s", tc.tool, tc.input))
		}
		seen[tc.tool+tc.input] = true
	}
}

func TestGeminiDecode(t *testing.T) {
	for _, tc := range geminiCases {
		in := geminiInput(tc.tool, tc.input)
		ev, err := Gemini{}.Decode([]byte(in))
		if err != nil {
			t.Errorf("%s %s: %v", tc.tool, tc.input, err)
			continue
		}
		want := engine.Call{Kind: tc.kind, Tool: tc.tool, Input: tc.want, Cwd: tc.cwd, Session: "s"}
		if ev.Name != "PreToolUse" || !sameCall(ev.Call, want) || ev.Raw == nil {
			t.Errorf("%s %s:\ndecoded %s %+v\nwant    PreToolUse %+v", tc.tool, tc.input, ev.Name, ev.Call, want)
		}
	}
}

// TestGeminiDecodeDenied: inputs guard cannot judge as Gemini CLI reads
// them, and malformed ones, are denied with these reasons.
func TestGeminiDecodeDenied(t *testing.T) {
	for _, tc := range []struct{ in, why string }{
		// Malformed, as for Claude Code.
		{``, "the hook input is empty; guard hook reads the agent's hook event as JSON on stdin"},
		{`[]`, "the hook input is not a JSON object: json: cannot unmarshal array into Go value of type map[string]interface {}"},
		{`null`, "the hook input is not a JSON object"},
		{`{"hook_event_name":"BeforeTool"`, "the hook input is not a JSON object: unexpected EOF"},
		{geminiInput("read_file", `{}`) + ` {}`, "the hook input has data after its JSON object"},
		{`{}`, `the hook input has no "hook_event_name" field`},
		{`{"hook_event_name":5}`, `the hook input's "hook_event_name" field is not a string`},
		{`{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/p","tool_input":{}}`, `guard hook decides Gemini CLI's tool calls; it does not take its "PreToolUse" event`},
		{`{"hook_event_name":"BeforeModel","llm_request":{}}`, `guard hook decides Gemini CLI's tool calls; it does not take its "BeforeModel" event`},
		{`{"hook_event_name":"BeforeTool","session_id":7,"tool_name":"glob","cwd":"/p","tool_input":{}}`, `the hook input's "session_id" field is not a string`},
		{`{"hook_event_name":"BeforeTool","cwd":"/p","tool_input":{}}`, `the hook input has no "tool_name" field`},
		{`{"hook_event_name":"BeforeTool","tool_name":"","cwd":"/p","tool_input":{}}`, "the hook input's tool_name is empty"},
		{`{"hook_event_name":"BeforeTool","tool_name":5,"cwd":"/p","tool_input":{}}`, `the hook input's "tool_name" field is not a string`},
		{`{"hook_event_name":"BeforeTool","tool_name":"glob","tool_input":{}}`, `the hook input has no "cwd" field`},
		{`{"hook_event_name":"BeforeTool","tool_name":"glob","cwd":"p","tool_input":{}}`, `the hook input's cwd "p" is not an absolute path`},
		{`{"hook_event_name":"BeforeTool","tool_name":"glob","cwd":"/p"}`, `the hook input has no "tool_input" field`},
		{`{"hook_event_name":"BeforeTool","tool_name":"glob","cwd":"/p","tool_input":"ls"}`, "the hook input's tool_input is not a JSON object"},
		{`{"hook_event_name":"SessionEnd","cwd":5}`, `the hook input's "cwd" field is not a string`},
		// Fields guard judges that are not non-empty strings.
		{geminiInput("run_shell_command", `{"command":["ls"]}`), `the run_shell_command call's "command" field is not a string guard can judge`},
		{geminiInput("run_shell_command", `{"command":"ls","dir_path":""}`), `the run_shell_command call's "dir_path" field is not a string guard can judge`},
		{geminiInput("read_file", `{"file_path":null}`), `the read_file call's "file_path" field is not a string guard can judge`},
		{geminiInput("glob", `{"pattern":7}`), `the glob call's "pattern" field is not a string guard can judge`},
		{geminiInput("web_fetch", `{"prompt":{}}`), `the web_fetch call's "prompt" field is not a string guard can judge`},
		// Two paths: which one the tool uses is not guard's guess.
		{geminiInput("read_file", `{"file_path":"/p/a","path":"/home/u/.ssh/id_rsa"}`), `the read_file call names two paths, "/p/a" in file_path and "/home/u/.ssh/id_rsa" in path; guard cannot tell which it uses`},
		{geminiInput("grep_search", `{"pattern":"x","dir_path":"src","path":"/etc"}`), `the grep_search call names two paths, "src" in dir_path and "/etc" in path; guard cannot tell which it uses`},
		{geminiInput("run_shell_command", `{"command":"ls","dir_path":"a","directory":"b"}`), `the run_shell_command call names two paths, "a" in dir_path and "b" in directory; guard cannot tell which it uses`},
		// Paths Gemini CLI reads otherwise than they are written.
		{geminiInput("write_file", `{"file_path":".gemini%2Fsettings.json","content":"{}"}`), `the write_file call's file_path ".gemini%2Fsettings.json" holds %, and Gemini CLI percent-decodes a path before it opens it`},
		{geminiInput("read_file", `{"file_path":"x/%2e%2e/%2e%2e/etc/passwd"}`), `the read_file call's file_path "x/%2e%2e/%2e%2e/etc/passwd" holds %, and Gemini CLI percent-decodes a path before it opens it`},
		{geminiInput("write_file", `{"file_path":"@.gemini/settings.json","content":"{}"}`), `the write_file call's file_path "@.gemini/settings.json" starts with @, which Gemini CLI drops when no file has that name`},
		{geminiInput("read_file", `{"file_path":"/p/a\u0000b"}`), `the read_file call's file_path holds a NUL byte, which Gemini CLI drops`},
		{geminiInput("replace", `{"file_path":"settings.json","instruction":"i","old_string":"a","new_string":"b"}`), `replace names the relative path "settings.json", which Gemini CLI looks up by its base name anywhere in the workspace when it is not there`},
		// web_fetch: one URL per call, and one guard reads as Gemini CLI does.
		{geminiInput("web_fetch", `{"prompt":"https://a.example/ and https://b.example/"}`), "web_fetch: the call names 2 URLs; guard judges one URL per call"},
		{geminiInput("web_fetch", `{"url":"https://a.example/","prompt":"https://b.example/"}`), "web_fetch: the call names 2 URLs; guard judges one URL per call"},
		{geminiInput("web_fetch", `{"prompt":"https://good.example/\u00a0https://evil.example/"}`), `web_fetch: the prompt names the URL "https://good.example/\u00a0https://evil.example/", which guard cannot read as Gemini CLI does`},
		{geminiInput("web_fetch", `{"prompt":"https://good.example\\@evil.example/"}`), `web_fetch: the prompt names the URL "https://good.example\\@evil.example/", which guard cannot read as Gemini CLI does`},
	} {
		ev, err := Gemini{}.Decode([]byte(tc.in))
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

// TestGeminiAnswer: the exact answer for each verdict.
func TestGeminiAnswer(t *testing.T) {
	shell := &Event{Name: "PreToolUse", Call: engine.Call{Kind: engine.KindShell, Tool: "run_shell_command"},
		Raw: map[string]any{"command": "go test ./...", "dir_path": "sub", "is_background": false, "timeout": json.Number("60")}}
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
	write := &Event{Name: "PreToolUse", Call: engine.Call{Kind: engine.KindWrite, Tool: "write_file"}, Raw: map[string]any{"file_path": "/p/x"}}
	for _, tc := range []struct {
		name string
		ev   *Event
		d    *engine.Decision
		want string
	}{
		{"allow", shell, allow, `exit 0: {"decision":"allow"}` + "\n"},
		{"ask", shell, asks, `exit 0: {"decision":"ask","reason":"guard (p): needs approval: go test \u003cruns\u003e \"the project's\" code (rule go)","systemMessage":"guard (p): needs approval: go test \u003cruns\u003e \"the project's\" code (rule go)"}` + "\n"},
		{"deny", shell, denies, "exit 2: go test -exec runs a program (p)"},
		// A rewrite sends the whole input, the command replaced.
		{"rewrite allow", shell, rewrite(allow), `exit 0: {"decision":"allow","hookSpecificOutput":{"tool_input":{"command":"'/usr/local/bin/guard' 'run' -- bash --noprofile --norc -c 'go test ./...'","dir_path":"sub","is_background":false,"timeout":60}}}` + "\n"},
		{"rewrite ask", shell, rewrite(asks), `exit 0: {"decision":"ask","reason":"guard (p): needs approval: go test \u003cruns\u003e \"the project's\" code (rule go)","systemMessage":"guard (p): needs approval: go test \u003cruns\u003e \"the project's\" code (rule go)","hookSpecificOutput":{"tool_input":{"command":"'/usr/local/bin/guard' 'run' -- bash --noprofile --norc -c 'go test ./...'","dir_path":"sub","is_background":false,"timeout":60}}}` + "\n"},
		{"rewrite deny", shell, rewrite(denies), "exit 2: go test -exec runs a program (p)"},
		// guard cannot rewrite a write_file: it denies rather than run the
		// original.
		{"rewrite write_file", write, rewrite(allow), "exit 2: guard cannot rewrite the input of tool write_file"},
		{"rewrite to a path", shell, &engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{leaf}, Rewrite: &engine.Input{Command: "x", Path: "/p"}}, "exit 2: guard cannot rewrite the input of tool run_shell_command"},
		{"write_file allow", write, allow, `exit 0: {"decision":"allow"}` + "\n"},
		// AfterTool and SessionEnd get no answer, whatever the verdict.
		{"AfterTool", &Event{Name: "PostToolUse", Call: shell.Call, Raw: shell.Raw}, denies, "exit 0: "},
		{"SessionEnd", &Event{Name: "SessionEnd"}, allow, "exit 0: "},
	} {
		if got := answerString(Gemini{}.Answer(tc.ev, tc.d, "p")); got != tc.want {
			t.Errorf("%s: answer\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
	if a := (Gemini{}).Answer(shell, denies, "p"); len(a.Deny.Hints) != 1 || a.Deny.Hints[0] != no.Hint {
		t.Errorf("deny: hints %q, want %q", a.Deny.Hints, no.Hint)
	}
	if shell.Raw["command"] != "go test ./..." {
		t.Errorf("the rewrite changed the event's input: %v", shell.Raw)
	}
}

// TestGeminiAnswerShape checks the answer written without reflection
// against encoding/json's rendering of the same answer.
func TestGeminiAnswerShape(t *testing.T) {
	ev := &Event{Name: "PreToolUse", Call: engine.Call{Kind: engine.KindShell, Tool: "run_shell_command"}}
	for _, tc := range []struct {
		verdict engine.Verdict
		why     string
	}{
		{engine.Allow, "ls is allowed"},
		{engine.Ask, `cat "a\b" <x> & y` + "\n\t\x01 \u2028 \xff"},
	} {
		d := &engine.Decision{Verdict: tc.verdict, Leaves: []engine.Leaf{{Verdict: tc.verdict, Kind: "command", Text: "x", Why: tc.why}}}
		got := Gemini{}.Answer(ev, d, "policy default")
		out := struct {
			Decision      string `json:"decision"`
			Reason        string `json:"reason,omitempty"`
			SystemMessage string `json:"systemMessage,omitempty"`
		}{Decision: map[engine.Verdict]string{engine.Allow: "allow", engine.Ask: "ask"}[tc.verdict]}
		if tc.verdict == engine.Ask {
			out.Reason = Reason(d, "policy default")
			out.SystemMessage = out.Reason
		}
		want, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if string(got.Stdout) != string(want)+"\n" {
			t.Errorf("%s: answer\n%s\nwant\n%s", tc.verdict, got.Stdout, want)
		}
	}
}

// TestGeminiDefaultPolicy decides the golden inputs with the default
// policy, as guard hook would, and checks the exact answer.
func TestGeminiDefaultPolicy(t *testing.T) {
	for _, tc := range []struct {
		file    string
		sandbox bool
		want    string
	}{
		{"beforetool-run_shell_command.json", false, `exit 0: {"decision":"allow"}` + "\n"},
		{"beforetool-run_shell_command-dir_path.json", false, `exit 0: {"decision":"allow"}` + "\n"},
		{"beforetool-read_file.json", false, `exit 0: {"decision":"allow"}` + "\n"},
		{"beforetool-glob.json", false, `exit 0: {"decision":"allow"}` + "\n"},
		{"beforetool-list_directory.json", false, `exit 0: {"decision":"allow"}` + "\n"},
		{"beforetool-grep_search.json", false, `exit 0: {"decision":"allow"}` + "\n"},
		{"beforetool-write_file.json", false, `exit 0: {"decision":"ask","reason":"guard (policy default): needs approval: write_file: writing /tmp/e2e/proj/new.txt: needs approval once in this session; once approved, the session is granted dir /tmp/e2e/proj (rule paths.write)","systemMessage":"guard (policy default): needs approval: write_file: writing /tmp/e2e/proj/new.txt: needs approval once in this session; once approved, the session is granted dir /tmp/e2e/proj (rule paths.write)"}` + "\n"},
		{"beforetool-replace.json", false, `exit 0: {"decision":"ask","reason":"guard (policy default): needs approval: replace: writing /tmp/e2e/proj/hello.txt: needs approval once in this session; once approved, the session is granted dir /tmp/e2e/proj (rule paths.write)","systemMessage":"guard (policy default): needs approval: replace: writing /tmp/e2e/proj/hello.txt: needs approval once in this session; once approved, the session is granted dir /tmp/e2e/proj (rule paths.write)"}` + "\n"},
		{"beforetool-web_fetch.json", false, "exit 2: web_fetch: no [fetch] pattern allows https://example.com/x (rule fetch.unlisted, policy default)"},
		{"beforetool-google_web_search.json", false, `exit 2: google_web_search: "" is not an http or https URL guard can judge (rule fetch, policy default)`},
		{"aftertool-run_shell_command.json", false, "exit 0: "},
		{"sessionend.json", false, "exit 0: "},
	} {
		_, a := decideDefault(t, Gemini{}, readGolden(t, "gemini/"+tc.file), tc.sandbox)
		if got := answerString(a); got != tc.want {
			t.Errorf("%s: answer\n%s\nwant\n%s", tc.file, got, tc.want)
		}
	}
	for _, tc := range []struct{ tool, input, want string }{
		// The default policy allows npm test only in the sandbox: guard
		// rewrites it to run under guard run, the rest of the input kept.
		{"run_shell_command", `{"command":"npm test","description":"run the tests"}`, `exit 0: {"decision":"allow","hookSpecificOutput":{"tool_input":{"command":"'/usr/local/bin/guard' 'run' '--profile' 'test' -- bash --noprofile --norc -c 'npm test'","description":"run the tests"}}}` + "\n"},
		{"run_shell_command", `{"command":"git push --force origin main"}`, "exit 2: git push --force: it rewrites or deletes history others share (rule git push -f, policy default)"},
		{"write_file", `{"file_path":"/p/.gemini/settings.json","content":"{}"}`, "exit 2: write_file: /p/.gemini/settings.json is protected: it configures a coding agent ({project}/.gemini/**), and no tool may change it (rule paths.protected {project}/.gemini/**, policy default)"},
		{"write_file", `{"file_path":"/p/.codex/hooks.json","content":"{}"}`, "exit 2: write_file: /p/.codex/hooks.json is protected: it configures a coding agent ({project}/.codex/**), and no tool may change it (rule paths.protected {project}/.codex/**, policy default)"},
		{"read_file", `{"file_path":"/tmp/e2e/home/.ssh/id_rsa"}`, "exit 2: read_file: /tmp/e2e/home/.ssh/id_rsa is a secret file (~/.ssh/**; OpenSSH: private keys and the per-user client configuration): guard does not let it be read or written (rule paths.secret ~/.ssh/**, policy default)"},
		{"mcp_github_get_issue", `{"issue":1}`, `exit 0: {"decision":"ask","reason":"guard (policy default): needs approval: tool mcp_github_get_issue is not in the policy's [tools] table; it needs approval","systemMessage":"guard (policy default): needs approval: tool mcp_github_get_issue is not in the policy's [tools] table; it needs approval"}` + "\n"},
	} {
		_, a := decideDefault(t, Gemini{}, []byte(geminiInput(tc.tool, tc.input)), true)
		if got := answerString(a); got != tc.want {
			t.Errorf("%s %s: answer\n%s\nwant\n%s", tc.tool, tc.input, got, tc.want)
		}
	}
}

// TestGeminiConfigPaths: the paths are every agent's, and the policy
// protects them.
func TestGeminiConfigPaths(t *testing.T) {
	all := strings.Join(ConfigPaths(), " ")
	for _, p := range (Gemini{}).ConfigPaths() {
		if !strings.Contains(all, p) {
			t.Errorf("ConfigPaths() lacks Gemini CLI's %s", p)
		}
	}
	for _, p := range []string{"{project}/.gemini/**", "~/.gemini/**"} {
		if !strings.Contains(" "+strings.Join(Gemini{}.ConfigPaths(), " ")+" ", " "+p+" ") {
			t.Errorf("Gemini CLI's ConfigPaths lack %s", p)
		}
	}
}
