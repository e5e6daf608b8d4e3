// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"slices"
	"strings"

	"guard/policy"
	"guard/shellparse"
)

// sandboxed rewrites an allowed shell call to run under guard run, in the
// profile its parts need (see [needs]): in bash, without its profile and
// rc files, in the form guard parsed, printed canonically. A leading cd to
// a literal directory stays in the agent's shell, so that its working
// directory follows as it would have; a call that acts on the agent's
// shell alone (cd, export, true) runs as it is. A call whose parts need
// profiles that no one holds asks, with the reason: run them apart.
//
// A part whose rule says it runs outside the sandbox (Leaf.Unbound) runs
// the call as it is, with the reason, where every other part acts on the
// agent's shell alone; beside any other part, in read-only mode, or where
// a layer says [sandbox] require, the call asks.
//
// Where the call cannot run in the sandbox (call.Run is empty), a part
// allowed only in the sandbox, or a layer that says [sandbox] require,
// makes the call an ask; otherwise it runs as the hook judged it, and the
// decision's reason says why it is not bounded (call.NoRun).
func sandboxed(l *policy.Layers, call Call, d *Decision) {
	if d.Verdict != policy.Allow || d.Kind != KindShell || shellOnly(d) {
		return
	}
	require := false
	for _, p := range l.Policies() {
		require = require || p.SandboxRequired()
	}
	n := needsOf(d)
	if len(call.Run) == 0 {
		why := cmpOr(call.NoRun, "guard run is not available")
		switch {
		case n.only != nil:
			d.Verdict = policy.Ask
			d.Leaves = append([]Leaf{{Verdict: policy.Ask, Kind: "sandbox", Text: n.only.Text, Rule: n.only.Rule,
				Why:  fmt.Sprintf("%s is allowed only in the sandbox, and it cannot run here: %s", n.only.Text, why),
				Hint: "run guard run --explain to see what the kernel offers"}}, d.Leaves...)
		case require:
			d.Verdict = policy.Ask
			d.Leaves = append([]Leaf{{Verdict: policy.Ask, Kind: "sandbox", Text: firstLine(call.Input.Command), Rule: "sandbox.require",
				Why:  "the policy requires the sandbox for shell commands, and it cannot run here: " + why,
				Hint: "run guard run --explain to see what the kernel offers"}}, d.Leaves...)
		default:
			d.Leaves = append(d.Leaves, Leaf{Verdict: policy.Allow, Kind: "sandbox", Text: firstLine(call.Input.Command), Rule: "sandbox.run",
				Why: "it runs outside the sandbox, on guard's judgment alone: " + why})
		}
		return
	}
	if n.unbound != nil {
		switch why := n.unboundConflict(d.ReadOnly); {
		case why != "":
			d.Verdict = policy.Ask
			d.Leaves = append([]Leaf{{Verdict: policy.Ask, Kind: "sandbox", Text: firstLine(call.Input.Command), Rule: "sandbox.unbound",
				Why:  why,
				Hint: fmt.Sprintf("run %s alone, without the other commands: its output comes back to you", n.unbound.Text)}}, d.Leaves...)
		case require:
			d.Verdict = policy.Ask
			d.Leaves = append([]Leaf{{Verdict: policy.Ask, Kind: "sandbox", Text: firstLine(call.Input.Command), Rule: "sandbox.require",
				Why:  fmt.Sprintf("the policy requires the sandbox for shell commands, and %s runs outside it: %s", n.unbound.Text, n.unbound.Unbound),
				Hint: "ask the user to run it"}}, d.Leaves...)
		default:
			d.Leaves = append(d.Leaves, Leaf{Verdict: policy.Allow, Kind: "sandbox", Text: firstLine(call.Input.Command), Rule: "sandbox.unbound",
				Why: "it runs outside the sandbox, as its rule says: " + n.unbound.Unbound})
		}
		return
	}
	if why := n.conflict(); why != "" && !d.ReadOnly {
		d.Verdict = policy.Ask
		d.Leaves = append([]Leaf{{Verdict: policy.Ask, Kind: "sandbox", Text: firstLine(call.Input.Command), Rule: "sandbox.profile",
			Why:  "no one sandbox holds every part of the command: " + why,
			Hint: "run the parts as separate commands: each runs in the sandbox it needs, without asking"}}, d.Leaves...)
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
	words := make([]string, 0, len(call.Run)+9)
	for _, w := range call.Run {
		words = append(words, shellparse.SingleQuote(w))
	}
	for _, f := range n.flags(d.ReadOnly) {
		if f == "--read-only" && slices.Contains(call.Run, f) {
			continue // guard hook --read-only gives it already
		}
		words = append(words, shellparse.SingleQuote(f))
	}
	cmd := strings.Join(words, " ") + runTail(call.Shell) + shellparse.SingleQuote(body)
	if dir != "" {
		cmd = dir + " && " + cmd
	}
	d.Rewrite = &Input{Command: cmd}
}

// runTail ends the guard run command line sandboxed writes, before the
// quoted command it runs: the shell that runs it. It is the agent's own
// where that is zsh, so that the command means in the sandbox what it
// would outside (zsh's globs, word splitting and builtins are not bash's),
// with -f: no start-up file but the system zshenv (/etc/zsh/zshenv on
// Debian, checked with strace), as bash reads none. A shell
// not known runs it in bash, the command having been judged as bash and
// zsh would read it.
func runTail(shell string) string {
	if shell == "zsh" {
		return " -- zsh -f -c "
	}
	return " -- bash --noprofile --norc -c "
}

// Unsandbox reads back a shell command that guard's own answer wrote: an
// agent reports it after it ran (PostToolUse), or asks its user to
// approve it (PermissionRequest), and no command may start guard run. It
// returns the call the command runs ([cd DIR && ]BODY, in the context of
// the call given) and that call's decision, an allow without a rewrite:
// the command runs in the sandbox already. It reports false for any other
// command, and for one that only looks like guard's: the rewrite of the
// call it returns, decided now, must be this command, byte for byte (the
// same guard, the same flags, the same body).
func (e *Engine) Unsandbox(call Call) (Call, Decision, bool) {
	inner, _, ok := unsandboxed(call)
	if !ok {
		return call, Decision{}, false
	}
	d := e.Decide(inner)
	if d.Verdict != policy.Allow || d.Rewrite == nil || d.Rewrite.Command != call.Input.Command {
		return call, Decision{}, false
	}
	d.Rewrite = nil
	return inner, d, true
}

// RunProfile names the sandbox a shell command that sandboxed wrote for a
// call with this Run (see [Call]) runs in, by the flags it gives guard
// run: "read-only", the policy's profiles it names (build, test, its own)
// joined by "+" (after "read-only" where both are given), else "write":
// the project less its kept paths. It returns "" for a command that is not
// guard run's.
func RunProfile(run []string, command string) string {
	_, words, ok := unsandboxed(Call{Run: run, Input: Input{Command: command}})
	if !ok {
		return ""
	}
	return runProfile(words)
}

// runProfile names the sandbox of guard run's command line words, up to
// the program it runs: 'GUARD' 'run' [FLAG]... as sandboxed wrote it.
func runProfile(words string) string {
	s, err := shellparse.Parse(words, shellparse.Options{})
	if err != nil || len(s.Commands) != 1 {
		return ""
	}
	var names []string
	args := s.Commands[0].Args
	for i := 2; i < len(args); i++ {
		switch args[i].Value {
		case "--read-only":
			names = append([]string{"read-only"}, names...)
		case "--profile":
			if i++; i < len(args) {
				names = append(names, args[i].Value)
			}
		case "--config":
			i++
		}
	}
	if len(names) == 0 {
		return "write"
	}
	return strings.Join(names, "+")
}

// unsandboxed returns the call of the command a shell command that
// sandboxed wrote runs: [cd DIR && ]'GUARD' 'run' ... -- bash --noprofile
// --norc -c 'BODY' (zsh -f -c for the agent's zsh) runs [cd DIR && ]BODY; and words, guard run's command
// line before the program ('GUARD' 'run' ...). It reports false for any
// other command. It does not check the words; the caller compares the
// command with the rewrite of what it returns.
func unsandboxed(call Call) (inner Call, words string, ok bool) {
	cmd := call.Input.Command
	if len(call.Run) == 0 || call.Input != (Input{Command: cmd}) {
		return call, "", false
	}
	i := strings.Index(cmd, shellparse.SingleQuote(call.Run[0])+" ")
	tail := runTail(call.Shell)
	j := strings.LastIndex(cmd, tail)
	if i < 0 || j < i {
		return call, "", false
	}
	dir := cmd[:i]
	if dir != "" && !strings.HasSuffix(dir, " && ") {
		return call, "", false
	}
	quoted := cmd[j+len(tail):]
	if len(quoted) < 2 || quoted[0] != '\'' || quoted[len(quoted)-1] != '\'' {
		return call, "", false
	}
	body := strings.ReplaceAll(quoted[1:len(quoted)-1], `'\''`, `'`)
	if shellparse.SingleQuote(body) != quoted {
		return call, "", false
	}
	call.Input.Command = dir + body
	return call, cmd[i:j], true
}
