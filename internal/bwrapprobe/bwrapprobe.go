// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package bwrapprobe tells the tests that run programs in bubblewrap
// whether it can run here with a /proc of its own.
//
// bwrap --proc /proc mounts a new /proc, which the kernel refuses in a new
// user namespace where the /proc it sees has parts covered: in a container
// (Docker covers /proc/kcore, /proc/timer_list and others), in another
// bubblewrap, in guard run's jail. There bwrap without --proc still runs,
// so a probe without it passes and the tests that mount a /proc fail for
// their surroundings. [Proc] probes with --proc, once per process.
//
// This package has no API stability promise outside this module.
package bwrapprobe

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"
)

// Proc returns nil where bwrap runs a program with a /proc, a /dev and
// every namespace of its own, or why not. The answer is cached.
func Proc() error { return proc() }

var proc = sync.OnceValue(func() error {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return fmt.Errorf("bwrap is not installed (the Debian package is bubblewrap): %v", err)
	}
	out, err := exec.Command(bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all",
		"--die-with-parent", "--", "true").CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if strings.Contains(msg, "proc") {
			return fmt.Errorf("bwrap cannot mount a /proc here (the /proc it sees has parts covered, as in a container or another sandbox): %v: %s", err, msg)
		}
		return fmt.Errorf("bwrap cannot run here: %v: %s", err, msg)
	}
	return nil
})
