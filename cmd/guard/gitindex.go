// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"encoding/binary"
	"strings"
)

// badIndexPath returns the first path of a git index (.git/index, versions
// 2 to 4) that git must not write into a work tree: one with a .git
// component in any case, a "." or ".." component, or an empty one. A
// checkout by the user's git writes every path of the index; it checks a
// tree's paths, not the index's (git 2.39: an index entry
// .git/hooks/post-checkout is written, and run). "" when there is none, or
// the index does not parse (git refuses it too).
func badIndexPath(data []byte) string {
	if len(data) < 12 || string(data[:4]) != "DIRC" {
		return ""
	}
	version := binary.BigEndian.Uint32(data[4:8])
	n := binary.BigEndian.Uint32(data[8:12])
	off, prev := 12, ""
	for range n {
		if off+62 > len(data) {
			return ""
		}
		flags := binary.BigEndian.Uint16(data[off+60:])
		hdr := 62
		if version >= 3 && flags&0x4000 != 0 {
			hdr += 2
		}
		p := off + hdr
		if p > len(data) {
			return ""
		}
		var name string
		if version == 4 {
			strip, k := gitVarint(data[p:])
			if k == 0 || strip > uint64(len(prev)) {
				return ""
			}
			p += k
			end := bytes.IndexByte(data[p:], 0)
			if end < 0 {
				return ""
			}
			name = prev[:len(prev)-int(strip)] + string(data[p:p+end])
			off = p + end + 1
		} else {
			end := bytes.IndexByte(data[p:], 0)
			if end < 0 {
				return ""
			}
			name = string(data[p : p+end])
			off += (hdr + end + 8) &^ 7
		}
		for _, c := range strings.Split(name, "/") {
			if c == "" || c == "." || c == ".." || strings.EqualFold(c, ".git") {
				return name
			}
		}
		prev = name
	}
	return ""
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
