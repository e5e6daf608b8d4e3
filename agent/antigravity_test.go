// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"strings"
	"testing"

	"guard/engine"
)

// TestAntigravity: golden tests from Antigravity's published protocol
// (guard has not run against agy).
func TestAntigravity(t *testing.T) {
	in := `{"session_id":"a1","hook_event_name":"PreToolUse","cwd":"/p","tool_name":"run_command","tool_input":{"CommandLine":"git status","Cwd":"/p"}}`
	if got := Detect([]byte(in)); got != "antigravity" {
		t.Errorf("Detect = %q, want antigravity", got)
	}
	ev, err := Antigravity{}.Decode([]byte(in))
	if err != nil || ev.Call.Kind != engine.KindShell || ev.Call.Input.Command != "git status" || ev.Call.Cwd != "/p" || ev.Session != "a1" {
		t.Fatalf("Decode: %+v, %v", ev, err)
	}
	if _, err := (Antigravity{}).Decode([]byte(`{"hook_event_name":"PreToolUse","cwd":"/p","tool_name":"run_command","tool_input":{"CommandLine":7}}`)); err == nil {
		t.Error("a CommandLine that is not a string was read")
	}
	allow := &engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{{Verdict: engine.Allow, Kind: "command", Text: "git status", Why: "git status is allowed"}}}
	for _, tc := range []struct {
		name   string
		d      *engine.Decision
		stdout string
		deny   string
	}{
		{"allow", allow, `{"decision":"allow"}` + "\n", ""},
		{"ask", &engine.Decision{Verdict: engine.Ask, Leaves: []engine.Leaf{{Verdict: engine.Ask, Kind: "command", Rule: "make", Why: "make needs approval"}}},
			`{"decision":"ask","reason":"guard (p): needs approval: make needs approval (rule make)"}` + "\n", ""},
		{"deny", &engine.Decision{Verdict: engine.Deny, Leaves: []engine.Leaf{{Verdict: engine.Deny, Kind: "command", Rule: "rm", Why: "rm -r deletes directories"}}}, "", "rm -r deletes directories"},
		{"rewrite", &engine.Decision{Verdict: engine.Allow, Leaves: allow.Leaves, Rewrite: &engine.Input{Command: "'/g' 'run' -- bash -c 'git status'"}},
			`{"decision":"allow","overwrite":{"CommandLine":"'/g' 'run' -- bash -c 'git status'"}}` + "\n", ""},
	} {
		a := Antigravity{}.Answer(ev, tc.d, "p")
		switch {
		case tc.deny != "":
			if a.Deny == nil || a.Stdout != nil || !strings.Contains(a.Deny.Why, tc.deny) {
				t.Errorf("%s: %+v", tc.name, a)
			}
		case a.Deny != nil || string(a.Stdout) != tc.stdout:
			t.Errorf("%s: %s (%+v), want %s", tc.name, a.Stdout, a.Deny, tc.stdout)
		}
	}
}
