// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Log appends entries to the decision log in a directory.
//
// A Log holds no state between appends: any number of processes may append
// to the same directory at once, each with its own Log. The zero Log has
// no directory, and Append fails.
type Log struct {
	Dir string // the log's directory; made, with mode 0700, if missing
	// MaxSize is the size in bytes past which decisions.jsonl is rotated;
	// 0 means 32 MiB. A line longer than MaxSize gets a file of its own.
	MaxSize int64
}

// defaultMaxSize is the size of a log file past which it is rotated, when
// the Log does not say.
const defaultMaxSize = 32 << 20 // 32 MiB

// The names in the log directory.
const (
	currentFile = "decisions.jsonl"
	lockFile    = "lock"
	headsDir    = "heads"
)

// Append adds an entry to the log: it sets the entry's Seq and Prev, its
// Time when that is zero, and its Session when that is not a plain name,
// and writes it as one line. The log's directory is locked while it
// appends. Append refuses a directory or file that is a symbolic link, and
// a session whose head file it cannot read: it never starts a session's
// chain again.
func (l *Log) Append(e Entry) error {
	if l.Dir == "" {
		return errors.New("appending to the decision log: no directory")
	}
	if err := l.add(filepath.Clean(l.Dir), e); err != nil {
		return fmt.Errorf("appending to the decision log in %s: %w", l.Dir, err)
	}
	return nil
}

// Writable reports whether Append could add an entry: it makes the
// log's directories where they are missing, takes the lock, and opens the
// current file for appending, as Append does, and writes nothing.
func (l *Log) Writable() error {
	if l.Dir == "" {
		return errors.New("the decision log: no directory")
	}
	dir := filepath.Clean(l.Dir)
	lock, err := openDir(dir)
	if err == nil {
		var f *os.File
		f, err = openFile(filepath.Join(dir, currentFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE)
		if err == nil {
			err = f.Close()
		}
		lock.Close()
	}
	if err != nil {
		return fmt.Errorf("the decision log in %s cannot be written: %w", l.Dir, err)
	}
	return nil
}

// openDir makes the log's directories in dir where they are missing and
// takes its lock for appending, which holds until the file is closed.
func openDir(dir string) (*os.File, error) {
	if err := makeDir(dir); err != nil {
		return nil, err
	}
	if err := makeDir(filepath.Join(dir, headsDir)); err != nil {
		return nil, err
	}
	return lockDir(dir, syscall.LOCK_EX)
}

// add appends an entry to the log in dir, as Append does.
func (l *Log) add(dir string, e Entry) error {
	lock, err := openDir(dir)
	if err != nil {
		return err
	}
	defer lock.Close()

	e.Session = sessionName(e.Session)
	h, err := readHead(dir, e.Session)
	if err != nil {
		return err
	}
	e.Seq, e.Prev = h.seq+1, h.hash
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	e.Time = e.Time.UTC()
	line, err := encode(e)
	if err != nil {
		return err
	}
	if err := l.write(dir, line); err != nil {
		return err
	}
	return writeHead(dir, e.Session, head{seq: e.Seq, hash: hashLine(line[:len(line)-1])})
}

// maxSize returns the size past which the current log file is rotated.
func (l *Log) maxSize() int64 {
	if l.MaxSize <= 0 {
		return defaultMaxSize
	}
	return l.MaxSize
}

// encode returns an entry as a line of JSON, newline included.
func encode(e Entry) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// hashLine returns the SHA-256 of a line without its newline, in hex: what
// the next line of its session carries as prev.
func hashLine(line []byte) string {
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}

// write appends a line to the current log file with one write, rotating
// the file first if the line would take it past the maximum size.
func (l *Log) write(dir string, line []byte) error {
	name := filepath.Join(dir, currentFile)
	f, err := openFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	if size := fi.Size(); size > 0 && size+int64(len(line)) > l.maxSize() {
		f.Close()
		if err := rotate(dir); err != nil {
			return err
		}
		if f, err = openFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE); err != nil {
			return err
		}
	}
	n, err := f.Write(line)
	if err == nil && n < len(line) {
		err = fmt.Errorf("writing %s: wrote %d of %d bytes", name, n, len(line))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// rotate renames the current log file to the rotated name after the last
// one in the directory.
func rotate(dir string) error {
	files, err := rotatedFiles(dir)
	if err != nil {
		return err
	}
	n := 1
	if len(files) > 0 {
		n = files[len(files)-1].n + 1
	}
	next := filepath.Join(dir, rotatedName(n))
	if _, err := os.Lstat(next); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("rotating the log: %s is in the way", next)
	}
	return os.Rename(filepath.Join(dir, currentFile), next)
}

// makeDir makes a directory with mode 0700 if it is missing, and checks
// that it is a directory and not a symbolic link.
func makeDir(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		fi, err = os.Lstat(dir)
	}
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link", dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

// lockDir takes the lock on a log directory, which holds until the
// returned file is closed: exclusive (syscall.LOCK_EX) to append, or
// shared (syscall.LOCK_SH) to read; the lock file is made if it is
// missing.
func lockDir(dir string, how int) (*os.File, error) {
	flag := os.O_RDWR | os.O_CREATE
	if how == syscall.LOCK_SH {
		flag = os.O_RDONLY
	}
	f, err := openFile(filepath.Join(dir, lockFile), flag)
	if errors.Is(err, fs.ErrNotExist) && how == syscall.LOCK_SH {
		// A reader before the first append: without the lock file it
		// would read unlocked while that append writes. It makes the file
		// where it can (not in a directory it may not write).
		f, err = openFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE)
	}
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", f.Name(), err)
	}
	return f, nil
}

// openFile opens a regular file of the log, made with mode 0600 if flag
// says so, and refuses a symbolic link.
func openFile(name string, flag int) (*os.File, error) {
	f, err := os.OpenFile(name, flag|syscall.O_NOFOLLOW, 0o600)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s is a symbolic link", name)
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", name)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
