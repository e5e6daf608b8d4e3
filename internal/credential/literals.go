// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package credential

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// This file reads a rule's regexp as a syntax tree to learn what the
// search needs: where a keyword sits in every match, what literal text
// every match begins with, and how long a match can be.

// maxHeads bounds the number of literal beginnings the analysis tracks
// for one expression; past it, it knows nothing about the beginning.
const maxHeads = 64

// litRune is one rune of a literal in a regexp; fold says the regexp
// matches it ignoring case (any rune of its unicode.SimpleFold orbit).
type litRune struct {
	r    rune
	fold bool
}

// A literal is text that a regexp matches literally.
type literal []litRune

// variants returns the runes that may stand in the text for l.
func (l litRune) variants() []rune {
	if !l.fold {
		return []rune{l.r}
	}
	return orbit(l.r)
}

// orbit returns r and the runes that equal it ignoring case.
func orbit(r rune) []rune {
	out := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		out = append(out, f)
	}
	return out
}

// width returns the most bytes l can take in the text.
func (l litRune) width() int {
	n := 0
	for _, v := range l.variants() {
		n = max(n, runeLen(v))
	}
	return n
}

func runeLen(r rune) int {
	if n := utf8.RuneLen(r); n > 0 {
		return n
	}
	return utf8.UTFMax
}

// at reports whether the text at data[i:] begins with l.
func (l literal) at(data []byte, i int) bool {
	for _, lr := range l {
		if i >= len(data) {
			return false
		}
		r, w := utf8.DecodeRune(data[i:])
		if r != lr.r && !(lr.fold && foldEqual(r, lr.r)) {
			return false
		}
		i += w
	}
	return true
}

// foldEqual reports whether a and b are equal ignoring case.
func foldEqual(a, b rune) bool {
	for f := unicode.SimpleFold(b); f != b; f = unicode.SimpleFold(f) {
		if f == a {
			return true
		}
	}
	return a == b
}

// maxLen returns the most bytes re can match, or false if there is no bound.
func maxLen(re *syntax.Regexp) (int, bool) {
	switch re.Op {
	case syntax.OpNoMatch, syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0, true
	case syntax.OpLiteral:
		n := 0
		for _, lr := range literalOf(re) {
			n += lr.width()
		}
		return n, true
	case syntax.OpCharClass:
		n := 0
		for i := 1; i < len(re.Rune); i += 2 {
			n = max(n, runeLen(re.Rune[i]))
		}
		return n, true
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return utf8.UTFMax, true
	case syntax.OpCapture, syntax.OpQuest:
		return maxLen(re.Sub[0])
	case syntax.OpRepeat:
		n, ok := maxLen(re.Sub[0])
		if !ok || re.Max < 0 {
			return 0, false
		}
		return n * re.Max, true
	case syntax.OpConcat:
		total := 0
		for _, sub := range re.Sub {
			n, ok := maxLen(sub)
			if !ok {
				return 0, false
			}
			total += n
		}
		return total, true
	case syntax.OpAlternate:
		most := 0
		for _, sub := range re.Sub {
			n, ok := maxLen(sub)
			if !ok {
				return 0, false
			}
			most = max(most, n)
		}
		return most, true
	}
	return 0, false // OpStar, OpPlus, and anything new
}

func literalOf(re *syntax.Regexp) literal {
	fold := re.Flags&syntax.FoldCase != 0
	l := make(literal, len(re.Rune))
	for i, r := range re.Rune {
		l[i] = litRune{r, fold}
	}
	return l
}

// heads returns literals such that every match of the concatenation subs
// begins with one of them, and whether every match is exactly one of them.
// It may return the empty literal alone: it knows nothing.
func heads(subs []*syntax.Regexp) ([]literal, bool) {
	acc := []literal{nil}
	for _, sub := range subs {
		h, complete := headsOf(sub)
		next := make([]literal, 0, len(acc)*len(h))
		for _, a := range acc {
			for _, b := range h {
				next = append(next, append(a[:len(a):len(a)], b...))
			}
		}
		if len(next) > maxHeads {
			return []literal{nil}, false
		}
		acc = next
		if !complete {
			return acc, false
		}
	}
	return acc, true
}

func headsOf(re *syntax.Regexp) ([]literal, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []literal{nil}, true
	case syntax.OpLiteral:
		return []literal{literalOf(re)}, true
	case syntax.OpCharClass:
		var out []literal
		for i := 0; i < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(out) == maxHeads/8 {
					return []literal{nil}, false
				}
				out = append(out, literal{{r, false}})
			}
		}
		return out, true
	case syntax.OpCapture:
		return headsOf(re.Sub[0])
	case syntax.OpConcat:
		return heads(re.Sub)
	case syntax.OpAlternate:
		var out []literal
		all := true
		for _, sub := range re.Sub {
			h, complete := headsOf(sub)
			out = append(out, h...)
			all = all && complete
		}
		if len(out) > maxHeads {
			return []literal{nil}, false
		}
		return out, all
	case syntax.OpPlus:
		h, _ := headsOf(re.Sub[0])
		return h, false
	case syntax.OpRepeat:
		if re.Min >= 1 {
			h, complete := headsOf(re.Sub[0])
			return h, complete && re.Min == 1 && re.Max == 1
		}
	}
	return []literal{nil}, false
}

// A keyword is literal text that every match of a rule holds; fold says
// it is matched ignoring case. It is ASCII.
type keyword struct {
	text string
	fold bool
}

// holdsAt reports whether the text for l[j:] always begins with k, and so
// the keyword matcher finds it there.
func (k keyword) holdsAt(l literal, j int) bool {
	if len(l)-j < len(k.text) {
		return false
	}
	for t := 0; t < len(k.text); t++ {
		c := rune(k.text[t])
		for _, v := range l[j+t].variants() {
			if v != c && !(k.fold && foldEqual(v, c)) {
				return false
			}
		}
	}
	return true
}

// reach returns how many bytes a match of re may run before it holds one
// of kws, at most, or false if a match need not hold one within a bound.
func reach(re *syntax.Regexp, kws []keyword) (int, bool) {
	switch re.Op {
	case syntax.OpConcat:
		acc := 0
		for i, sub := range re.Sub {
			b1, ok1 := headsReach(re.Sub[i:], kws)
			b2, ok2 := reach(sub, kws)
			switch {
			case ok1 && ok2:
				return acc + min(b1, b2), true
			case ok1:
				return acc + b1, true
			case ok2:
				return acc + b2, true
			}
			n, ok := maxLen(sub)
			if !ok {
				return 0, false
			}
			acc += n
		}
		return 0, false
	case syntax.OpCapture, syntax.OpPlus:
		return reach(re.Sub[0], kws)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return reach(re.Sub[0], kws)
		}
		return 0, false
	case syntax.OpAlternate:
		most := 0
		for _, sub := range re.Sub {
			b, ok := reach(sub, kws)
			if !ok {
				return 0, false
			}
			most = max(most, b)
		}
		return most, true
	}
	return headsReach([]*syntax.Regexp{re}, kws)
}

// headsReach is reach for the concatenation subs, from its heads alone.
func headsReach(subs []*syntax.Regexp, kws []keyword) (int, bool) {
	hs, _ := heads(subs)
	most := 0
	for _, h := range hs {
		b, ok := firstKeyword(h, kws)
		if !ok {
			return 0, false
		}
		most = max(most, b)
	}
	return most, true
}

// firstKeyword returns the byte offset, at most, of the first keyword in l.
func firstKeyword(l literal, kws []keyword) (int, bool) {
	off := 0
	for j := range l {
		for _, k := range kws {
			if k.holdsAt(l, j) {
				return off, true
			}
		}
		off += l[j].width()
	}
	return 0, false
}
