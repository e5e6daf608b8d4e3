// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestExitCode checks the map from a run's error to the process's exit
// code: an error that is not an exitError is a deny (2), never 0 or 1,
// which would let a hook's call run.
func TestExitCode(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{&exitError{code: 0}, 0},
		{&exitError{code: 1}, 1},
		{&exitError{code: 2, msg: "denied"}, 2},
		{fmt.Errorf("check: %w", &exitError{code: 1}), 1},

		// Not an exitError: a deny.
		{errors.New("encoding the decision: broken pipe"), 2},
		{fmt.Errorf("wrapped: %w", errors.New("plain")), 2},
		{deny("a denial that was never written"), 2},
		{context.Canceled, 2},
	}
	for _, tc := range tests {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%#v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// TestRunRecovers checks that a panic on run's own goroutine, in any verb,
// is a deny: exit 2 and an internal error on stderr. The panic comes from
// the environment, which guard check reads on run's goroutine, as guard
// hook does for --shell auto.
func TestRunRecovers(t *testing.T) {
	panicky := func(k string) string { panic("reading $" + k) }
	for _, args := range [][]string{
		{"check", "git status"},
		{"check", "--shell", "bash", "git status"},
		{"hook"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(context.Background(), args, stdio{in: strings.NewReader(hookTestCall(t.TempDir(), "git status")), out: &out, err: &errb, start: time.Now()}, panicky)
			if code := exitCode(err); code != 2 {
				t.Errorf("exit code %d, want 2 (error %v)", code, err)
			}
			if !strings.HasPrefix(errb.String(), "guard: denied: internal error: reading $") {
				t.Errorf("stderr %q, want an internal error deny", errb.String())
			}
			if out.Len() != 0 {
				t.Errorf("stdout %q, want empty", out.String())
			}
		})
	}
}

// TestCallShell checks the --shell flag of guard hook and guard check.
func TestCallShell(t *testing.T) {
	zsh := func(k string) string {
		if k == "SHELL" {
			return "/bin/zsh"
		}
		return ""
	}
	tests := []struct {
		flag    string
		want    string
		wantErr string
	}{
		{"bash", "bash", ""},
		{"zsh", "zsh", ""},
		{"auto", "zsh", ""}, // from $SHELL

		{"", "", `--shell "": want bash, zsh or auto`},
		{"sh", "", `--shell "sh": want bash, zsh or auto`},
		{"Bash", "", `--shell "Bash": want bash, zsh or auto`},
		{"/bin/bash", "", `--shell "/bin/bash": want bash, zsh or auto`},
	}
	for _, tc := range tests {
		got, err := callShell(tc.flag, "claude", zsh)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tc.want || gotErr != tc.wantErr {
			t.Errorf("callShell(%q) = %q, %q; want %q, %q", tc.flag, got, gotErr, tc.want, tc.wantErr)
		}
	}
}

// TestUsageSaidOnce: a bad command line says what is wrong and the verb's
// usage once each, with the verb named once on a line: no "guard init:
// guard init: ...", no usage repeated as the error.
func TestUsageSaidOnce(t *testing.T) {
	for _, args := range [][]string{
		{"diff", "a"},
		{"diff", "--x", "a", "b"},
		{"doctor", "x"},
		{"doctor", "--agent", "nope"},
		{"grants"},
		{"grants", "list", "x"},
		{"grants", "revoke"},
		{"grants", "revoke", "--x"},
		{"init", "x"},
		{"init", "--agent", "nope"},
		{"log", "x"},
		{"log", "--decision", "x"},
		{"log", "verify", "x"},
		{"serve", "x"},
		{"suggest", "x"},
		{"suggest", "--min", "0"},
		{"flags", "--agent", "claude", "x"},
		{"schema", "x"},
		{"version", "x"},
		{"help", "a", "b"},
		{"run"},
		{"shell"},
		{"shell", "-l", "-c", "x"},
		{"explain"},
		{"check", "a", "b"},
		{"test", "--x"},
	} {
		t.Logf("input: guard %q", args)
		var out, errb bytes.Buffer
		err := run(context.Background(), args, stdio{in: strings.NewReader(""), out: &out, err: &errb, start: time.Now()}, func(string) string { return "" })
		if code := exitCode(err); code != 2 && code != runFailed {
			t.Errorf("guard %q: exit %d, want 2 (or guard run's %d)", args, code, runFailed)
		}
		verb := "guard " + args[0]
		seen := map[string]bool{}
		for _, line := range strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n") {
			// (The usage is the verb's synopsis: guard log's names guard log verify.)
			if strings.Count(line, verb+" ")+strings.Count(line, verb+":") > 1 && !strings.HasPrefix(line, "usage: ") {
				t.Errorf("guard %q: the verb is named twice: %q", args, line)
			}
			// The line less who says it: the usage line and an error that
			// repeats it say the same.
			said := strings.TrimPrefix(line, "usage: ")
			if rest, ok := strings.CutPrefix(said, verb+": "); ok {
				said = rest
			}
			if seen[said] {
				t.Errorf("guard %q: said twice: %q", args, said)
			}
			seen[said] = true
		}
	}
}
