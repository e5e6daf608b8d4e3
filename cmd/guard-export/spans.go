// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

// The decisions as spans of the OpenTelemetry GenAI semantic conventions'
// execute_tool operation, as main's doc comment lists them.

import (
	"context"
	"crypto/sha256"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"guard/audit"
)

// spans turns the log's decisions into spans: the SDK's tracer makes
// them (with guard's resource, the line's own ids and times), a
// collecting processor holds them, and the exporter sends them, so that
// guard-export knows whether the collector took them before it moves on.
type spans struct {
	otlp     *otlptrace.Exporter
	provider *sdktrace.TracerProvider
	tracer   trace.Tracer
	held     *heldSpans
}

func newSpans(ctx context.Context, url string, timeout time.Duration, res *resource.Resource) (*spans, error) {
	otlp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(url), otlptracehttp.WithTimeout(timeout),
		otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false}))
	if err != nil {
		return nil, fmt.Errorf("the OTLP traces exporter: %v", err)
	}
	held := &heldSpans{}
	provider := sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithSpanProcessor(held),
		sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithIDGenerator(lineIDs{}))
	return &spans{otlp: otlp, provider: provider, tracer: provider.Tracer(scope), held: held}, nil
}

// spansCursor holds, beside the log, the last sequence number of each
// session exported as spans.
const spansCursor = "export-spans.json"

func (s *spans) cursor() string { return spansCursor }

func (s *spans) send(ctx context.Context, batch []audit.Record) (int, error) {
	s.held.spans = s.held.spans[:0]
	for _, r := range batch {
		ts, ok := toolSpanOf(r.Entry)
		if !ok {
			continue
		}
		ids := context.WithValue(ctx, idsKey{}, idsOf(r.Raw))
		_, sp := s.tracer.Start(ids, ts.name, trace.WithSpanKind(trace.SpanKindInternal), trace.WithTimestamp(r.Entry.Time),
			trace.WithAttributes(ts.attrs...))
		if ts.status != codes.Unset {
			sp.SetStatus(ts.status, ts.description)
		}
		sp.End(trace.WithTimestamp(r.Entry.Time))
	}
	if len(s.held.spans) == 0 {
		return 0, nil
	}
	return len(s.held.spans), s.otlp.ExportSpans(ctx, s.held.spans)
}

func (s *spans) shutdown(ctx context.Context) {
	s.provider.Shutdown(ctx)
	s.otlp.Shutdown(ctx)
}

// A toolSpan is what the span of a decision says.
type toolSpan struct {
	name        string
	attrs       []attribute.KeyValue
	status      codes.Code
	description string
}

// The conventions' values guard sets.
const (
	opExecuteTool = "execute_tool" // gen_ai.operation.name
	toolFunction  = "function"     // gen_ai.tool.type: run by the agent on the user's machine
)

// toolSpanOf returns the span of a line that decided a tool call, and
// false for any other line: an event that is no decision (a report that
// a call ran, a grant, a session's end) or one without a tool (input
// guard could not read).
func toolSpanOf(e audit.Entry) (toolSpan, bool) {
	if e.Tool == "" || e.Decision == "" || e.Ran != nil {
		return toolSpan{}, false
	}
	kv := []attribute.KeyValue{
		attribute.String("gen_ai.operation.name", opExecuteTool),
		attribute.String("gen_ai.tool.name", e.Tool),
		attribute.String("gen_ai.tool.type", toolFunction),
	}
	if e.ToolCallID != "" {
		kv = append(kv, attribute.String("gen_ai.tool.call.id", e.ToolCallID))
	}
	if e.Session != "" && e.Session != "-" {
		// "-" is the log's session of the calls without a usable id: no
		// conversation's.
		kv = append(kv, attribute.String("gen_ai.conversation.id", e.Session))
	}
	ts := toolSpan{name: opExecuteTool + " " + e.Tool}
	switch e.Decision {
	case "denied", "blocked-error":
		// The tool did not run: the operation ended in an error.
		ts.status, ts.description = codes.Error, e.Reason
		kv = append(kv, attribute.String("error.type", e.Decision))
	}
	ts.attrs = append(kv, fields(e)...)
	return ts, true
}

// lineIDs gives a span the trace and span ids its context holds (idsKey),
// those of its line: a line exported twice is the same span twice, which
// a backend can tell.
type lineIDs struct{}

type idsKey struct{}

type spanIDs struct {
	trace trace.TraceID
	span  trace.SpanID
}

// idsOf are a line's ids: the first 16 bytes of its SHA-256 as the trace
// id, the next 8 as the span id.
func idsOf(raw []byte) spanIDs {
	sum := sha256.Sum256(raw)
	var ids spanIDs
	copy(ids.trace[:], sum[:16])
	copy(ids.span[:], sum[16:24])
	return ids
}

func (lineIDs) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	ids, _ := ctx.Value(idsKey{}).(spanIDs)
	return ids.trace, ids.span
}

func (lineIDs) NewSpanID(ctx context.Context, _ trace.TraceID) trace.SpanID {
	ids, _ := ctx.Value(idsKey{}).(spanIDs)
	return ids.span
}

// heldSpans is a processor that holds the spans the tracer ends, for
// guard-export to send itself.
type heldSpans struct{ spans []sdktrace.ReadOnlySpan }

func (h *heldSpans) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (h *heldSpans) OnEnd(s sdktrace.ReadOnlySpan)                   { h.spans = append(h.spans, s) }
func (h *heldSpans) Shutdown(context.Context) error                  { return nil }
func (h *heldSpans) ForceFlush(context.Context) error                { return nil }
