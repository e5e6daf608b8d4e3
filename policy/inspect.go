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
		if n.Rest != nil {
			walk(name+" --", n.Rest)
		}
	}
	for _, name := range sortedKeys(p.commands) {
		walk(name, p.commands[name])
	}
	return out
}

func (n *Rule) info(name string) CommandInfo {
	ci := CommandInfo{Name: name, Verdict: n.Unknown, Digits: n.Digits, Wrapper: n.Wrap != nil, Shell: n.Shell != ""}
	if n.HasVerdict {
		ci.Verdict = n.Verdict
	}
	ci.Style = [...]string{styleGNU: "gnu", StyleGo: "go", StyleFind: "find", styleNone: "none"}[n.Style]
	for _, o := range sortedKeys(n.Options) {
		opt := n.Options[o]
		oi := OptionInfo{Name: opt.Name, Values: slices.Clone(opt.Values), Accepted: opt.Accepted}
		if opt.Value != ValueNone {
			oi.Value, oi.Type = "required", opt.Type
			if opt.Value == ValueOptional {
				oi.Value = "optional"
			}
		}
		ci.Options = append(ci.Options, oi)
	}
	if n.Hint != "" {
		ci.Hints = append(ci.Hints, n.Hint)
	}
	for _, e := range n.Escalations {
		if e.Hint != "" {
			ci.Hints = append(ci.Hints, e.Hint)
		} else if n.Hint == "" {
			ci.Unhinted = append(ci.Unhinted, e.ID)
		}
	}
	if n.Hint == "" && ci.Verdict != Allow && (n.HasVerdict || !n.HasSubs()) {
		ci.Unhinted = append(ci.Unhinted, name)
	}
	for e := range n.Exec {
		ci.Exec = append(ci.Exec, e)
	}
	slices.Sort(ci.Exec)
	return ci
}
