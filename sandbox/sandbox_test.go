// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPlan grants a tree around the paths it keeps: whole directories
// that hold none, the rest one by one, the directories between listed.
func TestPlan(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"a.go", ".env", "src/x.go", "src/deep/y.go", ".git/config", ".git/HEAD", ".git/objects/ab/cd"} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/etc", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	kept := []string{".env", ".git/config"}
	allowed := func(p string) bool {
		rel, _ := filepath.Rel(root, p)
		return !slices.Contains(kept, rel)
	}
	grants, lists, err := Plan(root, allowed, nil)
	if err != nil {
		t.Fatal(err)
	}
	rel := func(ps []string) string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(root, p)
			out = append(out, r)
		}
		return strings.Join(out, " ")
	}
	if got, want := rel(grants), ".git/HEAD .git/objects a.go src"; got != want {
		t.Errorf("grants %q, want %q", got, want)
	}
	if got, want := rel(lists), ". .git"; got != want {
		t.Errorf("lists %q, want %q", got, want)
	}
	// Nothing kept: the root whole.
	if grants, lists, err := Plan(filepath.Join(root, "src"), allowed, nil); err != nil || rel(grants) != "src" || len(lists) != 0 {
		t.Errorf("a tree with nothing kept: %q, %q, %v", rel(grants), rel(lists), err)
	}
	// A kept root: nothing.
	if grants, _, err := Plan(root, func(string) bool { return false }, nil); err != nil || len(grants) != 0 {
		t.Errorf("a kept root: %q, %v", rel(grants), err)
	}
	// A kept path that is not there: the directory it would be made in is
	// granted piece by piece, however deep the path; one that is there,
	// or outside the root, changes nothing.
	src := filepath.Join(root, "src")
	for _, tc := range []struct {
		kept         []string
		grants, list string
	}{
		{[]string{filepath.Join(src, ".claude")}, "src/deep src/x.go", "src"},
		{[]string{filepath.Join(src, "deep", "new", "more", "file")}, "src/deep/y.go src/x.go", "src src/deep"},
		{[]string{filepath.Join(src, "x.go")}, "src", ""},
		{[]string{filepath.Join(src, "x.go", "sub")}, "src", ""}, // a file where a directory would be
		{[]string{"/elsewhere/.claude"}, "src", ""},
	} {
		grants, lists, err := Plan(src, allowed, tc.kept)
		if err != nil || rel(grants) != tc.grants || rel(lists) != tc.list {
			t.Errorf("kept %q: grants %q lists %q (%v), want %q and %q", tc.kept, rel(grants), rel(lists), err, tc.grants, tc.list)
		}
	}
	// A root that is not there: nothing, and no error.
	if grants, _, err := Plan(filepath.Join(root, "none"), allowed, nil); err != nil || len(grants) != 0 {
		t.Errorf("a missing root: %q, %v", rel(grants), err)
	}
}
