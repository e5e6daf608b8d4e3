// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package oracle

import (
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"

	"guard/engine"
)

// Violation is something a command did that its decision did not allow,
// or that the oracle could not follow.
type Violation struct {
	Kind Op     // OpExec, OpWrite, OpConnect, OpSend, OpBlind or OpRead
	What string // the program or file that escaped, the address, or what the oracle could not follow
	// Change is, for a write found by comparing the writable trees, what
	// changed (a Change's What); "" for what a call of the trace showed.
	Change string
	Pid    int    // the process of the first call that showed it
	Line   string // that call, as strace printed it
	// Count is how many calls showed it, or for a change, how many paths
	// it covers: a directory created or removed with what is under it.
	Count int
}

func (v Violation) String() string {
	if v.Change != "" {
		more := ""
		if v.Count > 1 {
			more = fmt.Sprintf(" (with %d paths under it)", v.Count-1)
		}
		return fmt.Sprintf("%s %q%s: %s, in the tree after the run", v.Kind, v.What, more, v.Change)
	}
	if v.Kind == OpRead {
		return fmt.Sprintf("%s %q: %s", v.Kind, v.What, v.Line)
	}
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

// Roots says where a command may write. A root is a directory or file,
// which counts with everything under it, or a path.Match pattern.
type Roots struct {
	Writable  []string // where a command may write
	Protected []string // where it may not, although a Writable root holds it
	// Canaries maps a string that only a secret file holds to the name
	// of that secret. No secret may be read: a command whose output, or a
	// file it created or changed in the writable trees, holds a canary
	// read it. The output is as much of it as the Trace keeps.
	Canaries map[string]string
}

// allows reports whether a command may write the path p.
func (r Roots) allows(p string) bool { return inRoots(p, r.Writable) && !inRoots(p, r.Protected) }

// DefaultRoots returns where a command may write without a policy naming
// the place: the work tree, the private /tmp, the terminal and the
// standard streams, and /dev/full, which keeps nothing written to it (GNU
// tools open it for writing as their standard input when that is closed,
// so that reading it fails). Protected in the work tree is what makes git,
// the tool chains, the editor, the shell or the agent run code or change
// guard: git's config, hooks and info, .claude/, and the configuration
// files at the top of the tree. HOME, outside the work tree, is not
// writable at all.
func DefaultRoots() Roots {
	r := Roots{Writable: []string{WorkDir, TmpDir, "/dev/null", "/dev/full", "/dev/tty", "/dev/stdout", "/dev/stderr", "/dev/fd/*", "/proc/self/fd/*"}}
	for _, p := range []string{
		".git/config", ".git/hooks", ".git/info", ".claude", ".gitattributes", ".gitmodules", ".husky",
		".pre-commit-config.yaml", ".cargo", "rust-toolchain", "rust-toolchain.toml", ".github", ".envrc",
		".vscode", ".mcp.json",
	} {
		r.Protected = append(r.Protected, path.Join(WorkDir, p))
	}
	return r
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
// path created, removed or changed in the writable trees must be one that
// roots allows. Elsewhere the root file system is read-only; when the
// sandbox traced the writes ([Sandbox].Writes), a call that tried to write
// a file there, by its path, is a violation too, although it failed. A
// write the trace shows by a descriptor, or on a path it cannot resolve,
// is left to the comparison of the trees. No socket may connect, and no
// message may go to an address, except to nscd's. Check must be called
// before the trace is closed.
func Check(t *Trace, d engine.Decision, roots Roots) []Violation {
	var leaves []leaf
	for _, l := range d.Leaves {
		if l.Verdict != engine.Allow || l.Kind != "command" || len(l.Programs) == 0 {
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
			case ev.Desc, ev.Path == "", t.watched(ev.Path):
				// The comparison of the trees decides.
			case ev.Err == "EEXIST":
				// A directory that is there already, as mkdir -p finds
				// /run on its way to HOME: nothing was written, and the
				// sandbox stopped nothing.
			case !roots.allows(ev.Path):
				add(ev, ev.Path)
			case ev.Real != "" && !t.watched(ev.Real) && !roots.allows(ev.Real):
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
	// A directory created or removed is one violation with what is
	// under it; t.Changes is sorted, so a directory comes first.
	dirs := map[string]int{}
	for _, c := range t.Changes {
		if roots.allows(c.Path) {
			continue
		}
		if c.What == "created" || c.What == "removed" {
			if i, ok := dirs[path.Dir(c.Path)]; ok && out[i].Change == c.What {
				out[i].Count++
				dirs[c.Path] = i
				continue
			}
			dirs[c.Path] = len(out)
		}
		out = append(out, Violation{Kind: OpWrite, What: c.Path, Change: c.What, Count: 1})
	}
	return append(out, t.canaries(roots.Canaries)...)
}

// canaries returns a violation for each secret whose canary is in the
// output of the command or in a file it created or changed in the
// writable trees (the first maxOutput bytes of each).
func (t *Trace) canaries(canaries map[string]string) []Violation {
	var out []Violation
	found := map[string]bool{}
	see := func(data, where string) {
		for c, secret := range canaries {
			if !found[c] && strings.Contains(data, c) {
				found[c] = true
				out = append(out, Violation{Kind: OpRead, What: secret, Line: "its canary is in " + where, Count: 1})
			}
		}
	}
	if len(canaries) == 0 {
		return nil
	}
	see(t.Stdout, "the standard output")
	see(t.Stderr, "the standard error")
	for _, c := range t.Changes {
		if c.What != "created" && c.What != "content" {
			continue
		}
		h := t.hostPath(c.Path)
		if fi, err := os.Lstat(h); h == "" || err != nil || !fi.Mode().IsRegular() {
			continue // not a fifo, which would block, nor a link, which is not what was written
		}
		f, err := os.Open(h)
		if err != nil {
			continue
		}
		data, _ := io.ReadAll(io.LimitReader(f, maxOutput))
		f.Close()
		see(string(data), c.Path)
	}
	slices.SortFunc(out, func(a, b Violation) int { return strings.Compare(a.What, b.What) })
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
