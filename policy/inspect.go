// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import "slices"

// CommandInfo describes one command rule of a policy, a program or one of
// its subcommands, for tools that generate commands from the policy (the
// execution oracle's differential test). It is a copy: changing it changes
// nothing in the policy.
type CommandInfo struct {
	Name    string       // the program, then its subcommands: "git log"; "cargo test --" for what follows --
	Verdict Verdict      // the rule's own verdict; for a rule that only has subcommands, what it gets alone
	Style   string       // how it reads options: gnu, go, find or none
	Options []OptionInfo // sorted by name
	Digits  bool         // -NUM is accepted (head -5)
	Exec    []string     // options that start a command ended by ; or + (find -exec)
	Wrapper bool         // it runs the command in its operands (timeout, env, xargs)
	Shell   bool         // it runs the script of -c (bash, sh)
	Hints   []string     // the hints of the rule and of its deny, ask and session rules, as written
	// Unhinted names what refuses without a hint: the rule itself, when
	// its verdict is not allow, and its deny, ask and session rules that
	// have none of their own, where the rule has none either.
	Unhinted []string
}

// OptionInfo describes an option a command rule names.
type OptionInfo struct {
	Name     string   // -n, --max-count, -name, or + for +toolchain
	Value    string   // "" for a flag, "required" or "optional"
	Type     string   // the value's type: any, int, dir or path; "" for a flag
	Values   []string // the values allowed, if the rule lists them
	Accepted bool     // false: only a deny or ask rule names it
}

// Commands returns every command rule of the policy, sorted by name.
func (p *Policy) Commands() []CommandInfo {
	if p == nil || !p.ok {
		return nil
	}
	p.CompileAll()
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []CommandInfo
	var walk func(name string, n *Rule)
	walk = func(name string, n *Rule) {
		out = append(out, n.info(name))
		for _, s := range sortedKeys(n.subs) {
			walk(name+" "+s, n.subs[s])
		}
		if n.rest != nil {
			walk(name+" --", n.rest)
		}
	}
	for _, name := range sortedKeys(p.commands) {
		walk(name, p.commands[name])
	}
	return out
}

func (n *Rule) info(name string) CommandInfo {
	ci := CommandInfo{Name: name, Verdict: n.unknown, Digits: n.digits, Wrapper: n.wrap != nil, Shell: n.shell != ""}
	if n.hasVerdict {
		ci.Verdict = n.verdict
	}
	ci.Style = [...]string{styleGNU: "gnu", StyleGo: "go", StyleFind: "find", styleNone: "none"}[n.style]
	for _, o := range sortedKeys(n.options) {
		opt := n.options[o]
		oi := OptionInfo{Name: opt.name, Values: slices.Clone(opt.values), Accepted: opt.accepted}
		if opt.value != ValueNone {
			oi.Value, oi.Type = "required", opt.typ
			if opt.value == ValueOptional {
				oi.Value = "optional"
			}
		}
		ci.Options = append(ci.Options, oi)
	}
	if n.hint != "" {
		ci.Hints = append(ci.Hints, n.hint)
	}
	for _, e := range n.escalations {
		if e.hint != "" {
			ci.Hints = append(ci.Hints, e.hint)
		} else if n.hint == "" {
			ci.Unhinted = append(ci.Unhinted, e.id)
		}
	}
	if n.hint == "" && ci.Verdict != Allow && (n.hasVerdict || !n.HasSubs()) {
		ci.Unhinted = append(ci.Unhinted, name)
	}
	for e := range n.exec {
		ci.Exec = append(ci.Exec, e)
	}
	slices.Sort(ci.Exec)
	return ci
}
