// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"guard/shellparse"
)

// Descriptor-relative names.
//
// /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N do not
// name a file: opening one reopens whatever descriptor N points at in the
// process that opens it. `echo x 1<.git/config >>/dev/stdout` appends to
// .git/config. Such a name is a constant target only while its descriptor
// was not redirected: guard then knows it is the agent's own stream. Where
// the command redirects the descriptor, anywhere in the call (the shell
// runs the redirections in an order guard does not track, and descriptors
// are inherited by compound commands and the scripts of bash -c), the name
// is refused. A descriptor above 2 that the command did not open is the
// agent's, unknown to guard, and refused too.
//
// realPath resolves /dev/stdout and its kin through their links to
// /proc/self/fd/N, and stops there: /proc/self is the process that will
// open the path, not guard.

// descriptorPath returns the descriptor a resolved path reopens, with
// ok false when the path names no descriptor.
func descriptorPath(p string) (fd int, ok bool) {
	const prefix = "/proc/self/fd/"
	if !strings.HasPrefix(p, prefix) {
		return 0, false
	}
	num, _, _ := strings.Cut(p[len(prefix):], "/")
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// descriptors is what a call does to its file descriptors.
type descriptors struct {
	redirected map[int]bool // descriptors some redirection of the call points elsewhere
	dups       [][2]int     // N>&M and N>/dev/fd/M: N is redirected if M is
	named      bool         // a {var}>file redirection opened a descriptor whose number is unknown
}

// clone returns a copy that notes apart from ds.
func (ds descriptors) clone() descriptors {
	c := descriptors{redirected: make(map[int]bool, len(ds.redirected)), dups: slices.Clone(ds.dups), named: ds.named}
	for k, v := range ds.redirected {
		c.redirected[k] = v
	}
	return c
}

// note records the descriptors a redirection changes.
func (ds *descriptors) note(r shellparse.Redirect) {
	if ds.redirected == nil {
		ds.redirected = map[int]bool{}
	}
	if strings.HasPrefix(r.Fd, "{") {
		ds.named = true
		return
	}
	from := -1 // the descriptor a dup or a reopen copies
	if r.Duplicates() {
		if n, err := strconv.Atoi(strings.TrimSuffix(r.Target.Value, "-")); err == nil {
			from = n
		} else {
			return // >&- closes
		}
	} else if r.Target.Constant() && !r.Target.Tilde {
		switch clean := path.Clean(r.Target.Value); {
		case clean == "/dev/null":
			return // reopening /dev/null is /dev/null
		case clean == "/dev/stdin":
			from = 0
		case clean == "/dev/stdout":
			from = 1
		case clean == "/dev/stderr":
			from = 2
		case strings.HasPrefix(clean, "/dev/fd/") && isNumber(clean[len("/dev/fd/"):]):
			from, _ = strconv.Atoi(clean[len("/dev/fd/"):])
		case strings.HasPrefix(clean, "/proc/self/fd/") && isNumber(clean[len("/proc/self/fd/"):]):
			from, _ = strconv.Atoi(clean[len("/proc/self/fd/"):])
		}
	}
	var fds []int
	switch {
	case r.Fd != "":
		n, err := strconv.Atoi(r.Fd)
		if err != nil {
			ds.named = true
			return
		}
		fds = []int{n}
	case r.Op == "&>" || r.Op == "&>>" || (r.Op == ">&" && !r.Duplicates()):
		fds = []int{1, 2}
	case strings.HasPrefix(r.Op, "<"):
		fds = []int{0}
	default:
		fds = []int{1}
	}
	for _, n := range fds {
		switch {
		case from < 0:
			ds.redirected[n] = true
		case from != n:
			ds.dups = append(ds.dups, [2]int{n, from})
		}
	}
}

// isRedirected reports whether a redirection of the call, directly or
// through dups, points the descriptor elsewhere. A descriptor above 2 that
// a dup copies is the agent's, and unknown.
func (ds *descriptors) isRedirected(fd int) bool {
	seen := map[int]bool{}
	var walk func(int) bool
	walk = func(n int) bool {
		if ds.redirected[n] || seen[n] {
			return ds.redirected[n]
		}
		seen[n] = true
		for _, d := range ds.dups {
			if d[0] == n && (d[1] > 2 && !ds.redirected[d[1]] || walk(d[1])) {
				return true
			}
		}
		return false
	}
	return walk(fd)
}

// opened reports whether a redirection of the call opens the descriptor.
func (ds *descriptors) opened(fd int) bool {
	if ds.redirected[fd] {
		return true
	}
	for _, d := range ds.dups {
		if d[0] == fd {
			return true
		}
	}
	return false
}

// check refuses a reopened descriptor that guard cannot name.
func (ds *descriptors) check(p string, fd int) error {
	switch {
	case ds.isRedirected(fd):
		return fmt.Errorf("%s reopens descriptor %d, which this command redirects: it names whatever file that redirection opened", p, fd)
	case fd > 2:
		return fmt.Errorf("%s reopens descriptor %d, which the command did not open: guard cannot tell what it names", p, fd)
	case ds.named:
		return fmt.Errorf("%s reopens descriptor %d, and a {var} redirection opens a descriptor guard cannot number", p, fd)
	}
	return nil
}

// procPath resolves the rest of a path under /proc/ENTRY, where entry is
// self, thread-self or a process id, for the process that opens it. The
// links there (root, cwd, exe, fd/N, ...) are that process's, so they are
// not followed on guard's side: root is the file system root; fd/N is a
// descriptor path, canonically /proc/self/fd/N; cwd and the others name
// what guard cannot see.
func procPath(fsys FS, entry string, rest []string, links int) (string, error) {
	self := entry == "self" || entry == "thread-self"
	var parts []string
	for _, r := range rest {
		if r != "" && r != "." {
			parts = append(parts, r)
		}
	}
	// task/TID/... is a thread of the same process.
	if len(parts) >= 2 && parts[0] == "task" && isNumber(parts[1]) {
		parts = parts[2:]
	}
	if len(parts) == 0 {
		return "/proc/" + entry, nil
	}
	switch parts[0] {
	case "root":
		// The process's root directory, the same as guard's.
		return realPathLinks(fsys, "/"+strings.Join(parts[1:], "/"), links)
	case "fd":
		if len(parts) == 1 {
			return "/proc/" + entry + "/fd", nil
		}
		if !self {
			return "", fmt.Errorf("/proc/%s/fd/%s is a descriptor of another process", entry, parts[1])
		}
		// Keep what follows the descriptor as written: the kernel resolves
		// it from the file the descriptor points at, not lexically.
		return "/proc/self/fd/" + strings.Join(parts[1:], "/"), nil
	case "cwd", "exe", "map_files", "fdinfo", "ns":
		return "", fmt.Errorf("/proc/%s/%s is a link of the process that runs the command, which guard does not follow", entry, parts[0])
	}
	for _, p := range parts {
		if p == ".." {
			return "", fmt.Errorf("/proc/%s/%s goes up through a process's directory", entry, strings.Join(parts, "/"))
		}
	}
	return "/proc/" + entry + "/" + strings.Join(parts, "/"), nil
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
