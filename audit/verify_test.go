// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package audit

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The log of interleaved, line by line:
//
//	1 s1 seq 1    2 s2 seq 1
//	3 s1 seq 2    4 s2 seq 2
//	5 s1 seq 3    6 s2 seq 3
//	7 s1 seq 4    8 s2 seq 4
//	9 s1 seq 5
var verifyTests = []struct {
	name   string
	tamper func(t *testing.T, dir string)
	want   []string
}{
	{"untouched", nil, nil},

	// Edits.
	{"edit a middle line", editLine(5, func(e *Entry) { e.Decision = "denied" }),
		[]string{"decisions.jsonl:5: session s1 seq 3 was edited: its hash is not the prev of line 7 (seq 4)"}},
	{"edit a session's first line", editLine(2, func(e *Entry) { e.Call = "rm -rf /" }),
		[]string{"decisions.jsonl:2: session s2 seq 1 was edited: its hash is not the prev of line 4 (seq 2)"}},
	{"edit a session's last line", editLine(8, func(e *Entry) { e.Decision = "denied" }),
		[]string{"decisions.jsonl:8: session s2 seq 4 does not match its head file: the line was edited"}},
	{"edit the prev of a middle line", editLine(5, func(e *Entry) { e.Prev = strings.Repeat("0", 64) }),
		[]string{"decisions.jsonl:5: session s1 seq 3 was edited: its prev is not the hash of line 3 (seq 2)"}},
	{"edit the prev of a first line", editLine(1, func(e *Entry) { e.Prev = strings.Repeat("0", 64) }),
		[]string{"decisions.jsonl:1: session s1 seq 1 has a prev, which a first line has not: the line was edited"}},
	{"change a line's seq", editLine(7, func(e *Entry) { e.Seq = 7 }),
		[]string{"decisions.jsonl:7: session s1 seq 7 follows seq 3 (line 5) in the chain: its seq was changed from 4"}},
	{"change a line's seq to another line's", editLine(7, func(e *Entry) { e.Seq = 2 }),
		[]string{"decisions.jsonl:7: session s1 seq 2 follows seq 3 (line 5) in the chain: its seq was changed from 4"}},
	{"change a first line's seq", editLine(2, func(e *Entry) { e.Seq = 9 }),
		[]string{"decisions.jsonl:2: session s2 seq 9 has no prev, which only seq 1 has: the line was edited or inserted"}},
	{"move a line to another session", editLine(5, func(e *Entry) { e.Session = "s2" }), []string{
		"decisions.jsonl:5: session s2 seq 3 appears again (line 6), and the chain goes on from the other line: this one was inserted or edited",
		"decisions.jsonl:7: session s1 seq 4 follows seq 2: a line is missing",
	}},

	// Removals.
	{"delete a middle line", deleteLines(5),
		[]string{"decisions.jsonl:6: session s1 seq 4 follows seq 2: a line is missing"}},
	{"delete two lines", deleteLines(3, 5),
		[]string{"decisions.jsonl:5: session s1 seq 4 follows seq 1: 2 lines are missing"}},
	{"delete a session's first line", deleteLines(1),
		[]string{"decisions.jsonl:2: session s1 starts at seq 2: a line is missing before it (removed, or in a log file that was deleted)"}},
	{"delete a session's last line", deleteLines(9),
		[]string{"decisions.jsonl:7: session s1 ends at seq 4, but its head file says seq 5: a line is missing at the end"}},
	{"delete a session's last two lines", deleteLines(6, 8),
		[]string{"decisions.jsonl:4: session s2 ends at seq 2, but its head file says seq 4: 2 lines are missing at the end"}},
	{"delete a session's lines", deleteLines(2, 4, 6, 8),
		[]string{"heads/s2: session s2 has a head file but no lines: its lines were removed"}},
	{"delete a head file", removeFile("heads/s2"),
		[]string{"heads/s2: missing: session s2 has lines (the first at decisions.jsonl:2) but no head file"}},

	// Moves. The log orders the lines of a session, not the sessions.
	{"swap two lines of a session", swapLines(3, 5),
		[]string{"decisions.jsonl:5: session s1 seq 2 comes after seq 3 (line 3): the lines were moved"}},
	{"swap two lines far apart", swapLines(1, 7), []string{
		"decisions.jsonl:1: session s1 seq 4 comes before seq 3 (line 5): the lines were moved",
		"decisions.jsonl:7: session s1 seq 1 comes after seq 2 (line 3): the lines were moved",
	}},
	{"move a line to the end", moveLine(3, 9),
		[]string{"decisions.jsonl:9: session s1 seq 2 comes after seq 3 (line 4): the lines were moved"}},
	{"swap lines of two sessions", swapLines(3, 4), nil},

	// Insertions.
	{"insert a forged line", insertLine(6, forged("s1", 3, 3)),
		[]string{"decisions.jsonl:6: session s1 seq 3 appears again (line 5), and the chain goes on from the other line: this one was inserted or edited"}},
	{"insert a forged line before the real one", insertLine(5, forged("s1", 3, 3)),
		[]string{"decisions.jsonl:5: session s1 seq 3 appears again (line 6), and the chain goes on from the other line: this one was inserted or edited"}},
	{"insert a forged last line", insertLine(10, forged("s1", 6, 9)),
		[]string{"decisions.jsonl:10: session s1 seq 6 is past its head file, which ends at seq 5: the line was added"}},
	{"insert a forged line past the head", insertLine(3, forged("s2", 5, 8)),
		[]string{"decisions.jsonl:3: session s2 seq 5 is past its head file, which ends at seq 4: the line was added"}},
	{"insert a copy of a line", insertLine(6, func(lines []string) string { return lines[4] }),
		[]string{"decisions.jsonl:6: session s1 seq 3 repeats line 5: the line was copied"}},
	{"insert a line of a new session", insertLine(10, forged("s9", 1, 0)),
		[]string{"heads/s9: missing: session s9 has lines (the first at decisions.jsonl:10) but no head file"}},
	{"insert a line of a session that Append never writes", insertLine(10, forged("../x", 1, 0)), []string{
		`decisions.jsonl:10: session "../x" is not a session id: Append never writes it`,
	}},
	{"insert a line that is not an entry", insertLine(4, func([]string) string { return "[]" }),
		[]string{"decisions.jsonl:4: not an entry: json: cannot unmarshal array into Go value of type audit.Entry"}},

	// Head files.
	{"a head file that is not one", writeFile("heads/s1", "5\n"),
		[]string{`heads/s1: not a head file: want "SEQ HASH"`}},
	{"a head file that is a symbolic link", func(t *testing.T, dir string) {
		removeFile("heads/s1")(t, dir)
		if err := os.Symlink("../"+currentFile, filepath.Join(dir, "heads/s1")); err != nil {
			t.Fatal(err)
		}
	}, []string{"heads/s1: a symbolic link, not a head file"}},
	{"a head file for no session id", writeFile("heads/a~b", "1 "+strings.Repeat("0", 64)+"\n"),
		[]string{"heads/a~b: not a head file: the name is not a session id"}},
}

func TestVerify(t *testing.T) {
	clean, _ := interleaved(t)
	for _, tc := range verifyTests {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyDir(t, clean)
			if tc.tamper != nil {
				tc.tamper(t, dir)
			}
			problems, err := Verify(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := problemStrings(problems); !slices.Equal(got, tc.want) {
				t.Errorf("Verify:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// copyDir copies a log directory to a new temporary one.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o700)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// rewrite replaces the lines of decisions.jsonl with what edit makes of
// them.
func rewrite(t *testing.T, dir string, edit func(lines []string) []string) {
	t.Helper()
	name := filepath.Join(dir, currentFile)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	lines := edit(strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"))
	if err := os.WriteFile(name, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// editLine changes the entry on line n, 1-based, and writes it back as
// Append would.
func editLine(n int, edit func(*Entry)) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		rewrite(t, dir, func(lines []string) []string {
			var e Entry
			if err := json.Unmarshal([]byte(lines[n-1]), &e); err != nil {
				t.Fatal(err)
			}
			edit(&e)
			line, err := encode(e)
			if err != nil {
				t.Fatal(err)
			}
			lines[n-1] = strings.TrimSuffix(string(line), "\n")
			return lines
		})
	}
}

// deleteLines deletes lines, 1-based.
func deleteLines(ns ...int) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		rewrite(t, dir, func(lines []string) []string {
			var kept []string
			for i, l := range lines {
				if !slices.Contains(ns, i+1) {
					kept = append(kept, l)
				}
			}
			return kept
		})
	}
}

// swapLines swaps lines a and b, 1-based.
func swapLines(a, b int) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		rewrite(t, dir, func(lines []string) []string {
			lines[a-1], lines[b-1] = lines[b-1], lines[a-1]
			return lines
		})
	}
}

// moveLine moves line from so that it becomes line to, 1-based.
func moveLine(from, to int) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		rewrite(t, dir, func(lines []string) []string {
			l := lines[from-1]
			return slices.Insert(slices.Delete(lines, from-1, from), to-1, l)
		})
	}
}

// insertLine inserts the line that line makes of the log's lines so that
// it becomes line n, 1-based.
func insertLine(n int, line func(lines []string) string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		rewrite(t, dir, func(lines []string) []string {
			return slices.Insert(lines, n-1, line(lines))
		})
	}
}

// forged returns a line for a session's seq that chains on to line prev,
// 1-based (0 for no prev), as a forger who knows the format would write.
func forged(session string, seq int64, prev int) func(lines []string) string {
	return func(lines []string) string {
		e := entry(session, 99)
		e.Time, e.Seq, e.Decision = e.Time.UTC(), seq, "allowed"
		if prev > 0 {
			e.Prev = hashLine([]byte(lines[prev-1]))
		}
		line, _ := encode(e)
		return strings.TrimSuffix(string(line), "\n")
	}
}

// removeFile removes a file of the log.
func removeFile(name string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
}

// writeFile writes a file of the log.
func writeFile(name, content string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
