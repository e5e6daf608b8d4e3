// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestInstalledByInit: the hook guard init writes for Claude Code is the
// one that runs. The project's settings are guard init's alone (not the
// harness's logging wrapper); the real client runs an allowed command and
// guard's own decision log, in the scratch home, has the call, which only
// the hook init installed can have written. guard doctor then passes.
func TestInstalledByInit(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	if err := os.Remove(filepath.Join(p.dir, ".claude", "settings.json")); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + p.home}
	runGuard := func(args ...string) string { return runGuardIn(t, p.dir, env, args...) }
	runGuard("init", "--agent", "claude", "--cwd", p.dir)
	const cmd = "echo installed-by-init"
	p.script("Bash", map[string]any{"command": cmd})
	o := p.run("Bash")
	if r := p.oneToolResult(o); r.IsError || strings.TrimSpace(r.Text) != "installed-by-init" {
		t.Errorf("the command's output did not reach the model (is_error=%v): %q", r.IsError, r.Text)
	}
	if calls := p.hookCalls(); len(calls) != 0 {
		t.Errorf("the harness's wrapper ran %d times: the settings are not guard init's alone", len(calls))
	}
	logged := runGuard("log", "--json", "--tool", "Bash")
	if !strings.Contains(logged, `"call":"`+cmd+`"`) || !strings.Contains(logged, `"decision":"allowed"`) || !strings.Contains(logged, `"event":"PostToolUse"`) {
		t.Errorf("guard's log has no trace of the call through the hook init installed:\n%s", logged)
	}
	if out := runGuard("doctor", "--cwd", p.dir); !strings.Contains(out, "guard is installed, runs, and blocks what it denies") {
		t.Errorf("guard doctor after guard init:\n%s", out)
	}
}

// TestReadOnlyInstalledByInit: guard init --read-only gives the real
// Claude Code exactly the reading tools and the read-only shell: Write and
// Edit are not offered to the model at all (so the scripted model, which
// calls only offered tools, cannot call them), Read and a read-only
// command run (the command in guard run's
// read-only sandbox), a command that writes is refused, nothing is asked,
// and guard doctor passes.
func TestReadOnlyInstalledByInit(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	if err := os.Remove(filepath.Join(p.dir, ".claude", "settings.json")); err != nil {
		t.Fatal(err)
	}
	p.write("notes.txt", "read-only-notes\n")
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + p.home}
	runGuard := func(args ...string) string { return runGuardIn(t, p.dir, env, args...) }
	out := runGuard("init", "--agent", "claude", "--read-only", "--cwd", p.dir)
	if !strings.Contains(out, "read-only: ") {
		t.Errorf("guard init --read-only did not say what it did:\n%s", out)
	}
	p.api = newFakeAPISeq(t,
		"Read", map[string]any{"file_path": filepath.Join(p.dir, "notes.txt")},
		"Bash", map[string]any{"command": "cat notes.txt"},
		"Bash", map[string]any{"command": "touch marker"},
	)
	o := p.run()
	reqs := p.api.Requests()
	var offered []string
	for _, r := range reqs {
		if len(r.Tools) > 0 {
			offered = r.Tools
			break
		}
	}
	t.Logf("offered: %v", offered)
	for _, want := range []string{"Read", "Bash"} {
		if !slices.Contains(offered, want) {
			t.Errorf("Claude Code does not offer %s: %v", want, offered)
		}
	}
	for _, gone := range []string{"Write", "Edit", "WebFetch", "NotebookEdit"} {
		if slices.Contains(offered, gone) {
			t.Errorf("Claude Code still offers %s in read-only mode: %v", gone, offered)
		}
	}
	results := p.toolResults()
	if r := results[callID(0)]; r.IsError || !strings.Contains(r.Text, "read-only-notes") {
		t.Errorf("Read: %+v", r)
	}
	if r := results[callID(1)]; r.IsError || !strings.Contains(r.Text, "read-only-notes") {
		t.Errorf("a read-only command: %+v", r)
	}
	if r := results[callID(2)]; !r.IsError {
		t.Errorf("touch ran in read-only mode: %+v", r)
	}
	if p.exists("marker") {
		t.Error("marker was written in read-only mode")
	}
	if o.exit != 0 {
		t.Errorf("claude exited %d: %s", o.exit, o.stderr)
	}
	if out := runGuard("doctor", "--cwd", p.dir); !strings.Contains(out, "guard is installed, runs, and blocks what it denies") {
		t.Errorf("guard doctor after guard init --read-only:\n%s", out)
	}
}

// TestDoctorHeartbeat: guard doctor --heartbeat runs the real Claude Code
// headless, whose model (the fake one here) runs the command doctor asks
// for, and finds the call in guard's log: the hook guard init installed is
// the one Claude Code runs. Without guard's hook the same run fails the
// check. doctor runs inside the sandbox, and so does the agent it starts.
func TestDoctorHeartbeat(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	if err := os.Remove(filepath.Join(p.dir, ".claude", "settings.json")); err != nil {
		t.Fatal(err)
	}
	agentBin := filepath.Join(p.home, "bin")
	if err := os.MkdirAll(agentBin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(claude(t), filepath.Join(agentBin, "claude")); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + p.home}
	runGuardIn(t, p.dir, env, "init", "--agent", "claude", "--cwd", p.dir)
	doctor := func() (int, string) {
		t.Helper()
		p.script("Bash", map[string]any{"command": "echo guard-heartbeat"})
		ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
		defer cancel()
		cmd := sandbox(ctx, buildGuard(t), p.dir, []string{p.dir, p.home}, []string{guardDir, filepath.Dir(claude(t))},
			[]string{"doctor", "--cwd", p.dir, "--heartbeat"}, []string{
				"PATH=" + agentBin + ":/usr/bin:/bin", "HOME=" + p.home, "USER=root", "SHELL=/bin/bash", "LANG=C.UTF-8", "TERM=dumb", "TMPDIR=/tmp",
				"ANTHROPIC_BASE_URL=" + p.api.URL(), "ANTHROPIC_API_KEY=test", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
			})
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		code := runExit(t, cmd)
		t.Logf("guard doctor --heartbeat: exit %d\n%s\nrequests:\n%s", code, out.String(), p.api.Summary())
		return code, out.String()
	}
	if code, out := doctor(); code != 0 || !strings.Contains(out, "ok    a heartbeat through claude reached guard: echo guard-heartbeat was allowed") {
		t.Errorf("with guard's hook: exit %d\n%s", code, out)
	}
	// The hook gone (an empty settings file): the run leaves no trace, and
	// the check fails.
	p.write(".claude/settings.json", "{}\n")
	if code, out := doctor(); code != 1 || !strings.Contains(out, "FAIL  a heartbeat through claude did not reach guard") {
		t.Errorf("without guard's hook: exit %d\n%s", code, out)
	}
}

// TestCodexInstalledByInit: the hooks and trust records guard init writes
// for Codex make the real Codex run guard: without a current trust record
// Codex would skip the hook without a word. guard's own log has the call.
func TestCodexInstalledByInit(t *testing.T) {
	t.Parallel()
	const token = "e2e-token-codex-init-51c0"
	p := newCodexProject(t)
	p.hooks = nil // guard init registers them, not the harness
	p.script("exec_command", map[string]any{"cmd": "cat hello.txt"})
	writeFile(t, p.dir, "hello.txt", token+"\n")
	p.writeConfig()
	p.written = true
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + p.home, "CODEX_HOME=" + p.codexHome}
	runGuard := func(args ...string) string { return runGuardIn(t, p.dir, env, args...) }
	runGuard("init", "--agent", "codex", "--scope", "user")
	o := p.run()
	if text := p.oneOutput(o); !strings.Contains(text, token) {
		t.Errorf("the command's output did not reach the model: %q", text)
	}
	logged := runGuard("log", "--json", "--tool", "Bash")
	if !strings.Contains(logged, `"agent":"codex"`) || !strings.Contains(logged, `"call":"cat hello.txt"`) || !strings.Contains(logged, `"decision":"allowed"`) {
		t.Errorf("guard's log has no trace of the call through the hook init installed:\n%s", logged)
	}
	if out := runGuard("doctor", "--agent", "codex", "--cwd", p.dir); !strings.Contains(out, "guard is installed, runs, and blocks what it denies") {
		t.Errorf("guard doctor --agent codex after guard init:\n%s", out)
	}
}

// TestGeminiInstalledByInit: the hook guard init writes in the project's
// .gemini/settings.json is the one the real Gemini CLI runs: guard's own
// log has the call.
func TestGeminiInstalledByInit(t *testing.T) {
	t.Parallel()
	const token = "e2e-token-gemini-init-7a2d"
	p := newGeminiProject(t)
	if err := os.Remove(filepath.Join(p.dir, ".gemini", "settings.json")); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + p.home}
	runGuard := func(args ...string) string { return runGuardIn(t, p.dir, env, args...) }
	runGuard("init", "--agent", "gemini", "--cwd", p.dir)
	writeFile(t, p.dir, "hello.txt", token+"\n")
	p.script("run_shell_command", map[string]any{"command": "cat hello.txt"})
	o := p.run()
	if text, isErr := p.oneFunctionResponse(o, "run_shell_command"); isErr || !strings.Contains(text, token) {
		t.Errorf("the command's output did not reach the model (error=%v): %q", isErr, text)
	}
	logged := runGuard("log", "--json", "--tool", "run_shell_command")
	if !strings.Contains(logged, `"agent":"gemini"`) || !strings.Contains(logged, `"call":"cat hello.txt"`) || !strings.Contains(logged, `"decision":"allowed"`) {
		t.Errorf("guard's log has no trace of the call through the hook init installed:\n%s", logged)
	}
	if out := runGuard("doctor", "--agent", "gemini", "--cwd", p.dir); !strings.Contains(out, "guard is installed, runs, and blocks what it denies") {
		t.Errorf("guard doctor --agent gemini after guard init:\n%s", out)
	}
}

// runGuardIn runs the guard built for the tests in dir with env, outside
// the agent's sandbox (guard init, log and doctor touch only the scratch
// project and home), and returns its output; a failure fails the test.
func runGuardIn(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	code, out := guardIn(t, dir, env, args...)
	if code != 0 {
		t.Fatalf("guard %v: exit %d\n%s", args, code, out)
	}
	return out
}

// guardIn runs the guard built for the tests as runGuardIn does, and
// returns its exit code and output.
func guardIn(t *testing.T, dir string, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(buildGuard(t), args...)
	cmd.Env, cmd.Dir = env, dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	return runExit(t, cmd), out.String()
}
