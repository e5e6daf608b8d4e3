// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstalledByInit: the hook guard init writes for Claude Code is the
// one that runs. The project's settings are guard init's alone (not the
// harness's logging wrapper); the real client runs an allowed command and
// guard's own decision log, in the scratch home, has the call, which only
// the hook init installed can have written. guard doctor then passes.
func TestInstalledByInit(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	if err := os.Remove(filepath.Join(p.dir, ".claude", "settings.json")); err != nil {
		t.Fatal(err)
	}
	guard := buildGuard(t)
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + p.home}
	runGuard := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(guard, args...)
		cmd.Env, cmd.Dir = env, p.dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("guard %v: %v\n%s", args, err, out.String())
		}
		return out.String()
	}
	runGuard("init", "--agent", "claude", "--cwd", p.dir)
	const cmd = "echo installed-by-init"
	p.script("Bash", map[string]any{"command": cmd})
	o := p.run("Bash")
	if r := p.oneToolResult(o); r.IsError || strings.TrimSpace(r.Text) != "installed-by-init" {
		t.Errorf("the command's output did not reach the model (is_error=%v): %q", r.IsError, r.Text)
	}
	if calls := p.hookCalls(); len(calls) != 0 {
		t.Errorf("the harness's wrapper ran %d times: the settings are not guard init's alone", len(calls))
	}
	logged := runGuard("log", "--json", "--tool", "Bash")
	if !strings.Contains(logged, `"call":"`+cmd+`"`) || !strings.Contains(logged, `"decision":"allowed"`) || !strings.Contains(logged, `"event":"PostToolUse"`) {
		t.Errorf("guard's log has no trace of the call through the hook init installed:\n%s", logged)
	}
	if out := runGuard("doctor", "--cwd", p.dir); !strings.Contains(out, "guard is installed, runs, and blocks what it denies") {
		t.Errorf("guard doctor after guard init:\n%s", out)
	}
}
