// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package credential

import "unicode/utf8"

// Match is a credential found in content: which rule, and where it starts.
// It never holds the credential.
type Match struct {
	Rule   string // the rule's id, e.g. "github-pat"
	Kind   string // what it is, for a message: "a GitHub personal access token"
	Offset int    // byte offset where it starts
}

// Find returns the first credential in data, if any: the one whose secret
// starts first, and of those the one whose rule comes first in rules.toml.
// Its Offset is where the secret starts: for most rules, where the match
// does.
func Find(data []byte) (Match, bool) {
	s := compiled()
	i, off, ok := s.find(data)
	if !ok {
		return Match{}, false
	}
	return Match{Rule: s.rules[i].id, Kind: s.rules[i].kind, Offset: off}, true
}

// find returns the index of the rule of the first credential in data, and
// the offset of its secret.
//
// For each rule, the credentials it finds are those that
// regexp.FindAllSubmatchIndex finds in all of data with the rule's
// regexp and that its accepts method takes. Find reaches the same matches
// without running the regexp over all of data: every match holds a
// keyword, at most rule.before bytes from its start, so a match can only
// start in the few bytes before a keyword found in the text. There, find
// tries the regexp anchored at each start in turn, with the byte before
// the start as context for \b and with the rest of data after it.
func (s *scanner) find(data []byte) (int, int, bool) {
	hits := s.keywordHits(data)
	if len(hits) == 0 {
		return 0, 0, false
	}
	// done[r]: every match of rule r that starts before done[r] has been
	// seen, or the search of rule r is over (found[r]).
	done := make([]int, len(s.rules))
	found := make([]bool, len(s.rules))
	best, bestOff := -1, 0
	for _, h := range hits {
		if best >= 0 && h.pos-s.maxBefore > bestOff {
			break // no match that starts this late can start first
		}
		for _, ri := range s.users[h.kw] {
			if found[ri] {
				continue
			}
			off, ok := s.rules[ri].search(data, h.pos, &done[ri])
			if !ok {
				continue
			}
			found[ri] = true
			if best < 0 || off < bestOff || off == bestOff && ri < best {
				best, bestOff = ri, off
			}
		}
	}
	return best, bestOff, best >= 0
}

// search looks for the first credential of r that holds the keyword at
// pos, going on from *done, and moves *done past what it has seen. It
// returns the offset of the credential's secret.
func (r *rule) search(data []byte, pos int, done *int) (int, bool) {
	start := max(*done, pos-r.before)
	for start <= pos {
		if !runeStart(data, start) || r.heads != nil && !r.headsAt(data, start) {
			start++
			continue
		}
		loc := r.matchAt(data, start)
		if loc == nil {
			start++
			continue
		}
		// As regexp.FindAll, go on after the end of a match (never empty:
		// it holds a keyword).
		*done = loc[1]
		secret := secretOf(loc)
		if r.accepts(data[secret[0]:secret[1]]) {
			return secret[0], true
		}
		start = loc[1]
	}
	*done = max(*done, pos+1)
	return 0, false
}

func (r *rule) headsAt(data []byte, i int) bool {
	for _, h := range r.heads {
		if h.at(data, i) {
			return true
		}
	}
	return false
}

// matchAt returns the submatch indexes, in data, of the rule's regexp
// matched at start, or nil: R's match is loc[0:2], and R's own groups
// follow.
func (r *rule) matchAt(data []byte, start int) []int {
	from, re := start-1, r.re
	if start == 0 {
		from, re = 0, r.atStart
	}
	text := data[from:]
	if r.maxLen >= 0 && len(text) > start-from+r.maxLen+1 {
		// A match ends within maxLen bytes; the byte after its end stays,
		// for \b and $. A short text lets regexp use a faster matcher.
		text = text[:start-from+r.maxLen+1]
	}
	loc := re().FindSubmatchIndex(text)
	if loc == nil {
		return nil
	}
	loc = loc[2:]
	for i := range loc {
		if loc[i] >= 0 {
			loc[i] += from
		}
	}
	return loc
}

// secretOf returns the bounds of the secret in a match: its first group
// that matched something, as gitleaks has it, or else all of it.
func secretOf(loc []int) []int {
	for i := 2; i+1 < len(loc); i += 2 {
		if loc[i] >= 0 && loc[i+1] > loc[i] {
			return loc[i : i+2]
		}
	}
	return loc[0:2]
}

// runeStart reports whether the regexp package, reading data from the
// start (or from a rune start before i), begins a rune at i: whether i is
// not inside a valid UTF-8 encoding that begins before it.
func runeStart(data []byte, i int) bool {
	for k := 1; k < utf8.UTFMax && k <= i; k++ {
		c := data[i-k]
		if utf8.RuneStart(c) {
			_, w := utf8.DecodeRune(data[i-k:])
			return w <= k
		}
	}
	return true
}
