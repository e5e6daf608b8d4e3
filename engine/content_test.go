// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"guard/policy"
)

// Credentials of two kinds, made here so that no file of guard's holds one.
var (
	testKey   = "-----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH " + "PRIVATE KEY-----\n"
	testToken = "ghp" + "_" + strings.Repeat("aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6", 1)
)

// TestContentCheck: a file that holds what looks like a credential, read
// outside the project or untracked in it, asks, naming the kind and not
// the credential; the project's tracked fixtures, binary files and files
// without one are read as before.
func TestContentCheck(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git to make the project's index with")
	}
	h := newCatalogueHome(t)
	files := map[string]string{
		"home/notes.txt":           "deploy with\n" + testKey,
		"home/todo.md":             "token: " + testToken + "\n",
		"home/plain.txt":           "nothing here\n",
		"home/blob.bin":            "\x00\x01" + testToken,
		"proj/testdata/key.pem":    testKey,
		"proj/untracked/token.txt": testToken,
		"proj/src/main.go":         "package main\n",
	}
	for name, data := range files {
		p := filepath.Join(h.root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := exec.Command("git", "-c", "core.hooksPath=/dev/null", "init", "-q")
	git.Dir = h.proj
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	git = exec.Command("git", "-c", "core.hooksPath=/dev/null", "add", "testdata/key.pem", "src/main.go")
	git.Dir = h.proj
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git add: %v: %s", err, out)
	}
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		want Verdict
	}{
		{"home/notes.txt", Ask},
		{"home/todo.md", Ask},
		{"proj/untracked/token.txt", Ask},
		{"home/plain.txt", Allow},
		{"home/blob.bin", Allow},
		{"proj/testdata/key.pem", Allow},
		{"proj/src/main.go", Allow},
	} {
		path := filepath.Join(h.root, tc.file)
		for _, c := range []Call{
			h.call("Read", Input{Path: path}),
			h.call("Bash", Input{Command: "cat " + shellQuote(path)}),
			h.call("Bash", Input{Command: "head -n 3 " + shellQuote(path)}),
		} {
			c.Run = []string{"/usr/local/bin/guard", "run"}
			d := Decide(p, c)
			if d.Verdict != tc.want {
				t.Errorf("%s of %s: %s: %s; want %s", c.Tool, tc.file, d.Verdict, d.Reason(), tc.want)
			}
			if tc.want == Ask && !strings.Contains(d.Reason(), "looks like it holds a credential") {
				t.Errorf("%s of %s: the reason says nothing of a credential: %s", c.Tool, tc.file, d.Reason())
			}
			for _, secret := range []string{testToken, "b3BlbnNzaC1rZXkt", testToken[:12]} {
				if strings.Contains(d.Reason(), secret) || strings.Contains(d.Hint(), secret) {
					t.Errorf("%s of %s: the decision shows the credential: %s", c.Tool, tc.file, d.Reason())
				}
			}
		}
	}
}
