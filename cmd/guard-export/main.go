// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Command guard-export ships guard's decision log to an OpenTelemetry
// collector, as OTLP logs over HTTP, so that a fleet's decisions land in
// the pipelines a team already runs.
//
//	guard-export [--endpoint URL] [--state DIR] [--once] [--interval D] [--timeout D]
//
// It reads the log guard hook writes (package audit) and exports each line
// it has not exported yet as one log record: the call as its body, every
// field of the line as an attribute (guard.session, guard.decision,
// guard.rules, ...), its time as the record's. What it has exported is
// kept beside the log, in export.json (the last sequence number of each
// session), and moves on only once the collector has taken the lines: a
// collector that is down loses nothing, and the lines go when it is back.
//
// guard-export is a program of its own, apart from guard: the hook never
// waits for the network, never links the OpenTelemetry SDK (whose start-up
// would cost every tool call), and a collector that is slow or down
// changes no decision. --once exports what is new and exits, for a timer
// or a test; without it, guard-export looks for new lines every interval.
//
// The endpoint is --endpoint, else $OTEL_EXPORTER_OTLP_LOGS_ENDPOINT, else
// $OTEL_EXPORTER_OTLP_ENDPOINT with /v1/logs after it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
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
	dir := *stateFlag
	if dir == "" {
		dir = stateDir(getenv)
	}
	if dir == "" {
		return errors.New("no state directory: give --state, or set HOME or XDG_STATE_HOME")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	x, err := newExporter(ctx, url, filepath.Join(dir, "log"), *timeout)
	if err != nil {
		return err
	}
	defer x.close()
	for {
		n, err := x.exportNew(ctx)
		switch {
		case err != nil && *once:
			return err
		case err != nil:
			fmt.Fprintf(os.Stderr, "guard-export: %v (trying again)\n", err)
		case n > 0:
			fmt.Fprintf(os.Stderr, "guard-export: exported %d lines\n", n)
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
