// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"guard/engine"
	"guard/policy"
)

// runExplain prints how guard reads a call: each simple command with
// where it sits and runs, each word as the rule it was matched against
// read it, what every check added to the verdict, and the leaf that
// decided.
func runExplain(_ context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("explain", s)
	asJSON := fs.Bool("json", false, "print the explanation as JSON")
	color := fs.String("color", "auto", "colour the verdicts: `when` is auto (on a terminal, unless NO_COLOR is set), always or never")
	cf := newCallFlags(fs)
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil {
		return &exitError{code: 2}
	}
	var paint bool
	switch *color {
	case "always":
		paint = true
	case "never":
	case "auto":
		paint = env("NO_COLOR") == "" && isTerminal(s.out)
	default:
		return usageError(s, "explain", "--color %q: want auto, always or never", *color)
	}
	call, layers, err := cf.call(s, env, "explain", fs.Args())
	if err != nil {
		return err
	}
	if p, ok := pathArg(call, *cf.tool, *cf.input, fs.Args()); ok && !*asJSON {
		return explainPath(s.out, layers, call, p)
	}
	call.Explain = true
	e := engine.Engine{Layers: layers}
	d := e.Decide(call)
	if *asJSON {
		shell := ""
		if d.Kind == engine.KindShell {
			shell = cmpOr(call.Shell, "bash and zsh")
		}
		err = printJSON(s, layers, &d, shell)
	} else {
		err = printExplanation(s.out, layers, &call, &d, paint)
	}
	if err != nil {
		return err
	}
	return verdictExit(d.Verdict)
}

// pathArg returns the path that guard explain's one argument names, with
// ~ expanded: an argument that starts with /, ~/, ./ or ../, holds no
// blank, and is not a program. guard explain PATH says what guard lets
// tools do with the file.
func pathArg(call engine.Call, tool, input string, args []string) (string, bool) {
	if tool != "Bash" || input != "" || len(args) != 1 {
		return "", false
	}
	a := args[0]
	if strings.ContainsAny(a, " \t\n") || !slices.ContainsFunc([]string{"/", "~/", "./", "../"}, func(p string) bool { return strings.HasPrefix(a, p) }) {
		return "", false
	}
	if rest, ok := strings.CutPrefix(a, "~/"); ok {
		if call.Home == "" {
			return "", false
		}
		a = filepath.Join(call.Home, rest)
	}
	if !filepath.IsAbs(a) {
		a = filepath.Join(call.Cwd, a)
	}
	if fi, err := os.Stat(a); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
		return "", false // a program: explain runs it as a command
	}
	return filepath.Clean(a), true
}

// explainPath prints what guard lets a tool do with a path: read it
// (Read, and cat in the shell) and write it, and for a secret the entry
// of the catalogue that holds it.
func explainPath(w io.Writer, layers *policy.Layers, call engine.Call, p string) error {
	e := engine.Engine{Layers: layers}
	b := &strings.Builder{}
	fmt.Fprintf(b, "policy: %s\npath: %s\n", layers.Name(), p)
	verdicts := map[string]engine.Verdict{}
	for _, k := range []struct {
		what string
		kind engine.Kind
		tool string
	}{{"read", engine.KindRead, "Read"}, {"write", engine.KindWrite, "Write"}} {
		c := call
		c.Kind, c.Tool, c.Input = k.kind, k.tool, engine.Input{Path: p, Command: ""}
		d := e.Decide(c)
		verdicts[k.what] = d.Verdict
		fmt.Fprintf(b, "%s: %s: %s\n", k.what, d.Verdict, oneLine(d.Reason()))
		if k.kind != engine.KindRead {
			continue
		}
		pat, ok := strings.CutPrefix(d.Deciding().Rule, "paths.secret ")
		if !ok {
			continue
		}
		for _, pol := range layers.Policies() {
			if sec, ok := pol.SecretOf(pat); ok {
				fmt.Fprintf(b, "secret: %s (%s), the catalogue's entry %q, by the pattern %s\n", sec.Tool, sec.Holds, sec.Name, pat)
				if sec.Docs != "" {
					fmt.Fprintf(b, "docs: %s\n", sec.Docs)
				}
				break
			}
		}
		fmt.Fprintf(b, "every tool's read of it is refused, in every mode and profile, and guard run does not show it\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return verdictExit(verdicts["read"])
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// shellJudged says which shell a call's command was judged for.
func shellJudged(shell string) string {
	switch shell {
	case "bash":
		return "bash, the agent's shell"
	case "zsh":
		return "zsh, the agent's shell: read as bash reads it, and refused where zsh reads it differently"
	}
	return "not known: read as bash reads it, and refused where zsh reads it differently"
}

type painter bool

func (p painter) verdict(v engine.Verdict) string {
	s := v.String()
	if !p {
		return s
	}
	code := "31" // deny: red
	switch v {
	case engine.Allow:
		code = "32"
	case policy.Session, engine.Ask:
		code = "33"
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p painter) bold(s string) string {
	if !p {
		return s
	}
	return "\x1b[1m" + s + "\x1b[0m"
}

func printExplanation(w io.Writer, layers *policy.Layers, call *engine.Call, d *engine.Decision, paint bool) error {
	p := painter(paint)
	b := &strings.Builder{}
	mode := ""
	if d.ReadOnly {
		mode = " (read-only mode)"
	}
	fmt.Fprintf(b, "policy: %s%s\n", layers.Name(), mode)
	if d.Kind == engine.KindShell {
		fmt.Fprintf(b, "shell: %s\n", shellJudged(call.Shell))
	}
	fmt.Fprintf(b, "verdict: %s: %s\n", p.verdict(d.Verdict), oneLine(d.Reason()))
	if h := d.Hint(); h != "" {
		fmt.Fprintf(b, "hint: %s\n", oneLine(h))
	}
	if d.Rewrite != nil {
		fmt.Fprintf(b, "runs as: %s\n", d.Rewrite.Command)
	}
	deciding := -1
	for i, l := range d.Leaves {
		if l.Verdict == d.Verdict {
			deciding = i
			break
		}
	}
	for i, l := range d.Leaves {
		b.WriteString("\n")
		head := l.Kind
		if l.Pos.Line > 0 {
			head += " at " + l.Pos.String()
		}
		fmt.Fprintf(b, "%s: %s  %s", head, p.bold(oneLine(l.Text)), p.verdict(l.Verdict))
		if i == deciding && d.Verdict != engine.Allow {
			b.WriteString("  (this decides)")
		}
		b.WriteString("\n")
		ex := l.Explained
		if ex == nil {
			if l.Rule != "" {
				fmt.Fprintf(b, "  rule: %s\n", l.Rule)
			}
			fmt.Fprintf(b, "  why: %s\n", oneLine(l.Why))
			if l.Hint != "" && l.Verdict != engine.Allow {
				fmt.Fprintf(b, "  hint: %s\n", oneLine(l.Hint))
			}
			continue
		}
		if len(ex.Context) > 0 {
			fmt.Fprintf(b, "  inside: %s\n", strings.Join(ex.Context, ", "))
		}
		if ex.Dirs == nil {
			b.WriteString("  runs in: a directory guard does not know\n")
		} else {
			fmt.Fprintf(b, "  runs in: %s\n", strings.Join(ex.Dirs, " or "))
		}
		for _, r := range ex.Words {
			rule := ""
			if r.Rule != "" {
				rule = " [rule " + r.Rule + "]"
			}
			if r.Words == "" {
				fmt.Fprintf(b, "  then %s%s\n", r.As, rule)
			} else {
				fmt.Fprintf(b, "  %s: %s%s\n", p.bold(oneLine(r.Words)), r.As, rule)
			}
			for _, n := range r.Notes {
				nr := n.Rule
				if nr == "" {
					nr = "default"
				}
				fmt.Fprintf(b, "      %s (%s): %s\n", p.verdict(n.Verdict), nr, oneLine(n.Why))
			}
		}
		if l.Verdict != engine.Allow {
			fmt.Fprintf(b, "  so: %s (%s): %s\n", p.verdict(l.Verdict), cmpOr(l.Rule, "default"), oneLine(l.Why))
			if l.Hint != "" {
				fmt.Fprintf(b, "  hint: %s\n", oneLine(l.Hint))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// explainJSON is a command leaf's reading, in guard explain --json.
type explainJSON struct {
	Context []string      `json:"context,omitempty"`
	Dirs    []string      `json:"dirs"`
	Words   []readingJSON `json:"words"`
}

type readingJSON struct {
	Words string     `json:"words,omitempty"`
	As    string     `json:"as"`
	Rule  string     `json:"rule,omitempty"`
	Notes []noteJSON `json:"notes,omitempty"`
}

type noteJSON struct {
	Verdict string `json:"verdict"`
	Rule    string `json:"rule,omitempty"`
	Why     string `json:"why"`
}

func explainedJSON(ex *engine.Explained) *explainJSON {
	out := &explainJSON{Context: ex.Context, Dirs: ex.Dirs, Words: []readingJSON{}}
	for _, r := range ex.Words {
		rj := readingJSON{Words: r.Words, As: r.As, Rule: r.Rule}
		for _, n := range r.Notes {
			rj.Notes = append(rj.Notes, noteJSON{Verdict: n.Verdict.String(), Rule: n.Rule, Why: n.Why})
		}
		out.Words = append(out.Words, rj)
	}
	return out
}
