// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// t0 is the time of the first test entry, in a zone other than UTC so
// that Append's conversion shows.
var t0 = time.Date(2026, 1, 2, 3, 4, 5, 600, time.FixedZone("CET", 3600))

// entry returns the nth test entry of a session.
func entry(session string, n int) Entry {
	ran := n%2 == 0
	return Entry{
		Time: t0.Add(time.Duration(n) * time.Second), Session: session, Event: "PreToolUse",
		Agent: "claude", Tool: "Bash", Digest: strings.Repeat("ab", 32), Call: "go test ./... # " + strconv.Itoa(n),
		Tier: "shell", Decision: "allowed", Rules: []string{"go-test"}, Policy: "default",
		PolicySHA256: strings.Repeat("cd", 32), Version: "v0.1.0", Ran: &ran, Reason: session + " " + strconv.Itoa(n),
	}
}

// appendEntries appends entries to a log, failing the test on an error.
func appendEntries(t *testing.T, l *Log, entries ...Entry) {
	t.Helper()
	for _, e := range entries {
		if err := l.Append(e); err != nil {
			t.Fatal(err)
		}
	}
}

// read reads a log that must have no problem.
func read(t *testing.T, dir string) []Record {
	t.Helper()
	records, problems, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("Read: %s", p)
	}
	return records
}

// verifyClean fails the test if the log in dir has a problem.
func verifyClean(t *testing.T, dir string) {
	t.Helper()
	problems, err := Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("Verify: %s", p)
	}
}

// interleaved writes the log of the round trip: sessions s1 and s2 take
// turns, s1 on the odd lines (seq 1 to 5), s2 on the even ones (seq 1 to 4).
func interleaved(t *testing.T) (dir string, appended []Entry) {
	dir = t.TempDir()
	l := &Log{Dir: dir}
	for n := 1; n <= 9; n++ {
		e := entry("s"+strconv.Itoa(2-n%2), (n+1)/2)
		appendEntries(t, l, e)
		appended = append(appended, e)
	}
	return dir, appended
}

func TestRoundTrip(t *testing.T) {
	dir, appended := interleaved(t)
	records := read(t, dir)
	if len(records) != len(appended) {
		t.Fatalf("Read returned %d records, want %d", len(records), len(appended))
	}
	last := map[string]Record{}
	for i, r := range records {
		want := appended[i]
		want.Time = want.Time.UTC()
		want.Seq = int64(i/2 + 1)
		want.Prev = ""
		if p, ok := last[want.Session]; ok {
			want.Prev = hashLine(p.Raw)
		}
		if r.File != currentFile || r.Line != i+1 {
			t.Errorf("record %d is at %s:%d, want %s:%d", i, r.File, r.Line, currentFile, i+1)
		}
		if r.Entry.Time.Location() != time.UTC {
			t.Errorf("line %d: time %v is not in UTC", r.Line, r.Entry.Time)
		}
		if !reflect.DeepEqual(r.Entry, want) {
			t.Errorf("line %d:\n got %+v\nwant %+v", r.Line, r.Entry, want)
		}
		last[want.Session] = r
	}
	verifyClean(t, dir)
}

// TestAppendLine: a line is the entry's JSON with the fields in order,
// the empty ones left out, the time in UTC, and one newline.
func TestAppendLine(t *testing.T) {
	dir := t.TempDir()
	appendEntries(t, &Log{Dir: dir}, Entry{Time: t0, Session: "s1", Event: "SessionEnd", Call: "a<b && c"})
	data, err := os.ReadFile(filepath.Join(dir, currentFile))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"time":"2026-01-02T02:04:05.0000006Z","session":"s1","seq":1,"event":"SessionEnd","call":"a<b && c","prev":""}` + "\n"
	if string(data) != want {
		t.Errorf("log:\n got %s\nwant %s", data, want)
	}
	head, err := os.ReadFile(filepath.Join(dir, headsDir, "s1"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "00000000000000000001 " + hashLine([]byte(strings.TrimSuffix(want, "\n"))) + "\n"; string(head) != want {
		t.Errorf("heads/s1 = %q, want %q", head, want)
	}
}

func TestAppendSetsTime(t *testing.T) {
	dir := t.TempDir()
	before := time.Now()
	appendEntries(t, &Log{Dir: dir}, Entry{Session: "s1", Event: "grant"})
	records := read(t, dir)
	if len(records) != 1 {
		t.Fatalf("Read returned %d records, want 1", len(records))
	}
	if got := records[0].Entry.Time; got.Before(before.Add(-time.Second)) || got.After(time.Now()) || got.Location() != time.UTC {
		t.Errorf("time = %v, want the time of the append, in UTC", got)
	}
}

// TestSessionNames: an id that is not a plain name is logged under "-",
// and no file is made from it.
func TestSessionNames(t *testing.T) {
	tests := []struct{ id, want string }{
		{"s1", "s1"},
		{"0b1f2c3d-4e5f-6789-abcd-ef0123456789", "0b1f2c3d-4e5f-6789-abcd-ef0123456789"},
		{"ok-1.2_3", "ok-1.2_3"},
		{strings.Repeat("a", 128), strings.Repeat("a", 128)},
		{"", "-"},
		{"../../etc/passwd", "-"},
		{"a/b", "-"},
		{".", "-"},
		{"..", "-"},
		{"a b", "-"},
		{"a\x00b", "-"},
		{"é", "-"},
		{strings.Repeat("a", 129), "-"},
	}
	dir := filepath.Join(t.TempDir(), "log")
	l := &Log{Dir: dir}
	for _, tc := range tests {
		appendEntries(t, l, Entry{Time: t0, Session: tc.id, Event: "PreToolUse"})
	}
	records := read(t, dir)
	if len(records) != len(tests) {
		t.Fatalf("Read returned %d records, want %d", len(records), len(tests))
	}
	wantHeads := map[string]bool{}
	for i, tc := range tests {
		if got := records[i].Entry.Session; got != tc.want {
			t.Errorf("session %q is logged as %q, want %q", tc.id, got, tc.want)
		}
		wantHeads[tc.want] = true
	}
	entries, err := os.ReadDir(filepath.Join(dir, headsDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range entries {
		if !wantHeads[de.Name()] {
			t.Errorf("heads/%s: a head file for no session", de.Name())
		}
		delete(wantHeads, de.Name())
	}
	for s := range wantHeads {
		t.Errorf("heads/%s is missing", s)
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(dir), "etc")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file was made outside the log: %v", err)
	}
	verifyClean(t, dir)
}

func TestRotation(t *testing.T) {
	dir := t.TempDir()
	const maxSize = 1500
	l := &Log{Dir: dir, MaxSize: maxSize}
	var appended []Entry
	for n := 1; n <= 60; n++ {
		e := entry("s"+strconv.Itoa(n%3), n)
		appendEntries(t, l, e)
		appended = append(appended, e)
	}
	files, err := rotatedFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 {
		t.Fatalf("%d rotated files, want 5 or more", len(files))
	}
	for i, f := range files {
		if f.n != i+1 {
			t.Errorf("rotated file %d is %s", i+1, f.name)
		}
		fi, err := os.Stat(filepath.Join(dir, f.name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > maxSize {
			t.Errorf("%s is %d bytes, more than %d", f.name, fi.Size(), maxSize)
		}
	}
	records := read(t, dir)
	if len(records) != len(appended) {
		t.Fatalf("Read returned %d records, want %d", len(records), len(appended))
	}
	for i, r := range records {
		if r.Entry.Reason != appended[i].Reason {
			t.Errorf("record %d (%s:%d) is %q, want %q", i, r.File, r.Line, r.Entry.Reason, appended[i].Reason)
		}
	}
	if records[0].File != rotatedName(1) || records[len(records)-1].File != currentFile {
		t.Errorf("the records run from %s to %s, want %s to %s", records[0].File, records[len(records)-1].File, rotatedName(1), currentFile)
	}
	verifyClean(t, dir)

	// A line longer than MaxSize gets a file of its own: the current file
	// is rotated before it, and it is rotated before the next line.
	long := entry("s1", 61)
	long.Reason = strings.Repeat("x", maxSize)
	appendEntries(t, l, long, entry("s1", 62))
	records = read(t, dir)
	if got, want := records[len(records)-2], rotatedName(len(files)+2); got.Line != 1 || got.File != want {
		t.Errorf("the long line is at %s:%d, want %s:1", got.File, got.Line, want)
	}
	if got := records[len(records)-1]; got.Line != 1 || got.File != currentFile {
		t.Errorf("the line after the long one is at %s:%d, want %s:1", got.File, got.Line, currentFile)
	}
	verifyClean(t, dir)
}

// TestRotatedFileRemoved: after a user removes the oldest file, each
// session whose lines began there starts in the middle.
func TestRotatedFileRemoved(t *testing.T) {
	dir := t.TempDir()
	l := &Log{Dir: dir, MaxSize: 1500}
	for n := 1; n <= 30; n++ {
		appendEntries(t, l, entry("s"+strconv.Itoa(n%2), n))
	}
	if err := os.Remove(filepath.Join(dir, rotatedName(1))); err != nil {
		t.Fatal(err)
	}
	records := read(t, dir)
	problems, err := Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	seen := map[string]bool{}
	for _, r := range records {
		if !seen[r.Entry.Session] {
			seen[r.Entry.Session] = true
			want = append(want, fmt.Sprintf("%s:%d: session %s starts at seq %d: %s missing before it (removed, or in a log file that was deleted)",
				r.File, r.Line, r.Entry.Session, r.Entry.Seq, lines(r.Entry.Seq-1)))
		}
	}
	if got := problemStrings(problems); !slices.Equal(got, want) {
		t.Errorf("Verify:\n got %q\nwant %q", got, want)
	}
}

func problemStrings(problems []Problem) []string {
	var s []string
	for _, p := range problems {
		s = append(s, p.String())
	}
	return s
}

func TestReadCorrupt(t *testing.T) {
	dir, _ := interleaved(t)
	rewrite(t, dir, func(lines []string) []string {
		lines = slices.Insert(lines, 2, "garbage \x00\xff{")
		lines = slices.Insert(lines, 5, `{"event":"PreToolUse","seq":0}`)
		lines = slices.Insert(lines, 7, "")
		return slices.Insert(lines, 9, `{"time":"2026-01-02T02:04:05Z","session":"s1","seq":3`)
	})
	records, problems, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`decisions.jsonl:3: not an entry: invalid character 'g' looking for beginning of value`,
		`decisions.jsonl:6: not an entry: no time, no session, no seq`,
		`decisions.jsonl:8: an empty line`,
		`decisions.jsonl:10: not an entry: unexpected end of JSON input`,
	}
	if got := problemStrings(problems); !slices.Equal(got, want) {
		t.Errorf("Read problems:\n got %q\nwant %q", got, want)
	}
	var lineNumbers []int
	for _, r := range records {
		lineNumbers = append(lineNumbers, r.Line)
	}
	if want := []int{1, 2, 4, 5, 7, 9, 11, 12, 13}; !slices.Equal(lineNumbers, want) {
		t.Errorf("records on lines %v, want %v", lineNumbers, want)
	}
	// Verify reports the same lines, and the chains are whole.
	problems, err = Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := problemStrings(problems); !slices.Equal(got, want) {
		t.Errorf("Verify:\n got %q\nwant %q", got, want)
	}
}

func TestReadDirectory(t *testing.T) {
	records, problems, err := Read(filepath.Join(t.TempDir(), "missing"))
	if records != nil || problems != nil || err != nil {
		t.Errorf("Read(a missing directory) = %v, %v, %v; want nothing", records, problems, err)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Read(file); err == nil {
		t.Errorf("Read(a file) did not fail")
	}
	if _, err := Verify(file); err == nil {
		t.Errorf("Verify(a file) did not fail")
	}
}

// TestSymlinks: Append refuses a log directory, file or head that is a
// symbolic link, and writes nothing where it points.
func TestSymlinks(t *testing.T) {
	tests := []struct {
		name  string
		setup func(dir, outside string) error // dir is made; the log is under dir/log
	}{
		{"directory", func(dir, outside string) error { return os.Symlink(outside, filepath.Join(dir, "log")) }},
		{"log file", func(dir, outside string) error {
			return os.Symlink(filepath.Join(outside, "x"), filepath.Join(dir, "log", currentFile))
		}},
		{"lock file", func(dir, outside string) error {
			return os.Symlink(filepath.Join(outside, "x"), filepath.Join(dir, "log", lockFile))
		}},
		{"heads directory", func(dir, outside string) error { return os.Symlink(outside, filepath.Join(dir, "log", headsDir)) }},
		{"head file", func(dir, outside string) error {
			if err := os.Mkdir(filepath.Join(dir, "log", headsDir), 0o700); err != nil {
				return err
			}
			return os.Symlink(filepath.Join(outside, "x"), filepath.Join(dir, "log", headsDir, "s1"))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			if tc.name != "directory" {
				if err := os.Mkdir(filepath.Join(dir, "log"), 0o700); err != nil {
					t.Fatal(err)
				}
			}
			if err := tc.setup(dir, outside); err != nil {
				t.Fatal(err)
			}
			err := (&Log{Dir: filepath.Join(dir, "log") + "/"}).Append(entry("s1", 1))
			if err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
				t.Errorf("Append = %v, want an error about a symbolic link", err)
			}
			if entries, _ := os.ReadDir(outside); len(entries) > 0 {
				t.Errorf("Append wrote %s where the link points", entries[0].Name())
			}
		})
	}
}

// TestWritable: Writable says whether Append could add an entry, makes
// what Append would make, and writes no entry.
func TestWritable(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(dir string) error // the log is dir/log
		wantErr string
	}{
		{"missing", func(string) error { return nil }, ""},
		{"a log there", func(dir string) error { return (&Log{Dir: filepath.Join(dir, "log")}).Append(entry("s1", 1)) }, ""},
		{"a file in the way", func(dir string) error { return os.WriteFile(filepath.Join(dir, "log"), nil, 0o600) }, "is not a directory"},
		{"a link", func(dir string) error { return os.Symlink(t.TempDir(), filepath.Join(dir, "log")) }, "is a symbolic link"},
		{"log file a directory", func(dir string) error { return os.MkdirAll(filepath.Join(dir, "log", currentFile), 0o700) }, "is a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := tc.setup(dir); err != nil {
				t.Fatal(err)
			}
			l := &Log{Dir: filepath.Join(dir, "log")}
			before, _, _ := Read(l.Dir)
			err := l.Writable()
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("Writable() = %v, want an error with %q", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			if after := read(t, l.Dir); len(after) != len(before) {
				t.Errorf("Writable wrote: %d entries before, %d after", len(before), len(after))
			}
			appendEntries(t, l, entry("s2", 1))
			verifyClean(t, l.Dir)
		})
	}
	if err := (&Log{}).Writable(); err == nil {
		t.Errorf("Writable() of a Log with no directory did not fail")
	}
}

func TestModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "guard", "log")
	l := &Log{Dir: dir, MaxSize: 600}
	appendEntries(t, l, entry("s1", 1), entry("s2", 2), entry("s1", 3))
	want := map[string]fs.FileMode{
		".":                           fs.ModeDir | 0o700,
		headsDir:                      fs.ModeDir | 0o700,
		currentFile:                   0o600,
		rotatedName(1):                0o600,
		lockFile:                      0o600,
		filepath.Join(headsDir, "s1"): 0o600,
		filepath.Join(headsDir, "s2"): 0o600,
	}
	for name, mode := range want {
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			t.Error(err)
			continue
		}
		if fi.Mode() != mode {
			t.Errorf("%s has mode %v, want %v", name, fi.Mode(), mode)
		}
	}
}

func TestNoDirectory(t *testing.T) {
	err := (&Log{}).Append(entry("s1", 1))
	if err == nil || err.Error() != "appending to the decision log: no directory" {
		t.Errorf("Append to a Log without a directory = %v", err)
	}
}

// TestAppendBadHead: Append does not start a session's chain again when it
// cannot read the session's head.
func TestAppendBadHead(t *testing.T) {
	dir := t.TempDir()
	l := &Log{Dir: dir}
	appendEntries(t, l, entry("s1", 1))
	if err := os.WriteFile(filepath.Join(dir, headsDir, "s1"), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := l.Append(entry("s1", 2))
	if want := `not a head file: want "SEQ HASH"`; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("Append with a bad head = %v, want an error ending in %q", err, want)
	}
	if records := read(t, dir); len(records) != 1 {
		t.Errorf("the log has %d lines, want 1", len(records))
	}
}

// TestVerifyAcrossFiles: an edit is found where the session's next line is
// in the next file.
func TestVerifyAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	l := &Log{Dir: dir, MaxSize: 1500}
	for n := 1; n <= 20; n++ {
		appendEntries(t, l, entry("s"+strconv.Itoa(n%2), n))
	}
	records := read(t, dir)
	// The last line of the first file, and the next line of its session.
	var edited, next Record
	for i, r := range records {
		if r.File == rotatedName(1) && records[i+1].File != r.File {
			edited = r
			for _, n := range records[i+1:] {
				if n.Entry.Session == r.Entry.Session {
					next = n
					break
				}
			}
			break
		}
	}
	if next.File == "" {
		t.Fatal("no line of the first file has its session's next line in another")
	}
	name := filepath.Join(dir, edited.File)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), string(edited.Raw), strings.Replace(string(edited.Raw), "allowed", "denied", 1), 1))
	if err := os.WriteFile(name, data, 0o600); err != nil {
		t.Fatal(err)
	}
	problems, err := Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{fmt.Sprintf("%s:%d: session %s seq %d was edited: its hash is not the prev of %s:%d (seq %d)",
		edited.File, edited.Line, edited.Entry.Session, edited.Entry.Seq, next.File, next.Line, next.Entry.Seq)}
	if got := problemStrings(problems); !slices.Equal(got, want) {
		t.Errorf("Verify:\n got %q\nwant %q", got, want)
	}
}
