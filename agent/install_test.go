// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import "testing"

// TestIsGuardHook: a hook command runs guard hook by its first word, the
// guard binary (quoted as guard init quotes it, spaces and quotes in its
// path too), and its second, hook.
func TestIsGuardHook(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"guard hook", true},
		{"/usr/local/bin/guard hook --agent kiro", true},
		{quote("/usr/local/bin/guard") + " hook --agent kiro", true},
		{quote("/opt/guard bin/guard") + " hook --agent goose", true},
		{quote("/opt/it's/guard") + " hook", true},
		{`"/usr/local/bin/guard" hook`, true},
		{"guard run -- ls", false},
		{"./lint.sh", false},
		{quote("/opt/guard bin/lint") + " hook", false},
		{quote("/opt/guard bin/guard") + "hook", false},
		{"'/opt/guard bin/guard hook", false},
		{"", false},
	} {
		if got := IsGuardHook(tc.cmd); got != tc.want {
			t.Errorf("IsGuardHook(%q) = %v, want %v", tc.cmd, got, tc.want)
		}
	}
	if IsGuardHook(7) {
		t.Error("IsGuardHook(7) = true")
	}
}

// TestHookBinary: the program a hook command runs, as guard doctor runs
// it: the path guard init quotes, spaces and quotes in it too.
func TestHookBinary(t *testing.T) {
	for cmd, want := range map[string]string{
		quote("/opt/guard bin/guard") + " hook --agent claude": "/opt/guard bin/guard",
		quote("/opt/it's/guard") + " hook":                     "/opt/it's/guard",
		"/usr/local/bin/guard hook":                            "/usr/local/bin/guard",
		`"/usr/local/bin/guard" hook`:                          "/usr/local/bin/guard",
		"  guard\thook":                                        "guard",
		"guard":                                                "guard",
		"":                                                     "",
	} {
		if got, _ := HookBinary(cmd); got != want {
			t.Errorf("HookBinary(%q) = %q, want %q", cmd, got, want)
		}
	}
}
