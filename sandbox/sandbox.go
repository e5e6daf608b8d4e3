// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package sandbox confines a process tree with the kernel: what guard
// allowed, the kernel bounds. On Linux it uses Landlock, which a process
// applies to itself and every child it starts after, so guard run
// restricts itself and then executes the program.
//
// Landlock grants access to file hierarchies and cannot take a subtree
// back from a grant. A tree that holds a path the policy keeps (a .env to
// read, a .git/config to write) is granted piece by piece: every directory
// beneath it that holds none whole, and the other entries one by one (see
// Plan). The price: nothing new can be created directly in a directory
// that holds a kept path, since creating there would need a grant on the
// directory, which reaches the kept path too. A kept path that is not
// there yet (.claude/settings.json in a project without .claude) is kept
// the same way: the directory it would be made in is granted piece by
// piece, so that it cannot be made.
//
// This package has no API stability promise outside this module: the
// API is package guard.
package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Rules are what a confined process tree may do.
type Rules struct {
	// Read are the paths it may read and execute: a directory with
	// everything beneath it, or a file.
	Read []string
	// Write are the paths it may also write: a directory with everything
	// beneath it (creating, removing and renaming in it too), or a file.
	Write []string
	// List are directories it may list, and the directories beneath them,
	// without reading the files in them: those that Plan grants piece by
	// piece, so that ls and make still see what is in them.
	List []string
	// Devices are device files it may read and write (/dev/null).
	Devices []string
	// Connect are the TCP ports it may connect to; none, no TCP connect.
	// It may bind none.
	Connect []uint16
	// Isolated says the process is in a network namespace of its own
	// (RunIsolated): the network is then not restricted otherwise.
	Isolated bool
}

// ErrUnsupported is returned where the kernel cannot confine a process
// as Rules ask.
var ErrUnsupported = errors.New("the kernel cannot confine the command")

// maxEntries bounds the entries Plan reads to grant a tree piece by piece.
const maxEntries = 50000

// Plan returns the paths to grant so that a process may reach every path
// under root that allowed accepts, and none that it refuses: root itself
// when allowed accepts everything beneath it, else the directories under
// it that hold nothing refused, and the other accepted entries one by one.
// The directories it grants piece by piece come back apart, in lists, for
// a grant to list them.
// Kept are paths that must not be made: each one that is not there makes
// the directory that would hold it (the deepest one there of its parents)
// granted piece by piece.
// Symbolic links are not granted one by one: a link is followed by the
// kernel, and its target must be granted on its own. A root that does not
// exist gives nothing; a tree of more than maxEntries entries is an error.
func Plan(root string, allowed func(string) bool, kept []string) (grants, lists []string, err error) {
	root = filepath.Clean(root)
	noCreate := map[string]bool{}
	for _, k := range kept {
		if d := wouldHold(root, k); d != "" {
			noCreate[d] = true
		}
	}
	count := 0
	var walk func(dir string) (grants []string, whole bool, err error)
	walk = func(dir string) ([]string, bool, error) {
		if !allowed(dir) {
			return nil, false, nil
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			return nil, false, fmt.Errorf("reading %s: %v", dir, err)
		}
		count += len(ents)
		if count > maxEntries {
			return nil, false, fmt.Errorf("%s holds more than %d files, too many to grant one by one", root, maxEntries)
		}
		whole := !noCreate[dir]
		var grants []string
		for _, e := range ents {
			p := filepath.Join(dir, e.Name())
			switch {
			case e.IsDir():
				sub, subWhole, err := walk(p)
				if err != nil {
					return nil, false, err
				}
				whole = whole && subWhole
				grants = append(grants, sub...)
			case e.Type()&fs.ModeSymlink != 0:
				// Granted with its directory only; alone, a grant would
				// reach its target.
				if !allowed(p) {
					whole = false
				}
			case allowed(p):
				grants = append(grants, p)
			default:
				whole = false
			}
		}
		if whole {
			return []string{dir}, true, nil
		}
		lists = append(lists, dir)
		return grants, false, nil
	}
	if _, err := os.Lstat(root); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	grants, _, err = walk(root)
	slices.Sort(grants)
	slices.Sort(lists)
	return grants, lists, err
}

// wouldHold returns the directory under root (or root) in which making the
// path kept, which is not there, would begin: the deepest of its parents
// that is there. It is "" when kept is there, is not under root, or when
// what is there in its place is not a directory.
func wouldHold(root, kept string) string {
	kept = filepath.Clean(kept)
	if kept != root && !strings.HasPrefix(kept, root+string(filepath.Separator)) {
		return ""
	}
	if _, err := os.Lstat(kept); !errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	for p := filepath.Dir(kept); ; p = filepath.Dir(p) {
		fi, err := os.Lstat(p)
		switch {
		case err == nil && fi.IsDir():
			return p
		case err == nil || !errors.Is(err, fs.ErrNotExist) || p == root:
			return ""
		}
	}
}
