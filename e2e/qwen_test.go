// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

// The real Qwen Code against guard: a scripted OpenAI Chat Completions
// API on loopback (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL) asks for
// tool calls, Qwen Code runs guard hook --agent qwen as its PreToolUse
// hook (registered in the project's .qwen/settings.json), and the tests
// check what ran and what the model was told. Qwen Code runs headless
// (qwen -p) with --approval-mode yolo: its own approval then asks for
// nothing, and guard's hook is the gate. Folder trust is off by default
// in Qwen Code, so the project's hooks run. Qwen Code 0.24.4 asks for
// Node.js 22 in its package.json, and runs these tests on Node.js 20.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"guard/agent"
	guardsandbox "guard/sandbox"
)

// qwenVersion is the Qwen Code release these tests were written and
// checked against; install.sh installs it.
const qwenVersion = "0.24.4"

var (
	qwenOnce sync.Once
	qwenCLI  *cli
)

// qwen returns Qwen Code: GUARD_E2E_QWEN (its cli-entry.js), else the one
// in the cache.
func qwen(t *testing.T) *cli {
	t.Helper()
	qwenOnce.Do(func() {
		qwenCLI = findCLI("Qwen Code", "GUARD_E2E_QWEN", "node_modules/@qwen-code/qwen-code/cli-entry.js", qwenVersion, true,
			func(out string) string { return strings.TrimSpace(out) })
	})
	qwenCLI.need(t)
	return qwenCLI
}

// qwenProject is a project with guard as Qwen Code's PreToolUse hook.
type qwenProject struct {
	*cliProject
	cli   *cli
	shell string // SHELL for qwen; "" means /bin/bash
	api   *fakeChatAPI
}

// newQwenProject makes a project whose PreToolUse hook is guard hook
// --agent qwen, through the logging wrapper, for every tool. It skips the
// test when Qwen Code is missing.
func newQwenProject(t *testing.T) *qwenProject {
	t.Helper()
	c := qwen(t)
	p := &qwenProject{cliProject: newCLIProject(t, hookArgs(t, "qwen")), cli: c}
	settings, err := json.MarshalIndent(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{
		"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": p.hook, "timeout": 30}},
	}}}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, p.dir, ".qwen/settings.json", string(settings)+"\n")
	return p
}

// script starts the project's fake model, which makes the given calls
// (pairs of a tool and its arguments) one after the other.
func (p *qwenProject) script(pairs ...any) {
	p.api = newFakeChatAPI(p.t, pairs...)
}

// run runs qwen -p in the sandbox; Qwen Code must end with the fake
// model's final answer.
func (p *qwenProject) run() *cliOutcome {
	p.t.Helper()
	env := []string{
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=" + p.home,
		"USER=root",
		"SHELL=" + cmp.Or(p.shell, "/bin/bash"),
		"LANG=C.UTF-8",
		"TERM=dumb",
		"TMPDIR=/tmp",
		"OPENAI_BASE_URL=" + p.api.URL(),
		"OPENAI_API_KEY=test",
		"OPENAI_MODEL=e2e-model",
		"QWEN_CODE_SUPPRESS_YOLO_WARNING=1",
		"QWEN_CODE_NO_RELAUNCH=true", // one node process, not a second with a larger heap: a faster start
	}
	o := p.cliProject.run(p.cli, []string{"-p", "do the task", "--approval-mode", "yolo"}, env)
	p.t.Logf("requests:\n%s", p.api.Summary())
	if o.exit != 0 || strings.TrimSpace(o.stdout) != finalText {
		p.t.Errorf("qwen exit %d, stdout %q; want 0 and the fake model's %q\nstderr: %s", o.exit, o.stdout, finalText, o.stderr)
	}
	return o
}

// toolResults returns what Qwen Code sent the model back for the scripted
// calls, n of them.
func (p *qwenProject) toolResults(n int) []string {
	p.t.Helper()
	rs := p.api.ToolResults()
	for i, r := range rs {
		p.t.Logf("tool result %d: %s", i+1, r)
	}
	if len(rs) != n {
		p.t.Fatalf("the fake API got %d tool results, want %d\nrequests:\n%s", len(rs), n, p.api.Summary())
	}
	return rs
}

// TestQwenAllowedCallsRun: guard allows echo, which runs outside the
// sandbox as it acts on nothing but its output, and a read_file of the
// project; the output of both reaches the model. With SHELL=/usr/bin/zsh
// (where zsh is installed), echo 'x\ty' prints the backslash as bash
// does: Qwen Code runs bash -c whatever $SHELL is, which is why guard
// judges its commands as bash reads them. The hook's input has the
// golden input's fields, guard tells it for Qwen Code's by its shape, and
// the hook runs with the project in CLAUDE_PROJECT_DIR.
func TestQwenAllowedCallsRun(t *testing.T) {
	t.Parallel()
	const echoed, token = `'e2e-echo\tqwen-51c7'`, "e2e-token-qwen-9a3e"
	p := newQwenProject(t)
	if _, err := os.Stat(zsh); err == nil {
		p.shell = zsh
	}
	p.script("run_shell_command", map[string]any{"command": "echo " + echoed},
		"read_file", map[string]any{"file_path": filepath.Join(p.dir, "hello.txt")})
	writeFile(t, p.dir, "hello.txt", token+"\n")
	p.run()
	rs := p.toolResults(2)
	if !strings.Contains(rs[0], `Output: e2e-echo\tqwen-51c7`) {
		t.Errorf("the output of echo %s, as bash prints it, did not reach the model (SHELL=%s): %q", echoed, p.shell, rs[0])
	}
	if !strings.Contains(rs[1], token) {
		t.Errorf("the read_file's output did not reach the model: %q", rs[1])
	}
	calls := p.hookCalls()
	if len(calls) != 2 || calls[0].tool != "run_shell_command" || calls[1].tool != "read_file" {
		t.Fatalf("the hook ran %d times, want once for each call: %v", len(calls), calls)
	}
	c := calls[0]
	if got, golden := c.keys(), goldenKeys(t, "qwen/pretooluse-run_shell_command.json"); !reflect.DeepEqual(got, golden) {
		t.Errorf("the hook input's fields are %v; the golden input's %v: capture a new one", got, golden)
	}
	if c.event != "PreToolUse" || c.cwd != p.dir || !reflect.DeepEqual(c.input, map[string]any{"command": "echo " + echoed}) {
		t.Errorf("hook input %s: want PreToolUse in %s with exactly the model's arguments", c.raw, p.dir)
	}
	if d := c.getenv("CLAUDE_PROJECT_DIR"); d != p.dir {
		t.Errorf("CLAUDE_PROJECT_DIR in the hook's environment = %q, want %q", d, p.dir)
	}
	if got := agent.Detect(c.raw); got != "qwen" {
		t.Errorf("agent.Detect says %q of Qwen Code's input", got)
	}
	code, stdout, stderr := replayHook(t, c, hookArgs(t, "qwen")...)
	if code != 0 || !strings.HasPrefix(stdout, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"`) {
		t.Errorf("guard on the logged input: exit %d, stdout %q, stderr %q; want an allow", code, stdout, stderr)
	}
	if _, auto, _ := replayHook(t, c); auto != stdout {
		t.Errorf("guard hook without --agent answers %q; with --agent qwen %q", auto, stdout)
	}
}

// TestQwenRefusedCallsDoNotRun: guard init --agent qwen --scope user
// registers guard in ~/.qwen/settings.json, which Qwen Code runs for the
// project. touch asks (nobody can answer headless: Qwen Code refuses the
// call, and the model gets guard's reason); a cat of a key in the home is
// denied (exit 2: the model gets guard's deny line and hint); cat
// hello.txt is allowed by the default policy only inside guard run's
// read-only sandbox, and Qwen Code takes no rewrite from PreToolUse, so
// guard refuses it, saying why (where guard run cannot run, guard allows
// it unbounded, and it runs). None of the refused runs, guard's log holds
// them, and guard doctor finds the installation.
func TestQwenRefusedCallsDoNotRun(t *testing.T) {
	t.Parallel()
	const key, token = "e2e-key-qwen-never-read-7f02", "e2e-token-qwen-bound-c41d"
	p := newQwenProject(t)
	if err := os.Remove(filepath.Join(p.dir, ".qwen", "settings.json")); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + p.home}
	runGuardIn(t, p.dir, env, "init", "--agent", "qwen", "--scope", "user")
	// The model then issues the command guard's refusal of cat hello.txt
	// gives as its hint: cat hello.txt in guard run, which guard allows as
	// it is (where guard run cannot run, cat hello.txt again).
	own := cmp.Or(readOnlyRewrite(t, "cat hello.txt"), "cat hello.txt")
	p.script("run_shell_command", map[string]any{"command": "touch MARKER"},
		"run_shell_command", map[string]any{"command": "cat ~/.ssh/id_rsa"},
		"run_shell_command", map[string]any{"command": "cat hello.txt"},
		"run_shell_command", map[string]any{"command": own})
	writeFile(t, p.home, ".ssh/id_rsa", key+"\n")
	writeFile(t, p.dir, "hello.txt", token+"\n")
	p.run()
	rs := p.toolResults(4)
	if !strings.Contains(rs[3], token) {
		t.Errorf("%s, the command guard's hint gave, did not run, or its output did not reach the model: %q", own, rs[3])
	}
	if p.exists("MARKER") {
		t.Errorf("touch MARKER ran although guard asked and nobody could answer")
	}
	if !strings.HasPrefix(rs[0], "guard (policy ") || !strings.Contains(rs[0], "): needs approval: touch") {
		t.Errorf("guard's ask reason did not reach the model: %q", rs[0])
	}
	if strings.Contains(rs[1], key) || !strings.HasPrefix(rs[1], "guard: denied: ") || !strings.Contains(rs[1], "\nguard: hint: ") {
		t.Errorf("the key's cat was not refused with guard's deny and hint: %q", rs[1])
	}
	const why = "guard: denied: guard (policy %s): allowed: cat is allowed; it must run in guard's sandbox (guard run), and Qwen Code cannot run a call rewritten by its PreToolUse hook, so guard refuses it"
	switch err := guardsandbox.Available(); {
	case err != nil:
		t.Logf("guard run cannot run here, and guard allows cat hello.txt unbounded: %v", err)
		if !strings.Contains(rs[2], token) {
			t.Errorf("cat hello.txt, allowed unbounded, did not run: %q", rs[2])
		}
	case strings.Contains(rs[2], token):
		t.Errorf("cat hello.txt ran unbounded: %q", rs[2])
	case !strings.HasPrefix(rs[2], fmt.Sprintf(why, filepath.Join(p.home, ".config", "guard", "guard.toml"))):
		t.Errorf("the model did not get guard's reason for refusing cat hello.txt:\n%q\nwant it to start\n%q", rs[2], why)
	case !strings.Contains(rs[2], "\nguard: hint: to run it in guard's sandbox, run exactly this command instead, which guard allows as it is: "+own+"\n"):
		t.Errorf("guard's refusal of cat hello.txt does not give %s as the command to run instead:\n%q", own, rs[2])
	}
	logged := runGuardIn(t, p.dir, env, "log", "--json", "--tool", "run_shell_command")
	for _, want := range []string{`"call":"touch MARKER"`, `"call":"cat ~/.ssh/id_rsa"`, `"call":"cat hello.txt"`} {
		if !strings.Contains(logged, `"agent":"qwen"`) || !strings.Contains(logged, want) {
			t.Errorf("guard's log has no %s from Qwen Code through the hook init installed:\n%s", want, logged)
		}
	}
	out := runGuardIn(t, p.dir, env, "doctor", "--agent", "qwen", "--cwd", p.dir)
	for _, want := range []string{"ok    guard hook runs before every tool (" + filepath.Join(p.home, ".qwen", "settings.json") + ")",
		"ok    a canary rm -rf / is blocked through the hook (exit 2)", "ok    a canary git status is allowed through the hook (exit 0)"} {
		if !strings.Contains(out, want) {
			t.Errorf("guard doctor --agent qwen after guard init says no %q:\n%s", want, out)
		}
	}
}

// TestQwenOwnRewriteKeepsUserRule: the user's own Qwen Code deny rule
// (permissions.deny: Bash(cat *)) stops cat hello.txt, and stops it too
// where the model issues guard's rewrite of it, which guard's refusal
// gives as its hint: Qwen Code matches its rule against the guard run
// command line, which it does not match, so guard keeps the rule.
func TestQwenOwnRewriteKeepsUserRule(t *testing.T) {
	t.Parallel()
	const token = "e2e-token-qwen-rule-5e81"
	own := readOnlyRewrite(t, "cat hello.txt")
	if own == "" {
		t.Skip("guard run cannot run here: guard rewrites no command")
	}
	p := newQwenProject(t)
	var settings map[string]any
	old, err := os.ReadFile(filepath.Join(p.dir, ".qwen", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(old, &settings); err != nil {
		t.Fatal(err)
	}
	settings["permissions"] = map[string]any{"deny": []any{"Bash(cat *)"}}
	data, err := json.Marshal(settings)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, p.dir, ".qwen/settings.json", string(data))
	writeFile(t, p.dir, "hello.txt", token+"\n")
	p.script("run_shell_command", map[string]any{"command": "cat hello.txt"},
		"run_shell_command", map[string]any{"command": own})
	p.run()
	rs := p.toolResults(2)
	for i, r := range rs {
		if strings.Contains(r, token) {
			t.Errorf("call %d ran although the user's Qwen Code rule denies cat: %q", i+1, r)
		}
	}
	if !strings.Contains(rs[1], "Bash(cat *)") {
		t.Errorf("the refusal of guard's rewrite does not name the user's rule: %q", rs[1])
	}
}
