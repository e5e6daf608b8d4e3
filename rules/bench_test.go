// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package rules

import (
	"fmt"
	"testing"

	"guard/bench/input"
	"guard/shellparse"
)

var benchBounds = input.Bounds{
	MaxBytes:     shellparse.DefaultLimits.MaxBytes,
	MaxDepth:     shellparse.DefaultLimits.MaxDepth,
	MaxWords:     shellparse.DefaultLimits.MaxWords,
	ShellNesting: maxShellNesting,
}

var benchInputs = []struct {
	name  string
	src   string
	allow bool // the default policy must allow it; else it must parse
}{
	{"typical", input.Typical, true},
	{"1KiB", input.Long(1 << 10), true},
	{"64KiB", input.Long(shellparse.DefaultLimits.MaxBytes), true},
	{"worst-loops", input.Loops(benchBounds), false},
	{"worst", input.Worst(benchBounds), false},
}

func benchCall(cmd string) Call {
	return Call{Tool: "Bash", Input: map[string]any{"command": cmd}, Cwd: "/project", Project: "/project", Home: "/home/user"}
}

func BenchmarkDecide(b *testing.B) {
	p, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	for _, in := range benchInputs {
		b.Run(in.name, func(b *testing.B) {
			call := benchCall(in.src)
			d := p.Decide(call)
			// A leaf of kind input is a parse error, at any level of bash -c;
			// a deny means a level was not followed.
			for _, l := range d.Leaves {
				if l.Kind == "input" || l.Verdict == Deny {
					b.Fatalf("input of %d bytes: %s leaf %q: %s", len(in.src), l.Verdict, firstLine(l.Text), l.Why)
				}
			}
			if in.allow && d.Verdict != Allow {
				b.Fatalf("input of %d bytes: want allow, got %s: %s", len(in.src), d.Verdict, d.Reason())
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(in.src)))
			for b.Loop() {
				p.Decide(call)
			}
		})
	}
}

// BenchmarkCompileDefault measures building the default policy: "start" is
// what a hook pays (the tables, then the rules its command names), "all"
// compiles every rule from the generated Go form, and "toml" decodes the
// TOML source first, which guard avoids at run time.
func BenchmarkCompileDefault(b *testing.B) {
	src := []byte(defaultPolicySource)
	call := Call{Tool: "Bash", Input: map[string]any{"command": "git status && ls -la | wc -l"}, Cwd: "/project", Project: "/project"}
	b.Run("start", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p, err := compile("default", &defaultPolicyFile, defaultRules(), src)
			if err != nil {
				b.Fatal(err)
			}
			if d := p.Decide(call); d.Verdict != Allow {
				b.Fatalf("%s: %s", d.Verdict, d.Reason())
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

// BenchmarkDecideSize decides realistic commands of growing size, up to
// the bound, to show how the cost grows.
func BenchmarkDecideSize(b *testing.B) {
	p, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{1 << 10, 4 << 10, 16 << 10, 32 << 10, shellparse.DefaultLimits.MaxBytes} {
		src := input.Long(size)
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			call := benchCall(src)
			if d := p.Decide(call); d.Verdict != Allow {
				b.Fatalf("%d bytes: want allow, got %s: %s", len(src), d.Verdict, d.Reason())
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				p.Decide(call)
			}
		})
	}
}
