// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"guard/audit"
)

// syncBuffer is the collector's output, read while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// collector builds the OpenTelemetry Collector of internal/otelcol (the
// collector's OTLP receiver and debug exporter, from the Go module proxy)
// and returns its binary. Without GUARD_OTEL=require, a collector that
// cannot be built skips the test.
func collector(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "otelcol")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join("..", "..", "internal", "otelcol")
	if out, err := cmd.CombinedOutput(); err != nil {
		if os.Getenv("GUARD_OTEL") == "require" {
			t.Fatalf("building the collector: %v\n%s", err, out)
		}
		t.Skipf("the collector does not build here (GUARD_OTEL=require makes this a failure): %v", err)
	}
	return bin
}

// startCollector runs the collector with an OTLP/HTTP receiver on addr and
// its debug exporter writing every record it receives, in detail, to its
// output; it returns when the receiver takes connections.
func startCollector(t *testing.T, bin, addr string) *syncBuffer {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	yaml := fmt.Sprintf(`receivers:
  otlp:
    protocols:
      http:
        endpoint: %s
exporters:
  debug:
    verbosity: detailed
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    logs:
      receivers: [otlp]
      exporters: [debug]
`, addr)
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--config", "file:"+cfg)
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cancel(); <-exited })
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return out
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("the collector exited (%v): %s", err, out)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the collector does not listen on %s: %s", addr, out)
		}
	}
}

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestExportToCollector: the decision log's lines reach a real collector as
// OTLP log records with guard's fields; a collector that is down loses
// nothing (the lines go once it is up); nothing goes twice.
func TestExportToCollector(t *testing.T) {
	bin := collector(t)
	state := t.TempDir()
	dlog := &audit.Log{Dir: filepath.Join(state, "log")}
	ran := true
	for _, e := range []audit.Entry{
		{Session: "s-export", Event: "PreToolUse", Tool: "Bash", Call: "git push --force origin main", Tier: "deny", Decision: "denied",
			Rules: []string{"git push -f"}, Authority: "policy", Reason: "it rewrites or deletes history others share"},
		{Session: "s-export", Event: "PreToolUse", Tool: "Read", Call: "Read /p/a.go", Tier: "allow", Decision: "allowed", Authority: "policy"},
		{Session: "s-export", Event: "PostToolUse", Tool: "Read", Call: "Read /p/a.go", Decision: "allowed", Authority: "policy", Ran: &ran},
	} {
		if err := dlog.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	addr := freeAddr(t)
	args := []string{"--once", "--endpoint", "http://" + addr + "/v1/logs", "--state", state, "--timeout", "3s"}
	env := func(string) string { return "" }

	// The collector is down: the export fails, and nothing is marked sent.
	if err := run(args, env); err == nil {
		t.Fatal("exporting to a collector that is down worked")
	}
	if _, err := os.Stat(filepath.Join(state, "log", cursorFile)); err == nil {
		t.Fatal("a failed export moved the cursor")
	}

	out := startCollector(t, bin, addr)
	if err := run(args, env); err != nil {
		t.Fatalf("export: %v", err)
	}
	want := []string{"guard.decision: Str(denied)", "guard.rules: Slice([\"git push -f\"])", "guard.session: Str(s-export)",
		"Body: Str(git push --force origin main)", "SeverityText: ERROR", "guard.ran: Bool(true)", "service.name: Str(guard)"}
	deadline := time.Now().Add(30 * time.Second)
	for _, w := range want {
		for !strings.Contains(out.String(), w) {
			if time.Now().After(deadline) {
				t.Fatalf("the collector did not receive %q:\n%s", w, out)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if got := strings.Count(out.String(), "guard.session: Str(s-export)"); got != 3 {
		t.Errorf("the collector received %d records of the session, want 3", got)
	}
	// Again: nothing new, nothing sent.
	if err := run(args, env); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if got := strings.Count(out.String(), "guard.session: Str(s-export)"); got != 3 {
		t.Errorf("after a second export the collector has %d records, want 3: lines went twice", got)
	}
}
