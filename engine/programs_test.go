// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"guard/policy"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gitWorld is a project with its own repository, an embedded bare
// repository whose configuration runs a program, a .git file that points
// out of the project, and a second repository next to the project.
func gitWorld(t *testing.T) (proj string, call func(cmd string) Call) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj = filepath.Join(root, "proj")
	mkGitDir := func(dir, config string) {
		for _, d := range []string{"objects", "refs/heads"} {
			if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		write(t, filepath.Join(dir, "HEAD"), "ref: refs/heads/main\n")
		write(t, filepath.Join(dir, "config"), config)
	}
	plain := "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
	mkGitDir(filepath.Join(proj, ".git"), plain)
	mkGitDir(filepath.Join(proj, "vendor/evil.git"), "[core]\n\tbare = true\n\tfsmonitor = touch /tmp/pwned\n")
	mkGitDir(filepath.Join(root, "other/.git"), plain)
	mkGitDir(filepath.Join(root, "filtered/.git"), "[filter \"x\"]\n\tclean = sh -c id\n")
	mkGitDir(filepath.Join(proj, ".git/modules/lib"), plain)
	write(t, filepath.Join(proj, "away/.git"), "gitdir: "+filepath.Join(root, "other/.git")+"\n")
	write(t, filepath.Join(proj, "lib/.git"), "gitdir: ../.git/modules/lib\n")
	if err := os.MkdirAll(filepath.Join(proj, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	return proj, func(cmd string) Call {
		return Call{Tool: "Bash", Input: Input{Command: cmd}, Cwd: proj, Project: proj, Home: filepath.Join(root, "home"), Temp: filepath.Join(root, "tmp")}
	}
}

// goRoot makes a temporary directory with a go 1.26.8 in goroot/bin, and
// returns the directory and the bin.
func goRoot(t *testing.T) (root, bin string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	bin = filepath.Join(root, "goroot/bin")
	write(t, filepath.Join(bin, "go"), "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(bin, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "goroot/VERSION"), "go1.26.8\ntime 2026-01-01T00:00:00Z\n")
	return root, bin
}

func write(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// decideCase is a command and the verdict it must get, with a part of the
// reason.
type decideCase struct {
	cmd  string
	want Verdict
	why  string
}

// decideTable decides each case's command with call and checks the verdict.
func decideTable(t *testing.T, p *policy.Policy, call func(string) Call, cases []decideCase) {
	t.Helper()
	for _, tc := range cases {
		d := Decide(p, call(tc.cmd))
		if d.Verdict != tc.want || !strings.Contains(d.Reason(), tc.why) {
			t.Errorf("%q: got %s: %s; want %s: ...%s...", tc.cmd, d.Verdict, d.Reason(), tc.want, tc.why)
		}
	}
}

func TestGitRepository(t *testing.T) {
	proj, call := gitWorld(t)
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	decideTable(t, p, call, []decideCase{
		{"git status", Allow, ""},
		{"git -C src log --oneline", Allow, ""},
		{"git -C lib status", Allow, ""}, // a submodule: its gitdir is in the project's
		{"git -C vendor/evil.git status", Ask, "not the project's own"},
		{"cd vendor/evil.git && git log", Ask, "not the project's own"},
		{"cd vendor/evil.git/refs && git status", Ask, "not the project's own"},
		{"git -C away status", Ask, "not the project's own"},
	})
	// The project's own configuration may run programs too.
	write(t, filepath.Join(proj, ".git/config"), "[core]\n\tbare = false\n[diff \"bin\"]\n\ttextconv = hexdump -C\n")
	if d := Decide(p, call("git log -p")); d.Verdict == Allow || !strings.Contains(d.Reason(), "diff.textconv") {
		t.Errorf("git log -p with a textconv driver: got %s: %s", d.Verdict, d.Reason())
	}
}

func TestGitConfigRuns(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		config, want string
	}{
		{"[core]\n\tbare = false\n\tfilemode = true\n", ""},
		{"[core]\n\tfsmonitor = x\n", "core.fsmonitor"},
		{"[CORE]\n\tHooksPath = /tmp\n", "core.hookspath"},
		{"[core] pager = less\n", "core.pager"},
		{"[diff \"x\"]\n\ttextconv = cat\n", "diff.textconv"},
		{"[diff.x]\n\ttextconv = cat\n", "diff.textconv"},
		{"[filter \"lfs\"]\n\tprocess = git-lfs filter-process\n", "filter.process"},
		{"[alias]\n\tst = !sh\n", "alias.st"},
		{"[include]\n\tpath = other\n", "include.path"},
		{"[includeIf \"gitdir:/x/\"]\n\tpath = other\n", "includeif.path"},
		{"# [core]\n; fsmonitor = x\n[user]\n\tname = x\n", ""},
	} {
		name := filepath.Join(dir, "config")
		write(t, name, tc.config)
		got, err := gitConfigRuns(OS, name)
		if err != nil || got != tc.want {
			t.Errorf("config %q: got %q, %v; want %q", tc.config, got, err, tc.want)
		}
	}
}

// TestProtectedByRole: paths are protected and secret by what they are,
// not how they are spelled.
func TestProtectedByRole(t *testing.T) {
	proj, call := gitWorld(t)
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(filepath.Dir(proj), "home")
	withHome := func(cmd string) Call {
		c := call(cmd)
		c.Home = home
		return c
	}
	decideTable(t, p, withHome, []decideCase{
		{"echo 'gitdir: /tmp/x' > src/.git", Deny, "protected"},
		{"touch vendor/evil.git/hooks/pre-commit", Deny, "which git takes for a repository"},
		{"echo x > vendor/evil.git/config", Deny, "which git takes for a repository"},
		{"echo x > .claude/skills/x.md", Deny, "protected"},
		{"echo x > .claude/agents/a.md", Deny, "protected"},
		{"touch ~/.claude/commands/c.md", Deny, "protected"},
		{"cat /proc/1/task/1/environ", Deny, "secret"},
		{"cat ~/.pgpass", Deny, "secret"},
		{"cat ~/.claude.json", Deny, "secret"},
		{"echo x > src/notes.txt", Ask, "writing src/notes.txt"},
	})
}

// TestFoldCase: where the file system ignores case, so do the patterns.
func TestFoldCase(t *testing.T) {
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	d := &decider{p: p, fsys: OS, call: Call{Cwd: "/project", Project: "/project", Home: "/home/u"}}
	for _, tc := range []struct {
		path string
		fold bool
		want bool
	}{
		{"/project/.ENV", true, true},
		{"/project/.ENV", false, false},
		{"/home/u/.SSH/id_rsa", true, true},
		{"/project/src/main.go", true, false},
	} {
		got := matchAnyFold(d, p.SecretPaths(), []string{tc.path}, tc.fold) != ""
		if got != tc.want {
			t.Errorf("%s (fold %v): secret = %v, want %v", tc.path, tc.fold, got, tc.want)
		}
	}
}

// TestRevPaths: what git prints from its object store is read like the
// path it was committed at.
func TestRevPaths(t *testing.T) {
	_, call := gitWorld(t)
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	decideTable(t, p, call, []decideCase{
		{"git show HEAD:.env", Deny, "secret"},
		{"git show main~2:config/.env.production", Deny, "secret"},
		{"git -C src show HEAD:./.env", Deny, "secret"},
		{"git log -p -- .env", Deny, "secret"},
		{"git log -p src/.env", Deny, "secret"},
		{"git diff HEAD~1 -- .env", Deny, "secret"},
		{"git blame .env.local", Deny, "secret"},
		{"git cat-file -p HEAD:.env", Deny, "secret"},
		{"git cat-file -p 4b825dc642cb", Ask, "by its hash"},
		{"git grep TOKEN -- .env", Deny, "secret"},
		{"git show HEAD:README.md", Allow, ""},
		{"git cat-file -p HEAD", Allow, ""},
		{"git log -p -- src", Allow, ""},
		{"git show :/fix", Allow, ""},
	})
}

// TestHomes: secret and protected paths under ~ hold for each spelling of
// the home: through a link, and the passwd entry's when $HOME is unset,
// relative or another directory.
func TestHomes(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(root, "real-home")
	write(t, filepath.Join(real, ".ssh/id_rsa"), "key")
	link := filepath.Join(root, "home-link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(root, "proj")
	write(t, filepath.Join(proj, "README"), "x")
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		home  string
		homes []string
		cmd   string
	}{
		{"HOME through a link, path by its real name", link, nil, "cat " + real + "/.ssh/id_rsa"},
		{"HOME through a link, path by the link", link, nil, "cat " + link + "/.ssh/id_rsa"},
		{"HOME unset", "", []string{real}, "cat " + real + "/.ssh/id_rsa"},
		{"HOME relative", "home", []string{real}, "cat " + real + "/.ssh/id_rsa"},
		{"HOME is /", "/", []string{real}, "cat " + real + "/.ssh/id_rsa"},
		// bash and zsh make ~/.ssh //.ssh there, which is /.ssh.
		{"HOME is /, path by ~", "/", []string{real}, "cat ~/.ssh/id_rsa"},
		{"HOME is /, path as the shell spells it", "/", []string{real}, "cat //.ssh/id_rsa"},
		{"HOME is /, protected by ~", "/", []string{real}, "echo x >> ~/.bashrc"},
		{"HOME elsewhere", proj, []string{real}, "cat " + real + "/.ssh/id_rsa"},
		{"protected under the passwd home", proj, []string{real}, "echo x >> " + real + "/.bashrc"},
	} {
		d := Decide(p, Call{Tool: "Bash", Input: Input{Command: tc.cmd}, Cwd: proj, Project: proj,
			Home: tc.home, Homes: tc.homes, Temp: filepath.Join(root, "tmp")})

		if d.Verdict != Deny {
			t.Errorf("%s: %q: got %s: %s; want deny", tc.name, tc.cmd, d.Verdict, d.Reason())
		}
	}
}

// TestProtect: the directories the caller names as guard's own are
// protected, wherever they are.
func TestProtect(t *testing.T) {
	_, call := gitWorld(t)
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	c := call("echo x > state/guard/sessions/s1")
	c.Protect = []string{filepath.Join(c.Project, "state/guard")}
	if d := Decide(p, c); d.Verdict != Deny || !strings.Contains(d.Reason(), "guard's own") {
		t.Errorf("write into the state directory: got %s: %s", d.Verdict, d.Reason())
	}
	c.Protect = nil
	if d := Decide(p, c); d.Verdict == Deny {
		t.Errorf("without Protect, the same write: got %s: %s; want ask (a write in the project)", d.Verdict, d.Reason())
	}
}

// TestInProject: a sibling directory whose name starts with the project's
// is not in the project.
func TestInProject(t *testing.T) {
	d := &decider{fsys: OS, call: Call{Cwd: "/project", Project: "/project"}}
	for _, tc := range []struct {
		paths []string
		want  bool
	}{
		{[]string{"/project"}, true},
		{[]string{"/project/src/x"}, true},
		{[]string{"/project2"}, false},
		{[]string{"/project2/x"}, false},
		{[]string{"/projectx", "/project/a"}, false},
		{[]string{"/"}, false},
		{nil, false},
	} {
		if got := d.inProject(tc.paths); got != tc.want {
			t.Errorf("inProject(%q) = %v, want %v", tc.paths, got, tc.want)
		}
	}
}

// TestReadOnlyRedirectAllow: read-only mode denies a write redirection even
// when the policy allows writes.
func TestReadOnlyRedirectAllow(t *testing.T) {
	src := "version = 1\nextends = \"default\"\nread_only_shell = true\n[redirect]\nwrite = \"allow\"\n"
	p, err := Load("ro.toml", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	call := ExampleCall("echo x > out.txt")
	if d := Decide(p, call); d.Verdict != Allow {
		t.Fatalf("the policy should allow the write outside read-only mode: got %s: %s", d.Verdict, d.Reason())
	}
	call.ReadOnly = true
	if d := Decide(p, call); d.Verdict != Deny {
		t.Errorf("read-only mode: got %s: %s; want deny", d.Verdict, d.Reason())
	}
}

// TestGoToolchain: a go.mod or go.work asking for a newer go than the one
// on the search path makes go download and run it.
func TestGoToolchain(t *testing.T) {
	root, bin := goRoot(t)
	write(t, filepath.Join(root, "noversion/bin/go"), "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(root, "noversion/bin/go"), 0o755); err != nil {
		t.Fatal(err)
	}
	mods := map[string]string{
		"newer":     "module x\n\ngo 1.99\n",
		"toolchain": "module x\n\ngo 1.21\ntoolchain go1.27.0\n",
		"older":     "module x\n\ngo 1.21\ntoolchain go1.22.1\n",
		"same":      "module x\n\ngo 1.26.8\n",
	}
	for dir, mod := range mods {
		write(t, filepath.Join(root, dir, "go.mod"), mod)
		write(t, filepath.Join(root, dir, "sub/x.go"), "package x\n")
	}
	write(t, filepath.Join(root, "work/go.work"), "go 1.30\n\nuse ./a\n")
	write(t, filepath.Join(root, "hg/go.mod"), "module h\n\ngo 1.21\n")
	write(t, filepath.Join(root, "hg/.hg/hgrc"), "[hooks]\n")
	write(t, filepath.Join(root, "work/a/go.mod"), "module a\n\ngo 1.21\n")
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir, cmd string
		path     string
		want     Verdict
	}{
		{"newer", "go version", bin, Ask},
		{"newer/sub", "go build ./...", bin, Ask},
		{"toolchain", "go test ./...", bin, Ask},
		{"work/a", "go vet ./...", bin, Ask},
		{"older", "go build ./...", bin, Allow},
		{"same", "go version", bin, Allow},
		{"older", "go build -C ../newer ./...", bin, Ask},
		{"newer", "go version", "/nonexistent", Allow}, // no go: nothing runs
		{"newer", "go version", "", Allow},
		{"hg", "go build ./...", bin, Ask},                                     // go runs hg to stamp the build
		{"older", "go build ./...", filepath.Join(root, "noversion/bin"), Ask}, // a go without VERSION
	} {
		proj := filepath.Join(root, tc.dir)
		d := Decide(p, Call{Tool: "Bash", Input: Input{Command: tc.cmd}, Cwd: proj, Project: root, ExecPath: tc.path, Temp: filepath.Join(root, "tmp")})
		if d.Verdict != tc.want {
			t.Errorf("%s: %q (PATH %q): got %s: %s; want %s", tc.dir, tc.cmd, tc.path, d.Verdict, d.Reason(), tc.want)
		}
	}
}

func TestNewerGo(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"1.27", "1.26.8", true}, {"1.26.9", "1.26.8", true}, {"1.26.8", "1.26.8", false},
		{"1.26", "1.26.8", false}, {"1.27rc1", "1.26.8", true}, {"2", "1.99", true}, {"1.9", "1.26", false},
	} {
		if got := newerGo(tc.a, tc.b); got != tc.want {
			t.Errorf("newerGo(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestRecursiveHidden: a reader that skips hidden files (rg, tree, ls -R)
// does not reach a .env unless told to read hidden files.
func TestRecursiveHidden(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "src/main.go"), "package main\n")
	write(t, filepath.Join(root, "config/.env"), "TOKEN=x\n")
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want Verdict
	}{
		{"rg TOKEN", Allow},
		{"rg --hidden TOKEN", Ask},
		{"rg -uu TOKEN", Ask},
		{"tree", Allow},
		{"tree -a", Ask},
		{"ls -R", Allow},
		{"ls -Ra", Ask},
		{"grep -r TOKEN .", Ask}, // grep reads hidden files
		{"grep -r TOKEN src", Allow},
		{"rg -e TOKEN config", Allow}, // rg skips the hidden .env under config too
		{"rg --hidden -e TOKEN config", Ask},
		{"tree -a -I zzz", Ask}, // zzz names nothing: tree reads the working directory
	} {
		d := Decide(p, Call{Tool: "Bash", Input: Input{Command: tc.cmd}, Cwd: root, Project: root, Temp: "/tmp"})
		if d.Verdict != tc.want {
			t.Errorf("%q: got %s: %s; want %s", tc.cmd, d.Verdict, d.Reason(), tc.want)
		}
	}
}
