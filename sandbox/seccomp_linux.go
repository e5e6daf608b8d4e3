// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock restricts TCP by port and nothing else of the network. A
// seccomp filter takes the rest away from the confined program: sockets of
// the internet families other than plain TCP (UDP, so DNS; raw sockets;
// SCTP; and MPTCP, which Landlock's TCP rules do not see), and io_uring,
// which can open sockets without the socket system call. socket fails with
// EPERM; other families (Unix sockets, netlink) are left to the kernel.
//
// A filter holds for the thread that installs it and what it executes, so
// Exec installs it on the thread that then calls execve.

// seccompArch is the audit architecture of the system calls the filter
// knows the numbers of; on another the filter refuses every call.
var seccompArch = map[string]uint32{"amd64": unix.AUDIT_ARCH_X86_64, "arm64": unix.AUDIT_ARCH_AARCH64}

// denyNetwork installs the filter on the calling thread.
func denyNetwork() error {
	arch, ok := seccompArch[runtime.GOARCH]
	if !ok {
		return fmt.Errorf("%w: guard run restricts the network only on amd64 and arm64", ErrUnsupported)
	}
	const (
		offNr   = 0
		offArch = 4
		offArg0 = 16 // the low word of each argument, little-endian
		offArg1 = 24
		offArg2 = 32
		allow   = unix.SECCOMP_RET_ALLOW
		refuse  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	)
	ld := func(off uint32) unix.SockFilter {
		return unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off}
	}
	jeq := func(k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: k, Jt: jt, Jf: jf}
	}
	ret := func(k uint32) unix.SockFilter { return unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k} }
	prog := []unix.SockFilter{
		/* 0 */ ld(offArch),
		/* 1 */ jeq(arch, 1, 0),
		/* 2 */ ret(refuse),
		/* 3 */ ld(offNr),
		/* 4 */ jeq(unix.SYS_IO_URING_SETUP, 13, 0), // -> 18 refuse
		/* 5 */ jeq(unix.SYS_SOCKET, 0, 11), // -> 17 allow
		/* 6 */ ld(offArg0),
		/* 7 */ jeq(unix.AF_INET, 1, 0),
		/* 8 */ jeq(unix.AF_INET6, 0, 8), // -> 17 allow
		/* 9 */ ld(offArg1),
		/* 10 */ {Code: unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, K: 0xf}, // the type without SOCK_NONBLOCK and SOCK_CLOEXEC
		/* 11 */ jeq(unix.SOCK_STREAM, 0, 6), // -> 18 refuse
		/* 12 */ ld(offArg2),
		/* 13 */ jeq(0, 3, 0), // -> 17 allow
		/* 14 */ jeq(unix.IPPROTO_TCP, 2, 0), // -> 17 allow
		/* 15 */ ret(refuse),
		/* 16 */ ret(refuse),
		/* 17 */ ret(allow),
		/* 18 */ ret(refuse),
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %v", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("%w: installing the seccomp filter: %v", ErrUnsupported, err)
	}
	return nil
}
