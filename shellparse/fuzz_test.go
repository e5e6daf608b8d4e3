// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzParse checks Parse's contract on any input:
//   - it never panics;
//   - an error comes with no script, and a script with no error;
//   - every simple command that an independent walk of the syntax tree finds
//     is in the script, and nothing else is;
//   - every finding is of a known kind;
//   - a constant word, quoted back into shell and parsed again, resolves to
//     the same string (the resolver and the shell agree on quoting).
func FuzzParse(f *testing.F) {
	for _, tc := range parseTests {
		f.Add(tc.src)
	}
	for _, tc := range errorTests {
		if len(tc.src) < 1000 {
			f.Add(tc.src)
		}
	}
	for _, src := range corpusCommands(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse(src, Options{})
		if err != nil {
			if s != nil {
				t.Fatalf("error %v came with a script", err)
			}
			return
		}
		if s == nil {
			t.Fatal("no error and no script")
		}
		file, perr := syntax.NewParser().Parse(strings.NewReader(src), "")
		if perr != nil {
			t.Fatalf("Parse accepted what the parser rejects: %v", perr)
		}
		calls := 0
		syntax.Walk(file, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CallExpr:
				if len(n.Args) > 0 {
					calls++
				}
			case *syntax.BinaryCmd:
				// After a pipe, a bare time is the program /usr/bin/time:
				// a simple command the tree has no CallExpr for.
				tc, ok := n.Y.Cmd.(*syntax.TimeClause)
				if !ok || n.Op != syntax.Pipe && n.Op != syntax.PipeAll {
					break
				}
				if tc.Stmt == nil {
					calls++
				} else if c, ok := tc.Stmt.Cmd.(*syntax.CallExpr); ok && len(c.Args) == 0 {
					calls++ // time A=1: the assignment is the program's argument
				}
			}
			return true
		})
		if calls != len(s.Commands) {
			t.Fatalf("the syntax tree has %d simple commands, the script %d:\n%s", calls, len(s.Commands), s)
		}
		for _, fd := range s.Findings {
			if !slices.Contains(AllKinds(), fd.Kind) {
				t.Fatalf("unknown finding kind %q", fd.Kind)
			}
		}
		for _, c := range s.Commands {
			if len(c.Args) == 0 {
				t.Fatal("a command without words")
			}
			for _, w := range c.Args {
				checkRoundTrip(t, w)
			}
		}
	})
}

// checkRoundTrip quotes a constant word and parses it back.
func checkRoundTrip(t *testing.T, w Word) {
	if !w.Constant() || w.Tilde || w.Value == "" {
		return
	}
	q, err := syntax.Quote(w.Value, syntax.LangBash)
	if err != nil {
		return // NUL cannot be quoted; Parse rejects it anyway
	}
	s, err := Parse("echo "+q, Options{})
	if err != nil {
		return // the quoted form may hold characters Parse refuses, such as CR
	}
	if len(s.Commands) != 1 || len(s.Commands[0].Args) != 2 {
		t.Fatalf("quoted word %q parsed as %s", q, s)
	}
	got := s.Commands[0].Args[1]
	if got.Dynamic == "ANSI-C escape of a non-ASCII character" {
		return // quoted with \u, which depends on the locale
	}
	if !got.Constant() || got.Value != w.Value {
		t.Fatalf("word %q quoted as %q resolves to %+v", w.Value, q, got)
	}
}

// corpusCommands returns the commands of the behaviour corpus, as seeds.
func corpusCommands(f *testing.F) []string {
	files, _ := filepath.Glob(filepath.Join("..", "testcases", "*.toml"))
	var out []string
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if v, ok := strings.CutPrefix(line, "command = '"); ok && strings.HasSuffix(v, "'") && !strings.HasPrefix(v, "''") {
				out = append(out, strings.TrimSuffix(v, "'"))
			}
		}
	}
	return out
}
