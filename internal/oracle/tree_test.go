// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package oracle

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"guard/engine"
)

// TestOracleTreeDiff changes a tree in every way the comparison must see, and
// in ways it must not report.
func TestOracleTreeDiff(t *testing.T) {
	dir := t.TempDir()
	if err := writeFiles(dir, map[string]string{
		"same":       "unchanged\n",
		"touched":    "same content, new time\n",
		"rewritten":  "abc\n",
		"grown":      "abc\n",
		"chmod":      "x\n",
		"gone":       "x\n",
		"old":        "renamed\n",
		"d/f":        "in a directory that goes\n",
		"keep/inner": "x\n",
	}); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("same", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	j := func(name string) string { return filepath.Join(dir, name) }
	// Old enough that a rewrite within the same second shows in the time.
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, name := range []string{"same", "touched", "rewritten", "keep", "keep/inner"} {
		if err := os.Chtimes(j(name), old, old); err != nil {
			t.Fatal(err)
		}
	}
	trees := []tree{{sandbox: "/s", host: dir}}
	before, err := snapshot(trees, true)
	if err != nil {
		t.Fatal(err)
	}

	steps := []error{
		os.Chtimes(j("touched"), time.Now(), time.Now()),
		os.WriteFile(j("rewritten"), []byte("xyz\n"), 0o644), // the same size
		os.Chtimes(j("rewritten"), old, old),                 // and the old time back
		os.WriteFile(j("grown"), []byte("abcd\n"), 0o644),
		os.Chmod(j("chmod"), 0o755),
		os.Remove(j("gone")),
		os.Rename(j("old"), j("new")),
		os.RemoveAll(j("d")),
		os.Remove(j("link")),
		os.Symlink("chmod", j("link")),
		os.Mkdir(j("created"), 0o755),
		os.WriteFile(j("created/f"), nil, 0o644),
	}
	for i, err := range steps {
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	after, err := snapshot(trees, false)
	if err != nil {
		t.Fatal(err)
	}
	host := func(p string) string { return filepath.Join(dir, strings.TrimPrefix(p, "/s")) }
	var got []string
	for _, c := range diff(before, after, host) {
		got = append(got, c.String())
	}
	want := []string{
		"time /s", // entries came and went
		"mode /s/chmod",
		"created /s/created",
		"created /s/created/f",
		"removed /s/d",
		"removed /s/d/f",
		"removed /s/gone",
		"content /s/grown",
		"link target /s/link",
		"created /s/new",
		"removed /s/old",
		"content /s/rewritten",
		"time /s/touched",
	}
	if !slices.Equal(got, want) {
		t.Errorf("changes:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// TestOracleCheckWrites judges a made-up trace: the comparison of the trees
// decides what happened in them, the trace decides the attempts elsewhere
// when it names the file, and what it cannot name is no conviction.
func TestOracleCheckWrites(t *testing.T) {
	tr := &Trace{
		trees: []tree{{sandbox: WorkDir}, {sandbox: HomeDir}, {sandbox: TmpDir}},
		Events: []Event{
			{Op: OpExec, Path: "/usr/bin/bash", Root: true},
			{Op: OpWrite, Call: "openat", Path: "/etc/passwd", Err: "EROFS", Line: "openat(/etc/passwd)"},           // an attempt on the read-only root
			{Op: OpWrite, Call: "openat", Path: "/run/x", Line: "openat(/run/x)"},                                   // a sandbox-only file system
			{Op: OpWrite, Call: "openat", Path: "/dev/null"},                                                        // a root
			{Op: OpWrite, Call: "openat", Path: "/dev/fd/3", Real: "/etc/group"},                                    // a root naming another file
			{Op: OpWrite, Call: "openat", Path: "/proc/self/fd/1", Real: HomeDir + "/.bashrc"},                      // the comparison decides
			{Op: OpWrite, Call: "openat", Path: HomeDir + "/.bashrc", Err: "EACCES"},                                // the comparison decides
			{Op: OpWrite, Call: "ftruncate", Path: "/etc/hosts", Desc: true},                                        // a descriptor
			{Op: OpWrite, Call: "linkat", Path: ""},                                                                 // unresolved
			{Op: OpWrite, Call: "mkdir", Path: "/run", Err: "EEXIST"},                                               // nothing to write
			{Op: OpWrite, Call: "unlinkat", Path: "/etc/passwd", Err: "EROFS", Line: "unlinkat(/etc/passwd) again"}, // the same file again
		},
		Changes: []Change{
			{HomeDir, "time"},
			{HomeDir + "/.bashrc", "content"},
			{HomeDir + "/.config", "created"},
			{HomeDir + "/.config/guard", "created"},
			{HomeDir + "/.config/guard/guard.toml", "created"},
			{TmpDir + "/x", "created"},
			{WorkDir + "/.git/config", "content"},
			{WorkDir + "/.git/hooks/pre-commit", "created"},
			{WorkDir + "/.git/index", "content"},
			{WorkDir + "/new", "created"},
			{WorkDir + "/new/.claude", "created"}, // not the work tree's own .claude
		},
	}
	var got []string
	for _, v := range Check(tr, engine.Decision{}, DefaultRoots()) {
		got = append(got, v.String())
	}
	want := []string{
		`write "/etc/passwd" (2 calls): pid 0: openat(/etc/passwd)`,
		`write "/run/x": pid 0: openat(/run/x)`,
		`write "/etc/group": pid 0: `,
		`write "/run/home": time, in the tree after the run`,
		`write "/run/home/.bashrc": content, in the tree after the run`,
		`write "/run/home/.config" (with 2 paths under it): created, in the tree after the run`,
		`write "` + WorkDir + `/.git/config": content, in the tree after the run`,
		`write "` + WorkDir + `/.git/hooks/pre-commit": created, in the tree after the run`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}
