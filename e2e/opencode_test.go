// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

// The real OpenCode against guard: the scripted Chat Completions API of
// server_chat_test.go on loopback (an OpenAI-compatible provider of the
// project's opencode.json, whose package OpenCode 1.18 bundles) asks for
// one tool call; guard's plugin, as guard init --agent opencode writes it
// in the project's .opencode/plugins/, runs guard hook --agent opencode
// before it; and the tests check what ran and what the model was told.
// OpenCode runs headless (opencode run) with every permission of its own
// set to allow, so that guard's plugin is the only gate, in the same
// bubblewrap sandbox as Claude Code.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"guard/agent"
	guardsandbox "guard/sandbox"
)

// openCodeVersion is the OpenCode release these tests were written and
// checked against; install.sh installs it.
const openCodeVersion = "1.18.33"

var (
	openCodeOnce sync.Once
	openCodeCLI  *cli
)

// openCode returns OpenCode's native binary: GUARD_E2E_OPENCODE, else the
// one in the cache (the platform package that opencode-ai pulls in).
func openCode(t *testing.T) *cli {
	t.Helper()
	openCodeOnce.Do(func() {
		arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
		openCodeCLI = findCLI("OpenCode", "GUARD_E2E_OPENCODE", "node_modules/opencode-linux-"+arch+"/bin/opencode", openCodeVersion, false,
			func(out string) string { return strings.TrimSpace(out) })
	})
	openCodeCLI.need(t)
	return openCodeCLI
}

// openCodeProject is a project with guard's plugin for OpenCode.
type openCodeProject struct {
	*cliProject
	cli   *cli
	api   *fakeChatAPI
	guard string // the guard the plugin runs: a wrapper of the logging wrapper
}

// newOpenCodeProject makes a project with guard's plugin, which runs
// guard hook --agent opencode through the logging wrapper. It skips the
// test when OpenCode is missing.
func newOpenCodeProject(t *testing.T) *openCodeProject {
	t.Helper()
	c := openCode(t)
	p := &openCodeProject{cliProject: newCLIProject(t, nil), cli: c}
	// The plugin runs GUARD hook --agent opencode; the logging wrapper
	// runs guard hook with its arguments: this one drops the "hook".
	p.guard = filepath.Join(p.bin, "guard")
	writeFile(t, p.bin, "guard", "#!/bin/sh\n[ \"$1\" = hook ] || { echo \"guard-e2e: not guard hook: $*\" >&2; exit 2; }\nshift\nexec "+shellQuote(filepath.Join(p.bin, "guard-hook"))+" \"$@\"\n")
	if err := os.Chmod(p.guard, 0o755); err != nil {
		t.Fatal(err)
	}
	p.install(p.guard)
	// OpenCode installs its plugin package (@opencode-ai/plugin) from npm
	// into each of its config directories as it starts, unless the
	// directory has a node_modules and a lock file that lists it; offline
	// that takes some 16 s to fail. guard's plugin needs no package.
	for _, d := range []string{filepath.Join(p.dir, ".opencode"), filepath.Join(p.home, ".opencode"), filepath.Join(p.home, ".config", "opencode")} {
		writeFile(t, d, "package.json", `{"dependencies":{"@opencode-ai/plugin":"*"}}`+"\n")
		writeFile(t, d, "package-lock.json", `{"packages":{"":{"dependencies":{"@opencode-ai/plugin":"*"}}}}`+"\n")
		if err := os.MkdirAll(filepath.Join(d, "node_modules"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// install writes guard's plugin as guard init does, running guard.
func (p *openCodeProject) install(guard string) {
	p.t.Helper()
	changes, err := agent.OpenCode{}.Install(p.dir, true, guard)
	if err != nil {
		p.t.Fatal(err)
	}
	for _, c := range changes {
		writeFile(p.t, filepath.Dir(c.Path), filepath.Base(c.Path), string(c.New))
	}
}

// script starts the project's fake model, which makes the given calls
// (pairs of a tool and its arguments) one after the other, and writes the
// project's opencode.json, which points OpenCode at it.
func (p *openCodeProject) script(pairs ...any) {
	p.t.Helper()
	p.api = newFakeChatAPI(p.t, pairs...)
	cfg := map[string]any{
		"$schema":    "https://opencode.ai/config.json",
		"autoupdate": false,
		"share":      "disabled",
		"snapshot":   false,
		"model":      "e2e/e2e-model",
		"provider": map[string]any{"e2e": map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "e2e",
			"options": map[string]any{"baseURL": p.api.URL(), "apiKey": "test"},
			"models":  map[string]any{"e2e-model": map[string]any{"name": "e2e-model", "tool_call": true}},
		}},
		// OpenCode's own permissions all allow: guard's plugin is the
		// only gate.
		"permission": map[string]any{"*": "allow"},
	}
	data, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		p.t.Fatal(err)
	}
	writeFile(p.t, p.dir, "opencode.json", string(data)+"\n")
}

// run runs opencode run in the sandbox.
func (p *openCodeProject) run() *cliOutcome {
	p.t.Helper()
	if p.api == nil {
		p.t.Fatal("no fake model: call script first")
	}
	env := append(cliEnv(p.home, ""),
		"OPENCODE_DISABLE_MODELS_FETCH=1",
		"OPENCODE_DISABLE_AUTOUPDATE=1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=1",
		"OPENCODE_DISABLE_SHARE=1",
		// What a run need not do, to keep the tests short: OpenCode's
		// own default plugins (provider sign-ins), other agents' skills.
		"OPENCODE_DISABLE_DEFAULT_PLUGINS=1",
		"OPENCODE_DISABLE_EXTERNAL_SKILLS=1",
		"OPENCODE_DISABLE_CLAUDE_CODE=1",
	)
	o := p.cliProject.run(p.cli, []string{"run", "--format", "json", "do the task"}, env)
	p.t.Logf("requests:\n%s", p.api.Summary())
	return o
}

// openCodeTool is a tool part of opencode run --format json: the call,
// as OpenCode ran it, and what came of it.
type openCodeTool struct {
	Tool   string `json:"tool"`
	CallID string `json:"callID"`
	State  struct {
		Status string         `json:"status"`
		Input  map[string]any `json:"input"`
		Output string         `json:"output"`
		Error  string         `json:"error"`
	} `json:"state"`
}

// tools returns the tool parts of a run's output.
func (p *openCodeProject) tools(o *cliOutcome) []openCodeTool {
	p.t.Helper()
	var out []openCodeTool
	for line := range strings.Lines(o.stdout) {
		var ev struct {
			Type string       `json:"type"`
			Part openCodeTool `json:"part"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == "tool_use" {
			out = append(out, ev.Part)
		}
	}
	return out
}

// oneResult returns what the model got back for the one scripted call,
// and checks that OpenCode then gave the fake model's final answer.
func (p *openCodeProject) oneResult(o *cliOutcome) string {
	p.t.Helper()
	rs := p.api.ToolResults()
	if len(rs) != 1 {
		p.t.Fatalf("the fake API got %d tool results, want 1\nrequests:\n%s\nstdout: %s\nstderr: %s", len(rs), p.api.Summary(), o.stdout, o.stderr)
	}
	if o.exit != 0 || !strings.Contains(o.stdout, `"text":"`+finalText+`"`) {
		p.t.Errorf("opencode exit %d without the fake model's final answer %q\nstdout: %s", o.exit, finalText, o.stdout)
	}
	p.t.Logf("tool result: %s", rs[0])
	return rs[0]
}

// openCodeBash is the arguments of a bash call of cmd.
func openCodeBash(cmd string) map[string]any {
	return map[string]any{"command": cmd, "description": "run it"}
}

// TestOpenCodeDeniedCommandsDoNotRun: the plugin guard init --agent
// opencode --scope user writes (~/.opencode/plugins/guard.js), which
// guard doctor passes, is one the real OpenCode loads in a project with
// none of its own. guard refuses `touch marker`, which it would ask (a
// write), as OpenCode cannot ask, and denies `rm -rf victim`: the plugin
// throws, the marker is not made and victim is still there, guard's
// reasons and hints reach the model as the tool's errors, and guard's log
// has both calls, which only the plugin init wrote can have sent.
func TestOpenCodeDeniedCommandsDoNotRun(t *testing.T) {
	t.Parallel()
	p := newOpenCodeProject(t)
	if err := os.Remove(filepath.Join(p.dir, ".opencode", "plugins", "guard.js")); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + p.home}
	runGuardIn(t, p.dir, env, "init", "--agent", "opencode", "--scope", "user")
	if code, out := guardIn(t, p.dir, env, "doctor", "--agent", "opencode"); code != 0 {
		t.Errorf("guard doctor --agent opencode after guard init --scope user: exit %d\n%s", code, out)
	}
	writeFile(t, p.dir, "victim/keep.txt", "keep\n")
	p.script("bash", openCodeBash("touch marker"), "bash", openCodeBash("rm -rf victim"))
	o := p.run()
	if p.exists("marker") {
		t.Errorf("touch marker ran although guard refused it")
	}
	if !p.exists("victim/keep.txt") {
		t.Errorf("rm -rf victim ran although guard denied it")
	}
	rs := p.api.ToolResults()
	if len(rs) != 2 {
		t.Fatalf("the fake API got %d tool results, want 2\nrequests:\n%s\nstdout: %s\nstderr: %s", len(rs), p.api.Summary(), o.stdout, o.stderr)
	}
	const asked = "guard: denied: OpenCode's plugin cannot ask the user, so guard refuses what it would ask: guard (policy "
	if !strings.HasPrefix(rs[0], asked) || !strings.Contains(rs[0], "needs approval: touch needs approval once in this session") || !strings.Contains(rs[0], "\nguard: hint: ask the user to run it, or to allow it in guard's policy") {
		t.Errorf("the model did not get guard's refusal of touch with its reason and hint: %q", rs[0])
	}
	if !strings.HasPrefix(rs[1], "guard: denied: rm -r: it deletes directories recursively") || !strings.Contains(rs[1], "\nguard: hint: ") {
		t.Errorf("the model did not get guard's deny of rm -rf with its reason and hint: %q", rs[1])
	}
	for _, tl := range p.tools(o) {
		if tl.State.Status != "error" {
			t.Errorf("OpenCode reports the %s call %s as %q, want error", tl.Tool, tl.CallID, tl.State.Status)
		}
	}
	if n := len(p.hookCalls()); n != 0 {
		t.Errorf("the harness's wrapper ran %d times: the plugin is not guard init's alone", n)
	}
	logged := runGuardIn(t, p.dir, env, "log", "--json", "--tool", "bash")
	for _, call := range []string{"touch marker", "rm -rf victim"} {
		if !strings.Contains(logged, `"call":"`+call+`"`) {
			t.Errorf("guard's log has no trace of %q through the plugin init installed:\n%s", call, logged)
		}
	}
	if !strings.Contains(logged, `"agent":"opencode"`) || strings.Contains(logged, `"decision":"allowed"`) {
		t.Errorf("guard's log does not have the calls as OpenCode's, refused:\n%s", logged)
	}
}

// TestOpenCodeAllowedCommandsRun: guard allows `cat hello.txt`, rewritten
// to run in guard run's read-only sandbox where the kernel can confine it,
// and, with [sandbox] run = true, `make show`, rewritten to run under
// guard run: the plugin puts guard's arguments in place of the call's,
// OpenCode runs the rewritten commands (its record of each call shows
// it), their output reaches the model, and the key the Makefile reads
// stays out of reach. The event's fields are those of the golden input in
// agent/testdata/opencode, and guard tells it by its shape.
func TestOpenCodeAllowedCommandsRun(t *testing.T) {
	t.Parallel()
	const token, key = "e2e-token-opencode-5b2e", "e2e-key-opencode-never-read-93fa"
	p := newOpenCodeProject(t)
	writeFile(t, p.dir, "hello.txt", token+"\n")
	calls := []any{"bash", openCodeBash("cat hello.txt")}
	sandboxed := guardsandbox.Available() == nil
	if sandboxed {
		writeFile(t, p.home, ".config/guard/guard.toml", "version = 1\nextends = \"default\"\n\n[sandbox]\nrun = true\nrequire = true\n\n[command.make]\nverdict = \"allow\"\n")
		writeFile(t, p.home, ".ssh/id_rsa", key+"\n")
		writeFile(t, p.dir, "Makefile", "show:\n\tcat hello.txt\n\t-cat $(HOME)/.ssh/id_rsa\n\t@echo after-the-key\n")
		calls = append(calls, "bash", openCodeBash("make show"))
	} else {
		t.Logf("guard run cannot run here: the commands run as they are, and make is not called")
	}
	p.script(calls...)
	o := p.run()
	hooks := p.hookCalls()
	results := p.api.ToolResults()
	tools := p.tools(o)
	if len(hooks) != len(calls)/2 || len(results) != len(calls)/2 || len(tools) != len(calls)/2 {
		t.Fatalf("%d hook inputs, %d tool results, %d tool records; want %d each\nrequests:\n%s\nstdout: %s", len(hooks), len(results), len(tools), len(calls)/2, p.api.Summary(), o.stdout)
	}
	for i, h := range hooks {
		t.Logf("hook input: %s", h.raw)
		t.Logf("tool result: %s", results[i])
		var ev struct {
			Tool      string         `json:"tool"`
			Directory string         `json:"directory"`
			Args      map[string]any `json:"args"`
		}
		json.Unmarshal(h.raw, &ev)
		if ev.Tool != "bash" || !reflect.DeepEqual(ev.Args, calls[2*i+1]) || ev.Directory != p.dir {
			t.Errorf("the plugin sent tool %q, args %v, directory %q; want bash, %v, the project %q", ev.Tool, ev.Args, ev.Directory, calls[2*i+1], p.dir)
		}
	}
	if !strings.Contains(results[0], token) {
		t.Errorf("the tool result does not carry the output of cat hello.txt: %q", results[0])
	}
	if sandboxed && (!strings.Contains(results[1], token) || !strings.Contains(results[1], "after-the-key")) {
		t.Errorf("the output of make show did not reach the model: %q", results[1])
	}
	if sandboxed && (strings.Contains(results[1], key) || !strings.Contains(results[1], "No such file or directory") && !strings.Contains(results[1], "ermission denied")) {
		t.Errorf("the key was not kept out of reach: %q", results[1])
	}
	for i, h := range hooks {
		code, stdout, stderr := replayHook(t, h, "--agent", "opencode")
		var ans struct {
			Protocol int            `json:"guard_opencode"`
			Decision string         `json:"decision"`
			Args     map[string]any `json:"args"`
		}
		if code != 0 || json.Unmarshal([]byte(stdout), &ans) != nil || ans.Protocol != 1 || ans.Decision != "allow" {
			t.Fatalf("guard on the logged input: exit %d, stdout %q, stderr %q; want exit 0 and an allow", code, stdout, stderr)
		}
		cmd, _ := tools[i].State.Input["command"].(string)
		ran := cmd
		if sandboxed {
			ran, _ = ans.Args["command"].(string)
			if !strings.Contains(ran, "' 'run' ") || ans.Args["description"] != "run it" {
				t.Errorf("args = %v, want the command under guard run and the other arguments kept", ans.Args)
			}
		}
		if cmd != ran || tools[i].State.Status != "completed" {
			t.Errorf("OpenCode's record of call %d: %q, %s; want %q, completed", i+1, cmd, tools[i].State.Status, ran)
		}
		if _, auto, _ := replayHook(t, h); auto != stdout {
			t.Errorf("guard hook without --agent answers %q; with --agent opencode %q", auto, stdout)
		}
	}
	if want := readOnlyRewrite(t, "cat hello.txt"); sandboxed && tools[0].State.Input["command"] != want {
		t.Errorf("cat hello.txt ran as %q, want %q", tools[0].State.Input["command"], want)
	}
	c := hooks[0]
	if golden := goldenKeys(t, "opencode/bash.json"); !reflect.DeepEqual(c.keys(), golden) {
		t.Errorf("the event's fields are %v; the golden input's %v: capture a new one", c.keys(), golden)
	}
	if got := agent.Detect(c.raw); got != "opencode" {
		t.Errorf("agent.Detect says %q of the plugin's event", got)
	}
}

// TestOpenCodeMissingGuardBlocks: the plugin names a guard that is not
// there. It cannot run guard hook, and throws: the call does not run, and
// the model is told why.
func TestOpenCodeMissingGuardBlocks(t *testing.T) {
	t.Parallel()
	p := newOpenCodeProject(t)
	missing := filepath.Join(p.bin, "no-such-guard")
	p.install(missing)
	p.script("bash", openCodeBash("touch missing-marker"))
	o := p.run()
	if n := len(p.hookCalls()); n != 0 {
		t.Fatalf("the logging wrapper ran %d times; it is not the plugin's guard here", n)
	}
	if p.exists("missing-marker") {
		t.Errorf("the command ran although the plugin could not run guard: OpenCode %s failed open", openCodeVersion)
	}
	if text := p.oneResult(o); !strings.HasPrefix(text, "guard: denied: guard hook did not run ("+missing+"): ") || !strings.Contains(text, "ENOENT") {
		t.Errorf("the model did not get the plugin's refusal: %q", text)
	}
}

// TestOpenCodeBrokenPluginRunsUnchecked: a plugin OpenCode cannot load
// (here, a file that is not JavaScript where guard's plugin was) is left
// out without a word, and the call runs unchecked: OpenCode 1.18.33
// fails open there, which is why guard doctor checks that the plugin is
// the one this guard writes. Should OpenCode refuse to run instead, this
// test fails, and should then check that nothing ran.
func TestOpenCodeBrokenPluginRunsUnchecked(t *testing.T) {
	t.Parallel()
	p := newOpenCodeProject(t)
	writeFile(t, filepath.Join(p.dir, ".opencode", "plugins"), "guard.js", "this is not JavaScript (\n")
	p.script("bash", openCodeBash("touch unchecked-marker"))
	o := p.run()
	p.oneResult(o)
	if n := len(p.hookCalls()); n != 0 {
		t.Errorf("guard hook ran %d times from a plugin that does not load", n)
	}
	if !p.exists("unchecked-marker") {
		t.Errorf("the command did not run: OpenCode %s no longer runs calls when a plugin does not load; check what the model got, and update this test and the README", openCodeVersion)
	}
}

// TestOpenCodeProtoArgsDoNotMove: the model's bash call whose arguments
// carry a __proto__ key naming another workdir. Given back by guard in a
// rewrite and assigned by the plugin, the key would have been the
// arguments' prototype, and the command would have run in that workdir,
// which guard never judged. OpenCode 1.18.33's JSON parsing refuses the
// key from a model: the command does not run anywhere but the project.
func TestOpenCodeProtoArgsDoNotMove(t *testing.T) {
	t.Parallel()
	p := newOpenCodeProject(t)
	p.script("bash", map[string]any{"command": "pwd", "description": "run it", "__proto__": map[string]any{"workdir": "/"}})
	o := p.run()
	for _, h := range p.hookCalls() {
		t.Logf("hook input: %s", h.raw)
	}
	for _, r := range p.api.ToolResults() {
		t.Logf("tool result: %q", r)
		if strings.TrimSpace(r) == "/" {
			t.Errorf("pwd ran in the workdir of the arguments' __proto__: %q", r)
		}
	}
	for _, tl := range p.tools(o) {
		if tl.State.Status == "completed" && strings.TrimSpace(tl.State.Output) != p.dir {
			t.Errorf("pwd ran in %q, want the project %q", tl.State.Output, p.dir)
		}
	}
}
