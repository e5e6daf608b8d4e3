// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"bytes"
	"os"
	"reflect"
	"testing"
)

// TestDefaultPolicyGenerated checks that default_policy.go, the Go form of
// the built-in policies that the binary uses, is what go generate ./policy
// writes, and that it holds what the TOML files say.
func TestDefaultPolicyGenerated(t *testing.T) {
	src, err := Generate(os.DirFS("."))
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile("default_policy.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(old, src) {
		t.Fatal("default_policy.go is stale: run go generate ./policy")
	}
	pf, profiles, err := builtinFiles(os.DirFS("."))
	if err != nil {
		t.Fatal(err)
	}
	gen := defaultPolicyFile
	gen.Command = map[string]ruleFile{}
	for _, name := range defaultCommandNames {
		rf, ok := defaultCommand(name)
		if !ok {
			t.Fatalf("defaultCommand(%q) has no rule", name)
		}
		gen.Command[name] = rf
	}
	if _, ok := defaultCommand("no-such-program"); ok {
		t.Fatal("defaultCommand returns a rule for a name the policy does not have")
	}
	if !reflect.DeepEqual(pf, &gen) {
		t.Fatal("the generated policy differs from default.toml")
	}
	for name, ppf := range profiles {
		got, ok := profileFile(name)
		if !ok || !reflect.DeepEqual(*ppf, got) {
			t.Fatalf("the generated profile %q differs from profiles/%s.toml", name, name)
		}
	}
}
