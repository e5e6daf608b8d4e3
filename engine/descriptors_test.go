// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"strings"
	"testing"

	"guard/shellparse"
)

// TestRealPathProc: paths under /proc/self belong to the process that opens
// them, so realPath does not follow guard's own links there.
func TestRealPathProc(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want "error: ..." for a path guard cannot follow
	}{
		{"/dev/stdout", "/proc/self/fd/1"},
		{"/dev/stdin", "/proc/self/fd/0"},
		{"/dev/fd/7", "/proc/self/fd/7"},
		{"/dev/fd/3/../x", "/proc/self/fd/3/../x"},
		{"/proc/self/fd/2", "/proc/self/fd/2"},
		{"/proc/thread-self/fd/1", "/proc/self/fd/1"},
		{"/proc/self/task/12/fd/1", "/proc/self/fd/1"},
		{"/proc/self/root/etc/shadow", "/etc/shadow"},
		{"/proc/1/root/etc/shadow", "/etc/shadow"},
		{"/proc/self/environ", "/proc/self/environ"},
		{"/proc/self/task/9/environ", "/proc/self/environ"},
		{"/proc/self/fd", "/proc/self/fd"},
		{"/proc/self/cwd/.env", "error: link of the process"},
		{"/proc/self/exe", "error: link of the process"},
		{"/proc/1/fd/0", "error: descriptor of another process"},
		{"/proc/self/../1/environ", "error: goes up"},
	} {
		got, err := realPath(OS, tc.in)
		if want, ok := strings.CutPrefix(tc.want, "error: "); ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("realPath(%q) = %q, %v; want an error with %q", tc.in, got, err, want)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("realPath(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestDescriptors: which descriptors a call's redirections leave unknown.
func TestDescriptors(t *testing.T) {
	for _, tc := range []struct {
		src  string
		fd   int
		want bool // refused
	}{
		{"echo x", 1, false},
		{"echo x", 2, false},
		{"echo x", 3, true},
		{"echo x 1<f", 1, true},
		{"echo x <f", 0, true},
		{"echo x <f", 1, false},
		{"echo x >f", 1, true},
		{"echo x &>f", 2, true},
		{"echo x >&f", 2, true},
		{"echo x >/dev/null", 1, false},
		{"echo x 2>&1", 2, false},
		{"echo x 1<f 2>&1", 2, true},
		{"echo x 2>&1 1<f", 2, true},
		{"echo x 3<f 1>&3", 1, true},
		{"echo x 1>&3", 1, true},
		{"echo x 1>&-", 1, false},
		{"echo x 2>/dev/stdout", 2, false},
		{"echo x 1<f 2>/dev/stdout", 2, true},
		{"echo x 1<f 2>/proc/self/fd/1", 2, true},
		{"echo x {fd}<f", 1, true},
		{"cat <<E\nx\nE", 0, true},
	} {
		s, err := shellparse.Parse(tc.src, shellparse.Options{})
		if err != nil {
			t.Fatalf("input: %q: %v", tc.src, err)
		}
		var ds descriptors
		for _, c := range s.Commands {
			for _, r := range c.Redirs {
				ds.note(r)
			}
		}
		if got := ds.check("/dev/fd/N", tc.fd) != nil; got != tc.want {
			t.Errorf("input: %q: descriptor %d refused = %v, want %v", tc.src, tc.fd, got, tc.want)
		}
	}
}

func TestSafeLocale(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{"", true}, {"C", true}, {"POSIX", true}, {"C.UTF-8", true}, {"C.utf8", true},
		{"en_US.UTF-8", true}, {"de_DE.utf8@euro", true}, {"sr_RS.UTF-8@latin", true},
		{"zh_CN.GBK", false}, {"zh_CN.GB18030", false}, {"zh_TW.Big5", false}, {"ja_JP.SJIS", false},
		{"en_US", false}, {"zh_CN", false}, {"en_US.ISO-8859-1", false}, {"de_DE@euro", false}, {"c", false},
	} {
		if got := safeLocale(tc.v); got != tc.want {
			t.Errorf("safeLocale(%q) = %v, want %v", tc.v, got, tc.want)
		}
	}
}
