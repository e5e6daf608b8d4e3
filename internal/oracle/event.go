// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package oracle

import (
	"fmt"
	"slices"
	"strings"
)

// Op is what a judged system call does.
type Op int

const (
	OpExec    Op = iota + 1 // execve, execveat: a program runs, or was tried
	OpWrite                 // a file is opened for writing, created, renamed, removed, linked, truncated or changed
	OpConnect               // a socket is connected
	OpSend                  // a datagram or message is sent to an address
	OpBlind                 // something the oracle cannot follow: a process it did not see start, a line it cannot read, io_uring
	OpRead                  // a secret was read: its canary is in the output or in a file the command wrote (Check only)
)

func (o Op) String() string {
	switch o {
	case OpExec:
		return "exec"
	case OpWrite:
		return "write"
	case OpConnect:
		return "connect"
	case OpSend:
		return "send"
	case OpBlind:
		return "blind"
	case OpRead:
		return "read"
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Event is one system call of the sandboxed command that the oracle judges.
// Paths are absolute paths inside the sandbox.
type Event struct {
	Pid  int    // the process, as the host numbers it
	Call string // the system call: execve, openat, renameat2, connect...
	Op   Op
	// Path is the program of an exec, the file of a write, the socket
	// file of an AF_UNIX address; "" when it cannot be resolved (a
	// relative path against an unknown directory).
	Path string
	// Real is the file that the descriptor a write returned names (it
	// differs from Path when Path goes through a symbolic link); "" when
	// the call failed or the descriptor is not a file.
	Real string
	// Desc: the write names its file by a descriptor only (ftruncate,
	// fchmod, utimensat with no path), and Path is what strace -y
	// printed for the descriptor.
	Desc      bool
	Argv      []string // exec: the arguments
	Cwd       string   // the working directory of the process at the call; "" when unknown
	Ancestors []string // exec: the programs the process and its ancestors ran before, oldest first
	Family    string   // connect, send: the address family (AF_INET, AF_UNIX...); "" when unknown
	Addr      string   // connect, send: the address as strace printed it
	Err       string   // "" when the call succeeded; else the errno name, or "?" when its result is unknown
	Root      bool     // the exec of the sandbox's own shell (bash -c, zsh -c)
	Note      string   // blind: what the oracle could not follow
	Line      string   // the call as strace printed it
}

// traced lists the calls the oracle always needs strace to show: those it
// judges, and those it follows processes and their working directories by.
var traced = []string{
	"execve", "execveat",
	"connect", "bind", "sendto", "sendmsg", "sendmmsg",
	"io_uring_setup",
	"chdir", "fchdir",
	"clone", "clone3", "fork", "vfork",
}

// traceExpr is the -e trace= expression for traced, and with files for the
// calls that write files too (those of writes). A leading ? lets strace
// skip a call the architecture does not have.
func traceExpr(files bool) string {
	calls := slices.Clone(traced)
	if files {
		for c := range writes {
			calls = append(calls, c)
		}
		slices.Sort(calls[len(traced):])
	}
	var b strings.Builder
	b.WriteString("trace=")
	for i, c := range calls {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("?" + c)
	}
	return b.String()
}

// A pathArg says where a call names a file: the argument of the directory
// descriptor (-1 for none) and of the path. A path of -1 means the file is
// the descriptor itself (ftruncate).
type pathArg struct{ dirfd, path int }

// writes lists the calls that change files, with the files they change.
// The open calls are judged by their flags.
var writes = map[string][]pathArg{
	"open":         {{-1, 0}},
	"openat":       {{0, 1}},
	"openat2":      {{0, 1}},
	"creat":        {{-1, 0}},
	"rename":       {{-1, 0}, {-1, 1}},
	"renameat":     {{0, 1}, {2, 3}},
	"renameat2":    {{0, 1}, {2, 3}},
	"unlink":       {{-1, 0}},
	"unlinkat":     {{0, 1}},
	"rmdir":        {{-1, 0}},
	"mkdir":        {{-1, 0}},
	"mkdirat":      {{0, 1}},
	"mknod":        {{-1, 0}},
	"mknodat":      {{0, 1}},
	"link":         {{-1, 1}},
	"linkat":       {{2, 3}},
	"symlink":      {{-1, 1}},
	"symlinkat":    {{1, 2}},
	"truncate":     {{-1, 0}},
	"ftruncate":    {{0, -1}},
	"chmod":        {{-1, 0}},
	"fchmod":       {{0, -1}},
	"fchmodat":     {{0, 1}},
	"fchmodat2":    {{0, 1}},
	"chown":        {{-1, 0}},
	"fchown":       {{0, -1}},
	"lchown":       {{-1, 0}},
	"fchownat":     {{0, 1}},
	"utime":        {{-1, 0}},
	"utimes":       {{-1, 0}},
	"futimesat":    {{0, 1}},
	"utimensat":    {{0, 1}},
	"setxattr":     {{-1, 0}},
	"lsetxattr":    {{-1, 0}},
	"fsetxattr":    {{0, -1}},
	"removexattr":  {{-1, 0}},
	"lremovexattr": {{-1, 0}},
	"fremovexattr": {{0, -1}},
}

// writeFlags are the open flags that make an open a write.
var writeFlags = []string{"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND", "O_TMPFILE"}
