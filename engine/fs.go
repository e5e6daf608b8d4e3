// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// FS is the file system a call's paths resolve in. Names are absolute and
// slash-separated. Errors are those of package os: a missing file is
// fs.ErrNotExist, a path through a file that is not a directory
// syscall.ENOTDIR, a directory guard may not read fs.ErrPermission.
// Anything else makes the engine judge the path as unknown.
type FS interface {
	Stat(name string) (fs.FileInfo, error)
	Lstat(name string) (fs.FileInfo, error)
	Readlink(name string) (string, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	// Open opens a regular file for reading, following links.
	Open(name string) (fs.File, error)
}

// OS is the operating system's file system, the FS of a call that names
// none.
var OS FS = osFS{}

type osFS struct{}

func (osFS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(name) }
func (osFS) Lstat(name string) (fs.FileInfo, error)     { return os.Lstat(name) }
func (osFS) Readlink(name string) (string, error)       { return os.Readlink(name) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }
func (osFS) Open(name string) (fs.File, error)          { return os.Open(name) }

// readFile reads a whole file of fsys, up to max bytes; more is an error.
func readFile(fsys FS, name string, max int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s is larger than %d bytes", name, max)
	}
	return data, nil
}

// Bounds on the files guard reads to judge a call: a .git file, commondir
// or VERSION is a line; a go.mod is written by hand.
const (
	maxGitFile = 64 << 10
	maxGoMod   = 1 << 20
)

// statCache is a decision's view of its file system: what it has asked
// once it does not ask again. The paths of a call share their directories,
// and a long command names the same ones many times; a decision judges one
// moment, so an answer does not change within it.
type statCache struct {
	FS
	lstat, stat map[string]statResult
	links       map[string]linkResult
	dirs        map[string]dirResult
}

type dirResult struct {
	ents []fs.DirEntry // shared: callers do not change it
	err  error
}

type statResult struct {
	fi  fs.FileInfo
	err error
}

type linkResult struct {
	target string
	err    error
}

func newStatCache(fsys FS) *statCache {
	return &statCache{FS: fsys, lstat: map[string]statResult{}, stat: map[string]statResult{}, links: map[string]linkResult{}, dirs: map[string]dirResult{}}
}

func (c *statCache) Lstat(name string) (fs.FileInfo, error) {
	r, ok := c.lstat[name]
	if !ok {
		r.fi, r.err = c.FS.Lstat(name)
		c.lstat[name] = r
	}
	return r.fi, r.err
}

func (c *statCache) Stat(name string) (fs.FileInfo, error) {
	r, ok := c.stat[name]
	if !ok {
		r.fi, r.err = c.FS.Stat(name)
		c.stat[name] = r
	}
	return r.fi, r.err
}

func (c *statCache) Readlink(name string) (string, error) {
	r, ok := c.links[name]
	if !ok {
		r.target, r.err = c.FS.Readlink(name)
		c.links[name] = r
	}
	return r.target, r.err
}

func (c *statCache) ReadDir(name string) ([]fs.DirEntry, error) {
	r, ok := c.dirs[name]
	if !ok {
		r.ents, r.err = c.FS.ReadDir(name)
		c.dirs[name] = r
	}
	return r.ents, r.err
}
