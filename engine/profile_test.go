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

// TestSandboxUnbound: a part whose rule is unbound (kubectl, which needs
// the network and the kubeconfig the sandbox withholds) runs as it is,
// saying why, beside parts that act on the agent's shell alone; beside
// any other part, which would lose its bound with it, it asks, as it does
// in read-only mode and where [sandbox] require holds. A layer cannot
// take a part out of the sandbox another layer puts it in.
func TestSandboxUnbound(t *testing.T) {
	_, tree := fixtureWorld(t)
	const kubectl = `
[command.kubectl]
unbound = "it reaches the cluster with the kubeconfig"
[command.kubectl.sub.get]
verdict = "allow"
[command.kubectl.sub.check]
verdict = "allow"
sandbox = "test"
`
	load := func(name, src string) *policy.Policy {
		t.Helper()
		p, err := Load(name, strings.NewReader("version = 1\nextends = \"default\"\n"+src))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	unbound := load("unbound", kubectl)
	bound := load("bound", "[command.kubectl.sub.get]\nverdict = \"allow\"\n")
	require := load("require", kubectl+"[sandbox]\nrequire = true\n")
	e := &Engine{Layers: &policy.Layers{User: unbound}}
	run := []string{"/g", "run"}
	const why = "it runs outside the sandbox, as its rule says: it reaches the cluster with the kubeconfig"
	for _, tc := range []struct {
		e        *Engine
		command  string
		grants   bool
		readOnly bool
		want     Verdict
		profile  string // as RunProfile names it; "none" for no rewrite
		reason   string // in the reason
	}{
		{e, "kubectl get pods", false, false, Allow, "none", why},
		{e, "kubectl get pods && kubectl get svc", false, false, Allow, "none", why},
		{e, "kubectl get pods 2>&1", false, false, Allow, "none", why},
		{e, "kubectl get pods 2>/dev/null", false, false, Allow, "none", why},
		{e, "NO_COLOR=1 kubectl get pods", false, false, Allow, "none", why},
		{e, "cd docs && kubectl get pods", false, false, Allow, "none", why},
		{e, "timeout 5 kubectl get pods", false, false, Allow, "none", why},
		// A subcommand that names a profile runs in it.
		{e, "kubectl check", false, false, Allow, "test", "kubectl check is allowed"},
		// Any other part would run outside with it.
		{e, "kubectl get pods | grep web", false, false, Ask, "none", "and grep web would run outside with it"},
		{e, "git status && kubectl get pods", false, false, Ask, "none", "and git status would run outside with it"},
		{e, "echo \"$(whoami)\"; kubectl get pods", false, false, Ask, "none", "would run outside with it"},
		{e, "kubectl get pods > pods.txt", true, false, Ask, "none", "and >pods.txt would run outside with it"},
		{e, "kubectl get pods && kubectl check", false, false, Ask, "none", "and kubectl check would run outside with it"},
		{e, "kubectl get pods; python3 -c 'print(1)'", false, false, Ask, "none", "would run outside with it"},
		{e, "kubectl get pods", false, true, Deny, "none", "read-only mode"},
		{&Engine{Layers: &policy.Layers{User: require}}, "kubectl get pods", false, false, Ask, "none", "the policy requires the sandbox for shell commands, and kubectl get pods runs outside it"},
		// Both layers must say so; the project that does not keeps it in.
		{&Engine{Layers: &policy.Layers{User: unbound, Project: unbound}}, "kubectl get pods", false, false, Allow, "none", why},
		{&Engine{Layers: &policy.Layers{User: unbound, Project: bound}}, "kubectl get pods", false, false, Allow, "write", "every part is allowed: kubectl get pods"},
		{&Engine{Layers: &policy.Layers{User: bound, Project: unbound}}, "kubectl get pods", false, false, Allow, "write", "every part is allowed: kubectl get pods"},
		{&Engine{Layers: &policy.Layers{User: bound, Project: unbound, Managed: unbound}}, "kubectl get pods", false, false, Allow, "write", "every part is allowed: kubectl get pods"},
		{&Engine{Layers: &policy.Layers{User: unbound, Project: unbound, Managed: bound}}, "kubectl get pods", false, false, Allow, "write", "every part is allowed: kubectl get pods"},
	} {
		t.Logf("input: %q (grants %v, read-only %v)", tc.command, tc.grants, tc.readOnly)
		c := profileCall(tree, tc.command, run, tc.grants)
		c.ReadOnly = tc.readOnly
		d := tc.e.Decide(c)
		got := "none"
		if d.Rewrite != nil {
			got = RunProfile(run, d.Rewrite.Command)
		}
		if d.Verdict != tc.want || got != tc.profile || !strings.Contains(d.Reason(), tc.reason) {
			t.Errorf("%q: %s in %s: %s; want %s in %s: %s", tc.command, d.Verdict, got, d.Reason(), tc.want, tc.profile, tc.reason)
		}
		if d.Verdict == Ask && !strings.Contains(d.Reason(), "read-only") && !strings.Contains(d.Reason(), "requires") && d.Hint() != "run kubectl get pods alone, without the other commands: its output comes back to you" {
			t.Errorf("%q: hint %q", tc.command, d.Hint())
		}
	}
	// Where the sandbox cannot run, it runs as it would anyway.
	if d := e.Decide(profileCall(tree, "kubectl get pods", nil, false)); d.Verdict != Allow || d.Rewrite != nil {
		t.Errorf("kubectl get pods without the sandbox: %s, rewrite %+v", d.Verdict, d.Rewrite)
	}
}
