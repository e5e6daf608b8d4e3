// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"path"
	"strings"

	"guard/policy"
)

// The session tier: a part of a call that the policy puts there asks until
// the user has approved it once in the agent session, and is allowed after
// that, for as long as the grant lasts. What a grant covers is the part's
// Scope: the decision, never the program's name, so that a grant of
// git commit does not cover git push, nor one of src/ a write to .git.

// grantSession settles every leaf of the session tier: allowed when a
// grant of the call's session covers its scope, asked otherwise.
func (d *decider) grantSession() {
	for i := range d.leaves {
		l := &d.leaves[i]
		if l.Verdict != policy.Session {
			continue
		}
		l.Verdict = policy.Ask
		switch {
		case l.Scope == nil && !d.readOnly():
			l.Why += "; it cannot be granted for the session, so it asks each time"
		case d.call.Grants != nil && d.call.Session != "":
			if id := d.call.Grants.Granted(d.call.Session, *l.Scope); id != "" {
				l.Verdict, l.Grant = policy.Allow, id
				l.Why = fmt.Sprintf("%s: granted for this session (grant %s, %s)", l.Text, id, l.Scope)
			}
		}
		if l.Verdict == policy.Ask && l.Scope != nil && !d.readOnly() {
			l.Why += fmt.Sprintf("; once approved, the session is granted %s", l.Scope)
		}
	}
}

// commandScope is the scope of a command of the session tier: the rule
// that decided it, or, where the rule says grant = "call", the command
// line in its directory. A command the session tier reached through a
// path rather than its own rule gets none.
func (d *decider) commandScope(res result, source string, where []string) *Scope {
	if strings.HasPrefix(res.rule, "paths.") || res.rule == "" {
		return nil
	}
	if d.ruleGrant(res.rule) == policy.GrantCall {
		if len(where) != 1 {
			return nil
		}
		return &Scope{Kind: policy.GrantCall, Key: where[0] + "\x00" + source}
	}
	return &Scope{Kind: policy.GrantRule, Key: res.rule}
}

// noteGrant records what a grant of the rule id covers, where the rule says
// other than policy.GrantRule.
func (d *decider) noteGrant(id, kind string) {
	if d.grantKinds == nil {
		d.grantKinds = map[string]string{}
	}
	d.grantKinds[id] = kind
}

// ruleGrant returns what a grant of the rule id covers, as the policy says.
func (d *decider) ruleGrant(id string) string {
	if g, ok := d.grantKinds[id]; ok {
		return g
	}
	return policy.GrantRule
}

// pathScope is the scope of a write of the session tier to p: its real
// directory, or the file itself where the policy says grant = "file"; nil
// when p resolves to more than one path, or to none.
func (d *decider) pathScope(p string, tilde bool, where []string) *Scope {
	abs := d.absPaths(p, tilde, where)
	if len(abs) != 1 {
		return nil
	}
	forms, err := d.pathForms(abs[0])
	if err != nil || len(forms) == 0 {
		return nil
	}
	real := forms[len(forms)-1]
	if d.p.PathGrant() == policy.GrantFile {
		return &Scope{Kind: policy.GrantFile, Key: real}
	}
	return &Scope{Kind: policy.GrantDir, Key: path.Dir(real)}
}
