// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// TestSecretPlaces: a secret of a place is hidden where it is: the path
// it names, the directory of a tree (~/.ssh/**), and for a glob of names
// in one directory the files it matches there, not the directory, whose
// other files tools read.
func TestSecretPlaces(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"etc/ssh/ssh_host_rsa_key", "etc/ssh/ssh_host_rsa_key.pub", "etc/ssh/ssh_config", "home/.bash_history", "home/.bashrc"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Load("p.toml", strings.NewReader(fmt.Sprintf("version = 1\nextends = \"default\"\n[paths]\nsecret = [%q, %q]\n",
		root+"/etc/ssh/ssh_host_*_key", root+"/etc/ssl/private/**")))
	if err != nil {
		t.Fatal(err)
	}
	places, _ := NewConfinement(p, Call{Project: root + "/proj", Home: root + "/home", Temp: root + "/tmp"}).SecretPlaces()
	for _, want := range []string{root + "/etc/ssh/ssh_host_rsa_key", root + "/etc/ssl/private", root + "/home/.ssh", root + "/home/.bash_history"} {
		if !slices.Contains(places, want) {
			t.Errorf("SecretPlaces lacks %s: %q", want, places)
		}
	}
	for _, not := range []string{root + "/etc/ssh", root + "/etc/ssh/ssh_host_rsa_key.pub", root + "/etc/ssh/ssh_config", root + "/home", root + "/home/.bashrc"} {
		if slices.Contains(places, not) {
			t.Errorf("SecretPlaces has %s: %q", not, places)
		}
	}
}
