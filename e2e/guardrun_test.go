// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	guardsandbox "guard/sandbox"
)

// TestSandboxedCommand: with [sandbox] run = true, guard answers an
// allowed make with its command rewritten to run under guard run; Claude
// Code runs the rewritten command, the model gets its output, and the key
// its Makefile reads (which guard never saw named) stays out of reach.
func TestSandboxedCommand(t *testing.T) {
	t.Parallel()
	if err := guardsandbox.Available(); err != nil {
		t.Skipf("guard run cannot run here: %v", err)
	}
	const token, key = "e2e-token-sandboxed-51c2", "e2e-key-never-read-8b07"
	cmd := "make show"
	p := newProject(t)
	p.script("Bash", map[string]any{"command": cmd})
	p.writeHome(".config/guard/guard.toml", "version = 1\nextends = \"default\"\n\n[sandbox]\nrun = true\nrequire = true\n\n[command.make]\nverdict = \"allow\"\n")
	p.writeHome(".ssh/id_rsa", key+"\n")
	p.write("hello.txt", token+"\n")
	p.write("Makefile", "show:\n\tcat hello.txt\n\t-cat $(HOME)/.ssh/id_rsa\n\t@echo after-the-key\n")
	o := p.run("Bash")
	c := p.oneHookCall("Bash", map[string]any{"command": cmd})
	r := p.oneToolResult(o)
	if !strings.Contains(r.Text, token) || !strings.Contains(r.Text, "after-the-key") {
		t.Errorf("the rewritten command's output did not reach the model: %q", r.Text)
	}
	if strings.Contains(r.Text, key) || !strings.Contains(r.Text, "No such file or directory") && !strings.Contains(r.Text, "ermission denied") {
		t.Errorf("the key was not kept out of reach: %q", r.Text)
	}
	// guard's answer to the logged call is the rewrite.
	code, stdout, stderr := replay(t, c)
	var ans struct {
		H struct {
			Decision string         `json:"permissionDecision"`
			Updated  map[string]any `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &ans) != nil || ans.H.Decision != "allow" {
		t.Fatalf("replay: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if got, _ := ans.H.Updated["command"].(string); !strings.Contains(got, "' 'run' -- bash --noprofile --norc -c 'make show'") {
		t.Errorf("updatedInput.command = %q, want it under guard run", got)
	}
}

// TestReadOnlySession: guard hook --read-only, with the real Claude Code.
// The shell's read-only commands run, in the read-only sandbox, and the
// model gets their output; the tree is unchanged.
func TestReadOnlySession(t *testing.T) {
	t.Parallel()
	if err := guardsandbox.Available(); err != nil {
		t.Skipf("guard run cannot run here: %v", err)
	}
	const token = "e2e-token-readonly-93d1"
	cmd := "cat notes.txt && find . -name '*.txt'"
	p := newProject(t)
	p.writeSettings(p.hook + " --read-only")
	p.script("Bash", map[string]any{"command": cmd})
	p.write("notes.txt", token+"\n")
	o := p.run("Bash")
	c := p.oneHookCall("Bash", map[string]any{"command": cmd})
	r := p.oneToolResult(o)
	if r.IsError || !strings.Contains(r.Text, token) || !strings.Contains(r.Text, "./notes.txt") {
		t.Errorf("the read-only commands' output did not reach the model (is_error=%v): %q", r.IsError, r.Text)
	}
	// guard's answer to the logged call runs it in the read-only sandbox.
	hook := exec.Command(buildGuard(t), "hook", "--read-only")
	hook.Stdin = bytes.NewReader(c.raw)
	hook.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + c.getenv("HOME")}
	out, err := hook.Output()
	if err != nil || !strings.Contains(string(out), `'--read-only' -- bash --noprofile --norc -c`) {
		t.Errorf("guard hook --read-only answers %s (%v), want the command under guard run --read-only", out, err)
	}
}
