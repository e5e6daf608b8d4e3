// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"strings"

	"guard/engine"
)

// badIndexPath returns the first path of a git index (.git/index, versions
// 2 to 4) that git must not write into a work tree: one with a .git
// component in any case, a "." or ".." component, or an empty one. A
// checkout by the user's git writes every path of the index; it checks a
// tree's paths, not the index's (git 2.39: an index entry
// .git/hooks/post-checkout is written, and run). "" when there is none, or
// the index does not parse (git refuses it too).
func badIndexPath(data []byte) string {
	paths, err := engine.GitIndexPaths(data)
	if err != nil {
		return ""
	}
	for _, name := range paths {
		for _, c := range strings.Split(name, "/") {
			if c == "" || c == "." || c == ".." || strings.EqualFold(c, ".git") {
				return name
			}
		}
	}
	return ""
}
