// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	for _, tc := range []struct{ src, dir, body string }{
		{"git status", "", "git status"},
		{"cd /work/x && make test", "cd /work/x", "make test"},
		{"cd src && go test ./... | head -5", "cd ./src", "go test ./... | head -5"},
		{"cd ./src && ls", "cd ./src", "ls"},
		{"cd ../x && ls", "cd ../x", "ls"},
		{"cd .. && ls", "cd ..", "ls"},
		{"cd .x && ls", "cd ./.x", "ls"},
		{"cd ~ && ls", "", "cd ~ && ls"},
		{"cd $D && ls", "", "cd $D && ls"},
		{"cd 'a b' && ls", "", "cd 'a b' && ls"},
		{"cd /x && a && b", "", "cd /x && a && b"},
		{"cd /x || ls", "", "cd /x || ls"},
		{"cd /x && ls &", "", "cd /x && ls &"},
		{"echo a \\\nb", "", "echo a b"},
		{"ls   -la|wc -l", "", "ls -la | wc -l"},
		{"echo 'it'\\''s'", "", "echo 'it'\\''s'"},
	} {
		dir, body, err := Canonical(tc.src, Options{})
		if err != nil || dir != tc.dir || body != tc.body {
			t.Errorf("Canonical(%q) = %q, %q, %v; want %q, %q", tc.src, dir, body, err, tc.dir, tc.body)
		}
	}
	if _, _, err := Canonical("echo 'unterminated", Options{}); err == nil {
		t.Error("Canonical of a command that does not parse: no error")
	}
	for _, s := range []string{"", "plain", "it's", "'", "a'b'c", "$(id) `id` \\ \" \n"} {
		if got := SingleQuote(s); !strings.HasPrefix(got, "'") || !strings.HasSuffix(got, "'") {
			t.Errorf("SingleQuote(%q) = %q", s, got)
		}
		sc, err := Parse("echo "+SingleQuote(s), Options{})
		if err != nil || len(sc.Commands) != 1 || len(sc.Commands[0].Args) != 2 || sc.Commands[0].Args[1].Value != s {
			t.Errorf("echo %s does not read back as %q: %v %v", SingleQuote(s), s, sc, err)
		}
	}
}

// TestCanonicalCdPath: the cd Canonical leaves to the agent's shell goes
// where guard judged it to, whatever CDPATH the shell has: bash and zsh
// search CDPATH for a relative directory that does not start with ./ or
// ../, and guard judges the directory from the call's own. Only cd and pwd
// run.
func TestCanonicalCdPath(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"work/src", "work/.x", "elsewhere/src", "elsewhere/.x"} {
		if err := os.MkdirAll(root+"/"+d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, sh := range []string{"bash", "zsh"} {
		if _, err := exec.LookPath(sh); err != nil {
			t.Logf("no %s", sh)
			continue
		}
		for _, d := range []string{"src", ".x", "src/", "./src"} {
			dir, _, err := Canonical("cd "+d+" && make", Options{Zsh: sh == "zsh"})
			if err != nil || dir == "" {
				t.Fatalf("Canonical(cd %s && make) = %q, %v; want the cd apart", d, dir, err)
			}
			cmd := exec.Command(sh, "-f", "-c", dir+" >/dev/null && pwd")
			if sh == "bash" {
				cmd = exec.Command(sh, "--noprofile", "--norc", "-c", dir+" >/dev/null && pwd")
			}
			cmd.Dir, cmd.Env = root+"/work", []string{"CDPATH=" + root + "/elsewhere", "PATH=/usr/bin:/bin"}
			out, err := cmd.Output()
			want := root + "/work/" + strings.TrimSuffix(strings.TrimPrefix(d, "./"), "/")
			if got := strings.TrimSpace(string(out)); err != nil || got != want {
				t.Errorf("%s with CDPATH: %s went to %q (%v), want %q", sh, dir, got, err, want)
			}
		}
	}
}

// positions matches the line:column positions of a rendered script.
var positions = regexp.MustCompile(`\b\d+:\d+\b`)

// TestCanonicalNL2Bash: for every one-liner of the NL2Bash corpus that
// parses, the canonical form (with its cd put back in front) parses to the
// same commands, words, redirections and findings, for bash and for zsh.
func TestCanonicalNL2Bash(t *testing.T) {
	f, err := os.Open("../testcases/data/nl2bash.tsv")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	n, checked := 0, 0
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) < 2 || fields[0] == "technique" {
			continue
		}
		cmd := fields[1]
		n++
		for _, opt := range []Options{{}, {Zsh: true}} {
			orig, err := Parse(cmd, opt)
			if err != nil {
				continue
			}
			dir, body, err := Canonical(cmd, opt)
			if err != nil {
				t.Errorf("%q: Canonical: %v", cmd, err)
				continue
			}
			again := body
			if dir != "" {
				again = dir + " && " + body
			}
			back, err := Parse(again, opt)
			if err != nil {
				t.Errorf("%q: its canonical form %q does not parse: %v", cmd, again, err)
				continue
			}
			a, b := positions.ReplaceAllString(orig.String(), ""), positions.ReplaceAllString(back.String(), "")
			if x, ok := strings.CutPrefix(dir, "cd ./"); ok {
				// Canonical's cd skips CDPATH (TestCanonicalCdPath).
				a = strings.Replace(a, `"cd" "`+x+`"`, `"cd" "./`+x+`"`, 1)
			}
			if a != b {
				t.Errorf("%q (zsh %v): canonical form %q reads differently:\n%s\nagainst\n%s", cmd, opt.Zsh, again, a, b)
			}
			checked++
		}
	}
	t.Logf("%d one-liners, %d parses checked", n, checked)
	if n < 10000 || checked < 5000 {
		t.Errorf("%d one-liners, %d parses checked: the corpus did not load", n, checked)
	}
}

// TestSingleQuoteShells asks the real bash, zsh and sh, in bubblewrap, to
// print a word SingleQuote made: each prints the string back, byte for
// byte, as the rewritten command's body must reach bash -c.
func TestSingleQuoteShells(t *testing.T) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		if os.Getenv("GUARD_ORACLE") == "require" {
			t.Fatal("no bwrap")
		}
		t.Skip("no bwrap: SKIPPED (set GUARD_ORACLE=require to make this fail)")
	}
	words := []string{"", "plain", "it's", "'", "''", "a'b'c", `back\slash \\ \' \n`, "$(id) `id` ${HOME} $'x' \"q\"",
		"new\nline", "!event ^caret #hash ~tilde *glob ?[x]", "é ü"}
	for _, sh := range [][]string{{"bash", "--norc", "--noprofile"}, {"zsh", "-f"}, {"sh"}} {
		path, err := exec.LookPath(sh[0])
		if err != nil {
			t.Logf("no %s", sh[0])
			continue
		}
		for _, w := range words {
			script := "printf %s " + SingleQuote(w)
			args := append([]string{"--ro-bind", "/", "/", "--dev", "/dev", "--unshare-all", "--die-with-parent", "--", path}, sh[1:]...)
			out, err := exec.Command(bwrap, append(args, "-c", script)...).Output()
			if err != nil || string(out) != w {
				t.Errorf("%s -c %q printed %q (%v), want %q", sh[0], script, out, err, w)
			}
		}
	}
}
