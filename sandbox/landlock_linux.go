// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// MinABI is the Landlock ABI guard needs: 4 is the first that restricts
// TCP. Later ABIs add what the kernel offers (scoping of signals and
// abstract sockets from 6) on a best-effort basis above it.
const MinABI = 4

// ABI returns the kernel's Landlock ABI version, 0 when it has none.
// $GUARD_TEST_LANDLOCK_ABI, set to a number, lowers it, so that tests can
// stand in for an older kernel; it cannot raise it.
func ABI() int {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	if t, err := strconv.Atoi(os.Getenv("GUARD_TEST_LANDLOCK_ABI")); err == nil && t < v {
		return max(t, 0)
	}
	return v
}

// Available reports whether guard run can confine a program here: the
// kernel's Landlock ABI is MinABI or later.
func Available() error {
	if abi := ABI(); abi < MinABI {
		return fmt.Errorf("%w: Landlock ABI %d, and guard run needs %d (Linux 6.7 or later, with Landlock enabled)", ErrUnsupported, abi, MinABI)
	}
	return nil
}

// Apply confines this process and everything it starts after to r. Paths
// that do not exist are left out. It fails, and confines nothing, when the
// kernel's Landlock ABI is below MinABI.
func Apply(r Rules) error {
	if err := Available(); err != nil {
		return err
	}
	var rules []landlock.Rule
	add := func(paths []string, dir func(...string) landlock.FSRule, file func(...string) landlock.FSRule) error {
		for _, p := range paths {
			fi, err := os.Stat(p)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				continue
			case err != nil:
				return err
			case fi.IsDir():
				rules = append(rules, dir(p))
			default:
				rules = append(rules, file(p))
			}
		}
		return nil
	}
	if err := add(r.Read, landlock.RODirs, landlock.ROFiles); err != nil {
		return err
	}
	// Moving a file between the writable trees (a compiler's temp file
	// into the project) needs Landlock's refer right on both.
	rwDirs := func(paths ...string) landlock.FSRule { return landlock.RWDirs(paths...).WithRefer() }
	if err := add(r.Write, rwDirs, landlock.RWFiles); err != nil {
		return err
	}
	for _, d := range r.List {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			rules = append(rules, landlock.PathAccess(llsys.AccessFSReadDir, d))
		}
	}
	for _, d := range r.Devices {
		if _, err := os.Stat(d); err == nil {
			rules = append(rules, landlock.RWFiles(d).WithIoctlDev())
		}
	}
	if r.Isolated {
		// The network namespace bounds the network; the file system and
		// the scopes (signals, abstract sockets) stay restricted.
		cfg := landlock.V7
		cfg.HandledAccessNet = 0
		return cfg.BestEffort().Restrict(rules...)
	}
	for _, port := range r.Connect {
		rules = append(rules, landlock.ConnectTCP(port))
	}
	return landlock.V7.BestEffort().Restrict(rules...)
}

// Exec confines this process to r and executes prog: the program and
// everything it starts are bound by Landlock and by the seccomp filter of
// denyNetwork, which holds for the thread that executes. It returns only
// on failure, and then nothing has run.
func Exec(r Rules, prog string, argv, env []string) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := Apply(r); err != nil {
		return confineError(err)
	}
	if !r.Isolated {
		if err := denyNetwork(); err != nil {
			return confineError(err)
		}
	}
	return syscall.Exec(prog, argv, env)
}

// confineError makes err an ErrUnsupported: the process is not confined.
func confineError(err error) error {
	if errors.Is(err, ErrUnsupported) {
		return err
	}
	return fmt.Errorf("%w: %v", ErrUnsupported, err)
}
