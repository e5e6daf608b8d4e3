// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"

	"guard/audit"
)

// maxBatch bounds the lines of one export.
const maxBatch = 512

// An otlpSignal is what the collector receives of the log's lines: log
// records, or spans. Each keeps its own cursor beside the log, so that
// one the collector refuses holds back no other.
type otlpSignal interface {
	// cursor is the name of the signal's cursor file in the log's
	// directory.
	cursor() string
	// send exports what the signal makes of a batch of lines, and
	// returns how many items went (a line may make none).
	send(ctx context.Context, batch []audit.Record) (int, error)
	shutdown(ctx context.Context)
}

// exporter sends the log's lines to the collector as each of its
// signals.
type exporter struct {
	dir     string // the decision log's directory
	timeout time.Duration
	signals []otlpSignal
}

// endpoints are the collector's URLs: logs always, traces for spans
// ("" for none).
type endpoints struct{ logs, traces string }

func newExporter(ctx context.Context, urls endpoints, dir string, timeout time.Duration) (*exporter, error) {
	host, _ := os.Hostname()
	res := resource.NewSchemaless(attribute.String("service.name", "guard"), attribute.String("host.name", host))
	logs, err := newLogRecords(ctx, urls.logs, timeout, res)
	if err != nil {
		return nil, err
	}
	x := &exporter{dir: dir, timeout: timeout, signals: []otlpSignal{logs}}
	if urls.traces != "" {
		spans, err := newSpans(ctx, urls.traces, timeout, res)
		if err != nil {
			return nil, err
		}
		x.signals = append(x.signals, spans)
	}
	return x, nil
}

func (x *exporter) close() {
	ctx, cancel := context.WithTimeout(context.Background(), x.timeout)
	defer cancel()
	for _, s := range x.signals {
		s.shutdown(ctx)
	}
}

// exportNew exports, as each signal, the lines of the log past that
// signal's cursor, oldest first, in batches, and moves the cursor past
// each batch the collector took. It returns how many items of each signal
// went, in the order of the signals; a signal that fails does not stop
// the others.
func (x *exporter) exportNew(ctx context.Context) ([]int, error) {
	recs, problems, err := audit.Read(x.dir)
	if err != nil {
		return nil, err
	}
	for _, p := range problems {
		fmt.Fprintf(os.Stderr, "guard-export: %s (not exported)\n", p)
	}
	slices.SortStableFunc(recs, func(a, b audit.Record) int { return a.Entry.Time.Compare(b.Entry.Time) })
	sent := make([]int, len(x.signals))
	var errs []error
	for i, s := range x.signals {
		n, err := x.exportSignal(ctx, s, recs)
		sent[i] = n
		errs = append(errs, err)
	}
	return sent, errors.Join(errs...)
}

// exportSignal exports the lines past the signal's cursor.
func (x *exporter) exportSignal(ctx context.Context, s otlpSignal, recs []audit.Record) (int, error) {
	cur, err := readCursor(x.dir, s.cursor())
	if err != nil {
		return 0, err
	}
	var todo []audit.Record
	for _, r := range recs {
		if r.Entry.Seq > cur[r.Entry.Session] {
			todo = append(todo, r)
		}
	}
	sent := 0
	for len(todo) > 0 {
		batch := todo[:min(maxBatch, len(todo))]
		todo = todo[len(batch):]
		ectx, cancel := context.WithTimeout(ctx, x.timeout)
		n, err := s.send(ectx, batch)
		cancel()
		if err != nil {
			return sent, fmt.Errorf("exporting to the collector: %v", err)
		}
		for _, r := range batch {
			cur[r.Entry.Session] = max(cur[r.Entry.Session], r.Entry.Seq)
		}
		if err := writeCursor(x.dir, s.cursor(), cur); err != nil {
			return sent, err
		}
		sent += n
	}
	return sent, nil
}

// logRecords turns the log's lines into OTLP log records: the SDK's
// logger makes the records (with guard's resource), a collecting
// processor holds them, and the exporter sends them, so that guard-export
// knows whether the collector took them before it moves on.
type logRecords struct {
	otlp     *otlploghttp.Exporter
	provider *sdklog.LoggerProvider
	logger   log.Logger
	held     *collect
}

func newLogRecords(ctx context.Context, url string, timeout time.Duration, res *resource.Resource) (*logRecords, error) {
	otlp, err := otlploghttp.New(ctx, otlploghttp.WithEndpointURL(url), otlploghttp.WithTimeout(timeout),
		otlploghttp.WithRetry(otlploghttp.RetryConfig{Enabled: false}))
	if err != nil {
		return nil, fmt.Errorf("the OTLP logs exporter: %v", err)
	}
	held := &collect{}
	provider := sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(held))
	return &logRecords{otlp: otlp, provider: provider, logger: provider.Logger(scope), held: held}, nil
}

// scope is the instrumentation scope of the records and spans.
const scope = "guard/audit"

// logsCursor holds, beside the log, the last sequence number of each
// session exported as log records.
const logsCursor = "export.json"

func (l *logRecords) cursor() string { return logsCursor }

func (l *logRecords) send(ctx context.Context, batch []audit.Record) (int, error) {
	l.held.records = l.held.records[:0]
	for _, r := range batch {
		l.logger.Emit(ctx, record(r.Entry))
	}
	return len(batch), l.otlp.Export(ctx, l.held.records)
}

func (l *logRecords) shutdown(ctx context.Context) {
	l.provider.Shutdown(ctx)
	l.otlp.Shutdown(ctx)
}

// record is the OTLP log record of a line: its call as the body, its
// fields as guard.* attributes, its decision as the severity.
func record(e audit.Entry) log.Record {
	var r log.Record
	r.SetTimestamp(e.Time)
	r.SetObservedTimestamp(time.Now())
	r.SetEventName("guard." + e.Event)
	r.SetBody(attribute.StringValue(e.Call))
	sev, text := log.SeverityInfo, "INFO"
	switch e.Decision {
	case "asked":
		sev, text = log.SeverityWarn, "WARN"
	case "denied", "blocked-error":
		sev, text = log.SeverityError, "ERROR"
	}
	r.SetSeverity(sev)
	r.SetSeverityText(text)
	r.AddAttributes(fields(e)...)
	return r
}

// fields are a line's fields as guard.* attributes, each one the line
// has: the log record's attributes, and the span's besides the
// conventions' own.
func fields(e audit.Entry) []attribute.KeyValue {
	kv := []attribute.KeyValue{
		attribute.String("guard.session", e.Session), attribute.Int64("guard.seq", e.Seq), attribute.String("guard.event", e.Event),
		attribute.String("guard.prev", e.Prev),
	}
	for _, f := range []struct{ k, v string }{
		{"guard.agent", e.Agent}, {"guard.tool", e.Tool}, {"guard.tool_call_id", e.ToolCallID}, {"guard.digest", e.Digest},
		{"guard.tier", e.Tier}, {"guard.decision", e.Decision}, {"guard.grant", e.Grant}, {"guard.authority", e.Authority},
		{"guard.policy", e.Policy}, {"guard.policy_sha256", e.PolicySHA256}, {"guard.version", e.Version},
		{"guard.reason", e.Reason}, {"guard.profile", e.Profile}, {"guard.rewrite_digest", e.RewriteDigest},
	} {
		if f.v != "" {
			kv = append(kv, attribute.String(f.k, f.v))
		}
	}
	if len(e.Rules) > 0 {
		kv = append(kv, attribute.StringSlice("guard.rules", e.Rules))
	}
	if e.Review {
		kv = append(kv, attribute.Bool("guard.review", true))
	}
	if e.Ran != nil {
		kv = append(kv, attribute.Bool("guard.ran", *e.Ran))
	}
	return kv
}

// collect is a processor that holds the records the logger makes, for
// guard-export to send itself.
type collect struct{ records []sdklog.Record }

func (c *collect) OnEmit(_ context.Context, r *sdklog.Record) error {
	c.records = append(c.records, r.Clone())
	return nil
}
func (c *collect) Enabled(context.Context, sdklog.EnabledParameters) bool { return true }
func (c *collect) Shutdown(context.Context) error                         { return nil }
func (c *collect) ForceFlush(context.Context) error                       { return nil }

func readCursor(dir, name string) (map[string]int64, error) {
	cur := map[string]int64{}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return cur, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &cur); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return cur, nil
}

// writeCursor replaces the cursor file whole.
func writeCursor(dir, name string, cur map[string]int64) error {
	data, err := json.Marshal(cur)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
