// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestBadIndexPath reads indexes git wrote, in each version, with a path
// .Xit/hooks/post-checkout that the test then spells .git/..., as a
// program that writes the index can: the bad path is found, and nothing
// in the index git wrote.
func TestBadIndexPath(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, version := range []string{"2", "3", "4"} {
		t.Run("version "+version, func(t *testing.T) {
			dir := t.TempDir()
			git := func(args ...string) {
				t.Helper()
				cmd := exec.Command("git", args...)
				cmd.Dir, cmd.Env = dir, []string{"HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "PATH=/usr/bin:/bin"}
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v: %s", args, err, out)
				}
			}
			for _, name := range []string{"a/b.go", "a/c.go", "z/.gitignore", "z/x.git"} {
				if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			git("init", "-q")
			git("add", ".")
			git("update-index", "--add", "--cacheinfo", "100755,e69de29bb2d1d6434b8b29ae775ad8c2e48c5391,.Xit/hooks/post-checkout")
			if version == "3" {
				git("update-index", "--skip-worktree", "a/b.go") // an extended entry: version 3
			}
			git("update-index", "--index-version", version)
			data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			if got := badIndexPath(data); got != "" {
				t.Errorf("git's own index: bad path %q", got)
			}
			if got := badIndexPath(bytes.Replace(data, []byte(".Xit/"), []byte(".GIT/"), 1)); got != ".GIT/hooks/post-checkout" {
				t.Errorf("the index with .GIT/hooks/post-checkout: bad path %q", got)
			}
		})
	}
}
