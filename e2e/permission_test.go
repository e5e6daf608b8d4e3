// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

// PermissionRequest, with the real clients: the event Claude Code and
// Codex send a hook before they would ask their user to approve a call.

import (
	"encoding/json"
	"strings"
	"testing"

	guardsandbox "guard/sandbox"
)

// hookCallsOf returns the logged inputs of one event.
func hookCallsOf(calls []cliHookCall, event string) []cliHookCall {
	var out []cliHookCall
	for _, c := range calls {
		if c.event == event {
			out = append(out, c)
		}
	}
	return out
}

// TestCodexPermissionRequestApproves: the model asks to run make outside
// Codex's read-only sandbox (sandbox_permissions: require_escalated), and
// the policy allows make. guard's PreToolUse lets it through, rewritten to
// run under guard run where the kernel can confine it, and its
// PermissionRequest answer approves it: the command runs, unsandboxed by
// Codex, and makes its file. Without guard's approval Codex's automatic
// review would refuse it (the fake model's review is no JSON).
func TestCodexPermissionRequestApproves(t *testing.T) {
	t.Parallel()
	cmd := "make show"
	p := newCodexProject(t)
	p.approve = true
	p.hooks["PermissionRequest"] = p.hook
	writeFile(t, p.home, ".config/guard/guard.toml", "version = 1\nextends = \"default\"\n\n[command.make]\nverdict = \"allow\"\n")
	writeFile(t, p.dir, "src/.keep", "")
	writeFile(t, p.dir, "Makefile", "show:\n\ttouch src/made-marker\n")
	p.script("exec_command", map[string]any{"cmd": cmd, "sandbox_permissions": "require_escalated", "justification": "make writes its file"})
	o := p.run()
	calls := p.hookCalls()
	prs := hookCallsOf(calls, "PermissionRequest")
	if len(hookCallsOf(calls, "PreToolUse")) != 1 || len(prs) != 1 {
		t.Fatalf("hook calls: %d, want one PreToolUse and one PermissionRequest", len(calls))
	}
	asked, _ := prs[0].input["command"].(string)
	if guardsandbox.Available() != nil && asked != cmd ||
		guardsandbox.Available() == nil && !strings.HasSuffix(asked, "' 'run' -- bash --noprofile --norc -c 'make show'") {
		t.Errorf("PermissionRequest tool_input = %v, want the command %q, under guard run where it can run", prs[0].input, cmd)
	}
	p.oneOutput(o)
	if !p.exists("src/made-marker") {
		t.Errorf("%q did not run: guard's approval was not taken", cmd)
	}
	code, stdout, _ := replayHook(t, prs[0], hookArgs(t, "codex")...)
	if code != 0 || !strings.Contains(stdout, `"behavior":"allow"`) {
		t.Errorf("guard on the PermissionRequest: exit %d, %q; want its approval", code, stdout)
	}
}

// TestCodexPermissionRequestRewritten: with [sandbox] run, guard's
// PreToolUse rewrites the command to run under guard run, and Codex asks
// PermissionRequest about the rewritten command, which as a command is
// denied (no command may start guard). guard knows it for its own rewrite
// of an allowed command and approves it: it runs, outside Codex's
// sandbox and inside guard's, which keeps the key out of reach.
func TestCodexPermissionRequestRewritten(t *testing.T) {
	t.Parallel()
	if err := guardsandbox.Available(); err != nil {
		t.Skipf("guard run cannot run here: %v", err)
	}
	const key = "e2e-key-codex-escalated-77a1"
	cmd := "make show"
	p := newCodexProject(t)
	p.approve = true
	p.hooks["PermissionRequest"] = p.hook
	writeFile(t, p.home, ".config/guard/guard.toml", "version = 1\nextends = \"default\"\n\n[sandbox]\nrun = true\nrequire = true\n\n[command.make]\nverdict = \"allow\"\n")
	writeFile(t, p.home, ".ssh/id_rsa", key+"\n")
	writeFile(t, p.dir, "src/.keep", "")
	writeFile(t, p.dir, "Makefile", "show:\n\ttouch src/made-marker\n\t-cat $(HOME)/.ssh/id_rsa\n")
	p.script("exec_command", map[string]any{"cmd": cmd, "sandbox_permissions": "require_escalated", "justification": "make writes its file"})
	o := p.run()
	prs := hookCallsOf(p.hookCalls(), "PermissionRequest")
	if len(prs) != 1 {
		t.Fatalf("%d PermissionRequest calls, want 1", len(prs))
	}
	asked, _ := prs[0].input["command"].(string)
	if !strings.HasSuffix(asked, "' 'run' -- bash --noprofile --norc -c 'make show'") {
		t.Errorf("PermissionRequest command = %q, want guard's rewrite", asked)
	}
	text := p.oneOutput(o)
	if !p.exists("src/made-marker") {
		t.Errorf("the rewritten command did not run: %q", text)
	}
	if strings.Contains(text, key) {
		t.Errorf("the key was read: %q", text)
	}
}

// TestCodexPermissionRequestRefuses: with guard registered for
// PermissionRequest alone, Codex takes its deny there: rm -rf does not
// run, and guard's reason reaches the model.
func TestCodexPermissionRequestRefuses(t *testing.T) {
	t.Parallel()
	cmd := "rm -rf victim"
	p := newCodexProject(t)
	p.approve = true
	p.hooks = map[string]string{"PermissionRequest": p.hook}
	writeFile(t, p.dir, "victim/keep.txt", "precious\n")
	p.script("exec_command", map[string]any{"cmd": cmd, "sandbox_permissions": "require_escalated", "justification": "clean up"})
	o := p.run()
	p.oneHookCall("PermissionRequest", "Bash", map[string]any{"command": cmd})
	if !p.exists("victim/keep.txt") {
		t.Errorf("%q ran", cmd)
	}
	if text := p.oneOutput(o); !strings.Contains(text, "guard: denied: rm -r") || !strings.Contains(text, "guard: hint: ") {
		t.Errorf("guard's reason did not reach the model: %q", text)
	}
}

// claudeSettings writes the project's .claude/settings.json with guard's
// hook for each of events, and more settings.
func (p *project) claudeSettings(events []string, more map[string]any) {
	p.t.Helper()
	hooks := map[string]any{}
	for _, ev := range events {
		hooks[ev] = []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{
			"type": "command", "command": p.hook, "timeout": hookTimeout, "onFailure": "block"}}}}
	}
	settings := map[string]any{"hooks": hooks}
	for k, v := range more {
		settings[k] = v
	}
	data, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		p.t.Fatal(err)
	}
	p.write(".claude/settings.json", string(data)+"\n")
}

// TestPermissionRequestRefuses: with guard registered for
// PermissionRequest alone, Claude Code takes its deny (JSON, exit 0) at
// the prompt it would show: rm -rf does not run, and guard's reason
// reaches the model.
func TestPermissionRequestRefuses(t *testing.T) {
	t.Parallel()
	cmd := "rm -rf victim"
	p := newProject(t)
	p.claudeSettings([]string{"PermissionRequest"}, nil)
	p.script("Bash", map[string]any{"command": cmd})
	p.write("victim/keep.txt", "precious\n")
	o := p.run()
	calls := p.hookCalls()
	if len(calls) != 1 || calls[0].event != "PermissionRequest" {
		t.Fatalf("hook calls: %d, want one PermissionRequest", len(calls))
	}
	if !p.exists("victim/keep.txt") {
		t.Errorf("%q ran", cmd)
	}
	if r := p.oneToolResult(o); !strings.Contains(r.Text, "guard: denied: rm -r") {
		t.Errorf("guard's reason did not reach the model: %q", r.Text)
	}
	p.deniedInResult(o)
}

// TestPermissionRequestKeepsAskRule: the user's own ask rule for cat
// makes Claude Code prompt even after guard's PreToolUse allows cat; at
// the prompt guard's PermissionRequest gives no answer, so the prompt is
// the user's (claude -p refuses it) and the file is not read.
func TestPermissionRequestKeepsAskRule(t *testing.T) {
	t.Parallel()
	const token = "e2e-token-ask-rule-41c2"
	cmd := "cat hello.txt"
	p := newProject(t)
	p.claudeSettings([]string{"PreToolUse", "PermissionRequest"}, map[string]any{"permissions": map[string]any{"ask": []any{"Bash(cat:*)"}}})
	p.script("Bash", map[string]any{"command": cmd})
	p.write("hello.txt", token+"\n")
	o := p.run()
	var events []string
	for _, c := range p.hookCalls() {
		events = append(events, c.event)
	}
	if strings.Join(events, ",") != "PreToolUse,PermissionRequest" {
		t.Errorf("hook events %v, want PreToolUse then PermissionRequest", events)
	}
	if r := p.oneToolResult(o); strings.Contains(r.Text, token) {
		t.Errorf("%q ran although the user's ask rule was not answered: %q", cmd, r.Text)
	}
	p.deniedInResult(o)
}
