// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"slices"
	"time"

	"guard/agent"
	"guard/audit"
	"guard/engine"
	"guard/policy"
	"guard/state"
)

// The decision log: every decision guard hook makes, every call that ran,
// every grant made and every session ended is a line of the log in guard's
// state directory (see package audit). A failure to log never changes a
// decision, unless the policy says log_required: then the call is denied.

// The authorities a decision or a grant rests on, in the log.
const (
	byPolicy = "policy" // the policy's rules allowed or denied it
	byGrant  = "grant"  // a grant of the session allowed it
	byUser   = "user"   // the user approved it when asked
	byHook   = "guard"  // guard itself: an error, an ended session
)

// decisionLog returns the decision log, nil when guard has no state
// directory.
func decisionLog(env getenv) *audit.Log {
	dir := stateDir(env)
	if dir == "" {
		return nil
	}
	return &audit.Log{Dir: filepath.Join(dir, "log")}
}

// callEntry is the log entry of an event's call and its decision.
func callEntry(agentName string, ev *agent.Event, call engine.Call, d *engine.Decision, layers *policy.Layers) audit.Entry {
	e := audit.Entry{Time: time.Now().UTC(), Session: ev.Session, Event: ev.Name, Agent: agentName, Tool: call.Tool,
		Digest: inputDigest(ev.Raw), Call: audit.Redact(callLine(call)), Version: version()}
	if layers != nil {
		e.Policy, e.PolicySHA256 = layers.Name(), layers.Sum()
	}
	if d == nil {
		return e
	}
	e.Tier, e.Decision, e.Authority = callTier(d), decisionName(d.Verdict), byPolicy
	var grants []string
	for _, l := range d.Leaves {
		if l.Rule != "" && !slices.Contains(e.Rules, l.Rule) {
			e.Rules = append(e.Rules, l.Rule)
		}
		if l.Grant != "" && !slices.Contains(grants, l.Grant) {
			grants = append(grants, l.Grant)
		}
		e.Review = e.Review || l.Review
	}
	if len(grants) > 0 && d.Verdict == engine.Allow {
		e.Grant, e.Authority = grants[0], byGrant
	}
	if d.Verdict != engine.Allow {
		e.Reason = agent.Clip(oneLine(deciding(d).Why), maxReason)
	}
	return e
}

// deciding returns the leaf that makes the decision what it is: the first
// of the strictest.
func deciding(d *engine.Decision) engine.Leaf {
	for _, l := range d.Leaves {
		if l.Verdict == d.Verdict {
			return l
		}
	}
	return engine.Leaf{}
}

// callTier is the tier of a decided call: session when the session tier
// decided it (asked for a grant, or allowed by one), else its verdict.
func callTier(d *engine.Decision) string {
	session := slices.ContainsFunc(d.Leaves, func(l engine.Leaf) bool {
		return l.Scope != nil && (l.Grant != "" || l.Verdict == d.Verdict)
	})
	if session && d.Verdict != engine.Deny {
		return "session"
	}
	return d.Verdict.String()
}

// decisionName is how the log names a verdict.
func decisionName(v engine.Verdict) string {
	switch v {
	case engine.Allow:
		return "allowed"
	case engine.Ask:
		return "asked"
	}
	return "denied"
}

// callLine is a call in one line, before it is redacted: the command of a
// shell call, else the tool and what it works on.
func callLine(call engine.Call) string {
	in := call.Input
	switch {
	case in.Command != "":
		return in.Command
	case in.Path != "" && in.Pattern != "":
		return call.Tool + " " + in.Pattern + " in " + in.Path
	case in.Path != "":
		return call.Tool + " " + in.Path
	case in.URL != "":
		return call.Tool + " " + in.URL
	}
	return call.Tool
}

// inputDigest is the sha256, in hex, of the tool's input as JSON with its
// keys in order: the same input has the same digest.
func inputDigest(raw map[string]any) string {
	if raw == nil {
		return ""
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
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
