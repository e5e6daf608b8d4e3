// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package engine

import (
	"io/fs"
	"syscall"
)

// statMatches reports whether a file's status is what the index entry
// holds, in every field git compares (as 32-bit values, as the index
// keeps them), and a mode of the same type and executable bit.
func statMatches(fi fs.FileInfo, e gitIndexEntry) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	return uint32(st.Mtim.Sec) == e.mtime[0] && uint32(st.Mtim.Nsec) == e.mtime[1] &&
		uint32(st.Ctim.Sec) == e.ctime[0] && uint32(st.Ctim.Nsec) == e.ctime[1] &&
		uint32(st.Ino) == e.ino && uint32(st.Dev) == e.dev && st.Uid == e.uid && st.Gid == e.gid &&
		uint32(st.Size) == e.size && st.Mode&syscall.S_IFMT == e.mode&syscall.S_IFMT &&
		st.Mode&0o100 == e.mode&0o100
}
