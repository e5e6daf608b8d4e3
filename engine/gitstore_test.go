// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitFixture is a repository made by the real git, for the tests of what
// guard reads of one. A test that needs one is skipped where git is not
// installed.
type gitFixture struct {
	t    *testing.T
	dir  string
	env  []string
	tick int // the commit times, one second apart
}

func newGitFixture(t *testing.T, initArgs ...string) *gitFixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	g := &gitFixture{t: t, dir: filepath.Join(root, "proj")}
	g.env = []string{"HOME=" + root, "GIT_CONFIG_NOSYSTEM=1", "PATH=/usr/bin:/bin", "LC_ALL=C",
		"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com"}
	if err := os.MkdirAll(g.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	g.git(append([]string{"init", "-q", "-b", "main"}, initArgs...)...)
	return g
}

// git runs git in the repository and returns what it printed.
func (g *gitFixture) git(args ...string) string {
	g.t.Helper()
	g.tick++
	cmd := exec.Command("git", args...)
	date := fmt.Sprintf("GIT_COMMITTER_DATE=%d +0000", 1700000000+g.tick)
	cmd.Dir, cmd.Env = g.dir, append(slices.Clone(g.env), date, strings.Replace(date, "COMMITTER", "AUTHOR", 1))
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		g.t.Fatalf("git %v: %v: %s", args, err, msg)
	}
	return string(out)
}

// write writes files of the working tree, by path and contents.
func (g *gitFixture) write(files ...string) {
	g.t.Helper()
	for i := 0; i+1 < len(files); i += 2 {
		write(g.t, filepath.Join(g.dir, files[i]), files[i+1])
	}
}

// hexIDs returns ids in hexadecimal.
func hexIDs(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = hex.EncodeToString([]byte(id))
	}
	return out
}

// TestGitStore reads a repository git wrote, loose and packed (with
// deltas), SHA-1 and SHA-256, and compares each commit, tree, ref,
// reflog, abbreviation and index entry with what git says of it.
func TestGitStore(t *testing.T) {
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			g := newGitFixture(t, "--object-format="+format)
			for i := range 12 {
				var b strings.Builder
				for j := range 40 {
					fmt.Fprintf(&b, "line %d of version %d\n", j, i*(j%3))
				}
				if i == 5 {
					g.git("checkout", "-q", "-b", "side")
				}
				if i == 8 {
					g.git("checkout", "-q", "main")
				}
				g.write("src/main.go", b.String(), fmt.Sprintf("dir%d/f.txt", i%4), b.String(), fmt.Sprintf("README%d", i%2), fmt.Sprint(i))
				g.git("add", "-A")
				g.git("commit", "-q", "-m", fmt.Sprint("c", i))
				if i == 3 {
					g.git("tag", "-a", "-m", "t", "v1")
				}
				if i == 6 {
					g.git("repack", "-a", "-d", "-q") // a pack with deltas; later objects stay loose
				}
			}
			g.git("merge", "-q", "--no-ff", "-X", "theirs", "-m", "merge", "side")
			g.git("pack-refs", "--all")
			g.git("commit", "-q", "--allow-empty", "-m", "after")
			s, err := openGitStore(OS, filepath.Join(g.dir, ".git"))
			if err != nil {
				t.Fatal(err)
			}
			defer s.close()
			if len(s.packs) == 0 {
				t.Fatal("no pack: the test reads none")
			}
			hashLen := map[string]int{"sha1": 20, "sha256": 32}[format]
			if s.hashLen != hashLen {
				t.Fatalf("hash length %d, want %d", s.hashLen, hashLen)
			}
			id := func(h string) string {
				t.Helper()
				x, ok := s.parseID(strings.TrimSpace(h))
				if !ok {
					t.Fatalf("%q is no id", h)
				}
				return x
			}
			for _, line := range strings.Split(strings.TrimSpace(g.git("rev-list", "--all", "--parents")), "\n") {
				f := strings.Fields(line)
				c, err := s.commit(id(f[0]))
				if err != nil {
					t.Fatal(err)
				}
				if got, want := hexIDs(c.parents), f[1:]; !slices.Equal(got, want) {
					t.Errorf("commit %s: parents %v, want %v", f[0], got, want)
				}
				if got, want := hex.EncodeToString([]byte(c.tree)), strings.TrimSpace(g.git("rev-parse", f[0]+"^{tree}")); got != want {
					t.Errorf("commit %s: tree %s, want %s", f[0], got, want)
				}
			}
			trees := 0
			for _, line := range strings.Split(strings.TrimSpace(g.git("cat-file", "--batch-all-objects", "--batch-check")), "\n") {
				f := strings.Fields(line)
				h := f[0]
				if f[1] != "tree" {
					continue
				}
				trees++
				ents, err := s.tree(id(h))
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, e := range ents {
					typ := "blob"
					if e.isTree() {
						typ = "tree"
					}
					got = append(got, fmt.Sprintf("%06o %s %x\t%s", e.mode, typ, e.id, e.name))
				}
				want := strings.Split(strings.TrimSpace(g.git("ls-tree", h)), "\n")
				if !slices.Equal(got, want) {
					t.Errorf("tree %s:\n%s\nwant\n%s", h, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
			if trees < 20 {
				t.Errorf("only %d trees read", trees)
			}
			refs, err := s.refs("refs/")
			if err != nil {
				t.Fatal(err)
			}
			got, want := hexIDs(refs), strings.Fields(g.git("for-each-ref", "--format=%(objectname)"))
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("refs %v, want %v", got, want)
			}
			log, err := s.reflog("HEAD")
			if err != nil {
				t.Fatal(err)
			}
			if got, want := hexIDs(log), strings.Fields(g.git("log", "-g", "--format=%H", "HEAD")); !slices.Equal(got, want) {
				t.Errorf("reflog %v, want %v", got, want)
			}
			h := &historyRead{s: s}
			for _, rev := range []string{"HEAD", "@", "main", "side", "v1", "v1^{}", "v1~2", "HEAD~1^2", "HEAD^^2~1", "HEAD~1^2^", "HEAD~3^{tree}",
				"refs/heads/side", "HEAD@{2}", "main@{1}", "HEAD^0", "HEAD^{commit}"} {
				got, err := h.revision(rev)
				if err != nil {
					t.Errorf("%s: %v", rev, err)
					continue
				}
				if want := strings.TrimSpace(g.git("rev-parse", rev)); hex.EncodeToString([]byte(got)) != want {
					t.Errorf("%s: %x, want %s", rev, got, want)
				}
			}
			head := strings.TrimSpace(g.git("rev-parse", "HEAD"))
			for _, n := range []int{7, 12} {
				got, err := h.revision(head[:n])
				if err != nil || hex.EncodeToString([]byte(got)) != head {
					t.Errorf("%s: %x, %v; want %s", head[:n], got, err, head)
				}
			}
			if _, err := h.revision("nosuch"); err == nil || !strings.Contains(err.Error(), "no such revision") {
				t.Errorf("nosuch: %v, want no such revision", err)
			}
			ix, err := s.index()
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, e := range ix.entries {
				paths = append(paths, e.path)
				if !ix.unchanged(OS, g.dir, e) {
					// The index was written with the files it stats: git
					// takes them for unchanged only after a refresh that
					// leaves them racily clean no longer.
					t.Logf("%s: not taken for unchanged (racily clean)", e.path)
				}
			}
			if want := strings.Fields(g.git("ls-files")); !slices.Equal(paths, want) {
				t.Errorf("index %v, want %v", paths, want)
			}
		})
	}
}

// TestGitStatEqual: a file is the index's when every field git compares
// is, seconds alone where the index keeps no nanoseconds.
func TestGitStatEqual(t *testing.T) {
	e := gitIndexEntry{mtime: [2]uint32{100, 5}, ctime: [2]uint32{90, 7}, dev: 1, ino: 2, uid: 3, gid: 4, size: 10, mode: 0o100644}
	st := gitStat{mtime: [2]int64{100, 5}, ctime: [2]int64{90, 7}, dev: 1, ino: 2, uid: 3, gid: 4, size: 10, mode: 0o100644}
	noNsec := e
	noNsec.mtime[1], noNsec.ctime[1] = 0, 0
	for _, tc := range []struct {
		name string
		e    gitIndexEntry
		st   func(gitStat) gitStat
		want bool
	}{
		{"the same", e, func(s gitStat) gitStat { return s }, true},
		{"nanoseconds differ", e, func(s gitStat) gitStat { s.mtime[1] = 6; return s }, false},
		{"kept without nanoseconds", noNsec, func(s gitStat) gitStat { s.mtime[1] = 6; return s }, true},
		{"ctime differs", e, func(s gitStat) gitStat { s.ctime[0] = 91; return s }, false},
		{"inode differs", e, func(s gitStat) gitStat { s.ino = 9; return s }, false},
		{"size differs", e, func(s gitStat) gitStat { s.size = 11; return s }, false},
		{"size differs by 1<<32", e, func(s gitStat) gitStat { s.size += 1 << 32; return s }, true}, // as git keeps it
		{"made executable", e, func(s gitStat) gitStat { s.mode = 0o100755; return s }, false},
		{"a link now", e, func(s gitStat) gitStat { s.mode = 0o120777; return s }, false},
	} {
		if got := gitStatEqual(tc.e, tc.st(st)); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	// Racily clean: the index written in the second the file last
	// changed, or before.
	ix := gitIndex{written: [2]uint32{100, 9}}
	for _, tc := range []struct {
		mtime [2]uint32
		racy  bool
	}{{[2]uint32{99, 0}, false}, {[2]uint32{100, 5}, false}, {[2]uint32{100, 0}, true}, {[2]uint32{100, 9}, true}, {[2]uint32{101, 0}, true}} {
		if got := ix.racy(gitIndexEntry{mtime: tc.mtime}); got != tc.racy {
			t.Errorf("index written at %v, file changed at %v: racy %v, want %v", ix.written, tc.mtime, got, tc.racy)
		}
	}
}
