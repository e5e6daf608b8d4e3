// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package audit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A session's head file, heads/SESSION, holds the seq and hash of the
// session's last line as "SEQ HASH\n", the seq padded to 20 digits. Append reads it to chain the next
// line without reading the log, and Verify checks the last line against
// it, so that a removed last line is found too.

// head is the seq and hash of a session's last line; the zero head is a
// session with no line yet.
type head struct {
	seq  int64
	hash string
}

// maxHead is the size of the longest head file read, in bytes.
const maxHead = 256

// readHead returns the head of a session, or the zero head if the session
// has no head file.
func readHead(dir, session string) (head, error) {
	name := filepath.Join(dir, headsDir, session)
	h, err := loadHead(name)
	if errors.Is(err, fs.ErrNotExist) {
		return head{}, nil
	}
	if errors.Is(err, errNotHead) {
		return head{}, fmt.Errorf("%s: %w", name, err)
	}
	return h, err
}

// loadHead reads a head file.
func loadHead(name string) (head, error) {
	f, err := openFile(name, os.O_RDONLY)
	if err != nil {
		return head{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxHead))
	if err != nil {
		return head{}, err
	}
	return parseHead(string(data))
}

// errNotHead is the error for a head file that does not hold "SEQ HASH".
var errNotHead = errors.New(`not a head file: want "SEQ HASH"`)

// parseHead parses the contents of a head file.
func parseHead(s string) (head, error) {
	seq, hash, ok := strings.Cut(strings.TrimSuffix(s, "\n"), " ")
	n, err := strconv.ParseInt(seq, 10, 64)
	if !ok || err != nil || n < 1 || !isHash(hash) {
		return head{}, errNotHead
	}
	return head{seq: n, hash: hash}, nil
}

// isHash reports whether s is a SHA-256 in lower-case hex.
func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

// writeHead writes the head file of a session in place, in one write of a
// fixed length (the seq padded with zeros to 20 digits), under the log's
// lock: a reader sees the old head or the new one. Writing in place costs
// a few microseconds where a new file renamed over the old cost most of an
// append on some file systems (0.6 ms here).
func writeHead(dir, session string, h head) error {
	f, err := openFile(filepath.Join(dir, headsDir, session), os.O_WRONLY|os.O_CREATE)
	if err != nil {
		return err
	}
	_, err = f.WriteAt([]byte(fmt.Sprintf("%020d %s\n", h.seq, h.hash)), 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// readHeads returns the head of every session that has a head file, nil
// for a head file that cannot be read, and a problem for each file in
// heads/ that is not a readable head file. A missing heads/ is no error.
func readHeads(dir string) (map[string]*head, []Problem, error) {
	entries, err := os.ReadDir(filepath.Join(dir, headsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	heads := map[string]*head{}
	var problems []Problem
	for _, de := range entries {
		file := headsDir + "/" + de.Name()
		if !validSession(de.Name()) {
			problems = append(problems, Problem{File: file, Err: "not a head file: the name is not a session id"})
			continue
		}
		h, err := headFile(dir, de)
		if err != nil {
			problems = append(problems, Problem{File: file, Err: err.Error()})
			heads[de.Name()] = nil
			continue
		}
		heads[de.Name()] = &h
	}
	return heads, problems, nil
}

// headFile reads a head file that readHeads found.
func headFile(dir string, de fs.DirEntry) (head, error) {
	if de.Type()&fs.ModeSymlink != 0 {
		return head{}, errors.New("a symbolic link, not a head file")
	}
	return loadHead(filepath.Join(dir, headsDir, de.Name()))
}
