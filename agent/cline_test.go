// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"guard/engine"
	"guard/policy"
)

// TestClineDecodeGolden decodes what the Cline CLI 3.0.65 sent guard.
func TestClineDecodeGolden(t *testing.T) {
	const proj = "/tmp/e2e/proj"
	for _, tc := range []struct {
		file  string
		call  engine.Call // Session is the file's taskId
		input string      // tool_call.input as Raw holds it, as JSON
	}{
		{"tool_call-run_commands.json", engine.Call{Kind: engine.KindShell, Tool: "run_commands", Input: engine.Input{Command: "touch MARKER"}, Cwd: proj}, `{"commands":["touch MARKER"]}`},
		{"tool_call-read_files.json", engine.Call{Kind: engine.KindRead, Tool: "read_files", Input: engine.Input{Path: proj + "/hello.txt"}, Cwd: proj}, `{"files":[{"path":"/tmp/e2e/proj/hello.txt"}]}`},
		{"tool_call-editor.json", engine.Call{Kind: engine.KindEdit, Tool: "editor", Input: engine.Input{Path: proj + "/notes.txt"}, Cwd: proj}, `{"new_text":"hello\n","path":"/tmp/e2e/proj/notes.txt"}`},
		{"tool_call-search_codebase.json", engine.Call{Kind: engine.KindSearch, Tool: "search_codebase", Input: engine.Input{Pattern: "TODO"}, Cwd: proj}, `{"queries":["TODO"]}`},
		{"tool_call-fetch_web_content.json", engine.Call{Kind: engine.KindFetch, Tool: "fetch_web_content", Input: engine.Input{URL: "https://example.com/x"}, Cwd: proj}, `{"requests":[{"prompt":"summarize it","url":"https://example.com/x"}]}`},
	} {
		data := readGolden(t, "cline/"+tc.file)
		ev, err := Cline{}.Decode(data)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		var raw struct {
			Task string `json:"taskId"`
		}
		json.Unmarshal(data, &raw)
		want := tc.call
		want.Session = raw.Task
		in, _ := json.Marshal(ev.Raw)
		if ev.Name != "PreToolUse" || ev.Session != raw.Task || ev.CallID != "call_e2e_1" || !sameCall(ev.Call, want) || string(in) != tc.input {
			t.Errorf("%s: decoded %s %q %q %+v %s\nwant      PreToolUse %q call_e2e_1 %+v %s", tc.file, ev.Name, ev.Session, ev.CallID, ev.Call, in, raw.Task, want, tc.input)
		}
	}
}

// clineHookInput is a tool_call input in /p for tool with input.
func clineHookInput(tool, input string) string {
	return `{"hookName":"tool_call","taskId":"t","workspaceRoots":["/p"],"tool_call":{"id":"c","name":"` + tool + `","input":` + input + `}}`
}

// TestClineDecode: the shapes guard judges, and other tools by name.
func TestClineDecode(t *testing.T) {
	for _, tc := range []struct {
		tool, input string
		kind        engine.Kind
		want        engine.Input
	}{
		{"run_commands", `{"commands":["ls -la"]}`, engine.KindShell, engine.Input{Command: "ls -la"}},
		{"read_files", `{"files":[{"path":"/p/a","start_line":2,"end_line":null}]}`, engine.KindRead, engine.Input{Path: "/p/a"}},
		{"editor", `{"path":"/p/a","old_text":"x","new_text":"y"}`, engine.KindEdit, engine.Input{Path: "/p/a"}},
		{"editor", `{"path":"/p/a","new_text":"y","insert_line":3}`, engine.KindEdit, engine.Input{Path: "/p/a"}},
		{"search_codebase", `{"queries":["a","b"]}`, engine.KindSearch, engine.Input{Pattern: "a\nb"}},
		{"fetch_web_content", `{"requests":[{"url":"https://x.test/","prompt":"p"}]}`, engine.KindFetch, engine.Input{URL: "https://x.test/"}},
		{"team_status", `{}`, engine.KindTool, engine.Input{}},
		{"mcp_tool", `"text"`, engine.KindTool, engine.Input{}},
	} {
		ev, err := Cline{}.Decode([]byte(clineHookInput(tc.tool, tc.input)))
		if err != nil {
			t.Errorf("%s %s: %v", tc.tool, tc.input, err)
			continue
		}
		if ev.Call.Kind != tc.kind || ev.Call.Input != tc.want || ev.Call.Cwd != "/p" || ev.Call.Tool != tc.tool {
			t.Errorf("%s %s: %+v, want %s %+v in /p", tc.tool, tc.input, ev.Call, tc.kind, tc.want)
		}
	}
}

// TestClineDecodeDenied: what guard cannot judge as Cline would run it is
// denied: several commands, files or URLs in one call (Cline runs them
// side by side), a command with its argv (run without a shell), a relative
// path, fields guard does not read, and inputs of another shape.
func TestClineDecodeDenied(t *testing.T) {
	for _, tc := range []struct{ in, why string }{
		{clineHookInput("run_commands", `{"commands":["ls","pwd"]}`), "names 2 commands; guard judges one per call"},
		{clineHookInput("run_commands", `{"commands":[{"command":"rm","args":["-rf","x"]}]}`), "a command with its argv runs without a shell"},
		{clineHookInput("run_commands", `{"commands":"ls"}`), `"commands" is not a list`},
		{clineHookInput("run_commands", `{"command":"ls"}`), `a field "command" guard does not judge`},
		{clineHookInput("run_commands", `"ls"`), "input is not a JSON object"},
		{clineHookInput("run_commands", `{"commands":[]}`), `"commands" is not a list`},
		{clineHookInput("run_commands", `{"commands":[""]}`), "not a string guard can judge"},
		{clineHookInput("read_files", `{"files":[{"path":"/p/a"},{"path":"/p/b"}]}`), "names 2 files"},
		{clineHookInput("read_files", `{"files":[{"path":"a"}]}`), `path "a" is not absolute`},
		{clineHookInput("read_files", `{"files":[{"path":"/p/a","follow":true}]}`), `field "follow"`},
		{clineHookInput("editor", `{"path":"rel","new_text":"x"}`), "is not absolute"},
		{clineHookInput("editor", `{"new_text":"x"}`), "names no path"},
		{clineHookInput("editor", `{"path":"/p/a","new_text":"x","mode":"append"}`), `field "mode"`},
		{clineHookInput("search_codebase", `{"queries":[1]}`), "query is not a string"},
		{clineHookInput("fetch_web_content", `{"requests":[{"url":"https://a.test/","prompt":"p"},{"url":"https://b.test/","prompt":"p"}]}`), "names 2 URLs"},
		{`{"hookName":"tool_result","taskId":"t","workspaceRoots":["/p"],"tool_call":{"name":"x","input":{}}}`, `does not take "tool_result"`},
		{`{"hookName":"tool_call","taskId":"t","workspaceRoots":["rel"],"tool_call":{"name":"x","input":{}}}`, "is not an absolute path"},
		{`{"hookName":"tool_call","taskId":"t","workspaceRoots":[],"tool_call":{"name":"x","input":{}}}`, "no workspaceRoots"},
		{`{"hookName":"tool_call","taskId":"t","workspaceRoots":["/p"],"tool_call":{"name":"","input":{}}}`, "tool name is empty"},
		{`{"hookName":"tool_call","taskId":"t","workspaceRoots":["/p"]}`, "tool_call is not a JSON object"},
		{`{"hookName":"tool_call","taskId":1,"workspaceRoots":["/p"],"tool_call":{"name":"x"}}`, `"taskId" field is not a string`},
	} {
		_, err := Cline{}.Decode([]byte(tc.in))
		var d *Denial
		if e, ok := err.(*Denial); ok {
			d = e
		}
		if d == nil || !strings.Contains(d.Why, tc.why) {
			t.Errorf("%s: %v, want a deny with %q", tc.in, err, tc.why)
		}
	}
}

// TestClineAnswer: allow as cancel false, the rewrite as overrideInput,
// ask and deny as the null input with the reason where the tool refuses
// null, else as cancel; every deny exits 2 as well.
func TestClineAnswer(t *testing.T) {
	allow := &engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{{Verdict: engine.Allow, Kind: "command", Text: "ls", Why: "ls is allowed"}}}
	ask := &engine.Decision{Verdict: engine.Ask, Leaves: []engine.Leaf{{Verdict: engine.Ask, Kind: "command", Text: "make", Rule: "make", Why: "make needs approval"}}}
	deny := &engine.Decision{Verdict: engine.Deny, Leaves: []engine.Leaf{{Verdict: engine.Deny, Kind: "command", Text: "rm -rf /", Rule: "rm", Why: "rm -rf deletes directories", Hint: "delete single files"}}}
	rewrite := &engine.Decision{Verdict: engine.Allow, Leaves: allow.Leaves, Rewrite: &engine.Input{Command: "'/g' 'run' -- bash -c 'ls'"}}
	event := func(tool, input string) *Event {
		ev, err := Cline{}.Decode([]byte(clineHookInput(tool, input)))
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	run := event("run_commands", `{"commands":["ls"]}`)
	read := event("read_files", `{"files":[{"path":"/p/a"}]}`)
	team := event("team_status", `{}`)
	for _, tc := range []struct {
		name   string
		ev     *Event
		d      *engine.Decision
		stdout string
		deny   string // a substring of the deny's reason; "" for no deny
	}{
		{"allow", run, allow, `{"cancel":false}`, ""},
		{"rewrite", run, rewrite, `{"cancel":false,"overrideInput":{"commands":["'/g' 'run' -- bash -c 'ls'"]}}`, ""},
		{"deny", run, deny, `{"cancel":false,"overrideInput":null,"errorMessage":"guard: denied: rm -rf deletes directories (rule rm, p)\nguard: hint: delete single files"}`, "rm -rf deletes directories"},
		{"ask is refused", run, ask, `{"cancel":false,"overrideInput":null,"errorMessage":"guard: denied: guard (p): needs approval: make needs approval (rule make); Cline's hooks have no ask, so guard refuses what it would ask"}`, "Cline's hooks have no ask"},
		{"deny of a read", read, deny, `{"cancel":false,"overrideInput":null,"errorMessage":"guard: denied: rm -rf deletes directories (rule rm, p)\nguard: hint: delete single files"}`, "rm -rf"},
		{"deny of a tool that may take null", team, deny, `{"cancel":true,"errorMessage":"guard: denied: rm -rf deletes directories (rule rm, p)\nguard: hint: delete single files"}`, "rm -rf"},
		{"no rewrite of a read", read, &engine.Decision{Verdict: engine.Allow, Leaves: allow.Leaves, Rewrite: &engine.Input{Path: "/p/b"}},
			`{"cancel":false,"overrideInput":null,"errorMessage":"guard: denied: guard cannot rewrite the input of Cline's tool read_files"}`, "cannot rewrite"},
		{"no rewrite but the command", run, &engine.Decision{Verdict: engine.Allow, Leaves: allow.Leaves, Rewrite: &engine.Input{Command: "x", Path: "/p"}},
			`{"cancel":false,"overrideInput":null,"errorMessage":"guard: denied: guard cannot rewrite the input of Cline's tool run_commands"}`, "cannot rewrite"},
	} {
		a := Cline{}.Answer(tc.ev, tc.d, "p")
		var v map[string]any
		if string(a.Stdout) != tc.stdout+"\n" || json.Unmarshal(a.Stdout, &v) != nil {
			t.Errorf("%s: stdout %s, want %s", tc.name, a.Stdout, tc.stdout)
		}
		if got := a.Deny != nil && strings.Contains(a.Deny.Why, tc.deny); got != (tc.deny != "") || (tc.deny == "" && a.Deny != nil) {
			t.Errorf("%s: deny %+v, want one with %q", tc.name, a.Deny, tc.deny)
		}
	}
}

// TestClineInstall: guard's hook file, executable, in the project's
// .clinerules/hooks or the user's ~/.cline/hooks; again it changes
// nothing; a PreToolUse hook of another is left alone, and install fails.
func TestClineInstall(t *testing.T) {
	dir := t.TempDir()
	for _, project := range []bool{true, false} {
		changes, err := Cline{}.Install(dir, project, "/opt/my guard/guard")
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Join(dir, ".cline", "hooks", "PreToolUse")
		if project {
			want = filepath.Join(dir, ".clinerules", "hooks", "PreToolUse")
		}
		c := changes[0]
		if len(changes) != 1 || c.Path != want || c.Mode != 0o755 || c.Old != nil ||
			!bytes.Contains(c.New, []byte("out=$('/opt/my guard/guard' hook --agent cline)\n")) {
			t.Fatalf("project=%v: %+v\n%s", project, changes, c.New)
		}
		os.MkdirAll(filepath.Dir(c.Path), 0o755)
		os.WriteFile(c.Path, c.New, 0o755)
		again, err := Cline{}.Install(dir, project, "/opt/my guard/guard")
		if err != nil || !bytes.Equal(again[0].Old, again[0].New) {
			t.Errorf("project=%v: installed again: %v, %+v", project, err, again)
		}
		os.WriteFile(c.Path, []byte("#!/bin/sh\necho '{}'\n"), 0o755)
		if _, err := (Cline{}).Install(dir, project, "/g"); err == nil || !strings.Contains(err.Error(), "not guard's") {
			t.Errorf("project=%v: over another's hook: %v, want an error", project, err)
		}
	}
}

// TestClineConfigProtected: a write to each place the Cline CLI 3.0.65
// reads configuration from (its @cline/shared storage paths) is denied as
// protected, not asked as a write in or out of the project.
func TestClineConfigProtected(t *testing.T) {
	for _, p := range []string{
		"/p/.clinerules/hooks/PreToolUse",
		"/p/.cline/plugins/x.js",
		"/p/.agents/skills/x/SKILL.md",                // a workspace skill
		"/tmp/e2e/home/.agents/plugins/x/plugin.json", // an Agent Plugin, loaded from there with no setting
		"/tmp/e2e/home/.agents/skills/x/SKILL.md",
		"/tmp/e2e/home/Cline/Rules/r.md", // a global rule
		"/tmp/e2e/home/Documents/Cline/Hooks/PreToolUse",
		"/tmp/e2e/home/.cline/data/settings/providers.json",
	} {
		_, a := decideDefault(t, Cline{}, []byte(clineHookInput("editor", `{"path":"`+p+`","new_text":"x"}`)), true)
		if a.Deny == nil || !strings.Contains(a.Deny.Why, "is protected") && !strings.Contains(a.Deny.Why, "is a secret file") {
			t.Errorf("editor %s: %s, want a deny of a protected path", p, answerString(a))
		}
	}
	// The directories Cline's environment names in place of ~/.cline and
	// ~/.cline/data.
	env := map[string]string{"CLINE_DIR": "/srv/cline", "CLINE_DATA_DIR": "/srv/cline-data"}
	for _, f := range []string{"/srv/cline/hooks/PreToolUse", "/srv/cline-data/settings/global-settings.json"} {
		if d := decideEditIn(t, f, env); d.Verdict != engine.Deny || !strings.Contains(d.Reason(), "is protected") {
			t.Errorf("editor %s with %v: %s %s, want a deny of a protected path", f, env, d.Verdict, d.Reason())
		}
	}
}

// decideEditIn decides, under the default policy, an edit of file by an
// agent in /p whose environment is env.
func decideEditIn(t *testing.T, file string, env map[string]string) engine.Decision {
	t.Helper()
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	call := engine.Call{Kind: engine.KindEdit, Tool: "Edit", Input: engine.Input{Path: file}, Cwd: "/p", Project: "/p",
		Home: "/tmp/e2e/home", Temp: "/tmp", AgentPaths: ConfigPaths(), FS: noFS{}, Getenv: func(k string) string { return env[k] }}
	return (&engine.Engine{Layers: &policy.Layers{User: p}}).Decide(call)
}
