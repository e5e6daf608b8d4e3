// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// Read returns the lines of the log in dir, oldest first: the rotated
// files in the order of their numbers, then decisions.jsonl. A line that
// is not an entry (not JSON, or without a time, session or seq) is a
// problem, and so is a log file that cannot be read; Read goes on with the
// rest. The error is for a directory that cannot be read. A missing
// directory holds no lines.
//
// Read sees the log as it was at one moment, with no append half done
// (see [Verify]).
func Read(dir string) ([]Record, []Problem, error) {
	snap, err := takeSnapshot(dir, false)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the decision log: %w", err)
	}
	records, problems := snap.read(dir)
	return records, problems, nil
}

// snapshot is a log as it was at one moment. It is taken under the log's
// shared lock, so that no append is half done in it, and read after the
// lock is let go, so that appends need not wait for the reading: a rotated
// file does not change, and the current one is held open and read only as
// far as it went.
type snapshot struct {
	rotated      []string  // the rotated files, oldest first
	current      *os.File  // decisions.jsonl, or nil
	size         int64     // the size of current at that moment
	problems     []Problem // why decisions.jsonl cannot be read
	heads        map[string]*head
	headProblems []Problem
}

// takeSnapshot takes a snapshot of the log in dir, with its head files if
// heads says so. A missing directory is an empty log. Where the log has no
// lock file, or it cannot be locked, the snapshot is taken without the
// lock.
func takeSnapshot(dir string, heads bool) (*snapshot, error) {
	if lock, err := lockDir(dir, syscall.LOCK_SH); err == nil {
		defer lock.Close()
	}
	files, err := rotatedFiles(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return &snapshot{}, nil
	}
	if err != nil {
		return nil, err
	}
	snap := &snapshot{}
	for _, f := range files {
		snap.rotated = append(snap.rotated, f.name)
	}
	switch f, err := openLogFile(dir, currentFile); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		snap.problems = append(snap.problems, Problem{File: currentFile, Err: err.Error()})
	default:
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		snap.current, snap.size = f, fi.Size()
	}
	if heads {
		if snap.heads, snap.headProblems, err = readHeads(dir); err != nil {
			snap.close()
			return nil, err
		}
	}
	return snap, nil
}

// close closes the current file of a snapshot.
func (snap *snapshot) close() {
	if snap.current != nil {
		snap.current.Close()
	}
}

// read returns the lines of a snapshot of the log in dir, and their
// problems, and closes it.
func (snap *snapshot) read(dir string) ([]Record, []Problem) {
	defer snap.close()
	var records []Record
	var problems []Problem
	for _, name := range snap.rotated {
		r, p := readFile(dir, name)
		records = append(records, r...)
		problems = append(problems, p...)
	}
	problems = append(problems, snap.problems...)
	if snap.current != nil {
		r, p := readLines(currentFile, io.NewSectionReader(snap.current, 0, snap.size))
		records = append(records, r...)
		problems = append(problems, p...)
	}
	return records, problems
}

// rotated is a rotated log file and its number.
type rotated struct {
	name string
	n    int
}

// rotatedFiles returns the rotated log files in dir by their numbers.
func rotatedFiles(dir string) ([]rotated, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []rotated
	for _, de := range entries {
		if n, ok := rotatedNumber(de.Name()); ok {
			files = append(files, rotated{de.Name(), n})
		}
	}
	slices.SortFunc(files, func(a, b rotated) int { return a.n - b.n })
	return files, nil
}

// rotatedName returns the name of the nth rotated log file.
func rotatedName(n int) string {
	return fmt.Sprintf("decisions-%06d.jsonl", n)
}

// rotatedNumber returns the number of a rotated log file from its name.
func rotatedNumber(name string) (int, bool) {
	s, ok := strings.CutPrefix(name, "decisions-")
	if !ok {
		return 0, false
	}
	if s, ok = strings.CutSuffix(s, ".jsonl"); !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || rotatedName(n) != name {
		return 0, false
	}
	return n, true
}

// readFile returns the lines of one log file, and its problems.
func readFile(dir, name string) ([]Record, []Problem) {
	f, err := openLogFile(dir, name)
	if err != nil {
		return nil, []Problem{{File: name, Err: err.Error()}}
	}
	defer f.Close()
	return readLines(name, f)
}

// openLogFile opens a log file to read it, and refuses a symbolic link.
func openLogFile(dir, name string) (*os.File, error) {
	path := filepath.Join(dir, name)
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, errors.New("a symbolic link, not read")
	case !fi.Mode().IsRegular():
		return nil, errors.New("not a regular file, not read")
	}
	return os.Open(path)
}

// readLines returns the lines of a log file, and its problems.
func readLines(name string, f io.Reader) ([]Record, []Problem) {
	var records []Record
	var problems []Problem
	r := bufio.NewReader(f)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			raw := bytes.TrimSuffix(line, []byte("\n"))
			if e, perr := parseLine(raw); perr != nil {
				problems = append(problems, Problem{File: name, Line: n, Err: perr.Error()})
			} else {
				records = append(records, Record{File: name, Line: n, Entry: e, Raw: raw})
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			problems = append(problems, Problem{File: name, Line: n, Err: err.Error()})
			break
		}
	}
	return records, problems
}

// parseLine parses a line of the log into an entry.
func parseLine(raw []byte) (Entry, error) {
	var e Entry
	if len(bytes.TrimSpace(raw)) == 0 {
		return e, errors.New("an empty line")
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return e, fmt.Errorf("not an entry: %v", err)
	}
	var missing []string
	if e.Time.IsZero() {
		missing = append(missing, "time")
	}
	if e.Session == "" {
		missing = append(missing, "session")
	}
	if e.Seq < 1 {
		missing = append(missing, "seq")
	}
	if missing != nil {
		return e, fmt.Errorf("not an entry: no %s", strings.Join(missing, ", no "))
	}
	return e, nil
}
