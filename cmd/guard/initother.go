// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"guard/agent"
	"guard/internal/setup"
)

// cursorEvents are the Cursor hook events guard registers for: every tool
// (preToolUse), and the shell, MCP and file reads on their own events,
// whose failClosed Cursor documents.
// withStarterPolicy adds the starter policy to changes where there is
// none: the project's .guard.toml, or the user's policy file. A project
// that keeps its policy in .claude/guard.toml gets no second one.
func withStarterPolicy(changes []agent.FileChange, dir string, project bool) ([]agent.FileChange, error) {
	policy := filepath.Join(dir, ".config", "guard", "guard.toml")
	if project {
		switch existing, err := setup.ProjectPolicyFile(dir); {
		case err != nil:
			return changes, err
		case existing != "":
			return changes, nil
		}
		policy = filepath.Join(dir, filepath.FromSlash(setup.PolicyFile))
	}
	c, err := starterPolicy(policy)
	if err != nil {
		return changes, err
	}
	if c != nil {
		changes = append(changes, *c)
	}
	sc, err := schemaFile(policy)
	if err != nil || sc == nil {
		return changes, err
	}
	return append(changes, *sc), nil
}

// shellWrapper is the guard-shell script, in the user's guard directory
// (beside the user's policy, where no tool call may write), that runs
// guard shell for an agent's $SHELL.
func shellWrapper(env getenv, guard string) ([]agent.FileChange, error) {
	policy := setup.UserPolicyFile(setup.Getenv(env))
	if policy == "" {
		return nil, errors.New("the guard-shell script goes in the user's guard directory: set HOME or XDG_CONFIG_HOME")
	}
	c, err := agent.ShellWrapper(filepath.Dir(policy), guard)
	if err != nil {
		return nil, err
	}
	return []agent.FileChange{c}, nil
}

// shellRecipe says how to start the agent with guard shell as its
// $SHELL: aider's command line, or the generic one.
func shellRecipe(s stdio, agentName, wrapper string) {
	if agentName == "aider" {
		fmt.Fprintf(s.out, "start aider so, with guard shell as its $SHELL:\n  %s\n", agent.AiderCommand(wrapper))
		for _, n := range agent.AiderNotes() {
			fmt.Fprintf(s.out, "note: %s\n", n)
		}
		return
	}
	fmt.Fprintf(s.out, "start an agent that runs its commands as $SHELL -c COMMAND so, with guard shell as its $SHELL:\n  %s\n", agent.ShellCommandLine(wrapper))
	fmt.Fprintln(s.out, "note: only the commands the agent runs through $SHELL are judged; a program it starts otherwise (/bin/bash by its path, its own file edits) is not")
}
