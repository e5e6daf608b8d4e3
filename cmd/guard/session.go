// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"path/filepath"

	"guard/engine"
	"guard/internal/setup"
	"guard/policy"
	"guard/state"
)

// The session tier: a part of a call of that tier asks until the user has
// approved it once in the agent session. Claude Code runs guard hook for
// PostToolUse too, after a call has run: guard then decides the call again
// and grants the session every part that asked for its tier, by its scope
// (the rule, the directory, the tool). A call that was refused never runs,
// so it is never granted. SessionEnd removes the session's grants. The
// grants live in guard's state directory, which no tool may write.

// stateDir returns guard's state directory, "" when it has none.
func stateDir(env getenv) string { return setup.StateDir(setup.Getenv(env)) }

// grantStore returns the store of the session tier's grants, with the
// idle limit of the policy layers; nil when guard has no state directory.
func grantStore(env getenv, layers *policy.Layers) *state.Store {
	dir := stateDir(env)
	if dir == "" {
		return nil
	}
	s := &state.Store{Dir: filepath.Join(dir, "grants")}
	if layers != nil {
		s.Idle = layers.GrantIdle()
	}
	return s
}

// storeGrants is a store as the engine sees it: none at all when guard has
// no state directory.
func storeGrants(s *state.Store) engine.Grants {
	if s == nil {
		return nil
	}
	return s
}

// grantRan grants the session the parts of a call that ran which asked for
// the session tier: the user approved them. A call whose decision now is
// not an ask (a deny, or allowed by grants already) grants nothing.
func grantRan(s *state.Store, call engine.Call, d engine.Decision) ([]state.Grant, error) {
	if s == nil || d.Verdict != engine.Ask || !state.ValidSession(call.Session) {
		return nil, nil
	}
	parts := map[engine.Scope]string{}
	for _, l := range d.Leaves {
		if l.Grantable() {
			parts[*l.Scope] = l.Text
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	return s.Add(call.Session, call.Tool, parts)
}
