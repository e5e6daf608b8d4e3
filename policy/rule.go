// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import "slices"

// The read methods of Rule. A Rule is the policy's, shared by every caller
// and every goroutine: it has no exported field, and what its methods hand
// out is read-only.

// ID is the rule's name ("git log"), or its own id.
func (n *Rule) ID() string { return n.id }

// Verdict is the rule's own verdict, when HasVerdict.
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

// ArgsWith are the options without one of which no operand is allowed. The
// slice is read-only.
func (n *Rule) ArgsWith() []string { return slices.Clip(n.argsWith) }

// MaxArgs is the most operands the rule allows; 0 means no limit.
func (n *Rule) MaxArgs() int { return n.maxArgs }

// Globs says whether its operands may be globs.
func (n *Rule) Globs() bool { return n.globs }

// Unknown is the verdict for an unknown option, a dynamic word, or a glob
// where none is allowed.
func (n *Rule) Unknown() Verdict { return n.unknown }

// Require are the options of which at least one must be present. The slice is
// read-only.
func (n *Rule) Require() []string { return slices.Clip(n.require) }

// Children are the programs it may start itself: base-name or path patterns.
// The slice is read-only.
func (n *Rule) Children() []string { return slices.Clip(n.children) }

// ReadOnly says whether it neither writes files nor runs other code
// (read-only mode may allow it).
func (n *Rule) ReadOnly() bool { return n.readOnly }

// PathMode says whether its operands are paths it reads ("read"), writes
// ("write"), or reads and then writes the last ("copy").
func (n *Rule) PathMode() string { return n.pathMode }

// WritesCwd says whether, without an output option, it writes a file named
// after its operand into its working directory (go build).
func (n *Rule) WritesCwd() bool { return n.writesCwd }

// Config is "git", "go" or "rust": the configuration it reads where it runs,
// which guard checks.
func (n *Rule) Config() string { return n.config }

// RevPaths says whether its operands are revisions, REV:PATH and paths whose
// contents git prints from its object store.
func (n *Rule) RevPaths() bool { return n.revPaths }

// AnyValue says whether any value of its operands is harmless.
func (n *Rule) AnyValue() bool { return n.anyValue }

// Script is "sed" or "awk": the program it runs is read by guard.
func (n *Rule) Script() string { return n.script }

// Recursive says when it recurses into directories; nil when it never does.
func (n *Rule) Recursive() *recursion { return n.recursive }

// OptionsFirst says whether options end at the first operand (xxd, POSIX
// getopt).
func (n *Rule) OptionsFirst() bool { return n.optionsFirst }

// Escalations make the rule stricter when a flag is present or an operand
// matches. The slice is read-only.
func (n *Rule) Escalations() []*escalation { return slices.Clip(n.escalations) }

// Rest is the rule for the arguments after --, or nil.
func (n *Rule) Rest() *Rule { return n.rest }

// Wrap says how it wraps another command (timeout, xargs), or is nil. It
// is a copy; its slices are read-only.
func (n *Rule) Wrap() *wrapFile {
	if n.wrap == nil {
		return nil
	}
	w := *n.wrap
	w.Replace, w.Lookup = slices.Clip(w.Replace), slices.Clip(w.Lookup)
	return &w
}

// ExecOption says whether option name starts a command ended by ; or +
// (find -exec).
func (n *Rule) ExecOption(name string) bool { return n.exec[name] }

// Shell is "bash" or "sh" when its -c SCRIPT is parsed and checked.
func (n *Rule) Shell() string { return n.shell }

// Interp says whether, without a script operand, it runs code from standard
// input.
func (n *Rule) Interp() bool { return n.interp }

// Sandbox is the sandbox profile it is allowed in, "" when it needs none.
func (n *Rule) Sandbox() string { return n.sandbox }

// Unbound says why the command, allowed, runs outside the sandbox, ""
// when it runs in it (see [Rule.Sandbox]); a subcommand's rule has its
// parent's unless it names a sandbox profile.
func (n *Rule) Unbound() string { return n.unbound }

// Grant is what a grant of its session tier covers: GrantRule or GrantCall.
func (n *Rule) Grant() string { return n.grant }

// The read methods of Option.

// Name is the option as written: -v, --verbose.
func (o *Option) Name() string { return o.name }

// Value says whether the option takes a value: none, required or optional.
func (o *Option) Value() valueKind { return o.value }

// Type is the type of its value: any, int, dir, path, write or env.
func (o *Option) Type() string { return o.typ }

// Values, if any, are the values it may have. The slice is read-only.
func (o *Option) Values() []string { return slices.Clip(o.values) }

// Accepted says whether the rule lists it in flags or options; otherwise only
// an escalation names it.
func (o *Option) Accepted() bool { return o.accepted }

// The read methods of escalation.

// ID names the escalation in decisions.
func (e *escalation) ID() string { return e.id }

// Verdict is what it makes the command.
func (e *escalation) Verdict() Verdict { return e.verdict }

// Reason says why.
func (e *escalation) Reason() string { return e.reason }

// Hint says what to do instead.
func (e *escalation) Hint() string { return e.hint }

// Flags are the options that trigger it. The slice is read-only.
func (e *escalation) Flags() []string { return slices.Clip(e.flags) }

// Values are patterns for the values of its flags; empty: presence is enough.
// The slice is read-only.
func (e *escalation) Values() []string { return slices.Clip(e.values) }

// Args are patterns for operands: * matches any run of characters, ? one. The
// slice is read-only.
func (e *escalation) Args() []string { return slices.Clip(e.args) }

// The read methods of recursion.

// HiddenWith are the options without which it skips hidden files; none: it
// reads them. The slice is read-only.
func (rc *recursion) HiddenWith() []string { return slices.Clip(rc.hiddenWith) }

// PatternFirst says whether the first operand is a pattern, unless -e, -f or
// --files is present.
func (rc *recursion) PatternFirst() bool { return rc.patternFirst }
