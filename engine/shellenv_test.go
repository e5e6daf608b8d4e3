// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"testing"

	"guard/shellparse"
)

// TestNamesFileWord checks the values, as written, that make a variable
// name a file: a ~ the shell expands and zsh's =NAME make a path of them.
func TestNamesFileWord(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"TZ=~/zone date", true},
		{"TZ=~+/zone date", true},
		{"TZ=:~/.ssh/id_rsa date", true},
		{"TZ=x:~/y date", true},
		{"LC_TIME=~ date", true},
		{"LANGUAGE=~+ ls", true},
		{"TERM=~- ls", true},
		{"TZ==date date", true},
		{"TZ=x:=ls date", true},
		{"TZ=/etc/shadow date", true},
		{"TZ=UTC date", false},
		{"TZ=Europe/Paris date", false},
		{"TZ='~/x' date", false},
		{"LANG=C.UTF-8 ls", false},
		{"COLUMNS=~ ls", false},
		{"CI==ls ls", false},
	} {
		s, err := shellparse.Parse(tc.src, shellparse.Options{Zsh: true})
		if err != nil || len(s.Commands) != 1 || len(s.Commands[0].Assigns) != 1 {
			t.Fatalf("%s: %v", tc.src, err)
		}
		a := s.Commands[0].Assigns[0]
		if why, got := namesFileWord(a.Name, a.Value); got != tc.want {
			t.Errorf("%s: namesFileWord = %v (%s), want %v", tc.src, got, why, tc.want)
		}
	}
	for name, want := range map[string]bool{"TZ": true, "TERM": true, "LANGUAGE": true, "LC_TIME": true, "COLUMNS": false, "f": false} {
		if _, got := loopNamesFile(name); got != want {
			t.Errorf("loopNamesFile(%s) = %v, want %v", name, got, want)
		}
	}
}
