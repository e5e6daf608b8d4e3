// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build !linux && !darwin

package sandbox

import (
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
