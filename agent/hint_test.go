// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"guard/engine"
	"guard/policy"
)

// TestAskCarriesHint: every agent's answer to an ask carries its hint,
// once: in the ask's reason where the agent asks its user, in the
// denial's hints where guard refuses what the agent cannot ask.
func TestAskCarriesHint(t *testing.T) {
	const hint = "run go vet instead"
	d := &engine.Decision{Verdict: engine.Ask, Leaves: []engine.Leaf{{Verdict: policy.Ask, Kind: "command", Text: "go test", Rule: "go",
		Why: "go test runs the project's code", Hint: hint}}}
	for name, ad := range Adapters() {
		ev := &Event{Name: "PreToolUse", Call: engine.Call{Tool: "Bash", Input: engine.Input{Command: "go test"}, Cwd: "/p"},
			Raw: map[string]any{"command": "go test"}}
		a := ad.Answer(ev, d, "policy p")
		var messages []string
		if len(a.Stdout) > 0 {
			var v any
			if err := json.Unmarshal(a.Stdout, &v); err != nil {
				t.Fatalf("%s: %s: %v", name, a.Stdout, err)
			}
			messages = stringsOf(v)
		}
		if a.Deny != nil {
			messages = append(append(messages, a.Deny.Why), a.Deny.Hints...)
		}
		found := false
		for _, m := range messages {
			n := strings.Count(m, hint)
			found = found || n > 0
			if n > 1 {
				t.Errorf("%s: the hint is in a message %d times: %q", name, n, m)
			}
		}
		// Where the agent shows the same message twice (Gemini CLI:
		// reason and systemMessage), each holds it once.
		if !found || a.Deny != nil && strings.Contains(a.Deny.Why, hint) && slices.Contains(a.Deny.Hints, hint) {
			t.Errorf("%s: the answer carries the hint %v, want once: %q", name, found, messages)
		}
	}
}

// stringsOf returns the strings in a JSON value.
func stringsOf(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case map[string]any:
		var out []string
		for _, x := range v {
			out = append(out, stringsOf(x)...)
		}
		return out
	case []any:
		var out []string
		for _, x := range v {
			out = append(out, stringsOf(x)...)
		}
		return out
	}
	return nil
}
