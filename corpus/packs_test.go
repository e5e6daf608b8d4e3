// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package corpus

import (
	"guard/engine"
	"guard/policy"
	"slices"
	"testing"
)

// TestPacksKeepDenies: a pack never allows what the default policy denies.
// With each pack included, and with all of them, every deny case of the
// corpus (decided by its own profile and packs, with the pack added) is
// still denied by the same rule, and every deny example of the default
// policy still denied.
func TestPacksKeepDenies(t *testing.T) {
	_, cases := corpusCases(t)
	var denies []Case
	for _, c := range cases {
		if c.Want == engine.Deny {
			denies = append(denies, c)
		}
	}
	def, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range def.Examples() {
		if ex.Want == engine.Deny {
			denies = append(denies, Case{File: "default", Line: ex.Line, Command: ex.Command, Want: ex.Want}) // an example says its verdict, not the deciding rule
		}
	}
	if len(denies) < 400 {
		t.Fatalf("%d deny cases and examples: too few to say much", len(denies))
	}
	sets := [][]string{policy.Packs()}
	for _, name := range policy.Packs() {
		sets = append(sets, []string{name})
	}
	for _, packs := range sets {
		failed := 0
		for _, c := range denies {
			c.Packs = append(slices.Clone(c.Packs), packs...)
			if slices.ContainsFunc(c.Packs[:len(c.Packs)-len(packs)], func(p string) bool { return slices.Contains(packs, p) }) {
				continue // the case includes the pack itself
			}
			if _, err := Check(nil, c); err != nil {
				failed++
				if failed <= 10 {
					t.Errorf("with %v: %v", packs, err)
				}
			}
		}
		if failed > 10 {
			t.Errorf("with %v: %d more", packs, failed-10)
		}
	}
}
