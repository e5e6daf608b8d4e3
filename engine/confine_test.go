// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"slices"
	"testing"

	"guard/policy"
)

// TestConfinementKept: the paths a confined command must not make are the
// literal parts of the protected and agent patterns that could match under
// the root: those anchored there, and those of any directory taken at the
// root. Patterns of other trees give none.
func TestConfinementKept(t *testing.T) {
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	c := NewConfinement(p, Call{Project: "/p", Home: "/h", Temp: "/t", AgentPaths: []string{"{project}/.agent/**", "~/.agent.json"}})
	kept := c.Kept("/p")
	for _, want := range []string{
		"/p/.git",                 // **/.git
		"/p/.git/**",              // {project}/.git/**
		"/p/.github/workflows/**", // **/.github/workflows/**
		"/p/.envrc",
		"/p/.mcp.json",              // the default policy's, for Claude Code
		"/p/.claude/settings*.json", // **/.claude/settings*.json
		"/p/.agent/**",              // the agent's
		"/p/rust-toolchain.toml",
	} {
		if !slices.Contains(kept, want) {
			t.Errorf("Kept(/p) lacks %s: %q", want, kept)
		}
	}
	for _, k := range kept {
		if k == "/p" || len(k) < len("/p/") || k[:3] != "/p/" {
			t.Errorf("Kept(/p) has %s, which is not under /p", k)
		}
	}
	if sub := c.Kept("/p/src"); slices.Contains(sub, "/p/src/.mcp.json") || !slices.Contains(sub, "/p/src/.envrc") {
		t.Errorf("Kept(/p/src): a project pattern is not its, a pattern of any directory is: %q", sub)
	}
}
