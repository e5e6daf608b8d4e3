// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// MinABI is the Landlock ABI guard run needs on Linux.
const MinABI = 4

// sandboxExec is macOS's sandbox-exec, which runs a program under a
// Seatbelt profile.
const sandboxExec = "/usr/bin/sandbox-exec"

// ABI returns 0: there is no Landlock on macOS.
func ABI() int { return 0 }

// Available reports whether guard run can confine a program here: on
// macOS, whether sandbox-exec is there.
func Available() error {
	if _, err := os.Stat(sandboxExec); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrUnsupported, sandboxExec, err)
	}
	return nil
}

// Apply fails: on macOS a process cannot confine itself; Exec runs the
// program under sandbox-exec instead.
func Apply(Rules) error {
	return fmt.Errorf("%w: on macOS guard run confines the program it starts, not itself", ErrUnsupported)
}

// Exec executes prog under sandbox-exec with the rules as a Seatbelt
// profile. This path has not run on real macOS.
func Exec(r Rules, prog string, argv, env []string) error {
	if err := Available(); err != nil {
		return err
	}
	args := append([]string{"sandbox-exec", "-p", Seatbelt(r), prog}, argv[1:]...)
	return syscall.Exec(sandboxExec, args, env)
}

// ErrNoIsolation is returned by RunIsolated where guard cannot make a
// network namespace: everywhere but Linux.
var ErrNoIsolation = errors.New("guard run makes network namespaces only on Linux")

// RunIsolated fails with ErrNoIsolation.
func RunIsolated(exe string, argv, env []string) (int, error) { return 0, ErrNoIsolation }

// LoopbackUp does nothing: there is no namespace of guard's here.
func LoopbackUp() error { return nil }

// InOwnNamespace reports false: guard makes no namespaces here.
func InOwnNamespace() (bool, error) { return false, nil }
