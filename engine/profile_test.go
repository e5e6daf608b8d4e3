// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"strings"
	"testing"

	"guard/policy"
	"guard/shellparse"
)

// grantAll grants every session-tier part of every call, as a session
// whose user approved them all.
type grantAll struct{}

func (grantAll) Granted(string, Scope) string { return "g1" }

// profileCall is a Bash call in the fixture world's project, where guard
// run's command line is run (nil: the sandbox cannot run here).
func profileCall(tree FS, command string, run []string, grants bool) Call {
	c := Call{Tool: "Bash", Input: Input{Command: command}, Cwd: "/proj", Project: "/proj", Home: "/fixture-home",
		Temp: "/tmp", Guard: "/g", Shell: "bash", FS: tree, Run: run, Session: "s"}
	if run == nil {
		c.NoRun = "no Landlock here"
	}
	if grants {
		c.Grants = grantAll{}
	}
	return c
}

// TestSandboxProfiles: in the default mode every allowed shell call comes
// back rewritten to run under guard run, in the profile its parts need:
// read-only for what only reads and for code given to an interpreter,
// none (the project writable) for the writes the policy let it make,
// build or test for what runs the project's code. Parts that need
// profiles no one holds ask; what acts on the agent's shell alone runs as
// it is. Every rewrite reads back (Unsandbox) as the call it runs.
func TestSandboxProfiles(t *testing.T) {
	p, tree := fixtureWorld(t)
	e := &Engine{Layers: &policy.Layers{User: p}}
	run := []string{"/g", "run"}
	for _, tc := range []struct {
		command string
		grants  bool // the session granted every session-tier part
		want    Verdict
		profile string // as RunProfile names it; "none" for no rewrite
	}{
		// Calls that only read.
		{"git status", false, Allow, "read-only"},
		{"cat main.go | wc -l", false, Allow, "read-only"},
		{"ls docs 2>/dev/null", false, Allow, "read-only"},
		{"cd docs && ls", false, Allow, "read-only"},
		{"echo hi | wc -c", false, Allow, "read-only"},
		// Writes the policy let the call make, once the session granted them.
		{"touch x", true, Allow, "write"},
		{"mkdir -p out", true, Allow, "write"},
		{"sed -i s/a/b/ main.go", true, Allow, "write"},
		{"git log > log.txt", true, Allow, "write"},
		{"touch x && git status", true, Allow, "write"}, // a read fits in any profile
		{"touch x", false, Ask, "none"},
		// The project's code: go, cargo, the test runners.
		{"go build ./...", false, Allow, "build"},
		{"go vet ./...", false, Allow, "build"},
		{"go test ./...", false, Allow, "test"},
		{"go run ./cmd/tool -v", false, Allow, "test"},
		{"go vet ./... && go test ./...", false, Allow, "test"}, // test holds build
		{"go test ./... 2>&1 | tail -5", false, Allow, "test"},
		{"timeout 60 go test ./...", false, Allow, "test"},
		{"cargo build", false, Allow, "build"},
		{"cargo check", false, Allow, "build"},
		{"cargo clippy", false, Allow, "build"},
		{"cargo doc", false, Allow, "build"},
		{"cargo fmt --check", false, Allow, "build"},
		{"cargo test", false, Allow, "test"},
		{"cargo run", false, Allow, "test"},
		{"npm test", false, Allow, "test"},
		{"make test", false, Allow, "test"},
		{"cd docs && make test", false, Allow, "test"},
		// Code given to an interpreter, and the scripts the agent names.
		{"python3 -c 'print(1)'", false, Allow, "read-only"},
		{"python3 tools/gen.py --out x", false, Allow, "read-only"},
		{"python -m pytest", false, Allow, "read-only"},
		{"node -e 'console.log(1)'", false, Allow, "read-only"},
		{"node scripts/build.js", false, Allow, "read-only"},
		{"node --test", false, Allow, "read-only"},
		{"echo 'print(1)' | python3", false, Allow, "read-only"},
		// Parts that need profiles no one holds: ask, saying to split.
		{"python3 -c 'print(1)' > out.txt", true, Ask, "none"},
		{"touch x && python3 x.py", true, Ask, "none"},
		{"python3 x.py && go test ./...", false, Ask, "none"},
		{"touch x && go test ./...", true, Ask, "none"},
		{"go build ./... > build.log", true, Ask, "none"},
		// The agent's own shell: as it is.
		{"cd docs", false, Allow, "none"},
		{"cd /proj/docs && pwd", false, Allow, "none"},
		{"true", false, Allow, "none"},
		{"false", false, Allow, "none"},
		{"export NO_COLOR=1", false, Allow, "none"},
		{"cd docs && true", false, Allow, "none"},
		{"echo hi", false, Allow, "none"},
		{"printf '%s\\n' a b", false, Allow, "none"},
		{"echo \"$(whoami)\"", false, Allow, "read-only"},  // whoami runs
		{"echo hi > /dev/null", false, Allow, "read-only"}, // a redirection
		{"echo $HOME", false, Allow, "read-only"},          // an expansion
		// A recursive search of a tree that holds a .env: the read-only
		// sandbox hides it. A link to the home's secrets it may not.
		{"grep -rn TOKEN web", false, Allow, "read-only"},
		{"grep -rn TOKEN web && grep -rn x docs", false, Allow, "read-only"},
		{"rg --hidden TOKEN web", false, Allow, "read-only"},
		{"find web -name '*.js' -exec grep -n x {} +", false, Allow, "read-only"},
		{"grep -rn TOKEN web > hits.txt", true, Ask, "none"},
		{"grep -rn x .", false, Ask, "none"},                  // the link to ~/.ssh
		{"grep -rn x keys", false, Deny, "none"},              // the link itself
		{"grep -rn x /fixture-home/code", false, Ask, "none"}, // outside the project
	} {
		t.Logf("input: %q (grants %v)", tc.command, tc.grants)
		c := profileCall(tree, tc.command, run, tc.grants)
		d := e.Decide(c)
		got := "none"
		if d.Rewrite != nil {
			got = RunProfile(run, d.Rewrite.Command)
		}
		if d.Verdict != tc.want || got != tc.profile {
			t.Errorf("%q: %s in %s: %s; want %s in %s", tc.command, d.Verdict, got, d.Reason(), tc.want, tc.profile)
			continue
		}
		if d.Rewrite == nil {
			continue
		}
		dir, body, _ := shellparse.Canonical(tc.command, shellparse.Options{})
		if dir != "" {
			body = dir + " && " + body
		}
		if inner, di, ok := e.Unsandbox(profileCall(tree, d.Rewrite.Command, run, tc.grants)); !ok || di.Verdict != Allow || inner.Input.Command != body {
			t.Errorf("%q: the rewrite %q reads back as %q, %s, %v; want %q allowed", tc.command, d.Rewrite.Command, inner.Input.Command, di.Verdict, ok, body)
		}
	}
}

// TestSandboxRewrite: the exact command an allowed call is rewritten to:
// guard run's flags for the profile, a leading cd kept in the agent's
// shell, the body as guard parsed it.
func TestSandboxRewrite(t *testing.T) {
	p, tree := fixtureWorld(t)
	e := &Engine{Layers: &policy.Layers{User: p}}
	for _, tc := range []struct {
		command string
		run     []string
		want    string
	}{
		{"git status", []string{"/g", "run"}, `'/g' 'run' '--read-only' -- bash --noprofile --norc -c 'git status'`},
		{"cd /proj/docs && go test ./...", []string{"/g", "run"}, `cd /proj/docs && '/g' 'run' '--profile' 'test' -- bash --noprofile --norc -c 'go test ./...'`},
		{"go  build ./...", []string{"/g", "run", "--config", "/p/x.toml"}, `'/g' 'run' '--config' '/p/x.toml' '--profile' 'build' -- bash --noprofile --norc -c 'go build ./...'`},
		{"python3 -c 'print(1)'", []string{"/g", "run"}, `'/g' 'run' '--read-only' -- bash --noprofile --norc -c 'python3 -c '\''print(1)'\'''`},
	} {
		t.Logf("input: %q", tc.command)
		d := e.Decide(profileCall(tree, tc.command, tc.run, false))
		if d.Verdict != Allow || d.Rewrite == nil || d.Rewrite.Command != tc.want {
			t.Errorf("%q: %s, rewrite %+v; want %s", tc.command, d.Verdict, d.Rewrite, tc.want)
		}
	}
	// A rewrite read back must be the one guard writes, flags and all: one
	// that drops or swaps the profile is no rewrite of guard's.
	run := []string{"/g", "run"}
	for _, bad := range []string{
		`'/g' 'run' -- bash --noprofile --norc -c 'go test ./...'`,
		`'/g' 'run' '--profile' 'build' -- bash --noprofile --norc -c 'go test ./...'`,
		`'/g' 'run' '--profile' 'test' '--profile' 'net' -- bash --noprofile --norc -c 'go test ./...'`,
		`'/g' 'run' -- bash --noprofile --norc -c 'git status'`,
		`'/g' 'run' '--profile' 'test' -- bash --noprofile --norc -c 'git status'`,
		`'/g' 'run' '--read-only' -- bash --noprofile --norc -c 'go build ./...'`,
	} {
		t.Logf("input: %q", bad)
		if inner, _, ok := e.Unsandbox(profileCall(tree, bad, run, false)); ok {
			t.Errorf("Unsandbox(%q) = %q: read back as guard's rewrite", bad, inner.Input.Command)
		}
	}
	// Read-only mode: guard hook --read-only gives --read-only already.
	c := profileCall(tree, "grep -rn TOKEN web", []string{"/g", "run", "--read-only"}, false)
	c.ReadOnly = true
	if d := e.Decide(c); d.Verdict != Allow || d.Rewrite == nil || d.Rewrite.Command != `'/g' 'run' '--read-only' -- bash --noprofile --norc -c 'grep -rn TOKEN web'` {
		t.Errorf("grep -rn over a .env in read-only mode: %s, rewrite %+v", d.Verdict, d.Rewrite)
	}
}

// TestSandboxUnavailable: where guard run cannot run, what runs the
// project's code or is allowed only in the sandbox asks, saying why; what
// only reads or writes as granted runs as judged, and the reason says it
// runs unbounded and why; [sandbox] require asks for every shell call but
// those on the agent's shell alone.
func TestSandboxUnavailable(t *testing.T) {
	p, tree := fixtureWorld(t)
	e := &Engine{Layers: &policy.Layers{User: p}}
	require, err := Load("require", strings.NewReader("version = 1\nextends = \"default\"\n[sandbox]\nrequire = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	strict := &Engine{Layers: &policy.Layers{User: require}}
	for _, tc := range []struct {
		e       *Engine
		command string
		grants  bool
		want    Verdict
		why     string // in the reason
	}{
		{e, "go test ./...", false, Ask, "go test ./... is allowed only in the sandbox, and it cannot run here: no Landlock here"},
		{e, "cargo build", false, Ask, "no Landlock here"},
		{e, "python3 -c 'print(1)'", false, Ask, "no Landlock here"},
		{e, "npm test", false, Ask, "no Landlock here"},
		{e, "git status", false, Allow, "git status is allowed; it runs outside the sandbox, on guard's judgment alone: no Landlock here"},
		{e, "touch x", true, Allow, "outside the sandbox, on guard's judgment alone: no Landlock here"},
		{e, "grep -rn TOKEN web", false, Ask, "which holds the secret /proj/web/.env"},
		{e, "cd docs", false, Allow, "cd is allowed"},
		{strict, "git status", false, Ask, "the policy requires the sandbox for shell commands, and it cannot run here: no Landlock here"},
		{strict, "cd docs", false, Allow, "cd is allowed"},
	} {
		t.Logf("input: %q", tc.command)
		d := tc.e.Decide(profileCall(tree, tc.command, nil, tc.grants))
		if d.Verdict != tc.want || d.Rewrite != nil || !strings.Contains(d.Reason(), tc.why) {
			t.Errorf("%q: %s, rewrite %+v: %s; want %s: %s", tc.command, d.Verdict, d.Rewrite, d.Reason(), tc.want, tc.why)
		}
	}
	if d := e.Decide(profileCall(tree, "cd docs", nil, false)); strings.Contains(d.Reason(), "sandbox") {
		t.Errorf("cd docs: %s: the shell's own state needs no sandbox", d.Reason())
	}
}
