// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"guard/internal/bwrapprobe"
	"guard/internal/testnote"
)

// testInput reads a tool input the way the agent adapters read a tool
// they do not know: command, a path field, pattern and url.
func testInput(in map[string]any) Input {
	str := func(k string) string { s, _ := in[k].(string); return s }
	out := Input{Command: str("command"), Pattern: str("pattern"), URL: str("url")}
	for _, k := range []string{"file_path", "notebook_path", "path"} {
		if s := str(k); s != "" {
			out.Path = s
		}
	}
	return out
}

// scratchWorld makes what a real program is run in by the tests of
// script languages: bubblewrap that can run (else the test is skipped,
// or fails under GUARD_ORACLE=require), and a scratch directory holding
// the input file in.txt, with input, and a secret file, with secret.
func scratchWorld(t *testing.T, what, input, secret string) (dir, in, secretFile string) {
	t.Helper()
	if err := bwrapprobe.Proc(); err != nil || what == "" {
		msg := fmt.Sprintf("guard/engine: SKIPPED %s: %s cannot run in bubblewrap: %v", t.Name(), cmpOr(what, "no program"), err)
		if os.Getenv("GUARD_ORACLE") == "require" {
			t.Fatal(msg + " (GUARD_ORACLE=require)")
		}
		testnote.Print(msg)
		t.Skip(msg)
	}
	dir = t.TempDir()
	in, secretFile = filepath.Join(dir, "in.txt"), filepath.Join(dir, "secret")
	if err := os.WriteFile(in, []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(secretFile, []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, in, secretFile
}
