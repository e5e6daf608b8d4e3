// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"testing"

	"guard/bench/input"
)

var benchInputs = []struct {
	name      string
	src       string
	realistic bool // plain commands: no findings
}{
	{"typical", input.Typical, true},
	{"1KiB", input.Long(1 << 10), true},
	{"64KiB", input.Long(Defaults().MaxBytes), true},
	{"worst", input.Loops(input.Bounds{MaxBytes: Defaults().MaxBytes, MaxDepth: Defaults().MaxDepth, MaxWords: Defaults().MaxWords}), false},
}

func BenchmarkParse(b *testing.B) {
	for _, in := range benchInputs {
		b.Run(in.name, func(b *testing.B) {
			s, err := Parse(in.src, Options{})
			if err != nil {
				b.Fatalf("input of %d bytes does not parse: %v", len(in.src), err)
			}
			if in.realistic && len(s.Findings) > 0 {
				b.Fatalf("realistic input has findings: %v", s.Findings[0])
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(in.src)))
			for b.Loop() {
				if _, err := Parse(in.src, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
