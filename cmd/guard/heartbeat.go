// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"guard/agent"
	"guard/audit"
	"guard/internal/setup"
)

// guard doctor --heartbeat runs the agent itself, headless, once: it asks
// the agent's model to run heartbeatCommand, and then looks in guard's
// decision log for that call, decided after the run began, in the agent's
// protocol. Only then is it shown that the agent, as the user runs it,
// runs guard: not a copy of its settings that doctor read. It costs one
// short model call on the user's account, so it is asked for, never run
// on its own.

// heartbeatCommand is the command the agent is asked to run.
const heartbeatCommand = "echo guard-heartbeat"

// heartbeatTimeout bounds the agent's run.
const heartbeatTimeout = 3 * time.Minute

// heartbeatPrompt is what the agent's model is asked.
const heartbeatPrompt = "This checks that the user's command hook runs. Run this shell command once, exactly as written, and then stop: " + heartbeatCommand

// headlessArgs are the command lines that run each agent headless with a
// prompt; an agent not here cannot be driven so.
var headlessArgs = map[string][]string{
	"claude": {"claude", "-p", heartbeatPrompt},
	"gemini": {"gemini", "-p", heartbeatPrompt},
	"codex":  {"codex", "exec", "--skip-git-repo-check", heartbeatPrompt},
}

// heartbeat runs the agent in dir and reports whether guard's log shows
// the call it was asked to make.
func heartbeat(ctx context.Context, env getenv, dir, agentName string) agent.Check {
	args, ok := headlessArgs[agentName]
	if !ok {
		return agent.Check{Warn: true, What: "no heartbeat: guard cannot drive " + agentName + " headless",
			Fix: "run the agent once, let it run " + heartbeatCommand + ", and look for it in guard log"}
	}
	dlog := setup.DecisionLog(setup.Getenv(env))
	if dlog == nil {
		return agent.Check{What: "no heartbeat: guard has no decision log to find it in", Fix: "set HOME or XDG_STATE_HOME"}
	}
	bin, err := exec.LookPath(args[0])
	if err != nil {
		return agent.Check{What: fmt.Sprintf("no heartbeat: %s is not on the PATH", args[0]), Fix: "run guard doctor --heartbeat where the agent runs"}
	}
	ctx, cancel := context.WithTimeout(ctx, heartbeatTimeout)
	defer cancel()
	start := time.Now().UTC() // the log has the hook's times, on this clock, to the nanosecond
	cmd := exec.CommandContext(ctx, bin, args[1:]...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run()
	recs, _, err := audit.Read(dlog.Dir)
	if err != nil {
		return agent.Check{What: "no heartbeat: the decision log does not read: " + err.Error(), Fix: "guard log verify says what is wrong with it"}
	}
	for _, r := range recs {
		e := r.Entry
		if e.Event == "PreToolUse" && e.Agent == agentName && !e.Time.Before(start) && strings.Contains(e.Call, heartbeatCommand) {
			return agent.Check{OK: true, What: fmt.Sprintf("a heartbeat through %s reached guard: %s was %s (session %s)", filepath.Base(bin), heartbeatCommand, e.Decision, e.Session)}
		}
	}
	why := "it ran"
	if runErr != nil {
		why = runErr.Error()
	}
	tail := strings.TrimSpace(out.String())
	if len(tail) > 300 {
		tail = "..." + tail[len(tail)-300:]
	}
	return agent.Check{What: fmt.Sprintf("a heartbeat through %s did not reach guard (%s; it said: %q)", filepath.Base(bin), why, tail),
		Fix: "the agent runs without guard's hook: check the settings it reads (another scope, another project), and that its model ran " + heartbeatCommand}
}
