// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"strings"

	"guard/internal/credential"
	"guard/policy"
)

// A credential is secret whatever the file holding it is called: a file a
// call reads is checked for what a credential looks like (a private key's
// header, a token of a shape secret scanners know: internal/credential),
// unless it is one the project's repository tracks, whose content is the
// project's own (a test fixture). A match asks, naming the kind of
// credential and where it starts, never the credential.
//
// What is not checked: a binary file (a NUL in its first 8 KiB), what
// lies past the first maxScan bytes of a file, a credential of a shape no
// rule knows, and the files of a tree a recursive reader walks (their
// names are judged; the catalogue of secrets names where tools keep
// credentials).

// maxScan is how much of a file the check reads; binaryHead, how much it
// reads first to tell a binary file, which it reads no further.
const (
	maxScan    = 4 << 20
	binaryHead = 8 << 10
)

// contentCheck judges the content of the file at p (its absolute
// spellings abs) that the call reads. ok is false when it found nothing to
// refuse.
func (d *decider) contentCheck(p string, abs []string) (pathCheck, bool) {
	if !d.scan {
		return pathCheck{}, false
	}
	for _, a := range abs {
		m, found, err := d.scanFile(a)
		switch {
		case err != nil:
			return pathCheck{d.p.DefaultVerdict(), "paths.content", fmt.Sprintf("guard cannot read %s to check it for credentials: %v", p, err)}, true
		case found:
			return pathCheck{policy.Stricter(Ask, d.p.DefaultVerdict()), "paths.content " + m.Rule,
				fmt.Sprintf("%s looks like it holds a credential: %s, at byte %d (guard does not show it)", p, m.Kind, m.Offset)}, true
		}
	}
	return pathCheck{}, false
}

// scanFile looks for a credential in the regular file at abs, unless the
// project's repository tracks it. Anything else (a directory, a device, a
// file that is not there) is not checked.
func (d *decider) scanFile(abs string) (credential.Match, bool, error) {
	if r, ok := d.scanned[abs]; ok {
		return r.m, r.found, r.err
	}
	m, found, err := d.scanFileUncached(abs)
	if d.scanned == nil {
		d.scanned = map[string]scanResult{}
	}
	d.scanned[abs] = scanResult{m, found, err}
	return m, found, err
}

type scanResult struct {
	m     credential.Match
	found bool
	err   error
}

func (d *decider) scanFileUncached(abs string) (credential.Match, bool, error) {
	fi, err := d.fsys.Stat(abs)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return credential.Match{}, false, nil
	}
	f, err := d.fsys.Open(abs)
	if err != nil {
		if absent(err) {
			return credential.Match{}, false, nil
		}
		return credential.Match{}, false, err
	}
	defer f.Close()
	// The head first: a binary file is known by it, and read no further.
	head := make([]byte, min(fi.Size(), binaryHead))
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF {
		return credential.Match{}, false, err
	}
	if bytes.IndexByte(head[:n], 0) >= 0 {
		return credential.Match{}, false, nil
	}
	rest, err := io.ReadAll(io.LimitReader(f, maxScan-int64(n)))
	if err != nil {
		return credential.Match{}, false, err
	}
	data := append(head[:n], rest...)
	m, found := credential.Find(data)
	if !found || d.tracked(abs) {
		return credential.Match{}, false, nil
	}
	return m, true, nil
}

// tracked reports whether abs is a file of the project that its
// repository's index holds: the project's own content.
func (d *decider) tracked(abs string) bool {
	real, err := realPath(d.fsys, abs)
	if err != nil {
		return false
	}
	top := d.project()
	if r, err := realPath(d.fsys, top); err == nil {
		top = r
	}
	rel, ok := strings.CutPrefix(real, top+"/")
	if !ok {
		return false
	}
	if d.trackedFiles == nil {
		d.trackedFiles = d.projectIndex(top)
	}
	_, ok = d.trackedFiles[rel]
	return ok
}

// projectIndex returns the paths the index of the repository at top
// tracks; none where it has no .git directory or guard cannot read it.
func (d *decider) projectIndex(top string) map[string]struct{} {
	out := map[string]struct{}{}
	gitDir := path.Join(top, ".git")
	if fi, err := d.fsys.Lstat(gitDir); err != nil || !fi.IsDir() {
		return out
	}
	s, err := openGitStore(d.fsys, gitDir)
	if err != nil {
		return out
	}
	defer s.close()
	ix, err := s.index()
	if err != nil {
		return out
	}
	for _, e := range ix.entries {
		out[e.path] = struct{}{}
	}
	return out
}
