// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"strings"
	"testing"

	"guard/policy"
)

// TestDecideApproval: a command guard rewrote to run under guard run is
// denied as a command (no command may start guard), and approved when
// an agent asks about it, exactly as written; any change to it, before,
// after or inside the command it runs, is decided as a command again.
func TestDecideApproval(t *testing.T) {
	p, err := Load("sandboxed", strings.NewReader("version = 1\nextends = \"default\"\n\n[sandbox]\nrun = true\n\n[command.make]\nverdict = \"allow\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	e := &Engine{Layers: &policy.Layers{User: p}}
	run := []string{"/opt/guard/bin/guard", "run", "--config", "/p/it's.toml"}
	call := func(command string) Call {
		c := ExampleCall(command)
		c.Tool, c.Kind, c.Run, c.Guard = "Bash", "", run, run[0]
		return c
	}
	rewrite := func(command string) string {
		t.Helper()
		d := e.Decide(call(command))
		if d.Verdict != Allow || d.Rewrite == nil {
			t.Fatalf("%q: %s, rewrite %+v; want allow under guard run", command, d.Verdict, d.Rewrite)
		}
		return d.Rewrite.Command
	}
	for _, command := range []string{"make show", "cd /project/src && make 'it'\\''s'", "git status && echo 'a b'"} {
		r := rewrite(command)
		if d := e.Decide(call(r)); d.Verdict != Deny {
			t.Errorf("the rewrite %q as a command: %s, want deny", r, d.Verdict)
		}
		d := e.DecideApproval(call(r))
		if d.Verdict != Allow || d.Rewrite != nil {
			t.Errorf("approving the rewrite %q: %s, rewrite %+v; want allow as it is", r, d.Verdict, d.Rewrite)
		}
		if d := e.DecideApproval(call(command)); d.Verdict != Allow || d.Rewrite == nil {
			t.Errorf("approving %q itself: %s, rewrite %+v; want allow, to run under guard run", command, d.Verdict, d.Rewrite)
		}
	}
	r := rewrite("make show")
	for _, bad := range []string{
		r + "; rm -rf /",
		"rm -rf / && " + r,
		strings.Replace(r, "'make show'", "'rm -rf /'", 1),
		strings.Replace(r, "'make show'", "'make show'\\'''", 1),
		strings.Replace(r, " 'run' ", " 'run' '--profile' 'net' ", 1), // a profile the policy did not give
		strings.Replace(r, "bash --noprofile --norc", "bash", 1),
		strings.Replace(r, "/opt/guard/bin/guard", "/tmp/guard", 1),
		"'/opt/guard/bin/guard' 'run' -- bash --noprofile --norc -c 'make show'", // without the --config
	} {
		if d := e.DecideApproval(call(bad)); d.Verdict == Allow {
			t.Errorf("approving %q: allow, want it decided as a command", bad)
		}
	}
	if d := e.DecideApproval(call("rm -rf /")); d.Verdict != Deny {
		t.Errorf("approving rm -rf /: %s, want deny", d.Verdict)
	}
}
