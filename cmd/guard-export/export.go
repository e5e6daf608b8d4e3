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

// exporter turns the log's lines into OTLP log records: the SDK's logger
// makes the records (with guard's resource), a collecting processor holds
// them, and the exporter sends them, so that guard-export knows whether
// the collector took them before it moves on.
type exporter struct {
	dir      string // the decision log's directory
	timeout  time.Duration
	otlp     *otlploghttp.Exporter
	provider *sdklog.LoggerProvider
	logger   log.Logger
	held     *collect
}

func newExporter(ctx context.Context, url, dir string, timeout time.Duration) (*exporter, error) {
	otlp, err := otlploghttp.New(ctx, otlploghttp.WithEndpointURL(url), otlploghttp.WithTimeout(timeout),
		otlploghttp.WithRetry(otlploghttp.RetryConfig{Enabled: false}))
	if err != nil {
		return nil, fmt.Errorf("the OTLP exporter: %v", err)
	}
	host, _ := os.Hostname()
	res := resource.NewSchemaless(attribute.String("service.name", "guard"), attribute.String("host.name", host))
	held := &collect{}
	provider := sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(held))
	return &exporter{dir: dir, timeout: timeout, otlp: otlp, provider: provider,
		logger: provider.Logger("guard/audit"), held: held}, nil
}

func (x *exporter) close() {
	ctx, cancel := context.WithTimeout(context.Background(), x.timeout)
	defer cancel()
	x.provider.Shutdown(ctx)
	x.otlp.Shutdown(ctx)
}

// exportNew exports the lines of the log past the cursor, oldest first, in
// batches, and moves the cursor past each batch the collector took. It
// returns how many lines went.
func (x *exporter) exportNew(ctx context.Context) (int, error) {
	recs, problems, err := audit.Read(x.dir)
	if err != nil {
		return 0, err
	}
	for _, p := range problems {
		fmt.Fprintf(os.Stderr, "guard-export: %s (not exported)\n", p)
	}
	cur, err := readCursor(x.dir)
	if err != nil {
		return 0, err
	}
	var todo []audit.Entry
	for _, r := range recs {
		if r.Entry.Seq > cur[r.Entry.Session] {
			todo = append(todo, r.Entry)
		}
	}
	slices.SortStableFunc(todo, func(a, b audit.Entry) int { return a.Time.Compare(b.Time) })
	sent := 0
	for len(todo) > 0 {
		batch := todo[:min(maxBatch, len(todo))]
		todo = todo[len(batch):]
		x.held.records = x.held.records[:0]
		for _, e := range batch {
			x.logger.Emit(ctx, record(e))
		}
		ectx, cancel := context.WithTimeout(ctx, x.timeout)
		err := x.otlp.Export(ectx, x.held.records)
		cancel()
		if err != nil {
			return sent, fmt.Errorf("exporting to the collector: %v", err)
		}
		for _, e := range batch {
			cur[e.Session] = max(cur[e.Session], e.Seq)
		}
		if err := writeCursor(x.dir, cur); err != nil {
			return sent, err
		}
		sent += len(batch)
	}
	return sent, nil
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
	kv := []attribute.KeyValue{
		attribute.String("guard.session", e.Session), attribute.Int64("guard.seq", e.Seq), attribute.String("guard.event", e.Event),
		attribute.String("guard.prev", e.Prev),
	}
	for _, f := range []struct{ k, v string }{
		{"guard.agent", e.Agent}, {"guard.tool", e.Tool}, {"guard.digest", e.Digest}, {"guard.tier", e.Tier},
		{"guard.decision", e.Decision}, {"guard.grant", e.Grant}, {"guard.authority", e.Authority},
		{"guard.policy", e.Policy}, {"guard.policy_sha256", e.PolicySHA256}, {"guard.version", e.Version},
		{"guard.reason", e.Reason},
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
	r.AddAttributes(kv...)
	return r
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

// cursorFile holds, beside the log, the last exported sequence number of
// each session.
const cursorFile = "export.json"

func readCursor(dir string) (map[string]int64, error) {
	cur := map[string]int64{}
	data, err := os.ReadFile(filepath.Join(dir, cursorFile))
	if errors.Is(err, fs.ErrNotExist) {
		return cur, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &cur); err != nil {
		return nil, fmt.Errorf("%s: %v", cursorFile, err)
	}
	return cur, nil
}

// writeCursor replaces the cursor file whole.
func writeCursor(dir string, cur map[string]int64) error {
	data, err := json.Marshal(cur)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+cursorFile+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, cursorFile))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
