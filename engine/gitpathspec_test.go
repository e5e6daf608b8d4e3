// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"slices"
	"strings"
	"testing"
)

func TestWildmatch(t *testing.T) {
	for _, tc := range []struct {
		pat, text string
		pathname  bool
		want      bool
	}{
		{"*.env", ".env", false, true},
		{"*.env", "a/b/.env", false, true}, // * crosses /
		{"*.env", "a/b/.env", true, false},
		{"s*", "src/.env", false, true},
		{"s*", "src/.env", true, false},
		{"**/.env", ".env", true, true}, // **/ as no directory
		{"**/.env", ".env", false, false},
		{"**/.env", "a/b/.env", true, true},
		{"a/**/b", "a/b", true, true},
		{"a/**/b", "a/x/y/b", true, true},
		{"a**b", "a/x/b", true, false}, // ** inside a name is *
		{"a/**", "a/x/y", true, true},
		{".e?v", ".env", false, true},
		{"[.]env", ".env", false, true},
		{"[.]e*", ".env", false, true},
		{"[!a]env", ".env", false, true},
		{"[^.]env", ".env", false, false},
		{"[a-z]x", "bx", false, true},
		{"[]]x", "]x", false, true},
		{"[[:alpha:]]x", "bx", false, true},
		{"[[:digit:]]x", "bx", false, false},
		{"\\*x", "*x", false, true},
		{"\\*x", "ax", false, false},
		{"a?b", "a/b", true, false},
		{"a?b", "a/b", false, true},
		{"a[/]b", "a/b", true, false},
		{"*", "", false, true},
		{"[abc", "a", false, false}, // a class that does not end matches nothing
		{strings.Repeat("*a", 30) + "b", strings.Repeat("a", 80), false, false},
	} {
		if got := wildmatch(tc.pat, tc.text, tc.pathname); got != tc.want {
			t.Errorf("wildmatch(%q, %q, pathname %v) = %v, want %v", tc.pat, tc.text, tc.pathname, got, tc.want)
		}
	}
}

// TestPathspecItem: an element read each way the environment may make git
// read it.
func TestPathspecItem(t *testing.T) {
	for _, tc := range []struct {
		elem, dir string
		mode      gitSpecMode
		want      gitSpecItem
	}{
		{"*.env", "", gitSpecMode{}, gitSpecItem{match: "*.env", kind: specWildcard}},
		{"*.env", "", gitSpecMode{glob: true}, gitSpecItem{match: "*.env", kind: specGlob}},
		{"*.env", "", gitSpecMode{noglob: true}, gitSpecItem{match: "*.env", kind: specLiteral}},
		{":(glob)*.env", "", gitSpecMode{noglob: true}, gitSpecItem{match: "*.env", kind: specGlob}},
		{":(literal)*.env", "", gitSpecMode{glob: true}, gitSpecItem{match: "*.env", kind: specLiteral}},
		{":(icase).ENV", "", gitSpecMode{}, gitSpecItem{match: ".ENV", kind: specLiteral, icase: true}},
		{".ENV", "", gitSpecMode{icase: true}, gitSpecItem{match: ".ENV", kind: specLiteral, icase: true}},
		{":(exclude)x", "", gitSpecMode{literal: true}, gitSpecItem{match: ":(exclude)x", kind: specLiteral}},
		{":!x", "sub", gitSpecMode{}, gitSpecItem{match: "sub/x", kind: specLiteral, exclude: true}},
		{":^x", "sub", gitSpecMode{}, gitSpecItem{match: "sub/x", kind: specLiteral, exclude: true}},
		{":/x", "sub", gitSpecMode{}, gitSpecItem{match: "x", kind: specLiteral}},
		{":!/x", "sub", gitSpecMode{}, gitSpecItem{match: "x", kind: specLiteral, exclude: true}},
		{":(top,exclude)x", "sub", gitSpecMode{}, gitSpecItem{match: "x", kind: specLiteral, exclude: true}},
		{"::x", "sub", gitSpecMode{}, gitSpecItem{match: "sub/x", kind: specLiteral}},
		{"../.env", "sub", gitSpecMode{}, gitSpecItem{match: ".env", kind: specLiteral}},
		{"./a//b/", "sub", gitSpecMode{}, gitSpecItem{match: "sub/a/b", kind: specLiteral, slash: true}},
		{"../../x", "sub", gitSpecMode{}, gitSpecItem{dies: true}},
		{":(glob,literal)x", "", gitSpecMode{}, gitSpecItem{dies: true}},
		{":(frob)x", "", gitSpecMode{}, gitSpecItem{dies: true}},
		{":(prefix:0).env", "", gitSpecMode{}, gitSpecItem{match: ".env", kind: specLiteral}},
		{":(prefix:0).env", "sub", gitSpecMode{}, gitSpecItem{dies: true}},
		{":(attr:secret)x", "", gitSpecMode{}, gitSpecItem{match: "x", kind: specLiteral, attr: true}},
		{"/p/sub/.env", "a", gitSpecMode{}, gitSpecItem{match: "sub/.env", kind: specLiteral}},
		{"/home/u/.ssh/id_rsa", "a", gitSpecMode{}, gitSpecItem{dies: true}},
	} {
		if got := tc.mode.item(tc.elem, tc.dir, "/p"); got != tc.want {
			t.Errorf("%q in %q, %+v: %+v, want %+v", tc.elem, tc.dir, tc.mode, got, tc.want)
		}
	}
}

// TestPathspecAdmits compares the paths guard admits with those git
// prints, for pathspecs and environments: git's must be among guard's, and
// guard's are git's in the way git reads them by default.
func TestPathspecAdmits(t *testing.T) {
	g := newGitFixture(t)
	files := []string{".env", "a/.env", "a/b/.env.local", "x.go/.env", "x.go", "src/a.go", "src/.env", "SRC/B.GO", ".ENV",
		"[x].go", "x].go", "*.env", "sub/x", "sub/y/z", "ex.env", "a/e.env", "b/.Env"}
	for i, f := range files {
		if f == "x.go" {
			files[i] = "y.go"
			f = "y.go"
		}
		g.write(f, f)
	}
	g.git("add", "-A")
	g.git("commit", "-q", "-m", "all")
	empty := strings.TrimSpace(g.git("hash-object", "-t", "tree", "/dev/null"))
	for _, spec := range [][]string{
		{"*.env"}, {".e*"}, {":(icase).ENV"}, {":(glob).e*"}, {":(glob)**/.env"}, {"**/.env"}, {"s*"}, {":(glob)s*"},
		{"src"}, {"src/"}, {"x.go"}, {"*.go"}, {":(glob)*.go"}, {"[x].go"}, {":(literal)[x].go"}, {"\\*.env"},
		{":!src"}, {".", ":!.env"}, {".", ":(exclude,glob)**/.env"}, {"a", ":^a/b"}, {":/a"}, {":(icase)src/*.GO"},
		{"*", ":!*.env", ":!*/.env"}, {":(attr:x)*.env"}, {".", ":(exclude,attr:x)*.env"}, {"a/", ":!a/*"},
	} {
		for _, env := range []string{"", "GIT_LITERAL_PATHSPECS=1", "GIT_GLOB_PATHSPECS=1", "GIT_NOGLOB_PATHSPECS=1", "GIT_ICASE_PATHSPECS=1"} {
			saved := g.env
			if env != "" {
				g.env = append(slices.Clone(g.env), env)
			}
			out := g.git(append([]string{"diff", "--name-only", "--no-renames", empty, "HEAD", "--"}, spec...)...)
			g.env = saved
			ps := &gitSpec{elems: spec, modes: gitSpecModes(nil)}
			for _, p := range strings.Fields(out) {
				if !ps.admits(p) {
					t.Errorf("pathspec %q with %q: git prints %s, which guard does not admit", spec, env, p)
				}
			}
			if env != "" || strings.Contains(strings.Join(spec, " "), "attr:") {
				continue // an attribute guard does not read: it admits more
			}
			def := &gitSpec{elems: spec, modes: []gitSpecMode{{}}}
			var got []string
			for _, f := range files {
				if def.admits(f) {
					got = append(got, f)
				}
			}
			want := strings.Fields(out)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("pathspec %q read the default way: guard admits %q, git prints %q", spec, got, want)
			}
		}
	}
}
