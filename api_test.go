// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package guard_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"guard"
	"guard/audit"
	"guard/policy"
)

// harnessTools is a small harness's tool set.
var harnessTools = []guard.ToolSpec{
	{Name: "read_file", Kind: guard.Read},
	{Name: "list_files", Kind: guard.List},
	{Name: "grep", Kind: guard.Search},
	{Name: "write_file", Kind: guard.Write},
	{Name: "edit_file", Kind: guard.Edit},
	{Name: "bash", Kind: guard.Shell},
}

// project makes a throwaway project and a scratch home.
func project(t *testing.T) (dir string, env func(string) string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(root, "proj")
	home := filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(dir, "src"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := map[string]string{"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
	return dir, func(k string) string { return m[k] }
}

func TestAPIDecide(t *testing.T) {
	dir, env := project(t)
	e, err := guard.Load(guard.Options{Env: env, Shell: "bash"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		call guard.Call
		want guard.Verdict
		rule string // the deciding rule, when it matters
		why  string // in the reason
	}{
		{guard.Call{Kind: guard.Shell, Tool: "bash", Command: "git status", Cwd: dir}, guard.Allow, "git status", "allowed"},
		{guard.Call{Kind: guard.Shell, Tool: "bash", Command: "rm -rf /", Cwd: dir}, guard.Deny, "rm -r", "recursively"},
		{guard.Call{Kind: guard.Shell, Command: "echo $(curl -s x.sh)", Cwd: dir}, guard.Deny, "", ""},
		{guard.Call{Kind: guard.Read, Tool: "read_file", Path: "src/a.go", Cwd: dir}, guard.Allow, "", ""},
		{guard.Call{Kind: guard.Read, Path: filepath.Join(env("HOME"), ".ssh", "id_rsa"), Cwd: dir}, guard.Deny, "", ""},
		{guard.Call{Kind: guard.Write, Path: "src/b.go", Cwd: dir}, guard.Ask, "", ""},
		{guard.Call{Kind: guard.Write, Path: filepath.Join(dir, ".git", "hooks", "pre-commit"), Cwd: dir}, guard.Deny, "", ""},
		{guard.Call{Kind: guard.Tool, Tool: "deploy_prod", Cwd: dir}, guard.Ask, "", ""},
		// Bad input: a deny that names the problem.
		{guard.Call{Kind: guard.Shell, Command: "ls", Cwd: "proj"}, guard.Deny, "", "not an absolute path"},
		{guard.Call{Kind: "exec", Command: "ls", Cwd: dir}, guard.Deny, "", `kind "exec"`},
		{guard.Call{Kind: guard.Tool, Cwd: dir}, guard.Deny, "", "names no tool"},
		{guard.Call{Kind: guard.Shell, Cwd: dir}, guard.Deny, "", "no command"},
		{guard.Call{Kind: guard.Read, Cwd: dir}, guard.Deny, "", ""},
	} {
		d := e.Decide(tc.call)
		if d.Verdict != tc.want || !strings.Contains(d.Reason, tc.why) || tc.rule != "" && d.Rule != tc.rule {
			t.Errorf("%+v: %+v; want %s, rule %q, a reason with %q", tc.call, d, tc.want, tc.rule, tc.why)
		}
		if d.Verdict != guard.Allow && d.Reason == "" {
			t.Errorf("%+v: %s without a reason", tc.call, d.Verdict)
		}
		if d.Verdict == guard.Allow && d.Hint != "" {
			t.Errorf("%+v: allowed with a hint %q", tc.call, d.Hint)
		}
	}
	if d := e.Decide(guard.Call{Kind: guard.Shell, Command: "rm -rf /", Cwd: dir}); d.Hint == "" {
		t.Errorf("rm -rf /: no hint: %+v", d)
	}
}

// TestAPIReadOnly: read-only mode offers exactly the reading tools, in
// their order, and denies every other whatever its input, with the reason.
// TestAPIReadOnlyKinds: in read-only mode the engine offers a kind of
// call exactly when policy.Tier.ReadOnly says its tier is read-only (the
// shell aside, which the policy's read_only_shell decides): one fact.
func TestAPIReadOnlyKinds(t *testing.T) {
	_, env := project(t)
	e, err := guard.Load(guard.Options{Env: env, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{guard.Read, guard.List, guard.Search, guard.Write, guard.Edit, guard.Fetch} {
		tier, ok := policy.TierNamed(kind)
		if !ok {
			t.Errorf("kind %s names no tier", kind)
		}
		if got := e.Offers(guard.ToolSpec{Name: "t", Kind: kind}); got != tier.ReadOnly() {
			t.Errorf("read-only mode offers %s: %v, want %v", kind, got, tier.ReadOnly())
		}
	}
}

func TestAPIReadOnly(t *testing.T) {
	dir, env := project(t)
	e, err := guard.Load(guard.Options{Env: env, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range e.Tools(harnessTools) {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); got != "read_file,list_files,grep" {
		t.Errorf("read-only offers %s", got)
	}
	for _, c := range []guard.Call{
		{Kind: guard.Write, Tool: "write_file", Path: "src/b.go", Cwd: dir},
		{Kind: guard.Edit, Tool: "edit_file", Path: "src/a.go", Cwd: dir},
		{Kind: guard.Shell, Tool: "bash", Command: "cat src/a.go", Cwd: dir},
		{Kind: guard.Shell, Tool: "bash", Command: "touch marker", Cwd: dir},
		{Kind: guard.Tool, Tool: "future_tool", Cwd: dir},
		{Kind: "", Tool: "Write", Cwd: dir},
	} {
		if d := e.Decide(c); d.Verdict != guard.Deny || !strings.Contains(d.Reason, "read-only") {
			t.Errorf("read-only %+v: %+v, want a read-only deny", c, d)
		}
	}
	if d := e.Decide(guard.Call{Kind: guard.Search, Tool: "grep", Pattern: "package", Cwd: dir}); d.Verdict != guard.Allow {
		t.Errorf("read-only grep: %+v", d)
	}
	// Without the mode, every tool is offered, in order.
	all, err := guard.Load(guard.Options{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if got := all.Tools(harnessTools); len(got) != len(harnessTools) {
		t.Errorf("the default policy offers %v of %v", got, harnessTools)
	}
	// The review profile is read-only by itself, and trusts guard's
	// judgment of read-only shell commands (read_only_shell): it offers
	// the shell too where the harness asks for it, and refuses a command
	// that writes.
	review, err := guard.Load(guard.Options{Env: env, Policy: "review"})
	if err != nil {
		t.Fatal(err)
	}
	if got := review.Tools(harnessTools); len(got) != 3 || review.Offers(guard.ToolSpec{Name: "bash", Kind: guard.Shell}) {
		t.Errorf("review, the shell not asked for, offers %v", got)
	}
	if d := review.Decide(guard.Call{Kind: guard.Shell, Command: "git log -3", Cwd: dir}); d.Verdict != guard.Deny {
		t.Errorf("review, the shell not asked for, git log: %+v", d)
	}
	review, err = guard.Load(guard.Options{Env: env, Policy: "review", ReadOnlyShell: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := review.Tools(harnessTools); len(got) != 4 || got[3].Name != "bash" || review.Offers(guard.ToolSpec{Name: "write_file", Kind: guard.Write}) {
		t.Errorf("review offers %v", got)
	}
	if d := review.Decide(guard.Call{Kind: guard.Shell, Command: "touch marker", Cwd: dir}); d.Verdict != guard.Deny {
		t.Errorf("review, touch: %+v", d)
	}
	if d := review.Decide(guard.Call{Kind: guard.Shell, Command: "git log -3", Cwd: dir}); d.Verdict != guard.Allow {
		t.Errorf("review, git log: %+v", d)
	}
}

// TestAPIReadOnlyShell: read-only mode offers the shell only where the
// harness asks for it and its commands can run read-only: in the
// sandbox, or where the policy says read_only_shell. A tool the policy's
// [tools] table makes a shell is offered as the shell kind is.
func TestAPIReadOnlyShell(t *testing.T) {
	dir, env := project(t)
	policyFile := filepath.Join(dir, "tools.toml")
	if err := os.WriteFile(policyFile, []byte("version = 1\nextends = \"default\"\n\n[tools]\nrun_shell = \"shell\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sandbox := []string{"/usr/local/bin/guard", "run", "--read-only"}
	for _, tc := range []struct {
		name string
		opts guard.Options
		want bool
	}{
		{"read-only", guard.Options{ReadOnly: true}, false},
		{"asked, no sandbox", guard.Options{ReadOnly: true, ReadOnlyShell: true}, false},
		{"sandbox, not asked", guard.Options{ReadOnly: true, Sandbox: sandbox}, false},
		{"asked, sandbox", guard.Options{ReadOnly: true, ReadOnlyShell: true, Sandbox: sandbox}, true},
		{"asked, review", guard.Options{ReadOnly: true, ReadOnlyShell: true, Policy: "review"}, true},
		{"not read-only", guard.Options{}, true},
	} {
		for _, config := range []string{"", policyFile} {
			opts := tc.opts
			opts.Env = env
			if config != "" {
				if opts.Policy != "" {
					continue
				}
				opts.Config = config
			}
			e, err := guard.Load(opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.Offers(guard.ToolSpec{Name: "bash", Kind: guard.Shell}); got != tc.want {
				t.Errorf("%s (%s): offers the shell: %v, want %v", tc.name, config, got, tc.want)
			}
			if config != "" {
				if got := e.Offers(guard.ToolSpec{Name: "run_shell"}); got != tc.want {
					t.Errorf("%s (%s): offers run_shell, a shell by [tools]: %v, want %v", tc.name, config, got, tc.want)
				}
			}
			d := e.Decide(guard.Call{Kind: guard.Shell, Tool: "bash", Command: "git status", Cwd: dir})
			if got := d.Verdict == guard.Allow; got != tc.want {
				t.Errorf("%s (%s): git status: %+v", tc.name, config, d)
			}
		}
	}
}

// TestAPIUnloaded: a zero engine, a nil one and a policy that does not
// load deny everything and offer nothing.
func TestAPIUnloaded(t *testing.T) {
	dir, _ := project(t)
	var zero guard.Engine
	var none *guard.Engine
	for name, e := range map[string]*guard.Engine{"zero": &zero, "nil": none} {
		if d := e.Decide(guard.Call{Kind: guard.Read, Path: "src/a.go", Cwd: dir}); d.Verdict != guard.Deny {
			t.Errorf("%s engine: %+v", name, d)
		}
		if got := e.Tools(harnessTools); len(got) != 0 {
			t.Errorf("%s engine offers %v", name, got)
		}
	}
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("version = 1\nextends = \"default\"\n\n[command.ls]\nverdict = \"maybe\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := guard.Load(guard.Options{Config: bad}); err == nil || !strings.Contains(err.Error(), "bad.toml:5") {
		t.Errorf("a bad policy: %v, want its file and line", err)
	}
	if _, err := guard.Load(guard.Options{Policy: "nope"}); err == nil {
		t.Error("an unknown embedded policy loaded")
	}
	if _, err := guard.Load(guard.Options{Shell: "fish"}); err == nil {
		t.Error("shell fish was taken")
	}
}

// TestAPIReload: a policy file that changes is loaded again; while it does
// not load every call is denied with its error, and the last good policy
// does not decide.
func TestAPIReload(t *testing.T) {
	dir, env := project(t)
	file := filepath.Join(dir, "policy.toml")
	write := func(src string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("version = 1\nextends = \"default\"\n")
	e, err := guard.Load(guard.Options{Config: file, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	make := guard.Call{Kind: guard.Shell, Command: "make build", Cwd: dir}
	if d := e.Decide(make); d.Verdict == guard.Allow {
		t.Fatalf("make before: %+v", d)
	}
	write("version = 1\nextends = \"default\"\n\n[command.make]\nverdict = \"allow\"\n# longer\n")
	if err := e.Reload(); err != nil {
		t.Fatal(err)
	}
	if d := e.Decide(make); d.Verdict != guard.Allow {
		t.Errorf("make after the change: %+v", d)
	}
	write("version = 1\nextends = \"default\"\n[command.make]\nverdict = \"sometimes\"\n")
	if err := e.Reload(); err == nil {
		t.Error("a broken policy reloaded")
	}
	if d := e.Decide(make); d.Verdict != guard.Deny || !strings.Contains(d.Reason, "policy.toml:4") {
		t.Errorf("make with the policy broken: %+v, want a deny naming the file and line", d)
	}
	write("version = 1\nextends = \"default\"\n")
	if err := e.Reload(); err != nil {
		t.Fatal(err)
	}
	if d := e.Decide(make); d.Verdict == guard.Allow || d.Verdict == guard.Deny && strings.Contains(d.Reason, "does not load") {
		t.Errorf("make with the policy fixed: %+v", d)
	}
}

// TestAPIConcurrent decides from many goroutines at once (run with -race).
func TestAPIConcurrent(t *testing.T) {
	dir, env := project(t)
	e, err := guard.Load(guard.Options{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 50 {
				c := guard.Call{Kind: guard.Shell, Command: "git log -1 && git diff", Cwd: dir}
				if i%2 == 1 {
					c = guard.Call{Kind: guard.Shell, Command: "rm -rf src", Cwd: dir}
				}
				d := e.Decide(c)
				if want := map[bool]guard.Verdict{false: guard.Allow, true: guard.Deny}[i%2 == 1]; d.Verdict != want {
					t.Errorf("%q: %+v", c.Command, d)
					return
				}
				e.Reload()
				e.Tools(harnessTools)
			}
		})
	}
	wg.Wait()
}

// TestAPIApprove: the user's approval of an ask grants the session tier
// for that session, as far as the grant reaches, and nothing else.
func TestAPIApprove(t *testing.T) {
	dir, env := project(t)
	if err := os.MkdirAll(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	e, err := guard.Load(guard.Options{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	write := func(session, path string) guard.Call {
		return guard.Call{Kind: guard.Write, Tool: "write_file", Path: path, Cwd: dir, Session: session}
	}
	if d := e.Decide(write("s1", "src/b.go")); d.Verdict != guard.Ask {
		t.Fatalf("a write before approval: %+v", d)
	}
	if d := e.Approve(write("s1", "src/b.go")); d.Verdict != guard.Allow {
		t.Errorf("the approved write: %+v", d)
	}
	for _, tc := range []struct {
		call guard.Call
		want guard.Verdict
	}{
		{write("s1", "src/c.go"), guard.Allow},     // the directory's grant
		{write("s1", "docs/readme.md"), guard.Ask}, // another directory
		{write("s2", "src/c.go"), guard.Ask},       // another session
		{write("", "src/c.go"), guard.Ask},         // no session
		{write("s1", ".git/config"), guard.Deny},   // never granted
		{write("s1", "src/../../x"), guard.Ask},    // outside the project: not the grant's
	} {
		if d := e.Decide(tc.call); d.Verdict != tc.want {
			t.Errorf("%s %s: %+v, want %s", tc.call.Session, tc.call.Path, d, tc.want)
		}
	}
	// What asks each time stays an ask, and a deny a deny.
	push := guard.Call{Kind: guard.Shell, Command: "git push origin main", Cwd: dir, Session: "s1"}
	if d := e.Approve(push); d.Verdict != guard.Ask {
		t.Errorf("git push approved: %+v", d)
	}
	if d := e.Approve(guard.Call{Kind: guard.Shell, Command: "rm -rf src", Cwd: dir, Session: "s1"}); d.Verdict != guard.Deny {
		t.Errorf("rm -rf approved: %+v", d)
	}
	if d := e.Approve(write("", "docs/a.md")); d.Verdict != guard.Ask {
		t.Errorf("a write without a session approved: %+v", d)
	}
}

// TestAPILog: with Log, every decision is a line of the decision log in
// guard's state directory, by the harness's name; an approval rests on
// the user's word; without Log nothing is written.
func TestAPILog(t *testing.T) {
	dir, env := project(t)
	state := filepath.Join(filepath.Dir(dir), "home", ".local", "state", "guard", "log")
	quiet, err := guard.Load(guard.Options{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	quiet.Decide(guard.Call{Kind: guard.Shell, Command: "git status", Cwd: dir, Session: "s0"})
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Fatalf("without Log, the log is there: %v", err)
	}
	e, err := guard.Load(guard.Options{Env: env, Log: true, Harness: "my-harness"})
	if err != nil {
		t.Fatal(err)
	}
	write := guard.Call{Kind: guard.Write, Tool: "write_file", Path: "src/b.go", Cwd: dir, Session: "s1"}
	e.Decide(guard.Call{Kind: guard.Shell, Command: "git status", Cwd: dir, Session: "s1"})
	e.Decide(write)
	e.Approve(write)
	e.Decide(guard.Call{Kind: guard.Shell, Command: "ls", Cwd: "rel", Session: "s1"})
	recs, problems, err := audit.Read(state)
	if err != nil || len(problems) > 0 {
		t.Fatalf("reading the log: %v %v", err, problems)
	}
	type line struct{ event, tool, decision, authority, call string }
	var got []line
	for _, r := range recs {
		e := r.Entry
		if e.Agent != "my-harness" || e.Session != "s1" {
			t.Errorf("entry of %q in session %q", e.Agent, e.Session)
		}
		got = append(got, line{e.Event, e.Tool, e.Decision, e.Authority, e.Call})
	}
	want := []line{
		{"PreToolUse", "shell", "allowed", "policy", "git status"},
		{"PreToolUse", "write_file", "asked", "policy", "write_file src/b.go"},
		{"approve", "write_file", "allowed", "user", "write_file src/b.go"},
		{"PreToolUse", "shell", "denied", "guard", "ls"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("the log:\n got %v\nwant %v", got, want)
	}
}

// TestAPISearchSecrets: a search of a tree that holds a secret is
// refused, unless the harness's search takes ripgrep's globs: then it is
// allowed, with the glob that leaves the secret out after the call's own.
// A glob that may name files outside the search's path is refused.
func TestAPISearchSecrets(t *testing.T) {
	dir, env := project(t)
	if err := os.WriteFile(filepath.Join(dir, "src", ".env"), []byte("TOKEN=x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	plain, err := guard.Load(guard.Options{Env: env, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	globs, err := guard.Load(guard.Options{Env: env, ReadOnly: true, SearchGlobs: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		e        *guard.Engine
		call     guard.Call
		want     guard.Verdict
		wantGlob string
	}{
		{"no globs", plain, guard.Call{Kind: guard.Search, Pattern: "TOKEN", Path: "src", Cwd: dir}, guard.Deny, ""},
		{"globs", globs, guard.Call{Kind: guard.Search, Pattern: "TOKEN", Path: "src", Cwd: dir}, guard.Allow, "!**/.env !**/.env.*"},
		{"own glob", globs, guard.Call{Kind: guard.Search, Pattern: "TOKEN", Path: "src", Glob: "*.go", Cwd: dir}, guard.Allow, "*.go !**/.env !**/.env.*"},
		{"no secret", globs, guard.Call{Kind: guard.Search, Pattern: "x", Path: "src/a.go", Cwd: dir}, guard.Allow, ""},
		{"the secret by name", globs, guard.Call{Kind: guard.Search, Pattern: "x", Path: "src/.env", Cwd: dir}, guard.Deny, ""},
		{"a glob outside", globs, guard.Call{Kind: guard.Search, Pattern: "x", Path: "src", Glob: "../*", Cwd: dir}, guard.Deny, ""},
		{"an absolute glob", plain, guard.Call{Kind: guard.Search, Pattern: "x", Path: "src", Glob: "/etc/*", Cwd: dir}, guard.Deny, ""},
	} {
		d := tc.e.Decide(tc.call)
		if d.Verdict != tc.want || d.Glob != tc.wantGlob {
			t.Errorf("%s: %+v, want %s with glob %q", tc.name, d, tc.want, tc.wantGlob)
		}
	}
}
