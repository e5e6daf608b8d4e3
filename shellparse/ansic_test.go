// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import "testing"

// The expected values were read from bash 5.2 with
// printf %s $'...' | od -An -tx1, in a UTF-8 locale.
func TestDecodeANSIC(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{`a%sb`, "a%sb", true},
		{`\a\b\e\E\f\n\r\t\v`, "\a\b\x1b\x1b\f\n\r\t\v", true},
		{`\\\'\"\?`, `\'"?`, true},
		{`\z\q\ `, `\z\q\ `, true},
		{`\cA\c?\c[x\ca\cz`, "\x01\x7f\x1bx\x01\x1a", true},
		{`\c\\x`, "\x1cx", true},
		{`\c`, `\c`, true},
		{`\101\0101`, "A\x081", true},
		{`\777\400\101`, "\xff", true}, // \400 is NUL: the part ends there
		{`\x\xg\x41\x414`, `\x\xgAA4`, true},
		{`\u\u41`, `\uA`, true},
		{`\U41`, "A", true},
		{`\u00e9`, "", false},
		{`\U1F600`, "", false},
		{`a\0b`, "a", true},
		{`\x00junk`, "", true},
		{`trailing\`, `trailing\`, true},
	} {
		got, ok := decodeANSIC(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("decodeANSIC(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
