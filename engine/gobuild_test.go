// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"os"
	"path/filepath"
	"testing"

	"guard/policy"
)

// TestGoBuildOutputNames: go build names a command after its import path,
// and a pattern builds every command under its root. A link committed
// where the binary lands (bin/pre-commit -> ../.git/hooks/pre-commit)
// made go build -o bin/ ./cmd/... install a git hook, in bubblewrap.
func TestGoBuildOutputNames(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(root, "proj")
	mk := func(name, data string) {
		t.Helper()
		f := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	mk("proj/.git/config", "")
	mk("proj/go.mod", "module example.com/evil\n\ngo 1.22\n")
	mk("proj/cmd/pre-commit/main.go", "package main\n")
	mk("proj/cmd/tool/main.go", "package main\n")
	mk("proj/bin/.keep", "")
	link("../.git/hooks/pre-commit", "proj/bin/pre-commit")
	mk("proj/hook/go.mod", "module \"example.com/post-checkout\" // a quoted path\n")
	mk("proj/hook/main.go", "package main\n")
	link("../.git/hooks/post-checkout", "proj/hook/post-checkout")
	mk("proj/ver/x/v2/main.go", "package main\n")
	mk("proj/ver/x.keep", "")
	mk("proj/cmd/_gen/hidden/main.go", "package main\n")
	mk("proj/cmd/.x/hidden/main.go", "package main\n")
	mk("proj/cmd/testdata/hidden/main.go", "package main\n")
	mk("proj/out2/.keep", "")
	link("../.git/hooks/hidden", "proj/out2/hidden")
	mk("proj/out/.keep", "")
	link("../.git/hooks/x", "proj/out/x")
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	call := func(cmd string) Call {
		return Call{Kind: KindShell, Input: Input{Command: cmd}, Cwd: proj, Project: proj, Home: filepath.Join(root, "home"), Temp: filepath.Join(root, "tmp"), Guard: filepath.Join(root, "guard")}
	}
	decideTable(t, p, call, []decideCase{
		// A pattern builds the commands under its root, each named after its package.
		{"go build -o bin/ ./cmd/...", Deny, "bin/pre-commit"},
		{"go build -o bin/ ./...", Deny, "bin/pre-commit"},
		{"go build -o bin/ example.com/evil/...", Deny, "bin/pre-commit"},
		{"go build -o bin/ all", Deny, "bin/pre-commit"},
		{"go build -o bin/ ./cmd/pre-commit", Deny, "bin/pre-commit"},
		{"go build -o bin/ ./cmd/t...", Deny, "bin/pre-commit"}, // every directory of cmd/ is taken
		{"go build -o bin/ ./cmd/tool", Allow, ""},
		{"go build -o out2/ ./cmd/...", Allow, ""},                // go walks into no _ or . directory, nor testdata
		{"go build -o out2/ ./cmd/_gen/...", Deny, "out2/hidden"}, // but the root may be one
		{"go build -o bin/ golang.org/x/tools/cmd/...", Ask, "cannot name"},
		{"go build ./cmd/...", Allow, ""},
		{"go build ./...", Allow, ""},
		// A module's root is named after the module's path.
		{"cd hook && go build", Deny, "post-checkout"},
		{"cd hook && go build .", Deny, "post-checkout"},
		{"go build -C hook", Deny, "post-checkout"},
		{"cd hook && go build ./...", Deny, "post-checkout"},
		// A major version suffix names the element before it.
		{"go build -o out/ ./ver/x/v2", Deny, "out/x"},
		{"cd ver && go build -o ../out/ ./x/v2", Deny, "out/x"},
		{"go build -o out/ example.com/evil/ver/x/v2", Deny, "out/x"},
		{"go build -o out/ ./ver/...", Deny, "out/x"},
		{"go build -o bin/ ./ver/x/v2", Allow, ""},
		{"go build -o . ./rust-toolchain/v2", Deny, "protected"},
		{"go build -o . ./ver/x/v3", Allow, ""},
	})
	if n := goExecName("example.com/x/v2"); n != "x" {
		t.Errorf("goExecName(example.com/x/v2) = %q", n)
	}
	for s, want := range map[string]bool{"v2": true, "v10": true, "v1": false, "v0": false, "v": false, "v1x": false, "v12": true} {
		if isGoVersionElement(s) != want {
			t.Errorf("isGoVersionElement(%q) = %v", s, !want)
		}
	}
}
