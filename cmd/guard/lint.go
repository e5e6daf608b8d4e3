// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"guard/internal/setup"
	"guard/policy"
)

// runLint reports what policies allow too broadly (policy.Lint): the
// files given, or the policies guard hook would use here. It exits 1 when
// a finding is an error, 0 when the findings are warnings and notes or
// there are none, and 2 for a bad command line or a policy that does not
// load.
func runLint(_ context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("lint", s)
	config := fs.String("config", "", "policy `file` to lint (default: the user's and the project's policies, as guard hook loads them, else the embedded default)")
	asJSON := fs.Bool("json", false, "print the findings as JSON")
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil {
		return &exitError{code: 2}
	}
	if *config != "" && fs.NArg() > 0 {
		return usageError(s, "lint", "--config names the policy to lint; so do the files: give one or the other")
	}
	var policies []*policy.Policy
	if fs.NArg() > 0 {
		for _, name := range fs.Args() {
			p, _, err := setup.LoadFile(name)
			if err != nil {
				fmt.Fprintf(s.err, "guard lint: %v\n", err)
				return &exitError{code: 2}
			}
			policies = append(policies, p)
		}
	} else {
		wd, err := os.Getwd()
		if err != nil {
			return usageError(s, "lint", "finding the working directory: %v", err)
		}
		layers, err := setup.LoadLayers(*config, setup.ProjectDir(setup.Getenv(env), wd), setup.Getenv(env))
		if err != nil {
			fmt.Fprintf(s.err, "guard lint: %v\n", err)
			return &exitError{code: 2}
		}
		policies = layers.Policies()
	}
	errs := 0
	all := []jsonFinding{}
	for _, p := range policies {
		var count [3]int
		for _, f := range policy.Lint(p) {
			count[f.Severity]++
			if *asJSON {
				all = append(all, jsonFinding{Severity: f.Severity.String(), Check: f.Check, File: f.File, Line: f.Line, Col: f.Col,
					Key: f.Key, Rule: f.Rule, Message: f.Msg, Fix: f.Fix})
				continue
			}
			fmt.Fprintf(s.out, "%s [%s]\n\tfix: %s\n", f, f.Check, f.Fix)
		}
		errs += count[policy.SeverityError]
		if !*asJSON {
			fmt.Fprintf(s.out, "%s: %s, %s, %s\n", p.Name(), plural(count[policy.SeverityError], "error"),
				plural(count[policy.SeverityWarning], "warning"), plural(count[policy.SeverityNote], "note"))
		}
	}
	if *asJSON {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(all); err != nil {
			return err
		}
	}
	if errs > 0 {
		return &exitError{code: 1}
	}
	return nil
}

// jsonFinding is a finding as guard lint --json prints it.
type jsonFinding struct {
	Severity string   `json:"severity"`
	Check    string   `json:"check"`
	File     string   `json:"file"`
	Line     int      `json:"line,omitempty"`
	Col      int      `json:"col,omitempty"`
	Key      []string `json:"key,omitempty"`
	Rule     string   `json:"rule"`
	Message  string   `json:"message"`
	Fix      string   `json:"fix"`
}

// plural writes a count of things: 1 error, 2 errors.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
