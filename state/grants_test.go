// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package state

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"guard/engine"
	"guard/policy"
)

// clock is a time the test moves.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newStore(t *testing.T) (*Store, *clock) {
	c := &clock{time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	return &Store{Dir: filepath.Join(t.TempDir(), "grants"), Idle: 30 * time.Minute, Now: c.now}, c
}

var (
	commit = engine.Scope{Kind: policy.GrantRule, Key: "git commit"}
	src    = engine.Scope{Kind: policy.GrantDir, Key: "/p/src"}
)

// TestStoreGrants: a grant covers its scope, in its session only, until it
// has gone unused for the idle limit; a use keeps it alive.
func TestStoreGrants(t *testing.T) {
	s, c := newStore(t)
	if id := s.Granted("s1", commit); id != "" {
		t.Fatalf("an empty store granted %s", id)
	}
	added, err := s.Add("s1", "Bash", map[engine.Scope]string{commit: "git commit -m x", src: "Edit /p/src/a.go"})
	if err != nil || len(added) != 2 {
		t.Fatalf("Add: %v, %v", added, err)
	}
	fresh := &Store{Dir: s.Dir, Idle: s.Idle, Now: c.now} // another hook process
	for _, tc := range []struct {
		session string
		scope   engine.Scope
		granted bool
	}{
		{"s1", commit, true},
		{"s1", engine.Scope{Kind: policy.GrantRule, Key: "git push"}, false},
		{"s1", engine.Scope{Kind: policy.GrantFile, Key: "/p/src/deep/a.go"}, true},
		{"s1", engine.Scope{Kind: policy.GrantDir, Key: "/p/src/deep"}, true},
		{"s1", engine.Scope{Kind: policy.GrantDir, Key: "/p/srcx"}, false},
		{"s1", engine.Scope{Kind: policy.GrantDir, Key: "/p"}, false},
		{"s1", engine.Scope{Kind: policy.GrantRule, Key: "/p/src"}, false},
		{"s2", commit, false},
	} {
		if got := fresh.Granted(tc.session, tc.scope) != ""; got != tc.granted {
			t.Errorf("Granted(%s, %v) = %v, want %v", tc.session, tc.scope, got, tc.granted)
		}
	}
	// Adding a scope that is covered already grants nothing new.
	if again, err := s.Add("s1", "Bash", map[engine.Scope]string{commit: "git commit -m y"}); err != nil || len(again) != 0 {
		t.Errorf("a covered scope was granted again: %v, %v", again, err)
	}
	// Used at 25 minutes, a grant lasts to 55; the other lapses at 30.
	c.t = c.t.Add(25 * time.Minute)
	if (&Store{Dir: s.Dir, Idle: s.Idle, Now: c.now}).Granted("s1", commit) == "" {
		t.Fatal("the grant lapsed before its idle limit")
	}
	c.t = c.t.Add(10 * time.Minute)
	later := &Store{Dir: s.Dir, Idle: s.Idle, Now: c.now}
	if later.Granted("s1", commit) == "" {
		t.Error("a grant used 10 minutes ago lapsed")
	}
	if later.Granted("s1", src) != "" {
		t.Error("a grant unused for 35 minutes is still live")
	}
	if gs, err := later.List(""); err != nil || len(gs) != 1 || gs[0].Scope != commit {
		t.Errorf("List after one lapsed: %v, %v", gs, err)
	}
}

// TestStoreRevoke: a grant revoked by id, a session's grants and the end of
// a session are gone at once, for every process.
func TestStoreRevoke(t *testing.T) {
	s, c := newStore(t)
	a, _ := s.Add("s1", "Bash", map[engine.Scope]string{commit: "git commit"})
	s.Add("s1", "Edit", map[engine.Scope]string{src: "Edit"})
	s.Add("s2", "Bash", map[engine.Scope]string{commit: "git commit"})
	if s.Granted("s1", commit) == "" {
		t.Fatal("not granted")
	}
	g, ok, err := s.Revoke(a[0].ID)
	if err != nil || !ok || g.ID != a[0].ID {
		t.Fatalf("Revoke: %v %v %v", g, ok, err)
	}
	if s.Granted("s1", commit) != "" || (&Store{Dir: s.Dir, Now: c.now}).Granted("s1", commit) != "" {
		t.Error("a revoked grant still grants")
	}
	if _, ok, _ := s.Revoke(a[0].ID); ok {
		t.Error("a grant was revoked twice")
	}
	if s.Granted("s1", src) == "" || s.Granted("s2", commit) == "" {
		t.Error("revoking one grant took others")
	}
	ended, err := s.EndSession("s1")
	if err != nil || len(ended) != 1 {
		t.Fatalf("EndSession: %v, %v", ended, err)
	}
	if s.Granted("s1", src) != "" {
		t.Error("a grant outlived its session")
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "s1.json")); !os.IsNotExist(err) {
		t.Errorf("the ended session's file is still there: %v", err)
	}
}

// TestStoreUnreadable: a store that cannot be read grants nothing: a
// corrupt file, a file of another version, a link in the file's place, a
// session id that could name another file.
func TestStoreUnreadable(t *testing.T) {
	s, c := newStore(t)
	s.Add("s1", "Bash", map[engine.Scope]string{commit: "git commit"})
	name := filepath.Join(s.Dir, "s1.json")
	good, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		setup func()
	}{
		{"corrupt", func() { os.WriteFile(name, good[:len(good)/2], 0o600) }},
		{"another version", func() { os.WriteFile(name, []byte(`{"version":2,"grants":[]}`), 0o600) }},
		{"a link", func() {
			target := filepath.Join(t.TempDir(), "elsewhere.json")
			os.WriteFile(target, good, 0o600)
			os.Remove(name)
			os.Symlink(target, name)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.setup()
			if id := (&Store{Dir: s.Dir, Now: c.now}).Granted("s1", commit); id != "" {
				t.Errorf("an unreadable store granted %s", id)
			}
			os.Remove(name)
			os.WriteFile(name, good, 0o600)
		})
	}
	for _, id := range []string{"../s1", "", ".hidden", "a/b", string(make([]byte, 200))} {
		if _, err := s.Add(id, "Bash", map[engine.Scope]string{commit: "x"}); err == nil {
			t.Errorf("Add with session id %q worked", id)
		}
		if s.Granted(id, commit) != "" {
			t.Errorf("session id %q was granted", id)
		}
	}
}

// TestStoreParallel: hooks granting at once lose no grant and corrupt no
// file. Each adds its own scope; all must be there after.
func TestStoreParallel(t *testing.T) {
	s, _ := newStore(t)
	const n = 100
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := &Store{Dir: s.Dir, Idle: s.Idle, Now: s.Now}
			sc := engine.Scope{Kind: policy.GrantRule, Key: fmt.Sprintf("rule %d", i)}
			if _, err := st.Add("s1", "Bash", map[engine.Scope]string{sc: "x"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	gs, err := s.List("s1")
	if err != nil || len(gs) != n {
		t.Fatalf("after %d parallel grants: %d grants, %v", n, len(gs), err)
	}
	for _, f := range []string{s.Dir, filepath.Join(s.Dir, "s1.json")} {
		fi, err := os.Stat(f)
		if err != nil || fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s: %v %v: others may read it", f, fi.Mode(), err)
		}
	}
}
