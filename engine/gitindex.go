// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"path"
)

// A repository's index, as git reads it for git diff and git grep: the
// paths it tracks, and what git compares to tell a changed file.

// gitIndexEntry is an entry of the index: its path and what git compares
// with the working tree's file to tell whether it changed.
type gitIndexEntry struct {
	path                      string
	id                        string
	ctime, mtime              [2]uint32 // seconds, nanoseconds
	dev, ino, mode, uid, gid  uint32
	size                      uint32
	stage                     int
	intentToAdd, skipWorktree bool
}

// gitIndex is the index, and when it was written.
type gitIndex struct {
	entries []gitIndexEntry
	written [2]uint32
	split   bool // a split index: the entries are in another file too
}

// index reads the index. A split or sparse index, whose entries are not
// all there, is an error.
func (s *gitStore) index() (gitIndex, error) {
	file := path.Join(s.gitDir, "index")
	fi, err := s.fsys.Stat(file)
	if absent(err) {
		return gitIndex{}, nil
	}
	if err != nil {
		return gitIndex{}, err
	}
	data, err := readFile(s.fsys, file, maxGitIndex)
	if err != nil {
		return gitIndex{}, err
	}
	ix, err := parseGitIndex(data, s.hashLen)
	if err != nil {
		return gitIndex{}, fmt.Errorf("%s: %v", file, err)
	}
	if ix.split {
		return gitIndex{}, fmt.Errorf("%s is a split index, whose entries are in another file", file)
	}
	for _, e := range ix.entries {
		if e.mode&0o170000 == 0o040000 {
			return gitIndex{}, fmt.Errorf("%s is a sparse index, whose directories guard does not read", file)
		}
	}
	mt := fi.ModTime()
	ix.written = [2]uint32{uint32(mt.Unix()), uint32(mt.Nanosecond())}
	return ix, nil
}

// GitIndexPaths returns the paths of the entries of a git index (a
// repository's .git/index, versions 2 to 4, of SHA-1 objects), or an error
// if it does not parse.
func GitIndexPaths(data []byte) ([]string, error) {
	ix, err := parseGitIndex(data, 20)
	if err != nil {
		return nil, err
	}
	paths := make([]string, len(ix.entries))
	for i, e := range ix.entries {
		paths[i] = e.path
	}
	return paths, nil
}

// parseGitIndex reads an index (versions 2 to 4) whose object ids are
// hashLen bytes long.
func parseGitIndex(data []byte, hashLen int) (gitIndex, error) {
	var out gitIndex
	bad := errors.New("an index guard cannot read")
	if len(data) < 12 || string(data[:4]) != "DIRC" {
		return out, bad
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return out, bad
	}
	n := binary.BigEndian.Uint32(data[8:12])
	off, prev := 12, ""
	entry := 40 + hashLen + 2 // stat data, mode, id, flags
	u32 := func(at int) uint32 { return binary.BigEndian.Uint32(data[at:]) }
	for range n {
		if off+entry > len(data) {
			return out, bad
		}
		e := gitIndexEntry{
			ctime: [2]uint32{u32(off), u32(off + 4)}, mtime: [2]uint32{u32(off + 8), u32(off + 12)},
			dev: u32(off + 16), ino: u32(off + 20), mode: u32(off + 24), uid: u32(off + 28), gid: u32(off + 32), size: u32(off + 36),
			id: string(data[off+40 : off+40+hashLen]),
		}
		flags := binary.BigEndian.Uint16(data[off+entry-2:])
		e.stage = int(flags>>12) & 3
		hdr := entry
		if version >= 3 && flags&0x4000 != 0 {
			if off+hdr+2 > len(data) {
				return out, bad
			}
			ext := binary.BigEndian.Uint16(data[off+hdr:])
			e.skipWorktree, e.intentToAdd = ext&0x4000 != 0, ext&0x2000 != 0
			hdr += 2
		}
		p := off + hdr
		if p > len(data) {
			return out, bad
		}
		if version == 4 {
			strip, k := gitVarint(data[p:])
			if k == 0 || strip > uint64(len(prev)) {
				return out, bad
			}
			p += k
			end := bytes.IndexByte(data[p:], 0)
			if end < 0 {
				return out, bad
			}
			e.path = prev[:len(prev)-int(strip)] + string(data[p:p+end])
			off = p + end + 1
		} else {
			end := bytes.IndexByte(data[p:], 0)
			if end < 0 {
				return out, bad
			}
			e.path = string(data[p : p+end])
			off += (hdr + end + 8) &^ 7
		}
		out.entries = append(out.entries, e)
		prev = e.path
	}
	for off+8 <= len(data)-hashLen {
		if string(data[off:off+4]) == "link" {
			out.split = true
		}
		size := int(u32(off + 4))
		if size < 0 || off+8+size > len(data) {
			return out, bad
		}
		off += 8 + size
	}
	return out, nil
}

// unchanged reports whether git takes the working tree's file for the
// index's without reading it, so that git diff prints nothing of it:
// every field of its status git may compare is the index's, and the index
// was written after the file last changed (else git reads the file).
func (ix gitIndex) unchanged(fsys FS, top string, e gitIndexEntry) bool {
	if e.stage != 0 || e.intentToAdd {
		return false
	}
	if e.skipWorktree {
		return true // git diff leaves it out
	}
	if ix.racy(e) {
		return false // git reads it
	}
	fi, err := fsys.Lstat(path.Join(top, e.path))
	if err != nil {
		return false
	}
	return statMatches(fi, e)
}

// gitVarint reads git's offset varint (the index's version 4), and the
// bytes it took; 0 bytes when it does not end.
func gitVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	v := uint64(b[0] & 0x7f)
	i := 1
	for b[i-1]&0x80 != 0 {
		if i >= len(b) || i > 9 {
			return 0, 0
		}
		v = (v+1)<<7 | uint64(b[i]&0x7f)
		i++
	}
	return v, i
}

// racy reports whether an entry is racily clean: the file last changed
// as the index was written, or after (to the second, where the entry
// keeps no nanoseconds), so that its status may not tell a change.
func (ix gitIndex) racy(e gitIndexEntry) bool {
	w := ix.written
	return e.mtime[0] > w[0] || e.mtime[0] == w[0] && (e.mtime[1] == 0 || e.mtime[1] >= w[1])
}

// gitStat is what git compares of a file's status with an index entry.
type gitStat struct {
	mtime, ctime [2]int64 // seconds, nanoseconds
	dev, ino     uint64
	uid, gid     uint32
	size         int64
	mode         uint32
}

// gitStatEqual reports whether a file's status is what the index entry
// holds, as 32-bit values, as the index keeps them: times, device, inode,
// owner, size, and a mode of the same type and executable bit. A git built
// without nanoseconds keeps 0 for them, and compares seconds alone.
func gitStatEqual(e gitIndexEntry, st gitStat) bool {
	time := func(kept [2]uint32, t [2]int64) bool {
		return kept[0] == uint32(t[0]) && (kept[1] == 0 || kept[1] == uint32(t[1]))
	}
	return time(e.mtime, st.mtime) && time(e.ctime, st.ctime) &&
		e.dev == uint32(st.dev) && e.ino == uint32(st.ino) && e.uid == st.uid && e.gid == st.gid &&
		e.size == uint32(st.size) && e.mode&0o170000 == st.mode&0o170000 && e.mode&0o100 == st.mode&0o100
}
