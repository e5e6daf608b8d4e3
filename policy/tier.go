// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import "fmt"

// Tier is what a policy's [tools] table says of a tool: a verdict for
// the tool whatever its input (deny, ask, session, allow, internal), or the
// kind of call it makes, whose input the engine then judges (shell, read,
// write, edit, list, search, fetch).
type Tier int

const (
	TierDeny Tier = iota
	TierAsk
	TierAllow
	TierSession  // ask once; allowed for the rest of the session once it ran
	TierInternal // acts only inside the agent (its task list, a question to the user): allowed, also in read-only mode
	TierShell    // runs a shell command: each of its commands is checked
	TierRead     // reads a file: the path must not be secret
	TierWrite    // writes a file: the path must be writable and not protected
	TierEdit     // edits a file in place: as write
	TierList     // lists names under a directory: the directory must not be secret
	TierSearch   // searches the files under a path: the path must not be secret
	TierFetch    // fetches a URL: the [fetch] table decides
)

// tierNames are the [tools] values, in the order of the Tier constants.
var tierNames = [...]string{"deny", "ask", "allow", "session", "internal", "shell", "read", "write", "edit", "list", "search", "fetch"}

// String returns the tier as a policy file writes it.
func (t Tier) String() string {
	if int(t) < len(tierNames) {
		return tierNames[t]
	}
	return "deny"
}

// IsKind reports whether the tier names a kind of call, judged by its input,
// rather than a verdict for the tool.
func (t Tier) IsKind() bool { return t >= TierShell }

// ReadOnly reports whether read-only mode may allow a tool of this tier:
// it reads or lists files, or acts only inside the agent. It is the one
// definition of what read-only mode offers: the engine asks it of a call's
// kind ([TierNamed]) and package guard of a tool. Its input must
// still pass (a read of a secret is denied), and a shell tool may run in
// read-only mode only where the policy allows read-only shell commands.
func (t Tier) ReadOnly() bool {
	return t == TierInternal || t == TierRead || t == TierList || t == TierSearch
}

// TierNamed returns the tier a [tools] value names; the kinds of call are
// named as their tiers (read, list, search), so that read-only mode asks
// [Tier.ReadOnly] of a call's kind too. False for a name that is no tier.
func TierNamed(s string) (Tier, bool) {
	for i, n := range tierNames {
		if n == s {
			return Tier(i), true
		}
	}
	return TierDeny, false
}

func parseTier(s string) (Tier, error) {
	if t, ok := TierNamed(s); ok {
		return t, nil
	}
	if s == "paths" {
		return TierDeny, fmt.Errorf(`tool tier "paths" is gone: name the kind of call the tool makes: read, write, edit, list or search`)
	}
	return TierDeny, fmt.Errorf("unknown tool tier %q (want allow, session, ask, deny, internal, or a kind: shell, read, write, edit, list, search, fetch)", s)
}

// tierRank orders tiers by how much they allow; a kind decides by the
// call's input, so it ranks between session and allow.
func tierRank(t Tier) int {
	switch t {
	case TierDeny:
		return 0
	case TierAsk:
		return 1
	case TierSession:
		return 2
	case TierInternal, TierAllow:
		return 4
	}
	return 3 // a kind: decided by the input
}
