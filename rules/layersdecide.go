package rules

import "slices"

// Decide decides a call with both layers.
func (l *Layers) Decide(call Call) Decision {
	user := l.User
	if user == nil {
		var err error
		if user, err = Default(); err != nil {
			return (*Policy)(nil).Decide(call)
		}
	}
	if l.Project == nil {
		return user.Decide(call)
	}
	// Read-only mode in either layer holds for both.
	call.ReadOnly = call.ReadOnly || user.readOnly || l.Project.readOnly
	if l.Trusted() {
		return l.Project.Decide(call)
	}
	u, p := user.Decide(call), l.Project.Decide(call)
	out := Decision{Verdict: Stricter(u.Verdict, p.Verdict), ReadOnly: u.ReadOnly || p.ReadOnly,
		Policy: user.name + " and " + l.Project.name}
	// The stricter layer's leaves come first, so that its deciding leaf
	// explains the decision.
	first, second := p, u
	if u.Verdict < p.Verdict {
		first, second = u, p
	}
	out.Leaves = append(slices.Clone(first.Leaves), second.Leaves...)
	return out
}

// SessionTool reports whether a layer gives the tool the session tier, so
// that its having run in a session is worth recording.
func (l *Layers) SessionTool(tool string) bool {
	for _, p := range []*Policy{l.User, l.Project} {
		if p != nil {
			if t, _ := p.ToolTier(tool); t == TierSession {
				return true
			}
		}
	}
	if l.User == nil {
		if d, err := Default(); err == nil {
			t, _ := d.ToolTier(tool)
			return t == TierSession
		}
	}
	return false
}
