// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"errors"
	"guard/policy"
	"strings"
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

// TestLoadExampleError: a policy whose example gets another verdict does
// not load, and the error is a *policy.Error at the example's line.
func TestLoadExampleError(t *testing.T) {
	src := "version = 1\ndefault = \"ask\"\n[command.ls]\nverdict = \"allow\"\nflags = [\"-l\", \"-a\"]\nexamples = { deny = [\"ls -la\"] }\n"
	_, err := Load("p.toml", strings.NewReader(src))
	var pe *policy.Error
	if !errors.As(err, &pe) {
		t.Fatalf("Load: %v (%T), want a *policy.Error", err, err)
	}
	if pe.File != "p.toml" || pe.Line != 6 || pe.Rule != "ls" || !strings.Contains(pe.Msg, `example "ls -la": want deny, got allow`) {
		t.Errorf("error %+v, want p.toml line 6, rule ls, the example's verdicts", pe)
	}
}

// TestPackExamples decides every example of every pack, each pack included
// over the default policy and all of them together: a pack's examples are
// the including policy's, and must get their verdicts from its rules.
func TestPackExamples(t *testing.T) {
	check := func(packs ...string) {
		src := "version = 1\nextends = \"default\"\ninclude = [\"" + strings.Join(packs, "\", \"") + "\"]\n"
		p, err := policy.LoadUnchecked("p.toml", strings.NewReader(src))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, ex := range p.Examples() {
			if ex.File == "" {
				t.Errorf("packs %v: example %q of %s is not a pack's", packs, ex.Command, ex.Rule)
			}
			n++
		}
		if n < 3*len(packs) {
			t.Errorf("packs %v: %d examples", packs, n)
		}
		for _, err := range CheckExamples(p) {
			t.Errorf("packs %v: %v", packs, err)
		}
	}
	for _, name := range policy.Packs() {
		check(name)
	}
	check(policy.Packs()...)
}
