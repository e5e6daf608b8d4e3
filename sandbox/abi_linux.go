// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// ABI returns the kernel's Landlock ABI version, 0 without Landlock. The
// jail uses what it has: its scopes (6) keep abstract Unix sockets and
// signals in, its network rules (4) bound a command that may reach other
// hosts.
func ABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// rulesetAttr is the part of struct landlock_ruleset_attr the jail sets:
// a kernel older than the scopes (ABI 6) takes it when Scoped is zero.
type rulesetAttr struct {
	handledFS, handledNet, scoped uint64
}

// netPortAttr is struct landlock_net_port_attr.
type netPortAttr struct {
	allowed, port uint64
}

// landlockRuleset makes a ruleset that handles what attr says.
func landlockRuleset(attr rulesetAttr) (int, error) {
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// landlockPort lets the ruleset's domain connect to a TCP port.
func landlockPort(ruleset int, port uint16) error {
	attr := netPortAttr{allowed: unix.LANDLOCK_ACCESS_NET_CONNECT_TCP, port: uint64(port)}
	const ruleNetPort = 2 // LANDLOCK_RULE_NET_PORT
	if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), ruleNetPort, uintptr(unsafe.Pointer(&attr)), 0, 0, 0); errno != 0 {
		return errno
	}
	return nil
}

// landlockRestrict restricts the calling thread, and what it starts, with
// the ruleset.
func landlockRestrict(ruleset int) error {
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0, 0); errno != 0 {
		return errno
	}
	return nil
}
