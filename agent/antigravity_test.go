// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"guard/engine"
)

// antigravityInput is a PreToolUse input in the shape published for agy
// 1.0 and 1.1 (guard has not run against agy): protojson, no event name.
const antigravityInput = `{"conversationId":"c-1","stepIdx":3,"toolCall":{"name":"run_command","args":{"CommandLine":"git status","Cwd":"/p/sub","SafeToAutoRun":true}},"transcriptPath":"/h/.gemini/t.jsonl","workspacePaths":["/p"],"artifactDirectoryPath":"/h/.gemini/a"}`

// TestAntigravityDecode: run_command is a shell call in its Cwd, else the
// first workspace path; other tools are judged by name; inputs that are
// not agy's, or that guard cannot judge, are denied.
func TestAntigravityDecode(t *testing.T) {
	if got := Detect([]byte(antigravityInput)); got != "antigravity" {
		t.Errorf("Detect = %q, want antigravity", got)
	}
	ev, err := Antigravity{}.Decode([]byte(antigravityInput))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Name != "PreToolUse" || ev.Call.Kind != engine.KindShell || ev.Call.Input != (engine.Input{Command: "git status"}) || ev.Call.Cwd != "/p/sub" || ev.Session != "c-1" {
		t.Errorf("decoded %s %+v", ev.Name, ev.Call)
	}
	noCwd := strings.Replace(antigravityInput, `,"Cwd":"/p/sub"`, "", 1)
	if ev, err := (Antigravity{}).Decode([]byte(noCwd)); err != nil || ev.Call.Cwd != "/p" {
		t.Errorf("without Cwd: %+v, %v; want the workspace /p", ev, err)
	}
	view := `{"conversationId":"c","toolCall":{"name":"view_file","args":{"AbsolutePath":"/h/.ssh/id_rsa"}},"workspacePaths":["/p"]}`
	if ev, err := (Antigravity{}).Decode([]byte(view)); err != nil || ev.Call.Kind != engine.KindTool || ev.Call.Tool != "view_file" {
		t.Errorf("view_file: %+v, %v; want a tool call judged by its name", ev, err)
	}
	for _, bad := range []string{
		// Claude Code's shape, sent to --agent antigravity by mistake.
		`{"session_id":"a1","hook_event_name":"PreToolUse","cwd":"/p","tool_name":"run_command","tool_input":{"CommandLine":"git status"}}`,
		`{"toolCall":{"name":"run_command","args":{"CommandLine":"ls"}}}`,
		`{"toolCall":{"name":"run_command","args":{"CommandLine":"ls","Cwd":"p"}},"workspacePaths":["/p"]}`,
		`{"toolCall":{"name":"run_command","args":{"CommandLine":7}},"workspacePaths":["/p"]}`,
		`{"toolCall":{"name":"run_command","args":{}},"workspacePaths":["/p"]}`,
		`{"toolCall":{"name":"run_command","args":"ls"},"workspacePaths":["/p"]}`,
		`{"toolCall":{"name":""},"workspacePaths":["/p"]}`,
		`{"toolCall":{"args":{}},"workspacePaths":["/p"]}`,
		`{"toolCall":null,"workspacePaths":["/p"]}`,
	} {
		if ev, err := (Antigravity{}).Decode([]byte(bad)); err == nil {
			t.Errorf("%s: decoded %+v, want a denial", bad, ev.Call)
		}
	}
}

// TestAntigravityAnswer: every verdict is JSON agy reads; an ask is
// force_ask, which agy's always-allow list cannot answer; a deny carries
// guard's reason and hint.
func TestAntigravityAnswer(t *testing.T) {
	ev, err := Antigravity{}.Decode([]byte(antigravityInput))
	if err != nil {
		t.Fatal(err)
	}
	allow := &engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{{Verdict: engine.Allow, Kind: "command", Text: "git status", Why: "git status is allowed"}}}
	for _, tc := range []struct {
		name   string
		d      *engine.Decision
		stdout string
	}{
		{"allow", allow, `{"decision":"allow","reason":"guard (p): allowed: git status is allowed"}`},
		{"ask", &engine.Decision{Verdict: engine.Ask, Leaves: []engine.Leaf{{Verdict: engine.Ask, Kind: "command", Rule: "make", Why: "make needs approval"}}},
			`{"decision":"force_ask","reason":"guard (p): needs approval: make needs approval (rule make)"}`},
		{"deny", &engine.Decision{Verdict: engine.Deny, Leaves: []engine.Leaf{{Verdict: engine.Deny, Kind: "command", Rule: "rm", Why: "rm -r deletes directories", Hint: "use git rm"}}},
			`{"decision":"deny","reason":"guard: denied: rm -r deletes directories (rule rm, p)\nguard: hint: use git rm"}`},
		{"rewrite", &engine.Decision{Verdict: engine.Allow, Leaves: allow.Leaves, Rewrite: &engine.Input{Command: "'/g' 'run' -- bash -c 'git status'"}},
			`{"decision":"allow","reason":"guard (p): allowed: git status is allowed","overwrite":{"CommandLine":"'/g' 'run' -- bash -c 'git status'"}}`},
	} {
		a := Antigravity{}.Answer(ev, tc.d, "p")
		var v map[string]any
		if a.Deny != nil || string(a.Stdout) != tc.stdout+"\n" || json.Unmarshal(a.Stdout, &v) != nil {
			t.Errorf("%s: %s (%+v), want %s", tc.name, a.Stdout, a.Deny, tc.stdout)
		}
	}
	// A rewrite of another tool's input cannot be said: a deny.
	view, err := Antigravity{}.Decode([]byte(`{"toolCall":{"name":"view_file","args":{}},"workspacePaths":["/p"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if a := (Antigravity{}).Answer(view, &engine.Decision{Verdict: engine.Allow, Leaves: allow.Leaves, Rewrite: &engine.Input{Command: "x"}}, "p"); a.Deny == nil {
		t.Errorf("rewrite of view_file: %+v, want a deny", a)
	}
}
