// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHelpEveryVerb: -h and --help, on every verb and sub-verb, print the
// verb's usage on stdout and exit 0, having done nothing else, even with
// no HOME to find state in. guard hook is the exception: an agent whose
// hook command holds --help must be denied, so its help goes to stderr
// after a deny line, and it exits 2.
func TestHelpEveryVerb(t *testing.T) {
	type helpCase struct {
		args  []string // the verb; -h or --help follows
		usage string   // the help's first line starts so
	}
	tests := []helpCase{
		{[]string{"hook"}, "usage: guard hook "},
		{[]string{"check"}, "usage: guard check "},
		{[]string{"explain"}, "usage: guard explain "},
		{[]string{"flags"}, "usage: guard flags "},
		{[]string{"test"}, "usage: guard test "},
		{[]string{"lint"}, "usage: guard lint "},
		{[]string{"suggest"}, "usage: guard suggest "},
		{[]string{"diff"}, "usage: guard diff "},
		{[]string{"serve"}, "usage: guard serve "},
		{[]string{"run"}, "usage: guard run "},
		{[]string{"shell"}, "usage: guard shell "},
		{[]string{"init"}, "usage: guard init "},
		{[]string{"doctor"}, "usage: guard doctor "},
		{[]string{"grants"}, "usage: guard grants "},
		{[]string{"grants", "list"}, "usage: guard grants list"},
		{[]string{"grants", "revoke"}, "usage: guard grants revoke"},
		{[]string{"log"}, "usage: guard log "},
		{[]string{"log", "verify"}, "usage: guard log verify"},
		{[]string{"schema"}, "usage: guard schema"},
		{[]string{"version"}, "usage: guard version"},
		{[]string{"help"}, "usage: guard help "},
	}
	for _, c := range commands {
		if !slices.ContainsFunc(tests, func(tc helpCase) bool { return tc.args[0] == c.name }) {
			t.Errorf("verb %s: no case", c.name)
		}
	}
	noEnv := func(string) string { return "" }
	for _, tc := range tests {
		for _, h := range []string{"-h", "--help", "-help"} {
			args := append(slices.Clone(tc.args), h)
			t.Logf("input: guard %s", strings.Join(args, " "))
			var out, errb bytes.Buffer
			err := run(context.Background(), args, stdio{in: strings.NewReader(""), out: &out, err: &errb, start: time.Now()}, noEnv)
			code := exitCode(err)
			help, other := out.String(), errb.String()
			wantCode := 0
			if tc.args[0] == "hook" {
				wantCode = 2
				help, other = strings.TrimPrefix(errb.String(), "guard: denied: guard hook decides no call with -h or --help: its help follows\n\n"), out.String()
				if help == errb.String() {
					t.Errorf("guard %s: stderr %q, want a deny line first", strings.Join(args, " "), errb.String())
				}
			}
			if code != wantCode || !strings.HasPrefix(help, tc.usage) || other != "" {
				t.Errorf("guard %s: exit %d, help %q, other stream %q; want exit %d, help starting %q, nothing else",
					strings.Join(args, " "), code, help, other, wantCode, tc.usage)
			}
		}
	}
}
