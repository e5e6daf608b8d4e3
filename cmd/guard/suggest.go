// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

// guard suggest reads guard's decision log for the shell commands the
// policy asked about because it has no rule for them, and proposes the
// narrowest rule that would allow each group: the options seen, operands
// only where they were paths in the project, the commands seen as the
// rule's examples. A proposal is kept only when the policy with it still
// loads (its examples must get their verdicts) and no deny case of
// --cases is allowed by it. What a rule of the policy asks or denies on
// purpose (an escalation, a deny verdict) is never proposed, and neither
// are programs that run other code (shells, interpreters, wrappers,
// package managers): those want a person's rule, not a count.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"guard/agent"
	"guard/audit"
	"guard/corpus"
	"guard/engine"
	"guard/internal/setup"
	"guard/policy"
	"guard/shellparse"
)

// suggestNever are programs guard never proposes a rule for: they run
// code, or reach the network, whatever their options say.
var suggestNever = map[string]bool{
	"bash": true, "sh": true, "zsh": true, "dash": true, "fish": true, "ksh": true, "env": true, "xargs": true,
	"sudo": true, "doas": true, "su": true, "nohup": true, "timeout": true, "nice": true, "watch": true, "exec": true,
	"python": true, "python3": true, "node": true, "deno": true, "bun": true, "ruby": true, "perl": true, "php": true,
	"lua": true, "pwsh": true, "make": true, "just": true, "npm": true, "npx": true, "pnpm": true, "yarn": true,
	"pip": true, "pip3": true, "uv": true, "cargo": true, "go": true, "docker": true, "kubectl": true, "ssh": true,
	"scp": true, "curl": true, "wget": true, "nc": true, "ncat": true, "socat": true, "telnet": true, "ftp": true,
	"rsync": true, "git": true, "gh": true, "aws": true, "terraform": true, "eval": true, "source": true,
}

// suggestion is one proposed rule and what it came from.
type suggestion struct {
	key      []string // program, then subcommands
	count    int
	commands []string // distinct, as seen
	flags    []string
	operands []string
}

func runSuggest(_ context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("suggest", s)
	config := fs.String("config", "", "policy `file` to propose rules for (default: the user's policy, else the embedded default)")
	cases := fs.String("cases", "", "[[case]] `files` whose deny cases no proposal may allow, a glob (testcases/*.toml)")
	minCount := fs.Int("min", 2, "propose a rule for a program asked about this many times or more")
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil || fs.NArg() > 0 {
		return argsError(s, "suggest", err, "want no arguments, got %q", fs.Arg(0))
	} else if *minCount < 1 {
		return usageError(s, "suggest", "--min %d: want 1 or more", *minCount)
	}
	base, name, err := suggestBase(*config, env)
	if err != nil {
		fmt.Fprintf(s.err, "guard suggest: %v\n", err)
		return &exitError{code: 2}
	}
	p, err := engine.Load(name, bytes.NewReader(base))
	if err != nil {
		fmt.Fprintf(s.err, "guard suggest: %v\n", err)
		return &exitError{code: 2}
	}
	var denyCases []corpus.Case
	if *cases != "" {
		if denyCases, err = loadDenyCases(*cases); err != nil {
			fmt.Fprintf(s.err, "guard suggest: %v\n", err)
			return &exitError{code: 2}
		}
	}
	dlog := setup.DecisionLog(setup.Getenv(env))
	if dlog == nil {
		fmt.Fprintf(s.err, "guard suggest: %v\n", setup.ErrNoLog)
		return &exitError{code: 2}
	}
	recs, _, err := audit.Read(dlog.Dir)
	if err != nil {
		fmt.Fprintf(s.err, "guard suggest: %v\n", err)
		return &exitError{code: 2}
	}
	wd, _ := os.Getwd()
	groups := suggestGroups(p, recs, setup.Context(setup.Getenv(env), wd, "", false))
	var kept []string
	for _, g := range groups {
		if g.count < *minCount {
			continue
		}
		if slices.ContainsFunc(g.operands, outsideOperand) {
			fmt.Fprintf(s.out, "# not proposed: %s (%d asks): its operands reach outside the project; its rule is a person's to write\n", strings.Join(g.key, " "), g.count)
			continue
		}
		rule := g.toml()
		if why := checkSuggestion(base, name, rule, denyCases); why != "" {
			fmt.Fprintf(s.out, "# not proposed: %s (%d asks): %s\n", strings.Join(g.key, " "), g.count, why)
			continue
		}
		kept = append(kept, rule)
	}
	if len(kept) == 0 {
		fmt.Fprintf(s.out, "# nothing to propose: no program without a rule was asked about %d times or more\n", *minCount)
		return nil
	}
	fmt.Fprintf(s.out, "# rules to paste into %s; each allows only what the log shows, and its examples are what ran\n", name)
	for _, r := range kept {
		fmt.Fprint(s.out, "\n"+r)
	}
	return nil
}

// suggestBase returns the policy source proposals are checked against,
// and its name.
func suggestBase(config string, env getenv) ([]byte, string, error) {
	name := config
	if name == "" {
		name = setup.UserPolicyFile(setup.Getenv(env))
	}
	if name != "" {
		src, err := os.ReadFile(name)
		if err == nil || config != "" {
			return src, name, err
		}
	}
	return []byte("version = 1\nextends = \"default\"\n"), "default", nil
}

// loadDenyCases returns the deny cases of the files a glob names.
func loadDenyCases(glob string) ([]corpus.Case, error) {
	names, err := filepath.Glob(glob)
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("--cases %s: no files", glob)
	}
	var out []corpus.Case
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		cs, err := corpus.LoadCases(n, src)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			if c.Want == policy.Deny {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// suggestGroups decides the logged shell commands the policy asked about
// again, with p, and groups the simple commands it has no rule for by
// program (and subcommand).
func suggestGroups(p *policy.Policy, recs []audit.Record, ctx engine.Call) []*suggestion {
	byKey := map[string]*suggestion{}
	var order []string
	for _, r := range recs {
		e := r.Entry
		if e.Event != "PreToolUse" || e.Decision != "asked" || e.Call == "" || !agent.ShellTool(e.Tool) {
			continue
		}
		call := ctx
		call.Kind, call.Tool, call.Input = engine.KindShell, "Bash", engine.Input{Command: e.Call}
		d := engine.Decide(p, call)
		for _, l := range d.Leaves {
			if l.Verdict == engine.Allow || l.Kind != "command" || !strings.HasPrefix(l.Why, "no rule for ") {
				continue
			}
			words, ok := constantWords(l.Text)
			if !ok || len(words) == 0 || suggestNever[filepath.Base(words[0])] || strings.Contains(words[0], "/") {
				continue
			}
			key := []string{words[0]}
			rest := words[1:]
			if l.Rule != "" && len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
				// No rule for a subcommand of a program that has rules.
				key, rest = append(key, rest[0]), rest[1:]
			}
			k := strings.Join(key, " ")
			g := byKey[k]
			if g == nil {
				g = &suggestion{key: key}
				byKey[k] = g
				order = append(order, k)
			}
			g.count++
			if !slices.Contains(g.commands, l.Text) {
				g.commands = append(g.commands, l.Text)
			}
			for _, w := range rest {
				switch {
				case strings.HasPrefix(w, "-"):
					if !slices.Contains(g.flags, w) {
						g.flags = append(g.flags, w)
					}
				default:
					g.operands = append(g.operands, w)
				}
			}
		}
	}
	out := make([]*suggestion, 0, len(order))
	for _, k := range order {
		out = append(out, byKey[k])
	}
	slices.SortStableFunc(out, func(a, b *suggestion) int { return b.count - a.count })
	return out
}

// constantWords returns the words of a simple command, when every one is
// a constant.
func constantWords(src string) ([]string, bool) {
	sc, err := shellparse.Parse(src, shellparse.Options{})
	if err != nil || len(sc.Commands) != 1 || len(sc.Findings) > 0 {
		return nil, false
	}
	var out []string
	for _, w := range sc.Commands[0].Args {
		if !w.Constant() || w.Glob || w.Tilde {
			return nil, false
		}
		out = append(out, w.Value)
	}
	return out, true
}

// toml renders the narrowest rule for a group: the flags seen, no value
// options (a flag seen with a value becomes a rule a person must write),
// and operands as paths in the project (guard proposes no rule whose
// operands were seen reaching outside it), or none.
func (g *suggestion) toml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# asked %d times\n", g.count)
	key := "command." + tomlKey(g.key[0])
	for _, sub := range g.key[1:] {
		key += ".sub." + tomlKey(sub)
	}
	fmt.Fprintf(&b, "[%s]\nverdict = \"allow\"\n", key)
	var flags []string
	for _, f := range g.flags {
		name, _, withValue := strings.Cut(f, "=")
		switch {
		case withValue:
			flags = append(flags, name) // a value: the policy's check then refuses the rule, for a person to write
		case !strings.HasPrefix(f, "--") && len(f) > 2:
			for _, c := range f[1:] {
				flags = append(flags, "-"+string(c)) // a bundle, -la
			}
		default:
			flags = append(flags, f)
		}
	}
	slices.Sort(flags)
	flags = slices.Compact(flags)
	if len(flags) > 0 {
		fmt.Fprintf(&b, "flags = [%s]\n", quoteList(flags))
	}
	if len(g.operands) == 0 {
		b.WriteString("args = \"none\"\n")
	} else {
		b.WriteString("args = \"path\"\n") // every one seen was in the project (outsideOperand)
	}
	examples := g.commands
	if len(examples) > 5 {
		examples = examples[:5]
	}
	fmt.Fprintf(&b, "examples = { allow = [%s] }\n", quoteList(examples))
	return b.String()
}

// outsideOperand reports whether an operand may name a path outside the
// project: absolute, or climbing out.
func outsideOperand(o string) bool {
	return filepath.IsAbs(o) || o == ".." || strings.HasPrefix(o, "../") || strings.Contains(o, "/../") || strings.HasPrefix(o, "~")
}

func tomlKey(s string) string {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return strconv.Quote(s)
		}
	}
	return s
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(x)
	}
	return strings.Join(q, ", ")
}

// checkSuggestion returns why a proposed rule is not kept, "" when it is:
// the policy with it must load (its examples get their verdicts), give
// guard lint no new warning or error, and deny every deny case that the
// policy without it denies.
func checkSuggestion(base []byte, name, rule string, denyCases []corpus.Case) string {
	src := append(append(slices.Clone(base), '\n'), rule...)
	p, err := engine.Load(name, bytes.NewReader(src))
	if err != nil {
		return err.Error()
	}
	before, err := engine.Load(name, bytes.NewReader(base))
	if err != nil {
		return err.Error()
	}
	// guard lint must find nothing wrong with it that it does not find
	// already.
	had := map[string]bool{}
	for _, f := range policy.Lint(before) {
		had[f.Check+"\x00"+f.Rule+"\x00"+f.Msg] = true
	}
	for _, f := range policy.Lint(p) {
		if f.Severity >= policy.SeverityWarning && !had[f.Check+"\x00"+f.Rule+"\x00"+f.Msg] {
			return fmt.Sprintf("guard lint finds it broad (%s: %s)", f.Check, f.Msg)
		}
	}
	for _, c := range denyCases {
		if c.Profile != "" {
			continue
		}
		was, _ := corpus.Check(&policy.Layers{User: before}, c)
		now, _ := corpus.Check(&policy.Layers{User: p}, c)
		if was.Verdict == policy.Deny && now.Verdict != policy.Deny {
			return fmt.Sprintf("it would let %s:%d (%q) through, a deny case", c.File, c.Line, c.Command)
		}
	}
	return ""
}
