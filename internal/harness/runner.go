// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package harness

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
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

// Run runs command with bash -c in dir, without BASH_ENV and ENV in its
// environment: with them bash runs a file of their naming before the
// command, which guard did not judge.
func (r ExecRunner) Run(ctx context.Context, dir, command string) (string, error) {
	env := r.Env
	if env == nil {
		env = os.Environ()
	}
	env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return strings.HasPrefix(kv, "BASH_ENV=") || strings.HasPrefix(kv, "ENV=")
	})
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}
