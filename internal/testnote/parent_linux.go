// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package testnote

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
)

// The system calls of Linux 5.6 that duplicate another process's
// descriptor; MIPS numbers its system calls differently.
const (
	sysPidfdOpen  = 434
	sysPidfdGetfd = 438
)

// parentStderr returns the parent process's standard error, or nil.
func parentStderr() *os.File {
	ppid := os.Getppid()
	if !strings.HasPrefix(runtime.GOARCH, "mips") {
		// The same open file as the parent's: the same offset, so
		// nothing the parent writes next overwrites the line.
		pidfd, _, errno := syscall.Syscall(sysPidfdOpen, uintptr(ppid), 0, 0)
		if errno == 0 {
			fd, _, errno := syscall.Syscall(sysPidfdGetfd, pidfd, 2, 0)
			syscall.Close(int(pidfd))
			if errno == 0 {
				return os.NewFile(fd, "the go command's standard error")
			}
		}
	}
	// A new open file, with an offset of its own: only where there are
	// no offsets.
	p := fmt.Sprintf("/proc/%d/fd/2", ppid)
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().IsRegular() {
		return nil
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil
	}
	return f
}
