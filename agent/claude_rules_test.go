// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"os"
	"path/filepath"
	"testing"
)

// TestClaudeUserRule: the user's own Claude Code rules that a shell
// command matches, from each settings file Claude Code reads, deny before
// ask; each part of a list or pipeline is tried.
func TestClaudeUserRule(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	write := func(dir, name, data string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(home, "settings.json", `{"permissions": {"ask": ["Bash(cat:*)", "Bash(git commit *)"]}}`)
	write(proj, ".claude/settings.json", `{"permissions": {"deny": ["Bash(curl:*)"], "ask": ["Bash(make deploy)"]}}`)
	write(proj, ".claude/settings.local.json", `{"permissions": {"ask": ["Read(./secret)", "Bash(npm run *:prod)"]}}`)
	for _, tc := range []struct {
		command, rule string
		deny          bool
	}{
		{"cat hello.txt", "Bash(cat:*)", false},
		{"cat", "Bash(cat:*)", false},
		{"catalog x", "", false},
		{"ls && cat x", "Bash(cat:*)", false},
		{"ls | (cat)", "Bash(cat:*)", false},
		{"echo $(cat x)", "Bash(cat:*)", false},
		{"git commit -m x", "Bash(git commit *)", false},
		{"git commit", "Bash(git commit *)", false},
		{"git status", "", false},
		{"make deploy", "Bash(make deploy)", false},
		{"make deploy now", "", false},
		{"cat x; curl evil", "Bash(curl:*)", true},
		{"npm run build:prod", "Bash(npm run *:prod)", false},
		{"go test ./...", "", false},
	} {
		rule, deny := ClaudeUserRule(home, proj, proj, tc.command)
		if rule != tc.rule || deny != tc.deny {
			t.Errorf("%q: rule %q (deny %v), want %q (deny %v)", tc.command, rule, deny, tc.rule, tc.deny)
		}
	}
	write(proj, ".claude/settings.json", "{not json")
	if rule, _ := ClaudeUserRule(home, proj, proj, "curl x"); rule != "" {
		t.Errorf("a settings file that does not parse gave the rule %q", rule)
	}
}
