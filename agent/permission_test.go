// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"guard/engine"
)

// TestPermissionRequest: the PermissionRequest inputs Claude Code 2.1.332
// and Codex 0.169.0 sent decode as their calls, and each verdict gets the
// answer that agent takes: a deny refuses, with guard's reason and hint;
// Codex approves what guard allows as it is; everything else is left to
// the agent's own approval (no output, exit 0).
func TestPermissionRequest(t *testing.T) {
	allow := engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{{Verdict: engine.Allow, Kind: "command", Text: "touch m", Why: "touch is allowed"}}}
	ask := engine.Decision{Verdict: engine.Ask, Leaves: []engine.Leaf{{Verdict: engine.Ask, Kind: "command", Text: "touch m", Why: "touch needs approval", Rule: "touch"}}}
	deny := engine.Decision{Verdict: engine.Deny, Leaves: []engine.Leaf{{Verdict: engine.Deny, Kind: "command", Text: "rm -r x", Why: "rm -r is not allowed", Hint: "use git rm", Rule: "rm"}}}
	rewritten := allow
	rewritten.Rewrite = &engine.Input{Command: "'/g' 'run' -- bash --noprofile --norc -c 'touch m'"}
	const denied = `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"guard: denied: rm -r is not allowed (rule rm, policy p)\nguard: hint: use git rm"}}}` + "\n"
	const approved = `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}` + "\n"
	for _, tc := range []struct {
		golden  string
		adapter Adapter
		command string
		answers map[engine.Verdict]string // "" is no output
	}{
		{"claude/permissionrequest-bash.json", Claude{}, "touch marker", map[engine.Verdict]string{engine.Allow: "", engine.Ask: "", engine.Deny: denied}},
		{"codex/permissionrequest-bash.json", Codex{}, "touch escalated-marker", map[engine.Verdict]string{engine.Allow: approved, engine.Ask: "", engine.Deny: denied}},
	} {
		ev, err := tc.adapter.Decode(readGolden(t, tc.golden))
		if err != nil {
			t.Fatalf("%s: %v", tc.golden, err)
		}
		if ev.Name != "PermissionRequest" || ev.Call.Tool != "Bash" || ev.Call.Input != (engine.Input{Command: tc.command}) || ev.Call.Cwd != "/tmp/e2e/proj" || ev.Session == "" {
			t.Errorf("%s: decoded %s %+v", tc.golden, ev.Name, ev.Call)
		}
		for _, d := range []engine.Decision{allow, ask, deny, rewritten} {
			want := tc.answers[d.Verdict]
			if d.Rewrite != nil {
				want = "" // it would run otherwise than asked
			}
			a := tc.adapter.Answer(ev, &d, "policy p")
			if a.Deny != nil || string(a.Stdout) != want || a.Silent != (want == "") {
				t.Errorf("%s, %s (rewrite %v): answer %+v (%s), want %q", tc.golden, d.Verdict, d.Rewrite != nil, a, a.Stdout, want)
			}
			if want != "" {
				var v map[string]any
				if err := json.Unmarshal(a.Stdout, &v); err != nil {
					t.Errorf("%s: %q is not JSON: %v", tc.golden, a.Stdout, err)
				}
			}
		}
	}
	// A reason with what JSON must escape reads back as it was (invalid
	// UTF-8 made U+FFFD).
	odd := deny
	odd.Leaves = []engine.Leaf{{Verdict: engine.Deny, Kind: "command", Text: "x", Why: "a \"q\" \\ <x> & \u2028 \xff"}}
	var got struct {
		H struct {
			Event    string `json:"hookEventName"`
			Decision struct {
				Behavior, Message string
			} `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	a := permissionAnswer(&odd, "p", true)
	if err := json.Unmarshal(a.Stdout, &got); err != nil {
		t.Fatal(err)
	}
	if want := strings.ToValidUTF8("guard: denied: "+Reason(&odd, "p"), "\ufffd"); got.H.Event != "PermissionRequest" || got.H.Decision.Behavior != "deny" || got.H.Decision.Message != want {
		t.Errorf("odd reason: %s; want the message %q", a.Stdout, want)
	}
}
