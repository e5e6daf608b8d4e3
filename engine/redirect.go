// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"guard/policy"
	"guard/shellparse"
)

func (d *decider) redirect(r shellparse.Redirect, where []string) Leaf {
	l := Leaf{Kind: "redirect", Text: r.Fd + r.Op + r.Target.Source, Pos: r.Pos, Rule: "redirect"}
	switch {
	case r.Heredoc():
		l.Verdict, l.Why = policy.Allow, "a here-document feeds standard input"
		return l
	case r.Duplicates():
		// N>&M copies M; an M above 2 that the call did not open is the
		// agent's, whatever it points at.
		if m, err := strconv.Atoi(strings.TrimSuffix(r.Target.Value, "-")); err == nil && m > 2 && !d.fds.opened(m) {
			l.Verdict, l.Rule = policy.Deny, "paths.descriptor"
			l.Why = fmt.Sprintf("%s copies descriptor %d, which the command did not open: guard cannot tell what it names", l.Text, m)
			l.Hint = "redirect to a file by its own name"
			return l
		}
		l.Verdict, l.Why = policy.Allow, "duplicating a file descriptor is allowed"
		return l
	}
	hint := "redirect output only to " + strings.Join(d.p.RedirectAllow(), ", ") + "; change files with the agent's edit tools"
	t := r.Target
	if !t.Constant() {
		l.Verdict, l.Rule = policy.Deny, "redirect.target"
		l.Why = fmt.Sprintf("redirection target %s is not known until run time", t.Source)
		l.Hint = hint
		return l
	}
	clean := path.Clean(t.Value)
	for _, net := range []string{"/dev/tcp/", "/dev/udp/"} {
		if strings.HasPrefix(t.Value, net) || strings.HasPrefix(clean, net) {
			l.Verdict = policy.Deny
			l.Why = fmt.Sprintf("redirection to %s opens a network connection", t.Value)
			l.Hint = "guard does not allow network access from the shell"
			return l
		}
	}
	if pc, ok := d.checkDescriptor(t.Value, t.Tilde, where); !ok {
		l.Verdict, l.Rule, l.Why, l.Hint = pc.verdict, pc.rule, "redirection: "+pc.why, "redirect to a file by its own name, or not at all"
		return l
	}
	targets := d.paths(where, t)
	if len(targets) > 0 && !slices.ContainsFunc(targets, func(p string) bool { return !slices.Contains(d.p.RedirectAllow(), p) }) {
		l.Verdict, l.Rule, l.Why = policy.Allow, "redirect.allow", fmt.Sprintf("redirection to %s is allowed", t.Value)
		return l
	}
	l.Hint = hint
	acc, allowed := readAccess, d.p.RedirectRead()
	if r.Writes() {
		acc, allowed = writeAccess, d.p.RedirectWrite()
		l.Writes = true
		l.Hint = writeHint(t.Value)
	}
	pc := d.checkPath(t.Value, t.Tilde, where, acc, allowed)
	if pc.rule == "paths.writable" && pc.verdict == policy.Deny {
		pc.verdict, pc.rule = d.p.RedirectWriteOutside(), "redirect.write_outside"
	}
	if d.readOnly() && acc == writeAccess && pc.verdict != policy.Deny {
		pc = pathCheck{policy.Deny, "read-only", fmt.Sprintf("writing %s: read-only mode allows no writes", t.Value)}
	}
	l.Verdict, l.Rule = pc.verdict, pc.rule
	if l.Writes && l.Verdict == policy.Deny {
		// No tool may write it: the edit tools are no way either.
		l.Hint = "leave out the redirection and let the output come back; " + writeDenyHint
	}
	l.Why = "redirection: " + pc.why
	switch l.Verdict {
	case policy.Allow:
		l.Why += ": allowed"
	case policy.Ask:
		l.Why += ": needs approval"
	case policy.Session:
		l.Why += ": needs approval once in this session"
		l.Scope = d.pathScope(t.Value, t.Tilde, where)
	}
	return l
}

// writeDenyHint is what to do instead of writing a file no tool may write.
const writeDenyHint = "write inside the project; files that configure the agent, git and the tool chain are protected"

// writeHint is what to do instead of writing a file by a redirection:
// the agent's edit tools, or the output back to the agent; for a Python
// script written to be run, running it from standard input.
func writeHint(file string) string {
	h := fmt.Sprintf("write %s with the agent's edit tools, asked once a directory, or leave out the redirection and let the output come back", file)
	if strings.HasSuffix(file, ".py") {
		h += "; python3 - <<'EOF' runs a script without writing it"
	}
	return h
}
