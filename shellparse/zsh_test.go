// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"strings"
	"testing"
)

// zshTests: source, and the script Parse reads with Options.Zsh. Each
// refused input does something else in zsh 5.9 than in bash 5.2 (checked
// by running both in a sandbox); each accepted one reads alike in both.
var zshTests = []struct {
	src  string
	want string
}{
	// Brace expansion bash leaves alone.
	{`find . {-..-}exec touch x ';'`, `cmd 1:1 "find" "." <zsh brace expansion> "touch" "x" ";"`},
	{`echo {-..-} {a..-} {%,%}`, `cmd 1:1 "echo" <zsh brace expansion> <zsh brace expansion> <brace expansion>`},
	{`echo {-,-}x`, `cmd 1:1 "echo" <brace expansion>`},
	{`echo '{-..-}' \{-..-} {} x{y} { a{`, "cmd 1:1 \"echo\" \"{-..-}\" \"{-..-}\" \"{}\" \"x{y}\" \"{\" \"a{\"\nfinding 1:15 zsh"},
	{`{ echo a}; }`, "cmd 1:3 \"echo\" \"a}\"\nfinding 1:1 group\nfinding 1:8 zsh"},
	{`echo a{b}c} '}' \}`, "cmd 1:1 \"echo\" \"a{b}c}\" \"}\" \"}\"\nfinding 1:6 zsh"},
	{`git log HEAD@{1} @{u}`, `cmd 1:1 "git" "log" "HEAD@{1}" "@{u}"`},

	// =cmd is the path of cmd.
	{`ls =ls`, `cmd 1:1 "ls" <zsh replaces =NAME with the path of the command NAME>`},
	{`x==ls ls`, `cmd 1:1 x=<zsh replaces =NAME with the path of the command NAME> "ls"`},
	{`echo = a=b '=x'`, `cmd 1:1 "echo" "=" "a=b" "=x"`},

	// $'...' escapes: only those both shells decode alike.
	{`echo $'\-'`, `cmd 1:1 "echo" <zsh reads this $'...' escape differently>`},
	{`echo $'\q' $'\101' $'\x4'`, `cmd 1:1 "echo" <zsh reads this $'...' escape differently> <zsh reads this $'...' escape differently> <zsh reads this $'...' escape differently>`},
	{`echo $'a\tb\n\x41\\\''`, `cmd 1:1 "echo" "a\tb\nA\\'"`},

	// Arithmetic in builtin arguments.
	{`printf '%d' PATH=0`, "cmd 1:1 \"printf\" \"%d\" \"PATH=0\"\nfinding 1:1 zsh"},
	{`printf '%*s' 'x=1' y`, "cmd 1:1 \"printf\" \"%*s\" \"x=1\" \"y\"\nfinding 1:1 zsh"},
	{`printf -- '%5.2f\n' 3.5 -1`, `cmd 1:1 "printf" "--" "%5.2f\\n" "3.5" "-1"`},
	{`printf '%s %c\n' PATH=0 x`, `cmd 1:1 "printf" "%s %c\\n" "PATH=0" "x"`},
	{`exit PATH=4`, "cmd 1:1 \"exit\" \"PATH=4\"\nfinding 1:1 zsh"},
	{`shift x`, "cmd 1:1 \"shift\" \"x\"\nfinding 1:1 zsh"},
	{`exit 3`, `cmd 1:1 "exit" "3"`},

	// Redirections.
	{`> out`, "redirect 1:1 >\"out\"\nfinding 1:1 zsh"},
	{`< README.md`, "redirect 1:1 <\"README.md\"\nfinding 1:1 zsh"},
	{`echo x >! f`, "cmd 1:1 \"echo\" \"x\" \"f\" >\"!\"\nfinding 1:8 zsh"},
	{`cat <1-10>x`, "cmd 1:1 \"cat\" <\"1-10\" >\"x\"\nfinding 1:5 zsh"},
	{`cat <in >out`, `cmd 1:1 "cat" <"in" >"out"`},

	// time -p runs a program named -p.
	{`time -p ls`, "cmd 1:9 \"ls\"\nfinding 1:1 zsh"},
	{`time ls`, `cmd 1:6 "ls"`},
	{`echo | time cd x`, "cmd 1:1 \"echo\"\ncmd 1:8 \"time\" \"cd\" \"x\"\nfinding 1:8 zsh"},
}

func TestZsh(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range zshTests {
		if seen[tc.src] {
			t.Fatalf("duplicate test %q", tc.src)
		}
		seen[tc.src] = true
		s, err := Parse(tc.src, Options{Zsh: true})
		if err != nil {
			t.Errorf("input: %q\nunexpected error: %v", tc.src, err)
			continue
		}
		if got := strings.TrimSpace(s.String()); got != tc.want {
			t.Errorf("input: %q\ngot:\n%s\nwant:\n%s", tc.src, got, tc.want)
		}
		// Without zsh, nothing of it is refused for zsh's sake.
		b, err := Parse(tc.src, Options{})
		if err != nil {
			t.Errorf("input: %q\nunexpected error for bash: %v", tc.src, err)
			continue
		}
		if got := b.String(); strings.Contains(got, "zsh") {
			t.Errorf("input: %q\nbash alone reads it as\n%s", tc.src, got)
		}
	}
}

func TestZshCd(t *testing.T) {
	s, err := Parse("cd +1 && ls", Options{Zsh: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Commands[1].Dir; d.Known() {
		t.Errorf("zsh: after cd +1, ls runs in %v, want unknown (the directory stack)", d)
	}
	s, err = Parse("cd +1 && ls", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Commands[1].Dir; !d.Known() {
		t.Errorf("bash: after cd +1, ls runs in an unknown directory, want ./+1")
	}
}
