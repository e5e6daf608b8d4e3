// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"slices"
	"sync"
)

// litIndex finds, for a list of path patterns, the ones that may match a
// path without trying each: a pattern matches only a path that holds its
// literal run (policy.LiteralRun), so it is filed under one two-byte run
// of that literal, the rarest among the list's literals, and a path
// brings up only the patterns filed under the two-byte runs it has. The
// secret patterns number about 450; a path has a few dozen runs.
type litIndex struct {
	always  []int32            // patterns whose literal is shorter than two bytes
	buckets map[uint16][]int32 // the others, by one two-byte run of their literal
}

func bigram(s string, i int) uint16 { return uint16(s[i])<<8 | uint16(s[i+1]) }

func newLitIndex(literals []string) *litIndex {
	count := map[uint16]int{}
	for _, l := range literals {
		for i := 0; i+1 < len(l); i++ {
			count[bigram(l, i)]++
		}
	}
	x := &litIndex{buckets: make(map[uint16][]int32, len(count))}
	for k, l := range literals {
		if len(l) < 2 {
			x.always = append(x.always, int32(k))
			continue
		}
		best, n := bigram(l, 0), count[bigram(l, 0)]
		for i := 1; i+1 < len(l); i++ {
			if c := count[bigram(l, i)]; c < n {
				best, n = bigram(l, i), c
			}
		}
		x.buckets[best] = append(x.buckets[best], int32(k))
	}
	return x
}

// candidates returns the indexes, in order, of the patterns whose literal
// one of paths may hold: every pattern whose literal a path holds is
// among them. It reuses buf.
func (x *litIndex) candidates(paths []string, buf []int32) []int32 {
	out := append(buf[:0], x.always...)
	for _, p := range paths {
		for i := 0; i+1 < len(p); i++ {
			out = append(out, x.buckets[bigram(p, i)]...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// The indexes of the lists the engine matched, for every decision of the
// process: an index depends only on its literals, which are the
// patterns' own (see decider.literal). A list is found by its first
// element's address and checked element by element, so a list of
// another call at the same address is never given another's index.
var litIndexes struct {
	sync.Mutex
	m map[listKey]indexedList
}

type indexedList struct {
	patterns []string
	index    *litIndex
}

// maxLitIndexes bounds the indexes kept: a policy has a few lists.
const maxLitIndexes = 64

// literalIndex returns the index of the literals of patterns, built once
// for the process.
func literalIndex(patterns []string, fold bool, literal func(pat string, fold bool) string) *litIndex {
	key := listKey{&patterns[0], len(patterns), fold}
	litIndexes.Lock()
	e, ok := litIndexes.m[key]
	litIndexes.Unlock()
	if ok && slices.Equal(e.patterns, patterns) {
		return e.index
	}
	lits := make([]string, len(patterns))
	for i, pat := range patterns {
		lits[i] = literal(pat, fold)
	}
	x := newLitIndex(lits)
	litIndexes.Lock()
	if litIndexes.m == nil || len(litIndexes.m) >= maxLitIndexes {
		litIndexes.m = map[listKey]indexedList{}
	}
	litIndexes.m[key] = indexedList{slices.Clone(patterns), x}
	litIndexes.Unlock()
	return x
}
