// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWriteHook renders hookbench -json output, with and without its
// concurrent rounds.
func TestWriteHook(t *testing.T) {
	const results = `"load_before": "1.00 1.00 1.00", "results": [{"input": "typical", "command_bytes": 96, "ratio_of_medians": 2.5,
		"baseline": {"median_ns": 2000000, "p90_ns": 2500000, "peak_rss_kib": 3072},
		"startup": {"median_ns": 2500000, "p90_ns": 3000000, "peak_rss_kib": 3584},
		"guard": {"median_ns": 5000000, "p90_ns": 6000000, "peak_rss_kib": 5120}}]`
	const concurrent = `"concurrent": {"input": "typical", "procs": 200, "rounds": 5,
		"baseline": {"p50_ns": 100000000, "p99_ns": 200000000, "max_ns": 210000000, "round_median_ns": 220000000, "round_max_ns": 230000000},
		"guard": {"p50_ns": 200000000, "p99_ns": 400000000, "max_ns": 410000000, "round_median_ns": 420000000, "round_max_ns": 430000000},
		"ratio_of_p50": 2, "ratio_of_p99": 2, "ratio_of_round_medians": 1.909}`
	const whole = "| typical | 96 | 2.00 ms | 2.50 ms | 5.00 ms | 2.50x | 6.00 ms | 5.0 MiB | 3.0 MiB |\n"
	const section = "## Concurrent: 200 `guard hook` processes started at once\n\n" +
		"`go run ./bench/hookbench -n 200 -concurrent-rounds 5`, as agents run hooks in parallel:\n" +
		"200 processes of the typical input started at once, guard hook and the baseline in separate rounds,\n" +
		"5 of each, alternating, after one uncounted round of each. Latency is the wall time of each\n" +
		"process over every round; a round lasts from the release of its processes to the end of the last one.\n\n" +
		"| program | processes | p50 | p99 | max | round median | round max |\n" +
		"|---|---:|---:|---:|---:|---:|---:|\n" +
		"| baseline | 1000 | 100.00 ms | 200.00 ms | 210.00 ms | 220.00 ms | 230.00 ms |\n" +
		"| guard hook | 1000 | 200.00 ms | 400.00 ms | 410.00 ms | 420.00 ms | 430.00 ms |\n" +
		"| guard / baseline | | 2.00x | 2.00x | | 1.91x | |\n\n"
	for _, tc := range []struct {
		json        string
		wantSection bool
	}{
		{"{" + results + ", " + concurrent + "}", true},
		{"{" + results + "}", false}, // -concurrent-rounds 0
	} {
		var h hookReport
		if err := json.Unmarshal([]byte(tc.json), &h); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		writeHook(&b, &h, "go run ./bench/hookbench -n 200 -concurrent-rounds 5")
		got := b.String()
		if !strings.Contains(got, whole) {
			t.Errorf("no row %q in:\n%s", whole, got)
		}
		_, after, found := strings.Cut(got, "## Concurrent")
		if !tc.wantSection {
			if found {
				t.Errorf("a concurrent section without concurrent rounds:\n%s", got)
			}
			continue
		}
		if !strings.HasSuffix(got, section) {
			t.Errorf("concurrent section:\n%s\nwant:\n%s", "## Concurrent"+after, section)
		}
	}
}

// TestWriteServe renders hookbench's serve figures, and nothing without
// them.
func TestWriteServe(t *testing.T) {
	const serve = `{"serve": [{"input": "typical", "calls": 200, "ratio_of_medians": 9.5,
		"hook": {"median_ns": 3800000, "p90_ns": 4000000}, "serve": {"median_ns": 400000, "p90_ns": 530000}, "pipelined_per_sec": 6047.4}]}`
	var h hookReport
	if err := json.Unmarshal([]byte(serve), &h); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	writeServe(&b, &h, "go run ./bench/hookbench")
	const row = "| typical | 200 | 3.80 ms | 400.0 µs | 10x | 530.0 µs | 6047 calls/s |\n"
	if got := b.String(); !strings.HasPrefix(got, "## A stream: `guard serve`") || !strings.Contains(got, row) {
		t.Errorf("serve section:\n%s\nwant the row %q", got, row)
	}
	b.Reset()
	writeServe(&b, &hookReport{}, "x")
	if b.Len() != 0 {
		t.Errorf("a serve section without figures: %q", b.String())
	}
}

// TestWriteVerdicts reads TestNL2Bash's and guard test's figures and
// writes them with their shares.
func TestWriteVerdicts(t *testing.T) {
	v, err := parseVerdicts([]byte("    nl2bash_test.go:186: 10624 commands in 2.21s: allow 3603, ask 3921, deny 3100, failed 0\n"),
		[]byte("policy: default\n2558 passed, 0 failed\npassed, by the verdict they want: allow 876, ask 557, deny 1125\n"))
	if err != nil {
		t.Fatal(err)
	}
	v.nl2bashCommand, v.casesCommand = "go test nl", "go run cases"
	var b strings.Builder
	writeVerdicts(&b, v)
	for _, want := range []string{
		"| 3603 (33.9%) | 3921 (36.9%) | 3100 (29.2%) | 0 |\n",
		"the 10624 NL2Bash one-liners",
		"2558 passed, 0 failed. Of those passed, 1125 must be\ndenied, 557 asked and 876 allowed",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("verdicts section:\n%s\nwant %q in it", b.String(), want)
		}
	}
	if _, err := parseVerdicts([]byte("nothing"), nil); err == nil {
		t.Error("no figures: no error")
	}
}
