// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzCommands are decided with every policy FuzzPolicy loads.
var fuzzCommands = []string{
	"git status", "git log --oneline -5 | head", "rm -rf /", "echo $(id)", "ls > out",
	"timeout 5 make test", "bash -c 'cat x'", "X=1 cargo test -- --nocapture", "find . -exec wc -l {} +",
}

// FuzzPolicy loads random policies. Properties:
//   - Load never panics, and returns a policy or an error, never both or
//     neither; an error names the policy;
//   - a policy that loads decides commands and tools without panicking,
//     and an allow is a positive match of every leaf;
//   - its examples get their verdicts (Load checked them);
//   - the same source with an unknown table added does not load: a typo
//     is never a silent no-op.
func FuzzPolicy(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*.toml")
	files = append(files, filepath.Join("..", "policy", "default.toml"), filepath.Join("..", ".claude", "guard.toml"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("version = 1\ndefault = \"deny\"\n[command.x]\nverdict = \"allow\"\nflags = [\"-a\"]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := Load("fuzz.toml", bytes.NewReader(src))
		if (p == nil) == (err == nil) {
			t.Fatalf("Load returned policy %v and error %v", p != nil, err)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.toml") {
				t.Fatalf("the error does not name the policy: %v", err)
			}
			return
		}
		for _, cmd := range fuzzCommands {
			d := Decide(p, ExampleCall(cmd))
			if d.Verdict == Allow {
				for _, l := range d.Leaves {
					if l.Verdict != Allow || l.Rule == "" {
						t.Fatalf("%q is allowed, but leaf %+v is not a positive match", cmd, l)
					}
				}
			}
		}
		for _, tool := range []string{"Read", "Write", "mcp__x__y", "Teleport"} {
			Decide(p, Call{Tool: tool, Input: Input{}, Cwd: "/project"})
		}
		if errs := CheckExamples(p); len(errs) > 0 {
			t.Fatalf("Load accepted a policy whose examples fail: %v", errs[0])
		}
		typo := append(bytes.Clone(src), "\n[zz_not_a_table]\nx = 1\n"...)
		if _, err := Load("fuzz.toml", bytes.NewReader(typo)); err == nil {
			t.Fatal("a policy with an unknown table loaded")
		}
	})
}
