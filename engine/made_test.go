// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"guard/policy"
)

// madeWorld is a project whose tree commits links into the home, a home
// with a key and a shell rc file, and a Bash call there whose session
// tier parts are all granted (cp, mv, mkdir asked once a session).
func madeWorld(t *testing.T) (root, proj string, call func(string) Call) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	write(t, filepath.Join(home, ".ssh/id_rsa"), "the-key-4c2e\n")
	write(t, filepath.Join(home, ".bashrc"), "# rc\n")
	write(t, filepath.Join(proj, "README"), "readme\n")
	write(t, filepath.Join(proj, "plain/a.txt"), "a\n")
	write(t, filepath.Join(proj, "d/a.txt"), "a\n")
	for link, target := range map[string]string{
		"d/key":  filepath.Join(home, ".ssh/id_rsa"),
		"d/rc":   filepath.Join(home, ".bashrc"),
		"d/ssh":  filepath.Join(home, ".ssh"),
		"notes":  "plain",
		"rclink": filepath.Join(home, ".bashrc"),
	} {
		if err := os.Symlink(target, filepath.Join(proj, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root, proj, func(cmd string) Call {
		return Call{Tool: "Bash", Input: Input{Command: cmd}, Cwd: proj, Project: proj, Home: home,
			Temp: filepath.Join(root, "tmp"), Shell: "bash", Session: "s", Grants: grantAll{}}
	}
}

// madeAttacks are commands whose first part makes, from what guard sees
// as it judges, a link to a secret or a protected file, and whose second
// part reads or writes through it; the session granted cp, mv and mkdir.
var madeAttacks = []struct {
	cmd  string
	want Verdict
	// out is what the command prints, or file what it changes, when it
	// runs unconfined: the attack works.
	out, file string
}{
	{cmd: "cp -r d e && cat e/key", want: Ask, out: "the-key-4c2e"},
	{cmd: "cp -a d e; cat e/ssh/id_rsa", want: Ask, out: "the-key-4c2e"},
	{cmd: "mv d e && cat e/key", want: Ask, out: "the-key-4c2e"},
	{cmd: "cp -r d e && grep -R . e", want: Ask, out: "the-key-4c2e"},
	{cmd: "cp -r d e && echo pwned >> e/rc", want: Deny, file: "home/.bashrc"},
	{cmd: "mv d e; echo pwned >> e/rc", want: Deny, file: "home/.bashrc"},
	{cmd: "cp -l rclink h && echo pwned >> h", want: Deny, file: "home/.bashrc"},
	{cmd: "cp -rs $PWD/d e && cat e/key", want: Ask, out: "the-key-4c2e"},
	{cmd: "for i in 1 2; do cat e/key; cp -r d e; done", want: Ask, out: "the-key-4c2e"},
	{cmd: "(sleep 0.3; cat e/key >&2) | cp -r d e", want: Ask, out: "the-key-4c2e"},
	// A link of its own, the source judged as read: refused already.
	{cmd: "cp -P d/key k && cat k", want: Deny, out: "the-key-4c2e"},
}

// TestMadeAttacksReal runs each attack for real, in bubblewrap over a copy
// of the world, and sees it work: then guard must not allow it.
func TestMadeAttacksReal(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		bash = ""
	}
	scratchWorld(t, bash, "", "")
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range madeAttacks {
		root, proj, _ := madeWorld(t)
		out, _ := exec.Command("bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
			"--bind", root, root, "--unshare-all", "--die-with-parent", "--chdir", proj, "--",
			bash, "--noprofile", "--norc", "-c", tc.cmd).CombinedOutput()
		switch {
		case tc.out != "" && !strings.Contains(string(out), tc.out):
			t.Errorf("%q: unconfined, it did not print %q (the attack did not work): %s", tc.cmd, tc.out, out)
		case tc.file != "":
			if data, _ := os.ReadFile(filepath.Join(root, tc.file)); !strings.Contains(string(data), "pwned") {
				t.Errorf("%q: unconfined, it did not change %s (the attack did not work): %s", tc.cmd, tc.file, out)
			}
		}
		// Judged on a world the run did not change.
		_, _, call := madeWorld(t)
		if d := Decide(p, call(tc.cmd)); d.Verdict != tc.want {
			t.Errorf("%q: got %s: %s; want %s", tc.cmd, d.Verdict, d.Reason(), tc.want)
		}
	}
}

// TestMadePaths: what the commands of a call make is unknown to the later
// ones, and only where they may have made what guard cannot see.
func TestMadePaths(t *testing.T) {
	_, _, call := madeWorld(t)
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want Verdict
		made bool // a part is refused for what another made
	}{
		// Copies and moves of regular files, and of trees with no link,
		// make what was judged.
		{"cp README r2 && cat r2", Allow, false},
		{"cp -r plain p2 && cat p2/a.txt", Allow, false},
		{"mv plain p2 && cat p2/a.txt", Allow, false},
		{"mkdir -p out && cp README out/ && cat out/README", Allow, false},
		// What runs before the command that makes, reads what is there.
		{"cat README; cp -r d e", Allow, false},
		{"git stash list && cat README", Allow, false},
		{"git checkout -b topic && cat README", Allow, false},
		// Links, and trees that hold them.
		{"cp -r d e && cat e/a.txt", Ask, true},
		{"cp -r d e && cat e/../README", Allow, false},
		{"cp -r d e && echo x > e/new", Deny, true},
		{"cp -r notes n2 && cat n2/a.txt", Ask, true},
		{"cp -r d e && ls -R .", Ask, true},
		{"cp -r d \"$X\" && cat README", Ask, true},
		{"ln -s plain l2 && cat l2/a.txt", Ask, true},
		{"git stash && cat README", Ask, true},
		{"git switch main && cat README", Ask, true},
		// A loop, a pipeline and the background run a command again, or
		// at once with those after it.
		{"while true; do cat e/a.txt; cp -r d e; done", Ask, true},
		{"cat e/a.txt | cp -r d e", Ask, true},
		{"cp -r d e & cat README", Ask, false},
		{"cat e/a.txt & cp -r d e", Ask, true},
		{"cp -r d e & cat e/a.txt", Ask, true},
		{"cat e/a.txt | wc -l; cp -r d e", Allow, false},
	} {
		d := Decide(p, call(tc.cmd))
		made := slices.ContainsFunc(d.Leaves, func(l Leaf) bool { return l.Rule == "paths.made" })
		if d.Verdict != tc.want || made != tc.made {
			t.Errorf("%q: got %s (refused for what another part made: %v): %s; want %s (%v)", tc.cmd, d.Verdict, made, d.Reason(), tc.want, tc.made)
		}
	}
}
