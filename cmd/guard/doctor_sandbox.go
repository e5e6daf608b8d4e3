// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"guard/agent"
	"guard/sandbox"
)

// doctorSandbox checks that guard run confines a command here: it runs one
// in a throwaway project, which must fail to write the
// project's .git/config, and make a new file. It says what the kernel
// has, and where guard run cannot run, what happens to allowed calls.
func doctorSandbox(ctx context.Context) agent.Check {
	kernel := fmt.Sprintf("Landlock ABI %d", sandbox.ABI())
	unbounded := "allowed shell calls run on guard's judgment alone, and those allowed only in the sandbox ask ([sandbox] require = true makes every one ask)"
	if err := sandbox.Available(); err != nil {
		return agent.Check{Warn: true, What: fmt.Sprintf("the sandbox: guard run cannot confine a command here: %v (%s)", err, kernel),
			Fix: "use a kernel and settings that let this user make user namespaces; until then " + unbounded}
	}
	exe, err := os.Executable()
	if err != nil {
		return agent.Check{Warn: true, What: "the sandbox: guard cannot find its own binary: " + err.Error(), Fix: unbounded}
	}
	dir, err := os.MkdirTemp("", "guard-doctor")
	if err != nil {
		return agent.Check{Warn: true, What: "the sandbox: " + err.Error(), Fix: "fix the temp dir"}
	}
	defer os.RemoveAll(dir)
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		return agent.Check{Warn: true, What: "the sandbox: " + err.Error(), Fix: "fix the temp dir"}
	}
	os.WriteFile(filepath.Join(proj, ".git", "config"), []byte("[core]\n"), 0o600)
	const script = `echo x >> .git/config 2>/dev/null && echo WROTE-GIT; echo x > new.txt && echo MADE`
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "run", "--cwd", proj, "--", "/bin/sh", "-c", script)
	cmd.Args[0] = "guard"
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	got := strings.TrimSpace(out.String())
	if err != nil || strings.Contains(got, "WROTE-GIT") || !strings.Contains(got, "MADE") {
		return agent.Check{Warn: true, What: fmt.Sprintf("the sandbox: guard run did not confine a test command (%v): %s (%s)", err, got, kernel),
			Fix: "see README, The sandbox: the jail needs user namespaces and a /proc the kernel lets guard mount again (not inside another sandbox); until then " + unbounded}
	}
	return agent.Check{OK: true, What: fmt.Sprintf("the sandbox: guard run confines a command here (namespaces, seccomp, %s)", kernel)}
}
