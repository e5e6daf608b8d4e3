// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"guard/shellparse"
)

// Layers is a user policy and a project policy decided together. The
// project can only restrict what the user allows: a call gets the stricter
// of the two decisions, unless the user policy trusts the project policy
// by its sha256 digest, and then the project policy decides alone.
//
// A nil User is the embedded default policy. A nil Project means the
// project has no policy of its own.
//
// A Managed policy, when there is one, is the administrator's: it decides
// beside the other two, whatever they say, and a call gets the stricter of
// its decision and theirs. The user and the project can restrict what it
// allows, never loosen it; no trust reaches past it.
type Layers struct {
	Managed       *Policy
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

// ReadOnly reports whether any layer puts calls in read-only mode.
func (l *Layers) ReadOnly() bool {
	return l.Managed.ReadOnly() || l.User.ReadOnly() || l.Project.ReadOnly()
}

// Name names the layers, for messages.
func (l *Layers) Name() string {
	user := "default"
	if l.User != nil {
		user = l.User.Name()
	}
	managed := ""
	if l.Managed != nil {
		managed = "managed " + l.Managed.Name() + ", "
	}
	switch {
	case l.Project == nil:
		return managed + user
	case l.Trusted():
		return managed + l.Project.Name() + " (trusted by " + user + ")"
	}
	return managed + user + " and " + l.Project.Name()
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
		if p.readOnlyShell {
			mode += ", read-only shell commands allowed"
		}
	}
	fmt.Fprintf(w, "  mode: %s; default verdict: %s\n", mode, p.fallback)
	if len(p.packs) > 0 {
		fmt.Fprintf(w, "  packs: %s\n", strings.Join(p.packs, ", "))
	}
	var tools []string
	for _, name := range sortedKeys(p.tools) {
		tools = append(tools, name+"="+p.tools[name].String())
	}
	for _, g := range p.toolGlobs {
		tools = append(tools, g.pattern+"="+g.tier.String())
	}
	fmt.Fprintf(w, "  tools: %s\n", strings.Join(tools, " "))
	var shell []string
	for _, k := range shellparse.AllKinds() {
		if v, ok := p.shell[k]; ok {
			shell = append(shell, string(k)+"="+v.String())
		}
	}
	fmt.Fprintf(w, "  shell: %s (code-running constructs are always denied)\n", strings.Join(shell, " "))
	fmt.Fprintf(w, "  env allow: %s\n", strings.Join(p.env.Allow, " "))
	for _, d := range p.env.deny {
		fmt.Fprintf(w, "  env deny: %s: %s\n", strings.Join(d.names, " "), d.reason)
	}
	fmt.Fprintf(w, "  paths: writable %s; file-tool writes %s, reads %s\n", strings.Join(p.paths.Writable, " "), p.paths.Write, p.paths.Read)
	fmt.Fprintf(w, "  paths: protected %s\n", strings.Join(p.paths.Protected, " "))
	fmt.Fprintf(w, "  paths: secret %s\n", strings.Join(p.paths.Secret, " "))
	fmt.Fprintf(w, "  redirect: allow %s; read %s; write %s; outside the writable roots %s\n",
		strings.Join(p.redirect.Allow, " "), p.redirect.Read, p.redirect.Write, p.redirect.WriteOutside)
	p.CompileAll()
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

func describeNode(n *Rule) string {
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

// ToolNames returns the tools that the layers name exactly, sorted.
func (l *Layers) ToolNames() []string {
	var names []string
	for _, p := range l.Policies() {
		names = append(names, sortedKeys(p.tools)...)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// ToolTier returns the tier a tool gets from the layers, as the policy
// writes it; the stricter layer's when they differ and the
// project is not trusted. Read-only mode turns every tool it does not allow
// into deny, a shell tool too unless shell says that the mode offers the
// shell ([Layers.ReadOnlyShell] where guard's read-only sandbox cannot
// run).
func (l *Layers) ToolTier(tool string, readOnly, shell bool) string {
	best, found := TierAllow, false
	for _, p := range l.deciding() {
		t, rule := p.ToolTier(tool)
		if rule == "" && p.fallback == Ask {
			t = TierAsk
		}
		if !found || tierRank(t) < tierRank(best) {
			best, found = t, true
		}
	}
	if (readOnly || l.ReadOnly()) && !best.ReadOnly() && (best != TierShell || !shell) {
		return "deny"
	}
	return best.String()
}

// ReadOnlyShell reports whether a layer that decides says
// read_only_shell: read-only mode then allows the read-only shell
// commands without guard's sandbox.
func (l *Layers) ReadOnlyShell() bool {
	return slices.ContainsFunc(l.deciding(), func(p *Policy) bool { return p.readOnlyShell })
}

// deciding returns the layers that decide: the trusted project's alone,
// else every layer that is set.
func (l *Layers) deciding() []*Policy {
	if l.Trusted() {
		return []*Policy{l.Project}
	}
	return l.Policies()
}

// Policies returns the layers that are set, the default for a missing user.
func (l *Layers) Policies() []*Policy {
	user := l.User
	if user == nil {
		user, _ = Default()
	}
	out := []*Policy{user}
	if l.Project != nil {
		out = append(out, l.Project)
	}
	if l.Managed != nil {
		out = append(out, l.Managed)
	}
	return out
}

// GrantIdle returns how long a grant of the session tier lasts unused: the
// shortest of the layers' limits, 0 when none sets one.
func (l *Layers) GrantIdle() time.Duration {
	var idle time.Duration
	for _, p := range l.Policies() {
		if p.grantIdle > 0 && (idle == 0 || p.grantIdle < idle) {
			idle = p.grantIdle
		}
	}
	return idle
}

// LogRequired reports whether a layer requires every decision to be
// logged: a call whose decision cannot be written to the log is denied.
func (l *Layers) LogRequired() bool {
	return slices.ContainsFunc(l.Policies(), func(p *Policy) bool { return p.logRequired })
}

// Sum returns the sha256 digest, in hex, of what decides: the name and
// source of each layer. The embedded default policy has no source here:
// its name stands for it, and guard's version says which it is.
func (l *Layers) Sum() string {
	h := sha256.New()
	for _, p := range l.Policies() {
		fmt.Fprintf(h, "%s\x00%d\x00", p.Name(), len(p.src))
		h.Write(p.src)
	}
	return hex.EncodeToString(h.Sum(nil))
}
