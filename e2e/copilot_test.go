// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

// The real GitHub Copilot CLI against guard: the scripted Anthropic
// Messages API of server_test.go on loopback asks for one tool call
// (Copilot's BYOK provider: COPILOT_PROVIDER_TYPE=anthropic,
// COPILOT_PROVIDER_BASE_URL, and COPILOT_OFFLINE=true, with which
// Copilot needs no GitHub account and documents no other network access),
// Copilot runs guard hook --agent copilot as its
// preToolUse hook (a hooks file of the project's .github/hooks/), and the
// tests check what ran and what the model was told. Copilot runs headless
// (copilot -p), with --allow-all-tools, so that guard is the only gate,
// and --trust-folder: in an untrusted folder copilot -p skips the
// project's hooks without a word (TestCopilotUntrustedRepoHooksSkipped).
// It runs in the same bubblewrap sandbox as Claude Code.
//
// Copilot unpacks its runtime (about 235 MB) into $XDG_CACHE_HOME/copilot
// on every start that finds it missing; the tests unpack it once into
// $GUARD_E2E_CACHE/copilot-runtime and give it to every run read-only.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"guard/agent"
	guardsandbox "guard/sandbox"
)

// copilotVersion is the GitHub Copilot CLI release these tests were
// written and checked against; install.sh installs it.
const copilotVersion = "1.0.102"

// copilotHookTimeout is the hook entry's timeoutSec.
const copilotHookTimeout = 30

// copilotModel is the model Copilot is told to use: one of its catalog's,
// so that it configures the agent for it.
const copilotModel = "claude-sonnet-4.6"

// copilotDenied is how Copilot tells the model a preToolUse hook denied a
// call: then the hook's permissionDecisionReason.
const copilotDenied = "Denied by preToolUse hook: "

var (
	copilotOnce    sync.Once
	copilotCLI     *cli
	copilotRuntime string // XDG_CACHE_HOME with Copilot's runtime unpacked
)

// copilot returns Copilot's native binary: GUARD_E2E_COPILOT, else the one
// in the cache (the platform package that @github/copilot pulls in), with
// its runtime unpacked.
func copilot(t *testing.T) *cli {
	t.Helper()
	copilotOnce.Do(func() {
		arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
		copilotCLI = findCLI("GitHub Copilot CLI", "GUARD_E2E_COPILOT", "node_modules/@github/copilot-linux-"+arch+"/copilot", copilotVersion, false,
			func(out string) string {
				first, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
				return strings.TrimSuffix(strings.TrimPrefix(first, "GitHub Copilot CLI "), ".")
			})
		if copilotCLI.skip != "" || copilotCLI.err != nil {
			return
		}
		copilotRuntime, copilotCLI.err = unpackCopilot(copilotCLI.prog)
	})
	copilotCLI.need(t)
	return copilotCLI
}

// unpackCopilot has Copilot unpack its runtime into a directory of the
// e2e cache, in the sandbox, and returns the directory.
func unpackCopilot(prog string) (string, error) {
	cache, err := e2eCache()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "copilot-runtime")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	home, err := os.MkdirTemp("", "guard-e2e-copilot-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := sandbox(ctx, prog, home, []string{home, dir}, nil, []string{"--version"},
		[]string{"HOME=" + home, "PATH=/usr/bin:/bin", "TERM=dumb", "XDG_CACHE_HOME=" + dir, "COPILOT_OFFLINE=true"})
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("unpacking Copilot's runtime into %s: %v\n%s", dir, err, out)
	}
	return dir, nil
}

// copilotProject is a project with guard as Copilot's preToolUse hook.
type copilotProject struct {
	*cliProject
	cli *cli
	api *fakeAPI
	// hooks are the project's .github/hooks/e2e.json: event (preToolUse,
	// or the PascalCase PreToolUse) → command. None: no file.
	hooks   map[string]string
	timeout int    // the hooks' timeoutSec
	trust   bool   // copilot -p --trust-folder
	shell   string // SHELL; "" means /bin/bash
}

// newCopilotProject makes a project whose hook is guard hook --agent
// copilot, through the logging wrapper, in a trusted folder. It skips the
// test when Copilot is missing.
func newCopilotProject(t *testing.T) *copilotProject {
	t.Helper()
	c := copilot(t)
	p := &copilotProject{cliProject: newCLIProject(t, hookArgs(t, "copilot")), cli: c, timeout: copilotHookTimeout, trust: true}
	p.hooks = map[string]string{"preToolUse": p.hook}
	return p
}

// script starts the project's fake model, which makes the given calls
// (pairs of a tool and its arguments) one after the other.
func (p *copilotProject) script(pairs ...any) {
	p.t.Helper()
	p.api = newFakeAPISeq(p.t, pairs...)
}

// copilotBash is the model's call of Copilot's bash tool: its command,
// and the description Copilot's schema requires.
func copilotBash(cmd string) map[string]any {
	return map[string]any{"command": cmd, "description": "run " + cmd}
}

// writeHooks writes .github/hooks/e2e.json: each event's command.
func (p *copilotProject) writeHooks() {
	p.t.Helper()
	hooks := map[string]any{}
	for event, command := range p.hooks {
		hooks[event] = []any{map[string]any{"type": "command", "bash": command, "timeoutSec": p.timeout}}
	}
	data, err := json.MarshalIndent(map[string]any{"version": 1, "hooks": hooks}, "", "  ")
	if err != nil {
		p.t.Fatal(err)
	}
	writeFile(p.t, p.dir, ".github/hooks/e2e.json", string(data)+"\n")
}

// copilotOutcome is a copilot -p --output-format json run: its exit code,
// streams, and its JSONL events.
type copilotOutcome struct {
	*cliOutcome
	events []copilotEvent
}

// copilotEvent is one line of copilot -p --output-format json.
type copilotEvent struct {
	Type string         `json:"type"`
	Data map[string]any `json:"data"`
}

// message returns the last assistant message.
func (o *copilotOutcome) message() string {
	msg := ""
	for _, e := range o.events {
		if e.Type == "assistant.message" {
			msg, _ = e.Data["content"].(string)
		}
	}
	return msg
}

// run runs copilot -p in the sandbox.
func (p *copilotProject) run() *copilotOutcome {
	p.t.Helper()
	if p.api == nil {
		p.t.Fatal("no fake model: call script first")
	}
	if p.hooks != nil {
		p.writeHooks()
	}
	env := append(cliEnv(p.home, p.shell),
		"XDG_CACHE_HOME="+copilotRuntime,
		"COPILOT_OFFLINE=true",
		"COPILOT_PROVIDER_TYPE=anthropic",
		"COPILOT_PROVIDER_BASE_URL="+p.api.URL(),
		"COPILOT_PROVIDER_API_KEY=test",
		"COPILOT_MODEL="+copilotModel,
	)
	args := []string{"-p", "do the task", "--allow-all-tools", "--output-format", "json"}
	if p.trust {
		args = append(args, "--trust-folder")
	}
	o := &copilotOutcome{cliOutcome: p.runSandboxed(args, env)}
	p.t.Logf("requests:\n%s", p.api.Summary())
	for _, line := range strings.Split(o.stdout, "\n") {
		var ev copilotEvent
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Type != "" {
			o.events = append(o.events, ev)
		}
	}
	return o
}

// runSandboxed runs Copilot as cliProject.run does, with its unpacked
// runtime bound read-only.
func (p *copilotProject) runSandboxed(args, env []string) *cliOutcome {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cliRunTimeout)
	defer cancel()
	cmd := sandbox(ctx, p.cli.prog, p.dir, append([]string{p.dir, p.home, p.hookLog}, p.writable...),
		[]string{p.bin, guardDir, copilotRuntime}, args, env)
	cmd.Stdin = nil
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	o := &cliOutcome{stdout: stdout.String(), stderr: stderr.String()}
	if ctx.Err() != nil {
		p.t.Fatalf("copilot did not finish within %s\nstdout: %s\nstderr: %s", cliRunTimeout, o.stdout, o.stderr)
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		o.exit = ee.ExitCode()
	default:
		p.t.Fatalf("running copilot: %v", err)
	}
	p.t.Logf("copilot ran in %.1fs, exit %d", time.Since(start).Seconds(), o.exit)
	return o
}

// oneResult returns the tool_result Copilot sent the model back for the
// scripted call, and checks that the run then ended normally.
func (p *copilotProject) oneResult(o *copilotOutcome) string {
	p.t.Helper()
	rs := p.api.ToolResults()
	if len(rs) != 1 {
		p.t.Fatalf("the fake API saw %d tool_result blocks for %s, want 1\nrequests:\n%s\nstdout: %s\nstderr: %s",
			len(rs), toolUseID, p.api.Summary(), o.stdout, o.stderr)
	}
	p.t.Logf("tool_result: %s", rs[0].Text)
	if o.exit != 0 || o.message() != finalText {
		p.t.Errorf("copilot exit %d, last message %q; want 0 and the fake model's %q\nstderr: %s", o.exit, o.message(), finalText, o.stderr)
	}
	return rs[0].Text
}

// copilotCall is one camelCase preToolUse input.
type copilotCall struct {
	cliHookCall
	tool string
	args map[string]any
}

// copilotCalls returns the hook's inputs in the order they came, read as
// camelCase ones.
func (p *copilotProject) copilotCalls() []copilotCall {
	p.t.Helper()
	var out []copilotCall
	for _, c := range p.hookCalls() {
		cc := copilotCall{cliHookCall: c}
		json.Unmarshal(c.fields["toolName"], &cc.tool)
		json.Unmarshal(c.fields["toolArgs"], &cc.args)
		out = append(out, cc)
	}
	return out
}

// oneHookCall checks that the hook ran exactly once, for the scripted
// call: Copilot's camelCase input, with tool, the model's arguments as
// toolArgs (an object), and the project as cwd.
func (p *copilotProject) oneHookCall(tool string, args map[string]any) copilotCall {
	p.t.Helper()
	calls := p.copilotCalls()
	if len(calls) != 1 {
		for _, c := range calls {
			p.t.Logf("hook input: %s", c.raw)
		}
		p.t.Fatalf("the hook ran %d times, want once (for the scripted %s call)", len(calls), tool)
	}
	c := calls[0]
	p.t.Logf("hook input: %s", c.raw)
	if c.tool != tool || !reflect.DeepEqual(c.args, args) {
		p.t.Errorf("toolName, toolArgs = %q, %v; want %q, %v", c.tool, c.args, tool, args)
	}
	if c.cwd != p.dir {
		p.t.Errorf("cwd = %q, want the project %q", c.cwd, p.dir)
	}
	return c
}

// TestCopilotAllowedCommandRuns: guard allows `cat hello.txt`
// ({"permissionDecision":"allow"}), rewritten to run in guard run's
// read-only sandbox where the kernel can confine it; the command runs and
// its output is what the model gets.
func TestCopilotAllowedCommandRuns(t *testing.T) {
	t.Parallel()
	const token = "e2e-token-copilot-4f1a"
	cmd := "cat hello.txt"
	p := newCopilotProject(t)
	p.script("bash", copilotBash(cmd))
	writeFile(t, p.dir, "hello.txt", token+"\n")
	o := p.run()
	c := p.oneHookCall("bash", copilotBash(cmd))
	if text := p.oneResult(o); !strings.Contains(text, token) {
		t.Errorf("the tool_result does not carry the output of %q: %q", cmd, text)
	}
	const allowed = `{"permissionDecision":"allow","permissionDecisionReason":"guard (policy default): allowed: cat is allowed`
	want := allowed + "; it runs outside the sandbox" // where the kernel cannot confine it
	if r := readOnlyRewrite(t, cmd); r != "" {
		args, _ := json.Marshal(map[string]any{"command": r, "description": copilotBash(cmd)["description"]})
		want = allowed + `","modifiedArgs":` + string(args) + "}\n"
	}
	if code, stdout, stderr := replayHook(t, c.cliHookCall, hookArgs(t, "copilot")...); code != 0 || !strings.HasPrefix(stdout, want) {
		t.Errorf("guard on the logged input: exit %d, stdout %q, stderr %q; want exit 0 and %s", code, stdout, stderr, want)
	}
}

// TestCopilotDeniedCommandDoesNotRun: guard denies `rm -rf victim`
// (Copilot's deny answer); the directory is still there, and guard's
// reason and hint reach the model.
func TestCopilotDeniedCommandDoesNotRun(t *testing.T) {
	t.Parallel()
	cmd := "rm -rf victim"
	p := newCopilotProject(t)
	writeFile(t, p.dir, "victim/keep.txt", "keep\n")
	p.script("bash", copilotBash(cmd))
	o := p.run()
	p.oneHookCall("bash", copilotBash(cmd))
	if !p.exists("victim/keep.txt") {
		t.Errorf("%q ran although guard denied it", cmd)
	}
	text := p.oneResult(o)
	if !strings.HasPrefix(text, copilotDenied+"guard: denied: rm -r: it deletes directories recursively") || !strings.Contains(text, "\nguard: hint: ") {
		t.Errorf("guard's deny reason and hint did not reach the model as Copilot's deny: %q", text)
	}
}

// TestCopilotAskIsRefusedHeadless: `touch` writes a file, so guard asks
// ({"permissionDecision":"ask"}); copilot -p has nobody to ask, and
// refuses the call with guard's reason. The file is not created.
func TestCopilotAskIsRefusedHeadless(t *testing.T) {
	t.Parallel()
	cmd := "touch asked-marker"
	p := newCopilotProject(t)
	p.script("bash", copilotBash(cmd))
	o := p.run()
	c := p.oneHookCall("bash", copilotBash(cmd))
	if p.exists("asked-marker") {
		t.Errorf("%q ran although guard asked and nobody could answer", cmd)
	}
	const reason = "guard (policy default): needs approval: touch needs approval once in this session; once approved, the session is granted rule touch (rule touch); hint: the edit tools write and create files, asked once a directory; this command asks once a session"
	if text := p.oneResult(o); text != "Denied by preToolUse hook (unable to ask user for confirmation): "+reason {
		t.Errorf("the model did not get Copilot's refusal with guard's reason %q: %q", reason, text)
	}
	want := `{"permissionDecision":"ask","permissionDecisionReason":"` + reason + `"}` + "\n"
	if code, stdout, stderr := replayHook(t, c.cliHookCall, hookArgs(t, "copilot")...); code != 0 || stdout != want {
		t.Errorf("guard on the logged input: exit %d, stdout %q, stderr %q; want exit 0 and %s", code, stdout, stderr, want)
	}
}

// TestCopilotSandboxedCommand: with [sandbox] run = true, guard answers an
// allowed make with its command rewritten to run under guard run
// (modifiedArgs); Copilot runs the rewritten command, the model gets its
// output, and the key the Makefile reads stays out of reach.
func TestCopilotSandboxedCommand(t *testing.T) {
	t.Parallel()
	if err := guardsandbox.Available(); err != nil {
		t.Skipf("guard run cannot run here: %v", err)
	}
	const token, key = "e2e-token-copilot-sandboxed-8d20", "e2e-key-copilot-never-read-61b7"
	cmd := "make show"
	p := newCopilotProject(t)
	writeFile(t, p.home, ".config/guard/guard.toml", "version = 1\nextends = \"default\"\n\n[sandbox]\nrun = true\nrequire = true\n\n[command.make]\nverdict = \"allow\"\n")
	writeFile(t, p.home, ".ssh/id_rsa", key+"\n")
	writeFile(t, p.dir, "hello.txt", token+"\n")
	writeFile(t, p.dir, "Makefile", "show:\n\tcat hello.txt\n\t-cat $(HOME)/.ssh/id_rsa\n\t@echo after-the-key\n")
	p.script("bash", copilotBash(cmd))
	o := p.run()
	c := p.oneHookCall("bash", copilotBash(cmd))
	text := p.oneResult(o)
	if !strings.Contains(text, token) || !strings.Contains(text, "after-the-key") {
		t.Errorf("the rewritten command's output did not reach the model: %q", text)
	}
	if strings.Contains(text, key) || !strings.Contains(text, "No such file or directory") && !strings.Contains(text, "ermission denied") {
		t.Errorf("the key was not kept out of reach: %q", text)
	}
	code, stdout, stderr := replayHook(t, c.cliHookCall, hookArgs(t, "copilot")...)
	var ans struct {
		Decision string         `json:"permissionDecision"`
		Modified map[string]any `json:"modifiedArgs"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &ans) != nil || ans.Decision != "allow" {
		t.Fatalf("replay: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if got, _ := ans.Modified["command"].(string); !strings.Contains(got, "' 'run' -- bash --noprofile --norc -c 'make show'") {
		t.Errorf("modifiedArgs.command = %q, want it under guard run", got)
	}
	if ans.Modified["description"] != copilotBash(cmd)["description"] {
		t.Errorf("modifiedArgs lost the call's other arguments: %v", ans.Modified)
	}
}

// TestCopilotHookInput: Copilot sends a preToolUse hook its camelCase
// input (toolName, toolArgs as an object) and a PreToolUse hook the
// Claude Code-compatible one (tool_name Bash, tool_input), both for the
// same call; their fields are those of the golden inputs in
// agent/testdata/copilot, which the adapter's tests read. guard hook
// --agent copilot answers both alike; without --agent, guard tells the
// camelCase one for Copilot's, and reads the other as Claude Code's. The
// command is one guard runs as it is (echo): guard registered twice,
// Copilot gives the second hook the first one's rewrite, a command that
// starts guard, which guard denies.
func TestCopilotHookInput(t *testing.T) {
	t.Parallel()
	cmd := "echo e2e-hook-input"
	p := newCopilotProject(t)
	p.hooks["PreToolUse"] = p.hook
	p.script("bash", copilotBash(cmd))
	o := p.run()
	if text := p.oneResult(o); !strings.Contains(text, "e2e-hook-input") {
		t.Errorf("the tool_result is not the output of %q: %q", cmd, text)
	}
	calls := p.copilotCalls()
	if len(calls) != 2 {
		t.Fatalf("the hooks ran %d times, want twice (one of each shape)", len(calls))
	}
	var camel, pascal *copilotCall
	for i, c := range calls {
		t.Logf("hook input: %s", c.raw)
		if _, ok := c.fields["toolName"]; ok {
			camel = &calls[i]
		} else {
			pascal = &calls[i]
		}
	}
	if camel == nil || pascal == nil {
		t.Fatalf("the hooks did not get one input of each shape")
	}
	if got, golden := camel.keys(), goldenKeys(t, "copilot/pretooluse-bash.json"); !reflect.DeepEqual(got, golden) {
		t.Errorf("the camelCase input's fields are %v; the golden input's %v: capture a new one", got, golden)
	}
	if got, golden := pascal.keys(), goldenKeys(t, "copilot/claude-compatible/pretooluse-bash.json"); !reflect.DeepEqual(got, golden) {
		t.Errorf("the PascalCase input's fields are %v; the golden input's %v: capture a new one", got, golden)
	}
	if camel.tool != "bash" || !reflect.DeepEqual(camel.args, copilotBash(cmd)) {
		t.Errorf("toolName, toolArgs = %q, %v; want bash and the model's arguments", camel.tool, camel.args)
	}
	if h := pascal.cliHookCall; h.event != "PreToolUse" || h.tool != "Bash" || !reflect.DeepEqual(h.input, copilotBash(cmd)) || h.cwd != p.dir {
		t.Errorf("hook_event_name, tool_name, tool_input, cwd = %q, %q, %v, %q; want PreToolUse, Bash, the model's arguments and the project", h.event, h.tool, h.input, h.cwd)
	}
	for _, c := range []copilotCall{*camel, *pascal} {
		if d := c.getenv("COPILOT_PROJECT_DIR"); d != p.dir {
			t.Errorf("COPILOT_PROJECT_DIR in the hook's environment = %q, want %q", d, p.dir)
		}
	}
	if got := agent.Detect(camel.raw); got != "copilot" {
		t.Errorf("agent.Detect says %q of Copilot's camelCase input", got)
	}
	if got := agent.Detect(pascal.raw); got != "claude" {
		t.Errorf("agent.Detect says %q of Copilot's PascalCase input; it reads it as Claude Code's", got)
	}
	want := `{"permissionDecision":"allow","permissionDecisionReason":"guard (policy default): allowed: echo is allowed"}` + "\n"
	for _, c := range []copilotCall{*camel, *pascal} {
		if code, stdout, stderr := replayHook(t, c.cliHookCall, hookArgs(t, "copilot")...); code != 0 || stdout != want {
			t.Errorf("guard hook --agent copilot on %s: exit %d, stdout %q, stderr %q; want %s", c.raw, code, stdout, stderr, want)
		}
	}
	if code, stdout, stderr := replayHook(t, camel.cliHookCall); code != 0 || stdout != want {
		t.Errorf("guard hook without --agent on the camelCase input: exit %d, stdout %q, stderr %q; want %s", code, stdout, stderr, want)
	}
}

// TestCopilotFailingHookBlocks: a guard that is not there (the shell's
// exit 127), one that exits 1, and one killed by a signal: Copilot denies
// the call each time ("hook errored"), so it does not run.
func TestCopilotFailingHookBlocks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, script string }{
		{"missing", ""},
		{"exit 1", "#!/bin/sh\necho guard-e2e: crashed >&2\nexit 1\n"},
		{"killed", "#!/bin/sh\nkill -SEGV $$\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := "touch failed-marker"
			p := newCopilotProject(t)
			prog := filepath.Join(p.bin, "broken-guard")
			if tc.script != "" {
				if err := os.WriteFile(prog, []byte(tc.script), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			p.hooks["preToolUse"] = shellQuote(prog) + " hook --agent copilot"
			p.script("bash", copilotBash(cmd))
			o := p.run()
			if n := len(p.hookCalls()); n != 0 {
				t.Fatalf("the logging wrapper ran %d times; it is not the hook here", n)
			}
			if p.exists("failed-marker") {
				t.Errorf("%q ran although its hook failed: Copilot %s failed open", cmd, copilotVersion)
			}
			if text, want := p.oneResult(o), `Denied by preToolUse hook from ".github/hooks/e2e.json" (hook errored)`; text != want {
				t.Errorf("the model got %q, want Copilot's %q", text, want)
			}
		})
	}
}

// TestCopilotHookTimeoutRuns: a hook that does not answer within its
// timeoutSec (1 s here; it would deny after 20 s) lets the call run, as
// Copilot documents: Copilot fails open on a timeout. This test holds
// that, so that a Copilot that starts to block is noticed. guard's own
// deadline (3 s) answers well within the 30 s timeoutSec guard init
// writes.
func TestCopilotHookTimeoutRuns(t *testing.T) {
	t.Parallel()
	cmd := "touch timeout-marker"
	p := newCopilotProject(t)
	slow := filepath.Join(p.bin, "slow-guard")
	if err := os.WriteFile(slow, []byte("#!/bin/sh\nsleep 20 </dev/null >/dev/null 2>&1 &\nwait $!\necho '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"late\"}'\nexit 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p.hooks["preToolUse"] = shellQuote(slow)
	p.timeout = 1
	p.script("bash", copilotBash(cmd))
	o := p.run()
	text := p.oneResult(o)
	if !p.exists("timeout-marker") {
		t.Errorf("%q did not run after its hook timed out: Copilot %s no longer fails open here; update this test (model got %q)", cmd, copilotVersion, text)
	}
	t.Logf("Copilot %s ran %q after its preToolUse hook timed out: it fails open", copilotVersion, cmd)
}

// TestCopilotUntrustedRepoHooksSkipped: in a folder Copilot does not
// trust, copilot -p runs no hook of the project's .github/hooks/ and says
// nothing of it; the command runs. A user's hooks (~/.copilot/hooks/) run
// there all the same.
func TestCopilotUntrustedRepoHooksSkipped(t *testing.T) {
	t.Parallel()
	t.Run("repo hook", func(t *testing.T) {
		cmd := "touch untrusted-marker"
		p := newCopilotProject(t)
		p.trust = false
		p.script("bash", copilotBash(cmd))
		o := p.run()
		p.oneResult(o)
		if n := len(p.hookCalls()); n != 0 {
			t.Errorf("Copilot ran the untrusted folder's hook %d times", n)
		}
		if !p.exists("untrusted-marker") {
			t.Errorf("%q did not run although no hook ran", cmd)
		}
	})
	t.Run("user hook", func(t *testing.T) {
		cmd := "touch untrusted-marker"
		p := newCopilotProject(t)
		p.trust = false
		p.hooks = nil
		data, err := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{"preToolUse": []any{
			map[string]any{"type": "command", "bash": p.hook, "timeoutSec": copilotHookTimeout}}}})
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, p.home, ".copilot/hooks/e2e.json", string(data)+"\n")
		p.script("bash", copilotBash(cmd))
		o := p.run()
		p.oneHookCall("bash", copilotBash(cmd))
		if p.exists("untrusted-marker") {
			t.Errorf("%q ran although guard would have asked", cmd)
		}
		if text := p.oneResult(o); !strings.HasPrefix(text, "Denied by preToolUse hook (unable to ask user for confirmation): guard ") {
			t.Errorf("the model did not get guard's refusal: %q", text)
		}
	})
}

// TestCopilotInstalledByInit: the hooks file guard init --agent copilot
// writes is the one the real Copilot runs: in the project's .github/hooks
// in a folder the user trusts (Copilot's trustedFolders in
// ~/.copilot/config.json, no --trust-folder), and in ~/.copilot/hooks
// (--scope user) in a folder it does not. guard's own log has the call,
// which only the hook init installed can have written.
func TestCopilotInstalledByInit(t *testing.T) {
	t.Parallel()
	for _, scope := range []string{"project", "user"} {
		t.Run(scope, func(t *testing.T) {
			const token = "e2e-token-copilot-init-3e9b"
			p := newCopilotProject(t)
			p.hooks = nil // guard init registers guard, not the harness
			p.trust = false
			env := []string{"PATH=/usr/bin:/bin", "HOME=" + p.home}
			runGuard := func(args ...string) string { return runGuardIn(t, p.dir, env, args...) }
			if scope == "project" {
				runGuard("init", "--agent", "copilot", "--scope", "project", "--cwd", p.dir)
				writeFile(t, p.home, ".copilot/config.json", fmt.Sprintf("{\n  \"trustedFolders\": [%q]\n}\n", p.dir))
			} else {
				runGuard("init", "--agent", "copilot", "--scope", "user")
			}
			writeFile(t, p.dir, "hello.txt", token+"\n")
			p.script("bash", copilotBash("cat hello.txt"))
			o := p.run()
			if text := p.oneResult(o); !strings.Contains(text, token) {
				t.Errorf("the command's output did not reach the model: %q", text)
			}
			if n := len(p.hookCalls()); n != 0 {
				t.Errorf("the harness's wrapper ran %d times: the hooks are not guard init's alone", n)
			}
			logged := runGuard("log", "--json", "--tool", "bash")
			if !strings.Contains(logged, `"agent":"copilot"`) || !strings.Contains(logged, `"call":"cat hello.txt"`) || !strings.Contains(logged, `"decision":"allowed"`) {
				t.Errorf("guard's log has no trace of the call through the hook init installed:\n%s", logged)
			}
		})
	}
}

// TestCopilotDefaultInit: what guard init --agent copilot writes with no
// --scope is a setup guard doctor passes, and that the real Copilot runs
// in a folder its user has not trusted (copilot -p without
// --trust-folder, where it skips a project's .github/hooks without a
// word): guard's deny of rm -rf stops the call.
func TestCopilotDefaultInit(t *testing.T) {
	t.Parallel()
	cmd := "rm -rf victim"
	p := newCopilotProject(t)
	p.hooks = nil // guard init registers guard, not the harness
	p.trust = false
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + p.home}
	runGuardIn(t, p.dir, env, "init", "--agent", "copilot")
	if code, out := guardIn(t, p.dir, env, "doctor", "--agent", "copilot"); code != 0 {
		t.Errorf("guard doctor --agent copilot after the default guard init: exit %d\n%s", code, out)
	}
	writeFile(t, p.dir, "victim/keep.txt", "keep\n")
	p.script("bash", copilotBash(cmd))
	o := p.run()
	if !p.exists("victim/keep.txt") {
		t.Errorf("%q ran: Copilot did not run the hook the default guard init wrote", cmd)
	}
	if text := p.oneResult(o); !strings.HasPrefix(text, copilotDenied+"guard: denied: rm -r: it deletes directories recursively") {
		t.Errorf("guard's deny did not reach the model as Copilot's deny: %q", text)
	}
}

// TestCopilotRunsClaudeCodeHooks: Copilot runs the PreToolUse hooks of
// the project's .claude/settings.json too, those guard init --agent
// claude writes, with its PascalCase input: guard's log has the call as
// Claude Code's (Bash), from the hook for Claude Code.
func TestCopilotRunsClaudeCodeHooks(t *testing.T) {
	t.Parallel()
	const token = "e2e-token-copilot-claude-hooks-b2c4"
	p := newCopilotProject(t)
	p.hooks = nil
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + p.home}
	runGuard := func(args ...string) string { return runGuardIn(t, p.dir, env, args...) }
	runGuard("init", "--agent", "claude", "--cwd", p.dir)
	writeFile(t, p.dir, "hello.txt", token+"\n")
	p.script("bash", copilotBash("cat hello.txt"))
	o := p.run()
	if text := p.oneResult(o); !strings.Contains(text, token) {
		t.Errorf("the command's output did not reach the model: %q", text)
	}
	logged := runGuard("log", "--json", "--tool", "Bash")
	if !strings.Contains(logged, `"agent":"claude"`) || !strings.Contains(logged, `"call":"cat hello.txt"`) || !strings.Contains(logged, `"decision":"allowed"`) {
		t.Errorf("guard's log has no trace of the call through Claude Code's hook:\n%s", logged)
	}
}

// TestCopilotRunsBash: Copilot's bash tool runs its command in bash
// whatever $SHELL is: with SHELL=/usr/bin/zsh, echo 'x\ty' prints the
// backslash as bash does (zsh's echo would print a tab).
func TestCopilotRunsBash(t *testing.T) {
	t.Parallel()
	needZsh(t)
	cmd := `echo 'x\ty'`
	p := newCopilotProject(t)
	p.shell = zsh
	p.script("bash", copilotBash(cmd))
	o := p.run()
	p.oneHookCall("bash", copilotBash(cmd))
	if text := p.oneResult(o); !strings.Contains(text, `x\ty`) {
		t.Errorf("with SHELL=%s, %q gave %q, not bash's", zsh, cmd, text)
	}
}
