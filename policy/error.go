// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"fmt"
	"slices"
	"strconv"
)

// Error is an error in a policy: what is wrong, and where, as far as it is
// known. Every error that loading or compiling a policy returns is an
// *Error: [LoadUnchecked], [Builtin] for a built-in policy that does not
// compile, and [Policy.Command] and [Policy.CompileAll] for a rule compiled
// when a call first names it.
//
// Its text is "file:line:col: message", or "file:line: message" without
// a column, or "file: message" without a line. The errors of a command
// rule read "file:line:col: rule "id": message".
type Error struct {
	File string // the policy's name: the file name given to LoadUnchecked, or a built-in policy's name
	// Line and Col are where the problem is, 1-based; Col counts bytes.
	// They are 0 when unknown. For a TOML error they are the decoder's
	// position; for the others, where the source first writes Key.
	Line, Col int
	Key       []string // the key the error is about, as in [command.git] verdict: command, git, verdict; nil for a syntax error
	Rule      string   // the id of the rule the error is in, for the errors of a command rule; "" otherwise
	Msg       string
}

func (e *Error) Error() string {
	where := e.File
	if e.Line > 0 {
		where += ":" + strconv.Itoa(e.Line)
		if e.Col > 0 {
			where += ":" + strconv.Itoa(e.Col)
		}
	}
	if e.Rule != "" {
		return fmt.Sprintf("%s: rule %q: %s", where, e.Rule, e.Msg)
	}
	return where + ": " + e.Msg
}

// keyErrorf returns an error about a key of the policy named name, at the
// place where the source that ix indexes first writes the key.
func keyErrorf(name string, ix *keyIndex, key []string, format string, a ...any) *Error {
	line, col := ix.pos(key)
	return &Error{File: name, Line: line, Col: col, Key: slices.Clone(key), Msg: fmt.Sprintf(format, a...)}
}

// ExampleErrorf returns an error of the policy for one of its examples,
// at the line of the rule's examples: "file:line: rule "id": message".
func (p *Policy) ExampleErrorf(ex Example, format string, a ...any) error {
	file := p.Name()
	if ex.File != "" {
		file = ex.File
	}
	return &Error{File: file, Line: ex.Line, Key: slices.Clone(ex.key), Rule: ex.Rule, Msg: fmt.Sprintf(format, a...)}
}
