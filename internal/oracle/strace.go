// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package oracle

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
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

// record is one system call of the trace, joined from its unfinished and
// resumed lines.
type record struct {
	pid  int
	text string
	done bool // the call returned, or was printed whole
}

var (
	supersededRE = regexp.MustCompile(`superseded by execve in pid (\d+)`)
	pidnsRE      = regexp.MustCompile(`/\* (\d+) in strace's PID NS \*/`)
	familyRE     = regexp.MustCompile(`sa_family=(AF_[A-Z0-9_]+)`)
)

const unfinished = " <unfinished ...>"

// records joins the lines of an strace -f output into calls, in the order
// the calls started.
func records(data []byte) []*record {
	var out []*record
	pending := map[int]*record{}
	for _, line := range bytes.Split(data, []byte("\n")) {
		pid, rest, ok := splitLine(string(line))
		if !ok {
			continue
		}
		switch {
		case strings.HasPrefix(rest, "---"):
			continue // a signal
		case strings.HasPrefix(rest, "+++"):
			// An exit; or a thread's execve that strace reports in the
			// thread group leader.
			if sm := supersededRE.FindStringSubmatch(rest); sm != nil {
				if to, err := strconv.Atoi(sm[1]); err == nil && pending[pid] != nil && pending[to] == nil {
					pending[to] = pending[pid]
					pending[to].pid = to
				}
			}
			delete(pending, pid)
			continue
		}
		if name, tail, ok := resumed(rest); ok {
			if r := pending[pid]; r != nil {
				r.text += tail
				r.done = true
				delete(pending, pid)
				continue
			}
			// A resumed call whose start the trace does not have.
			out = append(out, &record{pid: pid, text: name + "(<the start of this call is missing from the trace>" + tail, done: true})
			continue
		}
		if t, ok := strings.CutSuffix(rest, unfinished); ok {
			r := &record{pid: pid, text: t}
			pending[pid] = r
			out = append(out, r)
			continue
		}
		out = append(out, &record{pid: pid, text: rest, done: true})
	}
	return out
}

// splitLine splits a line of strace -f into the pid that starts it and the
// text after the spaces that follow the pid.
func splitLine(line string) (pid int, rest string, ok bool) {
	i := 0
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	j := i
	for j < len(line) && line[j] == ' ' {
		j++
	}
	if i == 0 || j == i {
		return 0, "", false
	}
	pid, err := strconv.Atoi(line[:i])
	if err != nil {
		return 0, "", false
	}
	return pid, line[j:], true
}

// resumed takes apart "<... name resumed>tail", the end of a call that
// was unfinished.
func resumed(text string) (name, tail string, ok bool) {
	rest, ok := strings.CutPrefix(text, "<... ")
	if !ok {
		return "", "", false
	}
	name, tail, ok = strings.Cut(rest, " resumed>")
	if !ok || name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
		return "", "", false
	}
	return name, tail, true
}

// call is a record taken apart.
type call struct {
	name  string
	args  []string // the arguments as strace printed them, trimmed
	ret   string   // the return value: 0, -1, 3, ?; "" when the call never returned
	deco  string   // the path strace -y printed after the returned descriptor
	errno string   // ENOENT...
	child int      // clone, fork: the child's pid, in the host's numbering if translated
	// translated: strace gave the child's pid in its own PID namespace.
	// It sometimes cannot (a thread that is gone already), and then the
	// pid is the one in the sandbox's namespace, useless here.
	translated bool
}

func parseCall(text string) (*call, bool) {
	open := strings.IndexByte(text, '(')
	if open <= 0 {
		return nil, false
	}
	c := &call{name: text[:open]}
	for _, r := range c.name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return nil, false
		}
	}
	args, end, ok := splitArgs(text[open+1:])
	if !ok {
		return c, false
	}
	c.args = args
	tail := strings.TrimSpace(text[open+1+end:])
	if tail == "" {
		return c, true // the call never returned
	}
	rest, ok := strings.CutPrefix(tail, "=")
	if !ok {
		return c, false
	}
	rest = strings.TrimLeft(rest, " ")
	i := 0
	for i < len(rest) && rest[i] != ' ' && rest[i] != '<' {
		i++
	}
	c.ret, rest = rest[:i], rest[i:]
	if strings.HasPrefix(rest, "<") {
		d, n, ok := decoration(rest)
		if !ok {
			return c, false
		}
		c.deco, rest = d, rest[n:]
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "E") {
		c.errno, _, _ = strings.Cut(rest, " ")
	}
	if c.ret != "?" && strings.HasPrefix(c.ret, "-") && c.errno == "" {
		c.errno = "E?"
	}
	if m := pidnsRE.FindStringSubmatch(rest); m != nil {
		c.child, _ = strconv.Atoi(m[1])
		c.translated = true
	} else if n, err := strconv.Atoi(c.ret); err == nil && n > 0 && isClone(c.name) {
		c.child = n
	}
	return c, true
}

// failed reports whether the call did not succeed for sure: it failed, or
// its result is unknown.
func (c *call) failed() bool { return c.ret == "" || c.ret == "?" || c.errno != "" }

// errName is the event's Err for the call.
func (c *call) errName() string {
	switch {
	case c.errno != "":
		return c.errno
	case c.ret == "" || c.ret == "?":
		return "?"
	}
	return ""
}

// splitArgs splits the argument list that follows a call's "(" at its
// top-level commas, and returns the index of its closing ")".
func splitArgs(s string) (args []string, end int, ok bool) {
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			j, ok := skipString(s, i)
			if !ok {
				return nil, 0, false
			}
			i = j - 1
		case '<':
			if fdBefore(s[start:i]) {
				_, n, ok := decoration(s[i:])
				if !ok {
					return nil, 0, false
				}
				i += n - 1
			}
		case '/':
			if strings.HasPrefix(s[i:], "/*") {
				j := strings.Index(s[i:], "*/")
				if j < 0 {
					return nil, 0, false
				}
				i += j + 1
			}
		case '(', '[', '{':
			depth++
		case ']', '}':
			depth--
		case ')':
			if depth == 0 {
				if a := strings.TrimSpace(s[start:i]); a != "" || len(args) > 0 {
					args = append(args, a)
				}
				return args, i + 1, true
			}
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	// No closing parenthesis: a call that never returned.
	if a := strings.TrimSpace(s[start:]); a != "" {
		args = append(args, a)
	}
	return args, len(s), true
}

// fdBefore reports whether the text before a "<" ends in a file descriptor,
// which strace -y decorates with its path.
func fdBefore(s string) bool {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "AT_FDCWD") {
		return true
	}
	return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9'
}

// skipString returns the index after the string literal that starts at
// s[i], and after a "..." that marks it truncated.
func skipString(s string, i int) (int, bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			j++
			if strings.HasPrefix(s[j:], "...") {
				j += 3
			}
			return j, true
		}
	}
	return 0, false
}

// decoration reads the <...> that strace -y prints after a descriptor,
// which starts s, and returns its text unescaped and its length.
func decoration(s string) (string, int, bool) {
	for j := 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '>':
			return unescape(s[1:j]), j + 1, true
		}
	}
	return "", 0, false
}

// unquote decodes a string argument. It reports false for anything that
// is not a string literal (NULL, an address).
func unquote(a string) (string, bool) {
	if !strings.HasPrefix(a, `"`) {
		return "", false
	}
	end, ok := skipString(a, 0)
	if !ok {
		return "", false
	}
	lit := strings.TrimSuffix(a[:end], "...")
	return unescape(lit[1 : len(lit)-1]), true
}

// unescape decodes strace's C-style escapes.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'v':
			b.WriteByte('\v')
		case 'f':
			b.WriteByte('\f')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e':
			b.WriteByte(0x1b)
		case 'x':
			n, j := 0, i+1
			for ; j < len(s) && j < i+3 && isHex(s[j]); j++ {
				n = n*16 + hexVal(s[j])
			}
			b.WriteByte(byte(n))
			i = j - 1
		default:
			if c >= '0' && c <= '7' {
				n, j := 0, i
				for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
					n = n*8 + int(s[j]-'0')
				}
				b.WriteByte(byte(n))
				i = j - 1
				continue
			}
			b.WriteByte(c) // \\ \" and anything else stand for themselves
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}

// fdArg splits a descriptor argument into its number (or AT_FDCWD) and
// the path strace -y printed for it ("" when there is none).
func fdArg(a string) (fd, deco string) {
	i := strings.IndexByte(a, '<')
	if i < 0 {
		return a, ""
	}
	d, _, ok := decoration(a[i:])
	if !ok {
		return a[:i], ""
	}
	return a[:i], d
}

// filePath returns the path of a decoration if it names a file: not a
// pipe, a socket or an anonymous inode.
func filePath(deco string) string {
	if !strings.HasPrefix(deco, "/") {
		return ""
	}
	return strings.TrimSuffix(deco, " (deleted)")
}

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

// hasFlag reports whether a flag name appears among the arguments.
func hasFlag(args []string, flag string) bool {
	for _, a := range args {
		for _, f := range strings.FieldsFunc(withoutStrings(a), func(r rune) bool {
			return !(r == '_' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) {
			if f == flag {
				return true
			}
		}
	}
	return false
}

func writesFlags(flags string) bool {
	for _, f := range strings.FieldsFunc(withoutStrings(flags), func(r rune) bool {
		return !(r == '_' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		for _, w := range writeFlags {
			if f == w {
				return true
			}
		}
	}
	return false
}

// withoutStrings replaces the string literals of s with "", so that what a
// program wrote is never read as strace's own notation.
func withoutStrings(s string) string {
	if !strings.Contains(s, `"`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			b.WriteByte(s[i])
			continue
		}
		j, ok := skipString(s, i)
		if !ok {
			break
		}
		b.WriteString(`""`)
		i = j - 1
	}
	return b.String()
}

// stringArray decodes an array of strings: ["ls", "-la"].
func stringArray(a string) []string {
	a = strings.TrimSpace(a)
	if !strings.HasPrefix(a, "[") {
		return nil
	}
	var out []string
	for i := 1; i < len(a); i++ {
		if a[i] != '"' {
			continue
		}
		j, ok := skipString(a, i)
		if !ok {
			break
		}
		s, _ := unquote(a[i:j])
		out = append(out, s)
		i = j - 1
	}
	return out
}
