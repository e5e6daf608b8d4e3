// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"guard/policy"
	"slices"
)

// DecideLayers decides a call with both layers, and rewrites an allowed
// shell call to run in the sandbox where the policy says so.
func DecideLayers(l *policy.Layers, call Call) Decision {
	d := decideLayers(l, call)
	sandboxed(l, call, &d)
	return d
}

func decideLayers(l *policy.Layers, call Call) Decision {
	user := l.User
	if user == nil {
		var err error
		if user, err = policy.Default(); err != nil {
			return Decide((*policy.Policy)(nil), call)
		}
	}
	if l.Project == nil {
		return Decide(user, call)
	}
	// Read-only mode in either layer holds for both.
	call.ReadOnly = call.ReadOnly || user.ReadOnly() || l.Project.ReadOnly()
	if l.Trusted() {
		return Decide(l.Project, call)
	}
	u, p := Decide(user, call), Decide(l.Project, call)
	out := Decision{Verdict: policy.Stricter(u.Verdict, p.Verdict), ReadOnly: u.ReadOnly || p.ReadOnly,
		Policy: user.Name() + " and " + l.Project.Name(), Kind: u.Kind}
	// The stricter layer's leaves come first, so that its deciding leaf
	// explains the decision.
	first, second := p, u
	if u.Verdict < p.Verdict {
		first, second = u, p
	}
	out.Leaves = append(slices.Clone(first.Leaves), second.Leaves...)
	return out
}
