// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import "guard/policy"

// Verdict is what guard answers for a call or a part of it.
type Verdict = policy.Verdict

// The verdicts, from the most permissive.
const (
	Allow = policy.Allow
	Ask   = policy.Ask
	Deny  = policy.Deny
)
