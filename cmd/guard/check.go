// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"

	"guard/rules"
)

func runCheck(_ context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("check", s)
	asJSON := fs.Bool("json", false, "print the decision as JSON")
	config := fs.String("config", "", "policy `file` (default: .claude/guard.toml in the project, else the embedded default)")
	cwd := fs.String("cwd", "", "the call's working `directory` (default: the current directory)")
	tool := fs.String("tool", "Bash", "the tool `name`")
	input := fs.String("input", "", "the tool's input as a JSON `object` (for tools other than Bash)")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	call := rules.Call{Tool: *tool, Home: env("HOME")}
	switch {
	case *tool == "Bash" && *input == "":
		if fs.NArg() != 1 {
			return usageError(s, "check", "want one command, quoted as one argument, got %d arguments", fs.NArg())
		}
		call.Input = map[string]any{"command": fs.Arg(0)}
	default:
		if fs.NArg() != 0 {
			return usageError(s, "check", "a tool call takes its input from --input, not arguments")
		}
		if err := json.Unmarshal([]byte(*input), &call.Input); err != nil || call.Input == nil {
			return usageError(s, "check", "--input must be a JSON object")
		}
	}
	call.Cwd = *cwd
	if call.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return usageError(s, "check", "finding the working directory: %v", err)
		}
		call.Cwd = wd
	}
	abs, err := filepath.Abs(call.Cwd)
	if err != nil {
		return usageError(s, "check", "--cwd: %v", err)
	}
	call.Cwd = abs
	call.Project = projectDir(env, call.Cwd)
	policy, err := loadPolicy(*config, call.Project)
	if err != nil {
		fmt.Fprintf(s.err, "guard check: %v\n", err)
		return &exitError{code: 2}
	}
	d := policy.Decide(call)
	if *asJSON {
		err = printJSON(s, policy, &d)
	} else {
		err = printDecision(s, policy, &d)
	}
	if err != nil {
		return err
	}
	switch d.Verdict {
	case rules.Allow:
		return nil
	case rules.Ask:
		return &exitError{code: 1}
	}
	return &exitError{code: 2}
}

func printDecision(s stdio, policy *rules.Policy, d *rules.Decision) error {
	fmt.Fprintf(s.out, "policy: %s\n", policy.Name())
	fmt.Fprintf(s.out, "%s: %s\n", d.Verdict, oneLine(d.Reason()))
	if h := d.Hint(); h != "" {
		fmt.Fprintf(s.out, "hint: %s\n", oneLine(h))
	}
	tw := tabwriter.NewWriter(s.out, 2, 8, 2, ' ', 0)
	for _, l := range d.Leaves {
		rule := l.Rule
		if rule == "" {
			rule = "(default)"
		}
		pos := ""
		if l.Pos.Line > 0 {
			pos = l.Pos.String()
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", l.Verdict, l.Kind, pos, clip(oneLine(l.Text), 60), rule, oneLine(l.Why))
	}
	return tw.Flush()
}

type jsonLeaf struct {
	Verdict string `json:"verdict"`
	Kind    string `json:"kind"`
	Text    string `json:"text"`
	Pos     string `json:"pos,omitempty"`
	Rule    string `json:"rule,omitempty"`
	Why     string `json:"why"`
	Hint    string `json:"hint,omitempty"`

	Programs []string `json:"programs,omitempty"`
	Children []string `json:"children,omitempty"`
}

type jsonDecision struct {
	Verdict string     `json:"verdict"`
	Reason  string     `json:"reason"`
	Hint    string     `json:"hint,omitempty"`
	Policy  string     `json:"policy"`
	Leaves  []jsonLeaf `json:"leaves"`
}

func printJSON(s stdio, policy *rules.Policy, d *rules.Decision) error {
	out := jsonDecision{Verdict: d.Verdict.String(), Reason: d.Reason(), Hint: d.Hint(), Policy: policy.Name()}
	for _, l := range d.Leaves {
		jl := jsonLeaf{Verdict: l.Verdict.String(), Kind: l.Kind, Text: l.Text, Rule: l.Rule, Why: l.Why, Hint: l.Hint,
			Programs: l.Programs, Children: l.Children}
		if l.Pos.Line > 0 {
			jl.Pos = l.Pos.String()
		}
		out.Leaves = append(out.Leaves, jl)
	}
	enc := json.NewEncoder(s.out)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
