// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

import (
	"os"
	"strings"
	"testing"
)

const zsh = "/usr/bin/zsh"

func needZsh(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(zsh); err != nil {
		unavailable(t, "zsh is not installed (apt-get install zsh)")
	}
}

// TestClaudeRunsCommandsInZsh: with SHELL=zsh, Claude Code runs the Bash
// tool's command in zsh, which is why guard judges a command as zsh reads
// it too. Told the shell is bash (guard hook --shell bash), guard allows
// echo $'\-', which bash prints as \- and zsh as -: the output shows
// which shell ran it.
func TestClaudeRunsCommandsInZsh(t *testing.T) {
	t.Parallel()
	needZsh(t)
	p := newProject(t)
	p.shell = zsh
	p.writeSettings(p.hook + " --shell bash")
	cmd := `echo "[" $'\-' "]"`
	p.script("Bash", map[string]any{"command": cmd})
	o := p.run("Bash")
	c := p.oneHookCall("Bash", map[string]any{"command": cmd})
	if got := c.getenv("SHELL"); got != zsh {
		t.Errorf("the hook's SHELL is %q, want %q", got, zsh)
	}
	r := p.oneToolResult(o)
	switch {
	case r.IsError:
		t.Errorf("guard did not allow %q with --shell bash: %q", cmd, r.Text)
	case strings.Contains(r.Text, "[ - ]"):
		// zsh ran it.
	case strings.Contains(r.Text, `[ \- ]`):
		t.Errorf("bash ran the command, not zsh: %q", r.Text)
	default:
		t.Errorf("unexpected output: %q", r.Text)
	}
}

// TestZshOnlyMeaningRefused: in zsh, {-..-} is a character range, so
// find . {-..-}exec touch pwned ';' runs touch; guard, told the shell is
// zsh by SHELL, does not allow it, and nothing is created.
func TestZshOnlyMeaningRefused(t *testing.T) {
	t.Parallel()
	needZsh(t)
	p := newProject(t)
	p.shell = zsh
	cmd := "find . -maxdepth 0 {-..-}exec touch pwned ';'"
	p.script("Bash", map[string]any{"command": cmd})
	o := p.run("Bash")
	p.oneHookCall("Bash", map[string]any{"command": cmd})
	if p.exists("pwned") {
		t.Errorf("%q ran touch under zsh", cmd)
	}
	r := p.oneToolResult(o)
	if !strings.Contains(r.Text, "zsh brace expansion") {
		t.Errorf("guard's reason did not reach the model: %q", r.Text)
	}
}
