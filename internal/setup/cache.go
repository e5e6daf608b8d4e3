// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package setup

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"syscall"

	"guard/engine"
	"guard/policy"
)

// The policy cache keeps, for each policy file that loaded with its
// examples passing, the file's cache form (see [policy.CacheForm]), so
// that a hook decodes no TOML and checks no examples when the file has
// not changed. It lives in guard's state directory, which no call may
// write and guard run's sandbox does not open for writing.
//
// An entry is named by the sha256 of guard's build and the file's bytes
// and holds that name, the sha256 of the form and the form. It is used
// only when it is a regular file of the user's, not a link, writable by
// no one else, and when both sums match; on any doubt the file is loaded
// from its source, its examples checked, and the entry written anew.

// PolicyCacheDir returns where the policy cache lives: policies/ in the
// state directory, "" when there is none.
func PolicyCacheDir(env Getenv) string {
	if d := StateDir(env); d != "" {
		return filepath.Join(d, "policies")
	}
	return ""
}

const (
	cacheMagic      = "guard policy cache 1\n"
	maxCacheEntries = 64
	maxCacheEntry   = 16 << 20
)

// cacheHits counts the loads the cache served, for the tests.
var cacheHits atomic.Int64

// buildID names the running build: its version and its executable's
// device, inode, size and time of change, so that a rebuilt guard never
// takes a form of another build. "" when the executable cannot be found.
func buildID() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s\n%d %d %d %d", Version(), st.Dev, st.Ino, fi.Size(), fi.ModTime().UnixNano())
}

// LoadFileCached is [LoadFile] through the policy cache in dir; with dir
// "" it is LoadFile.
func LoadFileCached(name, dir string) (*policy.Policy, string, error) {
	src, err := readPolicy(name)
	if err != nil {
		return nil, "", err
	}
	sum := policy.Digest(src)
	build := ""
	if dir != "" {
		build = buildID()
	}
	if build == "" {
		p, err := engine.Load(name, bytes.NewReader(src))
		return p, sum, err
	}
	key := sha256.New()
	io.WriteString(key, cacheMagic+build+"\n")
	key.Write(src)
	id := hex.EncodeToString(key.Sum(nil))
	entry := filepath.Join(dir, id)
	if form := readEntry(entry, id); form != nil {
		if p, err := policy.LoadCacheForm(name, src, form); err == nil {
			cacheHits.Add(1)
			return p, sum, nil
		}
	}
	p, err := engine.Load(name, bytes.NewReader(src))
	if err != nil {
		return nil, sum, err
	}
	if form, err := policy.CacheForm(name, src); err == nil {
		writeEntry(dir, entry, id, form)
	}
	return p, sum, nil
}

// readEntry returns the form in the entry named id, nil if there is none
// or it is in doubt.
func readEntry(name, id string) []byte {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o022 != 0 || fi.Size() > maxCacheEntry {
		return nil
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return nil
	}
	data := make([]byte, fi.Size()+1)
	n, err := io.ReadFull(f, data)
	if err != io.ErrUnexpectedEOF || int64(n) != fi.Size() {
		return nil
	}
	data = data[:n]
	head := cacheMagic + id + "\n"
	if !bytes.HasPrefix(data, []byte(head)) {
		return nil
	}
	data = data[len(head):]
	i := bytes.IndexByte(data, '\n')
	if i != 2*sha256.Size {
		return nil
	}
	want, form := data[:i], data[i+1:]
	got := sha256.Sum256(form)
	if hex.EncodeToString(got[:]) != string(want) {
		return nil
	}
	return form
}

// writeEntry writes an entry whole, by a rename, and keeps the cache to
// its bound, the oldest entries going first. A cache that cannot be
// written costs time, not a decision: errors are dropped.
func writeEntry(dir, name, id string, form []byte) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	f, err := os.CreateTemp(dir, ".new-*")
	if err != nil {
		return
	}
	sum := sha256.Sum256(form)
	_, werr := f.WriteString(cacheMagic + id + "\n" + hex.EncodeToString(sum[:]) + "\n")
	if werr == nil {
		_, werr = f.Write(form)
	}
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), name) != nil {
		os.Remove(f.Name())
		return
	}
	trimCache(dir)
}

// trimCache removes the oldest entries beyond maxCacheEntries.
func trimCache(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) <= maxCacheEntries {
		return
	}
	type aged struct {
		name string
		mod  int64
	}
	var all []aged
	for _, e := range ents {
		if fi, err := e.Info(); err == nil {
			all = append(all, aged{e.Name(), fi.ModTime().UnixNano()})
		}
	}
	slices.SortFunc(all, func(a, b aged) int { return int(min(max(a.mod-b.mod, -1), 1)) })
	for _, a := range all[:max(0, len(all)-maxCacheEntries)] {
		os.Remove(filepath.Join(dir, a.name))
	}
}
