// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	guardsandbox "guard/sandbox"
)

// TestJailSession plays one working session through the real Claude Code,
// guard registered for PreToolUse and PostToolUse, in a home like a
// developer's (git's configuration with an alias, a gh token, an AWS key,
// an SSH key) and a Go module under git with a .env. The model looks at
// git, searches the tree, builds, tests, edits and commits; every Bash
// call guard allows runs rewritten under guard run, in the profile its
// parts need, and the model gets its output but none of the secrets.
// Then guard log must tell that story: each call allowed, in its
// profile, and run.
//
// The edit and the commit are of the session tier in the default policy,
// and claude -p cannot grant them: it refuses a hook's ask without asking
// anyone (a PermissionRequest hook that approves is not even called), so
// no call of that tier runs and no PostToolUse grants it. This test's
// user allows them in their own policy instead: the default's git rules
// with git add and git commit allowed (a policy's rule for git replaces
// the default's whole), and writes by the file tools allowed. git add -A
// still asks (it would stage untracked files), so the session stages with
// git add -u.
func TestJailSession(t *testing.T) {
	t.Parallel()
	if err := guardsandbox.Available(); err != nil {
		t.Skipf("guard run cannot run here: %v", err)
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on the PATH: the session builds and tests a Go module")
	}
	if gobin, err = filepath.EvalSymlinks(gobin); err != nil {
		t.Fatal(err)
	}
	const (
		envSecret = "e2e-env-secret-3f9c"
		sshKey    = "e2e-ssh-key-d41e"
		awsKey    = "AKIAE2ESESSION7Q2W"
		ghToken   = "gho_e2eSessionToken4c1d"
		bashrc    = "# the developer's own bashrc\n"
	)
	p := newProject(t)
	gocache := sessionGoCache(t)
	p.env = []string{
		"PATH=" + filepath.Dir(gobin) + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=", "GOCACHE=" + gocache,
		// After five turns without text, Claude Code ends the next request
		// with a system message ("The user hasn't heard from you in a
		// while"), where the scripted model looks for the tool's result.
		"CLAUDE_CODE_SILENT_TURN_REMINDER_TURNS=100",
	}
	p.binds = []string{gocache}

	p.writeHome(".gitconfig", "[user]\n\tname = Dev Eloper\n\temail = dev@example.com\n[alias]\n\tlg = log --oneline\n")
	p.writeHome(".config/gh/hosts.yml", "github.com:\n    oauth_token: "+ghToken+"\n    user: dev\n")
	p.writeHome(".aws/credentials", "[default]\naws_access_key_id = "+awsKey+"\naws_secret_access_key = e2e/not/a/real/key\n")
	p.writeHome(".ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n"+sshKey+"\n-----END OPENSSH PRIVATE KEY-----\n")
	p.writeHome(".bashrc", bashrc)
	p.writeHome(".config/guard/guard.toml", sessionPolicy(t))

	p.write("go.mod", "module example.com/hello\n\ngo 1.26\n")
	p.write("README.md", "# hello\n")
	p.write(".gitignore", ".env\n.claude/\n")
	p.write(".env", "SECRETWORD="+envSecret+"\n")
	p.write("greet/greet.go", `package greet

import "strings"

// SECRETWORD is no secret in the source: grep finds this line.
const word = "hello"

// Hello greets.
func Hello() string { return strings.TrimSpace(word) }
`)
	// The test reaches for what a test should not: the keys and tokens in
	// the home, the shell's rc file, git's hooks. It logs what it got; the
	// jail has a home of its own, where a write may go through and is
	// thrown away.
	p.write("greet/greet_test.go", `package greet

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHello(t *testing.T) {
	t.Parallel()
	if Hello() != "hello" {
		t.Fatal("no greeting")
	}
}

func TestReach(t *testing.T) {
	t.Parallel()
	home := os.Getenv("HOME")
	for _, name := range []string{".ssh/id_rsa", ".aws/credentials", ".config/gh/hosts.yml"} {
		if data, err := os.ReadFile(filepath.Join(home, name)); err != nil {
			t.Logf("JAIL read %s: out of reach: %v", name, err)
		} else {
			t.Errorf("JAIL read %s: %q", name, data)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("echo planted\n"), 0o644); err != nil {
		t.Logf("JAIL write .bashrc refused: %v", err)
	} else {
		t.Logf("JAIL write .bashrc: no error")
	}
	if err := os.WriteFile("../.git/hooks/pre-commit", []byte("#!/bin/sh\necho planted\n"), 0o755); err != nil {
		t.Logf("JAIL write .git/hooks/pre-commit refused: %v", err)
	} else {
		t.Errorf("JAIL write .git/hooks/pre-commit")
	}
}
`)
	// The fixture's git, outside: it makes the repository and reads it
	// back, and runs nothing of the session's.
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = p.dir
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + p.home, "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C"}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	git("init", "-q", "-b", "main")
	git("add", "go.mod", "README.md", ".gitignore", "greet")
	git("commit", "-q", "-m", "init")
	hooks := filepath.Join(p.dir, ".git", "hooks")
	hooksBefore := treeDigest(t, hooks)

	p.claudeSettings([]string{"PreToolUse", "PostToolUse"}, nil)
	greet := filepath.Join(p.dir, "greet", "greet.go")
	type step struct {
		tool    string
		input   map[string]any
		call    string // the call in guard's log
		profile string // guard run's profile, for a Bash call
	}
	bash := func(command, profile string) step {
		return step{"Bash", map[string]any{"command": command}, command, profile}
	}
	steps := []step{
		bash("git status", "read-only"),
		bash("grep -rn SECRETWORD .", "read-only"),
		bash("go build ./...", "build"),
		bash("go test -count=1 -v ./...", "test"),
		{"Read", map[string]any{"file_path": greet}, "Read " + greet, ""},
		{"Edit", map[string]any{"file_path": greet, "old_string": `"hello"`, "new_string": `"hello, world"`}, "Edit " + greet, ""},
		bash("git add -u && git commit -m wip", "write"),
	}
	var script []any
	for _, s := range steps {
		script = append(script, s.tool, s.input)
	}
	p.api = newFakeAPISeq(t, script...)
	start := time.Now()
	o := p.run("Bash", "Read", "Edit")
	t.Logf("the session took %.1fs", time.Since(start).Seconds())
	if got, _ := o.result["result"].(string); got != finalText {
		t.Errorf("claude's result = %q, want the fake model's final answer %q\nstdout: %s", got, finalText, o.stdout)
	}
	results := p.toolResults()
	result := func(i int) toolResult {
		t.Helper()
		r, ok := results[callID(i)]
		if !ok {
			t.Fatalf("no tool_result for call %d (%s)\nrequests:\n%s\nstdout: %s\nstderr: %s", i+1, steps[i].call, p.api.Summary(), o.stdout, o.stderr)
		}
		t.Logf("call %d, %s: tool_result (is_error=%v):\n%s", i+1, steps[i].call, r.IsError, r.Text)
		return r
	}

	// 1. git status, read-only: git reads the user's configuration.
	if r := result(0); r.IsError || !strings.Contains(r.Text, "On branch main") || !strings.Contains(r.Text, "nothing to commit, working tree clean") ||
		strings.Contains(r.Text, "unable to access") || strings.Contains(r.Text, "warning:") {
		t.Errorf("git status: the model did not get git's own output: %q", r.Text)
	}
	// 2. grep of a tree that holds .env: the source's line, not the secret.
	// (The jail hides .env behind a file that cannot be opened: grep says
	// so, and exits 2.)
	if r := result(1); !strings.Contains(r.Text, "./greet/greet.go:5:// SECRETWORD is no secret in the source") || strings.Contains(r.Text, envSecret) {
		t.Errorf("grep: want the source's line, and not the secret in .env: %q", r.Text)
	}
	// 3. go build, in the build profile: it prints nothing when it works.
	if r := result(2); r.IsError || strings.Contains(r.Text, "go: ") || strings.Contains(r.Text, ".go:") {
		t.Errorf("go build failed: %q", r.Text)
	}
	// 4. go test, in the test profile: it passes, the keys and tokens of
	// the home were not there, and git's hooks were refused; what it wrote
	// to ~/.bashrc is checked outside, below.
	r := result(3)
	if r.IsError || !strings.Contains(r.Text, "--- PASS: TestHello") || !strings.Contains(r.Text, "--- PASS: TestReach") ||
		!strings.Contains(r.Text, "ok  \texample.com/hello/greet") {
		t.Errorf("go test did not pass: %q", r.Text)
	}
	for _, m := range []string{
		"JAIL read .ssh/id_rsa: out of reach", "JAIL read .aws/credentials: out of reach", "JAIL read .config/gh/hosts.yml: out of reach",
		"JAIL write .bashrc: ", "JAIL write .git/hooks/pre-commit refused: open ../.git/hooks/pre-commit: permission denied",
	} {
		if !strings.Contains(r.Text, m) {
			t.Errorf("go test: no %q in its output", m)
		}
	}
	for _, secret := range []string{sshKey, awsKey, ghToken} {
		if strings.Contains(r.Text, secret) {
			t.Errorf("go test read %q", secret)
		}
	}
	// 5. the read, the edit and the commit.
	if r := result(4); r.IsError || !strings.Contains(r.Text, "SECRETWORD is no secret") {
		t.Errorf("Read: %q", r.Text)
	}
	if r := result(5); r.IsError {
		t.Errorf("Edit: %q", r.Text)
	}
	if r := result(6); r.IsError || !strings.Contains(r.Text, "[main ") || !strings.Contains(r.Text, "] wip") {
		t.Errorf("the commit did not run: %q", r.Text)
	}

	// Outside: the commit landed, by the user of ~/.gitconfig, with the
	// edit; git's hooks and the user's ~/.bashrc are as they were.
	if got, want := git("log", "--format=%an <%ae> %s"), "Dev Eloper <dev@example.com> wip\nDev Eloper <dev@example.com> init\n"; got != want {
		t.Errorf("git log:\n%s\nwant:\n%s", got, want)
	}
	if got := git("show", "HEAD:greet/greet.go"); !strings.Contains(got, `const word = "hello, world"`) {
		t.Errorf("the commit does not hold the edit:\n%s", got)
	}
	if got := git("status", "--porcelain"); got != "" {
		t.Errorf("the work tree after the commit:\n%s", got)
	}
	if got := treeDigest(t, hooks); got != hooksBefore {
		t.Errorf(".git/hooks changed:\nbefore: %s\nafter:  %s", hooksBefore, got)
	}
	if data, err := os.ReadFile(filepath.Join(p.home, ".bashrc")); err != nil || string(data) != bashrc {
		t.Errorf("~/.bashrc changed: %q, %v", data, err)
	}

	// What Claude Code ran for each Bash call is guard's rewrite, in its
	// profile.
	for _, c := range p.hookCalls() {
		if c.event != "PostToolUse" || c.tool != "Bash" {
			continue
		}
		reported, _ := c.input["command"].(string)
		var id string
		json.Unmarshal(c.fields["tool_use_id"], &id)
		for i, s := range steps {
			if callID(i) != id {
				continue
			}
			flags := map[string]string{"read-only": "'--read-only' ", "build": "'--profile' 'build' ", "test": "'--profile' 'test' ", "write": ""}[s.profile]
			if !strings.HasSuffix(reported, "' 'run' "+flags+"-- bash --noprofile --norc -c '"+s.call+"'") {
				t.Errorf("call %d: Claude Code ran %q, want guard's rewrite of %q in profile %s", i+1, reported, s.call, s.profile)
			}
		}
	}

	// 6. guard log: each call allowed, in its profile, and run; its report
	// told as that call, not as a new command.
	lines := guardLog(t, p.home)
	var pres []logLine
	for i, l := range lines {
		t.Logf("guard log %d: %s %s %s (%s) profile=%q outcome=%q: %s", i+1, l.Event, l.Tool, l.Decision, l.Tier, l.Profile, l.Outcome, l.Call)
		switch {
		case l.Decision != "allowed":
			t.Errorf("guard log line %d: %s %s %s: %s", i+1, l.Event, l.Decision, l.Call, l.Reason)
		case strings.Contains(l.Call, "'run'"):
			t.Errorf("guard log line %d tells guard's own command line as a call: %s", i+1, l.Call)
		case l.Event == "PreToolUse":
			pres = append(pres, l)
		case l.Event != "PostToolUse":
			t.Errorf("guard log line %d: unexpected %s", i+1, l.Event)
		}
	}
	if len(pres) != len(steps) {
		t.Fatalf("guard log tells %d calls, want %d", len(pres), len(steps))
	}
	for i, s := range steps {
		if l := pres[i]; l.Tool != s.tool || l.Call != s.call || l.Profile != s.profile || l.Outcome != "ran" {
			t.Errorf("guard log, call %d: %s %q in profile %q, %q; want %s %q in profile %q, ran", i+1, l.Tool, l.Call, l.Profile, l.Outcome, s.tool, s.call, s.profile)
		}
	}
}

// sessionPolicy returns TestJailSession's user policy: the default, with
// writes by the file tools allowed, and its git rules with git add and git
// commit allowed rather than of the session tier.
func sessionPolicy(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../policy/default.toml")
	if err != nil {
		t.Fatal(err)
	}
	def := string(data)
	const banner = "# ----------------------------------------------------------------"
	i := strings.Index(def, banner+" git\n")
	j := strings.Index(def[i+1:], banner)
	if i < 0 || j < 0 {
		t.Fatal("policy/default.toml: no git section between banners")
	}
	gitRules := def[i : i+1+j]
	for _, edit := range [][2]string{
		{"[command.git.sub.add]\nverdict = \"session\"", "[command.git.sub.add]\nverdict = \"allow\""},
		{"[command.git.sub.commit]\nverdict = \"session\"", "[command.git.sub.commit]\nverdict = \"allow\""},
		{`examples = { ask = ["git commit -m 'fix parser'", "git commit -am wip", `, `examples = { allow = ["git commit -m 'fix parser'", "git commit -am wip"], ask = [`},
		{`examples = { ask = ["git add src/main.go", `, `examples = { allow = ["git add src/main.go"], ask = [`},
	} {
		if strings.Count(gitRules, edit[0]) != 1 {
			t.Fatalf("policy/default.toml's git rules do not hold %q once: update sessionPolicy", edit[0])
		}
		gitRules = strings.Replace(gitRules, edit[0], edit[1], 1)
	}
	return "version = 1\nextends = \"default\"\n\n[paths]\nwrite = \"allow\"\n\n" + gitRules
}

// sessionGoCache returns the Go build cache of TestJailSession's go
// commands: the e2e tests' own, kept beside the CLIs, so that only the
// first run builds the standard library, and the host's cache stays out
// of the commands' reach.
func sessionGoCache(t *testing.T) string {
	t.Helper()
	cache, err := e2eCache()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "gocache")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// toolResults returns the tool_result blocks Claude Code sent back, by
// the id of their tool_use.
func (p *project) toolResults() map[string]toolResult {
	out := map[string]toolResult{}
	for _, r := range p.api.Requests() {
		for _, m := range r.Messages {
			if m.Role != "user" {
				continue
			}
			for _, b := range m.blocks() {
				if b.Type == "tool_result" {
					out[b.ToolUseID] = b.result()
				}
			}
		}
	}
	return out
}

// treeDigest describes the files under dir: each name, mode and content.
func treeDigest(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v", strings.TrimPrefix(path, dir), fi.Mode())
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %q", data)
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// logLine is a step of guard log --json, as far as TestJailSession reads it.
type logLine struct {
	Event, Tool, Decision, Tier, Call, Profile, Outcome, Reason string
}

// guardLog returns the steps guard log tells for the home's state.
func guardLog(t *testing.T, home string) []logLine {
	t.Helper()
	cmd := exec.Command(buildGuard(t), "log", "--json")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() > 0 {
		t.Fatalf("guard log --json: %v: %s", err, errb.String())
	}
	var lines []logLine
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l logLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("guard log --json: %v: %s", err, sc.Text())
		}
		lines = append(lines, l)
	}
	return lines
}
