// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"testing"
)

// TestSeatbelt holds the macOS profile of a set of rules to
// testdata/seatbelt.sb, written by hand: a change to what it grants shows
// up here as a diff to review.
func TestSeatbelt(t *testing.T) {
	r := Rules{
		Read:    []string{"/usr", "/Users/u/proj/src", `/Users/u/proj/a "quoted" \ name`},
		Write:   []string{"/Users/u/proj/src", "/private/tmp"},
		List:    []string{"/Users/u/proj"},
		Devices: []string{"/dev/null"},
		Connect: []uint16{8080},
	}
	want, err := os.ReadFile("testdata/seatbelt.sb")
	if err != nil {
		t.Fatal(err)
	}
	if got := Seatbelt(r); got != string(want) {
		t.Errorf("Seatbelt:\n%s\nwant (testdata/seatbelt.sb):\n%s", got, want)
	}
}
