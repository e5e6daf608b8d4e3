// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sedCases are scripts with whether guard reads them as only reading
// their input and writing standard output.
var sedCases = []struct {
	script string
	ok     bool
}{
	{"p", true},
	{"10,20p", true},
	{"1d", true},
	{"$!N", true},
	{"s/a/b/g", true},
	{"s|/usr|/opt|2", true},
	{"s/a/b/gI", true},
	{"s/x/y/ ; p", true},
	{"/^#/d;s/ *$//", true},
	{"0~3p", true},
	{"/start/,/end/{s/x/y/;p}", true},
	{"/A/I,+2d", true},
	{`\%/x%p`, true},
	{":a;N;$!ba;s/\\n/ /g", true},
	{"y/abc/xyz/", true},
	{"1!G;h;$!d", true},
	{"l 5", true},
	{"q5", true},
	{"=", true},
	{"a hello; w out", true}, // the text runs to the end of the line: no w command
	{"i\\\nfoo", true},
	{"1{p;};p", true},
	{"s/[/]w out/X/", true},           // the w is inside the bracket expression
	{"s/x[[:space:]/]w out/y/", true}, // so is this one
	{"#n\np", true},
	{"s/a/b/\n# w out", true},
	{"v 4.2", true},
	{"F", true},
	{"s/a/\\\nb/", true},

	{"w out", false},
	{"W out", false},
	{"1w out", false},
	{"s/a/b/w out", false},
	{"s/a/b/ w out", false},
	{"s/a/b/gw out", false},
	{"s/a/b/pw out", false},
	{"s/x/y/e", false},
	{"s/x/y/ge", false},
	{"e touch pwned", false},
	{"1e touch pwned", false},
	{"e", false},
	{"r /etc/passwd", false},
	{"R /etc/passwd", false},
	{"$r secret", false},
	{"p;w out", false},
	{"{p};w out", false},
	{"a\\\n", true},
	{"a\n1w out", false},     // a with no text on its line: the next line is a command
	{"a\\\\\n1w out", false}, // a\\ then a newline: the text ends there
	{"a foo\\\nw out", true}, // an escaped newline goes on with the text
	{"s/[/]/x/;w out", false},
	{"s/a/b/;#\nw out", false},
	{"/x/!w out", false},
	{"1~2w out", false},
	{"s/a/b/}", false}, // sed rejects it: guard too
	{"}", false},
	{"{p", false},
	{"s/a/b", false},
	{"s/[a/b/", false},
	{"k", false},
	{"s/a/b/\rw out", false},
	{"1!!p", false},
	// A range's second address, well formed or not.
	{"1,$p", true},
	{"1,+2p", true},
	{"1,~4p", true},
	{"/a/,/b/Ip", true},
	{"1, 3p", true},
	{"1,p", false},    // sed: unexpected `,'
	{"1,pp", false},   // the same: the first p is not an address
	{"1,/x", false},   // sed: unterminated address regex
	{"1,2,3p", false}, // sed: unknown command: `,'
	{"1,+p", false},   // sed takes it for +0; guard refuses what it cannot read
	{"1,/x/w out", false},
	{"$,/x/!w out", false},
	{"#a\n:", false},
}

// sedPieces are the pieces random scripts are made of.
var sedPieces = []string{
	"p", ";", "\n", "\\", "\\\n", " ", "{", "}", "!", "1", ",", "$", "~2", "+1", "/x/", "\\%x%", "[/]", "[", "]", "[:alpha:]",
	"s/a/b/", "s/[/]/", "s|x|y|g", "/", "|", "a ", "a\\", "i\\\n", "c foo", "y/ab/cd/", ":l", "b l", "t", "#", "#n",
	"w out", "W out", "e touch pwned", "r secret", "R secret", "e", "w", "I", "M", "g", "2", "q", "l", "=", "N", "D",
}

func TestSedProgram(t *testing.T) {
	for _, tc := range sedCases {
		err := sedProgram(tc.script)
		if (err == nil) != tc.ok {
			t.Errorf("%q: %v, want ok %v", tc.script, err, tc.ok)
		}
	}
}

// TestSedProgramReal runs every script guard reads as harmless through the
// real GNU sed, in bubblewrap with a scratch directory, the scripts as
// they are and after each other (-e) with a script that would write: no
// file may appear, no command may run, and the secret may not be read.
func TestSedProgramReal(t *testing.T) {
	sed, err := exec.LookPath("sed")
	if err != nil {
		sed = ""
	}
	dir, in, secret := scratchWorld(t, sed, "a/b\nline2\nstart\nx y\nend\n", "the-secret-7c1e\n")
	run := func(t *testing.T, scripts ...string) string {
		t.Helper()
		args := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--bind", dir, dir,
			"--unshare-all", "--die-with-parent", "--chdir", dir, "--", sed, "-n"}
		for _, s := range scripts {
			args = append(args, "-e", s)
		}
		out, _ := exec.Command("bwrap", append(args, in)...).CombinedOutput()
		return string(out)
	}
	var ok []string
	for _, tc := range sedCases {
		if sedProgram(tc.script) == nil {
			ok = append(ok, tc.script)
		}
	}
	// And scripts put together from pieces that sit on the edges of
	// sed's grammar, each with a way to write, run or read at hand.
	rng := rand.New(rand.NewPCG(1, 2))
	generated := 0
	for range 4000 {
		var b strings.Builder
		for range 1 + rng.IntN(5) {
			b.WriteString(sedPieces[rng.IntN(len(sedPieces))])
		}
		if s := b.String(); sedProgram(s) == nil && generated < 100 {
			ok = append(ok, s)
			generated++
		}
	}
	check := func(t *testing.T, out string, scripts ...string) {
		t.Helper()
		ents, _ := os.ReadDir(dir)
		if len(ents) != 2 || strings.Contains(out, "the-secret") {
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
				if e.Name() != "in.txt" && e.Name() != "secret" {
					os.RemoveAll(filepath.Join(dir, e.Name()))
				}
			}
			t.Errorf("sed %q, which guard allows, made %v or read the secret: %q", scripts, names, out)
		}
	}
	for _, s := range ok {
		check(t, run(t, s), s)
		// After each other: guard joins -e scripts with a newline, as sed
		// reads them. A script whose text goes on (a\ at its end) takes
		// the next one as text, and guard allows that: sed must agree.
		for _, w := range []string{"w out", "r " + secret, "e touch pwned"} {
			if sedProgram(s+"\n"+w) == nil {
				check(t, run(t, s, w), s, w)
			}
		}
	}
	// The scripts guard refuses do what guard says they would, at least
	// for the ones whose harm shows: they make a file or read the secret.
	for _, s := range []string{"w out", "s/a/b/w out", "a\n1w out", "a\\\\\n1w out", "1e touch pwned", "s/x/y/ge"} {
		out := run(t, strings.ReplaceAll(s, "pwned", "pwned"))
		ents, _ := os.ReadDir(dir)
		made := len(ents) > 2
		for _, e := range ents {
			if e.Name() != "in.txt" && e.Name() != "secret" {
				os.RemoveAll(filepath.Join(dir, e.Name()))
			}
		}
		if !made && s != "s/x/y/ge" {
			t.Errorf("sed %q made no file (%q): the case does not show what guard refuses", s, out)
		}
	}
}
