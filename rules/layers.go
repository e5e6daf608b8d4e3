// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"

	"guard/shellparse"
)

// Layers is a user policy and a project policy decided together. The
// project can only restrict what the user allows: a call gets the stricter
// of the two decisions, unless the user policy trusts the project policy
// by its sha256 digest, and then the project policy decides alone.
//
// A nil User is the embedded default policy. A nil Project means the
// project has no policy of its own.
type Layers struct {
	User, Project *Policy
	// ProjectSum is the sha256 digest, in hex, of the project policy file.
	ProjectSum string
}

// Digest returns the sha256 digest of a policy file's bytes, in hex, as a
// user policy's trust list names it.
func Digest(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}

// Trusted reports whether the user policy trusts the project policy.
func (l *Layers) Trusted() bool {
	return l.Project != nil && l.User.Trusts(l.ProjectSum)
}

// Decide decides a call with both layers.
func (l *Layers) Decide(call Call) Decision {
	user := l.User
	if user == nil {
		var err error
		if user, err = Default(); err != nil {
			return (*Policy)(nil).Decide(call)
		}
	}
	if l.Project == nil {
		return user.Decide(call)
	}
	// Read-only mode in either layer holds for both.
	call.ReadOnly = call.ReadOnly || user.readOnly || l.Project.readOnly
	if l.Trusted() {
		return l.Project.Decide(call)
	}
	u, p := user.Decide(call), l.Project.Decide(call)
	out := Decision{Verdict: stricter(u.Verdict, p.Verdict), ReadOnly: u.ReadOnly || p.ReadOnly,
		Policy: user.name + " and " + l.Project.name}
	// The stricter layer's leaves come first, so that its deciding leaf
	// explains the decision.
	first, second := p, u
	if u.Verdict < p.Verdict {
		first, second = u, p
	}
	out.Leaves = append(slices.Clone(first.Leaves), second.Leaves...)
	return out
}

// SessionTool reports whether a layer gives the tool the session tier, so
// that its having run in a session is worth recording.
func (l *Layers) SessionTool(tool string) bool {
	for _, p := range []*Policy{l.User, l.Project} {
		if p != nil {
			if t, _ := p.toolTier(tool); t == tierSession {
				return true
			}
		}
	}
	if l.User == nil {
		if d, err := Default(); err == nil {
			t, _ := d.toolTier(tool)
			return t == tierSession
		}
	}
	return false
}

// ReadOnly reports whether either layer puts calls in read-only mode.
func (l *Layers) ReadOnly() bool {
	return l.User.ReadOnly() || l.Project.ReadOnly()
}

// Name names the layers, for messages.
func (l *Layers) Name() string {
	user := "default"
	if l.User != nil {
		user = l.User.Name()
	}
	switch {
	case l.Project == nil:
		return user
	case l.Trusted():
		return l.Project.Name() + " (trusted by " + user + ")"
	}
	return user + " and " + l.Project.Name()
}

// Describe writes a summary of a policy: its mode, tool tiers, constructs,
// environment, paths and command rules, for guard check --show-policy.
func (p *Policy) Describe(w io.Writer) {
	if p == nil || !p.ok {
		fmt.Fprintln(w, "  (no policy)")
		return
	}
	mode := "normal"
	if p.readOnly {
		mode = "read-only"
		if p.readOnlyBash {
			mode += ", read-only shell commands allowed"
		}
	}
	fmt.Fprintf(w, "  mode: %s; default verdict: %s\n", mode, p.def)
	var tools []string
	for _, name := range sortedKeys(p.tools) {
		tools = append(tools, name+"="+tierName(p.tools[name]))
	}
	for _, g := range p.toolGlobs {
		tools = append(tools, g.pattern+"="+tierName(g.tier))
	}
	fmt.Fprintf(w, "  tools: %s\n", strings.Join(tools, " "))
	var shell []string
	for _, k := range shellparse.Kinds {
		if v, ok := p.shell[k]; ok {
			shell = append(shell, string(k)+"="+v.String())
		}
	}
	fmt.Fprintf(w, "  shell: %s (code-running constructs are always denied)\n", strings.Join(shell, " "))
	fmt.Fprintf(w, "  env allow: %s\n", strings.Join(p.env.allow, " "))
	for _, d := range p.env.deny {
		fmt.Fprintf(w, "  env deny: %s: %s\n", strings.Join(d.names, " "), d.reason)
	}
	fmt.Fprintf(w, "  paths: writable %s; file-tool writes %s, reads %s\n", strings.Join(p.paths.writable, " "), p.paths.write, p.paths.read)
	fmt.Fprintf(w, "  paths: protected %s\n", strings.Join(p.paths.protected, " "))
	fmt.Fprintf(w, "  paths: secret %s\n", strings.Join(p.paths.secret, " "))
	fmt.Fprintf(w, "  redirect: allow %s; read %s; write %s; outside the writable roots %s\n",
		strings.Join(p.redirect.allow, " "), p.redirect.read, p.redirect.write, p.redirect.writeOutside)
	p.compileAll()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, name := range p.rules.names {
		n := p.commands[name]
		if n == nil {
			continue
		}
		fmt.Fprintf(w, "  command %s\n", describeNode(n))
		for _, s := range sortedKeys(n.subs) {
			fmt.Fprintf(w, "  command %s\n", describeNode(n.subs[s]))
		}
	}
}

func describeNode(n *node) string {
	v := "(by subcommand)"
	if n.hasVerdict {
		v = n.verdict.String()
	}
	s := n.id + ": " + v
	if n.readOnly {
		s += ", read-only"
	}
	if n.wrap != nil || n.shell != "" {
		s += ", checks the command it runs"
	}
	return s
}

func tierName(t tier) string {
	switch t {
	case tierAllow:
		return "allow"
	case tierAsk:
		return "ask"
	case tierShell:
		return "shell"
	case tierPaths:
		return "paths"
	case tierSession:
		return "session"
	}
	return "deny"
}

// ToolNames returns the tools that the layers name exactly, sorted.
func (l *Layers) ToolNames() []string {
	var names []string
	for _, p := range l.policies() {
		names = append(names, sortedKeys(p.tools)...)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// ToolTier returns the tier a tool gets from the layers: allow, session,
// ask, deny, shell or paths; the stricter layer's when they differ and the
// project is not trusted. Read-only mode turns every tool it does not allow
// into deny.
func (l *Layers) ToolTier(tool string, readOnly bool) string {
	ps := l.policies()
	if l.Trusted() {
		ps = []*Policy{l.Project}
	}
	best, found := tierAllow, false
	for _, p := range ps {
		t, rule := p.toolTier(tool)
		if rule == "" && p.def == Ask {
			t = tierAsk
		}
		if !found || tierRank(t) < tierRank(best) {
			best, found = t, true
		}
	}
	if (readOnly || l.ReadOnly()) && !readOnlyTools[tool] {
		shellOK := best == tierShell && slices.ContainsFunc(ps, func(p *Policy) bool { return p.readOnlyBash })
		if !shellOK {
			return "deny"
		}
	}
	return tierName(best)
}

// policies returns the layers that are set, the default for a missing user.
func (l *Layers) policies() []*Policy {
	user := l.User
	if user == nil {
		user, _ = Default()
	}
	out := []*Policy{user}
	if l.Project != nil {
		out = append(out, l.Project)
	}
	return out
}
