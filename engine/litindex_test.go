// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"guard/policy"
)

// TestLitIndex: the candidates of a set of paths are every pattern whose
// literal one of them holds (checked against strings.Contains), in order,
// once each: for the default policy's secret patterns and random paths
// made of their pieces, and for short and empty literals.
func TestLitIndex(t *testing.T) {
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	var lits []string
	for _, pat := range p.SecretPaths() {
		lits = append(lits, policy.LiteralRun(pat))
	}
	lits = append(lits, "", "x", "ab", "ab")
	x := newLitIndex(lits)
	pieces := append(slices.Clone(lits), "/", "/home/u/", "src", ".", "-", "Z")
	r := rand.New(rand.NewPCG(1, 2))
	var buf []int32
	for range 20000 {
		var paths []string
		for range 1 + r.IntN(3) {
			var b strings.Builder
			for range r.IntN(5) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			paths = append(paths, b.String())
		}
		buf = x.candidates(paths, buf)
		if !slices.IsSorted(buf) || len(slices.Compact(slices.Clone(buf))) != len(buf) {
			t.Fatalf("%q: candidates %v not sorted and unique", paths, buf)
		}
		for k, l := range lits {
			holds := slices.ContainsFunc(paths, func(p string) bool { return strings.Contains(p, l) })
			if _, found := slices.BinarySearch(buf, int32(k)); holds && !found {
				t.Fatalf("%q holds literal %q of pattern %d, which is not a candidate (%v)", paths, l, k, buf)
			}
		}
	}
}
