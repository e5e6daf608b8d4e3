// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"testing"

	"guard/bench/input"
	"guard/policy"
	"guard/shellparse"
)

var benchBounds = input.Bounds{
	MaxBytes:     shellparse.Defaults().MaxBytes,
	MaxDepth:     shellparse.Defaults().MaxDepth,
	MaxWords:     shellparse.Defaults().MaxWords,
	ShellNesting: maxShellNesting,
}

var benchInputs = []struct {
	name  string
	src   string
	allow bool // the default policy must allow it; else it must parse
}{
	{"typical", input.Typical, true},
	{"1KiB", input.Long(1 << 10), true},
	{"64KiB", input.Long(shellparse.Defaults().MaxBytes), true},
	{"worst-loops", input.Loops(benchBounds), false},
	{"worst", input.Worst(benchBounds), false},
}

func benchCall(cmd string) Call {
	return Call{Tool: "Bash", Input: Input{Command: cmd}, Cwd: "/project", Project: "/project", Home: "/home/user"}
}

func BenchmarkDecide(b *testing.B) {
	p, err := policy.Default()
	if err != nil {
		b.Fatal(err)
	}
	for _, in := range benchInputs {
		b.Run(in.name, func(b *testing.B) {
			call := benchCall(in.src)
			d := Decide(p, call)
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
				Decide(p, call)
			}
		})
	}
}

// BenchmarkDecideSize decides realistic commands of growing size, up to
// the bound, to show how the cost grows.
func BenchmarkDecideSize(b *testing.B) {
	p, err := policy.Default()
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{1 << 10, 4 << 10, 16 << 10, 32 << 10, shellparse.Defaults().MaxBytes} {
		src := input.Long(size)
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			call := benchCall(src)
			if d := Decide(p, call); d.Verdict != Allow {
				b.Fatalf("%d bytes: want allow, got %s: %s", len(src), d.Verdict, d.Reason())
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Decide(p, call)
			}
		})
	}
}
