// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The attacks of a review of the jail's supervisor (issue 21), each one
// that got through then, as a test: unconfined the script changes what it
// aims at (else the test skips), in the jail it must not.

// TestJailLinkedKeptDirs: a link named as a kept path's directory (.cargo
// of **/.cargo/config.toml, .github of **/.github/workflows/**) to a
// directory of the program's would let it write what the pattern keeps
// where the policy does not look; made by ln -s or by renaming a link, in
// the project's git directory, or in a directory renamed.
func TestJailLinkedKeptDirs(t *testing.T) {
	for _, tc := range []struct{ name, script, kept string }{
		{"cargo's configuration", "mkdir -p sub/cg && ln -s sub/cg .cargo && echo '[build]' > .cargo/config.toml", ".cargo/config.toml"},
		{"a workflow", "mkdir -p sub/gh && ln -s sub/gh .github && mkdir .github/workflows && echo x > .github/workflows/p.yml", ".github/workflows/p.yml"},
		{"a link renamed", "mkdir -p sub/gh/workflows && echo x > sub/gh/workflows/p.yml && ln -s sub/gh x && mv x .github", ".github/workflows/p.yml"},
		{"a link in a directory renamed", "mkdir -p d sub/gh/workflows && echo x > sub/gh/workflows/p.yml && ln -s ../sub/gh d/.github && mv d e", "e/.github/workflows/p.yml"},
		{"a link in .git", "mkdir -p .git && ln -s /tmp/victim .git/COMMIT_EDITMSG", ".git/COMMIT_EDITMSG"},
		{"a rebase's steps", "mkdir -p .git/rebase-merge && echo 'exec touch pwned' > .git/rebase-merge/git-rebase-todo", ".git/rebase-merge/git-rebase-todo"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{"proj/src/main.go": "package main\n", "proj/.git/HEAD": "ref: refs/heads/main\n"}
			plain := newJail(t, files)
			if code, out := plain.bashPlain(t, nil, tc.script); code != 0 {
				t.Skipf("unconfined, %q fails: %s", tc.script, out)
			}
			j := newJail(t, files)
			code, out := j.bashJailed(t, nil, tc.script)
			if _, err := os.Lstat(filepath.Join(j.proj, tc.kept)); code == 0 || err == nil {
				t.Errorf("%q inside: exit %d, %s there (%v): %s", tc.script, code, tc.kept, err, out)
			}
		})
	}
}

// TestJailRaces: two threads, one renaming a directory while the other
// writes through it or moves a directory into it, try to make a kept path
// between the supervisor's check of a path and its change.
func TestJailRaces(t *testing.T) {
	t.Parallel() // independent of the other tests: its own temp dirs and processes
	needPython(t)
	for _, tc := range []struct{ name, script string }{
		{"open while its directory is renamed", `
import os, threading
for attempt in range(300):
    os.mkdir("c")
    def a():
        try:
            os.close(os.open("c/config.toml", os.O_WRONLY | os.O_CREAT, 0o644))
        except OSError:
            pass
    t = threading.Thread(target=a); t.start()
    try:
        os.rename("c", ".cargo")
    except OSError:
        pass
    t.join()
    if os.path.exists(".cargo/config.toml"):
        print("WON", attempt); break
    for d in (".cargo", "c"):
        if os.path.exists(d + "/config.toml"): os.unlink(d + "/config.toml")
        if os.path.isdir(d): os.rmdir(d)
`},
		{"a directory moved into one being renamed", `
import os, threading, time
os.makedirs("g")
for i in range(1000):
    open("g/f%d" % i, "w").close()
os.makedirs("w")
open("w/x.yml", "w").close()
for attempt in range(40):
    def a():
        try: os.rename("g", ".github")
        except OSError: pass
    t = threading.Thread(target=a); t.start()
    time.sleep(0.0003 * (attempt % 20))
    try: os.rename("w", "g/workflows")
    except OSError: pass
    t.join()
    if os.path.exists(".github/workflows/x.yml"):
        print("WON", attempt); break
    if os.path.isdir(".github"): os.rename(".github", "g")
    if os.path.isdir("g/workflows"): os.rename("g/workflows", "w")
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := newJail(t, nil)
			code, out := j.bashJailed(t, nil, python+" - <<'EOF'\n"+tc.script+"EOF\n")
			if strings.Contains(out, "WON") || code != 0 {
				t.Errorf("exit %d: %s", code, out)
			}
		})
	}
}

// TestJailDoorsOfFiles: a set-user-ID bit by any name of a file guard
// opened (its link in /proc leads to the project outside the jail); the
// kernel's keyring, which the session shares; a socket and a pipe of a
// process outside, in the project; an O_PATH open with a write flag,
// which once hung; a build's bound, by moving a tree among its outputs;
// what of /etc only root may read.
func TestJailDoorsOfFiles(t *testing.T) {
	needPython(t)
	j := newJail(t, map[string]string{"proj/src/main.go": "package main\n"})
	for _, tc := range []struct {
		name, script string
		open         func(out string) bool // the door is open
	}{
		{"setuid through /proc", python + ` -c "
import os
fd = os.open('src/evil', os.O_WRONLY | os.O_CREAT, 0o644)
for p, m in (('/proc/self/task/%d/fd/%d' % (os.getpid(), fd), 0o4755), ('/proc/./self/fd//%d' % fd, 0o2755)):
    try:
        os.chmod(p, m)
    except OSError as e:
        print(e)
print('mode=%o' % (os.stat('src/evil').st_mode & 0o7777))"`,
			// Three octal digits: no set-user-ID or set-group-ID bit.
			func(out string) bool { return !regexp.MustCompile(`(?m)^mode=[0-7]{3}$`).MatchString(out) }},
		{"the keyring", python + ` -c "import ctypes; l=ctypes.CDLL(None, use_errno=True); print('key', l.syscall(248, b'user', b'guard', b'v', 1, -3))"`,
			func(out string) bool { return !strings.Contains(out, "key -1") }},
		{"O_PATH for writing", python + ` -c "import os; os.open('src', os.O_PATH | os.O_WRONLY); print('returned')"`,
			func(out string) bool { return !strings.Contains(out, "returned") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, out := j.bashJailed(t, nil, tc.script); tc.open(out) {
				t.Errorf("%q: exit %d: %s", tc.script, code, out)
			}
		})
	}
	t.Run("a socket outside", func(t *testing.T) {
		l, err := net.Listen("unix", filepath.Join(j.proj, "s.sock"))
		if err != nil {
			t.Skip(err)
		}
		defer l.Close()
		go func() {
			if c, err := l.Accept(); err == nil {
				c.Write([]byte("reached\n"))
				c.Close()
			}
		}()
		code, out := j.bashJailed(t, nil, python+` -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('s.sock'); print(s.recv(9))"`)
		if code == 0 || strings.Contains(out, "reached") {
			t.Errorf("connect inside: exit %d: %s", code, out)
		}
	})
	t.Run("a bound tree moved", func(t *testing.T) {
		files := map[string]string{"proj/go.mod": "module m\n"}
		for i := range codeBudget * 2 {
			files["proj/src/f"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26))] = "x\n"
		}
		k := newJail(t, files)
		code, out := k.bashJailed(t, nil, "mkdir -p build && mv src build/src && rm -rf build/src", "--profile", "test")
		left := 0
		for _, dir := range []string{"src", "build/src"} {
			ents, _ := os.ReadDir(filepath.Join(k.proj, dir))
			left += len(ents)
		}
		if left < codeBudget {
			t.Errorf("under --profile test, %d of %d files left after moving them among the outputs and removing them: exit %d: %s", left, codeBudget*2, code, out)
		}
	})
	t.Run("root's own files of /etc", func(t *testing.T) {
		if os.Getuid() != 0 {
			t.Skip("not root: root's files are not the program's")
		}
		var private []string
		for _, p := range []string{"/etc/shadow-", "/etc/gshadow-", "/etc/ssl/private"} {
			if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o004 == 0 {
				private = append(private, p)
			}
		}
		if len(private) == 0 {
			t.Skip("no file of /etc only root reads")
		}
		_, out := j.bashJailed(t, nil, "for p in "+strings.Join(private, " ")+"; do find $p -type f -size +0 2>/dev/null; done")
		if strings.TrimSpace(out) != "" {
			t.Errorf("inside, root reads: %s", out)
		}
	})
}

// TestJailAsAnotherUser: guard run works for a user other than root (a
// user namespace gives the jail's first process its capabilities, which
// it must keep through guard's exec), and its program holds none.
func TestJailAsAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("the test switches to another user, which only root can")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("no setpriv")
	}
	exe := guardExe()
	dir, err := os.MkdirTemp("", "guard-user")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	proj, bin := filepath.Join(dir, "proj"), filepath.Join(dir, "guard")
	for _, d := range []string{proj, filepath.Join(dir, "home")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, proj, filepath.Join(dir, "home")} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{proj, filepath.Join(dir, "home")} {
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", bin, "run", "--cwd", proj, "--",
		"bash", "--noprofile", "--norc", "-c", "id -u; echo x > made.txt && cat made.txt; grep CapEff /proc/self/status; echo y > .git")
	cmd.Dir, cmd.Env = proj, []string{"HOME=" + filepath.Join(dir, "home"), "PATH=/usr/bin:/bin"}
	out, err := cmd.CombinedOutput()
	if err != nil && !strings.Contains(string(out), ".git") || !strings.Contains(string(out), "65534\nx\nCapEff:\t0000000000000000\n") {
		t.Errorf("guard run as user 65534: %v: %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(proj, ".git")); err == nil {
		t.Errorf("the program made .git")
	}
}

// TestJailSecondReview: the attacks of a second review of the jail.
// A command that may write git's directory (the write profile) writes an
// index entry .git/hooks/post-checkout, which the user's next git
// checkout would write and run: guard puts the index back and fails. A
// test's bound, by a hard link made into an output, by an exchange of a
// tree with an output, and by opening a file to read it (O_CREAT) and
// again for writing through its link in /proc.
func TestJailSecondReview(t *testing.T) {
	t.Parallel() // independent of the other tests: its own temp dirs and processes
	needPython(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Run("an index entry in .git", func(t *testing.T) {
		j := newJail(t, map[string]string{"proj/a.txt": "a\n", "home/.gitconfig": "[user]\n\tname = J\n\temail = j@example.com\n"})
		if code, out := j.bashPlain(t, nil, "git init -q && git add a.txt && git commit -qm first"); code != 0 {
			t.Fatalf("git init: %s", out)
		}
		index := filepath.Join(j.proj, ".git", "index")
		before, err := os.ReadFile(index)
		if err != nil {
			t.Fatal(err)
		}
		script := "b=$(echo 'touch pwned' | git hash-object -w --stdin) && git update-index --add --cacheinfo 100755,$b,.Xit/hooks/post-checkout && " +
			python + ` -c "d=open('.git/index','rb').read().replace(b'.Xit/',b'.git/'); open('.git/index.lock','wb').write(d); import os; os.rename('.git/index.lock','.git/index')" && echo planted`
		code, out := j.bashJailed(t, nil, script)
		after, _ := os.ReadFile(index)
		if !strings.Contains(out, "planted") || code == 0 || !strings.Contains(out, "git's index") || !bytes.Equal(before, after) {
			t.Errorf("exit %d, the index as before: %v: %s", code, bytes.Equal(before, after), out)
		}
	})
	files := map[string]string{"proj/go.mod": "module m\n"}
	n := codeBudget + 30
	for i := range n {
		files[fmt.Sprintf("proj/src/f%03d", i)] = "original\n"
	}
	overwritten := func(t *testing.T, j jail) int {
		c := 0
		for i := range n {
			if b, _ := os.ReadFile(filepath.Join(j.proj, "src", fmt.Sprintf("f%03d", i))); string(b) != "original\n" {
				c++
			}
		}
		return c
	}
	for _, tc := range []struct{ name, script string }{
		{"a hard link into an output", "mkdir -p build; for f in src/f*; do ln $f build/l && echo PWNED > build/l; rm -f build/l; done"},
		{"an exchange with an output", "mkdir -p build/d && " + python + ` -c "
import ctypes, os
l = ctypes.CDLL(None, use_errno=True)
x = lambda: l.renameat2(-100, b'build/d', -100, b'src', 2)
x()
for f in os.listdir('build/d'):
    open('build/d/' + f, 'w').write('PWNED')
x()"`},
		{"a reading open, then a writing one through /proc", python + ` -c "
import os
for f in os.listdir('src'):
    fd = os.open('src/' + f, os.O_RDONLY | os.O_CREAT)
    try:
        open('/proc/self/fd/%d' % fd, 'w').write('PWNED')
    except OSError:
        pass"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plain := newJail(t, files)
			if code, out := plain.bashPlain(t, nil, tc.script); overwritten(t, plain) != n {
				t.Skipf("unconfined, %d of %d files overwritten: exit %d: %s", overwritten(t, plain), n, code, out)
			}
			j := newJail(t, files)
			code, out := j.bashJailed(t, nil, tc.script, "--profile", "test")
			if c := overwritten(t, j); c > codeBudget {
				t.Errorf("under --profile test, %d of the project's files overwritten: exit %d: %s", c, code, out)
			}
		})
	}
}
