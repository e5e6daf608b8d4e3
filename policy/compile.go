// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"guard/shellparse"

	"github.com/bmatcuk/doublestar/v4"
)

// compiler carries what compile needs to point at the line of a problem.
type compiler struct {
	rules ruleSource
	built map[string]ruleFile // rules that like refers to, by program
	name  string
	src   []byte
	keys  *keyIndex         // the keys of src, indexed at the first error
	ids   map[string]string // explicit id → where it was set
}

// errorf returns an *Error about a key, at its line in the source.
func (c *compiler) errorf(key []string, format string, a ...any) error {
	return c.newError("", key, format, a...)
}

// ruleErrorf returns an *Error about a key of the rule with the given id.
func (c *compiler) ruleErrorf(rule string, key []string, format string, a ...any) error {
	return c.newError(rule, key, format, a...)
}

// newError indexes the keys of the source at the first error. The
// compiler runs at load, or under the policy's lock for a rule compiled
// when a call names it, so the index needs no lock of its own.
func (c *compiler) newError(rule string, key []string, format string, a ...any) *Error {
	if c.keys == nil {
		c.keys = indexKeys(c.src)
	}
	e := keyErrorf(c.name, c.keys, key, format, a...)
	e.Rule = rule
	return e
}

func compile(name string, pf *policyFile, rules ruleSource, src []byte) (*Policy, error) {
	c := &compiler{rules: rules, name: name, src: src, ids: map[string]string{}}
	p := &Policy{name: name, src: src, rules: rules, comp: c, tools: map[string]Tier{}, shell: map[shellparse.Kind]Verdict{},
		commands: map[string]*Rule{}, broken: map[string]error{}}
	if pf.Version == 0 {
		e := c.newError("", []string{"version"}, "the policy has no version: write version = 1 at its top")
		e.Line = max(e.Line, 1)
		return nil, e
	}
	if pf.Version != 1 {
		return nil, c.errorf([]string{"version"}, "version = %d: this guard reads version 1 policies", pf.Version)
	}
	def, err := ParseVerdict(pf.Default)
	if pf.Default == "" {
		e := c.newError("", []string{"default"}, `the policy has no default verdict: write default = "ask" (or "deny"), or extends = "default" to build on the default policy`)
		e.Line = max(e.Line, 1)
		return nil, e
	}
	if err != nil || def == Allow || def == Session {
		return nil, c.errorf([]string{"default"}, "default = %q: want ask or deny", pf.Default)
	}
	p.fallback = def

	for _, pat := range sortedKeys(pf.Tools) {
		t, err := parseTier(pf.Tools[pat])
		if err != nil {
			return nil, c.errorf([]string{"tools", pat}, "tool %q: %v", pat, err)
		}
		if _, err := path.Match(pat, ""); err != nil || pat == "" {
			return nil, c.errorf([]string{"tools", pat}, "tool pattern %q is not a valid pattern", pat)
		}
		if strings.ContainsAny(pat, "*?[") {
			p.toolGlobs = append(p.toolGlobs, toolGlob{pat, t})
		} else {
			p.tools[pat] = t
		}
	}

	for _, key := range sortedKeys(pf.Shell) {
		val := pf.Shell[key]
		if key == "dialect" {
			switch val {
			case "bash":
				p.dialect = shellparse.Bash
			case "sh", "posix":
				p.dialect = shellparse.POSIX
			default:
				return nil, c.errorf([]string{"shell", key}, "dialect %q: want bash or sh", val)
			}
			continue
		}
		k := shellparse.Kind(key)
		if !slices.Contains(shellparse.AllKinds(), k) {
			return nil, c.errorf([]string{"shell", key}, "unknown shell construct %q", key)
		}
		v, err := parseVerdictNoSession(val)
		if err != nil {
			return nil, c.errorf([]string{"shell", key}, "shell construct %q: %v", key, err)
		}
		if k.Fixed() && v != Deny {
			return nil, c.errorf([]string{"shell", key}, "shell construct %q runs code guard cannot check; it can only be denied", key)
		}
		p.shell[k] = v
	}

	if err := c.compileEnv(p, &pf.Env); err != nil {
		return nil, err
	}
	if err := c.compileFetch(p, &pf.Fetch); err != nil {
		return nil, err
	}
	if err := c.compileRedirect(p, &pf.Redirect); err != nil {
		return nil, err
	}
	if err := c.compilePaths(p, &pf.Paths, pf.Secret); err != nil {
		return nil, err
	}
	p.readOnly, p.readOnlyShell, p.logRequired = pf.ReadOnly, pf.ReadOnlyShell, pf.LogRequired
	if pf.Grants.Idle != "" {
		d, err := time.ParseDuration(pf.Grants.Idle)
		if err != nil || d < time.Minute || d > 24*time.Hour {
			return nil, c.errorf([]string{"grants", "idle"}, "grants idle = %q: want a duration from 1m to 24h, such as \"30m\"", pf.Grants.Idle)
		}
		p.grantIdle = d
	}
	p.sandbox = sandboxPolicy{Run: pf.Sandbox.Run, Require: pf.Sandbox.Require}
	for _, name := range sortedKeys(pf.Sandbox.Profiles) {
		spf := pf.Sandbox.Profiles[name]
		key := []string{"sandbox", name}
		if builtinProfile(name) {
			return nil, c.errorf(key, "sandbox %s: a built-in profile; name yours otherwise", name)
		}
		if !validProgram(name) {
			return nil, c.errorf(key, "sandbox %q: a profile's name is letters, digits and -_.", name)
		}
		prof := SandboxProfile{Read: spf.Read, Write: spf.Write, Env: spf.Env}
		for _, list := range [][]string{spf.Read, spf.Write} {
			for _, p := range list {
				if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~/") && !strings.HasPrefix(p, "{") {
					return nil, c.errorf(key, "sandbox %s: %q: a path is absolute, ~/..., or starts with {project}, {tmp} or {home}", name, p)
				}
			}
		}
		for _, port := range spf.Ports {
			prof.Ports = append(prof.Ports, uint16(port))
		}
		for k := range spf.Env {
			if !validEnvPattern(k) || strings.ContainsAny(k, "*?") {
				return nil, c.errorf(key, "sandbox %s: env %q is not a variable name", name, k)
			}
			if k == "BASH_ENV" || k == "ENV" || k == "GOTOOLCHAIN" || strings.HasPrefix(k, "GIT_CONFIG") || strings.HasPrefix(k, "LD_") {
				return nil, c.errorf(key, "sandbox %s: env %s would undo what guard run sets or make programs run other code", name, k)
			}
		}
		if p.sandbox.Profiles == nil {
			p.sandbox.Profiles = map[string]SandboxProfile{}
		}
		p.sandbox.Profiles[name] = prof
	}
	for _, t := range pf.Trust {
		hex, ok := strings.CutPrefix(t, "sha256:")
		if !ok || len(hex) != 64 || strings.Trim(strings.ToLower(hex), "0123456789abcdef") != "" {
			return nil, c.errorf([]string{"trust"}, "trust %q: want sha256:<64 hex digits>", t)
		}
		p.trust = append(p.trust, strings.ToLower(hex))
	}

	for _, name := range rules.names {
		if !validProgram(name) {
			return nil, c.errorf([]string{"command", name}, "command %q: a program name has no spaces, quotes or shell characters", name)
		}
		if strings.Contains(name, "*") {
			if _, err := path.Match(name, ""); err != nil {
				return nil, c.errorf([]string{"command", name}, "command %q is not a valid pattern", name)
			}
			p.commandGlobs = append(p.commandGlobs, name)
		}
		if rules.eager(name) {
			if _, err := p.compileRule(name, true); err != nil {
				return nil, err
			}
		}
	}
	p.ok = true
	return p, nil
}

// compileRule returns the compiled rule for a program name, compiling it on
// first use; nil if the policy has none. With eager set, the rule's
// subcommands are compiled too.
func (p *Policy) compileRule(name string, eager bool) (*Rule, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := p.commands[name]; n != nil {
		if eager {
			if err := p.comp.compileSubs(p, n); err != nil {
				p.broken[name] = err
				return nil, err
			}
		}
		return n, nil
	}
	if err := p.broken[name]; err != nil {
		return nil, err
	}
	rf, ok := p.comp.ruleFile(name)
	if !ok {
		return nil, nil
	}
	n, err := p.comp.compileNode(p, name, nil, &rf, []string{"command", name}, eager)
	if err != nil {
		p.broken[name] = err
		return nil, err
	}
	p.commands[name] = n
	return n, nil
}

// CompileAll compiles every rule not compiled yet and returns the errors.
func (p *Policy) CompileAll() []error {
	p.mu.Lock()
	done := p.all
	p.mu.Unlock()
	if done {
		return nil
	}
	var errs []error
	for _, name := range p.rules.names {
		if _, err := p.compileRule(name, true); err != nil {
			errs = append(errs, err)
		}
	}
	p.mu.Lock()
	p.all = true
	p.allowed = allowedCommands(p.commands)
	p.mu.Unlock()
	return errs
}

// sub returns the compiled subcommand name of n, compiling it on first use.
func (p *Policy) Sub(n *Rule, name string) (*Rule, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.comp.compileSub(p, n, name, false)
}

func (c *compiler) compileEnv(p *Policy, ef *envFile) error {
	seen := map[string]bool{}
	for _, n := range ef.Allow {
		if !validEnvPattern(n) {
			return c.errorf([]string{"env", "allow"}, "env allow: %q is not a variable name or pattern", n)
		}
		seen[n] = true
	}
	p.env.Allow = slices.Clone(ef.Allow)
	for _, d := range ef.Deny {
		if len(d.Names) == 0 {
			return c.errorf([]string{"env", "deny"}, "env deny: a rule without names matches nothing")
		}
		for _, n := range d.Names {
			if !validEnvPattern(n) {
				return c.errorf([]string{"env", "deny"}, "env deny: %q is not a variable name or pattern", n)
			}
			if seen[n] {
				return c.errorf([]string{"env", "deny"}, "env: %q is both allowed and denied", n)
			}
		}
		if d.Reason == "" {
			return c.errorf([]string{"env", "deny"}, "env deny %v: a reason is required", d.Names)
		}
		p.env.deny = append(p.env.deny, envDeny{names: slices.Clone(d.Names), reason: d.Reason})
	}
	return nil
}

func (c *compiler) compileFetch(p *Policy, ff *fetchFile) error {
	p.fetch.Unlisted = Deny
	if ff.Unlisted != "" {
		v, err := parseVerdictNoSession(ff.Unlisted)
		if err != nil {
			return c.errorf([]string{"fetch", "unlisted"}, "fetch unlisted: %v", err)
		}
		p.fetch.Unlisted = v
	}
	for _, a := range ff.Allow {
		if !(strings.HasPrefix(a, "https://") || strings.HasPrefix(a, "http://")) || !doublestar.ValidatePattern(a) {
			return c.errorf([]string{"fetch", "allow"}, "fetch allow: %q is not a pattern of http or https URLs", a)
		}
	}
	p.fetch.Allow = slices.Clone(ff.Allow)
	return nil
}

func (c *compiler) compileRedirect(p *Policy, rf *redirectFile) error {
	verdict := func(key, s string, def Verdict) (Verdict, error) {
		if s == "" {
			return def, nil
		}
		v, err := ParseVerdict(s)
		if err != nil {
			return Deny, c.errorf([]string{"redirect", key}, "redirect %s: %v", key, err)
		}
		return v, nil
	}
	var err error
	if p.redirect.Read, err = verdict("read", rf.Read, p.fallback); err != nil {
		return err
	}
	if p.redirect.Write, err = verdict("write", rf.Write, p.fallback); err != nil {
		return err
	}
	if p.redirect.WriteOutside, err = verdict("write_outside", rf.WriteOutside, Deny); err != nil {
		return err
	}
	for _, a := range rf.Allow {
		if !strings.HasPrefix(a, "/") || path.Clean(a) != a {
			return c.errorf([]string{"redirect", "allow"}, "redirect allow: %q is not a clean absolute path", a)
		}
		if strings.HasPrefix(a, "/dev/tcp/") || strings.HasPrefix(a, "/dev/udp/") {
			return c.errorf([]string{"redirect", "allow"}, "redirect allow: %q opens a network connection in bash", a)
		}
	}
	p.redirect.Allow = slices.Clone(rf.Allow)
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// validProgram reports whether a command name in a policy is one a shell
// word can spell without quoting: a program name or a path.
func validProgram(s string) bool {
	if s == "" || strings.HasPrefix(s, "-") {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("._+-/[*", r):
		default:
			return false
		}
	}
	return true
}

func validEnvPattern(s string) bool {
	if s == "" {
		return false
	}
	if _, err := path.Match(s, ""); err != nil {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '*' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// allowedCommands lists the commands a policy allows without asking, with
// the subcommands it allows of those that have them: "git log|status".
func allowedCommands(cmds map[string]*Rule) []string {
	var parts []string
	for _, name := range sortedKeys(cmds) {
		n := cmds[name]
		if n.HasSubs() {
			var subs []string
			for _, s := range sortedKeys(n.subs) {
				if n.subs[s].hasVerdict && n.subs[s].verdict == Allow {
					subs = append(subs, s)
				}
			}
			if len(subs) > 0 {
				parts = append(parts, name+" "+strings.Join(subs, "|"))
			}
			continue
		}
		if n.hasVerdict && n.verdict == Allow && n.wrap == nil && n.shell == "" {
			parts = append(parts, name)
		}
	}
	return parts
}
