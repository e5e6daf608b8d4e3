// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package guard_test holds checks over the whole repository.
package guard_test

import (
	"bytes"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const header = "// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT\n"

// goFiles returns the Go files of the repository, test data excluded.
func goFiles(t *testing.T) []string {
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("found only %d Go files", len(files))
	}
	return files
}

func TestHeaders(t *testing.T) {
	for _, name := range goFiles(t) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte(header)) {
			t.Errorf("%s does not start with the copyright header", name)
		}
	}
}

func TestGofmt(t *testing.T) {
	for _, name := range goFiles(t) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out, err := format.Source(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(out, data) {
			t.Errorf("%s is not gofmt-ed", name)
		}
	}
}

// TestExitOnlyInMain: only main may end the process. A library that exits
// 1 would let the tool call run.
func TestExitOnlyInMain(t *testing.T) {
	for _, name := range goFiles(t) {
		if strings.HasSuffix(name, "_test.go") || name == filepath.Join("cmd", "guard", "main.go") {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"os.Exit(", "log.Fatal", "panic(\"TODO"} {
			if bytes.Contains(data, []byte(bad)) {
				t.Errorf("%s calls %s", name, strings.TrimSuffix(bad, "("))
			}
		}
	}
}

// TestDependencies: the guard binary depends on the standard library,
// mvdan.cc/sh/v3, BurntSushi/toml, doublestar, and x/sys/unix for the
// jail's system calls, and on nothing else; of the standard library, not on
// go/format or any other go/ package.
func TestDependencies(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(gobin, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./cmd/guard").Output()
	if err != nil {
		t.Fatal(err)
	}
	allowed := []string{"guard/", "mvdan.cc/sh/v3/", "github.com/BurntSushi/toml", "github.com/bmatcuk/doublestar/v4",
		"golang.org/x/sys/unix"}
	for _, dep := range strings.Fields(string(out)) {
		if dep != "guard" && !slices.ContainsFunc(allowed, func(p string) bool { return strings.HasPrefix(dep, p) }) {
			t.Errorf("cmd/guard depends on %s, which is not on the allow-list", dep)
		}
	}
	// Every package linked is initialised at every hook call. The policy
	// generator's go/format (and go/parser, go/printer under it) is for
	// go generate and the tests alone.
	out, err = exec.Command(gobin, "list", "-deps", "./cmd/guard").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "go/") {
			t.Errorf("cmd/guard links %s", dep)
		}
	}
}
