// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package harness

import (
	"context"
	"os/exec"
)

// Runner runs the bash tool's commands. Every process the harness starts
// goes through it.
type Runner interface {
	// Run runs command with bash -c in dir and returns its output,
	// standard output and standard error together.
	Run(ctx context.Context, dir, command string) (string, error)
}

// ExecRunner runs commands with os/exec.
type ExecRunner struct {
	Env []string // the commands' environment; nil for the process's own
}

func (r ExecRunner) Run(ctx context.Context, dir, command string) (string, error) {
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Dir, cmd.Env = dir, r.Env
	out, err := cmd.CombinedOutput()
	return string(out), err
}
