// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"testing"

	"guard/policy"
)

// TestReadOnlyKind: read-only mode allows the kinds whose tier
// policy.Tier.ReadOnly calls read-only, and a tool only by its tier; each
// kind is named after the tier that makes a tool's call of it.
func TestReadOnlyKind(t *testing.T) {
	for _, tc := range []struct {
		kind Kind
		tier policy.Tier
		want bool
	}{
		{KindRead, policy.TierDeny, true},
		{KindList, policy.TierDeny, true},
		{KindSearch, policy.TierDeny, true},
		{KindShell, policy.TierDeny, false},
		{KindWrite, policy.TierDeny, false},
		{KindEdit, policy.TierDeny, false},
		{KindFetch, policy.TierDeny, false},
		{"future", policy.TierDeny, false},

		{KindTool, policy.TierInternal, true},
		{KindTool, policy.TierAllow, false},
		{KindTool, policy.TierSession, false},
		{KindTool, policy.TierDeny, false},
	} {
		if got := readOnlyKind(tc.kind, tc.tier); got != tc.want {
			t.Errorf("readOnlyKind(%s, %s) = %v, want %v", tc.kind, tc.tier, got, tc.want)
		}
	}
	for _, k := range []Kind{KindShell, KindRead, KindWrite, KindEdit, KindList, KindSearch, KindFetch} {
		tier, ok := policy.TierNamed(string(k))
		if !ok || kindOf(tier) != k {
			t.Errorf("kind %s: tier %v, %v, whose kind is %s", k, tier, ok, kindOf(tier))
		}
	}
}
