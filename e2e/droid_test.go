// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

// The real Factory Droid against guard: a scripted Chat Completions API
// on loopback is Droid's custom model (customModels in
// ~/.factory/settings.json, provider generic-chat-completion-api), which
// needs no Factory login; it asks for one Execute call, Droid runs guard
// hook --agent droid as its PreToolUse hook (the project's
// .factory/settings.json), and the tests check what ran and what the
// model was told. Droid runs headless (droid exec) at --auto high, where
// its own permission check lets the calls run and the hook is the gate,
// in the same bubblewrap sandbox as the other agents.

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"guard/agent"
	guardsandbox "guard/sandbox"
)

// droidVersion is the Droid release these tests were written and
// checked against; install.sh installs it.
const droidVersion = "0.215.0"

var (
	droidOnce sync.Once
	droidCLI  *cli
)

// droid returns Droid: GUARD_E2E_DROID, else the platform package's
// binary in the cache.
func droid(t *testing.T) *cli {
	t.Helper()
	droidOnce.Do(func() {
		droidCLI = findCLI("Factory Droid", "GUARD_E2E_DROID", "node_modules/@factory/cli-linux-x64/bin/droid", droidVersion, false,
			func(out string) string { return strings.TrimSpace(out) })
	})
	droidCLI.need(t)
	return droidCLI
}

// droidProject is a project with guard as Droid's PreToolUse hook.
type droidProject struct {
	*cliProject
	cli *cli
	api *fakeChatAPI
}

// newDroidProject makes a project whose hook is guard hook --agent droid,
// through the logging wrapper, and whose model makes the given calls.
func newDroidProject(t *testing.T, pairs ...any) *droidProject {
	t.Helper()
	c := droid(t)
	p := &droidProject{cliProject: newCLIProject(t, hookArgs(t, "droid")), cli: c, api: newFakeChatAPI(t, pairs...)}
	settings, err := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{
		"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": p.hook, "timeout": 30}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, p.dir, ".factory/settings.json", string(settings)+"\n")
	model, err := json.Marshal(map[string]any{"customModels": []any{map[string]any{"model": "e2e-model", "displayName": "E2E",
		"baseUrl": p.api.URL(), "apiKey": "test", "provider": "generic-chat-completion-api", "maxOutputTokens": 1000}}})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, p.home, ".factory/settings.json", string(model)+"\n")
	return p
}

// run runs droid exec in the sandbox and returns the text of the one
// tool result the model got back.
func (p *droidProject) run() (*cliOutcome, string) {
	p.t.Helper()
	env := []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + p.home, "USER=root",
		"SHELL=/bin/bash", "LANG=C.UTF-8", "TERM=dumb", "TMPDIR=/tmp"}
	o := p.cliProject.run(p.cli, []string{"exec", "--auto", "high", "-m", "custom:E2E-0", "do the task"}, env)
	p.t.Logf("requests:\n%s", p.api.Summary())
	rs := p.api.ToolResults()
	if len(rs) != 1 {
		p.t.Fatalf("the model got %d tool results, want 1\nstdout: %s\nstderr: %s\nrequests:\n%s", len(rs), o.stdout, o.stderr, p.api.Summary())
	}
	p.t.Logf("tool result: %s", rs[0])
	return o, rs[0]
}

// execute is the arguments of Droid's Execute call of cmd, as its model
// sends them.
func execute(cmd string) map[string]any {
	return map[string]any{"summary": "the task", "command": cmd, "riskLevel": "low", "riskLevelReason": "the task asks for it"}
}

// TestDroidDeniedCommandDoesNotRun: guard denies a command that would
// make a marker and then remove the home (exit 2, the reason on stderr);
// the marker is not there, and guard's reason and hint reach the model.
func TestDroidDeniedCommandDoesNotRun(t *testing.T) {
	t.Parallel()
	cmd := "touch MARKER && rm -rf ~"
	p := newDroidProject(t, "Execute", execute(cmd))
	_, text := p.run()
	p.oneHookCall("PreToolUse", "Execute", map[string]any{"command": cmd})
	if p.exists("MARKER") {
		t.Errorf("%q ran although guard denied it", cmd)
	}
	if !strings.Contains(text, "guard: denied: rm -r") || !strings.Contains(text, "guard: hint: ") {
		t.Errorf("guard's deny reason and hint did not reach the model: %q", text)
	}
}

// TestDroidAllowedCommandRuns: guard allows cat hello.txt, rewritten to
// run in guard run's read-only sandbox where the kernel can confine it;
// the command runs and its output reaches the model.
func TestDroidAllowedCommandRuns(t *testing.T) {
	t.Parallel()
	const token = "e2e-token-droid-5b13"
	cmd := "cat hello.txt"
	p := newDroidProject(t, "Execute", execute(cmd))
	writeFile(t, p.dir, "hello.txt", token+"\n")
	_, text := p.run()
	c := p.oneHookCall("PreToolUse", "Execute", map[string]any{"command": cmd})
	if !strings.Contains(text, token) {
		t.Errorf("the output of %q did not reach the model: %q", cmd, text)
	}
	code, stdout, stderr := replayHook(t, c, hookArgs(t, "droid")...)
	if code != 0 || !strings.Contains(stdout, `"permissionDecision":"allow"`) {
		t.Errorf("guard on the logged input: exit %d, stdout %q, stderr %q; want an allow", code, stdout, stderr)
	}
	// The input is the golden one's shape, and guard knows it for Droid's
	// without --agent.
	if got, golden := c.keys(), goldenKeys(t, "droid/pretooluse-execute.json"); !reflect.DeepEqual(got, golden) {
		t.Errorf("the hook input's fields are %v; the golden input's %v: capture a new one", got, golden)
	}
	if got := agent.Detect(c.raw); got != "droid" {
		t.Errorf("agent.Detect says %q of Droid's input", got)
	}
	if code, auto, stderr := replayHook(t, c); code != 0 || auto != stdout {
		t.Errorf("guard hook without --agent answers exit %d, %q (stderr %q); with --agent droid %q", code, auto, stderr, stdout)
	}
	if r := readOnlyRewrite(t, cmd); r != "" && !strings.Contains(stdout, `"updatedInput"`) {
		t.Errorf("guard's allow has no updatedInput, want the command under guard run: %s", stdout)
	}
}

// TestDroidSandboxedCommand: with [sandbox] run = true, guard allows make
// with its command rewritten to run under guard run (updatedInput); Droid
// runs the rewritten command, the model gets its output, and the key the
// Makefile reads stays out of reach.
func TestDroidSandboxedCommand(t *testing.T) {
	t.Parallel()
	if err := guardsandbox.Available(); err != nil {
		t.Skipf("guard run cannot run here: %v", err)
	}
	const token, key = "e2e-token-droid-sandboxed-0e6a", "e2e-key-droid-never-read-93f1"
	cmd := "make show"
	p := newDroidProject(t, "Execute", execute(cmd))
	writeFile(t, p.home, ".config/guard/guard.toml", "version = 1\nextends = \"default\"\n\n[sandbox]\nrun = true\nrequire = true\n\n[command.make]\nverdict = \"allow\"\n")
	writeFile(t, p.home, ".ssh/id_rsa", key+"\n")
	writeFile(t, p.dir, "hello.txt", token+"\n")
	writeFile(t, p.dir, "Makefile", "show:\n\tcat hello.txt\n\t-cat $(HOME)/.ssh/id_rsa\n\t@echo after-the-key\n")
	_, text := p.run()
	c := p.oneHookCall("PreToolUse", "Execute", map[string]any{"command": cmd})
	if !strings.Contains(text, token) || !strings.Contains(text, "after-the-key") {
		t.Errorf("the rewritten command's output did not reach the model: %q", text)
	}
	if strings.Contains(text, key) || !strings.Contains(text, "No such file or directory") && !strings.Contains(text, "ermission denied") {
		t.Errorf("the key was not kept out of reach: %q", text)
	}
	code, stdout, stderr := replayHook(t, c, hookArgs(t, "droid")...)
	var ans struct {
		H struct {
			Decision string         `json:"permissionDecision"`
			Updated  map[string]any `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &ans) != nil || ans.H.Decision != "allow" {
		t.Fatalf("replay: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if got, _ := ans.H.Updated["command"].(string); !strings.Contains(got, "' 'run' -- bash --noprofile --norc -c 'make show'") {
		t.Errorf("updatedInput.command = %q, want it under guard run", got)
	}
}
