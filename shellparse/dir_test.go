// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"strings"
	"testing"
)

// cdTests: where each command of the source runs, as far as cd tells:
// "unknown", or the possible directories relative to the start, joined
// with "|".
var cdTests = []struct {
	src  string
	want []string // one per command, in order
}{
	{"cd sub && ls", []string{".", "sub"}},
	{"cd sub || ls", []string{".", "."}},
	{"cd sub; ls", []string{".", ".|sub"}},
	// ! swaps success and failure: ls after && runs when cd failed.
	{"! cd sub && ls", []string{".", "."}},
	{"! cd sub || ls", []string{".", "sub"}},
	{"! { ! cd sub; } && ls", []string{".", "sub"}},
	// A later pass of a loop starts where the body's cd left it.
	{"for x in a b; do ls; cd sub; done", []string{"unknown", "unknown"}},
	{"for x in a b; do cd sub; ls; done", []string{"unknown", "unknown"}},
	{"while true; do ls; cd sub; done", []string{"unknown", "unknown", "unknown"}},
	{"for x in a b; do ls; done; cd sub && ls", []string{".", ".", "sub"}},
	{"if cd sub; then ls; else pwd; fi", []string{".", "sub", "."}},
	{"cd a/b && cd .. && ls", []string{".", "a/b", "a/b/.."}}, // kept as written: a/b may be a link
}

func TestCdDirs(t *testing.T) {
	for _, tc := range cdTests {
		s, err := Parse(tc.src, Options{})
		if err != nil {
			t.Errorf("input: %q: %v", tc.src, err)
			continue
		}
		var got []string
		for _, c := range s.Commands {
			if !c.Dir.Known() {
				got = append(got, "unknown")
				continue
			}
			got = append(got, strings.Join(c.Dir.Paths, "|"))
		}
		if strings.Join(got, " ; ") != strings.Join(tc.want, " ; ") {
			t.Errorf("input: %q\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
}
