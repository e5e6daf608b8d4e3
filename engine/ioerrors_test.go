// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"io/fs"
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
