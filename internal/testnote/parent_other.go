// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build !linux

package testnote

import "os"

// parentStderr returns nil: only Linux can reach the parent's descriptor.
func parentStderr() *os.File { return nil }
