// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

// The real Cline CLI against guard: a scripted OpenAI Chat Completions
// API on loopback (server_chat_test.go) asks for one tool call, Cline runs
// the project's .clinerules/hooks/PreToolUse, the hook file guard init
// writes, whose guard is the logging wrapper, and the tests check what
// ran and what the model was told. Cline runs headless (cline "task",
// which approves every tool), with its openai-compatible provider set in
// the scratch HOME's providers.json, in the same bubblewrap sandbox as
// the other agents. Cline starts a hub daemon that outlives it, on a port
// the test gives it: the test ends it.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"guard/agent"
	guardsandbox "guard/sandbox"
)

// clineVersion is the Cline CLI release these tests were written and
// checked against; install.sh installs it.
const clineVersion = "3.0.65"

var (
	clineOnce sync.Once
	clineCLI  *cli
)

// cline returns the Cline CLI: GUARD_E2E_CLINE (its bin/cline, a node
// script that runs the platform package's binary), else the one in the
// cache.
func cline(t *testing.T) *cli {
	t.Helper()
	clineOnce.Do(func() {
		clineCLI = findCLI("Cline CLI", "GUARD_E2E_CLINE", "node_modules/cline/bin/cline", clineVersion, true,
			func(out string) string { return strings.TrimSpace(out) })
	})
	clineCLI.need(t)
	return clineCLI
}

// clineProject is a project with guard's hook file for Cline.
type clineProject struct {
	*cliProject
	cli *cli
	api *fakeChatAPI
}

// newClineProject makes a project whose .clinerules/hooks/PreToolUse is
// the file guard init writes, running the logging wrapper in guard's
// place. It skips the test when the Cline CLI is missing.
func newClineProject(t *testing.T) *clineProject {
	t.Helper()
	c := cline(t)
	p := &clineProject{cliProject: newCLIProject(t, hookArgs(t, "cline")), cli: c}
	changes, err := agent.Cline{}.Install(p.dir, true, "/guard")
	if err != nil {
		t.Fatal(err)
	}
	// The wrapper takes guard hook's arguments, without hook.
	script := strings.Replace(string(changes[0].New), "'/guard' hook --agent cline", p.hook, 1)
	if script == string(changes[0].New) {
		t.Fatalf("the hook file does not run guard hook --agent cline:\n%s", script)
	}
	writeFile(t, p.dir, ".clinerules/hooks/PreToolUse", script)
	if err := exec.Command("chmod", "+x", changes[0].Path).Run(); err != nil {
		t.Fatal(err)
	}
	return p
}

// script starts the project's fake model, which makes the given calls
// (pairs of a tool and its arguments), and points Cline at it.
func (p *clineProject) script(pairs ...any) {
	p.t.Helper()
	p.api = newFakeChatAPI(p.t, pairs...)
	providers, err := json.Marshal(map[string]any{"version": 1, "lastUsedProvider": "openai-compatible", "modes": map[string]any{},
		"providers": map[string]any{"openai-compatible": map[string]any{
			"settings":  map[string]any{"provider": "openai-compatible", "apiKey": "sk-e2e", "model": "e2e-model", "baseUrl": p.api.URL()},
			"updatedAt": "2026-12-07T02:05:50.599Z", "tokenSource": "manual"}}})
	if err != nil {
		p.t.Fatal(err)
	}
	writeFile(p.t, p.home, ".cline/data/settings/providers.json", string(providers)+"\n")
}

// run runs cline "do the task" in the sandbox, and returns its streams.
func (p *clineProject) run() *cliOutcome {
	p.t.Helper()
	if p.api == nil {
		p.t.Fatal("no fake model: call script first")
	}
	// A hub port of its own: Cline's default one is the same for every
	// HOME, and the tests run side by side.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		p.t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	env := []string{
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=" + p.home, "USER=root", "SHELL=/bin/bash", "LANG=C.UTF-8", "TERM=dumb", "TMPDIR=/tmp",
		"CLINE_NO_AUTO_UPDATE=1", fmt.Sprintf("CLINE_HUB_PORT=%d", port),
	}
	ctx, cancel := context.WithTimeout(context.Background(), cliRunTimeout)
	defer cancel()
	cmd := sandbox(ctx, p.cli.prog, p.dir, []string{p.dir, p.home, p.hookLog}, []string{p.bin, guardDir},
		append(slices.Clone(p.cli.args), "--json", "do the task"), env)
	defer p.stopHub(port)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	o := &cliOutcome{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		p.t.Fatalf("cline did not finish within %s\nstdout: %s\nstderr: %s\nrequests:\n%s", cliRunTimeout, o.stdout, o.stderr, p.api.Summary())
	case errors.As(err, &ee):
		o.exit = ee.ExitCode()
	case err != nil:
		p.t.Fatalf("running cline: %v", err)
	}
	p.t.Logf("cline ran in %.1fs, exit %d\nrequests:\n%s", time.Since(start).Seconds(), o.exit, p.api.Summary())
	return o
}

// stopHub ends the hub daemon the run started, which outlives it: the
// process whose command line is Cline's hub daemon's for the project, on
// the run's port.
func (p *clineProject) stopHub(port int) {
	p.t.Helper()
	want := []string{"--cline-hub-daemon", "--cwd\x00" + p.dir + "\x00", fmt.Sprintf("--port\x00%d\x00", port)}
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range procs {
		data, err := os.ReadFile(f)
		if err != nil || !containsAll(string(data), want) {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		if err == nil {
			p.t.Logf("stopping Cline's hub daemon, pid %d", pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// containsAll reports whether s holds every one of subs.
func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// clineHookCall is what Cline gave the hook for one tool call.
type clineHookCall struct {
	cliHookCall
	HookName string   `json:"hookName"`
	Roots    []string `json:"workspaceRoots"`
	ToolCall struct {
		Name  string         `json:"name"`
		Input map[string]any `json:"input"`
	} `json:"tool_call"`
}

// oneHookCall checks that the hook ran once, for tool with input, in the
// project.
func (p *clineProject) oneHookCall(tool string, input map[string]any) clineHookCall {
	p.t.Helper()
	calls := p.hookCalls()
	if len(calls) != 1 {
		for _, c := range calls {
			p.t.Logf("hook input: %s", c.raw)
		}
		p.t.Fatalf("the hook ran %d times, want once (for the scripted %s call)", len(calls), tool)
	}
	c := clineHookCall{cliHookCall: calls[0]}
	p.t.Logf("hook input: %s", c.raw)
	if err := json.Unmarshal(c.raw, &c); err != nil {
		p.t.Fatal(err)
	}
	want, _ := json.Marshal(input)
	got, _ := json.Marshal(c.ToolCall.Input)
	if c.HookName != "tool_call" || c.ToolCall.Name != tool || string(got) != string(want) || !slices.Equal(c.Roots, []string{p.dir}) {
		p.t.Errorf("hook input: hookName %q, tool %q, input %s, workspaceRoots %q; want tool_call, %q, %s, [%q]",
			c.HookName, c.ToolCall.Name, got, c.Roots, tool, want, p.dir)
	}
	return c
}

// oneToolResult returns the tool message Cline sent the model back for
// the scripted call, and the hook context it added after it (where
// errorMessage goes).
func (p *clineProject) oneToolResult(o *cliOutcome) (result, context string) {
	p.t.Helper()
	rs := p.api.ToolResults()
	if len(rs) != 1 {
		p.t.Fatalf("the fake API got %d tool results, want one\nstdout: %s\nstderr: %s", len(rs), o.stdout, o.stderr)
	}
	for _, r := range p.api.Requests() {
		for _, m := range r.Messages {
			if text := m.Text(); m.Role == "user" && strings.HasPrefix(text, "<hook_context") {
				context = text
			}
		}
	}
	p.t.Logf("tool result: %s\nhook context: %s", rs[0], context)
	return rs[0], context
}

// TestClineDeniedCommandDoesNotRun: guard refuses `touch MARKER` (it
// would ask, and Cline has no ask): its answer gives run_commands the
// null input, which it refuses, with guard's reason for the model. The
// marker is not made, the task goes on, and the reason reaches the model
// after the tool's error.
func TestClineDeniedCommandDoesNotRun(t *testing.T) {
	t.Parallel()
	p := newClineProject(t)
	input := map[string]any{"commands": []any{"touch MARKER"}}
	p.script("run_commands", input)
	o := p.run()
	c := p.oneHookCall("run_commands", input)
	if p.exists("MARKER") {
		t.Errorf("touch MARKER ran although guard denied it")
	}
	result, context := p.oneToolResult(o)
	if !strings.Contains(result, "Invalid input") {
		t.Errorf("the tool result is not run_commands' refusal of the null input: %q", result)
	}
	if !strings.Contains(context, "guard: denied: guard (policy default): needs approval: touch") || !strings.Contains(context, "Cline's hooks have no ask") {
		t.Errorf("guard's reason did not reach the model: %q", context)
	}
	code, stdout, _ := replayHook(t, c.cliHookCall, hookArgs(t, "cline")...)
	if code != 2 || !strings.HasPrefix(stdout, `{"cancel":false,"overrideInput":null,"errorMessage":"guard: denied: `) {
		t.Errorf("guard on the logged input: exit %d, stdout %q; want exit 2 and the null input", code, stdout)
	}
}

// TestClineAllowedCommandRuns: guard allows `cat hello.txt`, rewritten
// to run in guard run's read-only sandbox where the kernel can confine it
// (overrideInput); its output reaches the model.
func TestClineAllowedCommandRuns(t *testing.T) {
	t.Parallel()
	const token = "e2e-token-cline-5e1a"
	p := newClineProject(t)
	writeFile(t, p.dir, "hello.txt", token+"\n")
	input := map[string]any{"commands": []any{"cat hello.txt"}}
	p.script("run_commands", input)
	o := p.run()
	c := p.oneHookCall("run_commands", input)
	result, context := p.oneToolResult(o)
	if !strings.Contains(result, token) || context != "" {
		t.Errorf("the output of cat hello.txt did not reach the model: result %q, hook context %q", result, context)
	}
	want := `{"cancel":false}` + "\n"
	if r := readOnlyRewrite(t, "cat hello.txt"); r != "" {
		out, _ := json.Marshal(map[string]any{"cancel": false, "overrideInput": map[string]any{"commands": []string{r}}})
		want = string(out) + "\n"
	}
	if code, stdout, stderr := replayHook(t, c.cliHookCall, hookArgs(t, "cline")...); code != 0 || stdout != want {
		t.Errorf("guard on the logged input: exit %d, stdout %q, stderr %q; want exit 0 and %s", code, stdout, stderr, want)
	}
}

// TestClineSandboxedCommand: with [sandbox] run = true, guard allows
// make, rewritten to run under guard run (overrideInput); Cline runs the
// rewritten command, the model gets its output, and the key the Makefile
// reads stays out of reach.
func TestClineSandboxedCommand(t *testing.T) {
	t.Parallel()
	if err := guardsandbox.Available(); err != nil {
		t.Skipf("guard run cannot run here: %v", err)
	}
	const token, key = "e2e-token-cline-sandboxed-90b3", "e2e-key-cline-never-read-77d4"
	p := newClineProject(t)
	writeFile(t, p.home, ".config/guard/guard.toml", "version = 1\nextends = \"default\"\n\n[sandbox]\nrun = true\nrequire = true\n\n[command.make]\nverdict = \"allow\"\n")
	writeFile(t, p.home, ".ssh/id_rsa", key+"\n")
	writeFile(t, p.dir, "hello.txt", token+"\n")
	writeFile(t, p.dir, "Makefile", "show:\n\tcat hello.txt\n\t-cat $(HOME)/.ssh/id_rsa\n\t@echo after-the-key\n")
	input := map[string]any{"commands": []any{"make show"}}
	p.script("run_commands", input)
	o := p.run()
	c := p.oneHookCall("run_commands", input)
	result, _ := p.oneToolResult(o)
	if !strings.Contains(result, token) || !strings.Contains(result, "after-the-key") {
		t.Errorf("the rewritten command's output did not reach the model: %q", result)
	}
	if strings.Contains(result, key) || !strings.Contains(result, "No such file or directory") && !strings.Contains(result, "ermission denied") {
		t.Errorf("the key was not kept out of reach: %q", result)
	}
	if !strings.Contains(result, "' 'run' -- bash --noprofile --norc -c 'make show'") {
		t.Errorf("the model was not told the command ran under guard run: %q", result)
	}
	code, stdout, stderr := replayHook(t, c.cliHookCall, hookArgs(t, "cline")...)
	var ans struct {
		Cancel   bool `json:"cancel"`
		Override struct {
			Commands []string `json:"commands"`
		} `json:"overrideInput"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &ans) != nil || ans.Cancel || len(ans.Override.Commands) != 1 ||
		!strings.HasSuffix(ans.Override.Commands[0], "' 'run' -- bash --noprofile --norc -c 'make show'") {
		t.Errorf("replay: exit %d, stdout %q, stderr %q; want the command under guard run", code, stdout, stderr)
	}
}

// TestClineHookFileRefusesWithoutGuard: the hook file guard init writes
// names a guard that is not there. Cline runs a call whose hook exits
// non-zero with no answer, so the file answers cancel itself: the command
// does not run, and Cline stops the task.
func TestClineHookFileRefusesWithoutGuard(t *testing.T) {
	t.Parallel()
	p := newClineProject(t)
	changes, err := agent.Cline{}.Install(p.dir, true, filepath.Join(p.bin, "no-such-guard"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, p.dir, ".clinerules/hooks/PreToolUse", string(changes[0].New))
	p.script("run_commands", map[string]any{"commands": []any{"touch MARKER"}})
	o := p.run()
	if p.exists("MARKER") {
		t.Errorf("touch MARKER ran although guard could not start: the hook file failed open")
	}
	if rs := p.api.ToolResults(); len(rs) != 0 || !strings.Contains(o.stdout, `"finishReason":"aborted"`) {
		t.Errorf("want the task stopped before the tool ran; tool results %q\nstdout: %s", rs, o.stdout)
	}
}
