// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"guard/engine"
)

// The golden inputs under testdata/opencode are what guard's plugin sent
// guard hook from OpenCode 1.18.33 in the e2e runs (the model's calls of
// each tool OpenCode offered it), with the test's temporary directory
// renamed /tmp/e2e.

// TestOpenCodeDecodeGolden decodes what the plugin sent from OpenCode.
func TestOpenCodeDecodeGolden(t *testing.T) {
	const proj = "/tmp/e2e/proj"
	for _, tc := range []struct {
		file string
		call engine.Call // Session is the file's
	}{
		{"bash.json", engine.Call{Kind: engine.KindShell, Tool: "bash", Input: engine.Input{Command: "cat hello.txt"}, Cwd: proj}},
		// workdir is where the command runs, the directory's where relative.
		{"bash-workdir.json", engine.Call{Kind: engine.KindShell, Tool: "bash", Input: engine.Input{Command: "pwd"}, Cwd: proj + "/sub"}},
		{"read.json", engine.Call{Kind: engine.KindRead, Tool: "read", Input: engine.Input{Path: proj + "/hello.txt"}, Cwd: proj}},
		{"write.json", engine.Call{Kind: engine.KindWrite, Tool: "write", Input: engine.Input{Path: proj + "/new.txt"}, Cwd: proj}},
		{"edit.json", engine.Call{Kind: engine.KindEdit, Tool: "edit", Input: engine.Input{Path: proj + "/hello.txt"}, Cwd: proj}},
		{"glob.json", engine.Call{Kind: engine.KindList, Tool: "glob", Input: engine.Input{Path: proj + "/sub", Pattern: "**/*.txt"}, Cwd: proj}},
		{"grep.json", engine.Call{Kind: engine.KindSearch, Tool: "grep", Input: engine.Input{Path: proj + "/sub", Pattern: "a"}, Cwd: proj}},
		{"webfetch.json", engine.Call{Kind: engine.KindFetch, Tool: "webfetch", Input: engine.Input{URL: "https://example.com/x"}, Cwd: proj}},
		// The rest are tools the policy's tier of their name decides.
		{"todowrite.json", engine.Call{Kind: engine.KindTool, Tool: "todowrite", Cwd: proj}},
		{"task.json", engine.Call{Kind: engine.KindTool, Tool: "task", Cwd: proj}},
		{"skill.json", engine.Call{Kind: engine.KindTool, Tool: "skill", Cwd: proj}},
	} {
		data := readGolden(t, "opencode/"+tc.file)
		ev, err := OpenCode{}.Decode(data)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		var raw struct {
			Session string         `json:"sessionID"`
			CallID  string         `json:"callID"`
			Args    map[string]any `json:"args"`
		}
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		want := tc.call
		want.Session = raw.Session
		if ev.Name != "PreToolUse" || !sameCall(ev.Call, want) || ev.CallID != raw.CallID || fmt.Sprint(ev.Raw) != fmt.Sprint(raw.Args) {
			t.Errorf("%s: decoded %s %+v %q %v\nwant       PreToolUse %+v %q %v", tc.file, ev.Name, ev.Call, ev.CallID, ev.Raw, want, raw.CallID, raw.Args)
		}
	}
}

// openCodeEvent is the plugin's event for tool with args, in /p.
func openCodeEvent(tool, args string) string {
	return `{"guard_opencode":1,"hook":"tool.execute.before","tool":"` + tool + `","sessionID":"s","callID":"c","directory":"/p","worktree":"/","args":` + args + `}`
}

// TestOpenCodeDecode: what guard judges of each tool's arguments.
func TestOpenCodeDecode(t *testing.T) {
	for _, tc := range []struct {
		tool, args string
		kind       engine.Kind
		want       engine.Input
		cwd        string
	}{
		{"bash", `{"command":"ls","description":"d","timeout":1000}`, engine.KindShell, engine.Input{Command: "ls"}, "/p"},
		{"bash", `{"command":"ls","workdir":"/tmp"}`, engine.KindShell, engine.Input{Command: "ls"}, "/tmp"},
		{"bash", `{"command":"ls","workdir":"../q/./r"}`, engine.KindShell, engine.Input{Command: "ls"}, "/q/r"},
		{"bash", `{"description":"d"}`, engine.KindShell, engine.Input{}, "/p"}, // no command: the engine denies
		// ~ is a name like any other: OpenCode joins it to the directory.
		{"read", `{"filePath":"~/.ssh/id_rsa"}`, engine.KindRead, engine.Input{Path: "/p/~/.ssh/id_rsa"}, "/p"},
		{"read", `{"filePath":"a/../../etc/passwd","offset":1,"limit":5}`, engine.KindRead, engine.Input{Path: "/etc/passwd"}, "/p"},
		{"read", `{}`, engine.KindRead, engine.Input{}, "/p"}, // no path: the engine denies
		{"write", `{"filePath":"/p/opencode.json","content":"{}"}`, engine.KindWrite, engine.Input{Path: "/p/opencode.json"}, "/p"},
		{"edit", `{"filePath":"a.go","oldString":"a","newString":"b","replaceAll":true}`, engine.KindEdit, engine.Input{Path: "/p/a.go"}, "/p"},
		{"glob", `{"pattern":"**/*.go"}`, engine.KindList, engine.Input{Pattern: "**/*.go"}, "/p"},
		{"grep", `{"pattern":"TODO","path":"/home/u"}`, engine.KindSearch, engine.Input{Path: "/home/u", Pattern: "TODO"}, "/p"},
		{"list", `{"path":"/etc","ignore":["*.bak"]}`, engine.KindList, engine.Input{Path: "/etc"}, "/p"},
		{"webfetch", `{"url":"http://example.com/","format":"text"}`, engine.KindFetch, engine.Input{URL: "http://example.com/"}, "/p"},
		{"websearch", `{"query":"guard"}`, engine.KindFetch, engine.Input{}, "/p"}, // no URL: the engine denies
		// apply_patch (OpenCode offers it to GPT models for edit and
		// write) writes the one file its patch names.
		{"apply_patch", `{"patchText":"*** Begin Patch\n*** Add File: sub/new.txt\n+x\n*** End Patch"}`, engine.KindWrite, engine.Input{Path: "/p/sub/new.txt"}, "/p"},
		// Tools guard judges by their name.
		{"todowrite", `{"todos":[]}`, engine.KindTool, engine.Input{}, "/p"},
		{"github_get_issue", `{"path":"/x"}`, engine.KindTool, engine.Input{}, "/p"},
		{"Bash", `{"command":"ls"}`, engine.KindTool, engine.Input{}, "/p"}, // not an OpenCode tool
	} {
		ev, err := OpenCode{}.Decode([]byte(openCodeEvent(tc.tool, tc.args)))
		if err != nil {
			t.Errorf("%s %s: %v", tc.tool, tc.args, err)
			continue
		}
		want := engine.Call{Kind: tc.kind, Tool: tc.tool, Input: tc.want, Cwd: tc.cwd, Session: "s"}
		if ev.Name != "PreToolUse" || !sameCall(ev.Call, want) || ev.CallID != "c" || ev.Raw == nil {
			t.Errorf("%s %s:\ndecoded %s %+v\nwant    PreToolUse %+v", tc.tool, tc.args, ev.Name, ev.Call, want)
		}
	}
}

// TestOpenCodeDecodeDenied: events guard cannot judge are denied with
// these reasons.
func TestOpenCodeDecodeDenied(t *testing.T) {
	const notV1 = "the hook input is not version 1 of guard's OpenCode plugin protocol (guard_opencode)"
	for _, tc := range []struct{ in, why string }{
		{``, "the hook input is empty; guard hook reads the agent's hook event as JSON on stdin"},
		{`[]`, "the hook input is not a JSON object: json: cannot unmarshal array into Go value of type map[string]interface {}"},
		{openCodeEvent("read", `{}`) + ` {}`, "the hook input has data after its JSON object"},
		// Another agent's input, or another version of the plugin's.
		{`{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/p","tool_input":{}}`, notV1},
		{strings.Replace(openCodeEvent("read", `{}`), `"guard_opencode":1`, `"guard_opencode":2`, 1), notV1},
		{strings.Replace(openCodeEvent("read", `{}`), `"guard_opencode":1`, `"guard_opencode":"1"`, 1), notV1},
		{strings.Replace(openCodeEvent("read", `{}`), `"hook":"tool.execute.before"`, `"hook":"tool.execute.after"`, 1), `guard hook decides OpenCode's tool calls; it does not take its "tool.execute.after" hook`},
		{strings.Replace(openCodeEvent("read", `{}`), `"hook":"tool.execute.before",`, ``, 1), `the hook input has no "hook" field`},
		{strings.Replace(openCodeEvent("read", `{}`), `"tool":"read",`, ``, 1), `the hook input has no "tool" field`},
		{openCodeEvent("", `{}`), "the hook input's tool is empty"},
		{strings.Replace(openCodeEvent("read", `{}`), `"sessionID":"s"`, `"sessionID":5`, 1), `the hook input's "sessionID" field is not a string`},
		{strings.Replace(openCodeEvent("read", `{}`), `"directory":"/p"`, `"directory":"p"`, 1), `the hook input's directory "p" is not an absolute path`},
		{strings.Replace(openCodeEvent("read", `{}`), `"directory":"/p",`, ``, 1), `the hook input has no "directory" field`},
		{openCodeEvent("read", `null`), "the hook input's args is not a JSON object"},
		{strings.Replace(openCodeEvent("read", `{}`), `,"args":{}`, ``, 1), "the hook input's args is not a JSON object"},
		{openCodeEvent("bash", `{"command":"ls","__proto__":{"workdir":"/etc"}}`), "the hook input's args have a __proto__ key"},
		// Fields guard judges that are not non-empty strings.
		{openCodeEvent("bash", `{"command":["ls"]}`), `the bash call's "command" field is not a string guard can judge`},
		{openCodeEvent("bash", `{"command":"ls","workdir":""}`), `the bash call's "workdir" field is not a string guard can judge`},
		{openCodeEvent("read", `{"filePath":null}`), `the read call's "filePath" field is not a string guard can judge`},
		{openCodeEvent("read", `{"filePath":"/p/a\u0000b"}`), "the read call's filePath holds a NUL byte"},
		{openCodeEvent("webfetch", `{"url":7}`), `the webfetch call's "url" field is not a string guard can judge`},
		// apply_patch: one file per call.
		{openCodeEvent("apply_patch", `{}`), "the apply_patch call has no patchText"},
		{openCodeEvent("apply_patch", `{"patchText":"*** Begin Patch\n*** Update File: a\n*** Update File: b\n*** End Patch"}`), "apply_patch: the patch names 2 files (/p/a, /p/b); guard judges one file per call"},
	} {
		ev, err := OpenCode{}.Decode([]byte(tc.in))
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

// TestOpenCodeAnswer: the exact answer for each verdict.
func TestOpenCodeAnswer(t *testing.T) {
	shell := &Event{Name: "PreToolUse", Call: engine.Call{Kind: engine.KindShell, Tool: "bash"},
		Raw: map[string]any{"command": "go test ./...", "description": "test", "timeout": json.Number("60000")}}
	leaf := engine.Leaf{Verdict: engine.Allow, Kind: "command", Text: "go test ./...", Why: "go test is allowed"}
	ask := leaf
	ask.Verdict, ask.Rule, ask.Why, ask.Hint = engine.Ask, "go", "go test runs the project's code", "run it yourself"
	no := leaf
	no.Verdict, no.Why, no.Hint = engine.Deny, "go test -exec runs a program", "use go test without -exec"
	allow := &engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{leaf}}
	asks := &engine.Decision{Verdict: engine.Ask, Leaves: []engine.Leaf{ask}}
	denies := &engine.Decision{Verdict: engine.Deny, Leaves: []engine.Leaf{no}}
	rewrite := func(d *engine.Decision) *engine.Decision {
		d2 := *d
		d2.Rewrite = &engine.Input{Command: "'/usr/local/bin/guard' 'run' -- bash --noprofile --norc -c 'go test ./... && echo <ok>'"}
		return &d2
	}
	write := &Event{Name: "PreToolUse", Call: engine.Call{Kind: engine.KindWrite, Tool: "write"}, Raw: map[string]any{"filePath": "/p/x"}}
	askWhy := "exit 2: OpenCode's plugin cannot ask the user, so guard refuses what it would ask: guard (p): needs approval: go test runs the project's code (rule go)"
	for _, tc := range []struct {
		name string
		ev   *Event
		d    *engine.Decision
		want string
	}{
		{"allow", shell, allow, `exit 0: {"guard_opencode":1,"decision":"allow"}` + "\n"},
		{"ask", shell, asks, askWhy},
		{"deny", shell, denies, "exit 2: go test -exec runs a program (p)"},
		// A rewrite sends the whole arguments, the command replaced.
		{"rewrite allow", shell, rewrite(allow), `exit 0: {"guard_opencode":1,"decision":"allow","args":{"command":"'/usr/local/bin/guard' 'run' -- bash --noprofile --norc -c 'go test ./... \u0026\u0026 echo \u003cok\u003e'","description":"test","timeout":60000}}` + "\n"},
		{"rewrite ask", shell, rewrite(asks), askWhy},
		{"rewrite deny", shell, rewrite(denies), "exit 2: go test -exec runs a program (p)"},
		// guard cannot rewrite a write: it denies rather than run the
		// original.
		{"rewrite write", write, rewrite(allow), "exit 2: guard cannot rewrite the input of tool write"},
		{"rewrite to a path", shell, &engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{leaf}, Rewrite: &engine.Input{Command: "x", Path: "/p"}}, "exit 2: guard cannot rewrite the input of tool bash"},
		{"write allow", write, allow, `exit 0: {"guard_opencode":1,"decision":"allow"}` + "\n"},
	} {
		if got := answerString(OpenCode{}.Answer(tc.ev, tc.d, "p")); got != tc.want {
			t.Errorf("%s: answer\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
	if a := (OpenCode{}).Answer(shell, asks, "p"); len(a.Deny.Hints) != 2 || a.Deny.Hints[0] != ask.Hint {
		t.Errorf("ask: hints %q, want guard's hint, then to ask the user", a.Deny.Hints)
	}
	if shell.Raw["command"] != "go test ./..." {
		t.Errorf("the rewrite changed the event's input: %v", shell.Raw)
	}
}

// TestOpenCodeDefaultPolicy decides golden inputs with the default
// policy, as guard hook would, and checks the exact answer.
func TestOpenCodeDefaultPolicy(t *testing.T) {
	asked := "exit 2: OpenCode's plugin cannot ask the user, so guard refuses what it would ask: guard (policy default): needs approval: "
	for _, tc := range []struct {
		file    string
		sandbox bool
		want    string
	}{
		{"bash.json", false, `exit 0: {"guard_opencode":1,"decision":"allow"}` + "\n"},
		{"bash.json", true, `exit 0: {"guard_opencode":1,"decision":"allow","args":{"command":"'/usr/local/bin/guard' 'run' '--read-only' -- bash --noprofile --norc -c 'cat hello.txt'","description":"run it"}}` + "\n"},
		{"read.json", false, `exit 0: {"guard_opencode":1,"decision":"allow"}` + "\n"},
		{"glob.json", false, `exit 0: {"guard_opencode":1,"decision":"allow"}` + "\n"},
		{"write.json", false, asked + "write: writing /tmp/e2e/proj/new.txt: needs approval once in this session; once approved, the session is granted dir /tmp/e2e/proj (rule paths.write)"},
		{"webfetch.json", false, "exit 2: webfetch: no [fetch] pattern allows https://example.com/x (rule fetch.unlisted, policy default)"},
		{"todowrite.json", false, `exit 0: {"guard_opencode":1,"decision":"allow"}` + "\n"},
		{"task.json", false, asked + "tool task is not in the policy's [tools] table; it needs approval"},
	} {
		_, a := decideDefault(t, OpenCode{}, readGolden(t, "opencode/"+tc.file), tc.sandbox)
		if got := answerString(a); got != tc.want {
			t.Errorf("%s (sandbox %v): answer\n%s\nwant\n%s", tc.file, tc.sandbox, got, tc.want)
		}
	}
	// The plugin's own files, and OpenCode's settings, are protected.
	for _, path := range []string{"/tmp/e2e/proj/.opencode/plugins/guard.js", "/tmp/e2e/proj/opencode.json", "/tmp/e2e/home/.opencode/plugins/x.js", "/tmp/e2e/home/.config/opencode/opencode.json"} {
		in := openCodeEvent("write", `{"filePath":"`+path+`","content":"x"}`)
		in = strings.Replace(in, `"directory":"/p"`, `"directory":"/tmp/e2e/proj"`, 1)
		_, a := decideDefault(t, OpenCode{}, []byte(in), false)
		if a.Deny == nil || !strings.Contains(a.Deny.Why, "is protected: it configures a coding agent") {
			t.Errorf("write of %s: %s, want a deny as the configuration of a coding agent", path, answerString(a))
		}
	}
}

// TestOpenCodeInstall: guard init writes guard's plugin, the same file
// again; a file of that name that is not guard's stops it.
func TestOpenCodeInstall(t *testing.T) {
	dir := t.TempDir()
	for _, project := range []bool{true, false} {
		changes, err := OpenCode{}.Install(dir, project, "/opt/guard's/bin/guard")
		if err != nil || len(changes) != 1 {
			t.Fatalf("Install: %v, %d changes", err, len(changes))
		}
		c := changes[0]
		if want := filepath.Join(dir, ".opencode", "plugins", "guard.js"); c.Path != want || c.Old != nil {
			t.Errorf("Install planned %s (old %q), want a new %s", c.Path, c.Old, want)
		}
		src := string(c.New)
		for _, want := range []string{openCodePluginHeader, "\n" + `const command = ["/opt/guard's/bin/guard","hook","--agent","opencode"];` + "\n", "\nconst timeout = 30000;\n", `"tool.execute.before"`} {
			if !strings.Contains(src, want) {
				t.Errorf("the plugin has no %q:\n%s", want, src)
			}
		}
		if strings.Contains(src, "/*") {
			t.Errorf("the plugin has a placeholder left:\n%s", src)
		}
	}
	changes, _ := OpenCode{}.Install(dir, true, "/usr/bin/guard")
	name := changes[0].Path
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, changes[0].New, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := OpenCode{}.Install(dir, true, "/usr/bin/guard")
	if err != nil || string(again[0].Old) != string(again[0].New) {
		t.Errorf("Install again: %v; a change from %q", err, again[0].Old)
	}
	other, err := OpenCode{}.Install(dir, true, "/usr/local/bin/guard")
	if err != nil || string(other[0].Old) != string(changes[0].New) || string(other[0].New) == string(changes[0].New) {
		t.Errorf("Install for another guard: %v; it must replace guard's own plugin", err)
	}
	if err := os.WriteFile(name, []byte("export const Mine = async () => ({})\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := (OpenCode{}).Install(dir, true, "/usr/bin/guard"); err == nil || !strings.Contains(err.Error(), "is not guard's plugin; move it aside") {
		t.Errorf("Install over another plugin: %v, want it refused", err)
	}
}

// TestOpenCodeDoctorFind: guard doctor finds guard's plugin in each place
// OpenCode loads it from, with its command, and tells the plugin this
// guard writes from one that is stale or edited.
func TestOpenCodeDoctorFind(t *testing.T) {
	home, proj, xdg := t.TempDir(), t.TempDir(), t.TempDir()
	env := func(k string) string { return map[string]string{"HOME": home, "XDG_CONFIG_HOME": xdg}[k] }
	spec := OpenCode{}.Doctor(env, proj)
	if found, checks := spec.Find(); len(found) != 0 || len(checks) != 0 {
		t.Fatalf("nothing installed: found %v, %v", found, checks)
	}
	put := func(name, src string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plugin, _ := openCodePlugin("/usr/bin/guard")
	put(filepath.Join(proj, ".opencode", "plugins", "guard.js"), string(plugin))
	put(filepath.Join(home, ".opencode", "plugin", "guard.js"), strings.Replace(string(plugin), "throw blocked(", "console.log(", 1))
	put(filepath.Join(xdg, "opencode", "plugins", "guard.js"), "export const Mine = async () => ({})\n")
	found, checks := spec.Find()
	hooks := found[spec.Pre]
	if len(hooks) != 2 || len(checks) != 1 || !strings.Contains(checks[0].What, "is not guard's plugin") {
		t.Fatalf("found %+v, checks %+v; want two of guard's and one that is not", hooks, checks)
	}
	for i, wantCurrent := range []bool{true, false} {
		h := hooks[i]
		if h.H["command"] != "'/usr/bin/guard' hook --agent opencode" || h.Matcher != "*" || h.H["timeout"] != float64(HookTimeout) {
			t.Errorf("%s: %+v", h.File, h)
		}
		if spec.Blocks(h.H) != wantCurrent {
			t.Errorf("%s: Blocks = %v, want %v (the plugin as this guard writes it)", h.File, spec.Blocks(h.H), wantCurrent)
		}
	}
	if !IsGuardHook(hooks[0].H["command"]) {
		t.Errorf("%q is not a guard hook command", hooks[0].H["command"])
	}
	var ev map[string]any
	if err := json.Unmarshal(spec.Input("git status", proj), &ev); err != nil {
		t.Fatal(err)
	}
	if got, err := (OpenCode{}).Decode(spec.Input("git status", proj)); err != nil || got.Call.Input.Command != "git status" || got.Call.Cwd != proj {
		t.Errorf("doctor's canary input decodes to %+v, %v", got, err)
	}
}

// TestOpenCodePlugin runs guard's plugin against a fake guard for each
// answer guard hook may give, and checks that the call goes on only on
// guard's allow, with its arguments where it rewrites them, and that
// everything else throws (OpenCode then does not run the call, and gives
// the model the message). It runs the plugin in OpenCode's own runtime,
// the Bun inside its binary (BUN_BE_BUN=1), where e2e/install.sh has put
// OpenCode, and under Node.js where it is installed.
func TestOpenCodePlugin(t *testing.T) {
	var runtimes [][]string // the command lines that run a module, env first
	if node, err := exec.LookPath("node"); err == nil {
		runtimes = append(runtimes, []string{node})
	}
	cache := os.Getenv("GUARD_E2E_CACHE")
	if home, err := os.UserHomeDir(); cache == "" && err == nil {
		cache = filepath.Join(home, ".cache", "guard-e2e")
	}
	for _, arch := range []string{"x64", "arm64"} {
		if bin := filepath.Join(cache, "node_modules", "opencode-linux-"+arch, "bin", "opencode"); exec.Command(bin, "--version").Run() == nil {
			runtimes = append(runtimes, []string{"BUN_BE_BUN=1", bin})
		}
	}
	if len(runtimes) == 0 {
		t.Skip("neither node nor OpenCode (e2e/install.sh opencode) is installed: the plugin is checked by the e2e tests only")
	}
	for _, rt := range runtimes {
		t.Run(filepath.Base(rt[len(rt)-1]), func(t *testing.T) { testOpenCodePlugin(t, rt) })
	}
}

// testOpenCodePlugin runs TestOpenCodePlugin's cases in the runtime rt.
func testOpenCodePlugin(t *testing.T, rt []string) {
	dir := t.TempDir()
	guard := filepath.Join(dir, "guard")
	plugin, err := openCodePlugin(guard)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "guard.mjs"), plugin, 0o644); err != nil {
		t.Fatal(err)
	}
	// The harness calls the hook as OpenCode does, and prints what came
	// of it: the error's message, or the arguments the tool would run with
	// (the same object).
	harness := `import { GuardPlugin } from "./guard.mjs";
const hooks = await GuardPlugin({ directory: "/p", worktree: "/" });
const args = { command: "ls", description: "d" };
const output = { args };
try {
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, output);
  // A prototype the arguments got, where the tool would read what they
  // lack (workdir).
  const proto = Object.getPrototypeOf(args) === Object.prototype ? {} : { prototype: Object.getPrototypeOf(args) };
  console.log(JSON.stringify({ ran: output.args === args ? args : "another object", ...proto }));
} catch (e) {
  console.log(JSON.stringify({ threw: e.message }));
}
`
	if err := os.WriteFile(filepath.Join(dir, "harness.mjs"), []byte(harness), 0o644); err != nil {
		t.Fatal(err)
	}
	event := filepath.Join(dir, "event.json")
	// A case whose want ends in "..." wants output that starts with the
	// rest: the runtimes word their own errors differently.
	for _, tc := range []struct {
		name, script, want string
	}{
		{"allow", `echo '{"guard_opencode":1,"decision":"allow"}'`, `{"ran":{"command":"ls","description":"d"}}`},
		{"rewrite", `echo '{"guard_opencode":1,"decision":"allow","args":{"command":"guard run -- ls \u0026\u0026 x","description":"d"}}'`, `{"ran":{"command":"guard run -- ls && x","description":"d"}}`},
		{"deny", `printf 'guard: denied: no\nguard: hint: yes\n' >&2; exit 2`, `{"threw":"guard: denied: no\nguard: hint: yes"}`},
		{"deny without a reason", `exit 2`, `{"threw":"guard: denied: guard hook exited 2 without a reason"}`},
		{"exit 1", `echo oops >&2; exit 1`, `{"threw":"guard: denied: guard hook failed (exit 1): oops"}`},
		{"exit 0, nothing", `exit 0`, `{"threw":"guard: denied: guard hook's answer is not JSON: ...`},
		{"killed", `kill -9 $$`, `{"threw":"guard: denied: guard hook failed (exit SIGKILL)"}`},
		{"another protocol", `echo '{"decision":"allow"}'`, `{"threw":"guard: denied: guard hook's answer is not an allow of this plugin's protocol (version 1)"}`},
		{"not an allow", `echo '{"guard_opencode":1,"decision":"ask"}'`, `{"threw":"guard: denied: guard hook's answer is not an allow of this plugin's protocol (version 1)"}`},
		{"args not an object", `echo '{"guard_opencode":1,"decision":"allow","args":["ls"]}'`, `{"threw":"guard: denied: guard hook's rewritten arguments are not an object"}`},
		{"args null", `echo '{"guard_opencode":1,"decision":"allow","args":null}'`, `{"threw":"guard: denied: guard hook's rewritten arguments are not an object"}`},
		// An own __proto__ key, which JSON.parse makes, would set the
		// arguments' prototype if assigned: the tool would run in its
		// workdir, which guard did not judge.
		{"args with __proto__", `echo '{"guard_opencode":1,"decision":"allow","args":{"command":"guard run -- ls","__proto__":{"workdir":"/etc"}}}'`, `{"threw":"guard: denied: guard hook's rewritten arguments have a __proto__ key"}`},
		{"missing", "", `{"threw":"guard: denied: guard hook did not run (` + guard + `): ...`},
	} {
		os.Remove(guard)
		if tc.script != "" {
			script := "#!/bin/sh\ncat > " + event + "\n[ \"$*\" = 'hook --agent opencode' ] || { echo \"args: $*\" >&2; exit 2; }\n" + tc.script + "\n"
			if err := os.WriteFile(guard, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		env, argv := rt[:len(rt)-1], rt[len(rt)-1:]
		cmd := exec.Command(argv[0], "harness.mjs")
		cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: node: %v\n%s", tc.name, err, out)
		}
		got := strings.TrimSpace(string(out))
		if prefix, ok := strings.CutSuffix(tc.want, "..."); ok && strings.HasPrefix(got, prefix) {
			continue
		}
		if got != tc.want {
			t.Errorf("%s: %s\nwant %s", tc.name, got, tc.want)
		}
	}
	// The event the plugin sent the last fake guard.
	data, err := os.ReadFile(event)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"guard_opencode":1,"hook":"tool.execute.before","tool":"bash","sessionID":"s","callID":"c","directory":"/p","worktree":"/","args":{"command":"ls","description":"d"}}`
	if string(data) != want {
		t.Errorf("the plugin sent\n%s\nwant\n%s", data, want)
	}
}

// TestOpenCodeConfigProtected: what OpenCode loads as configuration or
// runs as a plugin is protected, where its environment puts it too.
func TestOpenCodeConfigProtected(t *testing.T) {
	env := map[string]string{"XDG_CACHE_HOME": "/srv/cache", "XDG_CONFIG_HOME": "/srv/config", "OPENCODE_CONFIG_DIR": "/srv/oc"}
	for _, f := range []string{"/p/sub/.opencode/plugins/x.js", "/p/opencode.jsonc", "/tmp/e2e/home/.config/opencode/opencode.json", "/srv/config/opencode/plugins/x.js",
		"/srv/oc/plugins/x.js", "/tmp/e2e/home/.cache/opencode/packages/some-plugin/index.js", "/srv/cache/opencode/packages/some-plugin/index.js"} {
		if d := decideEditIn(t, f, env); d.Verdict != engine.Deny || !strings.Contains(d.Reason(), "is protected") {
			t.Errorf("edit %s with %v: %s %s, want a deny of a protected path", f, env, d.Verdict, d.Reason())
		}
	}
}
