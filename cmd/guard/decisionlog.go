// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"time"

	"guard/agent"
	"guard/audit"
	"guard/engine"
	"guard/internal/setup"
	"guard/policy"
	"guard/state"
)

// The decision log: every decision guard hook makes, every call that ran,
// every grant made and every session ended is a line of the log in guard's
// state directory (see package audit). A failure to log never changes a
// decision, unless the policy says log_required: then the call is denied.

// The authorities a decision or a grant rests on, in the log.
const (
	byPolicy = setup.ByPolicy
	byGrant  = setup.ByGrant
	byUser   = setup.ByUser
	byHook   = setup.ByGuard
)

// decisionLog returns the decision log, nil when guard has no state
// directory.
func decisionLog(env getenv) *audit.Log { return setup.DecisionLog(setup.Getenv(env)) }

// callEntry is the log entry of an event's call and its decision.
func callEntry(agentName string, ev *agent.Event, call engine.Call, d *engine.Decision, layers *policy.Layers) audit.Entry {
	return setup.LogEntry(setup.Logged{Agent: agentName, Event: ev.Name, Session: ev.Session, Raw: ev.Raw}, call, d, layers)
}

// shellTool reports whether the log's entries of a tool are shell
// commands: the agents' shell tools, and the shell kind of guard serve
// and the API.
func shellTool(name string) bool {
	switch name {
	case "Bash", "bash", "run_shell_command", "run_command", "shell":
		return true
	}
	return false
}

// grantEntries are the log entries of grants made or ended.
func grantEntries(event, session, authority string, gs []state.Grant) []audit.Entry {
	var out []audit.Entry
	for _, g := range gs {
		out = append(out, audit.Entry{Time: time.Now().UTC(), Session: session, Event: event, Tool: g.Tool,
			Call: audit.Redact(g.Text), Grant: g.ID, Authority: authority, Reason: g.Scope.String(), Version: version()})
	}
	return out
}
