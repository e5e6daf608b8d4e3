// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package rules

import (
	"fmt"
	"strings"
	"testing"

	"guard/shellparse"
)

// The inputs repeat those of shellparse's BenchmarkParse: test code cannot
// be shared between the packages.

// benchTypical is a command of the kind an agent sends many times a session.
const benchTypical = "git -C sub log --oneline -5 | grep -v foo && cargo test --release -- --nocapture; ls -la | wc -l"

// benchSegments are commands an agent writes, which the default policy
// allows; %[1]d is a module number.
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

// benchScript is one level of benchNested: loops nested lim.MaxDepth deep
// around a cd, n more commands, and optionally bash -c with the next level.
// The cd makes every loop walk its body again from an unknown directory, so
// the commands are walked MaxDepth+1 times. Its words: cd x (2), n+1
// commands, bash -c SCRIPT (3).
func benchScript(lim shellparse.Limits, n int, inner string) string {
	var b strings.Builder
	b.WriteString(strings.Repeat("for CI; do ", lim.MaxDepth))
	b.WriteString("cd x;")
	b.WriteString(strings.Repeat("ls;", n))
	b.WriteString("ls")
	if inner != "" {
		b.WriteString(";bash -c ")
		b.WriteString(inner)
	}
	b.WriteString(strings.Repeat("; done", lim.MaxDepth))
	return b.String()
}

// benchQuote quotes the script of level (1, 2, 3) for bash -c in the level
// above it. Level 1 is single-quoted in level 0, level 2 double-quoted in
// level 1 (inside level 0's single quotes), and level 3 is a bare word with
// its spaces and semicolons escaped (which double quotes keep as they are).
func benchQuote(level int, s string) string {
	switch level {
	case 1:
		return "'" + s + "'"
	case 2:
		return `"` + s + `"`
	}
	return strings.NewReplacer(" ", `\ `, ";", `\;`).Replace(s)
}

// benchNested builds the script of level from the command counts ns[level:].
func benchNested(lim shellparse.Limits, ns []int, level int) string {
	inner := ""
	if level+1 < len(ns) && ns[level+1] >= 0 {
		inner = benchQuote(level+1, benchNested(lim, ns, level+1))
	}
	return benchScript(lim, ns[level], inner)
}

// benchWorst is the most expensive Bash call the bounds allow: benchScript
// at every level of bash -c that the policy follows (maxShellNesting). The
// levels share one word budget (MaxWords), so the outer levels hold one
// command each and the innermost, which every level above parses again as a
// quoted word, holds as many as the words and MaxBytes allow.
func benchWorst(lim shellparse.Limits) string {
	ns := make([]int, maxShellNesting+1)
	for i := range ns {
		ns[i] = 1
	}
	last := len(ns) - 1
	// Words: cd x (2), n+1 commands and bash -c SCRIPT (3) per level.
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
	lo, hi := 1, lim.MaxWords
	for lo < hi {
		mid := (lo + hi + 1) / 2
		ns[last] = mid
		if words() <= lim.MaxWords && len(benchNested(lim, ns, 0)) <= lim.MaxBytes {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	ns[last] = lo
	return benchNested(lim, ns, 0)
}

// benchLoops is benchWorst without bash -c: the most expensive input for
// shellparse.Parse alone.
func benchLoops(lim shellparse.Limits) string {
	return benchScript(lim, lim.MaxWords-3, "")
}

var benchInputs = []struct {
	name  string
	src   string
	allow bool // the default policy must allow it; else it must parse
}{
	{"typical", benchTypical, true},
	{"1KiB", benchLong(1 << 10), true},
	{"64KiB", benchLong(shellparse.DefaultLimits.MaxBytes), true},
	{"worst-loops", benchLoops(shellparse.DefaultLimits), false},
	{"worst", benchWorst(shellparse.DefaultLimits), false},
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
			if errs := p.compileAll(); len(errs) > 0 {
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
