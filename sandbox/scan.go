// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A Scan finds the paths of a tree the jail hides: those whose name a
// secret pattern could match (Candidate) and that the policy keeps from
// reads (Hidden), and the sockets, pipes and devices (a socket or a pipe
// in the project may be a process's outside, listening). A directory
// hidden is hidden whole; links are not followed; a .git directory is not looked into (what git keeps there is
// the repository's, read through git).
//
// The tree is read once; after that, with a Cache file, only each
// directory's status: a directory whose inode and modification time are
// as recorded holds the same names, so the same hidden paths, and only
// its subdirectories are looked at. A directory changed within the last
// racyWindow is read again each time, since a change in the same tick of
// the file system's clock would not show in its time.
type Scan struct {
	Root      string
	Candidate func(rel string) bool // rel is the path under Root, with a leading /
	Hidden    func(abs string) bool
	// Cache is the file that keeps what was found, for Key (the policy's
	// secret patterns, say: a change of them reads the tree again). ""
	// reads the tree every time.
	Cache string
	Key   string
}

// racyWindow is how recent a directory's change may be for its record not
// to be trusted.
const racyWindow = 2 * time.Second

// scanDir is what a Scan records of a directory.
type scanDir struct {
	ino    uint64
	mtime  int64 // nanoseconds
	hidden []string
	subs   []string
}

// Run returns the hidden paths, absolute, sorted.
func (s Scan) Run() ([]string, error) {
	root := filepath.Clean(s.Root)
	old := s.load()
	now := time.Now()
	found := map[string]scanDir{}
	var out []string
	var walk func(rel string) error
	walk = func(rel string) error {
		dir := root + rel
		fi, err := os.Lstat(dir)
		if err != nil {
			return err
		}
		st, _ := fi.Sys().(*syscall.Stat_t)
		if st == nil || !fi.IsDir() {
			return nil // gone, or no longer a directory: found where its parent is read again
		}
		mtime := fi.ModTime().UnixNano()
		d, ok := old[rel]
		if !ok || d.ino != st.Ino || d.mtime != mtime {
			d = scanDir{ino: st.Ino, mtime: mtime}
			if now.Sub(fi.ModTime()) < racyWindow {
				d.mtime = -1 // read again next time
			}
			ents, err := os.ReadDir(dir)
			if err != nil {
				return err
			}
			for _, e := range ents {
				name := e.Name()
				sub := rel + "/" + name
				if e.Type()&(fs.ModeSocket|fs.ModeNamedPipe|fs.ModeDevice|fs.ModeCharDevice) != 0 || s.Candidate(sub) && s.Hidden(root+sub) {
					d.hidden = append(d.hidden, name)
					continue
				}
				if e.IsDir() && name != ".git" {
					d.subs = append(d.subs, name)
				}
			}
		}
		found[rel] = d
		for _, h := range d.hidden {
			out = append(out, dir+"/"+h)
		}
		for _, sub := range d.subs {
			if err := walk(rel + "/" + sub); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		return nil
	}
	if err := walk(""); err != nil {
		return nil, fmt.Errorf("finding the secrets of %s: %v", root, err)
	}
	s.save(found, old)
	slices.Sort(out)
	return out, nil
}

// load reads the cache: nothing when there is none, or it is for another
// key or tree, or does not parse.
func (s Scan) load() map[string]scanDir {
	dirs := map[string]scanDir{}
	if s.Cache == "" {
		return dirs
	}
	data, err := os.ReadFile(s.Cache)
	if err != nil {
		return dirs
	}
	header, body, _ := bytes.Cut(data, []byte("\n"))
	if string(header) != s.header() {
		return dirs
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\x00")
		if len(f) != 5 {
			return map[string]scanDir{}
		}
		ino, err1 := strconv.ParseUint(f[1], 10, 64)
		mtime, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil {
			return map[string]scanDir{}
		}
		d := scanDir{ino: ino, mtime: mtime}
		if f[3] != "" {
			d.hidden = strings.Split(f[3], "/")
		}
		if f[4] != "" {
			d.subs = strings.Split(f[4], "/")
		}
		dirs[f[0]] = d
	}
	return dirs
}

// header is the cache's first line: its format, key and tree.
func (s Scan) header() string {
	return "guard scan 1\x00" + strconv.Quote(s.Key) + "\x00" + strconv.Quote(filepath.Clean(s.Root))
}

// save writes the cache when it changed, whole or not at all: a cache that
// cannot be written is read again next time.
func (s Scan) save(dirs, old map[string]scanDir) {
	if s.Cache == "" || sameDirs(dirs, old) {
		return
	}
	var b bytes.Buffer
	b.WriteString(s.header() + "\n")
	for _, rel := range slices.Sorted(func(yield func(string) bool) {
		for k := range dirs {
			if !yield(k) {
				return
			}
		}
	}) {
		d := dirs[rel]
		if strings.Contains(rel, "\n") || slices.ContainsFunc(append(d.hidden, d.subs...), func(n string) bool { return strings.Contains(n, "\n") }) {
			continue // a name with a line break is not kept: its directory is read each time
		}
		fmt.Fprintf(&b, "%s\x00%d\x00%d\x00%s\x00%s\n", rel, d.ino, d.mtime, strings.Join(d.hidden, "/"), strings.Join(d.subs, "/"))
	}
	if err := os.MkdirAll(filepath.Dir(s.Cache), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.Cache), ".scan-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b.Bytes())
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), s.Cache) != nil {
		os.Remove(tmp.Name())
	}
}

func sameDirs(a, b map[string]scanDir) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || x.ino != y.ino || x.mtime != y.mtime || !slices.Equal(x.hidden, y.hidden) || !slices.Equal(x.subs, y.subs) {
			return false
		}
	}
	return true
}
