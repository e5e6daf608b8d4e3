// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package guard_test

import (
	"testing"

	"guard"
)

// benchmarkDecide decides a typical shell call through the API, with or
// without the decision log: the log's cost is the difference.
func benchmarkDecide(b *testing.B, log bool) {
	state := b.TempDir()
	env := func(k string) string {
		switch k {
		case "HOME":
			return state
		case "PATH":
			return "/usr/bin:/bin"
		}
		return ""
	}
	e, err := guard.Load(guard.Options{Env: env, Log: log, Shell: "bash"})
	if err != nil {
		b.Fatal(err)
	}
	c := guard.Call{Kind: guard.Shell, Command: "git status && go test ./... | tail -3", Cwd: state, Session: "s1"}
	b.ReportAllocs()
	for b.Loop() {
		if d := e.Decide(c); d.Verdict == guard.Deny {
			b.Fatalf("denied: %s", d.Reason)
		}
	}
}

func BenchmarkAPIDecide(b *testing.B)    { benchmarkDecide(b, false) }
func BenchmarkAPIDecideLog(b *testing.B) { benchmarkDecide(b, true) }
