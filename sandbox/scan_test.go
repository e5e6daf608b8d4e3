// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestScan finds the secrets of a tree, then finds them again from its
// cache after each change a program or a user makes: a new secret in a
// directory read before, one removed, a directory renamed, a secret
// directory, one in .git (not looked into); and a directory changed
// within the last moments is read each time.
func TestScan(t *testing.T) {
	root := t.TempDir()
	cache := filepath.Join(t.TempDir(), "scan")
	write := func(name string) {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// age sets every directory's time back, as if the tree were old: no
	// record of it is racy then.
	age := func() {
		t.Helper()
		old := time.Now().Add(-time.Hour)
		filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
			if err == nil && fi.IsDir() {
				os.Chtimes(p, old, old.Add(time.Duration(len(p))*time.Millisecond))
			}
			return nil
		})
	}
	reads := 0
	scan := func() []string {
		t.Helper()
		s := Scan{Root: root, Cache: cache, Key: "k",
			Candidate: func(rel string) bool { return strings.Contains(rel, ".env") || strings.Contains(rel, "secrets") },
			Hidden: func(abs string) bool {
				reads++
				b := filepath.Base(abs)
				return strings.HasPrefix(b, ".env") || b == "secrets"
			}}
		got, err := s.Run()
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			got[i] = strings.TrimPrefix(got[i], root)
		}
		return got
	}
	want := func(got []string, want ...string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("hidden %q, want %q", got, want)
		}
	}
	for _, f := range []string{".env", "a/b/c.go", "a/b/.env.local", "d/e.go", "d/secrets/key", ".git/x/.env"} {
		write(f)
	}
	age()
	want(scan(), "/.env", "/a/b/.env.local", "/d/secrets")
	first := reads
	want(scan(), "/.env", "/a/b/.env.local", "/d/secrets")
	if reads != 0+first {
		t.Errorf("the second scan of an unchanged tree asked the policy %d times", reads-first)
	}

	write("d/.env") // a new secret in a directory read before
	want(scan(), "/.env", "/a/b/.env.local", "/d/.env", "/d/secrets")
	os.Remove(filepath.Join(root, ".env"))
	want(scan(), "/a/b/.env.local", "/d/.env", "/d/secrets")
	if err := os.Rename(filepath.Join(root, "a"), filepath.Join(root, "z")); err != nil {
		t.Fatal(err)
	}
	want(scan(), "/d/.env", "/d/secrets", "/z/b/.env.local")

	// A directory changed just now is read each time: a second change in
	// the same tick of the clock would not show in its time.
	write("d/x.go")
	want(scan(), "/d/.env", "/d/secrets", "/z/b/.env.local")
	before := reads
	want(scan(), "/d/.env", "/d/secrets", "/z/b/.env.local")
	if reads == before {
		t.Errorf("a directory changed within %v was taken from the cache", racyWindow)
	}

	// Another key, or a cache that is not one, reads the tree again.
	if err := os.WriteFile(cache, []byte("junk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	want(scan(), "/d/.env", "/d/secrets", "/z/b/.env.local")
}
