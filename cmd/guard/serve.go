// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

// guard serve decides a stream of calls for a harness in any language
// (guard.Serve has the protocol): the policy is the --config file, else
// the user's, loaded once and again when its file changes; the managed
// policy beside it; allowed commands rewritten to run under guard run.

import (
	"context"
	"fmt"
	"os"

	"guard"
	"guard/internal/setup"
)

func runServe(ctx context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("serve", s)
	config := fs.String("config", "", "policy `file` (default: the user's policy, else the embedded default)")
	readOnly := fs.Bool("read-only", false, "read-only mode: offer and allow only reading tools")
	readOnlyShell := fs.Bool("read-only-shell", false, "in read-only mode, allow the policy's read-only shell commands too, in guard run's read-only sandbox")
	searchGlobs := fs.Bool("search-globs", false, "the harness's search takes ripgrep's globs and runs with an answer's glob: a search of a tree with secrets is allowed with them left out")
	shell := fs.String("shell", "", "the `shell` the harness runs commands in: bash or zsh (default: judge them as both read them)")
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil || fs.NArg() > 0 {
		return argsError(s, "serve", err, "want no arguments, got %q", fs.Arg(0))
	}
	// Every decision is a line of the decision log, as guard hook's are,
	// where guard has a state directory.
	opts := guard.Options{Config: *config, ReadOnly: *readOnly, ReadOnlyShell: *readOnlyShell, SearchGlobs: *searchGlobs, Shell: *shell, Env: env,
		Log: setup.StateDir(setup.Getenv(env)) != "", Harness: "guard serve"}
	if opts.Config == "" {
		if name := setup.UserPolicyFile(setup.Getenv(env)); name != "" {
			if _, err := os.Stat(name); err == nil {
				opts.Config = name
			}
		}
	}
	managed := setup.ManagedPolicyFile
	if v := env("GUARD_MANAGED_POLICY"); v != "" {
		managed = v
	}
	if _, err := os.Lstat(managed); err == nil || managed != setup.ManagedPolicyFile {
		opts.Managed = managed
	}
	if run, _ := runCommand(setup.GuardBinary(), opts.Config, opts.ReadOnly); run != nil {
		opts.Sandbox = run
	}
	e, err := guard.Load(opts)
	if err != nil {
		// A policy that does not load denies every call, with its error,
		// until it loads: the stream still answers.
		fmt.Fprintf(s.err, "guard serve: %v\n", err)
		e = nil
	}
	if err := guard.Serve(ctx, s.in, s.out, e, opts); err != nil {
		fmt.Fprintln(s.err, err)
		return &exitError{code: 1}
	}
	return nil
}
