// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"os"
	"strings"
	"testing"

	"guard/policy"
)

// unsandboxTestEngine returns the engine of testdata/valid/sandboxed.toml
// (every allowed shell command runs under guard run; make integration in
// its profile net), and a Bash call of it with guard run's command line
// run, read-only or not.
func unsandboxTestEngine(t *testing.T, run []string) (*Engine, func(command string, readOnly bool) Call) {
	t.Helper()
	data, err := os.ReadFile("testdata/valid/sandboxed.toml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Load("sandboxed", strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return &Engine{Layers: &policy.Layers{User: p}}, func(command string, readOnly bool) Call {
		c := ExampleCall(command)
		c.Tool, c.Kind, c.Run, c.Guard, c.ReadOnly = "Bash", "", run, run[0], readOnly
		if readOnly {
			c.Run = append(c.Run[:len(c.Run):len(c.Run)], "--read-only")
		}
		return c
	}
}

// TestUnsandbox: a command guard rewrote to run under guard run is denied
// as a command (no command may start guard); read back, it is the call
// it runs, allowed as guard allowed it, in the profile the rewrite gives
// it, exactly as written.
func TestUnsandbox(t *testing.T) {
	run := []string{"/opt/guard/bin/guard", "run", "--config", "/p/it's.toml"}
	e, call := unsandboxTestEngine(t, run)
	for _, tc := range []struct {
		command  string
		readOnly bool
		inner    string // the call the rewrite runs, as guard printed it
		profile  string
	}{
		{"make show", false, "make show", "write"},
		{"make  show", false, "make show", "write"}, // printed canonically
		{"cd /project/src && ls 'it'\\''s'", false, "cd /project/src && ls 'it'\\''s'", "read-only"},
		{"git status && echo 'a b'", false, "git status && echo 'a b'", "read-only"},
		{"go test ./... && go vet ./...", false, "go test ./... && go vet ./...", "test"},
		{"go build ./...", false, "go build ./...", "build"},
		{"make integration && go test ./...", false, "make integration && go test ./...", "test+net"},
		{"make integration", false, "make integration", "net"},
		{"git status", true, "git status", "read-only"},
	} {
		t.Logf("input: %q (read-only %v)", tc.command, tc.readOnly)
		d := e.Decide(call(tc.command, tc.readOnly))
		if d.Verdict != Allow || d.Rewrite == nil {
			t.Fatalf("%q: %s, rewrite %+v; want allow under guard run", tc.command, d.Verdict, d.Rewrite)
		}
		r := d.Rewrite.Command
		if got := RunProfile(call("", tc.readOnly).Run, r); got != tc.profile {
			t.Errorf("RunProfile(%q) = %q, want %q", r, got, tc.profile)
		}
		if d := e.Decide(call(r, tc.readOnly)); d.Verdict != Deny {
			t.Errorf("the rewrite %q as a command: %s, want deny", r, d.Verdict)
		}
		inner, d, ok := e.Unsandbox(call(r, tc.readOnly))
		if !ok || d.Verdict != Allow || d.Rewrite != nil || inner.Input.Command != tc.inner {
			t.Errorf("Unsandbox(%q) = %q %s rewrite %+v, %v; want %q allowed as it is",
				r, inner.Input.Command, d.Verdict, d.Rewrite, ok, tc.inner)
		}
		if _, _, ok := e.Unsandbox(call(tc.command, tc.readOnly)); ok {
			t.Errorf("Unsandbox(%q): the command itself read back as a rewrite", tc.command)
		}
	}
}

// TestUnsandboxRefuses: a command that only looks like guard's rewrite is
// not read back as one: any change to it, before, after or inside the
// command it runs, in guard's path or in guard run's flags.
func TestUnsandboxRefuses(t *testing.T) {
	run := []string{"/opt/guard/bin/guard", "run", "--config", "/p/it's.toml"}
	e, call := unsandboxTestEngine(t, run)
	d := e.Decide(call("make show", false))
	if d.Rewrite == nil {
		t.Fatalf("make show: no rewrite")
	}
	r := d.Rewrite.Command
	for _, bad := range []string{
		r + "; rm -rf /",
		r + " extra",
		r + "'",
		"rm -rf / && " + r,
		" " + r,
		strings.Replace(r, "'make show'", "'rm -rf /'", 1),
		strings.Replace(r, "'make show'", "'make show'\\'''", 1),
		strings.Replace(r, "'make show'", "'make'\\'' show'", 1),
		strings.Replace(r, "'make show'", "'make  show'", 1), // a body guard would have printed otherwise
		strings.Replace(r, "'make show'", "\"make show\"", 1),
		strings.Replace(r, " 'run' ", " 'run' '--profile' 'net' ", 1), // a profile the policy did not give
		strings.Replace(r, " 'run' ", " 'run' '--read-only' ", 1),     // nor read-only
		strings.Replace(r, "bash --noprofile --norc", "bash", 1),
		strings.Replace(r, "/opt/guard/bin/guard", "/tmp/guard", 1),
		strings.Replace(r, "'/opt/guard/bin/guard'", "/opt/guard/bin/guard", 1),
		"'/opt/guard/bin/guard' 'run' -- bash --noprofile --norc -c 'make show'", // without the --config
		"rm -rf /",
	} {
		t.Logf("input: %q", bad)
		if inner, _, ok := e.Unsandbox(call(bad, false)); ok {
			t.Errorf("Unsandbox(%q) = %q: read back as guard's rewrite", bad, inner.Input.Command)
		}
	}
	if _, d, ok := e.Unsandbox(call(r, false)); !ok || d.Verdict != Allow {
		t.Fatalf("Unsandbox(%q): not read back, or %s", r, d.Verdict)
	}
	if got := RunProfile(run, "make show"); got != "" {
		t.Errorf("RunProfile(make show) = %q, want none", got)
	}
	// In another context the same command is not the rewrite guard writes.
	other := call(r, false)
	other.Run = []string{"/opt/guard/bin/guard", "run"}
	if _, _, ok := e.Unsandbox(other); ok {
		t.Errorf("Unsandbox(%q) with another guard run command line: read back", r)
	}
}

// TestUnsandboxContext: guard's rewrite is read back only in the context
// it was written for: another shell's tail (bash for a zsh agent, zsh for
// a bash one), the rewrite of write mode in read-only mode, and a leading
// cd that CDPATH would send elsewhere (cd src, where guard writes cd
// ./src) are not guard's rewrite.
func TestUnsandboxContext(t *testing.T) {
	run := []string{"/opt/guard/bin/guard", "run"}
	e, call := unsandboxTestEngine(t, run)
	in := func(command, shell string, readOnly bool) Call {
		c := call(command, readOnly)
		c.Shell = shell
		return c
	}
	rewrite := func(c Call) string {
		t.Helper()
		d := e.Decide(c)
		if d.Verdict != Allow || d.Rewrite == nil {
			t.Fatalf("%q (%s): %s, no rewrite", c.Input.Command, c.Shell, d.Verdict)
		}
		return d.Rewrite.Command
	}
	bash, zsh := rewrite(in("cd src && make show", "bash", false)), rewrite(in("cd src && make show", "zsh", false))
	if !strings.HasPrefix(bash, "cd ./src && ") || !strings.Contains(bash, " -- bash --noprofile --norc -c 'make show'") ||
		!strings.Contains(zsh, " -- zsh -f -c 'make show'") {
		t.Fatalf("rewrites: bash %q, zsh %q", bash, zsh)
	}
	for _, tc := range []struct {
		command, shell string
		readOnly, ok   bool
	}{
		{bash, "bash", false, true},
		{zsh, "zsh", false, true},
		{bash, "zsh", false, false},
		{zsh, "bash", false, false},
		{bash, "", false, true}, // an agent's shell not known runs it in bash
		{zsh, "", false, false},
		{strings.Replace(bash, "cd ./src", "cd src", 1), "bash", false, false},
		{strings.Replace(bash, "cd ./src", "cd /project/src", 1), "bash", false, true}, // the rewrite of cd /project/src && make show
		{bash, "bash", true, false},
		{rewrite(in("make show", "bash", false)), "bash", true, false},
	} {
		_, _, ok := e.Unsandbox(in(tc.command, tc.shell, tc.readOnly))
		if ok != tc.ok {
			t.Errorf("Unsandbox(%q) for shell %q, read-only %v: %v, want %v", tc.command, tc.shell, tc.readOnly, ok, tc.ok)
		}
	}
}
