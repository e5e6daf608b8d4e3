// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"context"
	"fmt"
	"os"

	"guard/corpus"
	"guard/internal/setup"
	"guard/policy"
)

// runTest runs case files against the policies guard hook would use here,
// and the examples of those policies' own rules.
func runTest(_ context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("test", s)
	config := fs.String("config", "", "policy `file` (default: the user's and the project's policies, as guard hook loads them, else the embedded default)")
	verbose := fs.Bool("v", false, "print every case, not only failures")
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil {
		return &exitError{code: 2}
	}
	wd, err := os.Getwd()
	if err != nil {
		return usageError(s, "test", "finding the working directory: %v", err)
	}
	layers, err := setup.LoadLayers(*config, setup.ProjectDir(setup.Getenv(env), wd), setup.Getenv(env))
	if err != nil {
		fmt.Fprintf(s.err, "guard test: %v\n", err)
		return &exitError{code: 2}
	}
	var cases []corpus.Case
	for _, name := range fs.Args() {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(s.err, "guard test: %v\n", err)
			return &exitError{code: 2}
		}
		cs, err := corpus.LoadCases(name, src)
		if err != nil {
			fmt.Fprintf(s.err, "guard test: %v\n", err)
			return &exitError{code: 2}
		}
		cases = append(cases, cs...)
	}
	// The cases are decided as guard hook decides a call from here: by
	// the same layers. Say which.
	fmt.Fprintf(s.out, "policy: %s\n", layers.Name())
	passed, failed := 0, 0
	byWant := map[string]int{} // the cases passed, by the verdict they want
	check := func(l *policy.Layers, c corpus.Case) {
		if _, err := corpus.Check(l, c); err != nil {
			failed++
			fmt.Fprintf(s.out, "FAIL %v\n", err)
			return
		}
		passed++
		byWant[fmt.Sprint(c.Want)]++
		if *verbose {
			what := c.Command
			if what == "" {
				what = c.Tool
			}
			fmt.Fprintf(s.out, "ok   %s:%d: %q: %s\n", c.File, c.Line, what, c.Want)
		}
	}
	for _, c := range cases {
		check(layers, c)
	}
	// A rule's examples say what its own policy decides: each is decided
	// by that policy alone.
	for _, p := range layers.Policies() {
		for _, ex := range p.Examples() {
			file := p.Name()
			if ex.File != "" {
				file = ex.File // a pack's
			}
			check(&policy.Layers{User: p}, corpus.Case{File: file, Line: ex.Line, Command: ex.Command, Want: ex.Want, Why: "example of rule " + ex.Rule})
		}
	}
	fmt.Fprintf(s.out, "%d passed, %d failed\n", passed, failed)
	if passed > 0 {
		fmt.Fprintf(s.out, "passed, by the verdict they want: allow %d, ask %d, deny %d\n", byWant["allow"], byWant["ask"], byWant["deny"])
	}
	if failed > 0 {
		return &exitError{code: 1}
	}
	return nil
}
