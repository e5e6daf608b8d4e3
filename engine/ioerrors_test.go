// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"guard/policy"
)

// faultyFS is the operating system's file system with errors where the
// test puts them: a file that cannot be opened or stat'd.
type faultyFS struct {
	open, stat map[string]error
}

func (f faultyFS) Stat(name string) (fs.FileInfo, error) {
	if err := f.stat[name]; err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	return OS.Stat(name)
}
func (f faultyFS) Lstat(name string) (fs.FileInfo, error) {
	if err := f.stat[name]; err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
	return OS.Lstat(name)
}
func (f faultyFS) Readlink(name string) (string, error)       { return OS.Readlink(name) }
func (f faultyFS) ReadDir(name string) ([]fs.DirEntry, error) { return OS.ReadDir(name) }
func (f faultyFS) Open(name string) (fs.File, error) {
	if err := f.open[name]; err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return OS.Open(name)
}

// TestGitIOErrors: a file of git's that guard cannot read, for any reason
// but its absence, is never taken for a clean one. The repository's
// common directory holds a configuration that runs a program.
func TestGitIOErrors(t *testing.T) {
	proj, call := gitWorld(t)
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	gitDir := filepath.Join(proj, ".git")
	common := filepath.Join(filepath.Dir(proj), "common")
	write(t, filepath.Join(common, "config"), "[core]\n\tfsmonitor = touch /tmp/pwned\n")
	write(t, filepath.Join(gitDir, "commondir"), common+"\n")
	for _, tc := range []struct {
		name       string
		open, stat map[string]error
	}{
		{"commondir unreadable", map[string]error{filepath.Join(gitDir, "commondir"): syscall.EACCES}, nil},
		{"commondir I/O error", map[string]error{filepath.Join(gitDir, "commondir"): syscall.EIO}, nil},
		{"config I/O error", map[string]error{filepath.Join(gitDir, "config"): syscall.EIO}, nil},
		{"config.worktree unreadable", map[string]error{filepath.Join(gitDir, "config.worktree"): syscall.EACCES}, nil},
		{"HEAD cannot be stat'd", nil, map[string]error{filepath.Join(gitDir, "HEAD"): syscall.EIO}},
		{"objects cannot be stat'd", nil, map[string]error{filepath.Join(gitDir, "objects"): syscall.EIO}},
	} {
		c := call("git status")
		c.FS = faultyFS{open: tc.open, stat: tc.stat}
		if d := Decide(p, c); d.Verdict == Allow {
			t.Errorf("%s: git status: got allow: %s", tc.name, d.Reason())
		}
	}
	// With nothing failing, the common directory's configuration is read.
	if d := Decide(p, call("git status")); d.Verdict == Allow {
		t.Errorf("git status with a common config that runs a program: got allow")
	}
}

// TestGoIOErrors: a go.mod, go.work or version control directory guard
// cannot look at, for any reason but its absence, is not taken for none:
// go would read it (a newer go line makes it download a toolchain).
func TestGoIOErrors(t *testing.T) {
	root, bin := goRoot(t)
	proj := filepath.Join(root, "proj")
	write(t, filepath.Join(proj, "go.mod"), "module x\n\ngo 1.21\n")
	write(t, filepath.Join(proj, "x.go"), "package x\n")
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	call := Call{Tool: "Bash", Input: Input{Command: "go build ./..."}, Cwd: proj, Project: proj, ExecPath: bin, Temp: filepath.Join(root, "tmp")}
	if d := Decide(p, call); d.Verdict != Allow {
		t.Fatalf("go build with nothing failing: got %s: %s", d.Verdict, d.Reason())
	}
	for _, tc := range []struct {
		name string
		stat map[string]error
	}{
		{"go.mod cannot be stat'd", map[string]error{filepath.Join(proj, "go.mod"): syscall.EIO}},
		{"go.work cannot be stat'd", map[string]error{filepath.Join(proj, "go.work"): syscall.EIO}},
		{"go.work above cannot be stat'd", map[string]error{filepath.Join(root, "go.work"): syscall.EACCES}},
		{".hg cannot be looked at", map[string]error{filepath.Join(proj, ".hg"): syscall.EIO}},
	} {
		c := call
		c.FS = faultyFS{stat: tc.stat}
		if d := Decide(p, c); d.Verdict == Allow {
			t.Errorf("%s: go build: got allow: %s", tc.name, d.Reason())
		}
	}
}

// TestPathIOErrors: a glob's match guard cannot look at, for any reason
// but its absence, is not left out of the judgment: the shell passes it.
func TestPathIOErrors(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	write(t, filepath.Join(home, ".ssh/id_rsa"), "key\n")
	write(t, filepath.Join(proj, "web/.env"), "TOKEN=x\n")
	write(t, filepath.Join(proj, "web/index.js"), "x\n")
	if err := os.Symlink(filepath.Join(home, ".ssh/id_rsa"), filepath.Join(proj, "web/creds")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(proj, "keys")); err != nil {
		t.Fatal(err)
	}
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, cmd string
		stat      map[string]error
	}{
		{"a glob's match", "cat web/c*", map[string]error{filepath.Join(proj, "web/creds"): syscall.EIO}},
		// zsh's ***/ goes through the link to the directory of keys.
		{"a link zsh's ***/ follows", "cat ***/id_rsa", map[string]error{filepath.Join(proj, "keys"): syscall.EIO}},
	} {
		c := Call{Tool: "Bash", Input: Input{Command: tc.cmd}, Cwd: proj, Project: proj, Home: home, Temp: filepath.Join(root, "tmp"), Shell: "zsh",
			FS: faultyFS{stat: tc.stat}}
		if d := Decide(p, c); d.Verdict == Allow {
			t.Errorf("%s: %q: got allow: %s", tc.name, tc.cmd, d.Reason())
		}
	}
}
