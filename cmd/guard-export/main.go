// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Command guard-export ships guard's decision log to an OpenTelemetry
// collector, as OTLP logs over HTTP, and with --spans each decision as a
// span too, so that a fleet's decisions land in the pipelines a team
// already runs, beside its agents' own traces.
//
//	guard-export [--endpoint URL] [--spans] [--traces-endpoint URL] [--state DIR]
//	             [--once] [--interval D] [--timeout D]
//
// It reads the log guard hook writes (package audit) and exports each line
// it has not exported yet as one log record: the call as its body, every
// field of the line as an attribute (guard.session, guard.decision,
// guard.rules, ...), its time as the record's.
//
// # Spans
//
// With --spans, each line that decided a tool call (PreToolUse,
// PermissionRequest, and the calls of guard serve and the API) is also one
// span, as the OpenTelemetry GenAI semantic conventions describe a tool
// execution (the execute_tool span of semantic-conventions v1.41.0, the
// last release to carry the GenAI conventions before they moved to the
// semantic-conventions-genai repository, whose execute_tool span is the
// same; its status as v1.41.1's "Recording errors" says):
//
//   - name "execute_tool TOOL", kind INTERNAL, starting and ending at the
//     line's time (the log keeps no duration);
//   - gen_ai.operation.name "execute_tool", gen_ai.tool.name the agent's
//     name of the tool (Bash, Read, run_shell_command, ...), gen_ai.tool.type
//     "function" (the agent runs the tool itself, on the user's machine,
//     from arguments the model made);
//   - gen_ai.tool.call.id, where the line has the agent's id of the call
//     (Claude Code's and Codex's tool_use_id);
//   - gen_ai.conversation.id, the session, where the agent gave one (the
//     conventions list it for the agent and inference spans, and the
//     registry defines it as a conversation's, session's or thread's id);
//   - a call guard denied did not run: the operation ended in an error, so
//     the status is Error, its description guard's reason, and error.type
//     "denied" (the policy, a grant's absence, the user's --ask deny) or
//     "blocked-error" (guard could not judge the call); an allowed or
//     asked call leaves the status unset;
//   - every field of the line as on its log record (guard.decision,
//     guard.rules, guard.tier, guard.grant, guard.profile, guard.policy,
//     guard.session, guard.seq, ...). The call itself is not on the span
//     (the conventions make a tool's arguments opt-in): it is the body of
//     the log record with the same guard.session and guard.seq.
//
// A span's trace and span ids are made from the line's SHA-256, so that a
// line exported twice is the same span twice; each span is the root of a
// trace of its own. A report that a call ran (PostToolUse), a grant and a
// session's end are log records only, as is a line without a tool.
//
// # Delivery
//
// What each signal has exported is kept beside the log, in export.json for
// the log records and export-spans.json for the spans (the last sequence
// number of each session), and moves on only once the collector has taken
// the lines: a collector that is down loses nothing, and the lines go when
// it is back. A line goes twice only when the cursor could not be written
// after the collector took it. The two signals move apart: a collector
// that refuses traces holds back no log record. The first run with
// --spans sends every decision already in the log.
//
// guard-export is a program of its own, apart from guard: the hook never
// waits for the network, never links the OpenTelemetry SDK (whose start-up
// would cost every tool call), and a collector that is slow or down
// changes no decision. --once exports what is new and exits, for a timer
// or a test; without it, guard-export looks for new lines every interval.
//
// The logs endpoint is --endpoint, else $OTEL_EXPORTER_OTLP_LOGS_ENDPOINT,
// else $OTEL_EXPORTER_OTLP_ENDPOINT with /v1/logs after it. The traces
// endpoint is --traces-endpoint, else $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
// else $OTEL_EXPORTER_OTLP_ENDPOINT with /v1/traces after it, else the
// logs endpoint with its /v1/logs made /v1/traces.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Getenv); err != nil {
		// A panic exits 2: only guard's own main exits by os.Exit, so
		// that nothing in the repository ends a process another way.
		panic(fmt.Sprintf("guard-export: %v", err))
	}
}

func run(args []string, getenv func(string) string) error {
	fs := flag.NewFlagSet("guard-export", flag.ContinueOnError)
	endpoint := fs.String("endpoint", "", "the collector's OTLP/HTTP logs `URL` (default $OTEL_EXPORTER_OTLP_LOGS_ENDPOINT)")
	spansFlag := fs.Bool("spans", false, "export each decision as a GenAI execute_tool span too")
	tracesFlag := fs.String("traces-endpoint", "", "the collector's OTLP/HTTP traces `URL` for --spans (default $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else the logs URL's /v1/traces)")
	stateFlag := fs.String("state", "", "guard's state `directory` (default $XDG_STATE_HOME/guard, else ~/.local/state/guard)")
	once := fs.Bool("once", false, "export what is new, then exit")
	interval := fs.Duration("interval", 2*time.Second, "how often to look for new lines")
	timeout := fs.Duration("timeout", 10*time.Second, "how long one export may take")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	url := *endpoint
	if url == "" {
		url = getenv("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT")
	}
	if url == "" {
		if base := getenv("OTEL_EXPORTER_OTLP_ENDPOINT"); base != "" {
			url = strings.TrimSuffix(base, "/") + "/v1/logs"
		}
	}
	if url == "" {
		return errors.New("no endpoint: give --endpoint or set OTEL_EXPORTER_OTLP_LOGS_ENDPOINT")
	}
	urls := endpoints{logs: url}
	if *spansFlag {
		if urls.traces = tracesURL(*tracesFlag, url, getenv); urls.traces == "" {
			return errors.New("no traces endpoint for --spans: give --traces-endpoint or set OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
		}
	} else if *tracesFlag != "" {
		return errors.New("--traces-endpoint is for --spans, which is not given")
	}
	dir := *stateFlag
	if dir == "" {
		dir = stateDir(getenv)
	}
	if dir == "" {
		return errors.New("no state directory: give --state, or set HOME or XDG_STATE_HOME")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	x, err := newExporter(ctx, urls, filepath.Join(dir, "log"), *timeout)
	if err != nil {
		return err
	}
	defer x.close()
	for {
		n, err := x.exportNew(ctx)
		if slices.ContainsFunc(n, func(n int) bool { return n > 0 }) {
			fmt.Fprintf(os.Stderr, "guard-export: exported %s\n", sent(n))
		}
		switch {
		case err != nil && *once:
			return err
		case err != nil:
			fmt.Fprintf(os.Stderr, "guard-export: %v (trying again)\n", err)
		}
		if *once {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(*interval):
		}
	}
}

// sent says what went of each signal: "3 lines", "3 lines, 2 spans".
func sent(n []int) string {
	out := fmt.Sprintf("%d lines", n[0])
	if len(n) > 1 {
		out += fmt.Sprintf(", %d spans", n[1])
	}
	return out
}

// tracesURL is the collector's traces URL: flag, else the standard
// variables, else the logs URL with its /v1/logs made /v1/traces; "" when
// none says.
func tracesURL(flag, logs string, getenv func(string) string) string {
	switch {
	case flag != "":
		return flag
	case getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "":
		return getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
	case getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "":
		return strings.TrimSuffix(getenv("OTEL_EXPORTER_OTLP_ENDPOINT"), "/") + "/v1/traces"
	}
	if base, ok := strings.CutSuffix(logs, "/v1/logs"); ok {
		return base + "/v1/traces"
	}
	return ""
}

// stateDir is guard's state directory, as guard finds it.
func stateDir(getenv func(string) string) string {
	switch {
	case filepath.IsAbs(getenv("XDG_STATE_HOME")):
		return filepath.Join(getenv("XDG_STATE_HOME"), "guard")
	case filepath.IsAbs(getenv("HOME")):
		return filepath.Join(getenv("HOME"), ".local", "state", "guard")
	}
	return ""
}
