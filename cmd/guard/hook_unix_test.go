// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"guard/engine"
)

// These tests run guard hook as a process: the guard guardExe builds
// (guardbin_test.go). They end a run in
// ways no in-process test can: a signal, and a write or an open that never
// returns.

// hookProcessWait bounds a guard hook process in these tests. It is not a
// speed goal: a process that is still running then has hung.
const hookProcessWait = time.Minute

// hookProcess returns guard hook with args, in a fresh home, with stdin,
// stdout and stderr for the caller to set.
func hookProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hookProcessWait)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, guardExe(), append([]string{"hook"}, args...)...)
	cmd.Args[0] = "guard"
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	return cmd
}

// hookProcessCode waits for guard and returns its exit code, failing the
// test if it died of a signal or did not end.
func hookProcessCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("waiting for guard hook: %v", err)
	}
	st := cmd.ProcessState
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("guard hook died of %v (a hang is killed after %s): a death by signal lets the call run", ws.Signal(), hookProcessWait)
	}
	return st.ExitCode()
}

// hookPartialCall is the start of a call, larger than any pipe's buffer:
// once it is written, guard has read from stdin and waits there for the
// rest.
var hookPartialCall = []byte(`{"tool_name":"Bash","tool_input":{"command":"git status"},"pad":"` + strings.Repeat("x", 1<<20))

// TestHookSignals sends each signal that would kill a Go program to guard
// hook while it waits for the rest of its stdin: it does not die of it.
// Once its handler is in place, a stopping signal ends the run in exit 2
// and a deny that names it. SIGPIPE stays ignored: the run goes on, and
// ends in the deny for its input when stdin closes.
func TestHookSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGPIPE} {
		t.Run(signalName(sig), func(t *testing.T) {
			cmd := hookProcess(t, "--deadline", "1h")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Until guard hook ignores it, the signal kills the process
			// (the runtime's default), and on a loaded machine the first
			// tick can come before main starts. guard hook ignores it
			// before it reads its input, and this write, more than a
			// pipe holds (JSON's leading white space), returns only once
			// it has read some.
			if _, err := stdin.Write(append(bytes.Repeat([]byte(" "), 256<<10), hookPartialCall...)); err != nil {
				t.Fatal(err)
			}
			// guard hook ignores the signal until signalDelay has passed:
			// send it until the run ends, or, for SIGPIPE, for a while
			// past that before stdin closes.
			stop := make(chan struct{})
			go func() {
				tick := time.NewTicker(signalDelay / 2)
				defer tick.Stop()
				for n := 0; ; n++ {
					select {
					case <-stop:
						return
					case <-tick.C:
						cmd.Process.Signal(sig)
						if sig == syscall.SIGPIPE && n == 20 {
							stdin.Close()
						}
					}
				}
			}()
			code := hookProcessCode(t, cmd)
			close(stop)
			if code != 2 {
				t.Errorf("exit code %d, want 2", code)
			}
			want := "guard: denied: guard hook was stopped by " + signalName(sig) + " before it answered\n"
			if sig == syscall.SIGPIPE {
				want = "guard: denied: the hook input is not a JSON object: unexpected EOF\n"
			}
			if stderr.String() != want {
				t.Errorf("stderr %q, want %q", stderr.String(), want)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %q, want empty", stdout.String())
			}
		})
	}
}

// TestHookClosedStdout writes the answer to a pipe that nobody reads any
// more: the kernel raises SIGPIPE for a write to a closed stdout, and guard
// hook denies instead of dying of it.
func TestHookClosedStdout(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r.Close()
	cmd := hookProcess(t)
	var stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(hookTestCall(t.TempDir(), "git status")), w, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if code := hookProcessCode(t, cmd); code != 2 {
		t.Errorf("exit code %d, want 2", code)
	}
	// SIGPIPE is ignored: the write fails with EPIPE, and that is the deny.
	if want := "guard: denied: writing the answer: write /dev/stdout: broken pipe\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}

// fullPipe returns a pipe whose buffer is full: a write to w blocks until
// r is read, and r never is.
func fullPipe(t *testing.T) (r, w *os.File, filled int) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	if err := w.SetWriteDeadline(time.Now().Add(100 * time.Millisecond)); err != nil {
		t.Skipf("no write deadline on a pipe: %v", err)
	}
	chunk := make([]byte, 4096)
	for {
		n, err := w.Write(chunk)
		filled += n
		if errors.Is(err, os.ErrDeadlineExceeded) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if filled == 0 {
		t.Fatal("filled no bytes of the pipe")
	}
	return r, w, filled
}

// TestHookStuck checks that the deadline holds when the decision never
// ends: stdin that stays open, a policy file whose open blocks (a FIFO with
// no writer), a write to stdout that blocks. guard hook writes the deny and
// exits 2. When stderr blocks too, it exits 2 without the deny line.
func TestHookStuck(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "guard.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	call := hookTestCall(dir, "git status") // allowed by the default policy
	const late = "guard: denied: the decision took longer than the 300ms deadline\nguard: hint: " + engine.DeadlineHint + "\n"

	t.Run("stdin never closes", func(t *testing.T) {
		cmd := hookProcess(t, "--deadline", "300ms")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		defer stdin.Close()
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if _, err := stdin.Write(hookPartialCall); err != nil {
			t.Fatal(err)
		}
		if code := hookProcessCode(t, cmd); code != 2 {
			t.Errorf("exit code %d, want 2", code)
		}
		if stderr.String() != late || stdout.Len() != 0 {
			t.Errorf("stdout %q, stderr %q; want nothing and %q", stdout.String(), stderr.String(), late)
		}
	})

	t.Run("open blocks", func(t *testing.T) {
		cmd := hookProcess(t, "--deadline", "300ms", "--config", fifo)
		var stdout, stderr bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(call), &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if code := hookProcessCode(t, cmd); code != 2 {
			t.Errorf("exit code %d, want 2", code)
		}
		if stderr.String() != late || stdout.Len() != 0 {
			t.Errorf("stdout %q, stderr %q; want nothing and %q", stdout.String(), stderr.String(), late)
		}
	})

	t.Run("stdout blocks", func(t *testing.T) {
		r, w, filled := fullPipe(t)
		cmd := hookProcess(t, "--deadline", "300ms")
		var stderr bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(call), w, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		code := hookProcessCode(t, cmd)
		w.Close()
		rest, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		if code != 2 {
			t.Errorf("exit code %d, want 2", code)
		}
		if stderr.String() != late {
			t.Errorf("stderr %q, want %q", stderr.String(), late)
		}
		if len(rest) != filled {
			t.Errorf("stdout got %d bytes after the %d that filled it, want none", len(rest)-filled, filled)
		}
	})

	t.Run("stdout and stderr block", func(t *testing.T) {
		_, w, _ := fullPipe(t)
		cmd := hookProcess(t, "--deadline", "300ms")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(call), w, w
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if code := hookProcessCode(t, cmd); code != 2 {
			t.Errorf("exit code %d, want 2", code)
		}
	})
}
