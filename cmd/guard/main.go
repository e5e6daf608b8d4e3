// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// processStart is as close to the start of the process as package main
// gets: guard hook's deadline runs from it.
var processStart = time.Now()

func main() {
	growStack()
	s := stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr, start: processStart, exit: os.Exit, signals: true, exec: syscall.Exec}
	err := run(context.Background(), os.Args[1:], s, os.Getenv)
	os.Exit(exitCode(err))
}

// exitCode maps an error to the process exit code. Anything that is not an
// exitError exits 2: for guard hook that is a deny, never a silent allow.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return 2
}
