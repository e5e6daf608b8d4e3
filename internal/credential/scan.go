// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package credential

import (
	"bytes"
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
)

// This file finds the keywords in the text, the only work done on all of
// it.
//
// Each keyword has an anchor, one of its bytes, and the text is searched
// for each anchor byte with bytes.IndexByte, which compares many bytes at
// once. Where an anchor byte is found, the two bytes on either side of it
// pick the keywords to compare, most often none. A pass costs about 16 µs
// per MiB here, and each anchor byte found about 15 ns more, so the
// anchors are bytes that are rare in text: punctuation, and two letters
// for the keywords that have none.

// anchorRank lists the bytes a keyword may be anchored on, the one to
// prefer first. A keyword matched ignoring case is anchored on a byte
// that has no case. In 1 MiB of Go source, minified JavaScript, random
// bytes and base64 text, '~' is found about 0, 30, 4,000 and 0 times;
// '_' 6,300, 5,500, 4,000 and 0; '-' 2,000, 1,300, 4,000 and 0; '.'
// 18,000, 35,000, 4,000 and 0; 'A' 4,300, 1,900, 4,000 and 16,000; and
// 'K' 500, 200, 4,000 and 16,000. Any third letter would cost as much in
// base64, and a lowercase one as much as '.' in source too: that is why
// there is no rule for Databricks tokens (dapi...).
const anchorRank = "~_-.AK"

// anchor is the search for one anchor byte.
type anchor struct {
	b       byte
	entries []entry // at most 64
	// near[d][c] has bit j set if entries[j] may have byte c at the
	// offset probes[d] from the anchor: a filter before the comparison.
	near [len(probes)][256]uint64
}

// probes are the offsets from an anchor byte that near looks at. The
// search looks at the two nearest first.
var probes = [...]int{-2, -1, 1, 2}

// An entry is a keyword and the offset of its anchor in it.
type entry struct {
	kw  int
	off int
}

// A hit is a keyword found in the text.
type hit struct {
	pos int // where the keyword starts
	kw  int
}

// buildAnchors picks the anchor of each keyword and builds the searches.
func buildAnchors(kws []keyword) ([]*anchor, error) {
	var anchors []*anchor
	for i, k := range kws {
		off := -1
		for j := 0; j < len(anchorRank) && off < 0; j++ {
			if c := anchorRank[j]; !k.fold || !isLetter(c) {
				off = strings.IndexByte(k.text, c)
			}
		}
		if off < 0 {
			return nil, fmt.Errorf("keyword %q has none of the bytes %q to search for", k.text, anchorRank)
		}
		b := k.text[off]
		at := slices.IndexFunc(anchors, func(a *anchor) bool { return a.b == b })
		if at < 0 {
			at = len(anchors)
			anchors = append(anchors, &anchor{b: b})
		}
		a := anchors[at]
		if len(a.entries) == 64 {
			return nil, fmt.Errorf("more than 64 keywords to search for by %q", b)
		}
		bit := uint64(1) << len(a.entries)
		a.entries = append(a.entries, entry{i, off})
		for d, delta := range probes {
			for _, c := range nearBytes(k, off, delta) {
				a.near[d][c] |= bit
			}
		}
	}
	return anchors, nil
}

// nearBytes returns the bytes the text may have delta bytes from the
// anchor of k at k.text[off]: all 256 where it cannot tell.
func nearBytes(k keyword, off, delta int) []byte {
	all := make([]byte, 256)
	for c := range all {
		all[c] = byte(c)
	}
	i := off + delta
	if i < 0 || i >= len(k.text) {
		return all
	}
	// Ignoring case, a letter between the anchor and i may be written
	// with more than one byte, and then i is not delta bytes away.
	for j := min(off, i) + 1; j < max(off, i); j++ {
		for _, r := range (litRune{rune(k.text[j]), k.fold}).variants() {
			if r >= utf8.RuneSelf {
				return all
			}
		}
	}
	var out []byte
	for _, r := range (litRune{rune(k.text[i]), k.fold}).variants() {
		enc := utf8.AppendRune(nil, r)
		if delta > 0 {
			out = append(out, enc[0])
		} else {
			out = append(out, enc[len(enc)-1])
		}
	}
	return out
}

func isLetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// keywordHits returns where the keywords are in data, by position.
func (s *scanner) keywordHits(data []byte) []hit {
	var hits []hit
	for _, a := range s.anchors {
		for i := 0; i < len(data); i++ {
			j := bytes.IndexByte(data[i:], a.b)
			if j < 0 {
				break
			}
			i += j
			var m uint64
			if i >= 2 && i+2 < len(data) {
				w := data[i-2 : i+3 : i+3]
				if m = a.near[1][w[1]] & a.near[2][w[3]]; m != 0 {
					m &= a.near[0][w[0]] & a.near[3][w[4]]
				}
			} else {
				m = 1<<len(a.entries) - 1 // at an edge: compare them all
			}
			for ; m != 0; m &= m - 1 {
				e := a.entries[bits.TrailingZeros64(m)]
				if start, ok := s.keywordAt(data, i, e); ok {
					hits = append(hits, hit{start, e.kw})
				}
			}
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(a.pos, b.pos), cmp.Compare(a.kw, b.kw))
	})
	return hits
}

// keywordAt reports whether the keyword of e is in data with its anchor
// at i, and where it starts.
func (s *scanner) keywordAt(data []byte, i int, e entry) (int, bool) {
	k := s.keywords[e.kw]
	if !k.fold {
		start := i - e.off
		if start < 0 || start+len(k.text) > len(data) || string(data[start:start+len(k.text)]) != k.text {
			return 0, false
		}
		return start, true
	}
	// Ignoring case, a letter may be written with more than one byte
	// (U+017F for s, U+212A for k): compare rune by rune from the anchor.
	end := i + 1
	for t := e.off + 1; t < len(k.text); t++ {
		r, w := utf8.DecodeRune(data[end:])
		if w == 0 || !foldEqual(r, rune(k.text[t])) {
			return 0, false
		}
		end += w
	}
	start := i
	for t := e.off - 1; t >= 0; t-- {
		r, w := utf8.DecodeLastRune(data[:start])
		if w == 0 || !foldEqual(r, rune(k.text[t])) {
			return 0, false
		}
		start -= w
	}
	return start, true
}
