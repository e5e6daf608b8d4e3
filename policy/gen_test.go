// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"bytes"
	"go/format"
	"os"
	"reflect"
	"testing"
)

// TestDefaultPolicyGenerated checks that default_policy.go, the Go form of
// the built-in policies that the binary uses, is what go generate ./policy
// writes, and that it holds what the TOML files say.
func TestDefaultPolicyGenerated(t *testing.T) {
	src, err := Generate(os.DirFS("."))
	if err == nil {
		src, err = format.Source(src)
	}
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
	b, err := builtinFiles(os.DirFS("."))
	if err != nil {
		t.Fatal(err)
	}
	pf, profiles := b.pf, b.profiles
	gen := defaultPolicyFile
	gen.Command = map[string]ruleFile{}
	for _, name := range defaultCommandNames {
		rf, ok := defaultCommand(name)
		if !ok {
			t.Fatalf("defaultCommand(%q) has no rule", name)
		}
		gen.Command[name] = expandLazy(rf)
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
	if len(b.packs) != len(Packs()) {
		t.Fatalf("%d packs decoded, want %d", len(b.packs), len(Packs()))
	}
	for name, ppf := range b.packs {
		got, ok := packFile(name)
		if !ok {
			t.Fatalf("packFile(%q) has no pack", name)
		}
		for cmd, rf := range got.Command {
			got.Command[cmd] = expandLazy(rf)
		}
		if !reflect.DeepEqual(ppf, &got) {
			t.Fatalf("the generated pack %q differs from packs/%s.toml", name, name)
		}
	}
	if _, ok := packFile("no-such-pack"); ok {
		t.Fatal("packFile returns a pack for a name there is none of")
	}
}

// expandLazy returns rf with its lazily built subcommands, at every level,
// in Sub, as decoding the TOML gives them.
func expandLazy(rf ruleFile) ruleFile {
	if rf.lazy != nil {
		rf.Sub = map[string]ruleFile{}
		for _, name := range rf.lazy.names {
			sub, ok := rf.lazy.get(name)
			if !ok {
				panic("a lazy subcommand " + name + " has no rule")
			}
			rf.Sub[name] = expandLazy(sub)
		}
		if _, ok := rf.lazy.get("no-such-subcommand"); ok {
			panic("a lazy source gives a rule for a name it does not list")
		}
		rf.lazy = nil
	}
	if rf.Rest != nil {
		rest := expandLazy(*rf.Rest)
		rf.Rest = &rest
	}
	return rf
}

// TestDefaultExampleLines: the binary does not carry default.toml, so the
// lines of its examples come from the generated table; they are the lines
// the TOML has them on.
func TestDefaultExampleLines(t *testing.T) {
	src, err := os.ReadFile("default.toml")
	if err != nil {
		t.Fatal(err)
	}
	ix := indexKeys(src)
	p, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	exs := p.Examples()
	if len(exs) < 100 {
		t.Fatalf("%d examples, want more than 100", len(exs))
	}
	for _, ex := range exs {
		want, _ := ix.pos(ex.key)
		if ex.Line != want || want == 0 {
			t.Errorf("example %q of %s: line %d, want %d", ex.Command, ex.Rule, ex.Line, want)
		}
	}
}
