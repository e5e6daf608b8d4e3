// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package oracle

import (
	"fmt"
	"path"
	"strings"
)

// proc is what the oracle knows of a traced process.
type proc struct {
	cwd     *string  // shared by the processes of a clone with CLONE_FS; "" when unknown
	lineage []string // the programs it and its ancestors ran, oldest first
}

// parseTrace turns the output of strace -f -y --pidns-translation into
// the events of the sandboxed command: the calls of the process that ran
// bash (the first successful execve of bash) from that execve on, and of
// its descendants. The calls of the sandbox's own set-up come before it
// and are left out. cwd is the directory the command starts in.
func parseTrace(data []byte, bash, cwd string) ([]Event, error) {
	t := &tracer{procs: map[int]*proc{}, outside: map[int]bool{}}
	root := 0
	for _, r := range records(data) {
		c, ok := parseCall(r.text)
		if root == 0 {
			t.outside[r.pid] = true
			if !ok {
				continue
			}
			if isClone(c.name) && c.child > 0 {
				t.outside[c.child] = true
			}
			if c.name == "execve" && !c.failed() && len(c.args) > 0 {
				if p, ok := unquote(c.args[0]); ok && p == bash {
					root = r.pid
					delete(t.outside, root)
					dir := cwd
					t.procs[root] = &proc{cwd: &dir}
					ev := execEvent(r, c, t.procs[root])
					ev.Root = true
					t.events = append(t.events, ev)
					t.procs[root].lineage = []string{bash}
				}
			}
			continue
		}
		p := t.procs[r.pid]
		if p == nil {
			if t.outside[r.pid] {
				if ok && isClone(c.name) && c.child > 0 {
					t.outside[c.child] = true
				}
				continue
			}
			if len(t.untranslated) > 0 {
				// The child of a clone whose pid strace could not give.
				p, t.untranslated = t.untranslated[0], t.untranslated[1:]
			} else {
				// A process whose start the trace does not show: follow
				// it from here, with nothing known of where it runs.
				t.events = append(t.events, Event{Pid: r.pid, Call: callName(c, r.text), Op: OpBlind, Line: r.text,
					Note: "a process the trace did not see start"})
				dir := ""
				p = &proc{cwd: &dir}
			}
			t.procs[r.pid] = p
		}
		if !ok {
			if judged(callName(c, r.text)) {
				t.events = append(t.events, Event{Pid: r.pid, Call: callName(c, r.text), Op: OpBlind, Line: r.text, Note: "a line the oracle cannot read"})
			}
			continue
		}
		t.events = append(t.events, t.step(p, r, c)...)
	}
	if root == 0 {
		return nil, fmt.Errorf("the trace has no execve of %s: the sandbox did not start the command", bash)
	}
	return t.events, nil
}

// tracer follows the processes of a trace.
type tracer struct {
	procs        map[int]*proc
	outside      map[int]bool // bwrap's own processes
	untranslated []*proc      // children of clones strace gave no pid for, oldest first
	events       []Event
}

func isClone(name string) bool {
	return name == "clone" || name == "clone3" || name == "fork" || name == "vfork"
}

func callName(c *call, text string) string {
	if c != nil {
		return c.name
	}
	name, _, _ := strings.Cut(text, "(")
	return name
}

// judged reports whether the oracle judges or follows a call, so that a
// line of it that cannot be read is a blind spot. The calls that write
// files are not: the comparison of the trees sees what they did.
func judged(name string) bool {
	switch name {
	case "execve", "execveat", "connect", "bind", "sendto", "sendmsg", "sendmmsg", "io_uring_setup", "chdir", "fchdir":
		return true
	}
	return isClone(name)
}

// step follows one call of a traced process and returns its events.
func (t *tracer) step(p *proc, r *record, c *call) []Event {
	ev := Event{Pid: r.pid, Call: c.name, Cwd: *p.cwd, Err: c.errName(), Line: r.text}
	switch c.name {
	case "clone", "clone3", "fork", "vfork":
		if c.failed() || c.child <= 0 {
			return nil
		}
		child := &proc{lineage: append([]string(nil), p.lineage...)}
		if (c.name == "clone" || c.name == "clone3") && hasFlag(c.args, "CLONE_FS") {
			child.cwd = p.cwd
		} else {
			dir := *p.cwd
			child.cwd = &dir
		}
		if !c.translated {
			t.untranslated = append(t.untranslated, child)
			return nil
		}
		t.procs[c.child] = child
		return nil
	case "chdir":
		if !c.failed() && len(c.args) > 0 {
			*p.cwd = p.resolve("AT_FDCWD", c.args[0])
		}
		return nil
	case "fchdir":
		if !c.failed() && len(c.args) > 0 {
			_, deco := fdArg(c.args[0])
			*p.cwd = filePath(deco)
		}
		return nil
	case "execve", "execveat":
		ev = execEvent(r, c, p)
		if !c.failed() {
			p.lineage = append(p.lineage, ev.Path)
		}
		return []Event{ev}
	case "connect", "sendto", "sendmsg", "sendmmsg", "bind":
		return p.socketEvent(c, ev)
	case "io_uring_setup":
		ev.Op, ev.Note = OpBlind, "io_uring: its file operations are not system calls strace sees"
		return []Event{ev}
	}
	spec, ok := writes[c.name]
	if !ok {
		return nil
	}
	switch c.name {
	case "open", "openat", "openat2":
		flags := ""
		switch {
		case c.name == "open" && len(c.args) > 1:
			flags = c.args[1]
		case c.name == "openat" && len(c.args) > 2:
			flags = c.args[2]
		case c.name == "openat2" && len(c.args) > 2:
			flags = c.args[2]
		}
		if !writesFlags(flags) {
			return nil
		}
		if !c.failed() {
			ev.Real = filePath(c.deco)
		}
	case "creat":
		if !c.failed() {
			ev.Real = filePath(c.deco)
		}
	}
	ev.Op = OpWrite
	var out []Event
	for _, pa := range spec {
		e := ev
		switch {
		case pa.path < 0:
			e.Desc = true
			if pa.dirfd >= len(c.args) {
				e.Path = ""
				break
			}
			_, deco := fdArg(c.args[pa.dirfd])
			if strings.HasPrefix(deco, "/") {
				e.Path = filePath(deco)
			} else if deco != "" {
				continue // a pipe, a socket: not a file
			}
		case pa.path >= len(c.args):
			e.Path = ""
		default:
			dirfd := "AT_FDCWD"
			if pa.dirfd >= 0 && pa.dirfd < len(c.args) {
				dirfd = c.args[pa.dirfd]
			}
			if c.args[pa.path] == "NULL" && pa.dirfd >= 0 {
				// utimensat(fd, NULL, ...) changes the descriptor's file.
				_, deco := fdArg(dirfd)
				if deco != "" && !strings.HasPrefix(deco, "/") {
					continue
				}
				e.Path, e.Desc = filePath(deco), true
				break
			}
			e.Path = p.resolve(dirfd, c.args[pa.path])
		}
		out = append(out, e)
	}
	return out
}

// execEvent makes the event of an execve or execveat.
func execEvent(r *record, c *call, p *proc) Event {
	ev := Event{Pid: r.pid, Call: c.name, Op: OpExec, Cwd: *p.cwd, Err: c.errName(), Line: r.text,
		Ancestors: append([]string(nil), p.lineage...)}
	argv := 1
	switch {
	case c.name == "execve" && len(c.args) > 0:
		ev.Path = p.resolve("AT_FDCWD", c.args[0])
	case c.name == "execveat" && len(c.args) > 1:
		argv = 2
		if s, ok := unquote(c.args[1]); ok && s == "" {
			_, deco := fdArg(c.args[0])
			ev.Path = filePath(deco) // fexecve: the descriptor's file
		} else {
			ev.Path = p.resolve(c.args[0], c.args[1])
		}
	}
	if argv < len(c.args) {
		ev.Argv = stringArray(c.args[argv])
	}
	return ev
}

// socketEvent judges connect, bind and the send calls that carry an address.
func (p *proc) socketEvent(c *call, ev Event) []Event {
	addr := ""
	switch c.name {
	case "connect", "bind":
		if len(c.args) > 1 {
			addr = c.args[1]
		}
	case "sendto":
		if len(c.args) > 4 {
			addr = c.args[4]
		}
	case "sendmsg", "sendmmsg":
		if len(c.args) > 1 {
			s := withoutStrings(c.args[1])
			i := strings.Index(s, "msg_name={")
			if i < 0 {
				return nil // no address: the socket's own peer
			}
			addr = s[i+len("msg_name="):]
		}
	}
	if addr == "" || addr == "NULL" {
		return nil
	}
	ev.Addr = addr
	if m := familyRE.FindStringSubmatch(withoutStrings(addr)); m != nil {
		ev.Family = m[1]
	}
	sun := ""
	if i := strings.Index(addr, `sun_path="`); i >= 0 {
		sun, _ = unquote(addr[i+len("sun_path="):])
	}
	if c.name == "bind" {
		// Binding a socket to a path creates a file there; other binds
		// send nothing anywhere.
		if ev.Family != "AF_UNIX" || sun == "" {
			return nil
		}
		ev.Op, ev.Path = OpWrite, p.abs("AT_FDCWD", sun)
		return []Event{ev}
	}
	if ev.Family == "AF_NETLINK" && c.name != "connect" {
		return nil // messages to the kernel, as getaddrinfo sends them
	}
	ev.Op = OpConnect
	if c.name != "connect" {
		ev.Op = OpSend
	}
	if sun != "" {
		ev.Path = p.abs("AT_FDCWD", sun)
	}
	return []Event{ev}
}

// resolve returns the absolute path of a path argument relative to a
// directory descriptor argument; "" when it cannot be known.
func (p *proc) resolve(dirfd, arg string) string {
	s, ok := unquote(arg)
	if !ok || s == "" {
		// An empty name is no file (ENOENT), or with AT_EMPTY_PATH the
		// descriptor's: the comparison of the trees decides.
		return ""
	}
	return p.abs(dirfd, s)
}

// abs returns the absolute path of s relative to a directory descriptor
// argument; "" when it cannot be known.
func (p *proc) abs(dirfd, s string) string {
	if strings.HasPrefix(s, "/") {
		return path.Clean(s)
	}
	// The working directory is the one the oracle followed; strace's
	// decoration of AT_FDCWD only stands in when it lost track.
	fd, deco := fdArg(dirfd)
	base := filePath(deco)
	if fd == "AT_FDCWD" && *p.cwd != "" {
		base = *p.cwd
	}
	if base == "" {
		return ""
	}
	return path.Join(base, s)
}
