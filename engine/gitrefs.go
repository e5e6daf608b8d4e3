// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// A repository's refs, as git reads them for a history read: loose refs
// (a worktree's own in its git directory), packed-refs and reflogs.

// readPackedRefs reads packed-refs.
func (s *gitStore) readPackedRefs() error {
	s.packed = map[string]string{}
	data, err := readFile(s.fsys, path.Join(s.common, "packed-refs"), maxGitIndex)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		h, name, ok := strings.Cut(line, " ")
		id, idOK := s.parseID(h)
		if !ok || !idOK {
			return fmt.Errorf("%s: a line guard cannot read: %q", path.Join(s.common, "packed-refs"), line)
		}
		s.packed[name] = id
	}
	return nil
}

// perWorktree reports whether a ref lives in a worktree's own git
// directory rather than the common one.
func perWorktree(name string) bool {
	return !strings.HasPrefix(name, "refs/") || strings.HasPrefix(name, "refs/bisect/") ||
		strings.HasPrefix(name, "refs/worktree/") || strings.HasPrefix(name, "refs/rewritten/")
}

// ref returns the object a ref names, following symbolic refs; "" when
// there is no such ref.
func (s *gitStore) ref(name string) (string, error) {
	for range 10 {
		dir := s.common
		if perWorktree(name) {
			dir = s.gitDir
		}
		data, err := readFile(s.fsys, path.Join(dir, name), maxGitFile)
		switch {
		case err == nil:
			line, _, _ := strings.Cut(string(data), "\n")
			if target, ok := strings.CutPrefix(line, "ref:"); ok {
				name = strings.TrimSpace(target)
				continue
			}
			if len(line) >= 2*s.hashLen {
				if id, ok := s.parseID(line[:2*s.hashLen]); ok {
					return id, nil
				}
			}
			return "", fmt.Errorf("%s: a ref guard cannot read", path.Join(dir, name))
		case errors.Is(err, fs.ErrNotExist), isDirErr(s.fsys, path.Join(dir, name)):
			return s.packed[name], nil
		default:
			return "", err
		}
	}
	return "", fmt.Errorf("the symbolic ref %s goes round in circles", name)
}

// isDirErr reports whether name is a directory, which readFile fails on
// (refs/heads is no ref).
func isDirErr(fsys FS, name string) bool {
	fi, err := fsys.Stat(name)
	return err == nil && fi.IsDir()
}

// maxRefs bounds the refs guard lists for --all.
const maxRefs = 10000

// refs returns the objects of every ref under prefix (refs/ for all),
// loose and packed.
func (s *gitStore) refs(prefix string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	var walk func(dir, name string) error
	walk = func(dir, name string) error {
		ents, err := s.fsys.ReadDir(path.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, e := range ents {
			n := name + "/" + e.Name()
			if e.IsDir() {
				if err := walk(dir, n); err != nil {
					return err
				}
				continue
			}
			if len(seen) > maxRefs {
				return fmt.Errorf("more than %d refs", maxRefs)
			}
			seen[n] = true
			id, err := s.ref(n)
			if err != nil {
				return err
			}
			if id != "" {
				out = append(out, id)
			}
		}
		return nil
	}
	p := strings.TrimSuffix(prefix, "/")
	if err := walk(s.common, p); err != nil {
		return nil, err
	}
	if s.gitDir != s.common {
		for _, own := range []string{"refs/bisect", "refs/worktree", "refs/rewritten"} {
			if strings.HasPrefix(own, p) {
				if err := walk(s.gitDir, own); err != nil {
					return nil, err
				}
			}
		}
	}
	for name, id := range s.packed {
		if strings.HasPrefix(name, p+"/") && !seen[name] {
			out = append(out, id)
		}
	}
	return out, nil
}

// reflog returns the objects a ref's reflog holds, newest first.
func (s *gitStore) reflog(name string) ([]string, error) {
	dir := s.common
	if perWorktree(name) {
		dir = s.gitDir
	}
	data, err := readFile(s.fsys, path.Join(dir, "logs", name), maxGitIndex)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		id, ok := s.parseID(f[1])
		if !ok {
			return nil, fmt.Errorf("%s: a line guard cannot read", path.Join(dir, "logs", name))
		}
		out = append(out, id)
	}
	slices.Reverse(out)
	return out, nil
}
