// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Command baseline reads standard input to its end and exits 0. It is the
// floor that bench/hookbench measures guard hook against: the cost of
// starting a Go process and reading the hook input, with no decision.
package main

import (
	"io"
	"os"
)

func main() {
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		// hookbench requires exit status 0 and no output from the
		// baseline: a panic is as visible as an exit status.
		panic(err)
	}
}
