// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"testing"
)

func TestStateDir(t *testing.T) {
	env := func(m map[string]string) getenv { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/guard"},
		{map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "/st"}, "/st/guard"},
		{map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "rel"}, "/home/u/.local/state/guard"},
		{map[string]string{"HOME": "rel"}, ""},
		{map[string]string{}, ""},
	} {
		if got := stateDir(env(tc.env)); got != tc.want {
			t.Errorf("stateDir(%v) = %q, want %q", tc.env, got, tc.want)
		}
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
