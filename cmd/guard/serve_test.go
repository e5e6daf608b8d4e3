// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"guard"
)

// serveReply is a line of guard serve's answers, as a harness reads it.
type serveReply struct {
	ID       json.RawMessage `json:"id"`
	Decision guard.Verdict   `json:"decision"`
	Reason   string          `json:"reason"`
	Hint     string          `json:"hint"`
	Rule     string          `json:"rule"`
	Rewrite  string          `json:"rewrite"`
}

// TestServeReload: guard serve loads its policy file again when it
// changes, between two lines; while the file does not load every call is
// denied with the file and line, and once it is fixed it decides again.
// The file is changed only after each answer is read, so that the order
// is certain.
func TestServeReload(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "policy.toml")
	write := func(src string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("version = 1\nextends = \"default\"\n")
	opts := guard.Options{Config: file, Env: func(string) string { return "" }}
	e, err := guard.Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- guard.Serve(context.Background(), inR, outW, e, opts); outW.Close() }()
	answers := bufio.NewScanner(outR)
	ask := func() serveReply {
		t.Helper()
		io.WriteString(inW, `{"id":"m","kind":"shell","input":{"command":"make build"},"cwd":"`+dir+`"}`+"\n")
		if !answers.Scan() {
			t.Fatalf("no answer: %v", answers.Err())
		}
		var a serveReply
		if err := json.Unmarshal(answers.Bytes(), &a); err != nil {
			t.Fatalf("%s: %v", answers.Bytes(), err)
		}
		return a
	}
	if a := ask(); a.Decision == guard.Allow {
		t.Errorf("make before the change: %+v", a)
	}
	write("version = 1\nextends = \"default\"\n\n[command.make]\nverdict = \"allow\"\n")
	if a := ask(); a.Decision != guard.Allow {
		t.Errorf("make after the change: %+v", a)
	}
	write("version = 1\nextends = \"default\"\n[command.make]\nverdict = \"sometimes\"\n")
	if a := ask(); a.Decision != guard.Deny || !strings.Contains(a.Reason, "policy.toml:4") {
		t.Errorf("make with the policy broken: %+v, want a deny naming the file and line", a)
	}
	write("version = 1\nextends = \"default\"\n\n[command.make]\nverdict = \"allow\"\n# fixed\n")
	if a := ask(); a.Decision != guard.Allow {
		t.Errorf("make with the policy fixed: %+v", a)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}

// TestServeBrokenAtStart: a policy file that does not load when guard
// serve starts denies every call with its error until it loads.
func TestServeBrokenAtStart(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "policy.toml")
	if err := os.WriteFile(file, []byte("version = 1\nextends = \"default\"\n[command.make]\nverdict = \"x\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	call := `{"id":1,"kind":"shell","input":{"command":"git status"},"cwd":"` + dir + `"}` + "\n"
	var out strings.Builder
	err := run(context.Background(), []string{"serve", "--config", file}, stdio{in: strings.NewReader(call + call), out: &out, err: io.Discard}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d answers for 2 calls:\n%s", len(lines), out.String())
	}
	for _, l := range lines {
		if !strings.Contains(l, `"id":1,"decision":"deny","reason":"the policy does not load, so every call is denied: `) || !strings.Contains(l, "policy.toml:4") {
			t.Errorf("answer %s", l)
		}
	}
}
