// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"flag"
	"strings"
)

// nearest returns the names a mistyped name is nearest to, in the order
// given: those the fewest edits away (an edit inserts, removes or changes
// a letter, or swaps two neighbours), if that is one edit, or two in a
// name of four letters or more. Further than that, a guess would mislead:
// it returns nil.
func nearest(name string, names []string) []string {
	var best []string
	least := 3
	for _, n := range names {
		d := editDistance(strings.ToLower(name), n)
		if d > 2 || 2*d > len(name) || d > least {
			continue
		}
		if d < least {
			best, least = nil, d
		}
		best = append(best, n)
	}
	return best
}

// editDistance counts the edits from a to b, byte by byte (guard's names
// are ASCII): insertions, removals, changes, and swaps of neighbours (the
// optimal string alignment distance).
func editDistance(a, b string) int {
	// d[i][j] is the distance from a[:i] to b[:j].
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			change := 1
			if a[i-1] == b[j-1] {
				change = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+change)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// didYouMean says which of names a mistyped one may have meant, each
// written as say writes it ("guard check", "--json"), or "" for none.
func didYouMean(name string, names []string, say func(string) string) string {
	near := nearest(name, names)
	if len(near) == 0 {
		return ""
	}
	for i, n := range near {
		near[i] = say(n)
	}
	return "did you mean " + strings.Join(near, " or ") + "?"
}

// verbTypo is didYouMean for a verb (or a verb's verb, after prefix:
// "guard grants ").
func verbTypo(name, prefix string, verbs []string) string {
	return didYouMean(name, verbs, func(v string) string { return prefix + v })
}

// flagTypo returns the did-you-mean for err, a flag set's parse error,
// when the flag it names is not defined and is near one that is; "" for
// any other error.
func flagTypo(fs *flag.FlagSet, err error) string {
	// The flag package's message, the only place it names the flag.
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return ""
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return didYouMean(name, names, flagName)
}

// flagName writes a flag as guard's help does: -x, --long.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}
