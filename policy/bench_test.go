// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"os"
	"testing"
)

// BenchmarkCompileDefault measures building the default policy: "start" is
// what a hook pays (the tables, then the rules of git status && ls -la | wc -l), "all"
// compiles every rule from the generated Go form, and "toml" decodes the
// TOML source first, which guard avoids at run time.
func BenchmarkCompileDefault(b *testing.B) {
	src, err := os.ReadFile("default.toml")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("start", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p, err := compile("default", &defaultPolicyFile, defaultRules(), src)
			if err != nil {
				b.Fatal(err)
			}
			for _, name := range []string{"git", "ls", "wc"} {
				if _, err := p.Command(name); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p, err := compile("default", &defaultPolicyFile, defaultRules(), src)
			if err != nil {
				b.Fatal(err)
			}
			if errs := p.CompileAll(); len(errs) > 0 {
				b.Fatal(errs[0])
			}
		}
	})
	b.Run("toml", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			pf, err := decodeFile("default.toml", src)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := compile("default", pf, mapSource(pf.Command, true), src); err != nil {
				b.Fatal(err)
			}
		}
	})
}
