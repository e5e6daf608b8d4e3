// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// Claude Code and Codex send a PermissionRequest event when a call that
// its PreToolUse hooks let through would still wait for the user's
// approval: in Claude Code for a permission prompt (the user's own ask
// rules, a mode), in Codex for a command that asks to run outside
// Codex's sandbox, and for MCP tools. Its input is the call's, and the
// answer, exit 0 with
//
//	{"hookSpecificOutput": {"hookEventName": "PermissionRequest",
//	  "decision": {"behavior": "allow"|"deny", "message": "..."}}}
//
// approves or refuses the call in the user's place. Exit 0 with no output
// leaves the question to the agent's own approval (the user, or Codex's
// automatic review). Claude Code does not take exit 2 there.

import "guard/engine"

// permissionAnswer renders a decision for a PermissionRequest event.
// What guard denies is refused. What it allows is approved only where
// approve says so, and only as the call is: a call guard would rewrite
// runs otherwise than asked, and is left to the agent's approval, as is
// what guard would ask.
func permissionAnswer(d *engine.Decision, where string, approve bool) Answer {
	var data []byte
	switch {
	case d.Verdict == engine.Deny:
		msg := "guard: denied: " + Reason(d, where)
		if h := d.Hint(); h != "" {
			msg += "\nguard: hint: " + oneLine(h)
		}
		data = appendJSONString([]byte(`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":`), Clip(msg, maxReason))
		data = append(data, "}}}\n"...)
	case d.Verdict == engine.Allow && approve && d.Rewrite == nil:
		data = []byte(`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}` + "\n")
	default:
		return Answer{Silent: true}
	}
	return Answer{Stdout: data}
}
