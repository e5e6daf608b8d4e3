// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package guard_test

import (
	"fmt"
	"os"
	"path/filepath"

	"guard"
)

func ExampleEngine_Decide() {
	// A throwaway project and home. A harness passes its own environment,
	// or leaves Env nil for the process's.
	root, err := os.MkdirTemp("", "guard-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(root)
	root, _ = filepath.EvalSymlinks(root)
	proj, home := filepath.Join(root, "proj"), filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(proj, "src"), filepath.Join(home, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			fmt.Println(err)
			return
		}
	}
	env := map[string]string{"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}

	// The embedded default policy, for commands that bash runs.
	e, err := guard.Load(guard.Options{Shell: "bash", Env: func(k string) string { return env[k] }})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range []struct {
		what string
		call guard.Call
	}{
		{"git status && rg TODO | head", guard.Call{Kind: guard.Shell, Tool: "bash", Command: "git status && rg TODO | head", Cwd: proj}},
		{"rm -rf /", guard.Call{Kind: guard.Shell, Tool: "bash", Command: "rm -rf /", Cwd: proj}},
		{"read src/a.go", guard.Call{Kind: guard.Read, Tool: "read_file", Path: "src/a.go", Cwd: proj}},
		{"read ~/.ssh/id_rsa", guard.Call{Kind: guard.Read, Tool: "read_file", Path: filepath.Join(home, ".ssh", "id_rsa"), Cwd: proj}},
		{"write src/b.go", guard.Call{Kind: guard.Write, Tool: "write_file", Path: "src/b.go", Cwd: proj}},
		{"ls in a relative cwd", guard.Call{Kind: guard.Shell, Tool: "bash", Command: "ls", Cwd: "proj"}},
	} {
		d := e.Decide(c.call)
		fmt.Printf("%s: %s", c.what, d.Verdict)
		if d.Rule != "" {
			fmt.Printf(", rule %q", d.Rule)
		}
		fmt.Println()
	}
	// Output:
	// git status && rg TODO | head: allow, rule "git status"
	// rm -rf /: deny, rule "rm -r"
	// read src/a.go: allow, rule "paths.read"
	// read ~/.ssh/id_rsa: deny, rule "paths.secret ~/.ssh/**"
	// write src/b.go: ask, rule "paths.write"
	// ls in a relative cwd: deny
}
