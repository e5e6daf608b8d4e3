// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package input builds the Bash commands that guard's benchmarks measure:
// a typical agent command, long chains of realistic ones, and the most
// expensive inputs that guard's bounds let through. The benchmarks of
// shellparse and rules and bench/hookbench share them, so that the figures
// of each are for the same inputs.
package input

import (
	"fmt"
	"strings"
)

// Typical is a command of the kind an agent sends many times a session.
const Typical = "git -C sub log --oneline -5 | grep -v foo && cargo test --release -- --nocapture; ls -la | wc -l"

// segments are commands an agent writes, which the default policy allows;
// %[1]d is a module number. Their paths keep the bytes per word high enough
// that 64 KiB of them stays within the word bound.
var segments = []string{
	"git -C services/billing log --oneline -5 -- src/components/module_%04[1]d/lib.rs | head -20",
	"grep -rn 'fn handler_%04[1]d' src/components/module_%04[1]d/ | wc -l",
	"ls -la src/components/module_%04[1]d/",
	"cat src/components/module_%04[1]d/README.md | head -n 40",
	"wc -l src/components/module_%04[1]d/*.rs",
	"git diff --stat HEAD~1 -- src/components/module_%04[1]d/ | tail -n 5",
	"rg -n --type rust 'TODO|FIXME' src/components/module_%04[1]d | sort | uniq -c | sort -rn | head",
	"find src/components/module_%04[1]d -name '*.rs' -type f -exec wc -l {} + | sort -n | tail -3",
	"go test -run TestHandler%04[1]d ./internal/module_%04[1]d/... 2>&1 | tail -n 30",
	"cargo test --release -p module_%04[1]d -- --nocapture",
	"jq -r '.name' config/module_%04[1]d.json",
	"diff -u src/components/module_%04[1]d/a.rs src/components/module_%04[1]d/b.rs | head -50",
}

// Long chains realistic commands with ;, && and newlines into the longest
// command of at most max bytes.
func Long(max int) string {
	seps := []string{" && ", "; ", "\n"}
	var b strings.Builder
	for i := 0; ; i++ {
		seg := fmt.Sprintf(segments[i%len(segments)], i)
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

// Bounds are the limits the worst inputs fill: shellparse.Defaults()
// and the nesting of bash -c that rules follows.
type Bounds struct {
	MaxBytes, MaxDepth, MaxWords int
	ShellNesting                 int
}

// script is loops nested depth deep around cd x, n more commands, and
// optionally bash -c with an inner script. The cd makes the walker treat
// every loop as one that changes directory. Its words: cd x (2), n+1
// commands, bash -c SCRIPT (3).
func script(depth, n int, inner string) string {
	var b strings.Builder
	b.WriteString(strings.Repeat("for CI; do ", depth))
	b.WriteString("cd x;")
	b.WriteString(strings.Repeat("ls;", n))
	b.WriteString("ls")
	if inner != "" {
		b.WriteString(";bash -c ")
		b.WriteString(inner)
	}
	b.WriteString(strings.Repeat("; done", depth))
	return b.String()
}

// Loops is the most expensive input for the parser alone: loops nested as
// deep as allowed around cd x and as many one-word commands as the word
// bound allows.
func Loops(b Bounds) string {
	return script(b.MaxDepth, b.MaxWords-3, "")
}

// quote quotes the script of level 1, 2 or 3 for bash -c in the level
// above: single quotes, then double quotes inside them, then a bare word
// with escaped spaces and semicolons.
func quote(level int, s string) string {
	switch level {
	case 1:
		return "'" + s + "'"
	case 2:
		return `"` + s + `"`
	}
	return strings.NewReplacer(" ", `\ `, ";", `\;`).Replace(s)
}

func nested(depth int, ns []int, level int) string {
	inner := ""
	if level+1 < len(ns) {
		inner = quote(level+1, nested(depth, ns, level+1))
	}
	return script(depth, ns[level], inner)
}

// Worst is the most expensive Bash call the bounds allow: Loops at every
// level of bash -c that guard follows. The levels share one word bound, so
// the outer levels hold one command each and the innermost, which every
// level above parses again as a quoted word, holds as many as the words and
// the byte bound allow.
func Worst(b Bounds) string {
	ns := make([]int, b.ShellNesting+1)
	for i := range ns {
		ns[i] = 1
	}
	last := len(ns) - 1
	words := func() int {
		total := 0
		for i, n := range ns {
			total += 2 + n + 1
			if i < last {
				total += 3
			}
		}
		return total
	}
	lo, hi := 1, b.MaxWords
	for lo < hi {
		mid := (lo + hi + 1) / 2
		ns[last] = mid
		if words() <= b.MaxWords && len(nested(b.MaxDepth, ns, 0)) <= b.MaxBytes {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	ns[last] = lo
	return nested(b.MaxDepth, ns, 0)
}
