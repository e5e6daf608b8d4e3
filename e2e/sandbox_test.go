// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSandbox checks the bubblewrap set-up the Claude Code runs use: the
// project is writable, the repository, the real HOME and other directories
// are not, and the host's /tmp is hidden.
func TestSandbox(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bwrap"); err != nil {
		unavailable(t, "bubblewrap (bwrap) not installed")
	}
	proj := t.TempDir()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "host-file"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	sh, err = filepath.EvalSymlinks(sh)
	if err != nil {
		t.Fatal(err)
	}
	run := func(script string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := sandbox(ctx, sh, proj, []string{proj}, nil, []string{"-c", script}, []string{"PATH=/usr/bin:/bin"})
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("echo ok > in-project && cat in-project"); err != nil || strings.TrimSpace(out) != "ok" {
		t.Errorf("writing in the project inside the sandbox: %v, %q", err, out)
	}
	for _, dir := range []string{repo, home, outside} {
		name := filepath.Join(dir, "guard-e2e-sandbox-probe")
		out, err := run("touch " + shellQuote(name))
		if _, serr := os.Stat(name); serr == nil {
			os.Remove(name)
			t.Errorf("the sandbox let a command create %s", name)
		} else if err == nil {
			t.Errorf("touch %s succeeded in the sandbox but left no file: %q", name, out)
		}
	}
	if strings.HasPrefix(outside, "/tmp/") {
		if out, err := run("cat " + shellQuote(filepath.Join(outside, "host-file"))); err == nil {
			t.Errorf("the host's /tmp is visible in the sandbox: %q", out)
		}
	}
}
