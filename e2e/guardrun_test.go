// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

import (
	"encoding/json"
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
	if abi := guardsandbox.ABI(); abi < guardsandbox.MinABI {
		t.Skipf("Landlock ABI %d here; guard run needs %d", abi, guardsandbox.MinABI)
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
	if strings.Contains(r.Text, key) || !strings.Contains(r.Text, "ermission denied") {
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
