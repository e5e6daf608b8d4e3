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

// TestQwenUserRule: the user's own Qwen Code rules of its shell tool, by
// any of its names, from the home's and the project's settings, deny
// before ask; the older tools.exclude and excludeTools deny a command
// that starts with their specifier.
func TestQwenUserRule(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	write := func(dir, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, ".qwen"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".qwen", "settings.json"), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(home, `{"permissions": {"ask": ["run_shell_command(git push *)"], "deny": ["Read(./x)"]}, "tools": {"exclude": ["ShellTool(curl)"]}}`)
	write(proj, `{"permissions": {"deny": ["Bash(cat *)", "ShellTool(make deploy)"]}, "excludeTools": ["run_shell_command(wget)"]}`)
	for _, tc := range []struct {
		command, rule string
		deny          bool
	}{
		{"cat hello.txt", "Bash(cat *)", true},
		{"ls && cat x", "Bash(cat *)", true},
		{"make deploy", "Bash(make deploy)", true},
		{"make show", "", false},
		{"git push origin main", "Bash(git push *)", false},
		{"curl -s x", "Bash(curl:*)", true},
		{"wget x", "Bash(wget:*)", true},
		{"curly", "", false},
		{"ls", "", false},
	} {
		rule, deny := QwenUserRule(home, proj, proj, tc.command)
		if rule != tc.rule || deny != tc.deny {
			t.Errorf("%q: rule %q (deny %v), want %q (deny %v)", tc.command, rule, deny, tc.rule, tc.deny)
		}
	}
}
