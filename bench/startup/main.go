// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Command startup reads stdin to EOF and exits, like bench/baseline, but it
// links and initialises every package guard's binary does (all of guard's
// own that cmd/guard imports; the command's own table of verbs aside). hookbench times
// it to tell the cost of starting guard's binary from the cost of its work.
package main

import (
	"encoding/json"
	"io"
	"os"

	_ "guard"
	_ "guard/agent"
	_ "guard/audit"
	_ "guard/corpus"
	_ "guard/engine"
	_ "guard/internal/setup"
	_ "guard/policy"
	_ "guard/sandbox"
	_ "guard/shellparse"
	_ "guard/state"
)

func main() {
	io.Copy(io.Discard, os.Stdin)
	_ = json.Valid // encoding/json is linked by guard's hook as well
}
