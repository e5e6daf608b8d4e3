// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// ABI returns the kernel's Landlock ABI version, 0 without Landlock. The
// jail uses what it has: its scopes (6) keep abstract Unix sockets and
// signals in, its network rules (4) bound a command that may reach other
// hosts.
func ABI() int {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
}
