// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

// The harness of the Gemini CLI and Codex CLI tests: finding each CLI in
// the cache e2e/install.sh fills, a throwaway project with guard behind a
// logging wrapper as the agent's hook, and running the agent in the same
// bubblewrap sandbox as Claude Code. Each agent's file (gemini_test.go,
// codex_test.go) writes the agent's own settings and reads its answers;
// its fake model is in server_gemini_test.go and server_codex_test.go.
//
// The tests are parallel, as Claude Code's are: go test runs GOMAXPROCS
// of them at once, and on a loaded machine two agents at a time keep more
// of it for the package than one (go test -race ./... on two cores).

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
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	guardsandbox "guard/sandbox"
)

// cliRunTimeout bounds one run of Gemini CLI or Codex.
const cliRunTimeout = 180 * time.Second

// e2eCache is where e2e/install.sh installs the CLIs.
func e2eCache() (string, error) {
	if c := os.Getenv("GUARD_E2E_CACHE"); c != "" {
		return c, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".cache", "guard-e2e"), nil
}

// cli is one agent CLI as the tests find it: the program to run and the
// arguments before the agent's own (node and its script, for Gemini CLI).
type cli struct {
	name    string // for messages: "Gemini CLI", "Codex"
	prog    string
	args    []string
	version string // the pinned version it reported
	skip    string // why the tests of this agent skip, if they do
	err     error  // why they fail, if they do
}

// findCLI finds an agent CLI once: in the env variable envVar, else at
// cached (a path under the cache). The pinned version must be what
// version (run in the sandbox) prints; another is an error unless the
// path came from envVar, where it is noted. bwrap and, for a script,
// node must be there too. The result is a skip, an error or the CLI.
func findCLI(name, envVar, cached, pinned string, node bool, versionOut func(string) string) *cli {
	c := &cli{name: name}
	if _, err := exec.LookPath("bwrap"); err != nil {
		c.skip = "bubblewrap (bwrap) not installed: the e2e tests run the agents only inside it (apt-get install bubblewrap)"
		return c
	}
	fromEnv := os.Getenv(envVar)
	path := fromEnv
	if path == "" {
		cache, err := e2eCache()
		if err != nil {
			c.err = err
			return c
		}
		path = filepath.Join(cache, filepath.FromSlash(cached))
		if _, err := os.Stat(path); err != nil {
			c.skip = fmt.Sprintf("%s not installed: run e2e/install.sh (npm install of the pinned %s into %s), or set %s", name, pinned, cache, envVar)
			return c
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		c.err = err
		return c
	}
	if _, err := os.Stat(abs); err != nil {
		c.err = fmt.Errorf("%s: %v", envVar, err)
		return c
	}
	c.prog = abs
	if node {
		n, err := exec.LookPath("node")
		if err != nil {
			c.skip = fmt.Sprintf("node not installed: %s runs on node (apt-get install nodejs)", name)
			return c
		}
		if n, err = filepath.EvalSymlinks(n); err != nil {
			c.err = err
			return c
		}
		c.prog, c.args = n, []string{abs}
	}
	home, err := os.MkdirTemp("", "guard-e2e-version-")
	if err != nil {
		c.err = err
		return c
	}
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := sandbox(ctx, c.prog, home, []string{home}, []string{abs}, append(slices.Clone(c.args), "--version"),
		[]string{"HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin", "TERM=dumb"})
	out, err := cmd.Output()
	if err != nil {
		c.err = fmt.Errorf("%s --version in bwrap: %v\n%s", abs, err, out)
		return c
	}
	c.version = versionOut(string(out))
	if c.version != pinned {
		if fromEnv == "" {
			c.err = fmt.Errorf("%s is %s version %q, want %s: rerun e2e/install.sh", abs, name, strings.TrimSpace(string(out)), pinned)
			return c
		}
		fmt.Fprintf(os.Stderr, "e2e: %s is %s %q; these tests are written against %s\n", envVar, name, c.version, pinned)
	}
	return c
}

// need skips or fails the test when the CLI is not there.
func (c *cli) need(t *testing.T) {
	t.Helper()
	if c.skip != "" {
		unavailable(t, c.skip)
	}
	if c.err != nil {
		t.Fatal(c.err)
	}
}

var (
	agentFlagOnce sync.Once
	agentFlagOK   bool
)

// readOnlyRewrite returns the command guard hook rewrites an allowed call
// of cmd that only reads to: cmd under guard run, in the read-only
// sandbox; "" where guard run cannot run here, and the call runs as it is.
func readOnlyRewrite(t *testing.T, cmd string) string {
	t.Helper()
	if guardsandbox.Available() != nil {
		return ""
	}
	return "'" + buildGuard(t) + "' 'run' '--read-only' -- bash --noprofile --norc -c '" + strings.ReplaceAll(cmd, "'", `'\''`) + "'"
}

// hookArgs returns guard hook's arguments for an agent: --agent NAME, or
// nothing when the guard under test has no --agent flag yet, and then
// guard tells the agent by the input's shape.
func hookArgs(t *testing.T, agentName string) []string {
	t.Helper()
	guard := buildGuard(t)
	agentFlagOnce.Do(func() {
		cmd := exec.Command(guard, "hook", "--agent", "claude")
		cmd.Stdin = strings.NewReader("")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.Run()
		agentFlagOK = !strings.Contains(stderr.String(), "flag provided but not defined")
		if !agentFlagOK {
			fmt.Fprintf(os.Stderr, "e2e: this guard hook has no --agent flag; the Gemini CLI and Codex tests run plain guard hook\n")
		}
	})
	if agentFlagOK {
		return []string{"--agent", agentName}
	}
	return nil
}

// cliProject is a throwaway project for Gemini CLI or Codex: the project,
// a scratch HOME, the directory the hook wrapper logs to, and the
// wrapper. Whatever else a test needs writable goes in writable.
type cliProject struct {
	t        *testing.T
	root     string // holds the rest; for files a test keeps outside the project
	dir      string // the project; the agent's working directory
	home     string
	hookLog  string
	bin      string
	hook     string   // the hook command: the wrapper, then guard hook's arguments
	writable []string // more directories the sandbox lets the agent write
	// settle, when not zero, stops the agent this long after the hook
	// first logged an input, for an agent that waits for ever.
	settle time.Duration
}

// newCLIProject makes a project whose hook command runs guard hook, with
// args, through the logging wrapper.
func newCLIProject(t *testing.T, args []string) *cliProject {
	t.Helper()
	guard := buildGuard(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &cliProject{t: t, root: root, dir: filepath.Join(root, "proj"), home: filepath.Join(root, "home"),
		hookLog: filepath.Join(root, "hooklog"), bin: filepath.Join(root, "bin")}
	for _, d := range []string{p.dir, p.home, p.hookLog, p.bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// As the Claude Code harness's wrapper: it keeps the exact bytes the
	// agent sent and the hook's environment, then becomes guard, whose
	// exit code and streams are the hook's. If it cannot log, it blocks.
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
	for _, a := range args {
		p.hook += " " + shellQuote(a)
	}
	return p
}

// cliEnv is the environment an agent CLI runs with in the sandbox, before
// the agent's own variables: the scratch home, shell as SHELL (bash where
// it is ""), a UTF-8 locale, a dumb terminal and the sandbox's /tmp.
func cliEnv(home, shell string) []string {
	return []string{
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=" + home,
		"USER=root",
		"SHELL=" + cmp.Or(shell, "/bin/bash"),
		"LANG=C.UTF-8",
		"TERM=dumb",
		"TMPDIR=/tmp",
	}
}

// write creates a file under dir.
func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// exists reports whether name exists in the project.
func (p *cliProject) exists(name string) bool {
	_, err := os.Lstat(filepath.Join(p.dir, filepath.FromSlash(name)))
	return err == nil
}

// cliOutcome is what one run of an agent CLI gave.
type cliOutcome struct {
	exit           int
	stdout, stderr string
}

// run runs the CLI with args in the sandbox, in the project, with env.
func (p *cliProject) run(c *cli, args, env []string) *cliOutcome {
	p.t.Helper()
	o, done := p.runFor(c, args, env, cliRunTimeout)
	if !done {
		p.t.Fatalf("%s did not finish within %s\nstdout: %s\nstderr: %s", c.name, cliRunTimeout, o.stdout, o.stderr)
	}
	return o
}

// runFor runs the CLI as run does, but stops it after timeout, and says
// whether it finished on its own.
func (p *cliProject) runFor(c *cli, args, env []string, timeout time.Duration) (*cliOutcome, bool) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	readonly := []string{p.bin, guardDir}
	if len(c.args) > 0 {
		readonly = append(readonly, c.args[0])
	}
	cmd := sandbox(ctx, c.prog, p.dir, append([]string{p.dir, p.home, p.hookLog}, p.writable...), readonly,
		append(slices.Clone(c.args), args...), env)
	cmd.Stdin = nil // /dev/null: Codex exec reads more input from an open stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if p.settle > 0 {
		go func() {
			for ctx.Err() == nil {
				if envs, _ := filepath.Glob(filepath.Join(p.hookLog, "call-*.env")); len(envs) > 0 {
					select {
					case <-time.After(p.settle):
						cancel()
					case <-ctx.Done():
					}
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
		}()
	}
	err := cmd.Run()
	o := &cliOutcome{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		p.t.Logf("%s was stopped after %s", c.name, time.Since(start).Round(time.Second))
		return o, false
	case errors.As(err, &ee):
		o.exit = ee.ExitCode()
	default:
		p.t.Fatalf("running %s: %v", c.name, err)
	}
	p.t.Logf("%s ran in %.1fs, exit %d", c.name, time.Since(start).Seconds(), o.exit)
	return o, true
}

// cliHookCall is one input the hook received, as the wrapper logged it.
type cliHookCall struct {
	raw    []byte
	fields map[string]json.RawMessage
	event  string
	tool   string
	input  map[string]any
	cwd    string
	env    []string
}

func (c cliHookCall) getenv(key string) string {
	for _, kv := range c.env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// keys returns the input's top-level field names, sorted.
func (c cliHookCall) keys() []string {
	var ks []string
	for k := range c.fields {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// hookCalls returns the hook's inputs in the order they came.
func (p *cliProject) hookCalls() []cliHookCall {
	p.t.Helper()
	names, err := filepath.Glob(filepath.Join(p.hookLog, "call-*"))
	if err != nil {
		p.t.Fatal(err)
	}
	names = slices.DeleteFunc(names, func(s string) bool { return strings.HasSuffix(s, ".env") })
	sort.Strings(names)
	var calls []cliHookCall
	for _, name := range names {
		raw, err := os.ReadFile(name)
		if err != nil {
			p.t.Fatal(err)
		}
		envData, err := os.ReadFile(name + ".env")
		if err != nil {
			p.t.Fatal(err)
		}
		c := cliHookCall{raw: raw, env: strings.Split(strings.TrimSuffix(string(envData), "\n"), "\n")}
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

// oneHookCall checks that the hook ran exactly once, for event and tool,
// with want among the tool's input fields, and the project as cwd.
func (p *cliProject) oneHookCall(event, tool string, want map[string]any) cliHookCall {
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
	if c.event != event || c.tool != tool {
		p.t.Errorf("hook_event_name, tool_name = %q, %q; want %q, %q", c.event, c.tool, event, tool)
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

// replayHook runs a logged hook input through guard hook again, with args
// (outside the sandbox: guard only decides), and returns its exit code,
// stdout and stderr.
func replayHook(t *testing.T, c cliHookCall, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(buildGuard(t), append([]string{"hook"}, args...)...)
	cmd.Stdin = bytes.NewReader(c.raw)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + c.getenv("HOME")}
	for _, k := range []string{"CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "SHELL"} {
		if v := c.getenv(k); v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	code := 0
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

// gitOrigin makes a bare repository at root/origin.git whose main is one
// commit, and a clone of it as the project whose main is another commit
// that does not descend from it: only a forced push changes origin's
// main. It returns origin's main.
func (p *cliProject) gitOrigin() string {
	p.t.Helper()
	origin := filepath.Join(p.root, "origin.git")
	git := func(dir string, args ...string) string {
		p.t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.com",
			"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+p.home)
		out, err := cmd.CombinedOutput()
		if err != nil {
			p.t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(p.root, "init", "-q", "--bare", "-b", "main", origin)
	git(p.dir, "init", "-q", "-b", "main")
	writeFile(p.t, p.dir, "a.txt", "one\n")
	git(p.dir, "add", "a.txt")
	git(p.dir, "commit", "-q", "-m", "one")
	git(p.dir, "remote", "add", "origin", origin)
	git(p.dir, "push", "-q", "origin", "main")
	git(p.dir, "commit", "-q", "--amend", "-m", "rewritten")
	p.writable = append(p.writable, origin)
	return git(origin, "rev-parse", "main")
}

// originMain returns the main of the project's origin now.
func (p *cliProject) originMain() string {
	p.t.Helper()
	out, err := exec.Command("git", "-C", filepath.Join(p.root, "origin.git"), "rev-parse", "main").Output()
	if err != nil {
		p.t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
