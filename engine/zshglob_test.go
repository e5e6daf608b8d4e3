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

// TestZshGlobsReal: zsh's **/ and ***/ are recursive globs, ***/ through
// links. Every file the real zsh expands a glob to is among those guard
// judges, and cat ***/credentials, which printed a home credential
// through a link committed in the project, is not allowed where zsh may
// run the command.
func TestZshGlobsReal(t *testing.T) {
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		zsh = ""
	}
	scratchWorld(t, zsh, "", "")
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	write(t, filepath.Join(home, ".aws/credentials"), "aws_secret=zz9\n")
	write(t, filepath.Join(proj, "src/x.go"), "package x\n")
	write(t, filepath.Join(proj, "src/deep/y.go"), "package y\n")
	write(t, filepath.Join(proj, ".hidden/z.go"), "package z\n")
	for link, target := range map[string]string{"sub/lnk": filepath.Join(home, ".aws"), "deep/a/l2": filepath.Join(home, ".aws"), "src/up": proj, "src/deep/w": filepath.Join(home, ".aws")} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(proj, link)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(proj, link)); err != nil {
			t.Fatal(err)
		}
	}
	zshRun := func(script string) string {
		out, _ := exec.Command("bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--tmpfs", "/tmp", "--bind", root, root,
			"--unshare-all", "--die-with-parent", "--chdir", proj, "--", zsh, "-fc", script).CombinedOutput()
		return string(out)
	}
	for _, glob := range []string{"***/credentials", "**/credentials", "deep/***/credentials", "**/*.go", "***/*.go", "sub/**/*", "***/*", "src/**/*"} {
		got, err := expandGlob(OS, filepath.Join(proj, glob), true)
		if strings.HasPrefix(glob, "***") {
			// src/up leads back to the project: zsh goes round as deep as
			// a path may be, and guard refuses.
			if err == nil {
				t.Errorf("%s: through a link in a loop, guard expanded it", glob)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", glob, err)
			continue
		}
		for _, f := range strings.Fields(zshRun("setopt nullglob globdots; print -rl -- " + glob)) {
			if !slices.Contains(got, filepath.Join(proj, f)) {
				t.Errorf("%s: zsh expands it to %s, which guard does not judge (guard: %v)", glob, f, got)
			}
		}
	}
	if out := zshRun("cat ***/credentials"); !strings.Contains(out, "aws_secret=zz9") {
		t.Errorf("cat ***/credentials in zsh did not print the credential (the attack did not work): %s", out)
	}
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd, shell string
		want       Verdict
	}{
		// src/up makes the walk of the whole project a loop: refused.
		{"cat ***/credentials", "zsh", Ask},
		{"cat ***/credentials", "", Ask},
		{"cat deep/***/credentials", "zsh", Deny},
		{"cat sub/**/credentials", "bash", Deny}, // bash's ** is *: sub/lnk/credentials
		{"cat sub/**/credentials", "", Deny},
		{"cat ***/credentials", "bash", Allow}, // bash's *** is *: */credentials matches nothing
		{"wc -l src/**/*.go", "zsh", Allow},
		{"cat src/***/credentials", "zsh", Ask}, // round src/up and back: guard cannot check it all
	} {
		c := Call{Tool: "Bash", Input: Input{Command: tc.cmd}, Cwd: proj, Project: proj, Home: home, Temp: filepath.Join(root, "tmp"), Shell: tc.shell}
		if d := Decide(p, c); d.Verdict != tc.want {
			t.Errorf("%q (shell %q): got %s: %s; want %s", tc.cmd, tc.shell, d.Verdict, d.Reason(), tc.want)
		}
	}
}
