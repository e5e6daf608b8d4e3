// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package setup

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"guard/agent"
	"guard/audit"
	"guard/engine"
	"guard/policy"
)

// The authorities a decision or a grant rests on, in the decision log.
const (
	ByPolicy = "policy" // the policy's rules allowed or denied it
	ByGrant  = "grant"  // a grant of the session allowed it
	ByUser   = "user"   // the user approved it when asked
	ByGuard  = "guard"  // guard itself: an error, an ended session
)

// MaxReason bounds a reason in the log, as Claude Code bounds the reason
// it shows.
const MaxReason = 4000

// StateDir returns guard's state directory: $XDG_STATE_HOME/guard, else
// ~/.local/state/guard; "" when neither is an absolute path.
func StateDir(env Getenv) string {
	switch {
	case filepath.IsAbs(env("XDG_STATE_HOME")):
		return filepath.Join(env("XDG_STATE_HOME"), "guard")
	case filepath.IsAbs(env("HOME")):
		return filepath.Join(env("HOME"), ".local", "state", "guard")
	}
	return ""
}

// ErrNoLog is the decision log's failure where guard has no state
// directory ($HOME and $XDG_STATE_HOME unset): nothing is logged then, and
// nothing is said of it, unless the policy requires the log.
var ErrNoLog = errors.New("the decision log has no directory: set HOME or XDG_STATE_HOME")

// DecisionLog returns the decision log in guard's state directory, nil
// when there is none.
func DecisionLog(env Getenv) *audit.Log {
	dir := StateDir(env)
	if dir == "" {
		return nil
	}
	return &audit.Log{Dir: filepath.Join(dir, "log")}
}

// Version is guard's version: the module's, the commit and the Go release.
// It is read from the build information once.
var Version = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	for _, st := range info.Settings {
		if st.Key == "vcs.revision" && len(st.Value) >= 12 {
			v += " " + st.Value[:12]
		}
	}
	return v + " " + info.GoVersion
})

// A Logged call is what the decision log records of where a call came
// from: the agent or harness, its event, its session, the agent's id of
// the call ("" for none) and its input as the agent sent it (for the
// input's digest; nil for none).
type Logged struct {
	Agent, Event, Session, CallID string
	Raw                           map[string]any
}

// LogEntry is the decision log's entry for a call and its decision (nil
// for a call not decided). A decision whose rewrite runs the call under
// guard run gives the entry the sandbox's profile and the rewritten
// command's digest.
func LogEntry(from Logged, call engine.Call, d *engine.Decision, layers *policy.Layers) audit.Entry {
	e := audit.Entry{Time: time.Now().UTC(), Session: from.Session, Event: from.Event, Agent: from.Agent, Tool: call.Tool,
		ToolCallID: from.CallID, Digest: inputDigest(from.Raw), Call: audit.Redact(callLine(call)), Version: Version()}
	if layers != nil {
		e.Policy, e.PolicySHA256 = layers.Name(), layers.Sum()
	}
	if d == nil {
		return e
	}
	e.Tier, e.Decision, e.Authority = callTier(d), DecisionName(d.Verdict), ByPolicy
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
		e.Grant, e.Authority = grants[0], ByGrant
	}
	if d.Verdict != engine.Allow {
		e.Reason = agent.Clip(strings.Join(strings.Fields(d.Deciding().Why), " "), MaxReason)
	}
	if d.Rewrite != nil && d.Rewrite.Command != "" {
		// Rewritten to run under guard run: the agent reports the
		// rewritten command once it ran.
		if e.Profile = engine.RunProfile(call.Run, d.Rewrite.Command); e.Profile != "" {
			sum := sha256.Sum256([]byte(d.Rewrite.Command))
			e.RewriteDigest = hex.EncodeToString(sum[:])
		}
	}
	return e
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

// DecisionName is how the log names a verdict.
func DecisionName(v engine.Verdict) string {
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
	what := call.Tool
	if what == "" {
		what = string(call.Kind)
	}
	switch {
	case in.Command != "":
		return in.Command
	case in.Path != "" && in.Pattern != "":
		return what + " " + in.Pattern + " in " + in.Path
	case in.Path != "":
		return what + " " + in.Path
	case in.URL != "":
		return what + " " + in.URL
	}
	return what
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
