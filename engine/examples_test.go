// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"guard/policy"
	"testing"
)

// TestDefaultPolicyExamples decides every example of the embedded default
// policy: the examples of a rule must get their verdict from that rule.
func TestDefaultPolicyExamples(t *testing.T) {
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Examples()) < 100 {
		t.Fatalf("the default policy has %d examples; expected more than 100", len(p.Examples()))
	}
	for _, err := range CheckExamples(p) {
		t.Error(err)
	}
}
