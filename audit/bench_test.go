// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package audit

import (
	"os"
	"strings"
	"testing"
)

func BenchmarkAppend(b *testing.B) {
	l := &Log{Dir: b.TempDir()}
	e := entry("s1", 1)
	for b.Loop() {
		if err := l.Append(e); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRedact(b *testing.B) {
	source, err := os.ReadFile("verify.go")
	if err != nil {
		b.Fatal(err)
	}
	benchmarks := []struct{ name, in string }{
		{"command", "go test -race ./... && git status --short"},
		{"secret", "GITHUB_TOKEN=" + ghToken + " gh pr list --repo o/r"},
		{"source", strings.Repeat(string(source), 4)}, // more than Redact reads
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			for b.Loop() {
				Redact(bm.in)
			}
		})
	}
}
