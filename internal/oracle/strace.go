// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package oracle

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

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
