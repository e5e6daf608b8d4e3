// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package setup

import (
	"testing"
)

func TestStateDir(t *testing.T) {
	env := func(m map[string]string) Getenv { return func(k string) string { return m[k] } }
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
		if got := StateDir(env(tc.env)); got != tc.want {
			t.Errorf("StateDir(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}
