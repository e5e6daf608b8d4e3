// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package setup

import (
	"path/filepath"
	"time"

	"guard/audit"
	"guard/engine"
	"guard/policy"
	"guard/state"
)

// GrantStore returns the store of the session tier's grants in guard's
// state directory, nil when there is none; with layers, grants lapse after
// the policies' idle time.
func GrantStore(env Getenv, layers *policy.Layers) *state.Store {
	dir := StateDir(env)
	if dir == "" {
		return nil
	}
	s := &state.Store{Dir: filepath.Join(dir, "grants")}
	if layers != nil {
		s.Idle = layers.GrantIdle()
	}
	return s
}

// StoreGrants is s as the engine's grants: nil for no store (a nil
// *state.Store in the interface would not be nil).
func StoreGrants(s *state.Store) engine.Grants {
	if s == nil {
		return nil
	}
	return s
}

// GrantRan grants the session what a call that guard asked about, and
// that ran, approved of the session tier: the user approved it.
func GrantRan(s *state.Store, call engine.Call, d engine.Decision) ([]state.Grant, error) {
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

// GrantEntries are the decision log's entries for grants given or
// revoked (event "grant" or "revoke") on authority's word.
func GrantEntries(event, session, authority string, gs []state.Grant) []audit.Entry {
	var out []audit.Entry
	for _, g := range gs {
		out = append(out, audit.Entry{Time: time.Now().UTC(), Session: session, Event: event, Tool: g.Tool,
			Call: audit.Redact(g.Text), Grant: g.ID, Authority: authority, Reason: g.Scope.String(), Version: Version()})
	}
	return out
}
