// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"guard/policy"
)

// DecideLayers decides a call with both layers, and rewrites an allowed
// shell call to run in the sandbox where the policy says so.
func DecideLayers(l *policy.Layers, call Call) Decision {
	d := decideLayers(l, call)
	sandboxed(l, call, &d)
	return d
}

func decideLayers(l *policy.Layers, call Call) Decision {
	if l.Managed == nil {
		return decideUserProject(l, call)
	}
	// The administrator's policy decides beside the others, whatever they
	// say: read-only mode in any layer holds for all.
	call.ReadOnly = call.ReadOnly || l.ReadOnly()
	m, rest := Decide(l.Managed, call), decideUserProject(l, call)
	return stricterOf(m, rest, "managed "+l.Managed.Name()+", "+rest.Policy)
}

// stricterOf combines two layers' decisions of one call: the stricter
// verdict, with the stricter layer's leaves first, so that its deciding
// leaf explains the decision.
func stricterOf(a, b Decision, name string) Decision {
	out := Decision{Verdict: policy.Stricter(a.Verdict, b.Verdict), ReadOnly: a.ReadOnly || b.ReadOnly, Policy: name, Kind: a.Kind}
	first, second := b, a
	if a.Verdict < b.Verdict {
		first, second = a, b
	}
	out.Leaves = slices.Clone(first.Leaves)
	for _, l := range second.Leaves {
		// A part both layers decided alike (a project policy that extends
		// the user's, say) is one part: said twice, it would be listed and
		// explained twice.
		if !slices.ContainsFunc(first.Leaves, func(f Leaf) bool { return reflect.DeepEqual(f, l) }) {
			out.Leaves = append(out.Leaves, l)
		}
	}
	out.Rewrite = searchRewrite(a.Rewrite, b.Rewrite)
	boundUnlessAgreed(out.Leaves, a, b)
	return out
}

// boundUnlessAgreed keeps a part outside the sandbox only where both
// layers say so: a layer whose rule runs a part unbound (a pack's kubectl)
// must not take it out of the bound another layer's rule gives it. A part
// one layer alone runs unbound gets what its rule would without unbound,
// the sandbox with the project writable.
func boundUnlessAgreed(leaves []Leaf, a, b Decision) {
	unbound := func(d Decision, l *Leaf) bool {
		return slices.ContainsFunc(d.Leaves, func(o Leaf) bool {
			return o.Unbound != "" && o.Kind == l.Kind && o.Text == l.Text && o.Pos == l.Pos
		})
	}
	for i := range leaves {
		if l := &leaves[i]; l.Unbound != "" && !(unbound(a, l) && unbound(b, l)) {
			l.Unbound, l.Writes = "", true
		}
	}
}

// searchRewrite joins two layers' rewrites of one search: each leaves out
// the secrets of its own layer, so the call leaves out both's. Before
// sandboxed, a search's globs are the only rewrite a decision has.
func searchRewrite(a, b *Input) *Input {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	in := *a
	globs := strings.Fields(a.Glob)
	for _, g := range strings.Fields(b.Glob) {
		if !slices.Contains(globs, g) {
			globs = append(globs, g)
		}
	}
	in.Glob = strings.Join(globs, " ")
	return &in
}

func decideUserProject(l *policy.Layers, call Call) Decision {
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
	// Read-only mode in either layer holds for both. Where it comes from
	// the project's alone, the project's read_only_shell holds for the
	// user's layer too, which asked nothing of read-only mode: a project
	// that extends "review" gets what the review profile says.
	userCall := call
	if !call.ReadOnly && !user.ReadOnly() && l.Project.ReadOnly() && l.Project.ReadOnlyShell() {
		userCall.readOnlyShell = true
	}
	call.ReadOnly = call.ReadOnly || user.ReadOnly() || l.Project.ReadOnly()
	userCall.ReadOnly = call.ReadOnly
	if l.Trusted() {
		return Decide(l.Project, call)
	}
	u, p := Decide(user, userCall), Decide(l.Project, call)
	out := stricterOf(u, p, user.Name()+" and "+l.Project.Name())
	if u.Verdict == policy.Ask && p.Verdict == policy.Allow && l.ProjectSum != "" {
		// A project policy that widens (extends = "refactor") widens
		// nothing until the user trusts it: say how.
		for i := range out.Leaves {
			if lf := &out.Leaves[i]; lf.Verdict == policy.Ask {
				lf.Hint = strings.TrimPrefix(lf.Hint+"; ", "; ") + fmt.Sprintf("the project's policy allows it, and decides alone once the user's policy trusts it: trust = [\"sha256:%s\"]", l.ProjectSum)
				break
			}
		}
	}
	return out
}
