// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package setup

import "testing"

// TestAgentLocale checks how guard finds the agent's locale: the variable
// that sets the character set first, $LC_ALL, then $LC_CTYPE, then $LANG.
func TestAgentLocale(t *testing.T) {
	tests := []struct {
		lcAll, lcCtype, lang string
		want                 string
	}{
		{"", "", "", ""},
		{"", "", "en_US.UTF-8", "en_US.UTF-8"},
		{"", "zh_CN.GBK", "en_US.UTF-8", "zh_CN.GBK"},
		{"C", "zh_CN.GBK", "zh_CN.GBK", "C"},
		{"ja_JP.SJIS", "", "C.UTF-8", "ja_JP.SJIS"},
		{"", "C", "", "C"},
	}
	for _, tc := range tests {
		env := func(k string) string {
			return map[string]string{"LC_ALL": tc.lcAll, "LC_CTYPE": tc.lcCtype, "LANG": tc.lang}[k]
		}
		if got := Locale(env); got != tc.want {
			t.Errorf("LC_ALL=%q LC_CTYPE=%q LANG=%q: Locale = %q, want %q", tc.lcAll, tc.lcCtype, tc.lang, got, tc.want)
		}
	}
}

func TestOwnDirs(t *testing.T) {
	got := OwnDirs(func(k string) string {
		return map[string]string{"XDG_STATE_HOME": "/st", "XDG_CONFIG_HOME": "/cfg"}[k]
	}, []string{"/home/u", "", "rel"})
	want := []string{"/st/guard", "/cfg/guard", "/home/u/.local/state/guard", "/home/u/.config/guard"}
	if len(got) != len(want) {
		t.Fatalf("OwnDirs = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("OwnDirs = %q, want %q", got, want)
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
