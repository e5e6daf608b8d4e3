// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package testnote prints a line that a plain go test shows.
//
// go test keeps the output of a package that passes to itself and prints
// only its ok line (unless -v), so a test binary that skipped a whole
// suite, because a tool it needs is missing, would pass unseen. [Print]
// writes to the standard error of the go command that runs the test
// binary instead: on Linux through a duplicate of that descriptor, so
// that the line lands in order with go's own output even in a file, or,
// where that is not allowed, by opening it again when it is a terminal or
// a pipe. Elsewhere, and with -v, the line goes to the test binary's own
// standard error.
//
// This package has no API stability promise outside this module.
package testnote

import (
	"fmt"
	"os"
	"testing"
)

// Print writes line and a newline where a plain go test shows it. Call it
// from TestMain after m.Run, or from a test: it needs the parsed flags.
func Print(line string) {
	if !testing.Verbose() {
		if f := parentStderr(); f != nil {
			fmt.Fprintln(f, line)
			f.Close()
			return
		}
	}
	fmt.Fprintln(os.Stderr, line)
}
