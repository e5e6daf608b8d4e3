// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

// The real Amp against guard, without a model: Amp's threads run on
// ampcode.com (amp -x asks its API for the user first, getUserInfo, and
// stops without it), so no thread can run here. amp permissions test TOOL
// --ARG VALUE evaluates amp.permissions as a thread does, and runs a
// delegate rule's program for real: guard hook --agent amp, through the
// delegate script guard init writes (Amp runs "to" as one path, with no
// arguments) and the logging wrapper. The tests check what Amp makes of
// guard's answers: its action (allow, reject) and the reason it would
// give the model ("error"). Whether a thread's model gets that reason
// word for word is not checked.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	guardsandbox "guard/sandbox"
)

// ampVersion is the Amp release these tests were written and checked
// against; install.sh installs it.
const ampVersion = "0.0.1790142911-g7618fb"

var (
	ampOnce sync.Once
	ampCLI  *cli
)

// amp returns Amp: GUARD_E2E_AMP, else the platform package's binary in
// the cache.
func amp(t *testing.T) *cli {
	t.Helper()
	ampOnce.Do(func() {
		ampCLI = findCLI("Amp", "GUARD_E2E_AMP", "node_modules/@ampcode/cli-linux-x64/amp", ampVersion, false,
			func(out string) string { return strings.TrimSpace(strings.SplitN(out, " ", 2)[0]) })
	})
	ampCLI.need(t)
	return ampCLI
}

// ampVerdict is what amp permissions test --json says of a call.
type ampVerdict struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	Action    string         `json:"action"`
	Error     string         `json:"error"`
}

// ampTest runs amp permissions test for a shell_command call of cmd in
// a project whose first amp.permissions rule delegates every tool to
// guard, with policy as the user's guard policy ("" for none). It returns
// Amp's verdict and the one input the hook got.
func ampTest(t *testing.T, cmd, policy string) (ampVerdict, cliHookCall) {
	t.Helper()
	c := amp(t)
	p := newCLIProject(t, hookArgs(t, "amp"))
	script := filepath.Join(p.bin, "guard-delegate")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexec "+p.hook+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	settings, err := json.Marshal(map[string]any{"amp.permissions": []any{map[string]any{"tool": "*", "action": "delegate", "to": script}}})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, p.home, ".config/amp/settings.json", string(settings)+"\n")
	if policy != "" {
		writeFile(t, p.home, ".config/guard/guard.toml", policy)
	}
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + p.home, "LANG=C.UTF-8", "TERM=dumb", "TMPDIR=/tmp", "AMP_API_KEY=test"}
	o := p.run(c, []string{"permissions", "test", "shell_command", "--command", cmd, "--workdir", p.dir, "--json"}, env)
	var v ampVerdict
	if err := json.Unmarshal([]byte(o.stdout), &v); err != nil {
		t.Fatalf("amp permissions test printed no JSON verdict (exit %d): %v\nstdout: %s\nstderr: %s", o.exit, err, o.stdout, o.stderr)
	}
	t.Logf("Amp's verdict: %s", o.stdout)
	calls := p.hookCalls()
	if len(calls) != 1 {
		t.Fatalf("the delegate ran %d times, want once", len(calls))
	}
	hc := calls[0]
	t.Logf("delegate input: %s, AGENT_TOOL_NAME=%s", hc.raw, hc.getenv("AGENT_TOOL_NAME"))
	var in map[string]any
	if json.Unmarshal(hc.raw, &in) != nil || in["command"] != cmd || in["workdir"] != p.dir || hc.getenv("AGENT_TOOL_NAME") != "shell_command" {
		t.Errorf("the delegate got %s with AGENT_TOOL_NAME=%q; want the arguments {command: %q, workdir: %q} and shell_command", hc.raw, hc.getenv("AGENT_TOOL_NAME"), cmd, p.dir)
	}
	return v, hc
}

// TestAmpDeniedCommandRejected: guard denies rm -rf ~ (exit 2, the reason
// on stderr); Amp rejects the call with guard's reason and hint as its
// message.
func TestAmpDeniedCommandRejected(t *testing.T) {
	t.Parallel()
	v, _ := ampTest(t, "touch MARKER && rm -rf ~", "")
	if v.Action != "reject" || !strings.Contains(v.Error, "guard: denied: rm -r") || !strings.Contains(v.Error, "guard: hint: ") {
		t.Errorf("Amp's action %q, message %q; want reject with guard's deny and hint", v.Action, v.Error)
	}
}

// TestAmpAllowedCommandAllowed: a policy that allows echo outside the
// sandbox (unbound): guard exits 0 with nothing on stdout, and Amp allows
// the call.
func TestAmpAllowedCommandAllowed(t *testing.T) {
	t.Parallel()
	v, _ := ampTest(t, "echo hello", "version = 1\nextends = \"default\"\n\n[command.echo]\nverdict = \"allow\"\nunbound = \"e2e: a call guard run does not bound\"\n")
	if v.Action != "allow" || v.Error != "" {
		t.Errorf("Amp's action %q, message %q; want allow", v.Action, v.Error)
	}
}

// TestAmpSandboxedCommandRejected: where guard run can bound a command,
// guard allows cat hello.txt only rewritten into it, which Amp's delegate
// cannot do: guard rejects the call, saying why, and Amp rejects it. The
// rewrite, issued as the call as guard's hint says, is allowed.
func TestAmpSandboxedCommandRejected(t *testing.T) {
	t.Parallel()
	if err := guardsandbox.Available(); err != nil {
		t.Skipf("guard run cannot run here: %v", err)
	}
	v, _ := ampTest(t, "cat hello.txt", "")
	want := "guard: denied: guard (policy default): allowed: cat is allowed; it must run in guard's sandbox (guard run), and Amp's delegate cannot change a call"
	if v.Action != "reject" || !strings.HasPrefix(v.Error, want) {
		t.Errorf("Amp's action %q, message %q; want reject, starting %q", v.Action, v.Error, want)
	}
	// The hint gives the command that runs cat in guard run; issued as
	// the call, Amp allows it, guard having allowed its own rewrite.
	own := readOnlyRewrite(t, "cat hello.txt")
	if !strings.Contains(v.Error, "guard: hint: to run it in guard's sandbox, run exactly this command instead, which guard allows as it is: "+own) {
		t.Errorf("guard's refusal does not give %s as the command to run instead: %q", own, v.Error)
	}
	if v, _ := ampTest(t, own, ""); v.Action != "allow" || v.Error != "" {
		t.Errorf("%s: Amp's action %q, message %q; want allow", own, v.Action, v.Error)
	}
}
