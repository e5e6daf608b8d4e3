// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"guard/internal/bwrapprobe"
	"guard/internal/testnote"
	"guard/policy"
)

// historyWorld is a project whose history holds secrets no longer in its
// tree: a .env, config/.env.production and x.go/.env committed in the
// first commit (tagged v1) and removed in the second; lib/.env.local
// added and removed on a branch merged in; app/.env.example tracked since
// the commit before HEAD, as projects commit their example settings; and
// a stash of an untracked .env. Every secret holds SECRET-; HEAD changes
// src/x.go alone. Objects are packed up to HEAD~1; HEAD's are loose.
func historyWorld(t *testing.T) *gitFixture {
	t.Helper()
	g := newGitFixture(t)
	g.write("README.md", "readme\n", "src/x.go", "package x\n", "docs/a.md", "a\n",
		".env", "SECRET-ONE=1\n", "config/.env.production", "SECRET-TWO=2\n", "x.go/.env", "SECRET-THREE=3\n")
	g.git("add", "-A")
	g.git("commit", "-q", "-m", "one")
	g.git("tag", "-a", "-m", "v1", "v1")
	g.git("rm", "-q", ".env", "config/.env.production", "x.go/.env")
	g.write("src/x.go", "package x\n\n// two\n")
	g.git("commit", "-q", "-am", "two")
	g.git("checkout", "-q", "-b", "side")
	g.write("lib/.env.local", "SECRET-FOUR=4\n", "lib/l.go", "package lib\n")
	g.git("add", "-A")
	g.git("commit", "-q", "-m", "side adds")
	g.git("rm", "-q", "lib/.env.local")
	g.git("commit", "-q", "-m", "side removes")
	g.git("checkout", "-q", "main")
	g.write("docs/a.md", "a\nb\n")
	g.git("commit", "-q", "-am", "three")
	g.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
	g.write("app/.env.example", "SECRET-EXAMPLE=placeholder\n")
	g.git("add", "-A")
	g.git("commit", "-q", "-m", "four")
	g.write(".env", "SECRET-STASH=5\n")
	g.git("stash", "-q", "-u")
	g.git("repack", "-a", "-d", "-q")
	g.write("src/x.go", "package x\n\n// two\n// five\n")
	g.git("commit", "-q", "-am", "five")
	g.git("update-index", "--refresh") // the index newer than the files: none racily clean
	// Untracked: a directory with a .env, a link to the home's key.
	root := filepath.Dir(g.dir)
	g.write("scratch/.env", "SECRET-SCRATCH=6\n")
	write(t, filepath.Join(root, "home/.ssh/id_rsa"), "SECRET-KEY\n")
	write(t, filepath.Join(root, "empty/README"), "") // a directory to compare with
	if err := os.Symlink(filepath.Join(root, "home/.ssh/id_rsa"), filepath.Join(g.dir, "lnk")); err != nil {
		t.Fatal(err)
	}
	return g
}

// historyCall decides commands in the history world.
func historyCall(g *gitFixture) func(string) Call {
	return func(cmd string) Call {
		return Call{Tool: "Bash", Input: Input{Command: cmd}, Cwd: g.dir, Project: g.dir, Home: filepath.Join(filepath.Dir(g.dir), "home"), Temp: "/tmp"}
	}
}

// historyCases are commands in the history world and what guard must
// decide of each. The allowed ones are run for real by TestHistoryOracle.
var historyCases = []decideCase{
	// What names print, whatever the history holds.
	{"git log --oneline", Allow, ""},
	{"git log --stat", Allow, ""},
	{"git log --all --name-status", Allow, ""},
	{"git show --stat v1", Allow, ""},
	{"git show -s --format=%B HEAD~2", Allow, ""},
	{"git ls-tree -r --name-only v1", Allow, ""},
	{"git rev-list --objects --all", Allow, ""},
	{"git stash show --stat", Allow, ""},
	// What the history read reaches holds no secret.
	{"git show HEAD", Allow, ""},
	{"git log -p -1", Allow, ""},
	{"git log -p -n 1 --stat", Allow, ""},
	{"git log -p -- src/x.go", Allow, ""},
	{"git log -p -- src", Allow, ""},
	{"git log -p -- 'src/*'", Allow, ""},
	{"git log -p -- ':/src'", Allow, ""},
	{"git log -p -- 's*'", Allow, ""},   // * crosses /: src/x.go
	{"git log -p -- '*.go'", Allow, ""}, // git's tree walk does not match x.go/.env
	{"git -C src log -p -- x.go", Allow, ""},
	{"git log -G package --oneline -- src", Allow, ""},
	{"git show HEAD~3 -- src docs", Allow, ""},
	{"git show HEAD:src/x.go", Allow, ""},
	{"git diff", Allow, ""}, // app/.env.example is tracked, and unchanged
	{"git diff --cached", Allow, ""},
	{"git diff HEAD~1", Allow, ""},
	{"git diff v1 HEAD -- src", Allow, ""},
	{"git diff HEAD~1..HEAD", Allow, ""},
	{"git grep -n package -- src", Allow, ""},
	{"git grep -n package HEAD -- src docs", Allow, ""},
	{"git --literal-pathspecs log -p -- '*.env'", Allow, ""}, // a file named *.env, which never was
	// A revision guard finds nowhere is unknown: git reads forms guard
	// does not, and printed the secret through each of these.
	{"git log -p nosuch", Ask, "no such revision"},
	{"git log -p 'HEAD..:/x'", Ask, ""},
	{"git log -p --ignore-missing nosuch HEAD", Ask, ""},
	{"git grep TOKEN :/", Ask, ""},
	{"git show 'HEAD^{/x:*}:.env'", Ask, "after a {"},
	{"git cat-file -p 'HEAD^{/x:*}:.env'", Ask, "after a {"},
	{"git log -p HEAD^-", Allow, ""},    // ^HEAD^ HEAD
	{"git log -p HEAD~2^-2", Allow, ""}, // the merge and three
	// The attacks: each prints a secret the history holds.
	{"git log -p", Deny, "secret"},
	{"git log -p -- '*.env'", Deny, "secret"},
	{"git log -p -- '.e*'", Deny, "secret"},
	{"git log -p -- ':(icase).ENV'", Deny, "secret"},
	{"git log --all -p -- ':(glob).e*'", Deny, "secret"},
	{"git log -p -- ':(glob)**/.env*'", Deny, "secret"},
	{"git log -L 1,5:.env v1", Deny, "secret"},
	{"git log -L '/SECRET/,+1:.env' v1", Deny, "secret"},
	{"git log -p '*.env'", Deny, "secret"}, // a pathspec without --
	{"git log -p -- ':!src'", Deny, "secret"},
	{"git log -p -- . ':(exclude,glob)**/.env'", Deny, "secret"}, // GIT_LITERAL_PATHSPECS would make the exclusion a path
	{"git log -p --follow -- docs/a.md", Deny, "secret"},
	{"git log -p --full-diff -- src/x.go", Deny, "secret"},
	{"git log -S SECRET --oneline", Deny, "secret"},
	{"git log -G SECRET --oneline", Deny, "secret"},
	{"git log --pretty=oneline -p -2", Deny, "secret"},
	{"git log -p -1 -n -1", Deny, "secret"},           // the last count decides, and -1 is none
	{"git log -p -n 1 --max-count=3", Deny, "secret"}, // the last count decides
	{"git log -p main..side", Allow, ""},              // side is merged: nothing to show
	{"git log -p HEAD~3..side", Deny, "secret"},
	{"git log -p HEAD~2^-1", Deny, "secret"}, // what the merge brought: side's commits
	{"git log -p side", Deny, "secret"},
	{"git log -p -g", Deny, "secret"},
	{"git log -p HEAD@{3}", Deny, "secret"},
	{"git log --cc -1 HEAD~2", Allow, ""}, // the merge brings lib/l.go
	{"git show v1", Deny, "secret"},
	{"git show HEAD~1", Deny, "secret"},
	{"git show HEAD~4", Deny, "secret"},
	{"git show v1 -- '*.env'", Deny, "secret"},
	{"git show v1..HEAD~3", Deny, "secret"},
	{"git show v1:.env", Deny, "secret"},
	{"git show :0:app/.env.example", Deny, "secret"},
	{"git show HEAD:./app/.env.example", Deny, "secret"},
	{"git show 'HEAD:app/x/../.env.example'", Deny, "secret"},
	{"git cat-file -p v1:config/.env.production", Deny, "secret"},
	{"git diff v1 HEAD", Deny, "secret"},
	{"git diff HEAD~4", Deny, "secret"},
	{"git diff v1...HEAD", Deny, "secret"},
	{"git diff HEAD~2 HEAD -- app", Deny, "secret"},
	{"git grep SECRET v1", Deny, "secret"},
	{"git grep -l SECRET HEAD", Deny, "secret"},
	{"git grep -c x", Deny, "secret"}, // the index tracks app/.env.example
	{"git stash show -p", Deny, "secret"},
	{"git stash show", Deny, "secret"}, // stash.showPatch may make it print the patch
	{"git stash list -p", Deny, "secret"},
	{"git log -p v1 -- x.go", Deny, "secret"}, // x.go was a directory
	// A path outside the working tree makes git diff compare two files,
	// as --no-index does.
	{"git diff ~/.ssh/id_rsa /dev/null", Deny, "secret"},
	{"git diff -- lnk /dev/null", Deny, "secret"}, // git prints a link's target, but the link is the key's
	{"git diff ../empty scratch", Ask, "scratch"},
	{"git diff /dev/null README.md", Allow, ""},
	{"git log -p -- ~/.ssh/id_rsa", Deny, "secret"},
	// What guard cannot follow to its end.
	{"git log -p --stdin", Ask, "standard input"},
	{"git log -p 'HEAD@{yesterday}'", Ask, "cannot show"},
	{"git log -p HEAD~-1", Ask, "cannot read"},
	{"git show ':/one'", Deny, "secret"}, // a commit by its message: guard reads every commit
}

// TestHistoryReads decides history reads in a repository whose history
// holds secrets, and runs each with the real git in bubblewrap: what guard
// allows must print no secret, and each of historyAttacks must print one.
func TestHistoryReads(t *testing.T) {
	g := historyWorld(t)
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	decideTable(t, p, historyCall(g), historyCases)
	t.Run("oracle", func(t *testing.T) { historyOracle(t, g, p) })
	// A call that also commits may change the history first.
	d := Decide(p, historyCall(g)("git commit -qam x && git show HEAD"))
	if d.Verdict == Allow || !strings.Contains(fmt.Sprint(d.Leaves), "git.history") {
		t.Errorf("git commit && git show HEAD: %s: %s; want the history read asked", d.Verdict, d.Reason())
	}
	// The repository's configuration can make git print more.
	config, err := os.ReadFile(filepath.Join(g.dir, ".git/config"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ config, cmd string }{
		{"[log]\n\tfollow\n", "git log -p -- src/x.go"}, // follows src/x.go to any older name
		{"[diff]\n\tsubmodule = diff\n", "git log -p -- sub"},
	} {
		write(t, filepath.Join(g.dir, ".git/config"), string(config)+tc.config)
		if tc.config[1] == 'd' {
			g.git("update-index", "--add", "--cacheinfo", "160000,"+strings.TrimSpace(g.git("rev-parse", "HEAD"))+",sub")
			g.git("commit", "-q", "-m", "a submodule")
		}
		if d := Decide(p, historyCall(g)(tc.cmd)); d.Verdict == Allow {
			t.Errorf("with %q, %q: %s: %s; want it refused", tc.config, tc.cmd, d.Verdict, d.Reason())
		}
	}
	write(t, filepath.Join(g.dir, ".git/config"), string(config))
	// A changed example file is printed by git diff.
	g.write("app/.env.example", "SECRET-EXAMPLE=changed\n")
	for _, tc := range []decideCase{{"git diff", Deny, "secret"}, {"git diff -- src", Allow, ""}, {"git diff --stat", Allow, ""}} {
		if d := Decide(p, historyCall(g)(tc.cmd)); d.Verdict != tc.want || !strings.Contains(d.Reason(), tc.why) {
			t.Errorf("with app/.env.example changed, %q: %s: %s; want %s", tc.cmd, d.Verdict, d.Reason(), tc.want)
		}
	}
}

// historyAttacks are the cases of historyCases that print a secret when
// run, and only those: the oracle checks both, so that the world is what
// the cases say. The other refusals answer by a secret without printing
// it (-S, grep -l), or reach more than git prints of it here (--follow,
// a stash's untracked files, which stash.showIncludeUntracked shows).
var historyAttacks = []string{
	"git log -p --ignore-missing nosuch HEAD",
	"git log -p", "git log -p -- '*.env'", "git log -p -- '.e*'", "git log -p -- ':(icase).ENV'",
	"git log --all -p -- ':(glob).e*'", "git log -p -- ':(glob)**/.env*'", "git log -L 1,5:.env v1",
	"git log -L '/SECRET/,+1:.env' v1", "git log -p '*.env'", "git log -p -- ':!src'",
	"git log -p -- . ':(exclude,glob)**/.env'", "git log -p --full-diff -- src/x.go",
	"git log --pretty=oneline -p -2", "git log -p HEAD~3..side", "git log -p side", "git log -p -g",
	"git show v1", "git show HEAD~1", "git show HEAD~4", "git show v1 -- '*.env'", "git show v1..HEAD~3",
	"git show v1:.env", "git show :0:app/.env.example", "git cat-file -p v1:config/.env.production",
	"git diff v1 HEAD", "git diff HEAD~4", "git diff v1...HEAD", "git diff HEAD~2 HEAD -- app",
	"git grep SECRET v1", "git log -p v1 -- x.go", "git show ':/one'", "git diff ~/.ssh/id_rsa /dev/null",
	"git diff ../empty scratch", "git log -p HEAD@{3}", "git show HEAD:./app/.env.example", "git log -p --stdin",
	"git log -p 'HEAD@{yesterday}'", "git log -p HEAD~2^-1", "git log -p -1 -n -1", "git log -p -n 1 --max-count=3",
}

// historyOracle runs every history read of historyCases with the real git
// in bubblewrap, in the history world g.
func historyOracle(t *testing.T, g *gitFixture, p *policy.Policy) {
	out, err := exec.Command("bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-all", "--", "git", "--version").CombinedOutput()
	if err == nil {
		err = bwrapprobe.Proc()
	}
	if err != nil {
		msg := fmt.Sprintf("guard/engine: SKIPPED %s: git cannot run in bubblewrap: %v %s", t.Name(), err, out)
		if os.Getenv("GUARD_ORACLE") == "require" {
			t.Fatal(msg + " (GUARD_ORACLE=require)")
		}
		testnote.Print(msg)
		t.Skip(msg)
	}
	run := func(cmd string) string {
		root := filepath.Dir(g.dir)
		args := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
			"--bind", root, root, "--unshare-all", "--die-with-parent", "--chdir", g.dir, "--setenv", "HOME", filepath.Join(root, "home"),
			"--setenv", "GIT_CONFIG_NOSYSTEM", "1", "--", "bash", "--noprofile", "--norc", "-c", cmd}
		out, _ := exec.Command("bwrap", args...).CombinedOutput()
		return string(out)
	}
	for _, tc := range historyCases {
		d := Decide(p, historyCall(g)(tc.cmd))
		out := run(tc.cmd)
		leaked := strings.Contains(out, "SECRET-")
		switch {
		case d.Verdict == Allow && leaked:
			t.Errorf("%q is allowed, and printed a secret:\n%s", tc.cmd, out)
		case slices.Contains(historyAttacks, tc.cmd) == !leaked:
			t.Errorf("%q printed a secret: %v; it is listed as an attack: %v:\n%s", tc.cmd, leaked, !leaked, out)
		}
	}
	for _, a := range historyAttacks {
		if !slices.ContainsFunc(historyCases, func(tc decideCase) bool { return tc.cmd == a && tc.want != Allow }) {
			t.Errorf("attack %q is no case guard refuses", a)
		}
	}
}
