// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package cmdtsv

import (
	"strings"
	"testing"
)

// TestRoundTrip: an escaped command holds no character that breaks a line
// or a column, and reads back as it was.
func TestRoundTrip(t *testing.T) {
	for _, c := range []string{"ls", "printf 'a\tb\n'", "echo a\r\x00b", "cat <<EOF\nx\nEOF"} {
		e := Escape(c)
		if strings.ContainsAny(e, "\t\n\r\x00") {
			t.Errorf("Escape(%q) = %q: a raw character is left", c, e)
		}
		if got := Unescape(e); got != c {
			t.Errorf("Unescape(Escape(%q)) = %q", c, got)
		}
	}
	if got := Unescape("a⟨TAB⟩b⟨LF⟩c⟨CR⟩d⟨NUL⟩"); got != "a\tb\nc\rd\x00" {
		t.Errorf("Unescape of every marker = %q", got)
	}
}
