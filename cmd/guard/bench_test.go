// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"guard"
)

// BenchmarkHook runs guard hook in process, warm: reading the call,
// deciding it with the default policy, writing the answer. Compare it with
// the whole-process figures of bench/hookbench to see what starting cold
// costs.
func BenchmarkHook(b *testing.B) {
	in := []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git -C sub log --oneline -5 | grep -v foo && cargo test --release -- --nocapture; ls -la | wc -l"},"cwd":"/nonexistent/project"}`)
	env := func(string) string { return "" }
	var out bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		err := run(context.Background(), []string{"hook"}, stdio{in: bytes.NewReader(in), out: &out, err: io.Discard, start: time.Now()}, env)
		if err != nil || !strings.Contains(out.String(), `"permissionDecision":"allow"`) {
			b.Fatalf("err %v, output %q", err, out.String())
		}
	}
}

// BenchmarkServe decides the call of BenchmarkHook through guard serve's
// stream, in process and warm: a line in, an answer out (ask: a harness
// that runs the command itself gets no sandbox).
func BenchmarkServe(b *testing.B) {
	line := []byte(`{"id":"1","kind":"shell","input":{"command":"git -C sub log --oneline -5 | grep -v foo && cargo test --release -- --nocapture; ls -la | wc -l"},"cwd":"/nonexistent/project"}` + "\n")
	opts := guard.Options{Env: func(string) string { return "" }}
	e, err := guard.Load(opts)
	if err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		// The harness runs the command itself, where the kernel does not
		// bound it: the cargo test, allowed only in the sandbox, asks.
		if err := guard.Serve(context.Background(), bytes.NewReader(line), &out, e, opts); err != nil || !strings.Contains(out.String(), `"decision":"ask"`) {
			b.Fatalf("err %v, output %q", err, out.String())
		}
	}
}
