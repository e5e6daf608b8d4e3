// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

// The real Codex CLI against guard: a scripted Responses API on loopback
// asks for one tool call, Codex runs guard hook --agent codex as its
// PreToolUse hook (registered in $CODEX_HOME/hooks.json and trusted by a
// trust record in config.toml, as the user's approval in Codex's hooks
// view writes it), and the tests check what ran and what the model was
// told. Codex runs headless (codex exec), with approval_policy = "never"
// and sandbox_mode = "danger-full-access", so that guard is the only gate,
// in the same bubblewrap sandbox as Claude Code. The model is gpt-5.5,
// whose metadata Codex 0.169 carries: with it Codex offers the model its
// apply_patch tool (with gpt-5 it falls back to metadata without one).

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"guard/agent"
	guardsandbox "guard/sandbox"
)

// codexVersion is the Codex CLI release these tests were written and
// checked against; install.sh installs it.
const codexVersion = "0.169.0"

// codexHookTimeout is the hook entry's timeout, in seconds.
const codexHookTimeout = 30

var (
	codexOnce sync.Once
	codexCLI  *cli
)

// codex returns Codex's native binary: GUARD_E2E_CODEX, else the one in
// the cache (the platform package that @openai/codex pulls in).
func codex(t *testing.T) *cli {
	t.Helper()
	codexOnce.Do(func() {
		arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
		triple := map[string]string{"amd64": "x86_64-unknown-linux-musl", "arm64": "aarch64-unknown-linux-musl"}[runtime.GOARCH]
		codexCLI = findCLI("Codex", "GUARD_E2E_CODEX", "node_modules/@openai/codex-linux-"+arch+"/vendor/"+triple+"/bin/codex", codexVersion, false,
			func(out string) string { return strings.TrimPrefix(strings.TrimSpace(out), "codex-cli ") })
	})
	codexCLI.need(t)
	return codexCLI
}

// codexProject is a project with guard as Codex's PreToolUse hook.
type codexProject struct {
	*cliProject
	cli       *cli
	codexHome string
	api       *fakeCodexAPI
	hooks     map[string]string // the registered hooks: event (PreToolUse, ...) → command
	trusted   bool              // whether config.toml trusts them
	config    string            // more tables of config.toml
	written   bool              // the configuration is written already: run leaves it as it is
	// approve runs codex exec --approve-for-me, with Codex's approvals on
	// request and its read-only sandbox: a command the model asks to run
	// outside it goes to the PermissionRequest hook, then to Codex's
	// automatic review (the fake model, whose answer Codex cannot read,
	// so that it refuses).
	approve bool
}

// newCodexProject makes a project whose hook is guard hook --agent codex,
// through the logging wrapper, registered and trusted. It skips the test
// when Codex is missing.
func newCodexProject(t *testing.T) *codexProject {
	t.Helper()
	c := codex(t)
	p := &codexProject{cliProject: newCLIProject(t, hookArgs(t, "codex")), cli: c, trusted: true}
	p.codexHome = filepath.Join(p.home, ".codex")
	p.hooks = map[string]string{"PreToolUse": p.hook}
	return p
}

// script starts the project's fake model, which makes the given calls
// (pairs of a tool and its arguments) one after the other.
func (p *codexProject) script(pairs ...any) {
	p.t.Helper()
	p.api = newFakeCodexAPI(p.t, pairs...)
}

// codexEventKeys are Codex's names of hook events in its trust records.
var codexEventKeys = map[string]string{"PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request", "PostToolUse": "post_tool_use", "SessionEnd": "session_end"}

// trustHash is the hash Codex 0.169 keeps for a trusted command hook: the
// SHA-256 of the compact JSON, keys sorted, of its normalized identity.
// It matched Codex's own hooks/list currentHash; a new Codex that hashes
// otherwise skips the hook silently, and the tests then see no hook call.
func trustHash(event, command string) string {
	id := map[string]any{"event_name": codexEventKeys[event], "hooks": []any{map[string]any{
		"type": "command", "command": command, "timeout": codexHookTimeout, "async": false,
	}}}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(id)
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// writeConfig writes $CODEX_HOME/config.toml and hooks.json: the fake
// model as the provider, no approvals and no sandbox of Codex's own, the
// hooks, and their trust records.
func (p *codexProject) writeConfig() {
	p.t.Helper()
	hooksFile := filepath.Join(p.codexHome, "hooks.json")
	approval, sandboxMode := "never", "danger-full-access"
	if p.approve {
		approval, sandboxMode = "on-request", "read-only"
	}
	var cfg strings.Builder
	fmt.Fprintf(&cfg, `model = "gpt-5.5"
model_provider = "fake"
approval_policy = %q
sandbox_mode = %q

[model_providers.fake]
name = "fake"
base_url = %q
wire_api = "responses"
env_key = "FAKE_OPENAI_API_KEY"
`, approval, sandboxMode, p.api.URL())
	if p.config != "" {
		cfg.WriteString("\n" + p.config)
	}
	hooks := map[string]any{}
	for event, command := range p.hooks {
		hooks[event] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": codexHookTimeout}}}}
		if p.trusted {
			fmt.Fprintf(&cfg, "\n[hooks.state.%q]\ntrusted_hash = %q\n", hooksFile+":"+codexEventKeys[event]+":0:0", trustHash(event, command))
		}
	}
	data, err := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	if err != nil {
		p.t.Fatal(err)
	}
	writeFile(p.t, p.codexHome, "hooks.json", string(data)+"\n")
	writeFile(p.t, p.codexHome, "config.toml", cfg.String())
}

// codexOutcome is a codex exec --json run: its exit code, streams, and
// the items of its JSONL events.
type codexOutcome struct {
	*cliOutcome
	items []map[string]any // the item of each item.completed event
}

// message returns the final agent message.
func (o *codexOutcome) message() string {
	msg := ""
	for _, it := range o.items {
		if it["type"] == "agent_message" {
			msg, _ = it["text"].(string)
		}
	}
	return msg
}

// run runs codex exec in the sandbox.
func (p *codexProject) run() *codexOutcome {
	p.t.Helper()
	if p.api == nil {
		p.t.Fatal("no fake model: call script first")
	}
	if !p.written {
		p.writeConfig()
	}
	env := []string{
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=" + p.home,
		"CODEX_HOME=" + p.codexHome,
		"USER=root",
		"SHELL=/bin/bash",
		"LANG=C.UTF-8",
		"TERM=dumb",
		"TMPDIR=/tmp",
		"FAKE_OPENAI_API_KEY=test",
	}
	args := []string{"exec", "--skip-git-repo-check", "--json", "do the task"}
	if p.approve {
		args = slices.Insert(args, 1, "--approve-for-me")
	}
	o := &codexOutcome{cliOutcome: p.cliProject.run(p.cli, args, env)}
	p.t.Logf("requests:\n%s", p.api.Summary())
	for _, line := range strings.Split(o.stdout, "\n") {
		var ev struct {
			Type string         `json:"type"`
			Item map[string]any `json:"item"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == "item.completed" {
			o.items = append(o.items, ev.Item)
		}
	}
	// Codex says what it makes of the hooks' configuration in error
	// items: "clamping SessionEnd hook timeout to 3s in .../hooks.json",
	// in every run. Neither guard init nor the harness may give it cause.
	for _, it := range o.items {
		if msg, _ := it["message"].(string); it["type"] == "error" && strings.Contains(msg, "hooks.json") {
			p.t.Errorf("Codex objects to the hooks: %s", msg)
		}
	}
	return o
}

// oneOutput returns the function_call_output Codex sent the model back
// for the scripted call, and checks that the run then ended normally.
func (p *codexProject) oneOutput(o *codexOutcome) string {
	p.t.Helper()
	outs := p.api.Outputs()
	if len(outs) != 1 {
		p.t.Fatalf("the fake API saw %d function_call_output items, want 1\nrequests:\n%s\nstdout: %s\nstderr: %s",
			len(outs), p.api.Summary(), o.stdout, o.stderr)
	}
	text := outs[0].outputText()
	p.t.Logf("function_call_output: %s", text)
	if o.exit != 0 || o.message() != finalText {
		p.t.Errorf("codex exit %d, final message %q; want 0 and the fake model's %q\nstderr: %s", o.exit, o.message(), finalText, o.stderr)
	}
	return text
}

// codexBlocked is how Codex tells the model a PreToolUse hook blocked a
// shell command: the hook's reason, then ". Command: " and the command.
const codexBlocked = "Command blocked by PreToolUse hook: "

// TestCodexAllowedCommandRuns: guard allows `cat hello.txt`, rewritten to
// run in guard run's read-only sandbox (where the kernel cannot confine
// it: exit 0, no output); the command runs and its output is what the
// model gets.
func TestCodexAllowedCommandRuns(t *testing.T) {
	t.Parallel()
	const token = "e2e-token-codex-9b3e"
	cmd := "cat hello.txt"
	p := newCodexProject(t)
	p.script("exec_command", map[string]any{"cmd": cmd})
	writeFile(t, p.dir, "hello.txt", token+"\n")
	o := p.run()
	c := p.oneHookCall("PreToolUse", "Bash", map[string]any{"command": cmd})
	if text := p.oneOutput(o); !strings.Contains(text, token) {
		t.Errorf("the function_call_output does not carry the output of %q: %q", cmd, text)
	}
	want := ""
	if r := readOnlyRewrite(t, cmd); r != "" {
		out, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": map[string]any{"command": r}}})
		want = string(out) + "\n"
	}
	if code, stdout, stderr := replayHook(t, c, hookArgs(t, "codex")...); code != 0 || stdout != want || stderr != "" {
		t.Errorf("guard on the logged input: exit %d, stdout %q, stderr %q; want exit 0 and %q", code, stdout, stderr, want)
	}
}

// TestCodexDeniedCommandDoesNotRun: guard denies `git push --force origin
// main` (exit 2, the reason on stderr); origin's main is unchanged, and
// guard's reason and hint reach the model.
func TestCodexDeniedCommandDoesNotRun(t *testing.T) {
	t.Parallel()
	cmd := "git push --force origin main"
	p := newCodexProject(t)
	before := p.gitOrigin()
	p.script("exec_command", map[string]any{"cmd": cmd})
	o := p.run()
	p.oneHookCall("PreToolUse", "Bash", map[string]any{"command": cmd})
	if after := p.originMain(); after != before {
		t.Errorf("%q ran: origin's main moved from %s to %s", cmd, before, after)
	}
	text := p.oneOutput(o)
	if !strings.Contains(text, codexBlocked+"guard: denied: git push --force: ") || !strings.Contains(text, "guard: hint: ") {
		t.Errorf("guard's deny reason and hint did not reach the model as Codex's block: %q", text)
	}
}

// TestCodexAskIsRefused: `touch` writes a file, so guard would ask; Codex
// cannot ask (it runs a call whose hook answers ask), so guard denies, and
// says why. The file is not created.
func TestCodexAskIsRefused(t *testing.T) {
	t.Parallel()
	cmd := "touch asked-marker"
	p := newCodexProject(t)
	p.script("exec_command", map[string]any{"cmd": cmd})
	o := p.run()
	p.oneHookCall("PreToolUse", "Bash", map[string]any{"command": cmd})
	if p.exists("asked-marker") {
		t.Errorf("%q ran although guard would have asked", cmd)
	}
	const reason = "guard: denied: Codex cannot ask the user, so guard refuses what it would ask: guard (policy default): needs approval: touch needs approval once in this session; once approved, the session is granted rule touch (rule touch)"
	if text := p.oneOutput(o); !strings.Contains(text, codexBlocked+reason) {
		t.Errorf("guard's refusal %q did not reach the model: %q", reason, text)
	}
}

// TestCodexMissingGuardRuns: the hook command names a guard that is not
// there. Codex 0.169 takes the shell's exit 127 for a failed hook and
// runs the call: it fails open. This test holds that (the command runs),
// so that a Codex that starts to block is noticed: guard cannot close
// this, only the user's setup can (a managed hook, a guard that is
// there).
func TestCodexMissingGuardRuns(t *testing.T) {
	t.Parallel()
	cmd := "touch missing-marker"
	p := newCodexProject(t)
	p.hooks["PreToolUse"] = shellQuote(filepath.Join(p.bin, "no-such-guard")) + " hook --agent codex"
	p.script("exec_command", map[string]any{"cmd": cmd})
	o := p.run()
	if n := len(p.hookCalls()); n != 0 {
		t.Fatalf("the logging wrapper ran %d times; it is not the hook here", n)
	}
	text := p.oneOutput(o)
	if !p.exists("missing-marker") {
		t.Errorf("%q did not run with a missing hook: Codex %s no longer fails open here; update this test (model got %q)", cmd, codexVersion, text)
	}
	t.Logf("Codex %s ran %q although its PreToolUse hook could not start: it fails open", codexVersion, cmd)
}

// TestCodexUntrustedHookSkipped: without the trust record, Codex skips
// the hook without a word, and the command runs: why the harness trusts
// the hook, and why the other tests check that the hook ran.
func TestCodexUntrustedHookSkipped(t *testing.T) {
	t.Parallel()
	cmd := "touch untrusted-marker"
	p := newCodexProject(t)
	p.trusted = false
	p.script("exec_command", map[string]any{"cmd": cmd})
	o := p.run()
	p.oneOutput(o)
	if n := len(p.hookCalls()); n != 0 {
		t.Errorf("Codex ran the untrusted hook %d times", n)
	}
	if !p.exists("untrusted-marker") {
		t.Errorf("%q did not run although no hook ran", cmd)
	}
}

// TestCodexApplyPatch: Codex's apply_patch tool, and apply_patch with its
// here-document in a shell command, are writes of the one file the patch
// names. With the default policy a write asks, which Codex cannot, so it
// is refused. With a policy that allows writes in the project, a patch of
// one file is applied; a patch of two files, and one of Codex's own
// configuration, are denied, and nothing of them is written.
func TestCodexApplyPatch(t *testing.T) {
	t.Parallel()
	addFile := func(name, line string) string {
		return "*** Begin Patch\n*** Add File: " + name + "\n+" + line + "\n*** End Patch\n"
	}
	t.Run("default policy", func(t *testing.T) {
		p := newCodexProject(t)
		p.script("apply_patch", addFile("notes.txt", "asked"))
		o := p.run()
		p.oneHookCall("PreToolUse", "apply_patch", map[string]any{"command": addFile("notes.txt", "asked")})
		if p.exists("notes.txt") {
			t.Errorf("the patch was applied although guard would have asked")
		}
		reason := "guard: denied: Codex cannot ask the user, so guard refuses what it would ask: guard (policy default): needs approval: apply_patch: writing " + p.dir + "/notes.txt"
		if text := p.oneOutput(o); !strings.Contains(text, reason) {
			t.Errorf("guard's refusal %q did not reach the model: %q", reason, text)
		}
	})
	t.Run("writes allowed", func(t *testing.T) {
		p := newCodexProject(t)
		writeFile(t, p.home, ".config/guard/guard.toml", "version = 1\nextends = \"default\"\n\n[paths]\nwrite = \"allow\"\n")
		two := "*** Begin Patch\n*** Add File: a.txt\n+a\n*** Add File: b.txt\n+b\n*** End Patch\n"
		p.script(
			"apply_patch", addFile("notes.txt", "patched"),
			"exec_command", map[string]any{"cmd": "apply_patch <<'EOF'\n" + addFile("heredoc.txt", "patched") + "EOF\n"},
			"apply_patch", two,
			"apply_patch", addFile(".codex/hooks.json", "{}"),
		)
		o := p.run()
		calls := p.hookCalls()
		if len(calls) != 4 {
			t.Fatalf("the hook ran %d times, want 4", len(calls))
		}
		if calls[1].tool != "Bash" {
			t.Errorf("Codex named the here-document call %q to the hook; the adapter reads it as Bash", calls[1].tool)
		}
		for _, name := range []string{"notes.txt", "heredoc.txt"} {
			if data, err := os.ReadFile(filepath.Join(p.dir, name)); err != nil || string(data) != "patched\n" {
				t.Errorf("the allowed patch of %s was not applied: %q, %v", name, data, err)
			}
		}
		for _, name := range []string{"a.txt", "b.txt", ".codex/hooks.json"} {
			if p.exists(name) {
				t.Errorf("%s was written by a patch guard denied", name)
			}
		}
		outs := p.api.Outputs()
		if len(outs) != 4 {
			t.Fatalf("the fake API saw %d outputs, want 4\nstdout: %s", len(outs), o.stdout)
		}
		for i, want := range []string{
			"", "",
			"guard: denied: apply_patch: the patch names 2 files (" + p.dir + "/a.txt, " + p.dir + "/b.txt); guard judges one file per call",
			"guard: denied: apply_patch: " + p.dir + "/.codex/hooks.json is protected: it configures a coding agent",
		} {
			text := outs[i].outputText()
			t.Logf("output %d: %s", i, text)
			if want != "" && !strings.Contains(text, want) {
				t.Errorf("output %d: %q does not carry %q", i, text, want)
			}
		}
	})
}

// TestCodexSandboxedCommand: with [sandbox] run = true, guard answers an
// allowed make with its command rewritten to run under guard run
// (updatedInput); Codex runs the rewritten command, the model gets its
// output, and the key the Makefile reads stays out of reach.
func TestCodexSandboxedCommand(t *testing.T) {
	t.Parallel()
	if err := guardsandbox.Available(); err != nil {
		t.Skipf("guard run cannot run here: %v", err)
	}
	const token, key = "e2e-token-codex-sandboxed-5e11", "e2e-key-codex-never-read-0c3d"
	cmd := "make show"
	p := newCodexProject(t)
	writeFile(t, p.home, ".config/guard/guard.toml", "version = 1\nextends = \"default\"\n\n[sandbox]\nrun = true\nrequire = true\n\n[command.make]\nverdict = \"allow\"\n")
	writeFile(t, p.home, ".ssh/id_rsa", key+"\n")
	writeFile(t, p.dir, "hello.txt", token+"\n")
	writeFile(t, p.dir, "Makefile", "show:\n\tcat hello.txt\n\t-cat $(HOME)/.ssh/id_rsa\n\t@echo after-the-key\n")
	p.script("exec_command", map[string]any{"cmd": cmd})
	o := p.run()
	c := p.oneHookCall("PreToolUse", "Bash", map[string]any{"command": cmd})
	text := p.oneOutput(o)
	if !strings.Contains(text, token) || !strings.Contains(text, "after-the-key") {
		t.Errorf("the rewritten command's output did not reach the model: %q", text)
	}
	if strings.Contains(text, key) || !strings.Contains(text, "No such file or directory") && !strings.Contains(text, "ermission denied") {
		t.Errorf("the key was not kept out of reach: %q", text)
	}
	code, stdout, stderr := replayHook(t, c, hookArgs(t, "codex")...)
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

// TestCodexHookInput: the fields of what Codex gives the hook are those
// of the golden input in agent/testdata, which the adapter's tests read;
// guard tells it for Codex's by its shape, and answers it alike with and
// without --agent codex.
func TestCodexHookInput(t *testing.T) {
	t.Parallel()
	cmd := "echo e2e-hook-input | wc -c"
	p := newCodexProject(t)
	p.script("exec_command", map[string]any{"cmd": cmd})
	o := p.run()
	c := p.oneHookCall("PreToolUse", "Bash", map[string]any{"command": cmd})
	if text := p.oneOutput(o); !strings.Contains(text, "15") {
		t.Errorf("the output is not that of %q: %q", cmd, text)
	}
	golden := goldenKeys(t, "codex/pretooluse-bash.json")
	if got := c.keys(); !reflect.DeepEqual(got, golden) {
		t.Errorf("the hook input's fields are %v; the golden input's %v: capture a new one", got, golden)
	}
	if !reflect.DeepEqual(c.input, map[string]any{"command": cmd}) {
		t.Errorf("tool_input = %v, want the model's cmd as command", c.input)
	}
	if got := agent.Detect(c.raw); got != "codex" {
		t.Errorf("agent.Detect says %q of Codex's input", got)
	}
	// Without --agent, guard must answer as Codex wants, not as Claude
	// Code does (an allow JSON Codex takes for a failed hook).
	_, named, _ := replayHook(t, c, hookArgs(t, "codex")...)
	code, auto, stderr := replayHook(t, c)
	if code != 0 || auto != named || auto != "" && !strings.HasPrefix(auto, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":`) {
		t.Errorf("guard hook without --agent answers exit %d, %q (stderr %q); with --agent codex %q", code, auto, stderr, named)
	}
}

// TestCodexModelPicksShell: exec_command takes a shell argument, with
// which the model picks the shell its command runs in, and Codex 0.169
// does not tell the hook: tool_input holds the command alone. So guard
// hook --agent codex judges a command as bash and zsh both read it:
// echo $'\-' prints \- in bash and - in zsh, and is denied, whatever
// $SHELL is (bash here), and the model gets Codex's block, not zsh's
// output.
func TestCodexModelPicksShell(t *testing.T) {
	t.Parallel()
	needZsh(t)
	cmd := `echo "[" $'\-' "]"`
	p := newCodexProject(t)
	p.script("exec_command", map[string]any{"cmd": cmd, "shell": zsh})
	o := p.run()
	c := p.oneHookCall("PreToolUse", "Bash", map[string]any{"command": cmd})
	if _, ok := c.input["shell"]; ok {
		t.Errorf("Codex now gives the hook the model's shell (%v): the adapter should judge the command in it", c.input)
	}
	code, _, stderr := replayHook(t, c, hookArgs(t, "codex")...)
	if code != 2 || !strings.Contains(stderr, "zsh") {
		t.Errorf("guard on the logged input: exit %d, stderr %q; want a deny that names zsh's reading", code, stderr)
	}
	if text := p.oneOutput(o); strings.Contains(text, "[ - ]") || !strings.Contains(text, codexBlocked) {
		t.Errorf("the model did not get Codex's block of %q: %q", cmd, text)
	}
}
