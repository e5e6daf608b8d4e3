// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import "testing"

// TestTierReadOnly pins what read-only mode offers, the one definition
// that the engine (of a call's kind) and package guard (of a tool) ask:
// reading, listing, searching, and the agent's own tools.
func TestTierReadOnly(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"read", true},
		{"list", true},
		{"search", true},
		{"internal", true},

		{"deny", false},
		{"ask", false},
		{"allow", false}, // a tool allowed whatever its input may write
		{"session", false},
		{"shell", false}, // only where the policy says read_only_shell
		{"write", false},
		{"edit", false},
		{"fetch", false},
	} {
		tier, ok := TierNamed(tc.name)
		if !ok || tier.String() != tc.name {
			t.Errorf("TierNamed(%q) = %v, %v", tc.name, tier, ok)
		}
		if got := tier.ReadOnly(); got != tc.want {
			t.Errorf("%s: ReadOnly() = %v, want %v", tc.name, got, tc.want)
		}
	}
	if n := len(tierNames); n != 12 {
		t.Errorf("%d tiers, the table has 12: add the new one", n)
	}
	if tier, ok := TierNamed("paths"); ok || tier.ReadOnly() {
		t.Errorf("TierNamed(paths) = %v, %v", tier, ok)
	}
}
