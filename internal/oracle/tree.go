// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package oracle

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"syscall"
)

// A Change is a difference in a writable tree of the sandbox (the work
// tree, HOME, /tmp) between the start of a run and its end: a path that
// was created or removed, or whose type, content, mode, owner,
// modification time or link target changed. A rename is the removal of
// one path and the creation of another. A file created and removed again
// within the run leaves no change, except on its directory's time.
type Change struct {
	Path string // the path in the sandbox
	What string // created, removed, type, content, mode, owner, time, link target, unreadable
}

func (c Change) String() string { return c.What + " " + c.Path }

// A tree is a writable directory of the sandbox that the oracle watches.
type tree struct {
	sandbox, host string
	// skip is a host directory under host that is left out, or "": a
	// mount point, where another tree or the shared go cache is.
	skip string
}

// node is what a snapshot records of one path.
type node struct {
	mode     fs.FileMode
	uid, gid uint32
	size     int64
	mtime    int64 // nanoseconds
	sum      []byte
	link     string
	err      string // the path could not be read
}

// snapshot records every path of the trees, by its sandbox path. With
// sums, it hashes the content of every regular file; the trees are small
// fresh copies when a run starts.
func snapshot(trees []tree, sums bool) (map[string]node, error) {
	out := map[string]node{}
	for _, tr := range trees {
		err := filepath.WalkDir(tr.host, func(p string, d fs.DirEntry, err error) error {
			rel, rerr := filepath.Rel(tr.host, p)
			if rerr != nil {
				return rerr
			}
			name := path.Join(tr.sandbox, filepath.ToSlash(rel))
			if err != nil {
				if p == tr.host {
					return err
				}
				// A directory the command made unreadable: what it
				// holds cannot be compared, so it counts as changed.
				n := out[name]
				n.err = err.Error()
				out[name] = n
				return nil
			}
			if tr.skip != "" && p == tr.skip {
				return filepath.SkipDir
			}
			n, err := stat(p, sums)
			if err != nil {
				n.err = err.Error()
			}
			out[name] = n
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading %s: %v", tr.sandbox, err)
		}
	}
	return out, nil
}

// stat reads one path, without following a symbolic link.
func stat(p string, sum bool) (node, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return node{}, err
	}
	n := node{mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		n.uid, n.gid = st.Uid, st.Gid
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		n.link, err = os.Readlink(p)
	case fi.Mode().IsRegular() && sum:
		n.sum, err = hashFile(p)
	}
	return n, err
}

// hashFile returns the SHA-256 of a file's content. The files are small:
// those of the fixture and the home directory, and after a run the files
// of the same size.
func hashFile(p string) ([]byte, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	return sum[:], nil
}

// diff compares the snapshots of a run's start and end. host maps a
// sandbox path to the host, to hash what only a hash can tell apart.
func diff(before, after map[string]node, host func(string) string) []Change {
	var out []Change
	for p, a := range after {
		b, ok := before[p]
		switch {
		case !ok:
			out = append(out, Change{p, "created"})
		case a.err != "":
			out = append(out, Change{p, "unreadable"})
		case b.mode.Type() != a.mode.Type():
			out = append(out, Change{p, "type"})
		case b.mode != a.mode:
			out = append(out, Change{p, "mode"})
		case b.uid != a.uid || b.gid != a.gid:
			out = append(out, Change{p, "owner"})
		case b.link != a.link:
			out = append(out, Change{p, "link target"})
		case b.size != a.size:
			out = append(out, Change{p, "content"})
		case a.mode.IsRegular():
			// The same size: only the content tells, whatever the time.
			sum, err := hashFile(host(p))
			switch {
			case err != nil:
				out = append(out, Change{p, "unreadable"})
			case !bytes.Equal(sum, b.sum):
				out = append(out, Change{p, "content"})
			case b.mtime != a.mtime:
				out = append(out, Change{p, "time"})
			}
		case b.mtime != a.mtime:
			out = append(out, Change{p, "time"})
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, Change{p, "removed"})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
