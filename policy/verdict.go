// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import "fmt"

// Verdict is what guard answers for a tool call or a part of one.
// The zero Verdict is Deny, so that a forgotten value never allows.
type Verdict int

const (
	Deny    Verdict = iota // the call must not run
	Ask                    // the user must approve the call
	Session                // the user must approve it once: then a grant of the session allows it
	Allow                  // the call may run without asking
)

func (v Verdict) String() string {
	switch v {
	case Deny:
		return "deny"
	case Ask:
		return "ask"
	case Session:
		return "session"
	case Allow:
		return "allow"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// ParseVerdict reads "allow", "session", "ask" or "deny".
func ParseVerdict(s string) (Verdict, error) {
	switch s {
	case "allow":
		return Allow, nil
	case "session":
		return Session, nil
	case "ask":
		return Ask, nil
	case "deny":
		return Deny, nil
	}
	return Deny, fmt.Errorf("unknown verdict %q (want allow, session, ask or deny)", s)
}

// Stricter returns the more restrictive of v and w: deny over ask over
// session over allow.
func Stricter(v, w Verdict) Verdict {
	return min(v, w)
}

// parseVerdictNoSession reads "allow", "ask" or "deny": a verdict where no
// grant could be kept (a shell construct, an environment variable, a URL).
func parseVerdictNoSession(s string) (Verdict, error) {
	v, err := ParseVerdict(s)
	if err == nil && v == Session {
		return Deny, fmt.Errorf("verdict \"session\" is for command rules, tools and writes: want allow, ask or deny")
	}
	return v, err
}
