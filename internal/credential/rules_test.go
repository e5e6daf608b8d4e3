// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package credential

import (
	"fmt"
	"testing"
)

func TestCompileErrors(t *testing.T) {
	rule := func(body string) string {
		return "[[rule]]\nid = \"r\"\nkind = \"a test token\"\n" + body + "\n"
	}
	for _, tc := range []struct {
		src, err string
	}{
		{"", "no rules"},
		{rule("keywords = [\"t_\"]\nregex = 't_[0-9]{4}'\ncolour = 1"), `unknown key "rule.colour"`},
		{rule("keywords = [\"t_\"]\nregex = 't_[0-9]{4}'") + rule("keywords = [\"t_\"]\nregex = 't_[0-9]{4}'"), `rule "r": a second rule has this id`},
		{rule("regex = 't_[0-9]{4}'"), `rule "r": no keywords`},
		{rule("keywords = [\"t\"]\nregex = 't_[0-9]{4}'"), `rule "r": keyword "t": shorter than 2 bytes`},
		{rule("keywords = [\"t_\"]\nregex = 't_[0-9'"), "rule \"r\": error parsing regexp: missing closing ]: `[0-9`"},
		{rule("keywords = [\"t_\"]\nregex = 'u_[0-9]{4}'"), `rule "r": a match need not hold a keyword within a bounded distance of its start`},
		{rule("keywords = [\"t_\"]\nregex = '(?i)t_[0-9]{4}'"), `rule "r": a match need not hold a keyword within a bounded distance of its start`}, // T_ too: needs fold
		{rule("keywords = [\"_t\"]\nregex = '[a-z]+_t'"), `rule "r": a match need not hold a keyword within a bounded distance of its start`},
		{rule("keywords = [\"t_\"]\nregex = 't_[0-9]{4}|u_[0-9]{4}'"), `rule "r": a match need not hold a keyword within a bounded distance of its start`},
		{rule("keywords = [\"tok\"]\nregex = 'tok[0-9]{4}'"), `keyword "tok" has none of the bytes "~_-.AK" to search for`},
		{rule("keywords = [\"tA\"]\nfold = true\nregex = '(?i)ta[0-9]{4}'"), `keyword "tA" has none of the bytes "~_-.AK" to search for`},
		{rule("keywords = [\"t_\"]\nregex = 't_[0-9]{4}'\nallow = ['(']"), "rule \"r\": allow: error parsing regexp: missing closing ): `(`"},
		{rule("keywords = [\"t_\"]\nregex = 't_[0-9]{4}'\nentropy = -1.0"), `rule "r": entropy -1 is not a number of bits`},
	} {
		_, err := compile([]byte(tc.src))
		if fmt.Sprint(err) != tc.err {
			t.Errorf("input: %q\nerror: %v\nwant:  %s", tc.src, err, tc.err)
		}
	}
}

// TestBefore: how far into a match its keyword may begin, for the rules
// whose keyword is not at the start of every match; 0 for the others.
func TestBefore(t *testing.T) {
	want := map[string]int{
		"azure-ad-client-secret": 5,    // a delimiter, 3 characters, a digit
		"hashicorp-tf-api-token": 42,   // 14 of (?i)[a-z0-9], up to 3 bytes each (U+212A for k)
		"jwt":                    1002, // ey and up to 1000 characters before .ey
		"maxmind-license-key":    36,   // 6 characters, _, 29 characters
		"sidekiq-sensitive-url":  26,   // https://, 8 hex digits, :, 8 hex digits, with U+017F for s
		"slack-webhook-url":      8,    // https://
		"private-key":            0,    // -----BEGIN (ignoring case)
		"aws-access-token":       0,    // A3T, AKIA, ASIA, ABIA, ACCA after \b
		"openai-api-key":         0,    // sk-
	}
	s, err := compile(rulesTOML)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range s.rules {
		if r.before != want[r.id] {
			t.Errorf("rule %s: before = %d, want %d", r.id, r.before, want[r.id])
		}
	}
}

func TestRuneStart(t *testing.T) {
	for _, tc := range []struct {
		text string
		i    int
		want bool
	}{
		{"ab", 1, true},
		{"é", 1, false},        // inside a two-byte encoding
		{"☃x", 1, false},       // inside a three-byte one
		{"☃x", 2, false},       //
		{"☃x", 3, true},        // after it
		{"\xe2\x98x", 1, true}, // a cut encoding is one rune per byte
		{"\x98\x83x", 1, true}, // so are continuation bytes alone
		{"é\x83", 2, true},     // one after a whole rune
	} {
		if got := runeStart([]byte(tc.text), tc.i); got != tc.want {
			t.Errorf("runeStart(%q, %d) = %v, want %v", tc.text, tc.i, got, tc.want)
		}
	}
}

func TestEntropy(t *testing.T) {
	for _, tc := range []struct {
		text string
		want float64
	}{
		{"", 0},
		{"aaaa", 0},
		{"abab", 1},
		{"abcd", 2},
		{"0123456789abcdef", 4},
	} {
		if got := entropy([]byte(tc.text)); got != tc.want {
			t.Errorf("entropy(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		if _, err := compile(rulesTOML); err != nil {
			b.Fatal(err)
		}
	}
}
