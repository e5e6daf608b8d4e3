// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import "fmt"

// Verdict is what guard answers for a tool call or a part of one.
// The zero Verdict is Deny, so that a forgotten value never allows.
type Verdict int

const (
	Deny  Verdict = iota // the call must not run
	Ask                  // the user must approve the call
	Allow                // the call may run without asking
)

func (v Verdict) String() string {
	switch v {
	case Deny:
		return "deny"
	case Ask:
		return "ask"
	case Allow:
		return "allow"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// ParseVerdict reads "allow", "ask" or "deny".
func ParseVerdict(s string) (Verdict, error) {
	switch s {
	case "allow":
		return Allow, nil
	case "ask":
		return Ask, nil
	case "deny":
		return Deny, nil
	}
	return Deny, fmt.Errorf("unknown verdict %q (want allow, ask or deny)", s)
}

// stricter returns the more restrictive of v and w: deny over ask over allow.
func Stricter(v, w Verdict) Verdict {
	return min(v, w)
}
