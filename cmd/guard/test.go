// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"context"
	"fmt"
	"os"

	"guard/engine"
)

// runTest runs case files against a policy, and the policy's own examples.
func runTest(_ context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("test", s)
	config := fs.String("config", "", "policy `file` (default: .claude/guard.toml in the current directory's project, else the embedded default)")
	verbose := fs.Bool("v", false, "print every case, not only failures")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	wd, err := os.Getwd()
	if err != nil {
		return usageError(s, "test", "finding the working directory: %v", err)
	}
	pol, err := loadPolicy(*config, projectDir(env, wd))
	if err != nil {
		fmt.Fprintf(s.err, "guard test: %v\n", err)
		return &exitError{code: 2}
	}
	var cases []engine.Case
	for _, name := range fs.Args() {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(s.err, "guard test: %v\n", err)
			return &exitError{code: 2}
		}
		cs, err := engine.LoadCases(name, src)
		if err != nil {
			fmt.Fprintf(s.err, "guard test: %v\n", err)
			return &exitError{code: 2}
		}
		cases = append(cases, cs...)
	}
	for _, ex := range pol.Examples() {
		cases = append(cases, engine.Case{File: pol.Name(), Line: ex.Line, Command: ex.Command, Want: ex.Want, Why: "example of rule " + ex.Rule})
	}
	passed, failed := 0, 0
	for _, c := range cases {
		_, err := engine.CheckCase(pol, c)
		if err != nil {
			failed++
			fmt.Fprintf(s.out, "FAIL %v\n", err)
			continue
		}
		passed++
		if *verbose {
			what := c.Command
			if what == "" {
				what = c.Tool
			}
			fmt.Fprintf(s.out, "ok   %s:%d: %q: %s\n", c.File, c.Line, what, c.Want)
		}
	}
	fmt.Fprintf(s.out, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return &exitError{code: 1}
	}
	return nil
}
