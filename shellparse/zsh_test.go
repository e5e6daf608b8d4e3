// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"math/rand/v2"
	"regexp"
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

// TestZshMatchers checks the hand-written matchers of zsh.go against the
// regular expressions they replace: every string of up to 5 bytes over an
// alphabet that holds each class the expressions name, then random longer
// ones.
func TestZshMatchers(t *testing.T) {
	matchers := []struct {
		name     string
		f        func(string) bool
		re       *regexp.Regexp
		alphabet string
	}{
		{"numericGlob", numericGlob, regexp.MustCompile(`^[0-9]*-[0-9]*$`), "-09a\n"},
		{"namedFd", namedFd, regexp.MustCompile(`^\{[A-Za-z_][A-Za-z0-9_]*\}$`), "{}_aZ09@[`\xff"},
		{"numericConversion", numericConversion, regexp.MustCompile(`%[-+ #0'I]*(\*|[0-9]*(\.(\*|[0-9]*))?[hlLqjzt]*[diouxXeEfFgGaA]|[0-9]*\.\*)`), "%-0'5.*ldAsy"},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, m := range matchers {
		check := func(s string) bool {
			if got, want := m.f(s), m.re.MatchString(s); got != want {
				t.Errorf("%s(%q) = %v, the regexp says %v", m.name, s, got, want)
				return false
			}
			return true
		}
		var strs func(prefix string, n int) bool
		strs = func(prefix string, n int) bool {
			if !check(prefix) {
				return false
			}
			if n == 0 {
				return true
			}
			for i := 0; i < len(m.alphabet); i++ {
				if !strs(prefix+m.alphabet[i:i+1], n-1) {
					return false
				}
			}
			return true
		}
		if !strs("", 5) {
			continue
		}
		for range 20000 {
			b := make([]byte, 6+r.IntN(10))
			for i := range b {
				b[i] = m.alphabet[r.IntN(len(m.alphabet))]
			}
			if !check(string(b)) {
				break
			}
		}
	}
}
