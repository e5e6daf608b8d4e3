// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
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

// collectorBuildBound bounds the build of the collector: the first one
// fetches its modules and compiles them, about a minute on two idle cores;
// a later one finds the binary in the cache.
const collectorBuildBound = 3 * time.Minute

// collector returns the binary of the OpenTelemetry Collector of
// internal/otelcol (the collector's OTLP receiver and debug exporter, from
// the Go module proxy). It is built once and kept in the user's cache
// directory, under a name made of the sources' and Go's version, so that a
// change of either builds it again. Without GUARD_OTEL=require, a collector
// that cannot be built within collectorBuildBound skips the test.
func collector(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "internal", "otelcol")
	h := sha256.New()
	fmt.Fprintf(h, "%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	for _, name := range []string{"main.go", "go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%s %d\n", name, len(data))
		h.Write(data)
	}
	dir := t.TempDir()
	if cache, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(cache, "guard-test")
	}
	bin := filepath.Join(dir, fmt.Sprintf("otelcol-%x", h.Sum(nil)[:8]))
	if fi, err := os.Stat(bin); err == nil && fi.Mode().IsRegular() {
		return bin
	}
	skip := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if os.Getenv("GUARD_OTEL") == "require" {
			t.Fatal(msg)
		}
		t.Skip(msg + " (GUARD_OTEL=require makes this a failure)")
	}
	os.MkdirAll(dir, 0o755)
	tmp, err := os.CreateTemp(dir, "otelcol.build-")
	if err != nil { // a cache directory this test may not write: build for this run only
		dir = t.TempDir()
		bin = filepath.Join(dir, "otelcol")
		tmp, err = os.Create(bin + ".build")
		if err != nil {
			t.Fatal(err)
		}
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	ctx, cancel := context.WithTimeout(context.Background(), collectorBuildBound)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", tmp.Name(), ".")
	cmd.Dir = src
	cmd.WaitDelay = 10 * time.Second // the compiler's processes, if go is killed
	start := time.Now()
	out, err := cmd.CombinedOutput()
	switch {
	case ctx.Err() != nil:
		skip("building the collector took more than %s; a later run goes on from the Go build cache", collectorBuildBound)
	case err != nil:
		skip("the collector does not build here: %v\n%s", err, out)
	}
	if err := os.Rename(tmp.Name(), bin); err != nil {
		skip("keeping the collector: %v", err)
	}
	// The collectors of other sources are of no further use.
	old, _ := filepath.Glob(filepath.Join(dir, "otelcol-*"))
	for _, o := range old {
		if o != bin {
			os.Remove(o)
		}
	}
	t.Logf("built the collector in %s: %s", time.Since(start).Round(time.Second), bin)
	return bin
}

// startCollector runs the collector with an OTLP/HTTP receiver on addr and
// its debug exporter writing every log record and span it receives, in
// detail, to its output; it returns when the receiver takes connections.
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
    traces:
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
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) { // a bound, not a speed goal
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

// waitOutput waits until the collector has printed want. The bound is
// for a collector that never will, not a speed goal.
func waitOutput(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); !strings.Contains(out.String(), want); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the collector did not receive %q:\n%s", want, out)
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
// OTLP log records with guard's fields, and its decisions as execute_tool
// spans with the GenAI conventions' attributes, a deny's status an error;
// a collector that is down loses nothing (the lines go once it is up);
// nothing goes twice.
func TestExportToCollector(t *testing.T) {
	bin := collector(t)
	state := t.TempDir()
	dlog := &audit.Log{Dir: filepath.Join(state, "log")}
	ran := true
	for _, e := range []audit.Entry{
		{Session: "s-export", Event: "PreToolUse", Tool: "Bash", ToolCallID: "toolu_push", Call: "git push --force origin main", Tier: "deny",
			Decision: "denied", Rules: []string{"git push -f"}, Authority: "policy", Policy: "default", Reason: "it rewrites or deletes history others share"},
		{Session: "s-export", Event: "PreToolUse", Tool: "Read", Call: "Read /p/a.go", Tier: "allow", Decision: "allowed", Authority: "policy"},
		{Session: "s-export", Event: "PostToolUse", Tool: "Read", Call: "Read /p/a.go", Decision: "allowed", Authority: "policy", Ran: &ran},
	} {
		if err := dlog.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	addr := freeAddr(t)
	args := []string{"--once", "--spans", "--endpoint", "http://" + addr + "/v1/logs", "--state", state, "--timeout", "60s"} // a bound for a hung collector, not a speed goal
	env := func(string) string { return "" }

	// The collector is down: the export fails, and nothing is marked sent.
	if err := run(args, env); err == nil {
		t.Fatal("exporting to a collector that is down worked")
	}
	for _, c := range []string{logsCursor, spansCursor} {
		if _, err := os.Stat(filepath.Join(state, "log", c)); err == nil {
			t.Fatalf("a failed export moved the cursor %s", c)
		}
	}

	out := startCollector(t, bin, addr)
	if err := run(args, env); err != nil {
		t.Fatalf("export: %v", err)
	}
	want := []string{"guard.decision: Str(denied)", "guard.rules: Slice([\"git push -f\"])", "guard.session: Str(s-export)",
		"Body: Str(git push --force origin main)", "SeverityText: ERROR", "guard.ran: Bool(true)", "service.name: Str(guard)"}
	for _, w := range want {
		waitOutput(t, out, w)
	}
	waitOutput(t, out, "Name           : execute_tool Read")
	records, spans := received(out, "LogRecord"), received(out, "Span")
	if got := count(records, "guard.session: Str(s-export)"); got != 3 {
		t.Errorf("the collector received %d records of the session, want 3", got)
	}
	// The two decisions are spans; the report that a call ran is none.
	if got := count(spans, "guard.session: Str(s-export)"); got != 2 {
		t.Errorf("the collector received %d spans of the session, want 2:\n%s", got, strings.Join(spans, "\n"))
	}
	for _, c := range []struct {
		name string
		want []string // regular expressions, each matching a line of the span
		not  []string
	}{
		{"execute_tool Bash", []string{`Kind +: Internal`, `Status code +: Error`, `Status message +: it rewrites or deletes history others share`,
			`-> gen_ai.operation.name: Str\(execute_tool\)`, `-> gen_ai.tool.name: Str\(Bash\)`, `-> gen_ai.tool.type: Str\(function\)`,
			`-> gen_ai.tool.call.id: Str\(toolu_push\)`, `-> gen_ai.conversation.id: Str\(s-export\)`, `-> error.type: Str\(denied\)`,
			`-> guard.decision: Str\(denied\)`, `-> guard.rules: Slice\(\["git push -f"\]\)`, `-> guard.tier: Str\(deny\)`,
			`-> guard.policy: Str\(default\)`, `Parent ID +: $`}, nil},
		{"execute_tool Read", []string{`Kind +: Internal`, `Status code +: Unset`, `-> gen_ai.tool.name: Str\(Read\)`,
			`-> guard.decision: Str\(allowed\)`}, []string{`error.type`, `gen_ai.tool.call.id`}},
	} {
		span := ""
		for _, sp := range spans {
			if regexp.MustCompile(`(?m)^ *Name +: ` + c.name + `$`).MatchString(sp) {
				span = sp
			}
		}
		if span == "" {
			t.Errorf("no span %q:\n%s", c.name, strings.Join(spans, "\n"))
			continue
		}
		for _, w := range c.want {
			if !regexp.MustCompile(`(?m)` + w).MatchString(span) {
				t.Errorf("span %q: no line matches %q:\n%s", c.name, w, span)
			}
		}
		for _, n := range c.not {
			if strings.Contains(span, n) {
				t.Errorf("span %q has %s:\n%s", c.name, n, span)
			}
		}
	}
	// Again: nothing new, nothing sent. Then one new line, which the
	// collector prints after whatever the export before it sent.
	if err := run(args, env); err != nil {
		t.Fatal(err)
	}
	if err := dlog.Append(audit.Entry{Session: "s-marker", Event: "PreToolUse", Tool: "Read", Call: "Read /p/b.go", Tier: "allow",
		Decision: "allowed", Authority: "policy"}); err != nil {
		t.Fatal(err)
	}
	if err := run(args, env); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, out, "guard.session: Str(s-marker)")
	waitOutput(t, out, "gen_ai.conversation.id: Str(s-marker)")
	records, spans = received(out, "LogRecord"), received(out, "Span")
	if got := count(records, "guard.session: Str(s-export)"); got != 3 {
		t.Errorf("after a second export the collector has %d records, want 3: lines went twice", got)
	}
	if got := count(spans, "guard.session: Str(s-export)"); got != 2 {
		t.Errorf("after a second export the collector has %d spans, want 2: spans went twice", got)
	}
}

// received splits the collector's output into the items of one kind that
// its debug exporter printed (LogRecord or Span), each from its header
// "LogRecord #N" or "Span #N" to the next item's header of either kind.
func received(out *syncBuffer, kind string) []string {
	header := regexp.MustCompile(`(?m)^\s*(LogRecord|Span) #\d+$`)
	text := out.String()
	idx := header.FindAllStringSubmatchIndex(text, -1)
	var items []string
	for i, m := range idx {
		if text[m[2]:m[3]] != kind {
			continue
		}
		end := len(text)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		items = append(items, text[m[0]:end])
	}
	return items
}

// count is how many of items hold s.
func count(items []string, s string) int {
	n := 0
	for _, it := range items {
		if strings.Contains(it, s) {
			n++
		}
	}
	return n
}

// TestSignalsApart: the log records and the spans each keep their own
// cursor. A collector that refuses traces takes the log records, which
// do not go again; the spans go once it takes them, and only then.
func TestSignalsApart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "log")
	dlog := &audit.Log{Dir: dir}
	for _, e := range []audit.Entry{
		{Session: "s1", Event: "PreToolUse", Tool: "Bash", Decision: "denied", Reason: "no"},
		{Session: "s1", Event: "PreToolUse", Tool: "Read", Decision: "allowed"},
		{Session: "s1", Event: "SessionEnd", Authority: "guard"},
	} {
		if err := dlog.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	requests := map[string]int{}
	refuseTraces := true
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		requests[r.URL.Path]++
		if r.URL.Path == "/v1/traces" && refuseTraces {
			http.Error(w, "no traces pipeline", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer srv.Close()
	x, err := newExporter(context.Background(), endpoints{logs: srv.URL + "/v1/logs", traces: srv.URL + "/v1/traces"}, dir, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer x.close()
	export := func() ([]int, error) {
		t.Helper()
		n, err := x.exportNew(context.Background())
		mu.Lock()
		defer mu.Unlock()
		t.Logf("sent %v (%v); requests so far %v", n, err, requests)
		return n, err
	}

	n, err := export()
	if err == nil || !slices.Equal(n, []int{3, 0}) {
		t.Fatalf("traces refused: sent %v, err %v; want the 3 lines as log records and an error", n, err)
	}
	if _, err := os.Stat(filepath.Join(dir, spansCursor)); err == nil {
		t.Fatal("refused spans moved their cursor")
	}
	mu.Lock()
	refuseTraces = false
	mu.Unlock()
	if n, err = export(); err != nil || !slices.Equal(n, []int{0, 2}) {
		t.Fatalf("traces taken: sent %v, err %v; want no log record again and the 2 decisions as spans", n, err)
	}
	mu.Lock()
	before := maps.Clone(requests)
	mu.Unlock()
	if n, err = export(); err != nil || !slices.Equal(n, []int{0, 0}) {
		t.Fatalf("nothing new: sent %v, err %v", n, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !maps.Equal(before, requests) {
		t.Errorf("nothing new, and the collector was sent something: %v, then %v", before, requests)
	}
}
