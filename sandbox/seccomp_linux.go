// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import "golang.org/x/sys/unix"

// seccompArch is the audit architecture of the system calls the jail's
// filter lets through: the one guard is built for.
var seccompArch = map[string]uint32{"amd64": unix.AUDIT_ARCH_X86_64, "arm64": unix.AUDIT_ARCH_AARCH64}
