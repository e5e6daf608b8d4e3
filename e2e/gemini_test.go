// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

// The real Gemini CLI against guard: a scripted Gemini API on loopback
// asks for one tool call, Gemini CLI runs guard hook --agent gemini as its
// BeforeTool hook (registered in the project's .gemini/settings.json), and
// the tests check what ran and what the model was told. Gemini CLI runs
// headless (gemini -p), with --yolo (without it the shell tool is not
// offered) and the workspace trusted (else project hooks are off and
// headless mode refuses to start), in the same bubblewrap sandbox as
// Claude Code.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"guard/agent"
	guardsandbox "guard/sandbox"
)

// geminiVersion is the Gemini CLI release these tests were written and
// checked against; install.sh installs it.
const geminiVersion = "0.61.0"

// geminiHookTimeout is the hook entry's timeout, in milliseconds.
const geminiHookTimeout = 30000

var (
	geminiOnce sync.Once
	geminiCLI  *cli
)

// gemini returns Gemini CLI: GUARD_E2E_GEMINI (its bundle/gemini.js), else
// the one in the cache.
func gemini(t *testing.T) *cli {
	t.Helper()
	geminiOnce.Do(func() {
		geminiCLI = findCLI("Gemini CLI", "GUARD_E2E_GEMINI", "node_modules/@google/gemini-cli/bundle/gemini.js", geminiVersion, true,
			func(out string) string { return strings.TrimSpace(out) })
	})
	geminiCLI.need(t)
	return geminiCLI
}

// geminiProject is a project with guard as Gemini CLI's BeforeTool hook.
type geminiProject struct {
	*cliProject
	cli   *cli
	shell string // SHELL for gemini; "" means /bin/bash
	api   *fakeGemini
}

// newGeminiProject makes a project whose hook is guard hook --agent
// gemini, through the logging wrapper. It skips the test when Gemini CLI
// is missing.
func newGeminiProject(t *testing.T) *geminiProject {
	t.Helper()
	c := gemini(t)
	p := &geminiProject{cliProject: newCLIProject(t, hookArgs(t, "gemini")), cli: c}
	// Headless mode needs the API key auth type: with only the base URL
	// in the environment it picks the gateway type and exits 41.
	writeFile(t, p.home, ".gemini/settings.json", `{"security":{"auth":{"selectedType":"gemini-api-key"}}}`+"\n")
	p.register(map[string]string{"BeforeTool": p.hook})
	return p
}

// register writes the project's .gemini/settings.json with command as
// the hook of each event, for every tool.
func (p *geminiProject) register(events map[string]string) {
	p.t.Helper()
	hooks := map[string]any{}
	for event, command := range events {
		entry := map[string]any{"hooks": []any{map[string]any{
			"name": "guard", "type": "command", "command": command, "timeout": geminiHookTimeout,
		}}}
		if event == "BeforeTool" || event == "AfterTool" {
			entry["matcher"] = ".*"
		}
		hooks[event] = []any{entry}
	}
	data, err := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	if err != nil {
		p.t.Fatal(err)
	}
	writeFile(p.t, p.dir, ".gemini/settings.json", string(data)+"\n")
}

// script starts the project's fake model, which makes the given calls
// (pairs of a tool and its arguments) one after the other.
func (p *geminiProject) script(pairs ...any) {
	p.t.Helper()
	p.api = newFakeGemini(p.t, pairs...)
}

// geminiOutcome is a headless run's result: its exit code, streams, and
// the --output-format json object on stdout.
type geminiOutcome struct {
	*cliOutcome
	result map[string]any
}

// run runs gemini -p in the sandbox.
func (p *geminiProject) run() *geminiOutcome {
	p.t.Helper()
	o, done := p.runFor(cliRunTimeout)
	if !done {
		p.t.Fatalf("gemini did not finish within %s\nstdout: %s\nstderr: %s\nrequests:\n%s", cliRunTimeout, o.stdout, o.stderr, p.api.Summary())
	}
	if i := strings.Index(o.stdout, "{"); i >= 0 {
		json.Unmarshal([]byte(o.stdout[i:]), &o.result)
	}
	if o.result == nil {
		p.t.Fatalf("gemini's stdout holds no JSON object (exit %d)\nstdout: %s\nstderr: %s", o.exit, o.stdout, o.stderr)
	}
	return o
}

// runFor runs gemini -p in the sandbox and stops it after timeout; it
// says whether gemini finished on its own.
func (p *geminiProject) runFor(timeout time.Duration) (*geminiOutcome, bool) {
	p.t.Helper()
	if p.api == nil {
		p.t.Fatal("no fake model: call script first")
	}
	env := append(cliEnv(p.home, p.shell),
		"GOOGLE_GEMINI_BASE_URL="+p.api.URL(),
		"GEMINI_API_KEY=test",
		"GEMINI_CLI_TRUST_WORKSPACE=true",
	)
	co, done := p.cliProject.runFor(p.cli, []string{"-p", "do the task", "--output-format", "json", "--yolo"}, env, timeout)
	p.t.Logf("requests:\n%s", p.api.Summary())
	return &geminiOutcome{cliOutcome: co}, done
}

// oneFunctionResponse returns what Gemini CLI sent the model back for the
// scripted call, and whether it was an error.
func (p *geminiProject) oneFunctionResponse(o *geminiOutcome, tool string) (string, bool) {
	p.t.Helper()
	rs := p.api.FunctionResponses()
	if len(rs) != 1 || rs[0].Name != tool {
		p.t.Fatalf("the fake API saw %d functionResponse parts (%+v), want one for %s\nrequests:\n%s\nstdout: %s\nstderr: %s",
			len(rs), rs, tool, p.api.Summary(), o.stdout, o.stderr)
	}
	text, isErr := rs[0].text()
	p.t.Logf("functionResponse (error=%v): %s", isErr, text)
	if got, _ := o.result["response"].(string); got != finalText {
		p.t.Errorf("gemini's response = %q, want the fake model's final answer %q\nstdout: %s", got, finalText, o.stdout)
	}
	return text, isErr
}

// TestGeminiAllowedCommandRuns: guard allows `cat hello.txt`
// ({"decision":"allow"}), rewritten to run in guard run's read-only
// sandbox where the kernel can confine it; the command runs and its
// output is the functionResponse the model gets.
func TestGeminiAllowedCommandRuns(t *testing.T) {
	t.Parallel()
	const token = "e2e-token-gemini-2c81"
	cmd := "cat hello.txt"
	p := newGeminiProject(t)
	p.script("run_shell_command", map[string]any{"command": cmd})
	writeFile(t, p.dir, "hello.txt", token+"\n")
	o := p.run()
	c := p.oneHookCall("BeforeTool", "run_shell_command", map[string]any{"command": cmd})
	text, isErr := p.oneFunctionResponse(o, "run_shell_command")
	if !strings.Contains(text, token) || isErr {
		t.Errorf("the functionResponse does not carry the output of %q (error=%v): %q", cmd, isErr, text)
	}
	want := `{"decision":"allow"}` + "\n"
	if r := readOnlyRewrite(t, cmd); r != "" {
		out, _ := json.Marshal(map[string]any{"decision": "allow", "hookSpecificOutput": map[string]any{"tool_input": map[string]any{"command": r}}})
		want = string(out) + "\n"
	}
	if code, stdout, stderr := replayHook(t, c, hookArgs(t, "gemini")...); code != 0 || stdout != want {
		t.Errorf("guard on the logged input: exit %d, stdout %q, stderr %q; want exit 0 and %s", code, stdout, stderr, want)
	}
}

// TestGeminiDeniedCommandDoesNotRun: guard denies `git push --force
// origin main` (exit 2, the reason on stderr); origin's main is unchanged,
// and guard's reason and hint reach the model.
func TestGeminiDeniedCommandDoesNotRun(t *testing.T) {
	t.Parallel()
	cmd := "git push --force origin main"
	p := newGeminiProject(t)
	before := p.gitOrigin()
	p.script("run_shell_command", map[string]any{"command": cmd})
	o := p.run()
	p.oneHookCall("BeforeTool", "run_shell_command", map[string]any{"command": cmd})
	if after := p.originMain(); after != before {
		t.Errorf("%q ran: origin's main moved from %s to %s", cmd, before, after)
	}
	text, isErr := p.oneFunctionResponse(o, "run_shell_command")
	if !isErr || !strings.Contains(text, "Tool execution blocked: guard: denied: git push --force") {
		t.Errorf("guard's deny reason did not reach the model as Gemini CLI's block (error=%v): %q", isErr, text)
	}
	if !strings.Contains(text, "guard: hint: ") {
		t.Errorf("guard's hint did not reach the model: %q", text)
	}
}

// TestGeminiAskWaitsHeadless: `touch` writes a file, so guard asks
// ({"decision":"ask","reason":...}). Gemini CLI 0.61 then waits for the
// user's approval even in headless mode (gemini -p), where nobody can give
// it: the command does not run, and gemini does not end. This test holds
// what Gemini CLI does today: it stops gemini askWait after the hook got
// its input (guard answers in milliseconds), however long gemini took to
// get there. A Gemini CLI that refused the call instead
// would fail the test, and the test should then check that guard's
// reason reaches the model.
func TestGeminiAskWaitsHeadless(t *testing.T) {
	t.Parallel()
	const askWait = 10 * time.Second
	cmd := "touch asked-marker"
	p := newGeminiProject(t)
	p.settle = askWait
	p.script("run_shell_command", map[string]any{"command": cmd})
	start := time.Now()
	o, done := p.runFor(cliRunTimeout)
	calls := p.hookCalls()
	if len(calls) != 1 {
		t.Fatalf("the hook ran %d times, want once\nstderr: %s", len(calls), o.stderr)
	}
	c := calls[0]
	if p.exists("asked-marker") {
		t.Errorf("%q ran although guard asked and nobody could answer", cmd)
	}
	code, stdout, stderr := replayHook(t, c, hookArgs(t, "gemini")...)
	const reason = "guard (policy default): needs approval: touch needs approval once in this session; once approved, the session is granted rule touch (rule touch); hint: the edit tools write and create files, asked once a directory; this command asks once a session"
	if want := `{"decision":"ask","reason":"` + reason + `","systemMessage":"` + reason + `"}` + "\n"; code != 0 || stdout != want {
		t.Fatalf("guard on the logged input: exit %d, stdout %q, stderr %q; want exit 0 and %s", code, stdout, stderr, want)
	}
	if done {
		t.Errorf("gemini ended on its own after %s (exit %d) although guard asked: check what the model got and update this test\nfunctionResponses: %+v\nstdout: %s",
			time.Since(start).Round(time.Second), o.exit, p.api.FunctionResponses(), o.stdout)
	}
	if rs := p.api.FunctionResponses(); len(rs) != 0 {
		t.Errorf("the model got a functionResponse although gemini was waiting for the approval: %+v", rs)
	}
	t.Logf("Gemini CLI %s waited for an approval headless mode cannot give; the command did not run", geminiVersion)
}

// TestGeminiMissingGuardBlocks: the hook command names a guard that is
// not there. Gemini CLI runs it through the shell (bash here), which
// exits 127 with "No such file or directory" on stderr; Gemini CLI takes
// exit 2 or more with text for a block, so this fails closed, by
// accident: the call does not run, and the shell's error is the reason
// the model gets.
func TestGeminiMissingGuardBlocks(t *testing.T) {
	t.Parallel()
	cmd := "touch missing-marker"
	p := newGeminiProject(t)
	missing := filepath.Join(p.bin, "no-such-guard")
	p.register(map[string]string{"BeforeTool": shellQuote(missing) + " hook --agent gemini"})
	p.script("run_shell_command", map[string]any{"command": cmd})
	o := p.run()
	if n := len(p.hookCalls()); n != 0 {
		t.Fatalf("the logging wrapper ran %d times; it is not the hook here", n)
	}
	if p.exists("missing-marker") {
		t.Errorf("%q ran although the hook could not start: Gemini CLI %s failed open", cmd, geminiVersion)
	}
	text, isErr := p.oneFunctionResponse(o, "run_shell_command")
	if !isErr || !strings.HasPrefix(text, "Tool execution blocked: ") || !strings.Contains(text, missing+": No such file or directory") {
		t.Errorf("the functionResponse is not Gemini CLI's block with the shell's error (error=%v): %q", isErr, text)
	}
}

// TestGeminiSettingsWriteDenied: with a policy that lets the file tools
// write the project, the model's write_file of .gemini/settings.json,
// which would unregister guard, is denied: it configures a coding agent.
// The file is unchanged and guard's reason reaches the model.
func TestGeminiSettingsWriteDenied(t *testing.T) {
	t.Parallel()
	p := newGeminiProject(t)
	writeFile(t, p.home, ".config/guard/guard.toml", "version = 1\nextends = \"default\"\n\n[paths]\nwrite = \"allow\"\n")
	target := filepath.Join(p.dir, ".gemini", "settings.json")
	before, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	// A write to an ordinary file is allowed by the same policy: the
	// deny is the settings file's.
	notes := filepath.Join(p.dir, "notes.txt")
	p.script("write_file", map[string]any{"file_path": notes, "content": "written\n"},
		"write_file", map[string]any{"file_path": target, "content": "{}\n"})
	o := p.run()
	calls := p.hookCalls()
	if len(calls) != 2 {
		t.Fatalf("the hook ran %d times, want twice", len(calls))
	}
	if !p.exists("notes.txt") {
		t.Errorf("the allowed write_file of notes.txt did not run")
	}
	after, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("the write_file ran: .gemini/settings.json is now %q", after)
	}
	rs := p.api.FunctionResponses()
	if len(rs) != 2 {
		t.Fatalf("the fake API saw %d functionResponse parts, want 2\nstdout: %s", len(rs), o.stdout)
	}
	text, isErr := rs[1].text()
	if !isErr || !strings.Contains(text, "Tool execution blocked: guard: denied: write_file: "+target+" is protected: it configures a coding agent") {
		t.Errorf("guard's deny of the settings write did not reach the model (error=%v): %q", isErr, text)
	}
}

// TestGeminiSandboxedCommand: with [sandbox] run = true, guard answers an
// allowed make with its command rewritten to run under guard run
// (hookSpecificOutput.tool_input); Gemini CLI runs the rewritten command,
// the model gets its output, and the key the Makefile reads stays out of
// reach.
func TestGeminiSandboxedCommand(t *testing.T) {
	t.Parallel()
	if err := guardsandbox.Available(); err != nil {
		t.Skipf("guard run cannot run here: %v", err)
	}
	const token, key = "e2e-token-gemini-sandboxed-7d20", "e2e-key-gemini-never-read-41ac"
	cmd := "make show"
	p := newGeminiProject(t)
	writeFile(t, p.home, ".config/guard/guard.toml", "version = 1\nextends = \"default\"\n\n[sandbox]\nrun = true\nrequire = true\n\n[command.make]\nverdict = \"allow\"\n")
	writeFile(t, p.home, ".ssh/id_rsa", key+"\n")
	writeFile(t, p.dir, "hello.txt", token+"\n")
	writeFile(t, p.dir, "Makefile", "show:\n\tcat hello.txt\n\t-cat $(HOME)/.ssh/id_rsa\n\t@echo after-the-key\n")
	p.script("run_shell_command", map[string]any{"command": cmd})
	o := p.run()
	c := p.oneHookCall("BeforeTool", "run_shell_command", map[string]any{"command": cmd})
	text, _ := p.oneFunctionResponse(o, "run_shell_command")
	if !strings.Contains(text, token) || !strings.Contains(text, "after-the-key") {
		t.Errorf("the rewritten command's output did not reach the model: %q", text)
	}
	if strings.Contains(text, key) || !strings.Contains(text, "No such file or directory") && !strings.Contains(text, "ermission denied") {
		t.Errorf("the key was not kept out of reach: %q", text)
	}
	code, stdout, stderr := replayHook(t, c, hookArgs(t, "gemini")...)
	var ans struct {
		Decision string `json:"decision"`
		H        struct {
			ToolInput map[string]any `json:"tool_input"`
		} `json:"hookSpecificOutput"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &ans) != nil || ans.Decision != "allow" {
		t.Fatalf("replay: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if got, _ := ans.H.ToolInput["command"].(string); !strings.Contains(got, "' 'run' -- bash --noprofile --norc -c 'make show'") {
		t.Errorf("tool_input.command = %q, want it under guard run", got)
	}
}

// TestGeminiHookInput: the fields of what Gemini CLI gives the hook are
// those of the golden input in agent/testdata, which the adapter's tests
// read; guard tells it for Gemini CLI's by its shape, and answers it
// alike with and without --agent gemini.
func TestGeminiHookInput(t *testing.T) {
	t.Parallel()
	cmd := "echo e2e-hook-input | wc -c"
	p := newGeminiProject(t)
	p.script("run_shell_command", map[string]any{"command": cmd})
	o := p.run()
	c := p.oneHookCall("BeforeTool", "run_shell_command", map[string]any{"command": cmd})
	if text, isErr := p.oneFunctionResponse(o, "run_shell_command"); isErr || !strings.Contains(text, "15") {
		t.Errorf("the functionResponse is not the output of %q (error=%v): %q", cmd, isErr, text)
	}
	golden := goldenKeys(t, "gemini/beforetool-run_shell_command.json")
	if got := c.keys(); !reflect.DeepEqual(got, golden) {
		t.Errorf("the hook input's fields are %v; the golden input's %v: capture a new one", got, golden)
	}
	if !reflect.DeepEqual(c.input, map[string]any{"command": cmd}) {
		t.Errorf("tool_input = %v, want exactly the model's arguments", c.input)
	}
	if d := c.getenv("GEMINI_PROJECT_DIR"); d != p.dir {
		t.Errorf("GEMINI_PROJECT_DIR in the hook's environment = %q, want %q", d, p.dir)
	}
	if got := agent.Detect(c.raw); got != "gemini" {
		t.Errorf("agent.Detect says %q of Gemini CLI's input", got)
	}
	_, named, _ := replayHook(t, c, hookArgs(t, "gemini")...)
	code, auto, stderr := replayHook(t, c)
	if code != 0 || auto != named || !strings.HasPrefix(auto, `{"decision":"allow"`) {
		t.Errorf("guard hook without --agent answers exit %d, %q (stderr %q); with --agent gemini %q", code, auto, stderr, named)
	}
}

// goldenKeys returns the top-level field names of a golden hook input in
// agent/testdata, sorted.
func goldenKeys(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "agent", "testdata", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	c := cliHookCall{}
	if err := json.Unmarshal(data, &c.fields); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return c.keys()
}

// TestGeminiRunsBash: Gemini CLI runs a command with bash -c whatever
// $SHELL is, which is why guard judges its commands as bash reads them:
// with SHELL=/bin/zsh, echo 'x\ty' prints the backslash as bash does
// (zsh's echo would print a tab).
func TestGeminiRunsBash(t *testing.T) {
	t.Parallel()
	needZsh(t)
	cmd := `echo 'x\ty'`
	p := newGeminiProject(t)
	p.shell = zsh
	p.script("run_shell_command", map[string]any{"command": cmd})
	o := p.run()
	if text, isErr := p.oneFunctionResponse(o, "run_shell_command"); isErr || !strings.Contains(text, `x\ty`) {
		t.Errorf("with SHELL=%s, %q gave %q (error=%v), not bash's x\\ty", zsh, cmd, text, isErr)
	}
}
