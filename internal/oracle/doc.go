// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package oracle checks guard's decisions against what commands really do.
//
// For a command and the decision guard gave it (a rules.Decision), it runs
// bash -c COMMAND inside bubblewrap (bwrap) under strace: the root file
// system read-only, a fresh copy of a fake HOME, a fresh copy of a fixture
// repository in it as the working directory, a private /tmp, no network,
// no capabilities, its own PID namespace. Those trees are the only
// writable ones, and each is compared before and after the run. [Check]
// then reports every [Violation]: a program that ran (or was tried)
// although the decision did not name it; a path created, removed or
// changed in the writable trees where the [Roots] do not allow it (HOME,
// the work tree's git configuration and hooks, .claude/); a file that a
// call tried to write, by its path, anywhere else, if the sandbox traces
// writes (the attempt counts, although the read-only root made it fail);
// a socket connected or a datagram sent to an address; and anything the
// oracle could not follow.
// A write that strace shows only by a descriptor, or on a path it cannot
// resolve, is left to the comparison of the trees.
//
// The sandbox is what makes a guard bug harmless while the oracle looks:
// the trace and the trees are what find it.
//
// It runs on Linux only, with bwrap and strace installed; elsewhere the
// package is empty.
//
// This package has no API stability promise outside this module.
package oracle
