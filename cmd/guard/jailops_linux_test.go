// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestJailChangesAsUnconfined: in the jail the project is read-only, and
// guard makes each change the program asks for (sandbox/supervise_linux.go).
// Every script here changes files the policy lets be written, and must
// leave the project as it does run plainly: the same tree, the same kinds,
// modes, contents and link targets, the same exit status and output.
func TestJailChangesAsUnconfined(t *testing.T) {
	files := map[string]string{
		"proj/go.mod":        "module fixture\n",
		"proj/src/main.go":   "package main\n",
		"proj/src/old.txt":   "old\n",
		"proj/src/sub/a.txt": "a\n",
		"proj/keep/b.txt":    "b\n",
	}
	for _, tc := range []struct{ name, script string }{
		{"create", "echo new > src/new.txt"},
		{"create at the top", "echo x > coverage.out && mkdir .venv && touch .venv/pyvenv.cfg"},
		{"overwrite", "echo over > src/old.txt"},
		{"append", "echo more >> src/old.txt"},
		{"truncate", "truncate -s 2 src/old.txt"},
		{"create exclusively", "set -C; echo a > src/x.txt; echo b > src/x.txt || echo refused"},
		{"mkdir -p and rmdir", "mkdir -p src/d/e/f && rmdir src/d/e/f"},
		{"rmdir a full directory", "rmdir src/sub || echo refused"},
		{"unlink", "rm src/old.txt"},
		{"rm -r", "rm -r src/sub"},
		{"rename a file", "mv src/old.txt src/renamed.txt"},
		{"rename over a file", "mv -f src/old.txt src/main.go"},
		{"rename a directory", "mv src/sub src/moved"},
		{"rename into another directory", "mv src/old.txt keep/"},
		{"hard link", "ln src/old.txt src/linked.txt && echo more >> src/linked.txt"},
		{"symlink", "ln -s old.txt src/link && readlink src/link"},
		{"symlink to a directory, then write through it", "ln -s sub src/via && echo v > src/via/v.txt"},
		{"chmod", "chmod 750 src/old.txt && chmod u+x src/main.go"},
		{"chmod a directory", "chmod 700 src/sub; stat -c %a src/sub"},
		{"touch a date", "touch -d '2001-02-03 04:05:06' src/old.txt && stat -c %Y src/old.txt"},
		{"touch a new file", "touch src/t.txt"},
		{"mkfifo", "mkfifo src/fifo"},
		{"umask", "umask 077 && echo p > src/private.txt && mkdir src/privdir"},
		{"cp -a", "cp -a src keep/copy"},
		{"tar round trip", "tar -cf /tmp/a.tar src && mkdir out && tar -xf /tmp/a.tar -C out"},
		{"relative to a directory descriptor", "cd src && echo in > sub/in.txt && cd .. && ls src/sub"},
		{"a path through ..", "echo up > src/sub/../up.txt"},
		{"through /proc/self/cwd", "echo c > /proc/self/cwd/src/c.txt"},
		{"sed -i", "sed -i s/old/new/ src/old.txt"},
		{"fchmod, fchown and futimens of a directory", python + " -c \"import os; fd=os.open('src', os.O_RDONLY); os.fchmod(fd, 0o700); os.chown(fd, os.getuid(), os.getgid()); os.utime(fd, (1, 2)); print(oct(os.stat('src').st_mode), os.stat('src').st_mtime)\""},
		{"a write outside the project", "echo t > /tmp/t && cat /tmp/t"},
		{"a missing directory", "echo x > nope/x.txt || echo refused"},
		{"python writes and renames", python + " -c \"import os; open('src/p.txt','w').write('p'); os.replace('src/p.txt','src/q.txt'); os.makedirs('src/m/n'); os.rename('src/m','src/mm')\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			plain := newJail(t, files)
			pcode, pout := plain.bashPlain(t, nil, tc.script)
			j := newJail(t, files)
			jcode, jout := j.bashJailed(t, nil, tc.script)
			// bash numbers the script's lines: in the jail, jailRan's echo
			// is the first.
			pout = strings.ReplaceAll(pout, plain.proj, "P")
			jout = lineNumber.ReplaceAllStringFunc(strings.ReplaceAll(jout, j.proj, "P"), func(m string) string {
				n, _ := strconv.Atoi(strings.TrimPrefix(m, "line "))
				return fmt.Sprintf("line %d", n-1)
			})
			if pout != jout || pcode != jcode {
				t.Errorf("%q: unconfined exit %d, %q; in the jail exit %d, %q", tc.script, pcode, pout, jcode, jout)
			}
			if p, q := projectTree(t, plain.proj), projectTree(t, j.proj); p != q {
				t.Errorf("%q left the project otherwise than unconfined:\nunconfined:\n%s\nin the jail:\n%s", tc.script, p, q)
			}
		})
	}
}

// lineNumber finds bash's number of a line of the jailed script, one more
// than the plain script's.
var lineNumber = regexp.MustCompile(`line (\d+)`)

// projectTree describes a project, less the directories skip names under
// it: each path, its kind and mode, a file's content and a link's target.
func projectTree(t *testing.T, proj string, skip ...string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(proj, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(proj, p)
		switch {
		case slices.Contains(skip, rel):
			return filepath.SkipDir
		case fi.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			fmt.Fprintf(&b, "%s -> %s\n", rel, target)
		case fi.IsDir():
			fmt.Fprintf(&b, "%s/ %v\n", rel, fi.Mode())
		case fi.Mode().IsRegular():
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "%s %v %q\n", rel, fi.Mode(), data)
		default:
			fmt.Fprintf(&b, "%s %v\n", rel, fi.Mode())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestJailBoundsBulkChanges: a test or a build (--profile test, build)
// runs the project's code, which no hook read: it may remove, overwrite or
// rename only so many of the files the project had (codeBudget), and as
// many as it likes of those it made and of its outputs. Without the
// profile, a command the policy judged is not counted.
func TestJailBoundsBulkChanges(t *testing.T) {
	files := map[string]string{"proj/go.mod": "module fixture\n"}
	for i := range codeBudget + 20 {
		files[fmt.Sprintf("proj/src/f%03d.go", i)] = "package src\n"
	}
	count := func(j jail) int {
		ents, err := os.ReadDir(filepath.Join(j.proj, "src"))
		if err != nil {
			t.Fatal(err)
		}
		return len(ents)
	}
	t.Run("test profile", func(t *testing.T) {
		j := newJail(t, files)
		code, out := j.bashJailed(t, nil, "rm -f src/*.go; echo rm $?; mkdir -p target && for i in $(seq 300); do echo > target/$i; done && rm -r target && "+
			"for i in $(seq 300); do echo > made$i; done && rm made*", "--profile", "test")
		if left := count(j); code != 0 || left != 20 || !strings.Contains(out, "rm 1\n") {
			t.Errorf("rm of %d files under --profile test: exit %d, %d left, want 20, and rm failing; the rest exit 0: %s", codeBudget+20, code, left, out)
		}
		if !strings.Contains(out, "a build or test may remove, overwrite or rename only so many") {
			t.Errorf("guard run did not say why: %s", out)
		}
		if _, err := os.Stat(filepath.Join(j.proj, "made1")); err == nil {
			t.Errorf("the files the test made, and removed, are there")
		}
	})
	t.Run("judged", func(t *testing.T) {
		j := newJail(t, files)
		if code, out := j.bashJailed(t, nil, "rm -f src/*.go"); code != 0 || count(j) != 0 {
			t.Errorf("rm of %d files without a profile: exit %d, %d left: %s", codeBudget+20, code, count(j), out)
		}
	})
}

// TestJailGitWrites: a command that writes what the policy let it write
// (no profile: a granted git commit) writes the project's git directory,
// but for what makes git run code or look elsewhere: its configuration,
// hooks and info. A build or a test writes none of it.
func TestJailGitWrites(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	files := map[string]string{"proj/a.txt": "a\n", "home/.gitconfig": "[user]\n\tname = Jail\n\temail = jail@example.com\n"}
	world := func(t *testing.T) jail {
		j := newJail(t, files)
		if code, out := j.bashPlain(t, nil, "git init -q && git add a.txt && git commit -qm first"); code != 0 {
			t.Fatalf("git init: exit %d: %s", code, out)
		}
		return j
	}
	commits := func(j jail) string {
		out, _ := exec.Command("git", "-C", j.proj, "log", "--format=%s").Output()
		return strings.TrimSpace(string(out))
	}
	t.Run("granted commit", func(t *testing.T) {
		j := world(t)
		if code, out := j.bashJailed(t, nil, "echo b >> a.txt && git commit -qam second && git stash list && git branch topic"); code != 0 || commits(j) != "second\nfirst" {
			t.Errorf("git commit without a profile: exit %d, commits %q: %s", code, commits(j), out)
		}
	})
	for _, tc := range []struct{ name, script, file string }{
		{"a hook", "echo 'touch pwned' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit", ".git/hooks/pre-commit"},
		{"the configuration", "git config core.hooksPath /tmp", ".git/config"},
		{"the configuration, renamed over", "cp .git/config /tmp/c && echo '[core]' >> /tmp/c && cp /tmp/c .git/config.x && mv .git/config.x .git/config", ".git/config"},
		{"info/attributes", "echo '* filter=x' > .git/info/attributes", ".git/info/attributes"},
		{"alternates", "echo /tmp > .git/objects/info/alternates", ".git/objects/info/alternates"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := world(t)
			before, _ := os.ReadFile(filepath.Join(j.proj, tc.file))
			code, out := j.bashJailed(t, nil, tc.script)
			after, _ := os.ReadFile(filepath.Join(j.proj, tc.file))
			if code == 0 || string(before) != string(after) {
				t.Errorf("%q: exit %d, %s %q, was %q: %s", tc.script, code, tc.file, after, before, out)
			}
		})
	}
	t.Run("a test commits", func(t *testing.T) {
		j := world(t)
		if code, out := j.bashJailed(t, nil, "echo b >> a.txt && git commit -qam second", "--profile", "test"); code == 0 || commits(j) != "first" {
			t.Errorf("git commit under --profile test: exit %d, commits %q: %s", code, commits(j), out)
		}
	})
}

// TestJailChangesUnderSignals: a program that makes many files while
// signals keep arriving (a handler with SA_RESTART, as Go's runtime
// installs) gets each call's own answer: no EINTR, no EEXIST for an
// O_EXCL file guard made before the call was interrupted, and never the
// descriptor 0 for a file guard opened (a signal to guard's own thread once
// did that, one run in five of this test). A handler without SA_RESTART
// may see EINTR from a call that waits for guard, where the kernel alone
// would not (README, The sandbox).
func TestJailChangesUnderSignals(t *testing.T) {
	needPython(t)
	const script = `
import os, signal, threading, time
signal.signal(signal.SIGUSR1, lambda s, f: None)
signal.siginterrupt(signal.SIGUSR1, False)
pid = os.getpid()
def pester():
    while True:
        os.kill(pid, signal.SIGUSR1)
        time.sleep(0.0001)
threading.Thread(target=pester, daemon=True).start()
os.makedirs("out")
for i in range(2000):
    with open("out/f%d" % i, "x") as f:
        f.write("x")
    os.rename("out/f%d" % i, "out/g%d" % i)
print("made", len(os.listdir("out")))
`
	j := newJail(t, nil)
	code, out := j.bashJailed(t, nil, python+" - <<'EOF'\n"+script+"EOF\n")
	if code != 0 || strings.TrimSpace(out) != "made 2000" {
		t.Errorf("exit %d: %s", code, out)
	}
}
