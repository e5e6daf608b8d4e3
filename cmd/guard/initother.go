// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
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
