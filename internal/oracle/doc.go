// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package oracle checks guard's decisions against what commands really do.
//
// For a command and the decision guard gave it (a rules.Decision), it runs
// bash -c COMMAND inside bubblewrap (bwrap) under strace: the root file
// system read-only, a fresh copy of a fixture repository as the working
// directory, a private /tmp, no network, no capabilities, its own PID
// namespace. [Check] then reads the trace and reports every [Violation]:
// a program that ran (or was tried) although the decision did not name it,
// a file opened for writing, created, renamed, removed or changed outside
// the writable roots (attempts count, even when the sandbox made them
// fail), a socket connected or a datagram sent to an address, and anything
// the oracle could not follow.
//
// The sandbox is what makes a guard bug harmless while the oracle looks:
// the trace is what finds it.
//
// It runs on Linux only, with bwrap and strace installed; elsewhere the
// package is empty.
//
// This package has no API stability promise outside this module.
package oracle
