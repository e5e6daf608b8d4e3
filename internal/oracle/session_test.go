// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package oracle

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sessionCall is one tool call of a scripted agent session.
type sessionCall struct {
	tool  string
	input map[string]any // "TREE" in a string stands for the work tree
}

// readOnlySession is what an agent asked to "only look" might try: reading
// and searching, read-only shell commands, and every way of changing the
// tree it might reach for.
var readOnlySession = []sessionCall{
	{"Read", map[string]any{"file_path": "TREE/README.md"}},
	{"Grep", map[string]any{"pattern": "TODO", "path": "TREE"}},
	{"Glob", map[string]any{"pattern": "**/*.go", "path": "TREE"}},
	{"Bash", map[string]any{"command": "git status"}},
	{"Bash", map[string]any{"command": "git log --oneline -3"}},
	{"Bash", map[string]any{"command": "git diff HEAD --stat"}},
	{"Bash", map[string]any{"command": "ls -la && cat README.md | wc -l"}},
	{"Bash", map[string]any{"command": "grep -rn TODO . | head"}},
	{"Bash", map[string]any{"command": "find . -name '*.go' -exec wc -l {} +"}},
	{"Bash", map[string]any{"command": "sort names.txt | uniq -c"}},
	{"TodoWrite", map[string]any{"todos": []any{}}},
	{"Write", map[string]any{"file_path": "TREE/new.go", "content": "package main\n"}},
	{"Edit", map[string]any{"file_path": "TREE/README.md", "old_string": "fixture", "new_string": "changed"}},
	{"MultiEdit", map[string]any{"file_path": "TREE/main.go", "edits": []any{}}},
	{"NotebookEdit", map[string]any{"notebook_path": "TREE/n.ipynb", "new_source": "x"}},
	{"Bash", map[string]any{"command": "echo changed > README.md"}},
	{"Bash", map[string]any{"command": "rm -rf src"}},
	{"Bash", map[string]any{"command": "touch new-file"}},
	{"Bash", map[string]any{"command": "sed -i s/fixture/changed/ README.md"}},
	{"Bash", map[string]any{"command": "mv README.md README.old"}},
	{"Bash", map[string]any{"command": "git checkout -- ."}},
	{"Bash", map[string]any{"command": "git commit -am changed"}},
	{"Bash", map[string]any{"command": "find . -name '*.txt' -delete"}},
	{"Bash", map[string]any{"command": "go test ./..."}},
	{"Bash", map[string]any{"command": "bash -c 'rm -rf .'"}},
	{"Bash", map[string]any{"command": "git status > status.txt"}},
	{"Bash", map[string]any{"command": "xargs rm < list.txt"}},
	{"Agent", map[string]any{"prompt": "edit the files"}},
	{"WebFetch", map[string]any{"url": "https://example.com/"}},
	{"mcp__files__write_file", map[string]any{"path": "TREE/x"}},
	{"Teleport", map[string]any{"to": "TREE"}},
}

// TestReadOnlySession drives the guard binary through a scripted session
// in read-only mode, as Claude Code would: every call goes to guard hook;
// what guard allows is carried out (Bash commands in the oracle's sandbox,
// file tools on the tree); afterwards the work tree must be byte for byte
// what it was. It runs twice: guard hook --read-only with the default
// policy (no shell at all), and a policy that extends the review profile
// (read-only shell commands run).
func TestReadOnlySession(t *testing.T) {
	sb := sandbox(t)
	bin := filepath.Join(t.TempDir(), "guard")
	build := exec.Command("go", "build", "-o", bin, "./cmd/guard")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building guard: %v\n%s", err, out)
	}
	for _, mode := range []struct {
		name       string
		args       []string
		policy     string
		minAllowed int // Bash commands that must be allowed and run
	}{
		{"read-only flag", []string{"hook", "--read-only"}, "", 0},
		{"review profile", []string{"hook"}, "version = 1\nextends = \"review\"\n", 7},
	} {
		t.Run(mode.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "tree")
			if err := copyTree(sb.Fixture, dir); err != nil {
				t.Fatal(err)
			}
			// guard decides here on the host, where the links of the
			// fixture into the sandbox's HOME dangle.
			if err := removeAttacks(dir); err != nil {
				t.Fatal(err)
			}
			trees := []tree{{sandbox: WorkDir, host: dir}}
			before, err := snapshot(trees, true)
			if err != nil {
				t.Fatal(err)
			}
			args := mode.args
			if mode.policy != "" {
				cfg := filepath.Join(t.TempDir(), "policy.toml")
				if err := os.WriteFile(cfg, []byte(mode.policy), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, "--config", cfg)
			}
			run := *sb
			run.Fixture = dir
			home := t.TempDir()
			ran := 0
			for i, c := range readOnlySession {
				input := treeInput(c.input, dir)
				allowed, why := hookAllows(t, bin, args, home, dir, c.tool, input)
				if !allowed {
					if !strings.Contains(why, "read-only mode") && c.tool != "Read" && c.tool != "Grep" && c.tool != "Glob" {
						t.Errorf("call %d, %s %v: refused, but the reason does not name the mode: %q", i, c.tool, input, why)
					}
					continue
				}
				switch c.tool {
				case "Bash":
					ran++
					checkUnchanged(t, &run, input["command"].(string))
				case "Write", "Edit", "MultiEdit", "NotebookEdit":
					// guard allowed a write: carry it out, as the agent would.
					p, _ := input["file_path"].(string)
					if p == "" {
						p, _ = input["notebook_path"].(string)
					}
					os.WriteFile(p, []byte("written by an allowed "+c.tool), 0o644)
				}
			}
			if ran < mode.minAllowed {
				t.Errorf("only %d shell commands were allowed and run, want at least %d", ran, mode.minAllowed)
			}
			after, err := snapshot(trees, false)
			if err != nil {
				t.Fatal(err)
			}
			host := func(p string) string { return filepath.Join(dir, strings.TrimPrefix(p, WorkDir)) }
			for _, c := range diff(before, after, host) {
				if !ignoredChange(c) {
					t.Errorf("the work tree changed during a read-only session: %s", c)
				}
			}
		})
	}
}

// hookAllows runs guard hook on one call and reports whether it allowed
// it, or the reason it gave.
func hookAllows(t *testing.T, bin string, args []string, home, tree, tool string, input map[string]any) (bool, string) {
	t.Helper()
	call, err := json.Marshal(map[string]any{
		"session_id": "read-only-session", "hook_event_name": "PreToolUse",
		"tool_name": tool, "tool_input": input, "cwd": tree,
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(string(call))
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		var out struct {
			HookSpecificOutput struct{ PermissionDecision, PermissionDecisionReason string }
		}
		if err := json.Unmarshal([]byte(stdout.String()), &out); err != nil {
			t.Fatalf("%s: guard hook printed %q: %v", tool, stdout.String(), err)
		}
		d := out.HookSpecificOutput
		if d.PermissionDecision == "ask" {
			t.Errorf("%s %v: read-only mode asked (%q); it should decide", tool, input, d.PermissionDecisionReason)
		}
		return d.PermissionDecision == "allow", d.PermissionDecisionReason
	case errors.As(err, &ee) && ee.ExitCode() == 2:
		return false, stderr.String()
	}
	t.Fatalf("%s: guard hook: %v; stderr %q", tool, err, stderr.String())
	return false, ""
}

// checkUnchanged runs an allowed command in the sandbox and checks that
// it changed nothing in its copy of the work tree or in HOME.
func checkUnchanged(t *testing.T, sb *Sandbox, command string) {
	t.Helper()
	tr, err := sb.Run(context.Background(), command)
	if err != nil {
		t.Fatalf("%q: %v", command, err)
	}
	defer tr.Close()
	for _, c := range tr.Changes {
		if !ignoredChange(c) && c.Path != TmpDir && !strings.HasPrefix(c.Path, TmpDir+"/") {
			t.Errorf("%q was allowed in read-only mode, and it changed the tree: %s", command, c)
		}
	}
}

// ignoredChange reports whether a change leaves a tree byte for byte what
// it was: a new modification time only, or git's index, which git status
// rewrites to refresh file times (it is git's cache, not the source).
func ignoredChange(c Change) bool {
	return c.What == "time" || c.Path == WorkDir+"/.git/index"
}

// treeInput replaces TREE in the string values of an input.
func treeInput(in map[string]any, tree string) map[string]any {
	out := map[string]any{}
	for k, v := range in {
		if s, ok := v.(string); ok {
			v = strings.ReplaceAll(s, "TREE", tree)
		}
		out[k] = v
	}
	return out
}
