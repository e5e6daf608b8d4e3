// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package engine

import (
	"io/fs"
	"syscall"
)

// statMatches reports whether a file's status is what the index entry
// holds, in every field git compares (gitStatEqual).
func statMatches(fi fs.FileInfo, e gitIndexEntry) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && gitStatEqual(e, gitStat{
		mtime: [2]int64{int64(st.Mtim.Sec), int64(st.Mtim.Nsec)}, ctime: [2]int64{int64(st.Ctim.Sec), int64(st.Ctim.Nsec)},
		dev: uint64(st.Dev), ino: st.Ino, uid: st.Uid, gid: st.Gid, size: st.Size, mode: st.Mode,
	})
}
