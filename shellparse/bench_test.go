// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"fmt"
	"strings"
	"testing"
)

// benchTypical is a command of the kind an agent sends many times a session.
const benchTypical = "git -C sub log --oneline -5 | grep -v foo && cargo test --release -- --nocapture; ls -la | wc -l"

// benchSegments are commands an agent writes, which the default policy
// allows; %[1]d is a module number. They are chained into long realistic
// inputs. Their paths keep the bytes per word high enough that 64 KiB of
// them stays within MaxWords.
var benchSegments = []string{
	"git -C services/billing log --oneline -5 -- src/components/module_%04[1]d/lib.rs | head -20",
	"grep -rn 'fn handler_%04[1]d' src/components/module_%04[1]d/ | wc -l",
	"ls -la src/components/module_%04[1]d/",
	"cat src/components/module_%04[1]d/README.md | head -n 40",
	"wc -l src/components/module_%04[1]d/*.rs",
	"git diff --stat HEAD~1 -- src/components/module_%04[1]d/ | tail -n 5",
	"rg -n --type rust 'TODO|FIXME' src/components/module_%04[1]d | sort | uniq -c | sort -rn | head",
	"find src/components/module_%04[1]d -name '*.rs' -type f | xargs wc -l | sort -n | tail -3",
	"go test -run TestHandler%04[1]d ./internal/module_%04[1]d/... 2>&1 | tail -n 30",
	"cargo test --release -p module_%04[1]d -- --nocapture",
	"jq -r '.name' config/module_%04[1]d.json",
	"diff -u src/components/module_%04[1]d/a.rs src/components/module_%04[1]d/b.rs | head -50",
}

// benchLong chains benchSegments with ;, && and newlines into the longest
// command of at most max bytes.
func benchLong(max int) string {
	seps := []string{" && ", "; ", "\n"}
	var b strings.Builder
	for i := 0; ; i++ {
		seg := fmt.Sprintf(benchSegments[i%len(benchSegments)], i)
		sep := ""
		if i > 0 {
			sep = seps[i%len(seps)]
		}
		if b.Len()+len(sep)+len(seg) > max {
			return b.String()
		}
		b.WriteString(sep)
		b.WriteString(seg)
	}
}

// benchWorst is the most expensive input the limits let through: loops
// nested lim.MaxDepth deep around cd x and one-word commands up to
// lim.MaxWords words. The cd makes every loop walk its body a second time
// from an unknown directory, so the innermost commands are walked
// MaxDepth+1 times. One more loop or word is over a limit.
func benchWorst(lim Limits) string {
	const loop, end = "for CI; do ", "; done"
	// cd x is 2 words; each ls is 1.
	return strings.Repeat(loop, lim.MaxDepth) + "cd x;" +
		strings.Repeat("ls;", lim.MaxWords-3) + "ls" + strings.Repeat(end, lim.MaxDepth)
}

var benchInputs = []struct {
	name      string
	src       string
	realistic bool // plain commands: no findings
}{
	{"typical", benchTypical, true},
	{"1KiB", benchLong(1 << 10), true},
	{"64KiB", benchLong(DefaultLimits.MaxBytes), true},
	{"worst", benchWorst(DefaultLimits), false},
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
