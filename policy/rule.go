// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import "slices"

// The read methods of Rule. A Rule is the policy's, shared by every caller
// and every goroutine: it has no exported field, and what its methods hand
// out is read-only.

// ID is the rule's name ("git log"), or its own id.
func (n *Rule) ID() string { return n.id }

// Verdict is the rule's own verdict; HasVerdict says whether it has one.
func (n *Rule) Verdict() Verdict { return n.verdict }

// HasVerdict says whether the rule has a verdict of its own.
func (n *Rule) HasVerdict() bool { return n.hasVerdict }

// Hint is the rule's hint, shown with a refusal.
func (n *Rule) Hint() string { return n.hint }

// Style is how the program parses its options.
func (n *Rule) Style() style { return n.style }

// Option is the option name the rule knows, accepted or named by an
// escalation, or nil.
func (n *Rule) Option(name string) *Option { return n.options[name] }

// Digits says whether -NUM is accepted (head -5, git log -3).
func (n *Rule) Digits() bool { return n.digits }

// Args is the kind of operands the rule accepts.
func (n *Rule) Args() argsKind { return n.args }

// ArgsWith are the options without one of which no operand is allowed. The slice is the policy's: read it, never write it.
func (n *Rule) ArgsWith() []string { return slices.Clip(n.argsWith) }

// MaxArgs is the most operands the rule allows; 0 means no limit.
func (n *Rule) MaxArgs() int { return n.maxArgs }

// Globs says whether its operands may be globs.
func (n *Rule) Globs() bool { return n.globs }

// Unknown is the verdict for an unknown option, a dynamic word, or a glob where none is allowed.
func (n *Rule) Unknown() Verdict { return n.unknown }

// Require are the options of which at least one must be present. The slice is the policy's: read it, never write it.
func (n *Rule) Require() []string { return slices.Clip(n.require) }

// Children are the programs it may start itself: base-name or path patterns. The slice is the policy's: read it, never write it.
func (n *Rule) Children() []string { return slices.Clip(n.children) }

// ReadOnly says whether it neither writes files nor runs other code (read-only mode may allow it).
func (n *Rule) ReadOnly() bool { return n.readOnly }

// PathMode says whether its operands are paths it reads ("read"), writes ("write"), or reads and then writes the last ("copy").
func (n *Rule) PathMode() string { return n.pathMode }

// WritesCwd says whether, without an output option, it writes a file named after its operand into its working directory (go build).
func (n *Rule) WritesCwd() bool { return n.writesCwd }

// Config is "git", "go" or "rust": the configuration it reads where it runs, which guard checks.
func (n *Rule) Config() string { return n.config }

// RevPaths says whether its operands are revisions, REV:PATH and paths whose contents git prints from its object store.
func (n *Rule) RevPaths() bool { return n.revPaths }

// AnyValue says whether any value of its operands is harmless.
func (n *Rule) AnyValue() bool { return n.anyValue }

// Script is "sed" or "awk": the program it runs is read by guard.
func (n *Rule) Script() string { return n.script }

// Recursive says when it recurses into directories; nil when it never does.
func (n *Rule) Recursive() *recursion { return n.recursive }

// OptionsFirst says whether options end at the first operand (xxd, POSIX getopt).
func (n *Rule) OptionsFirst() bool { return n.optionsFirst }

// Escalations make the rule stricter when a flag is present or an operand matches. The slice is the policy's: read it, never write it.
func (n *Rule) Escalations() []*escalation { return slices.Clip(n.escalations) }

// Rest is the rule for the arguments after --, or nil.
func (n *Rule) Rest() *Rule { return n.rest }

// Wrap says how it wraps another command (timeout, xargs), or is nil.
func (n *Rule) Wrap() *wrapFile { return n.wrap }

// ExecOption says whether option name starts a command ended by ; or +
// (find -exec).
func (n *Rule) ExecOption(name string) bool { return n.exec[name] }

// Shell is "bash" or "sh" when its -c SCRIPT is parsed and checked.
func (n *Rule) Shell() string { return n.shell }

// Interp says whether, without a script operand, it runs code from standard input.
func (n *Rule) Interp() bool { return n.interp }

// Sandbox is the sandbox profile it is allowed in, "" when it needs none.
func (n *Rule) Sandbox() string { return n.sandbox }

// Grant is what a grant of its session tier covers: GrantRule or GrantCall.
func (n *Rule) Grant() string { return n.grant }
