// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package corpus

import (
	"bytes"
	"os"
	"testing"

	"guard/engine"
	"guard/policy"
)

// TestCacheFormDecides decides every case of the corpus with the default
// policy loaded as a file of the user's twice, from its source and from
// its cache form (what a hook loads when the file has not changed): each
// decision must be the same, verdict, reason and sandbox.
func TestCacheFormDecides(t *testing.T) {
	src, err := os.ReadFile("../policy/default.toml")
	if err != nil {
		t.Fatal(err)
	}
	const name = "/home/u/.config/guard/guard.toml"
	fromSource, err := engine.Load(name, bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	form, err := policy.CacheForm(name, src)
	if err != nil {
		t.Fatal(err)
	}
	fromForm, err := policy.LoadCacheForm(name, src, form)
	if err != nil {
		t.Fatal(err)
	}
	_, cases := corpusCases(t)
	n := 0
	for _, c := range cases {
		if c.Profile != "" || len(c.Packs) > 0 {
			continue // decided by a built-in policy, not the file
		}
		call, err := c.Call()
		if err != nil {
			continue
		}
		want := engine.DecideLayers(&policy.Layers{User: fromSource}, call)
		got := engine.DecideLayers(&policy.Layers{User: fromForm}, call)
		n++
		if got.Verdict != want.Verdict || got.Reason() != want.Reason() || (got.Rewrite == nil) != (want.Rewrite == nil) {
			t.Errorf("%s:%d: %q: from the cache form %s (%s), from the source %s (%s)", c.File, c.Line, c.Command, got.Verdict, got.Reason(), want.Verdict, want.Reason())
		}
	}
	if n < len(cases)/2 {
		t.Fatalf("only %d of %d cases decided", n, len(cases))
	}
}
