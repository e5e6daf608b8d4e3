// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

// guard diff OLD NEW replays calls under two policies and prints every
// verdict that changes, the widenings first: the review of a policy change
// in CI. The calls are the examples of both policies' rules, the [[case]]
// files given with --cases, and with --log the shell commands of guard's
// decision log. It exits 1 when anything widens, so that a CI step fails
// until a person has looked.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"guard/agent"
	"guard/audit"
	"guard/corpus"
	"guard/engine"
	"guard/internal/setup"
	"guard/policy"
)

// diffCall is one call replayed under both policies, and where it came
// from.
type diffCall struct {
	from string // "examples of OLD:12", "cases.toml:40", "log"
	c    corpus.Case
}

// diffChange is a call whose verdict differs.
type diffChange struct {
	From    string `json:"from"`
	Call    string `json:"call"`
	Old     string `json:"old"`
	New     string `json:"new"`
	Widens  bool   `json:"widens"`
	OldWhy  string `json:"old_reason"`
	NewWhy  string `json:"new_reason"`
	NewRule string `json:"new_rule,omitempty"`
}

func runDiff(_ context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("diff", s)
	cases := fs.String("cases", "", "[[case]] `files` to replay as well, a glob (testcases/*.toml)")
	useLog := fs.Bool("log", false, "replay the shell commands of guard's decision log as well")
	asJSON := fs.Bool("json", false, "print the changes as JSON")
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil || fs.NArg() != 2 {
		return argsError(s, "diff", err, "want two policy files, OLD.toml and NEW.toml, got %d arguments", fs.NArg())
	}
	var pols [2]*policy.Policy
	for i, name := range fs.Args() {
		p, err := diffPolicy(name)
		if err != nil {
			fmt.Fprintf(s.err, "guard diff: %v\n", err)
			return &exitError{code: 2}
		}
		pols[i] = p
	}
	var calls []diffCall
	for _, p := range pols {
		for _, ex := range p.Examples() {
			calls = append(calls, diffCall{fmt.Sprintf("example of %s:%d", p.Name(), ex.Line), corpus.Case{Command: ex.Command}})
		}
	}
	if *cases != "" {
		names, err := filepath.Glob(*cases)
		if err != nil || len(names) == 0 {
			fmt.Fprintf(s.err, "guard diff: --cases %s: no files\n", *cases)
			return &exitError{code: 2}
		}
		for _, name := range names {
			src, err := os.ReadFile(name)
			if err == nil {
				var cs []corpus.Case
				if cs, err = corpus.LoadCases(name, src); err == nil {
					for _, c := range cs {
						calls = append(calls, diffCall{fmt.Sprintf("%s:%d", c.File, c.Line), c})
					}
				}
			}
			if err != nil {
				fmt.Fprintf(s.err, "guard diff: %v\n", err)
				return &exitError{code: 2}
			}
		}
	}
	if *useLog {
		logged, err := loggedCommands(env)
		if err != nil {
			fmt.Fprintf(s.err, "guard diff: %v\n", err)
			return &exitError{code: 2}
		}
		calls = append(calls, logged...)
	}
	changes, n := diffCalls(pols[0], pols[1], calls)
	if *asJSON {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		if changes == nil {
			changes = []diffChange{}
		}
		if err := enc.Encode(changes); err != nil {
			return err
		}
	} else {
		printChanges(s, fs.Arg(0), fs.Arg(1), n, changes)
	}
	if slices.ContainsFunc(changes, func(c diffChange) bool { return c.Widens }) {
		return &exitError{code: 1}
	}
	return nil
}

// diffPolicy loads a policy file, or a built-in policy by name (default,
// review, ...).
func diffPolicy(name string) (*policy.Policy, error) {
	if _, err := os.Stat(name); err != nil && !strings.ContainsAny(name, "/.") {
		return policy.Builtin(name)
	}
	p, _, err := setup.LoadFile(name)
	return p, err
}

// diffCalls decides every call under both policies, once per distinct
// call, and returns the changes, the widenings first, each group in the
// order of the calls.
func diffCalls(old, new *policy.Policy, calls []diffCall) (changes []diffChange, distinct int) {
	seen := map[string]bool{}
	var widen, narrow []diffChange
	for _, dc := range calls {
		key := dc.c.Command + "\x00" + dc.c.Tool + "\x00" + fmt.Sprint(dc.c.Input) + "\x00" + dc.c.Cwd + "\x00" + dc.c.Shell
		if seen[key] {
			continue
		}
		seen[key] = true
		distinct++
		a, b := decideCase(old, dc.c), decideCase(new, dc.c)
		av, bv := verdictName(a), verdictName(b)
		if av == bv {
			continue
		}
		what := dc.c.Command
		if what == "" {
			what = dc.c.Tool
		}
		// Less strict is wider, and so is an allow that no longer runs in
		// the sandbox.
		widens := b.Verdict > a.Verdict || b.Verdict == a.Verdict && a.SandboxOnly() && !b.SandboxOnly()
		ch := diffChange{From: dc.from, Call: what, Old: av, New: bv,
			Widens: widens, OldWhy: oneLine(a.Reason()), NewWhy: oneLine(b.Reason()), NewRule: b.Deciding().Rule}
		if ch.Widens {
			widen = append(widen, ch)
		} else {
			narrow = append(narrow, ch)
		}
	}
	return append(widen, narrow...), distinct
}

// verdictName names a decision's verdict, and that an allow runs only in
// the sandbox.
func verdictName(d engine.Decision) string {
	if d.Verdict == engine.Allow && d.SandboxOnly() {
		return "allow (in the sandbox)"
	}
	return d.Verdict.String()
}

// decideCase decides a case's call with one policy, as guard test does.
func decideCase(p *policy.Policy, c corpus.Case) engine.Decision {
	c.Want, c.Rule, c.Profile = 0, "", "" // what the case wants is not the question here
	d, _ := corpus.Check(&policy.Layers{User: p}, c)
	return d
}

func printChanges(s stdio, old, new string, n int, changes []diffChange) {
	widens := 0
	for _, c := range changes {
		if c.Widens {
			widens++
		}
	}
	fmt.Fprintf(s.out, "%d calls replayed under %s and %s: %d widen, %d narrow\n", n, old, new, widens, len(changes)-widens)
	for _, c := range changes {
		word := "narrows"
		if c.Widens {
			word = "WIDENS "
		}
		fmt.Fprintf(s.out, "%s %s -> %s  %s  (%s)\n", word, c.Old, c.New, c.Call, c.From)
		fmt.Fprintf(s.out, "        now: %s\n", c.NewWhy)
	}
}

// loggedCommands returns the shell commands of guard's decision log: the
// Bash calls guard decided, as logged (secrets masked).
func loggedCommands(env getenv) ([]diffCall, error) {
	dlog := setup.DecisionLog(setup.Getenv(env))
	if dlog == nil {
		return nil, setup.ErrNoLog
	}
	recs, _, err := audit.Read(dlog.Dir)
	if err != nil {
		return nil, err
	}
	var out []diffCall
	for _, r := range recs {
		e := r.Entry
		if e.Event != "PreToolUse" || e.Call == "" || !agent.ShellTool(e.Tool) {
			continue
		}
		out = append(out, diffCall{fmt.Sprintf("log %s:%d", r.File, r.Line), corpus.Case{Command: e.Call}})
	}
	return out, nil
}
