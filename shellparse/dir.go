// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"path"
	"slices"
	"strings"
)

// maxDirs bounds how many possible working directories are tracked before
// the directory is given up as unknown.
const maxDirs = 16

// Dir is the set of directories a command may run in, as far as the literal
// cd commands before it tell. Each path is "." or relative to the directory
// the shell started in, absolute, or "~" or "~/..." for the home directory.
// A path with a ".." component is as written: the directory before it may
// be a link, and then cd -P and cd -L go to different places.
// A nil Paths means the directory is unknown: a cd to a computed directory,
// cd -, pushd, or too many possibilities.
type Dir struct {
	Paths []string
}

// Known reports whether the possible directories are known.
func (d Dir) Known() bool { return d.Paths != nil }

// Start reports whether the command surely runs where the shell started.
func (d Dir) Start() bool { return len(d.Paths) == 1 && d.Paths[0] == "." }

func (d Dir) String() string {
	if !d.Known() {
		return "unknown"
	}
	return strings.Join(d.Paths, " or ")
}

var (
	startDir   = Dir{Paths: []string{"."}}
	unknownDir = Dir{}
)

func (d Dir) equal(e Dir) bool {
	if d.Known() != e.Known() {
		return false
	}
	return slices.Equal(d.Paths, e.Paths)
}

// union returns the directories of d and e together.
func union(d, e Dir) Dir {
	if !d.Known() || !e.Known() {
		return unknownDir
	}
	if d.equal(e) {
		return d
	}
	out := append(slices.Clone(d.Paths), e.Paths...)
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > maxDirs {
		return unknownDir
	}
	return Dir{Paths: out}
}

// cd returns the directories after a successful cd to target from d.
func (d Dir) cd(target string) Dir {
	if !d.Known() {
		return unknownDir
	}
	out := make([]string, 0, len(d.Paths))
	for _, cur := range d.Paths {
		next, ok := joinDir(cur, target)
		if !ok {
			return unknownDir
		}
		out = append(out, next)
	}
	slices.Sort(out)
	return Dir{Paths: slices.Compact(out)}
}

// joinDir resolves target against cur. Without "..", cd -L and cd -P
// reach the same directory, so it is joined lexically. With "..", cd -L
// removes the component before it, cd -P and bash's fallback (when the
// lexical directory does not exist) go to the parent of where a link
// points: the path is kept as written, for the caller, who can see the
// file system, to resolve both ways.
func joinDir(cur, target string) (string, bool) {
	switch {
	case strings.HasPrefix(target, "/"):
		if hasDotDot(target) {
			return target, true
		}
		return path.Clean(target), true
	case target == "~" || strings.HasPrefix(target, "~/"):
		return homeClean(target)
	case cur == "~" || strings.HasPrefix(cur, "~/"):
		return homeClean(cur + "/" + target)
	case hasDotDot(target):
		return cur + "/" + target, true
	}
	return path.Join(cur, target), true
}

// hasDotDot reports whether a path has a ".." component.
func hasDotDot(p string) bool {
	return slices.Contains(strings.Split(p, "/"), "..")
}

// homeClean cleans a path under "~"; it gives up on a path that climbs
// out of the home directory, whose parent guard does not know.
func homeClean(p string) (string, bool) {
	rest := path.Clean("/" + strings.TrimPrefix(p, "~"))
	for _, elem := range strings.Split(strings.TrimPrefix(p, "~"), "/") {
		if elem == ".." {
			return "", false
		}
	}
	if rest == "/" {
		return "~", true
	}
	return "~" + rest, true
}
