// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"guard/internal/cmdtsv"
	"guard/policy"
)

// explainCommands returns the commands of the NL2Bash corpus, and some
// that reach every kind of reading.
func explainCommands(t *testing.T) []string {
	t.Helper()
	cmds := []string{
		"cd src && sed -n '1,5p' a.go | head -3 > /tmp/out",
		"timeout 5 find . -name '*.go' -exec grep -n main {} +",
		"bash -c 'ls -la; cat ~/.ssh/id_rsa'",
		"echo $(git rev-parse HEAD)",
		"git -C src log --oneline -3",
		"rm -rf /",
		"go build -o bin/x ./cmd/x",
		"awk '{print $1}' a.txt; awk '{system(\"id\")}'",
		"/tmp/x/rm -rf a",
		"xargs -0 grep -l foo",
		"git",
		"$X -la",
		"gradle test",
	}
	f, err := os.Open(filepath.Join("..", "testcases", "data", "nl2bash.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if cols := strings.Split(sc.Text(), "\t"); len(cols) == 4 && cols[0] != "technique" {
			cmds = append(cmds, cmdtsv.Unescape(cols[1]))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cmds) < 10000 {
		t.Fatalf("read %d commands, want the whole corpus", len(cmds))
	}
	return cmds
}

// TestExplainChangesNothing: a call decided with Explain gets the same
// decision, leaf for leaf, as without; and each command's readings hold
// the verdict that decided it, so that guard explain never shows a
// command decided by something it does not show.
func TestExplainChangesNothing(t *testing.T) {
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, cmd := range explainCommands(t) {
		// Both decisions see one file system: other tests change /tmp
		// while this one runs, and find /tmp -exec reads it.
		call := Call{Kind: KindShell, Input: Input{Command: cmd}, Cwd: dir, Home: filepath.Join(dir, "home"), Shell: "bash", FS: newMemoFS()}
		plain := Decide(p, call)
		call.Explain = true
		explained := Decide(p, call)
		stripped := slices.Clone(explained.Leaves)
		for i := range stripped {
			stripped[i].Explained = nil
		}
		if plain.Verdict != explained.Verdict || !reflect.DeepEqual(plain.Leaves, stripped) {
			t.Errorf("%q: explained, the decision changed:\nplain     %+v\nexplained %+v", cmd, plain, explained)
			bad++
		}
		for _, l := range explained.Leaves {
			if l.Kind != "command" || l.Explained == nil {
				continue
			}
			ex := l.Explained
			if len(ex.Words) == 0 || ex.Words[0].As != "the command name" {
				t.Errorf("%q: %s: the readings do not start with the command name: %+v", cmd, l.Text, ex.Words)
				bad++
				continue
			}
			// The session tier asks until a grant covers it, and says so
			// after its reason.
			want := l.Verdict
			if l.Scope != nil || strings.Contains(l.Why, "it cannot be granted for the session") {
				want = policy.Session
			}
			strictest, found := Allow, false
			for _, r := range ex.Words {
				for _, n := range r.Notes {
					strictest = policy.Stricter(strictest, n.Verdict)
					found = found || n.Verdict == want && strings.HasPrefix(l.Why, n.Why) && n.Rule == l.Rule
				}
			}
			if strictest != want || !found {
				t.Errorf("%q: %s: %s (%s: %s), but its readings say %s and do not hold that verdict: %+v", cmd, l.Text, l.Verdict, l.Rule, l.Why, strictest, ex.Words)
				bad++
			}
		}
		if bad > 20 {
			t.Fatal("too many failures")
		}
	}
}

// memoFS is the operating system's file system as it was at its first
// look at each name: what a decision read, a second one reads again.
type memoFS struct {
	mu    sync.Mutex
	stat  map[string]memo[fs.FileInfo]
	lstat map[string]memo[fs.FileInfo]
	link  map[string]memo[string]
	dir   map[string]memo[[]fs.DirEntry]
	file  map[string]memo[[]byte]
}

// memo is one answer of the file system.
type memo[T any] struct {
	v   T
	err error
}

func newMemoFS() *memoFS {
	return &memoFS{stat: map[string]memo[fs.FileInfo]{}, lstat: map[string]memo[fs.FileInfo]{}, link: map[string]memo[string]{},
		dir: map[string]memo[[]fs.DirEntry]{}, file: map[string]memo[[]byte]{}}
}

// remember returns the answer of get for name kept in cache, asking get
// the first time.
func remember[T any](m *memoFS, cache map[string]memo[T], name string, get func(string) (T, error)) (T, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := cache[name]
	if !ok {
		r.v, r.err = get(name)
		cache[name] = r
	}
	return r.v, r.err
}

func (m *memoFS) Stat(name string) (fs.FileInfo, error)  { return remember(m, m.stat, name, OS.Stat) }
func (m *memoFS) Lstat(name string) (fs.FileInfo, error) { return remember(m, m.lstat, name, OS.Lstat) }
func (m *memoFS) Readlink(name string) (string, error)   { return remember(m, m.link, name, OS.Readlink) }
func (m *memoFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return remember(m, m.dir, name, OS.ReadDir)
}

func (m *memoFS) Open(name string) (fs.File, error) {
	info, err := m.Stat(name)
	if err != nil {
		return nil, err
	}
	data, err := remember(m, m.file, name, func(name string) ([]byte, error) { return readFile(OS, name, 16<<20) })
	if err != nil {
		return nil, err
	}
	return &memoFile{Reader: bytes.NewReader(data), info: info}, nil
}

// memoFile is a file of memoFS, read from what was there.
type memoFile struct {
	*bytes.Reader
	info fs.FileInfo
}

func (f *memoFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memoFile) Close() error               { return nil }
