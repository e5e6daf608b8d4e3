// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import "testing"

// TestShell checks how guard finds the agent's shell, as Claude Code
// chooses it: $CLAUDE_CODE_SHELL, else $SHELL, by base name.
func TestShell(t *testing.T) {
	tests := []struct {
		claude, shell string
		want          string
	}{
		{"", "/bin/bash", "bash"},
		{"", "/usr/local/bin/bash", "bash"},
		{"", "bash", "bash"},
		{"", "/bin/zsh", "zsh"},
		{"", "/opt/homebrew/bin/zsh", "zsh"},
		{"/bin/zsh", "/bin/bash", "zsh"}, // CLAUDE_CODE_SHELL first
		{"/bin/bash", "/bin/zsh", "bash"},
		{"/usr/bin/bash", "", "bash"},

		// Unknown: the engine judges as bash and as zsh read it.
		{"", "", ""},
		{"", "/bin/sh", ""},
		{"", "/usr/bin/fish", ""},
		{"", "/bin/dash", ""},
		{"", "/bin/bash5", ""},
		{"", "/bin/bash ", ""},
		{"", "-bash", ""},
		{"", "/bin/zsh-5.9", ""},
		{"/usr/bin/fish", "/bin/bash", ""}, // set, so $SHELL is not read
		{"/", "", ""},
		{".", "", ""},
	}
	for _, tc := range tests {
		env := func(k string) string {
			switch k {
			case "CLAUDE_CODE_SHELL":
				return tc.claude
			case "SHELL":
				return tc.shell
			}
			return ""
		}
		if got := Shell("claude", env); got != tc.want {
			t.Errorf("CLAUDE_CODE_SHELL=%q SHELL=%q: Shell = %q, want %q", tc.claude, tc.shell, got, tc.want)
		}
		// Codex's model names each command's shell: unknown; Gemini CLI
		// runs bash -c.
		if got := Shell("codex", env); got != "" {
			t.Errorf("SHELL=%q: Shell(codex) = %q, want unknown", tc.shell, got)
		}
		if got := Shell("gemini", env); got != "bash" {
			t.Errorf("Shell(gemini) = %q, want bash", got)
		}
	}
}

// TestShellTool: the shell tools of the agents whose log lines guard diff
// and guard suggest read as commands, and no other tool.
func TestShellTool(t *testing.T) {
	for _, tc := range []struct {
		tool string
		want bool
	}{
		{"Bash", true}, {"bash", true}, {"run_shell_command", true}, {"run_command", true}, {"shell", true},
		{"shell_command", true}, {"Execute", true}, // Amp's, Factory Droid's
		{"Read", false}, {"execute", false}, {"shell_command_status", false}, {"", false},
	} {
		if got := ShellTool(tc.tool); got != tc.want {
			t.Errorf("ShellTool(%q) = %v, want %v", tc.tool, got, tc.want)
		}
	}
}
