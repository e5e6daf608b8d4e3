// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"guard/audit"
	"guard/state"
)

// TestHookParallelLog: 200 guard hook processes at once, each reporting a
// call that ran and was granted, against one decision log and one grant
// store: no line is lost or torn, every chain is whole, and every grant is
// there.
func TestHookParallelLog(t *testing.T) {
	t.Parallel() // independent of the other tests: its own temp dirs and processes
	if testing.Short() {
		t.Skip("starts 200 processes")
	}
	exe := guardExe()
	root := t.TempDir()
	proj, stateHome := filepath.Join(root, "proj"), filepath.Join(root, "state")
	const n, sessions = 200, 4
	for i := range n {
		if err := os.MkdirAll(filepath.Join(proj, fmt.Sprintf("d%d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in, _ := json.Marshal(map[string]any{
				"session_id": fmt.Sprintf("s%d", i%sessions), "hook_event_name": "PostToolUse", "cwd": proj,
				"tool_name": "Edit", "tool_response": map[string]any{},
				"tool_input": map[string]any{"file_path": filepath.Join(proj, fmt.Sprintf("d%d", i), "a.go"), "old_string": "a", "new_string": "b"},
			})
			ctx, cancel := context.WithTimeout(context.Background(), hookProcessWait)
			defer cancel()
			// Under the race detector, 200 hooks on two cores outlast the
			// hook's own deadline; what is checked here is that nothing is lost.
			cmd := exec.CommandContext(ctx, exe, "hook", "--deadline", "50s")
			cmd.Args[0] = "guard"
			cmd.Env = []string{"HOME=" + root, "XDG_STATE_HOME=" + stateHome, "PATH=/usr/bin:/bin"}
			var stderr bytes.Buffer
			cmd.Stdin, cmd.Stderr = bytes.NewReader(in), &stderr
			if err := cmd.Run(); err != nil || stderr.Len() > 0 {
				errs <- fmt.Errorf("hook %d: %v: %s", i, err, stderr.String())
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	dir := filepath.Join(stateHome, "guard", "log")
	recs, problems, err := audit.Read(dir)
	if err != nil || len(problems) > 0 {
		t.Fatalf("reading the log: %v %v", err, problems)
	}
	count := map[string]int{}
	for _, r := range recs {
		count[r.Entry.Event]++
	}
	if count["PostToolUse"] != n || count["grant"] != n {
		t.Errorf("the log holds %d PostToolUse and %d grant lines, want %d of each", count["PostToolUse"], count["grant"], n)
	}
	if problems, err := audit.Verify(dir); err != nil || len(problems) > 0 {
		t.Errorf("verify: %v %v", err, problems)
	}
	gs, err := (&state.Store{Dir: filepath.Join(stateHome, "guard", "grants")}).List("")
	if err != nil || len(gs) != n {
		t.Errorf("%d grants, want %d: %v", len(gs), n, err)
	}
}
