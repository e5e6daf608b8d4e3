// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package testnote

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestPrint plays go test: a parent process runs a test binary with its
// output captured, as go test does, and writes a line of its own after
// it; the line the test binary prints must come out of the parent, before
// the parent's own line and whole. The parent's standard error is a pipe,
// and a file that it did not open for appending, where only a duplicate of
// the parent's descriptor keeps the order (else the line is left out).
func TestPrint(t *testing.T) {
	switch os.Getenv("TESTNOTE_ROLE") {
	case "child":
		Print("the line")
		return
	case "parent":
		child := exec.Command(os.Args[0], "-test.run=^TestPrint$")
		child.Env = append(os.Environ(), "TESTNOTE_ROLE=child")
		var captured bytes.Buffer
		child.Stdout, child.Stderr = &captured, &captured
		if err := child.Run(); err != nil {
			t.Fatalf("%v: %s", err, captured.Bytes())
		}
		if bytes.Contains(captured.Bytes(), []byte("the line")) {
			t.Fatalf("the line went to the captured output: %q", captured.Bytes())
		}
		fmt.Fprintln(os.Stderr, "the parent's line")
		return
	}
	run := func(t *testing.T, setStderr func(*exec.Cmd)) {
		parent := exec.Command(os.Args[0], "-test.run=^TestPrint$")
		parent.Env = append(os.Environ(), "TESTNOTE_ROLE=parent")
		setStderr(parent)
		if out, err := parent.Output(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	t.Run("pipe", func(t *testing.T) {
		var stderr bytes.Buffer
		run(t, func(c *exec.Cmd) { c.Stderr = &stderr })
		if got, want := stderr.String(), "the line\nthe parent's line\n"; got != want {
			t.Errorf("the parent's standard error is %q, want %q", got, want)
		}
	})
	t.Run("file", func(t *testing.T) {
		name := filepath.Join(t.TempDir(), "stderr")
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		run(t, func(c *exec.Cmd) { c.Stderr = f })
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if s := string(got); s != "the line\nthe parent's line\n" && s != "the parent's line\n" {
			t.Errorf("the parent's standard error is %q, want the line before the parent's, or left out", s)
		}
		t.Logf("the parent's standard error: %q", got)
	})
}
