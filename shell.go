// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package guard

import (
	"guard/agent"
	"guard/engine"
	"guard/internal/setup"
)

// The door of guard shell: a command an agent runs as $SHELL -c COMMAND,
// for an agent that has no hook guard could answer. The verb (cmd/guard)
// reads the shell's command line, and runs what this door returns; this
// door judges the command as guard hook judges an agent's Bash call.

// ShellAgent is the agent guard shell's decisions name in the decision
// log.
const ShellAgent = "shell"

// shellTool is the tool a command of guard shell is judged as: the one
// the policies' [tools] tables name for the shell (Bash = "shell").
const shellTool = "Bash"

// ShellCommand decides a command that bash is to run in the directory
// cwd, as guard hook decides an agent's Bash call there: with the managed
// policy and the user's and the project's (or o.Config), in read-only mode
// with o.ReadOnly, by o.Deadline, rewritten to run under o.Run where the
// policy runs it in the sandbox (where o.Run is empty, o.NoRun says why,
// and such a command asks). The agent has no session and nobody to ask: no
// grant of the session tier applies, and an ask is refused, saying so.
// o.Agent, o.Shell and o.AskDeny are not read: the agent is [ShellAgent]
// and the shell bash.
//
// It returns the command line for bash -c to run: the rewrite, or the
// command itself; or a *Denial, for every call not allowed. The decision
// is a line of the decision log, as guard hook's are; a line that cannot
// be written is said on o.Warn, and denies the call where the policy says
// log_required.
func ShellCommand(command, cwd string, o HookOptions) (string, error) {
	env := o.getenv()
	j := newJournal(env, o.Warn)
	call := setup.Context(env, cwd, "bash", o.ReadOnly)
	call.Kind, call.Tool, call.Input, call.Deadline = engine.KindShell, shellTool, engine.Input{Command: command}, o.Deadline
	call.Run, call.NoRun = o.Run, o.NoRun
	layers, err := setup.LoadLayers(o.Config, call.Project, env)
	if err != nil {
		return "", j.blocked(ShellAgent, nil, policyDenial(err))
	}
	e := engine.Engine{Layers: layers}
	d := e.Decide(call)
	asked := d.Verdict == engine.Ask
	if asked {
		askIsDeny(&d, "guard shell cannot ask: the agent runs its $SHELL without a hook")
	}
	entry := setup.LogEntry(setup.Logged{Agent: ShellAgent, Event: "PreToolUse", Raw: map[string]any{"command": command}}, call, &d, layers)
	if err := j.decided(entry, layers, env); err != nil {
		return "", err
	}
	if d.Verdict != engine.Allow {
		dn := agent.Deny(&d, where(layers, &d))
		if asked {
			dn.Hints = append(dn.Hints, "ask the user to run it, or to allow it in guard's policy")
		}
		return "", dn
	}
	if d.Rewrite != nil && d.Rewrite.Command != "" {
		return d.Rewrite.Command, nil
	}
	return command, nil
}
