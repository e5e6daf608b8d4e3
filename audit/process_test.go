// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package audit

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// The environment of a helper process: the log's directory and the
// helper's number.
const (
	helperDir   = "AUDIT_TEST_HELPER_DIR"
	helperChild = "AUDIT_TEST_HELPER_CHILD"
)

// The appends of TestProcesses: each helper appends its lines to one of
// the sessions, and the log rotates on the way.
const (
	helpers        = 200
	linesPerHelper = 5
	helperSessions = 4
	helperMaxSize  = 64 << 10
)

// TestHelperProcess is a helper process of TestProcesses: it waits until
// its standard input is closed, then appends its lines. Run as a test, it
// does nothing.
func TestHelperProcess(t *testing.T) {
	dir := os.Getenv(helperDir)
	if dir == "" {
		return
	}
	child, err := strconv.Atoi(os.Getenv(helperChild))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(os.Stdin); err != nil {
		t.Fatal(err)
	}
	l := &Log{Dir: dir, MaxSize: helperMaxSize}
	for k := range linesPerHelper {
		e := Entry{Session: helperSession(child), Event: "PreToolUse", Tool: "Bash", Reason: helperReason(child, k)}
		if err := l.Append(e); err != nil {
			t.Fatal(err)
		}
	}
}

func helperSession(child int) string { return "p" + strconv.Itoa(child%helperSessions) }

func helperReason(child, k int) string { return fmt.Sprintf("helper %d line %d", child, k) }

// TestProcesses: processes that append to one log at once lose no line
// and mix no two lines, and the chains hold.
func TestProcesses(t *testing.T) {
	dir := t.TempDir()
	var cmds []*exec.Cmd
	var starts []io.WriteCloser
	var outputs []*bytes.Buffer
	defer func() {
		for _, w := range starts {
			w.Close()
		}
	}()
	for i := range helpers {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
		// Under -race, a process sleeps a second at its exit unless
		// GORACE says not to.
		gorace := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
		cmd.Env = append(os.Environ(), helperDir+"="+dir, helperChild+"="+strconv.Itoa(i), "GORACE="+gorace)
		out := new(bytes.Buffer)
		cmd.Stdout, cmd.Stderr = out, out
		start, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, starts, outputs = append(cmds, cmd), append(starts, start), append(outputs, out)
	}
	for _, w := range starts {
		w.Close()
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("helper %d: %v\n%s", i, err, outputs[i])
		}
	}

	records := read(t, dir)
	if want := helpers * linesPerHelper; len(records) != want {
		t.Errorf("Read returned %d records, want %d", len(records), want)
	}
	seen := map[string]bool{}
	seqs := map[string]int64{}
	files := map[string]bool{}
	for _, r := range records {
		files[r.File] = true
		s := r.Entry.Session
		if seqs[s]++; r.Entry.Seq != seqs[s] {
			t.Errorf("%s:%d: session %s seq %d, want %d", r.File, r.Line, s, r.Entry.Seq, seqs[s])
		}
		if seen[r.Entry.Reason] {
			t.Errorf("%s:%d: %q is there twice", r.File, r.Line, r.Entry.Reason)
		}
		seen[r.Entry.Reason] = true
	}
	for i := range helpers {
		for k := range linesPerHelper {
			if !seen[helperReason(i, k)] {
				t.Errorf("%q is missing", helperReason(i, k))
			}
		}
	}
	for s := range helperSessions {
		name := "p" + strconv.Itoa(s)
		if want := int64(helpers / helperSessions * linesPerHelper); seqs[name] != want {
			t.Errorf("session %s has %d lines, want %d", name, seqs[name], want)
		}
	}
	if len(files) < 2 {
		t.Errorf("the log is in %d files, want it rotated", len(files))
	}
	verifyClean(t, dir)
}

// TestVerifyWhileAppending: Verify sees each append whole or not at all,
// the line and its head together.
func TestVerifyWhileAppending(t *testing.T) {
	dir := t.TempDir()
	done := make(chan error)
	go func() {
		l := &Log{Dir: dir, MaxSize: 4 << 10}
		for n := range 200 {
			if err := l.Append(entry("s"+strconv.Itoa(n%2), n)); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			verifyClean(t, dir)
			return
		default:
		}
		problems, err := Verify(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(problems) > 0 {
			t.Fatalf("Verify during the appends: %s", problems[0])
		}
	}
}
