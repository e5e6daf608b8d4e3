// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"path"
	"strings"
)

// Pathspecs as git reads them.
//
// A pathspec element may carry magic (:(icase), :(glob), :(literal),
// :(exclude) and its short forms :! and :^, :(attr:...), :(top) and :/),
// and is read as a wildcard pattern (fnmatch without FNM_PATHNAME: * and ?
// cross /), as a glob (:(glob): * stays in a component, ** crosses), or
// literally. Which one depends on the environment too: GIT_LITERAL_PATHSPECS
// turns magic off and every element into a literal path (so :(exclude)x
// excludes nothing), GIT_GLOB_PATHSPECS and GIT_NOGLOB_PATHSPECS change the
// default, GIT_ICASE_PATHSPECS ignores case. The agent's environment is not
// guard's to see, so guard reads the elements in every one of those ways
// (gitSpecModes) and takes the widest: a path is admitted when some way
// admits it. git's own options (--literal-pathspecs and the others) set
// those variables, so they narrow the ways: --no-literal-pathspecs takes
// GIT_LITERAL_PATHSPECS away.

// gitSpecMode is one way the environment may make git read pathspecs.
type gitSpecMode struct {
	literal, glob, noglob, icase bool
}

// gitSpecModes returns the ways git may read pathspecs under the global
// options of the command: with --literal-pathspecs only the literal one
// (with any other setting git dies), with --glob-pathspecs or
// --noglob-pathspecs that one, icase or not, and without them any.
func gitSpecModes(global map[string]bool) []gitSpecMode {
	icase := []bool{false, true}
	if global["--icase-pathspecs"] {
		icase = []bool{true}
	}
	var out []gitSpecMode
	switch {
	case global["--literal-pathspecs"]:
		if global["--icase-pathspecs"] || global["--glob-pathspecs"] || global["--noglob-pathspecs"] {
			return nil // git dies: literal goes with no other setting
		}
		return []gitSpecMode{{literal: true}}
	case global["--glob-pathspecs"] && global["--noglob-pathspecs"]:
		return nil
	case global["--glob-pathspecs"]:
		for _, ic := range icase {
			out = append(out, gitSpecMode{glob: true, icase: ic})
		}
	case global["--noglob-pathspecs"]:
		for _, ic := range icase {
			out = append(out, gitSpecMode{noglob: true, icase: ic})
		}
	default:
		for _, ic := range icase {
			out = append(out, gitSpecMode{icase: ic}, gitSpecMode{glob: true, icase: ic}, gitSpecMode{noglob: true, icase: ic})
		}
		if !global["--no-literal-pathspecs"] && !global["--icase-pathspecs"] {
			out = append(out, gitSpecMode{literal: true})
		}
	}
	return out
}

// Kinds of pathspec item.
const (
	specLiteral  = iota // the path and what is under it
	specWildcard        // fnmatch: * and ? cross /
	specGlob            // wildmatch with FNM_PATHNAME: ** crosses /
)

// gitSpecItem is a pathspec element read one way.
type gitSpecItem struct {
	match   string // from the top of the working tree, magic taken off
	kind    int
	icase   bool
	exclude bool
	attr    bool // :(attr:...): only the paths with those attributes
	slash   bool // written with a / at its end
	dies    bool // git refuses the element: nothing is printed
}

// gitSpec is a command's pathspec elements, written in dir, the
// directory the command runs in, from the top of the working tree.
type gitSpec struct {
	elems []string
	dir   string
	top   string // the top itself, an absolute path, for an element that is one
	modes []gitSpecMode

	// The elements read in each mode, kept while elems does not change.
	read   [][]gitSpecItem
	dies   []bool
	readOf int
}

// item reads an element in a mode, as git's init_pathspec_item does.
func (m gitSpecMode) item(elem, dir, top string) gitSpecItem {
	var it gitSpecItem
	var lit, glob, fromTop bool
	body := elem
	if !m.literal && strings.HasPrefix(elem, ":") {
		if strings.HasPrefix(elem, ":(") {
			end := strings.IndexByte(elem, ')')
			if end < 0 {
				return gitSpecItem{dies: true}
			}
			for _, mg := range strings.Split(elem[2:end], ",") {
				switch {
				case mg == "":
				case mg == "top":
					fromTop = true
				case mg == "literal":
					lit = true
				case mg == "glob":
					glob = true
				case mg == "icase":
					it.icase = true
				case mg == "exclude":
					it.exclude = true
				case strings.HasPrefix(mg, "attr:"):
					it.attr = true
				case strings.HasPrefix(mg, "prefix:"):
					// For git's own use, from the top only (elsewhere
					// git stops): the element is from the top.
					if dir != "" {
						return gitSpecItem{dies: true}
					}
					fromTop = true
				default:
					return gitSpecItem{dies: true} // git refuses a magic it does not know
				}
			}
			body = elem[end+1:]
		} else {
			i := 1
		short:
			for ; i < len(elem); i++ {
				switch elem[i] {
				case '/':
					fromTop = true
				case '!', '^':
					it.exclude = true
				case ':':
					i++
					break short
				default:
					break short
				}
			}
			body = elem[i:]
		}
	}
	switch {
	case m.literal:
		lit = true
	case m.glob && !lit:
		glob = true
	case m.noglob && !glob:
		lit = true
	}
	if m.icase {
		it.icase = true
	}
	if lit && glob {
		return gitSpecItem{dies: true}
	}
	switch {
	case lit:
		it.kind = specLiteral
	case glob:
		it.kind = specGlob
	default:
		it.kind = specWildcard
	}
	full := body
	switch {
	case path.IsAbs(body) && !fromTop:
		// An absolute path in the working tree is taken from its top.
		rel, ok := relDir(top, path.Clean(body))
		if top == "" || !ok {
			return gitSpecItem{dies: true} // outside the repository
		}
		full = rel
	case !fromTop && dir != "":
		full = dir + "/" + body
	}
	match, ok := normalGitPath(full)
	if !ok {
		return gitSpecItem{dies: true} // outside the repository
	}
	if it.kind != specLiteral && !hasWildcard(match) {
		it.kind = specLiteral
	}
	it.match, it.slash = match, strings.HasSuffix(body, "/")
	return it
}

// normalGitPath cleans a path from the top of the working tree as git's
// normalize_path_copy does, keeping a trailing slash out; false when it
// climbs out of the top.
func normalGitPath(p string) (string, bool) {
	var out []string
	for _, c := range strings.Split(p, "/") {
		switch c {
		case "", ".":
		case "..":
			if len(out) == 0 {
				return "", false
			}
			out = out[:len(out)-1]
		default:
			out = append(out, c)
		}
	}
	return strings.Join(out, "/"), true
}

// hasWildcard reports whether a pathspec has a character git's wildmatch
// reads as special.
func hasWildcard(s string) bool { return strings.ContainsAny(s, "*?[\\") }

// items returns the elements read in a mode; dies is true when git
// refuses one of them, and so prints nothing.
func (s *gitSpec) items(m gitSpecMode) (items []gitSpecItem, dies bool) {
	for _, e := range s.elems {
		it := m.item(e, s.dir, s.top)
		if it.dies {
			return nil, true
		}
		items = append(items, it)
	}
	return items, false
}

// each returns the elements read in each of the modes, and whether git
// refuses them read that way.
func (s *gitSpec) each() ([][]gitSpecItem, []bool) {
	if s.read == nil || s.readOf != len(s.elems) {
		s.read, s.dies, s.readOf = make([][]gitSpecItem, len(s.modes)), make([]bool, len(s.modes)), len(s.elems)
		for i, m := range s.modes {
			s.read[i], s.dies[i] = s.items(m)
		}
	}
	return s.read, s.dies
}

// admits reports whether git, read any of the ways, may print the path
// p (from the top) of a tree.
func (s *gitSpec) admits(p string) bool {
	if s == nil || len(s.elems) == 0 {
		return true
	}
	read, dies := s.each()
	for i, items := range read {
		if !dies[i] && admitsIn(items, p) {
			return true
		}
	}
	return false
}

func admitsIn(items []gitSpecItem, p string) bool {
	positive, in := false, false
	for _, it := range items {
		if it.exclude {
			continue
		}
		positive = true
		if it.matches(p) {
			in = true
			break
		}
	}
	if positive && !in {
		return false
	}
	for _, it := range items {
		if it.exclude && it.surelyMatches(p) {
			return false
		}
	}
	return true
}

// surelyMatches reports whether an exclusion surely takes p out: never
// more than git takes out. An exclusion by attributes may not apply, and a
// class ([...]) or a pattern that ends in / may be read in ways guard
// does not follow.
func (it gitSpecItem) surelyMatches(p string) bool {
	if it.attr || it.kind != specLiteral && (it.slash || strings.Contains(it.match, "[")) {
		return false
	}
	return it.matches(p)
}

// matches reports whether the item matches p as git's tree walks do: the
// path it spells and what is under it, and a pattern the whole path.
func (it gitSpecItem) matches(p string) bool {
	m := it.match
	if it.icase {
		m, p = strings.ToLower(m), strings.ToLower(p)
	}
	if m == "" || p == m || strings.HasPrefix(p, m+"/") {
		return true // a pattern matches itself, as a path, too
	}
	switch it.kind {
	case specLiteral:
		return false
	case specGlob:
		return wildmatch(m, p, true)
	}
	return wildmatch(m, p, false)
}

// prefix returns the directory every path the item matches is in, as far
// as its literal start says ("" for anywhere).
func (it gitSpecItem) prefix() string {
	m := it.match
	if it.kind != specLiteral {
		if i := strings.IndexAny(m, "*?[\\"); i >= 0 {
			m = m[:i]
		}
		if j := strings.LastIndexByte(m, '/'); j >= 0 {
			return m[:j]
		}
		return ""
	}
	return m
}

// descends reports whether a tree walk must go into the directory dir
// (from the top) to find every path the pathspecs may admit.
func (s *gitSpec) descends(dir string) bool {
	if s == nil || len(s.elems) == 0 {
		return true
	}
	d := strings.ToLower(dir)
	read, dies := s.each()
	for k, items := range read {
		if dies[k] {
			continue
		}
		positive := false
		for _, it := range items {
			if it.exclude {
				continue
			}
			positive = true
			pre := strings.ToLower(it.prefix())
			if pre == "" || d == pre || strings.HasPrefix(d, pre+"/") || strings.HasPrefix(pre, d+"/") {
				return true
			}
		}
		if !positive {
			return true
		}
	}
	return false
}

// wildmatch matches text against a pattern as git's wildmatch does: with
// pathname, * and ? and classes do not match /, and ** between slashes
// matches any number of directories; without, * and ? match anything.
func wildmatch(pat, text string, pathname bool) bool {
	memo := map[[2]int]bool{}
	var match func(pi, ti int) bool
	match = func(pi, ti int) bool {
		key := [2]int{pi, ti}
		if v, ok := memo[key]; ok {
			return v
		}
		v := wildStep(pat, text, pi, ti, pathname, match)
		memo[key] = v
		return v
	}
	return match(0, 0)
}

func wildStep(pat, text string, pi, ti int, pathname bool, match func(int, int) bool) bool {
	for pi < len(pat) {
		c := pat[pi]
		switch c {
		case '*':
			start := pi
			for pi < len(pat) && pat[pi] == '*' {
				pi++
			}
			slash := !pathname
			if pathname && pi-start >= 2 && (start == 0 || pat[start-1] == '/') &&
				(pi == len(pat) || pat[pi] == '/' || strings.HasPrefix(pat[pi:], "\\/")) {
				if pi < len(pat) && pat[pi] == '/' && match(pi+1, ti) {
					return true // **/ as no directory at all
				}
				slash = true
			}
			if pi == len(pat) {
				return slash || !strings.Contains(text[ti:], "/")
			}
			for k := ti; k <= len(text); k++ {
				if match(pi, k) {
					return true
				}
				if k < len(text) && !slash && text[k] == '/' {
					return false
				}
			}
			return false
		case '?':
			if ti >= len(text) || pathname && text[ti] == '/' {
				return false
			}
			pi, ti = pi+1, ti+1
		case '[':
			if ti >= len(text) {
				return false
			}
			next, ok := wildClass(pat, pi, text[ti], pathname)
			if next < 0 || !ok {
				return false
			}
			pi, ti = next, ti+1
		case '\\':
			if pi+1 >= len(pat) || ti >= len(text) || text[ti] != pat[pi+1] {
				return false
			}
			pi, ti = pi+2, ti+1
		default:
			if ti >= len(text) || text[ti] != c {
				return false
			}
			pi, ti = pi+1, ti+1
		}
	}
	return ti == len(text)
}

// wildClass matches one character against the class at pat[pi] ('['),
// and returns the index after the class; -1 when the class does not end.
func wildClass(pat string, pi int, t byte, pathname bool) (int, bool) {
	i := pi + 1
	negated := false
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		negated = true
		i++
	}
	matched := false
	var prev byte
	first := true
	for {
		if i >= len(pat) {
			return -1, false
		}
		c := pat[i]
		if c == ']' && !first {
			break
		}
		first = false
		switch {
		case c == '\\':
			i++
			if i >= len(pat) {
				return -1, false
			}
			c = pat[i]
			if t == c {
				matched = true
			}
		case c == '-' && prev != 0 && i+1 < len(pat) && pat[i+1] != ']':
			i++
			hi := pat[i]
			if hi == '\\' {
				i++
				if i >= len(pat) {
					return -1, false
				}
				hi = pat[i]
			}
			if t >= prev && t <= hi {
				matched = true
			}
			c = 0
		case c == '[' && i+1 < len(pat) && pat[i+1] == ':':
			end := strings.Index(pat[i+2:], ":]")
			if end < 0 {
				if t == '[' {
					matched = true
				}
				break
			}
			if classHas(pat[i+2:i+2+end], t) {
				matched = true
			}
			i += 2 + end + 1
			c = 0
		default:
			if t == c {
				matched = true
			}
		}
		prev = c
		i++
	}
	if matched == negated || pathname && t == '/' {
		return i + 1, false
	}
	return i + 1, true
}

// classHas reports whether the character is in a POSIX class; a class git
// does not know matches everything (guard reads more, never less).
func classHas(name string, c byte) bool {
	alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	digit := c >= '0' && c <= '9'
	switch name {
	case "alnum":
		return alpha || digit
	case "alpha":
		return alpha
	case "blank":
		return c == ' ' || c == '\t'
	case "cntrl":
		return c < 0x20 || c == 0x7f
	case "digit":
		return digit
	case "graph":
		return c > 0x20 && c < 0x7f
	case "lower":
		return c >= 'a' && c <= 'z'
	case "print":
		return c >= 0x20 && c < 0x7f
	case "punct":
		return c > 0x20 && c < 0x7f && !alpha && !digit
	case "space":
		return c == ' ' || c >= '\t' && c <= '\r'
	case "upper":
		return c >= 'A' && c <= 'Z'
	case "xdigit":
		return digit || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	}
	return true
}

// gitTopPath is a path written from the top of the working tree as an
// absolute path there.
func gitTopPath(top, p string) string {
	if p == "" {
		return top
	}
	return path.Join(top, p)
}
