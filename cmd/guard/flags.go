// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"guard/agent"
	"guard/internal/setup"
	"guard/policy"
)

// runFlags prints the agent's own command-line flags that match the
// policy, so that the agent's permission layer bounds what guard bounds:
// tools guard denies are removed from the agent, tools it allows are
// pre-approved, and everything else must be approved by guard's hook or
// is refused without a prompt.
func runFlags(_ context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("flags", s)
	agent := fs.String("agent", "", "the agent: claude")
	config := fs.String("config", "", "policy `file` (default: the user's and the project's policies, else the embedded default)")
	readOnly := fs.Bool("read-only", false, "read-only mode, as guard hook --read-only")
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil {
		return &exitError{code: 2}
	}
	if *agent != "claude" {
		return usageError(s, "flags", "--agent claude is the only agent guard writes flags for")
	}
	if fs.NArg() > 0 {
		return usageError(s, "flags", "want no arguments, got %q", fs.Arg(0))
	}
	wd, err := os.Getwd()
	if err != nil {
		return usageError(s, "flags", "finding the working directory: %v", err)
	}
	layers, err := setup.LoadLayers(*config, setup.ProjectDir(setup.Getenv(env), wd), setup.Getenv(env))
	if err != nil {
		fmt.Fprintf(s.err, "guard flags: %v\n", err)
		return &exitError{code: 2}
	}
	tools := claudeTools(layers, *readOnly, readOnlyShell(layers, *config))
	allowed, disallowed := tools.Allow, tools.Deny
	// In dontAsk mode what no rule and no hook approves is refused, not
	// asked: guard's hook stays the judge of shell commands and paths.
	out := []string{"--permission-mode", "dontAsk"}
	if len(allowed) > 0 {
		out = append(out, "--allowedTools", shellQuote(strings.Join(allowed, ",")))
	}
	if len(disallowed) > 0 {
		out = append(out, "--disallowedTools", shellQuote(strings.Join(disallowed, ",")))
	}
	fmt.Fprintln(s.out, strings.Join(out, " "))
	return nil
}

// claudeTools are Claude Code's own permissions that match the policy's
// [tools] table: the tools it allows by name pre-approved, those it denies
// removed; in read-only mode every tool the mode refuses is removed, the
// shell too unless shell says the hook allows its read-only commands.
func claudeTools(layers *policy.Layers, readOnly, shell bool) agent.ClaudeTools {
	var t agent.ClaudeTools
	for _, tool := range layers.ToolNames() {
		if strings.ContainsAny(tool, "*?[") {
			continue
		}
		switch layers.ToolTier(tool, readOnly, shell) {
		case "allow":
			t.Allow = append(t.Allow, tool)
		case "deny":
			t.Deny = append(t.Deny, tool)
		}
	}
	return t
}

// readOnlyShell reports whether guard hook --read-only allows the
// read-only shell commands: where guard run's sandbox runs them, or where
// the policy says read_only_shell.
func readOnlyShell(layers *policy.Layers, config string) bool {
	run, _ := runCommand(setup.GuardBinary(), config, true)
	return run != nil || layers.ReadOnlyShell()
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
