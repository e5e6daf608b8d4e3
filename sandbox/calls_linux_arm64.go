// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

// x32Bit: arm64 has no second ABI of system calls.
const x32Bit = 0

// archChangeCalls: arm64 has only the *at calls.
var archChangeCalls []changeCall

// archChmodCalls: arm64 has fchmodat alone.
var archChmodCalls []struct {
	nr      uintptr
	modeArg int
}

func decodeArch(nr int32, a [6]uint64) (fileCall, bool) { return fileCall{}, false }
