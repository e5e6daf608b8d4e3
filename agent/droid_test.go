// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"guard/engine"
)

// The golden input under testdata/droid is what Factory Droid 0.215.0
// sent guard in the e2e runs (droid exec --auto high), with the test's
// temporary directory renamed /tmp/e2e.

// droidInput is a PreToolUse input of Droid's in /p for tool with input.
func droidInput(tool, input string) string {
	return `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/p","permission_mode":"auto-high","hook_event_name":"PreToolUse","tool_name":"` + tool + `","tool_input":` + input + `}`
}

// TestDroidDecode: each tool's input is the call the engine judges; what
// guard cannot read is denied.
func TestDroidDecode(t *testing.T) {
	for _, tc := range []struct {
		in   string // "@FILE" for a golden input
		call engine.Call
		err  string
	}{
		{"@droid/pretooluse-execute.json", engine.Call{Kind: engine.KindShell, Tool: "Execute", Input: engine.Input{Command: "cat hello.txt"}, Cwd: "/tmp/e2e/proj", Session: "a7e4249a-2da5-4185-8ccd-bbfbfa64de39"}, ""},
		{droidInput("Read", `{"file_path":"/p/a.go","offset":1}`), engine.Call{Kind: engine.KindRead, Tool: "Read", Input: engine.Input{Path: "/p/a.go"}, Cwd: "/p", Session: "s"}, ""},
		{droidInput("Create", `{"file_path":"/p/n.txt","content":"x"}`), engine.Call{Kind: engine.KindWrite, Tool: "Create", Input: engine.Input{Path: "/p/n.txt"}, Cwd: "/p", Session: "s"}, ""},
		{droidInput("Edit", `{"file_path":"/p/a.go","old_str":"a","new_str":"b"}`), engine.Call{Kind: engine.KindEdit, Tool: "Edit", Input: engine.Input{Path: "/p/a.go"}, Cwd: "/p", Session: "s"}, ""},
		{droidInput("Grep", `{"pattern":"token","path":"/p/src","glob_pattern":"*.go"}`), engine.Call{Kind: engine.KindSearch, Tool: "Grep", Input: engine.Input{Path: "/p/src", Pattern: "token"}, Cwd: "/p", Session: "s"}, ""},
		{droidInput("LS", `{"directory_path":"/p/src"}`), engine.Call{Kind: engine.KindList, Tool: "LS", Input: engine.Input{Path: "/p/src"}, Cwd: "/p", Session: "s"}, ""},
		{droidInput("LS", `{}`), engine.Call{Kind: engine.KindList, Tool: "LS", Cwd: "/p", Session: "s"}, ""},
		{droidInput("Glob", `{"patterns":"*.go","folder":"/p"}`), engine.Call{Kind: engine.KindList, Tool: "Glob", Input: engine.Input{Path: "/p", Pattern: "*.go"}, Cwd: "/p", Session: "s"}, ""},
		{droidInput("Glob", `{"patterns":["**/*.go"]}`), engine.Call{Kind: engine.KindList, Tool: "Glob", Input: engine.Input{Pattern: "**/*.go"}, Cwd: "/p", Session: "s"}, ""},
		{droidInput("FetchUrl", `{"url":"https://example.com"}`), engine.Call{Kind: engine.KindFetch, Tool: "FetchUrl", Input: engine.Input{URL: "https://example.com"}, Cwd: "/p", Session: "s"}, ""},
		{droidInput("Task", `{"subagent_type":"worker","description":"d","prompt":"p"}`), engine.Call{Kind: engine.KindTool, Tool: "droid:Task", Cwd: "/p", Session: "s"}, ""},
		// What guard cannot read.
		{droidInput("Glob", `{"patterns":["*.go","*.md"]}`), engine.Call{}, "the Glob call names 2 patterns; guard judges one pattern per call"},
		{droidInput("Glob", `{"patterns":[]}`), engine.Call{}, "the Glob call names 0 patterns; guard judges one pattern per call"},
		{droidInput("Execute", `{"command":["rm","-rf","/"]}`), engine.Call{}, `the Execute call's "command" field is not a string guard can judge`},
		{droidInput("Read", `{"file_path":7}`), engine.Call{}, `the Read call's "file_path" field is not a path guard can judge`},
		{droidInput("Read", `"x"`), engine.Call{}, "the hook input's tool_input is not a JSON object"},
		{`{"hook_event_name":"PostToolUse","cwd":"/p","tool_name":"Read","tool_input":{}}`, engine.Call{}, `guard hook decides Factory Droid's tool calls; it does not take its "PostToolUse" event`},
		{strings.Replace(droidInput("Read", `{}`), `"cwd":"/p"`, `"cwd":"p"`, 1), engine.Call{}, `the hook input's cwd "p" is not an absolute path`},
	} {
		data := []byte(tc.in)
		if name, ok := strings.CutPrefix(tc.in, "@"); ok {
			data = readGolden(t, name)
		}
		ev, err := Droid{}.Decode(data)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %q", tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.in, err)
		case ev.Name != "PreToolUse" || !sameCall(ev.Call, tc.call):
			t.Errorf("%s: decoded %s %+v, want PreToolUse %+v", tc.in, ev.Name, ev.Call, tc.call)
		}
	}
}

// TestDroidAnswer: Droid's answers under the default policy, with and
// without guard run: an allow in Claude Code's shape, the rewrite as
// updatedInput that keeps the rest of the input, an ask and a deny as
// exit 2.
func TestDroidAnswer(t *testing.T) {
	run := "'/usr/local/bin/guard' 'run' '--read-only' -- bash --noprofile --norc -c 'cat hello.txt'"
	for _, tc := range []struct {
		in      string
		sandbox bool
		want    string
	}{
		{"@droid/pretooluse-execute.json", false, `exit 0: {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"guard (policy default): allowed: cat is allowed; it runs outside the sandbox, on guard's judgment alone: guard run is not available"}}` + "\n"},
		{"@droid/pretooluse-execute.json", true, `exit 0: {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"guard (policy default): allowed: cat is allowed","updatedInput":{"command":` + jsonString(run) + `,"riskLevel":"low","riskLevelReason":"the task asks for it","summary":"the task"}}}` + "\n"},
		{droidInput("Read", `{"file_path":"/p/a.go"}`), true, `exit 0: {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"guard (policy default): allowed: Read: reading /p/a.go"}}` + "\n"},
		{droidInput("Execute", `{"command":"rm -rf /"}`), true, "exit 2: rm -r: it deletes directories recursively (rule rm -r, policy default)"},
		{droidInput("Execute", `{"command":"touch x"}`), true, "exit 2: guard (policy default): needs approval: touch needs approval once in this session; once approved, the session is granted rule touch (rule touch); Droid does not enforce a hook's ask (its own permission check decides instead), so guard refuses what it would ask"},
		{droidInput("WebSearch", `{"query":"x"}`), true, "exit 2: tool WebSearch is not allowed by policy (rule tools.WebSearch, policy default)"},
		// Claude Code's Task is allowed; Droid's is not known to send its
		// subagents' calls through guard.
		{droidInput("Task", `{"subagent_type":"worker","description":"d","prompt":"p"}`), true, "exit 2: guard (policy default): needs approval: tool droid:Task is not in the policy's [tools] table; it needs approval; Droid does not enforce a hook's ask (its own permission check decides instead), so guard refuses what it would ask"},
	} {
		data := []byte(tc.in)
		if name, ok := strings.CutPrefix(tc.in, "@"); ok {
			data = readGolden(t, name)
		}
		_, ans := decideDefault(t, Droid{}, data, tc.sandbox)
		if got := answerString(ans); got != tc.want {
			t.Errorf("%s (sandbox %v):\n got %s\nwant %s", tc.in, tc.sandbox, got, tc.want)
		}
	}
}

// TestDroidRewriteOtherTool: a rewrite of any input but an Execute
// command is denied: guard has no other field to put it in.
func TestDroidRewriteOtherTool(t *testing.T) {
	ev, err := Droid{}.Decode([]byte(droidInput("Grep", `{"pattern":"x","path":"/p"}`)))
	if err != nil {
		t.Fatal(err)
	}
	d := engine.Decision{Verdict: engine.Allow, Rewrite: &engine.Input{Glob: "!.env"}}
	if got, want := answerString(Droid{}.Answer(ev, &d, "policy default")), "exit 2: guard cannot rewrite the input of tool Grep"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestDroidInstall: guard's PreToolUse hook goes into the settings there
// are, every other setting and hook kept, and a second install changes
// nothing.
func TestDroidInstall(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, ".factory", "settings.json")
	writeTestFile(t, name, `{"customModels":[{"model":"m"}],"hooks":{"PreToolUse":[{"matcher":"Execute","hooks":[{"type":"command","command":"lint-hook"}]}]}}`)
	changes, err := Droid{}.Install(dir, true, "/opt/guard")
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Path != name {
		t.Fatalf("changes %+v, want one of %s", changes, name)
	}
	var got map[string]any
	if err := json.Unmarshal(changes[0].New, &got); err != nil {
		t.Fatal(err)
	}
	want := `{"customModels":[{"model":"m"}],"hooks":{"PreToolUse":[{"hooks":[{"command":"lint-hook","type":"command"}],"matcher":"Execute"},{"hooks":[{"command":"'/opt/guard' hook --agent droid","timeout":30,"type":"command"}],"matcher":"*"}]}}`
	if b, _ := json.Marshal(got); string(b) != want {
		t.Errorf("settings:\n got %s\nwant %s", b, want)
	}
	writeTestFile(t, name, string(changes[0].New))
	again, err := Droid{}.Install(dir, true, "/opt/guard")
	if err != nil || string(again[0].New) != string(again[0].Old) {
		t.Errorf("a second install changed the settings (%v):\n%s", err, again[0].New)
	}
	user, err := Droid{}.Install(dir, false, "/opt/guard")
	if err != nil || user[0].Path != name {
		t.Errorf("the user's settings: %v, %+v; want %s (under the home)", err, user, name)
	}
}

// writeTestFile writes a file and the directories it needs.
func writeTestFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDroidConfigProtected: the settings Droid 0.215.0 reads where its
// environment points (its bundled code, not run): the home that
// $FACTORY_HOME_OVERRIDE names in place of $HOME, the runtime settings
// file (droid --settings, $FACTORY_RUNTIME_SETTINGS_PATH) and the local
// managed settings file are protected, as ~/.factory is, and
// ~/.factory-dev (FACTORY_ENV development).
func TestDroidConfigProtected(t *testing.T) {
	env := map[string]string{"FACTORY_HOME_OVERRIDE": "/srv/fhome", "FACTORY_RUNTIME_SETTINGS_PATH": "/srv/run/settings.json",
		"FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH": "/srv/managed.json"}
	for _, f := range []string{"/tmp/e2e/home/.factory/settings.json", "/tmp/e2e/home/.factory-dev/settings.json", "/p/.factory/hooks.json", "/srv/fhome/.factory/settings.json", "/srv/run/settings.json", "/srv/managed.json"} {
		if d := decideEditIn(t, f, env); d.Verdict != engine.Deny || !strings.Contains(d.Reason(), "is protected") {
			t.Errorf("Edit %s with %v: %s %s, want a deny of a protected path", f, env, d.Verdict, d.Reason())
		}
	}
}
