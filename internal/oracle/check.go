// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package oracle

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"guard/rules"
)

// Violation is something a command did that its decision did not allow,
// or that the oracle could not follow.
type Violation struct {
	Kind  Op     // OpExec, OpWrite, OpConnect, OpSend or OpBlind
	What  string // the program or file that escaped, the address, or what the oracle could not follow
	Pid   int    // the process of the first call that showed it
	Line  string // that call, as strace printed it
	Count int    // how many calls showed it
}

func (v Violation) String() string {
	line := v.Line
	if len(line) > 400 {
		line = line[:400] + "..."
	}
	more := ""
	if v.Count > 1 {
		more = fmt.Sprintf(" (%d calls)", v.Count)
	}
	return fmt.Sprintf("%s %q%s: pid %d: %s", v.Kind, v.What, more, v.Pid, line)
}

// DefaultRoots returns the paths a command may write without a policy
// naming them: the work tree, the private /tmp, the terminal and the
// standard streams, and /dev/full, which keeps nothing written to it (GNU
// tools open it for writing as their standard input when that is closed,
// so that reading it fails). A root is a directory or file, which may be
// written with everything under it, or a path.Match pattern.
func DefaultRoots() []string {
	return []string{WorkDir, TmpDir, "/dev/null", "/dev/full", "/dev/tty", "/dev/stdout", "/dev/stderr", "/dev/fd/*", "/proc/self/fd/*"}
}

// nscd is where glibc asks the name service cache daemon: the one socket a
// command may connect to.
var nscd = []string{"/var/run/nscd/socket", "/run/nscd/socket"}

// program is a program an allowed leaf names, looked up as bash would.
type program struct {
	name  string
	index int    // the PATH entry that has it; len(PATH) when none does
	found string // its path; "" when no PATH entry has it
}

type leaf struct {
	programs []program
	children []string
}

// Check returns the violations in a trace of a command, judged against the
// decision guard gave the command: every program that ran (or was tried)
// must be one an allowed leaf names, found through PATH as bash finds it,
// or match the children patterns of an allowed leaf whose program is its
// ancestor; bash itself, which runs the command, is always allowed. Every
// file written, created, renamed, removed or changed must be under one of
// roots. No socket may connect, and no message may go to an address,
// except to nscd's. Check must be called before the trace is closed.
func Check(t *Trace, d rules.Decision, roots []string) []Violation {
	var leaves []leaf
	for _, l := range d.Leaves {
		if l.Verdict != rules.Allow || l.Kind != "command" || len(l.Programs) == 0 {
			continue
		}
		var lf leaf
		for _, name := range l.Programs {
			p := program{name: name}
			if !strings.Contains(name, "/") {
				p.index, p.found = t.lookPath(name)
			}
			lf.programs = append(lf.programs, p)
		}
		lf.children = l.Children
		leaves = append(leaves, lf)
	}
	var out []Violation
	seen := map[string]int{}
	add := func(ev Event, what string) {
		key := ev.Op.String() + "\x00" + what
		if ev.Op == OpExec && ev.Err != "" && t.inPath(path.Dir(what)) {
			// The steps of one PATH search are one violation.
			key = "search\x00" + path.Base(what)
		}
		if i, ok := seen[key]; ok {
			out[i].Count++
			return
		}
		seen[key] = len(out)
		out = append(out, Violation{Kind: ev.Op, What: what, Pid: ev.Pid, Line: ev.Line, Count: 1})
	}
	for _, ev := range t.Events {
		switch ev.Op {
		case OpExec:
			if ev.Root {
				continue
			}
			if ev.Path == "" {
				add(ev, "a program the oracle cannot resolve")
				continue
			}
			if !t.execAllowed(leaves, ev) {
				add(ev, ev.Path)
			}
		case OpWrite:
			switch {
			case ev.Path == "":
				add(ev, "a file the oracle cannot resolve")
			case !inRoots(ev.Path, roots):
				add(ev, ev.Path)
			case ev.Real != "" && !inRoots(ev.Real, roots):
				add(ev, ev.Real)
			}
		case OpConnect, OpSend:
			if ev.Family == "AF_UNIX" && slices.Contains(nscd, ev.Path) {
				continue
			}
			what := ev.Family + " " + ev.Addr
			if ev.Path != "" {
				what = ev.Family + " " + ev.Path
			}
			add(ev, what)
		case OpBlind:
			add(ev, ev.Note)
		}
	}
	return out
}

// execAllowed reports whether an exec runs a program that an allowed leaf
// names, or one of its children.
func (t *Trace) execAllowed(leaves []leaf, ev Event) bool {
	failed := ev.Err != ""
	for _, l := range leaves {
		for _, p := range l.programs {
			if t.runs(p, ev.Path, ev.Cwd, failed) {
				return true
			}
		}
	}
	for _, l := range leaves {
		if !slices.ContainsFunc(l.children, func(pat string) bool { return childMatch(pat, ev.Path) }) {
			continue
		}
		for _, a := range ev.Ancestors {
			for _, p := range l.programs {
				if t.runs(p, a, "", false) {
					return true
				}
			}
		}
	}
	return false
}

// runs reports whether executing file is running the program p: the file
// bash finds for its name, or, for an exec that failed, a step of the PATH
// search that comes before it (as execvp makes them).
func (t *Trace) runs(p program, file, cwd string, failed bool) bool {
	if strings.Contains(p.name, "/") {
		abs := p.name
		if !path.IsAbs(abs) {
			if cwd == "" {
				return false
			}
			abs = path.Join(cwd, abs)
		}
		return t.sameFile(path.Clean(abs), file)
	}
	if p.found != "" && t.sameFile(p.found, file) {
		return true
	}
	dir, base := path.Split(file)
	if base != p.name || !failed {
		return false
	}
	dir = path.Clean(dir)
	for i, d := range t.path {
		if path.Clean(d) == dir && i <= p.index {
			return true
		}
	}
	return false
}

// inPath reports whether dir is an entry of PATH.
func (t *Trace) inPath(dir string) bool {
	return slices.ContainsFunc(t.path, func(d string) bool { return path.Clean(d) == dir })
}

// childMatch matches a children pattern: without a slash against the base
// name of a program, with one against its path.
func childMatch(pattern, file string) bool {
	name := file
	if !strings.Contains(pattern, "/") {
		name = path.Base(file)
	}
	ok, _ := path.Match(pattern, name)
	return ok
}

// inRoots reports whether a path is one of the roots or under one.
func inRoots(p string, roots []string) bool {
	for _, r := range roots {
		if strings.ContainsAny(r, "*?[") {
			if ok, _ := path.Match(r, p); ok {
				return true
			}
			continue
		}
		if p == r || r == "/" || strings.HasPrefix(p, r+"/") {
			return true
		}
	}
	return false
}
