// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import "golang.org/x/sys/unix"

// x32Bit marks the x32 ABI's system calls, which the jail refuses.
const x32Bit = 0x40000000

// archChangeCalls are the calls of this architecture alone that change a
// file by its name.
var archChangeCalls = []changeCall{
	{unix.SYS_OPEN, 1}, {unix.SYS_CREAT, -1}, {unix.SYS_MKDIR, -1}, {unix.SYS_MKNOD, -1}, {unix.SYS_UNLINK, -1},
	{unix.SYS_RMDIR, -1}, {unix.SYS_RENAME, -1}, {unix.SYS_LINK, -1}, {unix.SYS_SYMLINK, -1}, {unix.SYS_CHMOD, -1},
	{unix.SYS_CHOWN, -1}, {unix.SYS_LCHOWN, -1},
}

// archChmodCalls are chmodCalls of this architecture alone.
var archChmodCalls = []struct {
	nr      uintptr
	modeArg int
}{{unix.SYS_CHMOD, 1}}

// decodeArch reads a call of archChangeCalls as the *at call it is.
func decodeArch(nr int32, a [6]uint64) (fileCall, bool) {
	cwd := int32(unix.AT_FDCWD)
	switch nr {
	case unix.SYS_OPEN:
		return fileCall{op: opOpen, dirfd: [2]int32{cwd}, path: [2]uint64{a[0]}, flags: int(int32(a[1])), mode: uint32(a[2])}, true
	case unix.SYS_CREAT:
		return fileCall{op: opOpen, dirfd: [2]int32{cwd}, path: [2]uint64{a[0]}, flags: unix.O_CREAT | unix.O_WRONLY | unix.O_TRUNC, mode: uint32(a[1])}, true
	case unix.SYS_MKDIR:
		return fileCall{op: opMkdir, dirfd: [2]int32{cwd}, path: [2]uint64{a[0]}, mode: uint32(a[1])}, true
	case unix.SYS_MKNOD:
		return fileCall{op: opMknod, dirfd: [2]int32{cwd}, path: [2]uint64{a[0]}, mode: uint32(a[1]), arg: a[2]}, true
	case unix.SYS_UNLINK:
		return fileCall{op: opUnlink, dirfd: [2]int32{cwd}, path: [2]uint64{a[0]}}, true
	case unix.SYS_RMDIR:
		return fileCall{op: opUnlink, dirfd: [2]int32{cwd}, path: [2]uint64{a[0]}, flags: unix.AT_REMOVEDIR}, true
	case unix.SYS_RENAME:
		return fileCall{op: opRename, dirfd: [2]int32{cwd, cwd}, path: [2]uint64{a[0], a[1]}}, true
	case unix.SYS_LINK:
		return fileCall{op: opLink, dirfd: [2]int32{cwd, cwd}, path: [2]uint64{a[0], a[1]}}, true
	case unix.SYS_SYMLINK:
		return fileCall{op: opSymlink, dirfd: [2]int32{cwd}, path: [2]uint64{a[1]}, arg: a[0]}, true
	case unix.SYS_CHMOD:
		return fileCall{op: opChmod, dirfd: [2]int32{cwd}, path: [2]uint64{a[0]}, mode: uint32(a[1])}, true
	case unix.SYS_CHOWN, unix.SYS_LCHOWN:
		c := fileCall{op: opChown, dirfd: [2]int32{cwd}, path: [2]uint64{a[0]}, uid: uint32(a[1]), gid: uint32(a[2])}
		if nr == unix.SYS_LCHOWN {
			c.flags = unix.AT_SYMLINK_NOFOLLOW
		}
		return c, true
	}
	return fileCall{}, false
}
