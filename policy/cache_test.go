// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cachePolicies are policy files of every shape: the default policy as a
// file of its own, the profiles, the engine's valid fixtures, and small
// ones for the parts those lack.
func cachePolicies(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	names, _ := filepath.Glob("../engine/testdata/valid/*.toml")
	names = append(names, "default.toml")
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = src
	}
	for _, name := range []string{"readonly", "review", "refactor"} {
		out[name] = []byte(profileSource(name))
	}
	out["packs"] = []byte("version = 1\nextends = \"default\"\ninclude = [\"go\", \"python\"]\n[paths]\nwritable = []\n[command.ls]\nverdict = \"allow\"\nflags = []\n")
	out["empty"] = []byte("version = 1\ndefault = \"deny\"\n")
	return out
}

// TestCacheForm: a policy built from its cache form is the policy built
// from its source: the same file (CacheForm checks that itself), the same
// description, and every rule compiled to the same description.
func TestCacheForm(t *testing.T) {
	for name, src := range cachePolicies(t) {
		want, err := LoadUnchecked(name, bytes.NewReader(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		form, err := CacheForm(name, src)
		if err != nil {
			t.Fatalf("%s: CacheForm: %v", name, err)
		}
		got, err := LoadCacheForm(name, src, form)
		if err != nil {
			t.Fatalf("%s: LoadCacheForm: %v", name, err)
		}
		var wd, gd strings.Builder
		want.Describe(&wd)
		got.Describe(&gd)
		if wd.String() != gd.String() {
			t.Errorf("%s: described from the cache form:\n%s\nfrom the source:\n%s", name, gd.String(), wd.String())
		}
		if len(got.rules.names) != len(want.rules.names) {
			t.Errorf("%s: %d command rules from the cache form, %d from the source", name, len(got.rules.names), len(want.rules.names))
		}
		for _, cmd := range want.rules.names {
			wr, werr := want.Command(cmd)
			gr, gerr := got.Command(cmd)
			if (werr == nil) != (gerr == nil) || (wr == nil) != (gr == nil) {
				t.Errorf("%s: command %s: from the cache form %v, %v; from the source %v, %v", name, cmd, gr, gerr, wr, werr)
				continue
			}
			if wr != nil && describeNode(wr) != describeNode(gr) {
				t.Errorf("%s: command %s: from the cache form %q, from the source %q", name, cmd, describeNode(gr), describeNode(wr))
			}
		}
	}
}

// TestCacheFormDamaged: a form that is cut, reordered or altered does not
// load, and a rule whose JSON is damaged does not compile, so that a call
// naming it fails closed.
func TestCacheFormDamaged(t *testing.T) {
	src := []byte("version = 1\nextends = \"default\"\n[command.ls]\nverdict = \"deny\"\n[command.zz]\nverdict = \"allow\"\n")
	form, err := CacheForm("p", src)
	if err != nil {
		t.Fatal(err)
	}
	nl := bytes.IndexByte(form, '\n')
	for name, bad := range map[string][]byte{
		"no first line":   form[:nl],
		"cut":             form[:len(form)-3],
		"bytes after":     append(bytes.Clone(form), ' '),
		"header not json": append([]byte("["), form[1:]...),
		"names unsorted":  bytes.Replace(form, []byte(`"Names":["ls","zz"]`), []byte(`"Names":["zz","ls"]`), 1),
	} {
		if _, err := LoadCacheForm("p", src, bad); err == nil {
			t.Errorf("%s: the form loaded", name)
		}
	}
	// The rule of ls altered in place, its length kept.
	bad := bytes.Replace(form, []byte(`{"Verdict":"deny"}`), []byte(`{"Verdict":"deny"]`), 1)
	if bytes.Equal(bad, form) {
		t.Fatalf("ls's rule not found in the form %q", form)
	}
	p, err := LoadCacheForm("p", src, bad)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := p.Command("ls"); err == nil {
		t.Errorf("a damaged rule compiled: %v", describeNode(r))
	}
	if r, err := p.Command("zz"); err != nil || r == nil {
		t.Errorf("the undamaged rule: %v, %v", r, err)
	}
}

// TestCacheFormLossless: values that JSON would not give back the same
// (TOML's decoder refuses a string that is not UTF-8, but a file of Go
// values can hold one) make the form fail rather than stand for another
// policy.
func TestCacheFormLossless(t *testing.T) {
	pf := &policyFile{Version: 1, Default: "deny", Command: map[string]ruleFile{"ls": {Verdict: "allow", Reason: "\xff"}}}
	if _, err := encodeForm(pf); err == nil {
		t.Error("a string that is not UTF-8 went into a cache form")
	}
	pf.Command["ls"] = ruleFile{Verdict: "allow", Reason: "fine", Flags: []string{}}
	if _, err := encodeForm(pf); err != nil {
		t.Errorf("an empty list (not a missing one) did not go into a cache form: %v", err)
	}
}
