// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package e2e runs the real Claude Code CLI against guard: a scripted model
// API on loopback asks for one tool call, Claude Code runs guard as its
// PreToolUse hook, and the tests check what ran and what the model was told.
//
// The CLI comes from npm (@anthropic-ai/claude-code, pinned below); e2e/install.sh
// installs it into $GUARD_E2E_CACHE (default ~/.cache/guard-e2e), or
// GUARD_E2E_CLAUDE names the binary. Without it the tests skip, unless
// GUARD_E2E=require. Claude Code, and so every command under test, runs inside
// bubblewrap: the root file system read-only, a private /tmp, only the
// throwaway project, a scratch HOME and the hook log writable, and the host's
// network shared so that it reaches the fake API on 127.0.0.1.
package e2e

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"guard/internal/testnote"
)

// claudeVersion is the Claude Code release these tests were written and
// checked against; install.sh installs it.
const claudeVersion = "2.1.332"

// runTimeout bounds one claude run.
const runTimeout = 120 * time.Second

// hookTimeout is the hook entry's timeout in settings.json, in seconds.
const hookTimeout = 30

var (
	guardOnce sync.Once
	guardDir  string // holds the guard binary built for the tests
	guardBin  string
	guardErr  error

	claudeOnce sync.Once
	claudePath string
	claudeErr  error
	claudeSkip string

	skippedMu sync.Mutex
	skipped   = map[string]int{} // how many tests skipped, by reason
)

func TestMain(m *testing.M) {
	code := m.Run()
	if guardDir != "" {
		os.RemoveAll(guardDir)
	}
	// A plain go test prints nothing of a package that passes: say what
	// did not run.
	for reason, n := range skipped {
		testnote.Print(fmt.Sprintf("guard/e2e: SKIPPED %d tests (GUARD_E2E=require makes this a failure): %s", n, reason))
	}
	os.Exit(code)
}

// buildGuard builds ./cmd/guard once for all tests.
func buildGuard(t *testing.T) string {
	t.Helper()
	guardOnce.Do(func() {
		dir, err := os.MkdirTemp("", "guard-e2e-bin-")
		if err != nil {
			guardErr = err
			return
		}
		guardDir = dir
		guardBin = filepath.Join(dir, "guard")
		// go test puts its own GOROOT/bin first on the test's PATH.
		gobin, err := exec.LookPath("go")
		if err != nil {
			guardErr = fmt.Errorf("building guard: %v", err)
			return
		}
		cmd := exec.Command(gobin, "build", "-o", guardBin, "./cmd/guard")
		cmd.Dir = ".." // the module root
		if out, err := cmd.CombinedOutput(); err != nil {
			guardErr = fmt.Errorf("go build ./cmd/guard: %v\n%s", err, out)
		}
	})
	if guardErr != nil {
		t.Fatal(guardErr)
	}
	return guardBin
}

// unavailable skips the test, or fails it when GUARD_E2E=require.
func unavailable(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv("GUARD_E2E") == "require" {
		t.Fatal(msg + " (GUARD_E2E=require)")
	}
	skippedMu.Lock()
	skipped[msg]++
	skippedMu.Unlock()
	t.Skip(msg)
}

// claude returns the claude binary, after checking that it and bwrap can run.
func claude(t *testing.T) string {
	t.Helper()
	claudeOnce.Do(func() {
		if _, err := exec.LookPath("bwrap"); err != nil {
			claudeSkip = "bubblewrap (bwrap) not installed: the e2e tests run Claude Code only inside it (apt-get install bubblewrap)"
			return
		}
		fromEnv := os.Getenv("GUARD_E2E_CLAUDE")
		path := fromEnv
		if path == "" {
			cache := os.Getenv("GUARD_E2E_CACHE")
			if cache == "" {
				home, err := os.UserHomeDir()
				if err != nil {
					claudeErr = err
					return
				}
				cache = filepath.Join(home, ".cache", "guard-e2e")
			}
			arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
			path = filepath.Join(cache, "node_modules", "@anthropic-ai", "claude-code-"+runtime.GOOS+"-"+arch, "claude")
			if _, err := os.Stat(path); err != nil {
				claudeSkip = fmt.Sprintf("claude CLI not installed: run e2e/install.sh (npm install @anthropic-ai/claude-code@%s into %s), or set GUARD_E2E_CLAUDE", claudeVersion, cache)
				return
			}
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			claudeErr = err
			return
		}
		if _, err := os.Stat(abs); err != nil {
			claudeErr = fmt.Errorf("GUARD_E2E_CLAUDE: %v", err)
			return
		}
		// The version, asked inside the same sandbox as the real runs.
		home, err := os.MkdirTemp("", "guard-e2e-version-")
		if err != nil {
			claudeErr = err
			return
		}
		defer os.RemoveAll(home)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := sandbox(ctx, abs, home, []string{home}, nil, []string{"--version"}, []string{"HOME=" + home})
		out, err := cmd.CombinedOutput()
		if err != nil {
			claudeErr = fmt.Errorf("%s --version in bwrap: %v\n%s", abs, err, out)
			return
		}
		got := strings.Fields(string(out))
		if len(got) == 0 || got[0] != claudeVersion {
			if fromEnv == "" {
				claudeErr = fmt.Errorf("%s is version %q, want %s: rerun e2e/install.sh", abs, strings.TrimSpace(string(out)), claudeVersion)
				return
			}
			fmt.Fprintf(os.Stderr, "e2e: GUARD_E2E_CLAUDE is Claude Code %q; these tests are written against %s\n", strings.TrimSpace(string(out)), claudeVersion)
		}
		claudePath = abs
	})
	if claudeSkip != "" {
		unavailable(t, claudeSkip)
	}
	if claudeErr != nil {
		t.Fatal(claudeErr)
	}
	return claudePath
}

// sandbox returns a command that runs prog with args inside bubblewrap:
// everything read-only but the writable directories, a private /tmp and
// /dev, new IPC and UTS namespaces, and the host's network (the fake API
// listens on the host's loopback). The read-only directories are bound
// again after /tmp is replaced, for those that live under /tmp. The
// host's /proc and process namespace stay: guard run makes its jail's
// own inside, and the kernel mounts a jail's /proc only where the /proc
// it sees is whole (bubblewrap's --proc covers parts of its own).
func sandbox(ctx context.Context, prog, dir string, writable, readonly, args, env []string) *exec.Cmd {
	b := []string{
		"--ro-bind", "/", "/",
		"--bind", "/proc", "/proc",
		"--dev", "/dev",
		"--tmpfs", "/tmp",
		"--ro-bind", prog, prog,
	}
	for _, d := range readonly {
		b = append(b, "--ro-bind", d, d)
	}
	for _, d := range writable {
		b = append(b, "--bind", d, d)
	}
	b = append(b,
		"--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
		"--die-with-parent", "--new-session",
		"--chdir", dir,
		"--", prog)
	cmd := exec.CommandContext(ctx, "bwrap", append(b, args...)...)
	cmd.Env = env
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// project is a throwaway project with its own fake API, scratch HOME and
// hook log.
type project struct {
	t       *testing.T
	dir     string // the project; Claude Code's working directory
	home    string // scratch HOME
	hookLog string // the hook wrapper writes each input it receives here
	bin     string // the hook wrapper
	hook    string // the hook command in settings.json
	api     *fakeAPI
	shell   string   // SHELL for claude; "" means /bin/bash
	env     []string // more of claude's environment; a variable here wins over the harness's
	binds   []string // more directories claude may write, besides the project, home and hook log
}

// newProject makes a project with guard registered as the PreToolUse hook
// through the logging wrapper. It skips the test when the CLI is missing.
func newProject(t *testing.T) *project {
	t.Helper()
	claude(t)
	guard := buildGuard(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &project{
		t:       t,
		dir:     filepath.Join(root, "proj"),
		home:    filepath.Join(root, "home"),
		hookLog: filepath.Join(root, "hooklog"),
		bin:     filepath.Join(root, "bin"),
	}
	for _, d := range []string{p.dir, p.home, p.hookLog, p.bin, filepath.Join(p.dir, ".claude")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The wrapper keeps the exact bytes Claude Code sent, and the hook's
	// environment (guard reads CLAUDE_PROJECT_DIR and HOME), then becomes guard: guard's exit code,
	// stdout and stderr are the hook's. If it cannot log, it blocks (exit 2
	// with a reason), as guard would.
	wrapper := filepath.Join(p.bin, "guard-hook")
	script := fmt.Sprintf(`#!/bin/sh
in=$(mktemp %s/call-$(date +%%s%%N)-XXXXXX) || { echo "guard-e2e: cannot log the hook input" >&2; exit 2; }
cat >"$in" || { echo "guard-e2e: cannot log the hook input" >&2; exit 2; }
env >"$in.env"
exec %s hook "$@" <"$in"
`, shellQuote(p.hookLog), shellQuote(guard))
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	p.hook = shellQuote(wrapper)
	p.writeSettings(p.hook)
	return p
}

// script starts the project's fake model, which calls tool with input once.
func (p *project) script(tool string, input map[string]any) {
	p.t.Helper()
	p.api = newFakeAPI(p.t, tool, input)
}

// writeSettings registers command as the PreToolUse hook for every tool, the
// way README.md tells users to.
func (p *project) writeSettings(command string) {
	p.t.Helper()
	settings := map[string]any{
		"hooks": map[string]any{
			"PreToolUse": []any{map[string]any{
				"matcher": "*",
				"hooks": []any{map[string]any{
					"type": "command", "command": command, "timeout": hookTimeout, "onFailure": "block",
				}},
			}},
		},
	}
	data, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		p.t.Fatal(err)
	}
	p.write(".claude/settings.json", string(data)+"\n")
}

// write creates a file in the project.
func (p *project) write(name, content string) {
	p.t.Helper()
	path := filepath.Join(p.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// writeHome creates a file in the scratch home.
func (p *project) writeHome(name, content string) {
	p.t.Helper()
	path := filepath.Join(p.home, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		p.t.Fatal(err)
	}
}

// exists reports whether name exists in the project.
func (p *project) exists(name string) bool {
	_, err := os.Lstat(filepath.Join(p.dir, filepath.FromSlash(name)))
	return err == nil
}

// outcome is what one claude run gave.
type outcome struct {
	exit   int
	stdout string
	stderr string
	result map[string]any // the --output-format json object, if stdout held one
}

// run runs claude -p in the sandbox with the given tools pre-approved.
func (p *project) run(allowedTools ...string) *outcome {
	p.t.Helper()
	if p.api == nil {
		p.t.Fatal("no fake model: call script first")
	}
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	args := []string{"-p", "do the task", "--output-format", "json",
		"--allowedTools", strings.Join(allowedTools, ",")}
	env := []string{
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=" + p.home,
		"USER=root",
		"LOGNAME=root",
		"SHELL=" + cmp.Or(p.shell, "/bin/bash"),
		"LANG=C.UTF-8",
		"TERM=dumb",
		"TMPDIR=/tmp",
		"ANTHROPIC_BASE_URL=" + p.api.URL(),
		"ANTHROPIC_API_KEY=test",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
	}
	env = append(env, p.env...)
	cmd := sandbox(ctx, claude(p.t), p.dir,
		append([]string{p.dir, p.home, p.hookLog}, p.binds...),
		[]string{p.bin, guardDir},
		args, env)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	o := &outcome{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		o.exit = ee.ExitCode()
	default:
		p.t.Fatalf("running claude: %v", err)
	}
	if ctx.Err() != nil {
		p.t.Fatalf("claude did not finish within %s\nstdout: %s\nstderr: %s\nrequests:\n%s", runTimeout, o.stdout, o.stderr, p.api.Summary())
	}
	p.t.Logf("claude ran in %.1fs, exit %d; requests:\n%s", time.Since(start).Seconds(), o.exit, p.api.Summary())
	var res map[string]any
	if json.Unmarshal([]byte(strings.TrimSpace(o.stdout)), &res) == nil {
		o.result = res
	}
	if o.result == nil {
		p.t.Fatalf("claude's stdout is not a JSON object (exit %d)\nstdout: %s\nstderr: %s", o.exit, o.stdout, o.stderr)
	}
	return o
}

// hookCall is one input the hook received, as logged by the wrapper.
type hookCall struct {
	raw    []byte
	fields map[string]json.RawMessage
	event  string
	tool   string
	input  map[string]any
	cwd    string
	env    []string // the hook's environment (one variable a line; good enough here)
}

// getenv returns a variable of the hook's environment.
func (c hookCall) getenv(key string) string {
	for _, kv := range c.env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// hookCalls returns the hook's inputs in the order they came.
func (p *project) hookCalls() []hookCall {
	p.t.Helper()
	names, err := filepath.Glob(filepath.Join(p.hookLog, "call-*"))
	if err != nil {
		p.t.Fatal(err)
	}
	names = slices.DeleteFunc(names, func(s string) bool { return strings.HasSuffix(s, ".env") })
	sort.Strings(names)
	var calls []hookCall
	for _, name := range names {
		raw, err := os.ReadFile(name)
		if err != nil {
			p.t.Fatal(err)
		}
		envData, err := os.ReadFile(name + ".env")
		if err != nil {
			p.t.Fatal(err)
		}
		c := hookCall{raw: raw, env: strings.Split(strings.TrimSuffix(string(envData), "\n"), "\n")}
		if err := json.Unmarshal(raw, &c.fields); err != nil {
			p.t.Fatalf("the hook input is not a JSON object: %v\n%s", err, raw)
		}
		str := func(k string) string {
			var s string
			json.Unmarshal(c.fields[k], &s)
			return s
		}
		c.event, c.tool, c.cwd = str("hook_event_name"), str("tool_name"), str("cwd")
		json.Unmarshal(c.fields["tool_input"], &c.input)
		calls = append(calls, c)
	}
	return calls
}

// oneHookCall checks that the hook ran exactly once, for the scripted call,
// with the input Claude Code documents: event PreToolUse, the tool name,
// the scripted input fields, and the project as cwd.
func (p *project) oneHookCall(tool string, want map[string]any) hookCall {
	p.t.Helper()
	calls := p.hookCalls()
	if len(calls) != 1 {
		for _, c := range calls {
			p.t.Logf("hook input: %s", c.raw)
		}
		p.t.Fatalf("the hook ran %d times, want once (for the scripted %s call)", len(calls), tool)
	}
	c := calls[0]
	p.t.Logf("hook input: %s", c.raw)
	if c.event != "PreToolUse" {
		p.t.Errorf("hook_event_name = %q, want PreToolUse", c.event)
	}
	if c.tool != tool {
		p.t.Errorf("tool_name = %q, want %q", c.tool, tool)
	}
	for k, v := range want {
		if got, ok := c.input[k]; !ok || got != v {
			p.t.Errorf("tool_input.%s = %#v, want %#v (what the fake model sent)", k, got, v)
		}
	}
	if c.cwd != p.dir {
		p.t.Errorf("cwd = %q, want the project %q", c.cwd, p.dir)
	}
	return c
}

// oneToolResult returns the tool_result Claude Code sent back for the
// scripted call, and checks that the conversation then ended normally.
func (p *project) oneToolResult(o *outcome) toolResult {
	p.t.Helper()
	rs := p.api.ToolResults()
	if len(rs) != 1 {
		p.t.Fatalf("the fake API saw %d tool_result blocks for %s, want 1\nrequests:\n%s\nstdout: %s\nstderr: %s",
			len(rs), toolUseID, p.api.Summary(), o.stdout, o.stderr)
	}
	p.t.Logf("tool_result (is_error=%v): %s", rs[0].IsError, rs[0].Text)
	if got, _ := o.result["result"].(string); got != finalText {
		p.t.Errorf("claude's result = %q, want the fake model's final answer %q\nstdout: %s", got, finalText, o.stdout)
	}
	return rs[0]
}

// replay runs the logged hook input through guard again (outside the
// sandbox: guard only decides, it runs nothing) and returns its exit code,
// stdout and stderr, so a test can compare what guard parsed with what
// Claude Code did.
func replay(t *testing.T, c hookCall) (int, string, string) {
	t.Helper()
	cmd := exec.Command(buildGuard(t), "hook")
	cmd.Stdin = bytes.NewReader(c.raw)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + c.getenv("HOME")}
	if d := c.getenv("CLAUDE_PROJECT_DIR"); d != "" {
		cmd.Env = append(cmd.Env, "CLAUDE_PROJECT_DIR="+d)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	return runExit(t, cmd), stdout.String(), stderr.String()
}

// runExit runs cmd and returns its exit code; a command that cannot be
// run at all fails the test.
func runExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// deniedInResult checks that claude's JSON result lists the scripted call
// in permission_denials (the calls that did not run).
func (p *project) deniedInResult(o *outcome) {
	p.t.Helper()
	ds, _ := o.result["permission_denials"].([]any)
	for _, d := range ds {
		if m, ok := d.(map[string]any); ok && m["tool_use_id"] == toolUseID {
			return
		}
	}
	p.t.Errorf("claude's result does not list %s in permission_denials: %v", toolUseID, o.result["permission_denials"])
}
