// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestNearest: a near miss (one edit, or two in a longer word; a swap of
// two neighbours is one) names what was meant; anything further names
// nothing, and a tie names each.
func TestNearest(t *testing.T) {
	verbs := []string{"hook", "check", "explain", "test", "lint", "init", "log", "run", "diff", "serve", "help", "version"}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"chek", []string{"check"}},
		{"chekc", []string{"check"}},
		{"Check", []string{"check"}},
		{"tset", []string{"test"}},
		{"lgo", []string{"log"}},
		{"rn", []string{"run"}},
		{"explian", []string{"explain"}},
		{"verison", []string{"version"}},
		{"hooks", []string{"hook"}},
		{"lnt", []string{"lint"}},
		{"int", []string{"lint", "init"}}, // a tie: both, in the order given
		// Too far to guess.
		{"frobnicate", nil},
		{"x", nil},
		{"chk", nil},
		{"", nil},
		{"check", []string{"check"}}, // itself
	} {
		got := nearest(tc.name, verbs)
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("nearest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTypoSuggestions: an unknown verb, sub-verb or flag near a known one
// is named with what was meant, on stderr, and the command line still
// fails with exit 2 (guard run's 125: it ran nothing); one far from every
// name gets no guess.
func TestTypoSuggestions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // a line of stderr
		not  string // not in stderr
	}{
		{[]string{"chek"}, "guard: did you mean guard check?", "usage:"},
		{[]string{"chek", "git status"}, "guard: did you mean guard check?", ""},
		{[]string{"int"}, "guard: did you mean guard lint or guard init?", ""},
		{[]string{"frobnicate"}, "usage:", "did you mean"},
		{[]string{"help", "chek"}, `guard help: no verb "chek": did you mean guard check?`, ""},
		{[]string{"grants", "lsit"}, `guard grants: unknown command "lsit": did you mean guard grants list?`, ""},
		{[]string{"log", "verfy"}, `guard log: unknown command "verfy": did you mean guard log verify?`, ""},
		{[]string{"check", "--jsn", "git status"}, "guard check: did you mean --json?", ""},
		{[]string{"check", "-jsno", "git status"}, "guard check: did you mean --json?", ""},
		{[]string{"check", "--jsn=true", "git status"}, "guard check: did you mean --json?", ""},
		{[]string{"run", "--profle", "test", "--", "true"}, "guard run: did you mean --profile?", ""},
		{[]string{"grants", "list", "--sesion", "x"}, "guard grants list: did you mean --session?", ""},
		{[]string{"check", "--frobnicate", "git status"}, "flag provided but not defined: -frobnicate", "did you mean"},
		{[]string{"hook", "--red-only"}, "guard: hint: did you mean --read-only?", ""},
	} {
		t.Logf("input: guard %q", tc.args)
		var out, errb bytes.Buffer
		err := run(context.Background(), tc.args, stdio{in: strings.NewReader(""), out: &out, err: &errb, start: time.Now()}, func(string) string { return "" })
		stderr := errb.String()
		want := 2
		if tc.args[0] == "run" {
			want = 125
		}
		if code := exitCode(err); code != want {
			t.Errorf("guard %q: exit %d, want %d", tc.args, code, want)
		}
		if !strings.Contains("\n"+stderr, "\n"+tc.want) {
			t.Errorf("guard %q: stderr does not say %q:\n%s", tc.args, tc.want, stderr)
		}
		if tc.not != "" && strings.Contains(stderr, tc.not) {
			t.Errorf("guard %q: stderr says %q:\n%s", tc.args, tc.not, stderr)
		}
		if out.Len() != 0 {
			t.Errorf("guard %q: stdout %q, want empty", tc.args, out.String())
		}
	}
}
