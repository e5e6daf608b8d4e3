// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestAllowedCommandRuns: guard allows `cat hello.txt`; the command runs and
// its output is the tool_result the model gets.
func TestAllowedCommandRuns(t *testing.T) {
	t.Parallel()
	const token = "e2e-token-7f3a9c"
	cmd := "cat hello.txt"
	p := newProject(t)
	p.script("Bash", map[string]any{"command": cmd})
	p.write("hello.txt", token+"\n")
	o := p.run("Bash")
	p.oneHookCall("Bash", map[string]any{"command": cmd})
	r := p.oneToolResult(o)
	if !strings.Contains(r.Text, token) || r.IsError {
		t.Errorf("the tool_result does not carry the output of %q (is_error=%v): %q", cmd, r.IsError, r.Text)
	}
}

// TestDeniedCommandDoesNotRun: guard denies `rm -rf victim` (exit 2, reason
// on stderr); the directory survives and guard's reason reaches the model.
func TestDeniedCommandDoesNotRun(t *testing.T) {
	t.Parallel()
	cmd := "rm -rf victim"
	p := newProject(t)
	p.script("Bash", map[string]any{"command": cmd})
	p.write("victim/keep.txt", "precious\n")
	o := p.run("Bash")
	p.oneHookCall("Bash", map[string]any{"command": cmd})
	if !p.exists("victim/keep.txt") {
		t.Errorf("%q ran: victim/keep.txt is gone", cmd)
	}
	r := p.oneToolResult(o)
	if !strings.Contains(r.Text, "guard: denied: rm -r") || !r.IsError {
		t.Errorf("guard's deny reason did not reach the model (is_error=%v): %q", r.IsError, r.Text)
	}
	if !strings.Contains(r.Text, "guard: hint: ") {
		t.Errorf("guard's hint did not reach the model: %q", r.Text)
	}
	p.deniedInResult(o)
}

// TestAskIsRefusedHeadless: `touch` writes a file, so guard asks (once a
// session); claude -p cannot ask anyone and refuses the call, and guard's
// permissionDecisionReason, with the ask's hint, reaches the model.
func TestAskIsRefusedHeadless(t *testing.T) {
	t.Parallel()
	cmd := "touch asked-marker"
	p := newProject(t)
	p.script("Bash", map[string]any{"command": cmd})
	o := p.run("Bash")
	c := p.oneHookCall("Bash", map[string]any{"command": cmd})
	if p.exists("asked-marker") {
		t.Errorf("%q ran although guard asked and nobody could answer", cmd)
	}
	code, stdout, stderr := replay(t, c)
	if code != 0 || !strings.Contains(stdout, `"permissionDecision":"ask"`) {
		t.Fatalf("guard on the logged input: exit %d, stdout %q, stderr %q; want an ask", code, stdout, stderr)
	}
	r := p.oneToolResult(o)
	const reason = "guard (policy default): needs approval: touch needs approval once in this session; once approved, the session is granted rule touch (rule touch); hint: the edit tools write and create files"
	if !strings.Contains(r.Text, reason) || !r.IsError {
		t.Errorf("guard's permissionDecisionReason %q did not reach the model (is_error=%v): %q", reason, r.IsError, r.Text)
	}
	p.deniedInResult(o)
}

// TestBrokenPolicyBlocks: a project policy with a syntax error makes guard
// deny everything, so the otherwise allowed `cat hello.txt` does not run.
func TestBrokenPolicyBlocks(t *testing.T) {
	t.Parallel()
	const token = "e2e-token-broken-4d1e"
	cmd := "cat hello.txt"
	p := newProject(t)
	p.script("Bash", map[string]any{"command": cmd})
	p.write("hello.txt", token+"\n")
	p.write(".claude/guard.toml", "version = 1\ndefault = \"ask\"\n[tools\nBash = \"shell\"\n")
	o := p.run("Bash")
	p.oneHookCall("Bash", map[string]any{"command": cmd})
	r := p.oneToolResult(o)
	if strings.Contains(r.Text, token) {
		t.Errorf("%q ran under a broken policy: its output came back: %q", cmd, r.Text)
	}
	if !strings.Contains(r.Text, "guard: denied: the policy does not load") || !r.IsError {
		t.Errorf("guard's policy error did not reach the model (is_error=%v): %q", r.IsError, r.Text)
	}
	p.deniedInResult(o)
}

// TestWriteToSettingsRefused: the model writes .claude/settings.json, which
// would unregister guard. With the default policy Write is "ask", which
// claude -p turns into a refusal; the file must be unchanged.
//
// What makes this meaningful: Write is pre-approved with --allowedTools, so no
// permission rule of Claude Code's stops it. But Claude Code also protects
// .claude/ on its own: Claude Code 2.1.332 refuses this Write in -p mode with no
// hook at all, and when a hook answers ask (or allow) the model gets Claude
// Code's own text ("Claude requested permissions to write to ..."), not the
// hook's reason. So "unchanged" alone does not show that guard acted. The test
// therefore also requires that guard saw this exact call and that guard's
// answer to the logged input is itself a refusal (ask, or deny); TestWriteAskRefused
// shows, on a path Claude Code does not protect, that guard's ask alone stops a
// pre-approved Write.
func TestWriteToSettingsRefused(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	target := filepath.Join(p.dir, ".claude", "settings.json")
	input := map[string]any{"file_path": target, "content": "{}\n"}
	p.script("Write", input)
	before, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	o := p.run("Bash", "Write")
	c := p.oneHookCall("Write", input)
	after, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("the Write ran: .claude/settings.json is now %q", after)
	}
	// guard's own answer must be a refusal. Today that is the default
	// policy's ask for every Write; a guard that denies writes to .claude/
	// outright (exit 2) refuses too, and then its reason must reach the
	// model, since a hook's exit 2 blocks before Claude Code's own checks.
	code, stdout, stderr := replay(t, c)
	r := p.oneToolResult(o)
	switch {
	case code == 0 && strings.Contains(stdout, `"permissionDecision":"ask"`):
	case code == 2 && strings.HasPrefix(stderr, "guard: denied: "):
		if !strings.Contains(r.Text, "guard: denied: ") {
			t.Errorf("guard denied the Write, but its reason did not reach the model: %q", r.Text)
		}
	default:
		t.Errorf("guard on the logged input: exit %d, stdout %q, stderr %q; want an ask or a deny", code, stdout, stderr)
	}
	if !r.IsError {
		t.Errorf("the tool_result is not an error: %q", r.Text)
	}
	p.deniedInResult(o)
}

// TestWriteAskRefused: a pre-approved Write to an ordinary file, where guard
// is the only gate. The control run, without the hook, shows that nothing
// else stops the Write; with guard, its ask stops it and its reason reaches
// the model.
func TestWriteAskRefused(t *testing.T) {
	t.Parallel()
	setup := func(t *testing.T) (*project, map[string]any) {
		p := newProject(t)
		input := map[string]any{"file_path": filepath.Join(p.dir, "notes.txt"), "content": "written\n"}
		p.script("Write", input)
		return p, input
	}
	t.Run("control without guard", func(t *testing.T) {
		p, _ := setup(t)
		p.write(".claude/settings.json", "{}\n")
		o := p.run("Bash", "Write")
		if !p.exists("notes.txt") {
			t.Errorf("the pre-approved Write did not run without a hook, so guard is not the only gate: %q", p.oneToolResult(o).Text)
		}
	})
	t.Run("guard", func(t *testing.T) {
		p, input := setup(t)
		o := p.run("Bash", "Write")
		p.oneHookCall("Write", input)
		if p.exists("notes.txt") {
			t.Errorf("the Write ran although guard asked and nobody could answer")
		}
		r := p.oneToolResult(o)
		reason := "guard (policy default): needs approval: Write: writing " + p.dir + "/notes.txt: needs approval once in this session; once approved, the session is granted dir " + p.dir + " (rule paths.write)"
		if !strings.Contains(r.Text, reason) || !r.IsError {
			t.Errorf("guard's permissionDecisionReason %q did not reach the model (is_error=%v): %q", reason, r.IsError, r.Text)
		}
		p.deniedInResult(o)
	})
}

// TestHookInput: the exact JSON Claude Code gives the hook, against the
// fields guard reads, and guard's answer to it replayed.
func TestHookInput(t *testing.T) {
	t.Parallel()
	cmd := "echo e2e-hook-input | wc -c"
	p := newProject(t)
	p.script("Bash", map[string]any{"command": cmd})
	o := p.run("Bash")
	c := p.oneHookCall("Bash", map[string]any{"command": cmd})
	keys := slices.Sorted(maps.Keys(c.fields))
	t.Logf("hook input fields: %v", keys)
	// tool_input is exactly what the model sent, no field added or dropped.
	want := map[string]any{"command": cmd}
	if !reflect.DeepEqual(c.input, want) {
		t.Errorf("tool_input = %v, want exactly the scripted input %v", c.input, want)
	}
	// The follow-up request repeats the model's tool_use: same id, same input
	// as the hook saw.
	found := false
	for _, r := range p.api.Requests() {
		for _, m := range r.Messages {
			if m.Role != "assistant" {
				continue
			}
			for _, b := range m.blocks() {
				if b.Type != "tool_use" || b.ID != toolUseID {
					continue
				}
				found = true
				var in map[string]any
				if err := json.Unmarshal(b.Input, &in); err != nil || !reflect.DeepEqual(in, c.input) || b.Name != c.tool {
					t.Errorf("the model's tool_use in the follow-up request is %s %s; the hook saw %s %v", b.Name, b.Input, c.tool, c.input)
				}
			}
		}
	}
	if !found {
		t.Errorf("no request repeats the model's tool_use %s", toolUseID)
	}
	var id string
	if err := json.Unmarshal(c.fields["tool_use_id"], &id); err != nil || id != toolUseID {
		t.Errorf("tool_use_id = %s, want %q (the scripted block's id)", c.fields["tool_use_id"], toolUseID)
	}
	if d := c.getenv("CLAUDE_PROJECT_DIR"); d != p.dir {
		t.Errorf("CLAUDE_PROJECT_DIR in the hook's environment = %q, want %q", d, p.dir)
	}
	// The server saw the scripted call once, and every request was logged.
	reqs := p.api.Requests()
	tools := 0
	for _, r := range reqs {
		if strings.HasPrefix(r.Answer, "tool_use") {
			tools++
		}
	}
	if tools != 1 || len(reqs) < 2 {
		t.Errorf("the fake API answered %d of %d requests with the tool call, want 1 of at least 2", tools, len(reqs))
	}
	// guard, given the logged bytes again, allows; and so the command ran.
	code, stdout, stderr := replay(t, c)
	if code != 0 || !strings.Contains(stdout, `"permissionDecision":"allow"`) {
		t.Errorf("guard on the logged input: exit %d, stdout %q, stderr %q; want an allow", code, stdout, stderr)
	}
	r := p.oneToolResult(o)
	if strings.TrimSpace(r.Text) != "15" || r.IsError {
		t.Errorf("the tool_result is not the output of %q (is_error=%v): %q", cmd, r.IsError, r.Text)
	}
}

// TestMissingGuardBlocks: with "onFailure": "block", a hook command that
// cannot start (guard not installed) blocks the call instead of letting
// every call run.
func TestMissingGuardBlocks(t *testing.T) {
	t.Parallel()
	cmd := "touch missing-marker"
	p := newProject(t)
	p.script("Bash", map[string]any{"command": cmd})
	p.writeSettings(shellQuote(filepath.Join(p.bin, "no-such-guard")) + " hook")
	o := p.run("Bash")
	if n := len(p.hookCalls()); n != 0 {
		t.Fatalf("the logging wrapper ran %d times; it is not the hook here", n)
	}
	if p.exists("missing-marker") {
		t.Errorf("%q ran although the hook could not start (onFailure: block)", cmd)
	}
	r := p.oneToolResult(o)
	if !r.IsError || !strings.Contains(r.Text, "onFailure") {
		t.Errorf("the tool_result is not Claude Code's onFailure block (is_error=%v): %q", r.IsError, r.Text)
	}
	p.deniedInResult(o)
}

// TestGrepLeavesSecretsOut: Claude Code's Grep searches hidden files, so a
// Grep of the project reads its .env. Without guard (the control) the
// secret reaches the model; with guard, its allow rewrites the Grep's glob
// field to leave .env and .env.* out, and the model gets the other file's
// line alone.
func TestGrepLeavesSecretsOut(t *testing.T) {
	t.Parallel()
	const secret = "e2e-grep-secret-5d1c"
	input := map[string]any{"pattern": "e2e-grep-", "output_mode": "content"}
	setup := func(t *testing.T) *project {
		p := newProject(t)
		p.script("Grep", input)
		p.write(".env", "API_TOKEN="+secret+"\n")
		p.write("config/.env.local", "API_TOKEN="+secret+"-local\n")
		p.write("notes.txt", "e2e-grep-visible\n")
		return p
	}
	t.Run("control without guard", func(t *testing.T) {
		p := setup(t)
		p.write(".claude/settings.json", "{}\n")
		r := p.oneToolResult(p.run("Grep"))
		if !strings.Contains(r.Text, secret) {
			t.Errorf("without guard the Grep did not read .env, so this test shows nothing: %q", r.Text)
		}
	})
	t.Run("guard", func(t *testing.T) {
		p := setup(t)
		o := p.run("Grep")
		c := p.oneHookCall("Grep", input)
		_, stdout, _ := replay(t, c)
		if !strings.Contains(stdout, `"permissionDecision":"allow"`) || !strings.Contains(stdout, `"glob":"!**/.env !**/.env.*"`) {
			t.Errorf("guard's answer is not an allow with the globs that leave secrets out: %s", stdout)
		}
		r := p.oneToolResult(o)
		if strings.Contains(r.Text, secret) {
			t.Errorf("the secret reached the model: %q", r.Text)
		}
		if !strings.Contains(r.Text, "e2e-grep-visible") || r.IsError {
			t.Errorf("the Grep did not search the rest of the project (is_error=%v): %q", r.IsError, r.Text)
		}
	})
}
