// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"strings"

	"guard/policy"
	"guard/shellparse"
)

// sandboxed rewrites an allowed shell call to run under guard run when a
// layer of the policy says [sandbox] run: in bash, without its profile
// and rc files, in the form guard parsed, printed canonically. A leading
// cd to a literal directory stays in the agent's shell, so that its
// working directory follows as it would have. Where the call cannot run
// in the sandbox (call.Run is empty), a layer that requires the sandbox
// makes the call an ask; otherwise it runs as the hook judged it.
func sandboxed(l *policy.Layers, call Call, d *Decision) {
	if d.Verdict != policy.Allow || d.Kind != KindShell {
		return
	}
	run, require := false, false
	for _, p := range l.Policies() {
		run = run || p.Sandbox.Run
		require = require || p.Sandbox.Require
	}
	if !run {
		return
	}
	if len(call.Run) == 0 {
		if require {
			why := call.NoRun
			if why == "" {
				why = "guard run is not available"
			}
			d.Verdict = policy.Ask
			d.Leaves = append([]Leaf{{Verdict: policy.Ask, Kind: "sandbox", Text: firstLine(call.Input.Command), Rule: "sandbox.require",
				Why:  "the policy requires the sandbox for shell commands, and it cannot run here: " + why,
				Hint: "run guard run --explain to see what the kernel offers"}}, d.Leaves...)
		}
		return
	}
	dir, body, err := shellparse.Canonical(call.Input.Command, shellparse.Options{Zsh: call.Shell != "bash"})
	if err != nil {
		// It parsed for the decision; it must for the rewrite.
		d.Verdict = policy.Deny
		d.Leaves = append([]Leaf{{Verdict: policy.Deny, Kind: "sandbox", Text: firstLine(call.Input.Command), Rule: "sandbox.run",
			Why: "guard cannot print the command to run in the sandbox: " + err.Error()}}, d.Leaves...)
		return
	}
	words := make([]string, 0, len(call.Run)+6)
	for _, w := range call.Run {
		words = append(words, shellparse.SingleQuote(w))
	}
	words = append(words, "--", "bash", "--noprofile", "--norc", "-c", shellparse.SingleQuote(body))
	cmd := strings.Join(words, " ")
	if dir != "" {
		cmd = dir + " && " + cmd
	}
	d.Rewrite = &Input{Command: cmd}
}
