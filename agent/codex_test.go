// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"guard/engine"
)

// TestCodexDecodeGolden decodes what Codex CLI 0.169.0 sent guard.
func TestCodexDecodeGolden(t *testing.T) {
	const proj = "/tmp/e2e/proj"
	for _, tc := range []struct {
		file string
		name string
		call engine.Call // Session is the file's
	}{
		{"pretooluse-bash.json", "PreToolUse", engine.Call{Kind: engine.KindShell, Tool: "Bash", Input: engine.Input{Command: "cat hello.txt"}, Cwd: proj}},
		// The model's workdir is the input's cwd.
		{"pretooluse-bash-workdir.json", "PreToolUse", engine.Call{Kind: engine.KindShell, Tool: "Bash", Input: engine.Input{Command: "pwd"}, Cwd: proj + "/sub"}},
		{"pretooluse-apply_patch.json", "PreToolUse", engine.Call{Kind: engine.KindWrite, Tool: "apply_patch", Input: engine.Input{Path: proj + "/sub/new.txt"}, Cwd: proj}},
		// Codex applies the patch of apply_patch <<'EOF' itself, and tells
		// the hook it is Bash.
		{"pretooluse-bash-apply_patch-heredoc.json", "PreToolUse", engine.Call{Kind: engine.KindWrite, Tool: "apply_patch", Input: engine.Input{Path: proj + "/sub/other.txt"}, Cwd: proj}},
		{"posttooluse-bash.json", "PostToolUse", engine.Call{Kind: engine.KindShell, Tool: "Bash", Input: engine.Input{Command: "cat hello.txt"}, Cwd: proj}},
		{"posttooluse-apply_patch.json", "PostToolUse", engine.Call{Kind: engine.KindWrite, Tool: "apply_patch", Input: engine.Input{Path: proj + "/sub/new.txt"}, Cwd: proj}},
	} {
		data := readGolden(t, "codex/"+tc.file)
		ev, err := Codex{}.Decode(data)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		var raw struct {
			Session   string         `json:"session_id"`
			ToolInput map[string]any `json:"tool_input"`
		}
		json.Unmarshal(data, &raw)
		want := tc.call
		want.Session = raw.Session
		if ev.Name != tc.name || ev.Session != raw.Session || !sameCall(ev.Call, want) || fmt.Sprint(ev.Raw) != fmt.Sprint(raw.ToolInput) {
			t.Errorf("%s: decoded %s %q %+v %v\nwant      %s %q %+v %v", tc.file, ev.Name, ev.Session, ev.Call, ev.Raw, tc.name, raw.Session, want, raw.ToolInput)
		}
	}
}

// codexInput is a PreToolUse input in /p for tool with input.
func codexInput(tool, input string) string {
	return `{"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/p","hook_event_name":"PreToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"` +
		tool + `","tool_input":` + input + `,"tool_use_id":"call_1"}`
}

// patchInput is an apply_patch tool_input holding patch.
func patchInput(patch string) string {
	b, _ := json.Marshal(map[string]string{"command": patch})
	return string(b)
}

// codexCases are PreToolUse inputs of tools and what guard judges of
// each: the kind, the tool, the input.
var codexCases = []struct {
	tool, input string
	kind        engine.Kind
	as          string // the tool guard judges it as
	want        engine.Input
}{
	{"Bash", `{"command":"git status"}`, engine.KindShell, "Bash", engine.Input{Command: "git status"}},
	{"Bash", `{}`, engine.KindShell, "Bash", engine.Input{}}, // no command: the engine denies
	{"apply_patch", patchInput("*** Begin Patch\n*** Update File: src/a.go\n@@\n-a\n+b\n*** End Patch\n"), engine.KindWrite, "apply_patch", engine.Input{Path: "/p/src/a.go"}},
	{"apply_patch", patchInput("*** Begin Patch\n*** Delete File: /home/u/.bashrc\n*** End Patch"), engine.KindWrite, "apply_patch", engine.Input{Path: "/home/u/.bashrc"}},
	// Codex joins a relative path to its working directory as it is: ~ is
	// a name, and .. is left for the engine to resolve.
	{"apply_patch", patchInput("*** Begin Patch\n*** Add File: ~/.bashrc\n+x\n*** End Patch\n"), engine.KindWrite, "apply_patch", engine.Input{Path: "/p/~/.bashrc"}},
	{"apply_patch", patchInput("*** Begin Patch\n*** Add File: link/../x\n+x\n*** End Patch\n"), engine.KindWrite, "apply_patch", engine.Input{Path: "/p/link/../x"}},
	// Codex's parser trims the lines, and so does guard.
	{"apply_patch", patchInput("  *** Begin Patch\n  *** Add File: a.txt  \n+x\n*** End Patch\n"), engine.KindWrite, "apply_patch", engine.Input{Path: "/p/a.txt"}},
	// The same file named twice is one file.
	{"apply_patch", patchInput("*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** Update File: /p/a.txt\n@@\n-c\n+d\n*** End Patch\n"), engine.KindWrite, "apply_patch", engine.Input{Path: "/p/a.txt"}},
	{"Bash", patchInput("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: n.txt\n+n\n*** End Patch\nEOF"), engine.KindWrite, "apply_patch", engine.Input{Path: "/p/n.txt"}},
	{"Bash", patchInput("applypatch <<\"PATCH\"\n*** Begin Patch\n*** Add File: n.txt\n+n\n*** End Patch\nPATCH\n"), engine.KindWrite, "apply_patch", engine.Input{Path: "/p/n.txt"}},
	// Anything else around apply_patch is a shell command the engine
	// judges: an unquoted delimiter (the shell expands the patch), a
	// command after it, a line that ends the here-document early, a cd.
	{"Bash", patchInput("apply_patch <<EOF\n*** Begin Patch\n*** Add File: n.txt\n+$(id)\n*** End Patch\nEOF\n"), engine.KindShell, "Bash", engine.Input{Command: "apply_patch <<EOF\n*** Begin Patch\n*** Add File: n.txt\n+$(id)\n*** End Patch\nEOF\n"}},
	{"Bash", patchInput("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: n.txt\n+n\n*** End Patch\nEOF\nrm -rf ~\n"), engine.KindShell, "Bash", engine.Input{Command: "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: n.txt\n+n\n*** End Patch\nEOF\nrm -rf ~\n"}},
	{"Bash", patchInput("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: n.txt\nEOF\nrm -rf ~\nEOF\n"), engine.KindShell, "Bash", engine.Input{Command: "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: n.txt\nEOF\nrm -rf ~\nEOF\n"}},
	{"Bash", patchInput("cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: n.txt\n+n\n*** End Patch\nEOF\n"), engine.KindShell, "Bash", engine.Input{Command: "cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: n.txt\n+n\n*** End Patch\nEOF\n"}},
	// Other tools: the policy's tier of the name decides.
	{"mcp__github__get_issue", `{"issue":1,"path":"/x"}`, engine.KindTool, "mcp__github__get_issue", engine.Input{}},
	{"write_stdin", `{"session_id":1,"chars":"y\n"}`, engine.KindTool, "write_stdin", engine.Input{}},
	{"run_shell_command", `{"command":"ls"}`, engine.KindTool, "run_shell_command", engine.Input{}}, // not a Codex tool
}

func init() {
	seen := map[string]bool{}
	for _, tc := range codexCases {
		if seen[tc.tool+tc.input] {
			panic(fmt.Sprintf("codexCases: duplicate case %s %s", tc.tool, tc.input))
		}
		seen[tc.tool+tc.input] = true
	}
}

func TestCodexDecode(t *testing.T) {
	for _, tc := range codexCases {
		ev, err := Codex{}.Decode([]byte(codexInput(tc.tool, tc.input)))
		if err != nil {
			t.Errorf("%s %s: %v", tc.tool, tc.input, err)
			continue
		}
		want := engine.Call{Kind: tc.kind, Tool: tc.as, Input: tc.want, Cwd: "/p", Session: "s"}
		if ev.Name != "PreToolUse" || !sameCall(ev.Call, want) || ev.Raw == nil {
			t.Errorf("%s %s:\ndecoded %s %+v\nwant    PreToolUse %+v", tc.tool, tc.input, ev.Name, ev.Call, want)
		}
	}
}

// TestCodexDecodeDenied: malformed inputs, and patches that name no file
// or more than one, are denied with these reasons and hints.
func TestCodexDecodeDenied(t *testing.T) {
	const oneAtATime = "apply one file's patch at a time: one apply_patch call per file, and a move as a delete and an add"
	for _, tc := range []struct{ in, why, hint string }{
		{``, "the hook input is empty; guard hook reads the agent's hook event as JSON on stdin", ""},
		{`{"a":1}{}`, "the hook input has data after its JSON object", ""},
		{`"PreToolUse"`, "the hook input is not a JSON object: json: cannot unmarshal string into Go value of type map[string]interface {}", ""},
		{`{"turn_id":"t"}`, `the hook input has no "hook_event_name" field`, ""},
		{`{"session_id":"s","hook_event_name":"PreToolUse","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"}}`,
			"the hook input has no turn_id, which Codex sends with every tool event: it is not Codex's; give guard hook the --agent it runs under", ""},
		{`{"hook_event_name":"BeforeTool","turn_id":"t"}`, `guard hook decides Codex's tool calls; it does not take its "BeforeTool" event`, ""},
		{`{"hook_event_name":"UserPromptSubmit","turn_id":"t","tool_name":"Bash","cwd":"/p","tool_input":{}}`, `guard hook decides Codex's tool calls; it does not take its "UserPromptSubmit" event`, ""},
		{`{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/p","tool_input":null}`, "the hook input's tool_input is not a JSON object", ""},
		{`{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"","tool_input":{}}`, `the hook input's cwd "" is not an absolute path`, ""},
		{`{"hook_event_name":"PreToolUse","tool_name":null,"cwd":"/p","tool_input":{}}`, "the hook input's tool_name is empty", ""},
		{codexInput("Bash", `{"command":""}`), `the Bash call's "command" field is not a string guard can judge`, ""},
		{codexInput("apply_patch", `{"command":5}`), `the apply_patch call's "command" field is not a string guard can judge`, ""},
		{codexInput("apply_patch", `{"input":"*** Begin Patch\n*** Add File: a\n+a\n*** End Patch"}`), "apply_patch: the patch names no file guard can judge", oneAtATime},
		{codexInput("apply_patch", patchInput("*** Begin Patch\n*** End Patch\n")), "apply_patch: the patch names no file guard can judge", oneAtATime},
		{codexInput("apply_patch", patchInput("*** Begin Patch\n*** Add File: a.txt\n+a\n*** Delete File: b.txt\n*** End Patch\n")), "apply_patch: the patch names 2 files (/p/a.txt, /p/b.txt); guard judges one file per call", oneAtATime},
		{codexInput("apply_patch", patchInput("*** Begin Patch\n*** Update File: a.txt\n*** Move to: /p/.codex/hooks.json\n@@\n-a\n+b\n*** End Patch\n")), "apply_patch: the patch names 2 files (/p/a.txt, /p/.codex/hooks.json); guard judges one file per call", oneAtATime},
		// A line of an added file that reads like a header counts: one file
		// too many denies, one too few would let a file go unjudged.
		{codexInput("apply_patch", patchInput("*** Begin Patch\n*** Add File: a.txt\n+x\n *** Update File: b.txt\n*** End Patch\n")), "apply_patch: the patch names 2 files (/p/a.txt, /p/b.txt); guard judges one file per call", oneAtATime},
		{codexInput("apply_patch", patchInput("*** Begin Patch\n*** Add File:  \n+x\n*** End Patch\n")), `apply_patch: the patch has a "*** Add File:" line without a path`, ""},
		{codexInput("apply_patch", patchInput("*** Begin Patch\n*** Add File:a\n+x\n*** Delete File:\tb\n*** End Patch\n")), "apply_patch: the patch names 2 files (/p/a, /p/b); guard judges one file per call", oneAtATime},
		{codexInput("Bash", patchInput("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a\n+a\n*** Add File: b\n+b\n*** End Patch\nEOF")), "apply_patch: the patch names 2 files (/p/a, /p/b); guard judges one file per call", oneAtATime},
	} {
		ev, err := Codex{}.Decode([]byte(tc.in))
		d, ok := err.(*Denial)
		switch {
		case err == nil:
			t.Errorf("%s: decoded %+v, want the denial %q", tc.in, ev.Call, tc.why)
		case !ok:
			t.Errorf("%s: error %T, want *Denial", tc.in, err)
		case d.Why != tc.why || strings.Join(d.Hints, "") != tc.hint:
			t.Errorf("%s: denied\n%q %q\nwant\n%q %q", tc.in, d.Why, d.Hints, tc.why, tc.hint)
		}
	}
}

// TestCodexAnswer: the exact answer for each verdict.
func TestCodexAnswer(t *testing.T) {
	bash := &Event{Name: "PreToolUse", Call: engine.Call{Kind: engine.KindShell, Tool: "Bash"},
		Raw: map[string]any{"command": "go test ./...", "timeout_ms": json.Number("60000")}}
	leaf := engine.Leaf{Verdict: engine.Allow, Kind: "command", Text: "go test ./...", Why: "go test is allowed"}
	ask := leaf
	ask.Verdict, ask.Rule, ask.Why = engine.Ask, "go", "go test runs the project's code"
	askHint := ask
	askHint.Hint = "run go vet instead"
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
	patch := &Event{Name: "PreToolUse", Call: engine.Call{Kind: engine.KindWrite, Tool: "apply_patch"}, Raw: map[string]any{"command": "*** Begin Patch"}}
	const cannotAsk = "exit 2: Codex cannot ask the user, so guard refuses what it would ask: guard (p): needs approval: go test runs the project's code (rule go)"
	const askUser = "ask the user to run it, or to allow it in guard's policy"
	for _, tc := range []struct {
		name  string
		ev    *Event
		d     *engine.Decision
		want  string
		hints []string
	}{
		{"allow", bash, allow, "exit 0, silent", nil},
		{"ask", bash, asks, cannotAsk, []string{askUser}},
		{"ask with a hint", bash, &engine.Decision{Verdict: engine.Ask, Leaves: []engine.Leaf{askHint}}, cannotAsk, []string{"run go vet instead", askUser}},
		{"deny", bash, denies, "exit 2: go test -exec runs a program (p)", []string{no.Hint}},
		// A rewrite sends the whole input as updatedInput, the command
		// replaced.
		{"rewrite allow", bash, rewrite(allow), `exit 0: {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"'/usr/local/bin/guard' 'run' -- bash --noprofile --norc -c 'go test ./...'","timeout_ms":60000}}}` + "\n", nil},
		{"rewrite ask", bash, rewrite(asks), cannotAsk, []string{askUser}},
		{"rewrite deny", bash, rewrite(denies), "exit 2: go test -exec runs a program (p)", []string{no.Hint}},
		{"rewrite apply_patch", patch, rewrite(allow), "exit 2: guard cannot rewrite the input of tool apply_patch", nil},
		{"apply_patch allow", patch, allow, "exit 0, silent", nil},
		{"PostToolUse", &Event{Name: "PostToolUse", Call: bash.Call, Raw: bash.Raw}, denies, "exit 0: ", nil},
		{"SessionEnd", &Event{Name: "SessionEnd"}, asks, "exit 0: ", nil},
	} {
		a := Codex{}.Answer(tc.ev, tc.d, "p")
		if got := answerString(a); got != tc.want {
			t.Errorf("%s: answer\n%s\nwant\n%s", tc.name, got, tc.want)
		}
		if a.Deny != nil && strings.Join(a.Deny.Hints, "|") != strings.Join(tc.hints, "|") {
			t.Errorf("%s: hints %q, want %q", tc.name, a.Deny.Hints, tc.hints)
		}
	}
	if bash.Raw["command"] != "go test ./..." {
		t.Errorf("the rewrite changed the event's input: %v", bash.Raw)
	}
}

// TestCodexDefaultPolicy decides the golden inputs with the default
// policy, as guard hook would, and checks the exact answer.
func TestCodexDefaultPolicy(t *testing.T) {
	const cannotAsk = "exit 2: Codex cannot ask the user, so guard refuses what it would ask: guard (policy default): needs approval: "
	for _, tc := range []struct{ file, want string }{
		{"pretooluse-bash.json", "exit 0, silent"},
		{"pretooluse-bash-workdir.json", "exit 0, silent"},
		{"pretooluse-apply_patch.json", cannotAsk + "apply_patch: writing /tmp/e2e/proj/sub/new.txt: needs approval once in this session; once approved, the session is granted dir /tmp/e2e/proj/sub (rule paths.write)"},
		{"pretooluse-bash-apply_patch-heredoc.json", cannotAsk + "apply_patch: writing /tmp/e2e/proj/sub/other.txt: needs approval once in this session; once approved, the session is granted dir /tmp/e2e/proj/sub (rule paths.write)"},
		{"posttooluse-bash.json", "exit 0: "},
		{"posttooluse-apply_patch.json", "exit 0: "},
	} {
		_, a := decideDefault(t, Codex{}, readGolden(t, "codex/"+tc.file), false)
		if got := answerString(a); got != tc.want {
			t.Errorf("%s: answer\n%s\nwant\n%s", tc.file, got, tc.want)
		}
	}
	for _, tc := range []struct{ tool, input, want string }{
		{"Bash", `{"command":"npm test"}`, `exit 0: {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"'/usr/local/bin/guard' 'run' '--profile' 'test' -- bash --noprofile --norc -c 'npm test'"}}}` + "\n"},
		{"Bash", `{"command":"touch x"}`, cannotAsk + "touch needs approval once in this session; once approved, the session is granted rule touch (rule touch)"},
		{"Bash", `{"command":"rm -rf /"}`, "exit 2: rm -r: it deletes directories recursively (rule rm -r, policy default)"},
		{"apply_patch", patchInput("*** Begin Patch\n*** Update File: .codex/config.toml\n@@\n-a\n+b\n*** End Patch\n"), "exit 2: apply_patch: /p/.codex/config.toml is protected: it configures a coding agent ({project}/.codex/**), and no tool may change it (rule paths.protected {project}/.codex/**, policy default)"},
		{"apply_patch", patchInput("*** Begin Patch\n*** Add File: /p/sub/.codex/hooks.json\n+{}\n*** End Patch\n"), "exit 2: apply_patch: /p/sub/.codex/hooks.json is protected: it configures a coding agent (**/.codex/hooks.json), and no tool may change it (rule paths.protected **/.codex/hooks.json, policy default)"},
		{"apply_patch", patchInput("*** Begin Patch\n*** Add File: /p/.claude/settings.json\n+{}\n*** End Patch\n"), "exit 2: apply_patch: /p/.claude/settings.json is protected ({project}/.claude/**): no tool may change it (rule paths.protected {project}/.claude/**, policy default)"},
		{"mcp__github__get_issue", `{"issue":1}`, cannotAsk + "tool mcp__github__get_issue needs approval (rule tools.mcp__*)"},
	} {
		_, a := decideDefault(t, Codex{}, []byte(codexInput(tc.tool, tc.input)), true)
		if got := answerString(a); got != tc.want {
			t.Errorf("%s %s: answer\n%s\nwant\n%s", tc.tool, tc.input, got, tc.want)
		}
	}
}

// TestCodexConfigPaths: the paths are every agent's.
func TestCodexConfigPaths(t *testing.T) {
	all := " " + strings.Join(ConfigPaths(), " ") + " "
	for _, p := range (Codex{}).ConfigPaths() {
		if !strings.Contains(all, " "+p+" ") {
			t.Errorf("ConfigPaths() lacks Codex's %s", p)
		}
	}
	for _, p := range []string{"{project}/.codex/**", "~/.codex/**"} {
		if !strings.Contains(" "+strings.Join(Codex{}.ConfigPaths(), " ")+" ", " "+p+" ") {
			t.Errorf("Codex's ConfigPaths lack %s", p)
		}
	}
}

// TestCodexInstallTimeouts: guard init gives each Codex hook a timeout
// Codex takes as it is (a SessionEnd one longer than 3 s Codex shortens,
// and says so in every run), and trusts each hook by the hash of what it
// wrote.
func TestCodexInstallTimeouts(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CODEX_HOME", filepath.Join(home, ".codex"))
	changes, err := Codex{}.Install(home, false, "/usr/local/bin/guard")
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 2 {
		t.Fatalf("Install planned %d files, want hooks.json and config.toml", len(changes))
	}
	var root struct {
		Hooks map[string][]struct {
			Hooks []map[string]any `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(changes[0].New, &root); err != nil {
		t.Fatal(err)
	}
	var cfg codexTrust
	if _, err := toml.Decode(string(changes[1].New), &cfg); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		event   string
		timeout float64
	}{
		{"PreToolUse", HookTimeout},
		{"PermissionRequest", HookTimeout},
		{"PostToolUse", HookTimeout},
		{"SessionEnd", 3},
	} {
		groups := root.Hooks[tc.event]
		if len(groups) != 1 || len(groups[0].Hooks) != 1 {
			t.Errorf("%s: %d groups, want one with guard's handler", tc.event, len(groups))
			continue
		}
		h := groups[0].Hooks[0]
		if h["timeout"] != tc.timeout {
			t.Errorf("%s: timeout %v, want %v", tc.event, h["timeout"], tc.timeout)
		}
		name := codexEventName(tc.event)
		sum, err := codexHookHash(name, h)
		key := filepath.Join(home, ".codex", "hooks.json") + ":" + name + ":0:0"
		if err != nil || cfg.Hooks.State[key].TrustedHash != "sha256:"+sum {
			t.Errorf("%s: trust record %q, want the hash of the handler written (%v)", tc.event, cfg.Hooks.State[key].TrustedHash, err)
		}
	}
}
