// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSessionFile(t *testing.T) {
	env := func(m map[string]string) getenv { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		id   string
		env  map[string]string
		want string
	}{
		{"s1", map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/guard/sessions/s1"},
		{"s1", map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "/st"}, "/st/guard/sessions/s1"},
		{"../s1", map[string]string{"HOME": "/home/u"}, ""},
		{"..", map[string]string{"HOME": "/home/u"}, ""},
		{"a/b", map[string]string{"HOME": "/home/u"}, ""},
		{"", map[string]string{"HOME": "/home/u"}, ""},
		{"s1", map[string]string{"HOME": "rel"}, ""},
	} {
		if got := sessionFile(env(tc.env), tc.id); got != tc.want {
			t.Errorf("sessionFile(%q, %v) = %q, want %q", tc.id, tc.env, got, tc.want)
		}
	}
}

// TestSessionNoFollow: a link where the session file or its directory
// should be is not written through, nor read.
func TestSessionNoFollow(t *testing.T) {
	home := t.TempDir()
	env := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	victim := filepath.Join(home, "victim")
	if err := os.WriteFile(victim, []byte("Skill\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	name := sessionFile(env, "s1")
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, name); err != nil {
		t.Fatal(err)
	}
	recordSession(name, "Bash")
	if data, _ := os.ReadFile(victim); string(data) != "Skill\n" {
		t.Errorf("recordSession wrote through a link: the target holds %q", data)
	}
	if got := sessionApproved(name); got["Skill"] {
		t.Errorf("sessionApproved read through a link: %v", got)
	}

	// A sessions directory that is a link.
	other := t.TempDir()
	sessions := filepath.Dir(name)
	if err := os.RemoveAll(sessions); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, sessions); err != nil {
		t.Fatal(err)
	}
	recordSession(name, "Bash")
	if ents, _ := os.ReadDir(other); len(ents) != 0 {
		t.Errorf("recordSession wrote into a linked sessions directory: %v", ents)
	}
}

func TestOwnDirs(t *testing.T) {
	got := ownDirs(func(k string) string {
		return map[string]string{"XDG_STATE_HOME": "/st", "XDG_CONFIG_HOME": "/cfg"}[k]
	}, []string{"/home/u", "", "rel"})
	want := []string{"/st/guard", "/cfg/guard", "/home/u/.local/state/guard", "/home/u/.config/guard"}
	if len(got) != len(want) {
		t.Fatalf("ownDirs = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("ownDirs = %q, want %q", got, want)
			break
		}
	}
}

func TestPasswdEntryHome(t *testing.T) {
	passwd := "root:x:0:0:root:/root:/bin/bash\nu:x:1000:1000::/home/u:/bin/zsh\nbad:x:1001:1001::rel:/bin/sh\n"
	for _, tc := range []struct{ uid, want string }{{"0", "/root"}, {"1000", "/home/u"}, {"1001", ""}, {"7", ""}} {
		if got := passwdEntryHome(passwd, tc.uid); got != tc.want {
			t.Errorf("passwdEntryHome(uid %s) = %q, want %q", tc.uid, got, tc.want)
		}
	}
}
