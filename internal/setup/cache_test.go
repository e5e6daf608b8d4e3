// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package setup

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"guard/policy"
)

const cachedPolicy = `version = 1
extends = "default"

[command.make]
verdict = "allow"
examples = { allow = ["make test"], deny = ["curl x"] }
`

// loadCached loads name through the cache in dir and reports whether the
// cache served it.
func loadCached(t *testing.T, name, dir string) (desc string, hit bool) {
	t.Helper()
	before := cacheHits.Load()
	p, sum, err := LoadFileCached(name, dir)
	if err != nil {
		t.Fatalf("LoadFileCached: %v", err)
	}
	src, _ := os.ReadFile(name)
	if want := policy.Digest(src); sum != want {
		t.Errorf("sum %s, want the file's %s", sum, want)
	}
	var b strings.Builder
	p.Describe(&b)
	return b.String(), cacheHits.Load() == before+1
}

// entries returns the cache's entry files.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "[0-9a-f]*"))
	return names
}

func TestPolicyCache(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "state", "policies")
	name := filepath.Join(tmp, "guard.toml")
	if err := os.WriteFile(name, []byte(cachedPolicy), 0o600); err != nil {
		t.Fatal(err)
	}
	want, _, err := LoadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var wantDesc strings.Builder
	want.Describe(&wantDesc)

	check := func(what string, wantHit bool) {
		t.Helper()
		desc, hit := loadCached(t, name, dir)
		if hit != wantHit {
			t.Errorf("%s: served by the cache %v, want %v", what, hit, wantHit)
		}
		if desc != wantDesc.String() {
			t.Errorf("%s: the policy loaded is\n%s\nwant\n%s", what, desc, wantDesc.String())
		}
	}
	check("first load", false)
	es := entries(t, dir)
	if len(es) != 1 {
		t.Fatalf("entries %v, want one", es)
	}
	entry := es[0]
	fi, err := os.Stat(entry)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("entry %v, %v: want mode 0600", fi, err)
	}
	if d, _ := os.Stat(dir); d.Mode().Perm() != 0o700 {
		t.Errorf("cache directory mode %v, want 0700", d.Mode().Perm())
	}
	check("second load", true)

	good, _ := os.ReadFile(entry)
	restore := func() {
		os.Remove(entry)
		if err := os.WriteFile(entry, good, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Each doubt: the entry is passed over, the file loaded from its
	// source, and the entry written anew.
	for what, spoil := range map[string]func(){
		"a byte of the form changed": func() {
			os.WriteFile(entry, bytes.Replace(good, []byte(`"Verdict":"allow"`), []byte(`"Verdict":"allow" `), 1), 0o600)
		},
		"cut short": func() { os.WriteFile(entry, good[:len(good)-10], 0o600) },
		"another id inside": func() {
			os.WriteFile(entry, bytes.Replace(good, []byte(filepath.Base(entry)), bytes.Repeat([]byte("0"), 64), 1), 0o600)
		},
		"writable by the group": func() {
			os.Chmod(entry, 0o620)
		},
		"a link to a good entry": func() {
			other := filepath.Join(tmp, "elsewhere")
			os.WriteFile(other, good, 0o600)
			os.Remove(entry)
			os.Symlink(other, entry)
		},
		"empty": func() { os.WriteFile(entry, nil, 0o600) },
	} {
		restore()
		spoil()
		check(what, false)
		if got, _ := os.ReadFile(entry); !bytes.Equal(got, good) {
			t.Errorf("%s: the entry was not written anew", what)
		}
		if fi, err := os.Lstat(entry); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: the entry is now %v, %v", what, fi, err)
		}
		check(what+", then loaded again", true)
	}

	// A changed file is another entry.
	if err := os.WriteFile(name, []byte(cachedPolicy+"\n[command.rm]\nverdict = \"deny\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, hit := loadCached(t, name, dir); hit {
		t.Error("a changed file was served by the cache")
	}
	if n := len(entries(t, dir)); n != 2 {
		t.Errorf("%d entries after a change, want 2", n)
	}
}

// TestPolicyCacheFailingExamples: a file whose examples fail does not
// load, from the cache or not, and leaves no entry.
func TestPolicyCacheFailingExamples(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "policies")
	name := filepath.Join(tmp, "guard.toml")
	bad := strings.Replace(cachedPolicy, `allow = ["make test"], deny = ["curl x"]`, `allow = ["make test", "curl x"]`, 1)
	if err := os.WriteFile(name, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, _, err := LoadFileCached(name, dir); err == nil || !strings.Contains(err.Error(), "curl x") {
			t.Fatalf("a failing example: err %v", err)
		}
	}
	if es := entries(t, dir); len(es) != 0 {
		t.Errorf("entries %v for a policy that does not load", es)
	}
}

// TestPolicyCacheBound: the cache keeps at most maxCacheEntries entries.
func TestPolicyCacheBound(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "policies")
	name := filepath.Join(tmp, "guard.toml")
	for i := range maxCacheEntries + 5 {
		src := cachedPolicy + strings.Repeat("\n", i+1)
		if err := os.WriteFile(name, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, _, err := LoadFileCached(name, dir); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(entries(t, dir)); n != maxCacheEntries {
		t.Errorf("%d entries, want %d", n, maxCacheEntries)
	}
}
