// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package engine decides calls of coding agents with a compiled policy:
// shell commands, file reads, writes and edits, lists and searches,
// fetches, and other tools by name. It knows no agent: package agent
// turns each agent's hook input into a [Call] and the [Decision] into
// that agent's answer.
//
// A decision is the most restrictive verdict of its leaves: every simple
// command, redirection, assignment and construct of a shell command, each
// path a file call touches, or the tool itself. Deny wins over ask, ask
// over allow, and a leaf that no rule matches gets the policy's default,
// ask or deny. Allow needs a positive match for every leaf. Whatever the
// engine does not positively understand, it refuses.
//
// A zero Engine, and a nil or zero policy, deny every call.
//
// This package has no API stability promise outside this module.
package engine

import "guard/policy"

// Engine decides calls with a user policy and a project policy (see
// [policy.Layers]). The decision log is not the engine's: the doors of
// package guard write it, once the agent's answer is known.
type Engine struct {
	Layers *policy.Layers
}

// Decide decides a call. It never fails: whatever it cannot judge gets
// the policy's default verdict or a deny.
func (e *Engine) Decide(call Call) Decision {
	var d Decision
	if e == nil || e.Layers == nil {
		d = Decide(nil, call)
	} else {
		d = DecideLayers(e.Layers, call)
	}
	return d
}
