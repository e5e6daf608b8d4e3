// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package guard

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"guard/agent"
	"guard/audit"
	"guard/internal/setup"
	"guard/policy"
)

// journal is the decision log as the doors write it: guard hook's events
// and guard serve's and the API's calls, each entry built by
// setup.LogEntry and appended here.
type journal struct {
	log  *audit.Log // nil: guard has no state directory
	warn io.Writer  // where a failure to log is said; nil says nothing
}

func newJournal(env setup.Getenv, warn io.Writer) journal {
	return journal{log: setup.DecisionLog(env), warn: warn}
}

// write appends the entries, in order.
func (j journal) write(entries ...audit.Entry) error {
	if j.log == nil {
		return setup.ErrNoLog
	}
	for _, e := range entries {
		if err := j.log.Append(e); err != nil {
			return err
		}
	}
	return nil
}

// warnOf says err, unless it is nil or only that there is no log.
func (j journal) warnOf(err error) {
	if err == nil || errors.Is(err, setup.ErrNoLog) || j.warn == nil {
		return
	}
	fmt.Fprintf(j.warn, "guard: warning: %v\n", err)
}

// decided logs a call's decision. A line that cannot be written is said
// on the journal's warn, and is a deny where the policy says
// log_required.
func (j journal) decided(entry audit.Entry, layers *policy.Layers, env setup.Getenv) error {
	err := j.write(entry)
	if err == nil {
		return nil
	}
	if layers.LogRequired() {
		return &Denial{Why: fmt.Sprintf("the decision log cannot be written, and the policy requires it (log_required): %v", err),
			Hints: []string{"ask the user to fix guard's state directory, " + filepath.Join(setup.StateDir(env), "log")}}
	}
	j.warnOf(fmt.Errorf("the decision was not logged: %w", err))
	return nil
}

// blocked logs a call guard refused before the policy judged it (ev nil:
// before its event was read), and returns err.
func (j journal) blocked(agentName string, ev *agent.Event, err error) error {
	e := audit.Entry{Time: time.Now().UTC(), Event: "PreToolUse", Agent: agentName, Decision: "blocked-error",
		Authority: setup.ByGuard, Reason: agent.Clip(oneLine(err.Error()), setup.MaxReason), Version: setup.Version()}
	if ev != nil {
		e.Session, e.Event, e.Tool, e.ToolCallID = ev.Session, ev.Name, ev.Call.Tool, ev.CallID
	}
	j.warnOf(j.write(e))
	return err
}
