// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build !linux && !darwin

package sandbox

import (
	"errors"
	"fmt"
	"runtime"
)

// MinABI is the Landlock ABI guard run needs on Linux.
const MinABI = 4

// Available fails: guard run confines programs only on Linux and macOS.
func Available() error { return Apply(Rules{}) }

// ABI returns 0: there is no Landlock here.
func ABI() int { return 0 }

// Apply fails: guard confines processes only on Linux and macOS.
func Apply(Rules) error {
	return fmt.Errorf("%w: guard run uses Landlock, which %s does not have", ErrUnsupported, runtime.GOOS)
}

// Exec fails: guard confines processes only on Linux and macOS.
func Exec(r Rules, prog string, argv, env []string) error { return Apply(r) }

// ErrNoIsolation is returned by RunIsolated where guard cannot make a
// network namespace: everywhere but Linux.
var ErrNoIsolation = errors.New("guard run makes network namespaces only on Linux")

// RunIsolated fails with ErrNoIsolation.
func RunIsolated(exe string, argv, env []string) (int, error) { return 0, ErrNoIsolation }

// LoopbackUp does nothing: there is no namespace of guard's here.
func LoopbackUp() error { return nil }

// InOwnNamespace reports false: guard makes no namespaces here.
func InOwnNamespace() (bool, error) { return false, nil }
