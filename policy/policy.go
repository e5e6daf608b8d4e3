// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package policy reads guard's TOML policies: the file format, its checks
// with file and line, the compiler that turns a file into the immutable
// tables of a [Policy], the built-in policies (the embedded default and
// its profiles), and the user and project [Layers]. Package engine
// decides calls with what it compiles.
//
// A nil or zero Policy is not loaded, and the engine denies every call
// with it.
//
// This package has no API stability promise outside this module.
package policy

import (
	"fmt"
	"io"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"guard/shellparse"

	"github.com/bmatcuk/doublestar/v4"
)

// Policy is a compiled policy. It is immutable and safe for concurrent use.
type Policy struct {
	name          string
	Default       Verdict
	tools         map[string]Tier
	toolGlobs     []toolGlob
	Shell         map[shellparse.Kind]Verdict
	Dialect       shellparse.Dialect
	Env           envPolicy
	Redirect      redirectPolicy
	Fetch         fetchPolicy
	Paths         pathPolicy
	readOnly      bool     // read-only mode, whatever the call says
	ReadOnlyShell bool     // in read-only mode, read-only shell commands may run
	trust         []string // sha256 digests of project policies this (user) policy trusts
	rules         ruleSource
	commandGlobs  []string // names of rules that are patterns (mkfs.*)
	comp          *compiler
	src           []byte                 // the policy's source, for the lines of examples
	exampleLine   func(key []string) int // the lines of examples, for a policy without its source
	ok            bool                   // set by compile: the zero Policy denies

	// Command rules are compiled when a call first names them, so that a
	// hook pays only for the programs it sees. mu guards what follows.
	mu       sync.Mutex
	commands map[string]*Rule
	broken   map[string]error
	examples []Example
	all      bool   // every rule is compiled
	allowed  string // the programs allowed without asking, for hints
}

// ruleSource gives a policy's command rules by program name.
type ruleSource struct {
	names []string                           // every program name, sorted
	rule  func(name string) (ruleFile, bool) // the rule for a name
	eager func(name string) bool             // compile and check this rule at load
}

func mapSource(m map[string]ruleFile, eager bool) ruleSource {
	return ruleSource{
		names: sortedKeys(m),
		rule: func(name string) (ruleFile, bool) {
			rf, ok := m[name]
			return rf, ok
		},
		eager: func(string) bool { return eager },
	}
}

// Tier is what a policy's [tools] table says of a tool: a verdict for
// the tool whatever its input (deny, ask, session, allow, internal), or the
// kind of call it makes, whose input the engine then judges (shell, read,
// write, edit, list, search, fetch).
type Tier int

const (
	TierDeny Tier = iota
	TierAsk
	TierAllow
	TierSession  // ask once; allowed for the rest of the session once it ran
	TierInternal // acts only inside the agent (its task list, a question to the user): allowed, also in read-only mode
	TierShell    // runs a shell command: each of its commands is checked
	TierRead     // reads a file: the path must not be secret
	TierWrite    // writes a file: the path must be writable and not protected
	TierEdit     // edits a file in place: as write
	TierList     // lists names under a directory: the directory must not be secret
	TierSearch   // searches the files under a path: the path must not be secret
	TierFetch    // fetches a URL: the [fetch] table decides
)

// tierNames are the [tools] values, in the order of the Tier constants.
var tierNames = [...]string{"deny", "ask", "allow", "session", "internal", "shell", "read", "write", "edit", "list", "search", "fetch"}

// String returns the tier as a policy file writes it.
func (t Tier) String() string {
	if int(t) < len(tierNames) {
		return tierNames[t]
	}
	return "deny"
}

// IsKind reports whether the tier names a kind of call, judged by its input,
// rather than a verdict for the tool.
func (t Tier) IsKind() bool { return t >= TierShell }

// ReadOnly reports whether read-only mode may allow a tool of this tier:
// it reads or lists files, or acts only inside the agent. Its input must
// still pass (a read of a secret is denied), and a shell tool may run in
// read-only mode only where the policy allows read-only shell commands.
func (t Tier) ReadOnly() bool {
	return t == TierInternal || t == TierRead || t == TierList || t == TierSearch
}

func parseTier(s string) (Tier, error) {
	for i, n := range tierNames {
		if n == s {
			return Tier(i), nil
		}
	}
	if s == "paths" {
		return TierDeny, fmt.Errorf(`tool tier "paths" is gone: name the kind of call the tool makes: read, write, edit, list or search`)
	}
	return TierDeny, fmt.Errorf("unknown tool tier %q (want allow, session, ask, deny, internal, or a kind: shell, read, write, edit, list, search, fetch)", s)
}

type toolGlob struct {
	pattern string
	tier    Tier
}

type envPolicy struct {
	Allow []string // names or path.Match patterns
	deny  []envDeny
}

type envDeny struct {
	names  []string
	reason string
}

// fetchPolicy is the [fetch] table: which URLs a call of kind fetch may
// fetch. A URL is matched without its query and fragment.
type fetchPolicy struct {
	Allow    []string // doublestar patterns of URLs: https://go.dev/**
	Unlisted Verdict  // a URL no pattern matches; deny unless the policy says
}

type redirectPolicy struct {
	Allow        []string // targets always allowed
	Read         Verdict  // < from a file
	Write        Verdict  // > to a file in the project
	WriteOutside Verdict  // > to a file outside the project
}

// Example is a command that a policy rule says must get a verdict.
type Example struct {
	Line    int     // the line of the rule's examples in the policy file, or 0
	Rule    string  // the id of the rule that gives it
	Command string  // a Bash command line
	Want    Verdict // the verdict it must get
	key     []string
}

// Name returns where the policy came from: a file name, or "default" for
// the embedded default policy.
func (p *Policy) Name() string {
	if p == nil {
		return ""
	}
	return p.name
}

// Examples returns the examples that the policy's rules carry.
func (p *Policy) Examples() []Example {
	if p == nil || !p.ok {
		return nil
	}
	p.CompileAll()
	p.mu.Lock()
	out := slices.Clone(p.examples)
	p.mu.Unlock()
	p.exampleLines(out)
	return out
}

// exampleLines sets the lines of examples, from the policy's source.
func (p *Policy) exampleLines(exs []Example) {
	if p.exampleLine != nil {
		for i := range exs {
			exs[i].Line = p.exampleLine(exs[i].key)
		}
		return
	}
	ix := indexKeys(p.src)
	for i := range exs {
		exs[i].Line, _ = ix.pos(exs[i].key)
	}
}

// LoadUnchecked reads, checks and compiles a TOML policy. Name is used in error
// messages, which have the form "name:line: message"; every error is an
// [*Error]. It does not decide the policy's examples: Load does.
func LoadUnchecked(name string, r io.Reader) (*Policy, error) {
	src, err := io.ReadAll(io.LimitReader(r, maxPolicyBytes+1))
	if err != nil {
		return nil, &Error{File: name, Msg: fmt.Sprintf("reading policy: %v", err)}
	}
	if len(src) > maxPolicyBytes {
		return nil, &Error{File: name, Msg: fmt.Sprintf("policy is larger than %d bytes", maxPolicyBytes)}
	}
	pf, err := decodeFile(name, src)
	if err != nil {
		return nil, err
	}
	rules := mapSource(pf.Command, true)
	if pf.Extends != "" {
		base, baseRules, err := builtin(pf.Extends, 0)
		if err != nil {
			return nil, keyErrorf(name, indexKeys(src), []string{"extends"}, "extends = %q: %v", pf.Extends, err)
		}
		pf, rules = extend(base, baseRules, pf)
	}
	p, err := compile(name, pf, rules, src)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Profiles lists the built-in policies a policy can extend.
func Profiles() []string { return []string{"default", "readonly", "review", "refactor"} }

// builtin returns a built-in policy, with the profiles laid over the default.
func builtin(name string, depth int) (*policyFile, ruleSource, error) {
	if name == "default" {
		return &defaultPolicyFile, defaultRules(), nil
	}
	pf, ok := profileFile(name)
	if !ok || depth > 4 {
		return nil, ruleSource{}, fmt.Errorf("there is no built-in policy %q (want one of %s)", name, strings.Join(Profiles(), ", "))
	}
	base, baseRules, err := builtin(pf.Extends, depth+1)
	if err != nil {
		return nil, ruleSource{}, err
	}
	out, rules := extend(base, baseRules, &pf)
	// A profile's rules are built-in like the default's: compiled when used.
	rules.eager = func(string) bool { return false }
	return out, rules, nil
}

// Builtin returns a built-in policy by name: "default", or a profile. An
// unknown name is a plain error, not an [*Error]: there is no policy to
// point into.
func Builtin(name string) (*Policy, error) {
	if name == "default" {
		return Default()
	}
	pf, rules, err := builtin(name, 0)
	if err != nil {
		return nil, err
	}
	return compile(name, pf, rules, []byte(profileSource(name)))
}

// defaultRules is the command rules of the embedded default policy, from
// its generated form.
func defaultRules() ruleSource {
	return ruleSource{names: defaultCommandNames, rule: defaultCommand, eager: func(string) bool { return false }}
}

// maxPolicyBytes bounds a policy file: a policy is written by hand.
const maxPolicyBytes = 1 << 20 // 1 MiB

var (
	defaultOnce   sync.Once
	defaultPolicy *Policy
	defaultErr    error
)

// Default returns the embedded default policy. Its rules are compiled when
// a call first names them, and checked by the tests, so that loading it
// costs microseconds.
func Default() (*Policy, error) {
	defaultOnce.Do(func() {
		// The binary does not carry default.toml: its rules' errors have no
		// line (the tests compile every one), and its examples' lines were
		// found when it was generated.
		defaultPolicy, defaultErr = compile("default", &defaultPolicyFile, defaultRules(), nil)
		if defaultPolicy != nil {
			defaultPolicy.exampleLine = func(key []string) int { return defaultExampleLine(strings.Join(key, pathSep)) }
		}
	})
	return defaultPolicy, defaultErr
}

// extend returns the policy top laid over base: top's tools, shell
// constructs and redirect settings override base's; its env lists add to
// base's; a command rule in top replaces base's rule for that command
// whole. The examples of base are dropped: top's changes may rightly
// change their verdicts, and base's own tests check them. Top's rules are
// compiled and checked at load, base's when a call names them.
func extend(base *policyFile, baseRules ruleSource, top *policyFile) (*policyFile, ruleSource) {
	out := *top
	out.Extends = ""
	if out.Default == "" {
		out.Default = base.Default
	}
	// Read-only mode, once on, stays on; protected and secret paths only grow.
	out.ReadOnly = base.ReadOnly || top.ReadOnly
	out.ReadOnlyShell = base.ReadOnlyShell || top.ReadOnlyShell
	out.Paths = base.Paths
	if top.Paths.Writable != nil {
		out.Paths.Writable = top.Paths.Writable
	}
	out.Paths.Protected = append(slices.Clone(base.Paths.Protected), top.Paths.Protected...)
	out.Paths.Secret = append(slices.Clone(base.Paths.Secret), top.Paths.Secret...)
	if top.Paths.Write != "" {
		out.Paths.Write = top.Paths.Write
	}
	if top.Paths.Read != "" {
		out.Paths.Read = top.Paths.Read
	}
	out.Tools = mergeMaps(base.Tools, top.Tools)
	out.Shell = mergeMaps(base.Shell, top.Shell)
	out.Env = envFile{
		Allow: append(slices.Clone(base.Env.Allow), top.Env.Allow...),
		Deny:  append(slices.Clone(base.Env.Deny), top.Env.Deny...),
	}
	out.Redirect = base.Redirect
	out.Fetch = base.Fetch
	if top.Fetch.Allow != nil {
		out.Fetch.Allow = top.Fetch.Allow
	}
	if top.Fetch.Unlisted != "" {
		out.Fetch.Unlisted = top.Fetch.Unlisted
	}
	if top.Redirect.Allow != nil {
		out.Redirect.Allow = top.Redirect.Allow
	}
	for _, f := range []struct{ dst, src *string }{
		{&out.Redirect.Read, &top.Redirect.Read},
		{&out.Redirect.Write, &top.Redirect.Write},
		{&out.Redirect.WriteOutside, &top.Redirect.WriteOutside},
	} {
		if *f.src != "" {
			*f.dst = *f.src
		}
	}
	out.Command = nil
	names := append(slices.Clone(baseRules.names), sortedKeys(top.Command)...)
	slices.Sort(names)
	rules := ruleSource{
		names: slices.Compact(names),
		rule: func(name string) (ruleFile, bool) {
			if rf, ok := top.Command[name]; ok {
				return rf, true
			}
			rf, ok := baseRules.rule(name)
			return withoutExamples(rf), ok
		},
		eager: func(name string) bool {
			_, ok := top.Command[name]
			return ok
		},
	}
	return &out, rules
}

func mergeMaps(base, top map[string]string) map[string]string {
	out := make(map[string]string, len(base)+len(top))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range top {
		out[k] = v
	}
	return out
}

// withoutExamples copies a rule and its subcommands without their examples.
func withoutExamples(rf ruleFile) ruleFile {
	rf.Examples = examplesFile{}
	if rf.lazy != nil {
		src := *rf.lazy
		rf.lazy = &subSource{names: src.names, get: func(name string) (ruleFile, bool) {
			sub, ok := src.get(name)
			return withoutExamples(sub), ok
		}}
	}
	if rf.Sub != nil {
		subs := make(map[string]ruleFile, len(rf.Sub))
		for k, v := range rf.Sub {
			subs[k] = withoutExamples(v)
		}
		rf.Sub = subs
	}
	if rf.Rest != nil {
		rest := withoutExamples(*rf.Rest)
		rf.Rest = &rest
	}
	return rf
}

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
	p := &Policy{name: name, src: src, rules: rules, comp: c, tools: map[string]Tier{}, Shell: map[shellparse.Kind]Verdict{},
		commands: map[string]*Rule{}, broken: map[string]error{}}
	if pf.Version != 1 {
		return nil, c.errorf([]string{"version"}, "version = %d: this guard reads version 1 policies", pf.Version)
	}
	def, err := ParseVerdict(pf.Default)
	if err != nil || def == Allow {
		return nil, c.errorf([]string{"default"}, "default = %q: want ask or deny", pf.Default)
	}
	p.Default = def

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
				p.Dialect = shellparse.Bash
			case "sh", "posix":
				p.Dialect = shellparse.POSIX
			default:
				return nil, c.errorf([]string{"shell", key}, "dialect %q: want bash or sh", val)
			}
			continue
		}
		k := shellparse.Kind(key)
		if !slices.Contains(shellparse.AllKinds(), k) {
			return nil, c.errorf([]string{"shell", key}, "unknown shell construct %q", key)
		}
		v, err := ParseVerdict(val)
		if err != nil {
			return nil, c.errorf([]string{"shell", key}, "shell construct %q: %v", key, err)
		}
		if k.Fixed() && v != Deny {
			return nil, c.errorf([]string{"shell", key}, "shell construct %q runs code guard cannot check; it can only be denied", key)
		}
		p.Shell[k] = v
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
	if err := c.compilePaths(p, &pf.Paths); err != nil {
		return nil, err
	}
	p.readOnly, p.ReadOnlyShell = pf.ReadOnly, pf.ReadOnlyShell
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
	p.allowed = allowedSummary(p.commands)
	p.mu.Unlock()
	return errs
}

// sub returns the compiled subcommand name of n, compiling it on first use.
func (p *Policy) Sub(n *Rule, name string) (*Rule, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.comp.compileSub(p, n, name, false)
}

// allowedHint lists the programs the policy allows, for the hint after an
// unknown program.
func (p *Policy) AllowedHint() string {
	p.CompileAll()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.allowed
}

func (c *compiler) compilePaths(p *Policy, pf *pathsFile) error {
	for _, l := range []struct {
		key  string
		list []string
	}{{"writable", pf.Writable}, {"protected", pf.Protected}, {"secret", pf.Secret}} {
		for _, pat := range l.list {
			if !validPathPattern(pat) {
				return c.errorf([]string{"paths", l.key}, "paths %s: %q is not an absolute pattern (start it with /, ~, **/ or a placeholder such as {project})", l.key, pat)
			}
		}
	}
	p.Paths = pathPolicy{
		Writable:  defaultWritable,
		Protected: append(slices.Clone(defaultProtected), pf.Protected...),
		Secret:    append(slices.Clone(defaultSecret), pf.Secret...),
		Write:     p.Default,
		Read:      Allow,
	}
	if pf.Writable != nil {
		p.Paths.Writable = slices.Clone(pf.Writable)
	}
	p.Paths.literals = map[string]string{}
	for _, list := range [][]string{p.Paths.Writable, p.Paths.Protected, p.Paths.Secret} {
		for _, pat := range list {
			p.Paths.literals[pat] = LiteralRun(pat)
		}
	}
	for _, v := range []struct {
		key string
		s   string
		dst *Verdict
	}{{"write", pf.Write, &p.Paths.Write}, {"read", pf.Read, &p.Paths.Read}} {
		if v.s == "" {
			continue
		}
		verdict, err := ParseVerdict(v.s)
		if err != nil {
			return c.errorf([]string{"paths", v.key}, "paths %s: %v", v.key, err)
		}
		*v.dst = verdict
	}
	return nil
}

// file returns the policy's file name when it came from a file, or "".
func (p *Policy) File() string {
	if path.IsAbs(p.name) {
		return p.name
	}
	return ""
}

// ReadOnly reports whether the policy puts calls in read-only mode.
func (p *Policy) ReadOnly() bool { return p != nil && p.readOnly }

// Trusts reports whether the policy trusts a project policy whose sha256
// digest, in hex, is sum.
func (p *Policy) Trusts(sum string) bool {
	return p != nil && slices.Contains(p.trust, strings.ToLower(sum))
}

func (c *compiler) compileEnv(p *Policy, ef *envFile) error {
	seen := map[string]bool{}
	for _, n := range ef.Allow {
		if !validEnvPattern(n) {
			return c.errorf([]string{"env", "allow"}, "env allow: %q is not a variable name or pattern", n)
		}
		seen[n] = true
	}
	p.Env.Allow = slices.Clone(ef.Allow)
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
		p.Env.deny = append(p.Env.deny, envDeny{names: slices.Clone(d.Names), reason: d.Reason})
	}
	return nil
}

func (c *compiler) compileFetch(p *Policy, ff *fetchFile) error {
	p.Fetch.Unlisted = Deny
	if ff.Unlisted != "" {
		v, err := ParseVerdict(ff.Unlisted)
		if err != nil {
			return c.errorf([]string{"fetch", "unlisted"}, "fetch unlisted: %v", err)
		}
		p.Fetch.Unlisted = v
	}
	for _, a := range ff.Allow {
		if !(strings.HasPrefix(a, "https://") || strings.HasPrefix(a, "http://")) || !doublestar.ValidatePattern(a) {
			return c.errorf([]string{"fetch", "allow"}, "fetch allow: %q is not a pattern of http or https URLs", a)
		}
	}
	p.Fetch.Allow = slices.Clone(ff.Allow)
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
	if p.Redirect.Read, err = verdict("read", rf.Read, p.Default); err != nil {
		return err
	}
	if p.Redirect.Write, err = verdict("write", rf.Write, p.Default); err != nil {
		return err
	}
	if p.Redirect.WriteOutside, err = verdict("write_outside", rf.WriteOutside, Deny); err != nil {
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
	p.Redirect.Allow = slices.Clone(rf.Allow)
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

// allowedSummary lists the programs (and git-style subcommands) that a
// policy allows, for the hint that follows a deny.
func allowedSummary(cmds map[string]*Rule) string {
	var parts []string
	for _, name := range sortedKeys(cmds) {
		n := cmds[name]
		if n.HasSubs() {
			var subs []string
			for _, s := range sortedKeys(n.subs) {
				if n.subs[s].HasVerdict && n.subs[s].Verdict == Allow {
					subs = append(subs, s)
				}
			}
			if len(subs) > 0 {
				parts = append(parts, name+" "+strings.Join(subs, "|"))
			}
			continue
		}
		if n.HasVerdict && n.Verdict == Allow && n.Wrap == nil && n.Shell == "" {
			parts = append(parts, name)
		}
	}
	return strings.Join(parts, ", ")
}

// ToolTier finds the tier of a tool: its exact name first, then the
// strictest of the patterns that match it, then the policy default.
func (p *Policy) ToolTier(name string) (Tier, string) {
	if t, ok := p.tools[name]; ok {
		return t, "tools." + name
	}
	found, best, rule := false, TierAllow, ""
	for _, g := range p.toolGlobs {
		if ok, _ := path.Match(g.pattern, name); ok {
			if !found || tierRank(g.tier) < tierRank(best) {
				best, rule = g.tier, "tools."+g.pattern
			}
			found = true
		}
	}
	if found {
		return best, rule
	}
	return TierDeny, "" // the caller applies the default
}

// tierRank orders tiers by how much they allow; a kind decides by the
// call's input, so it ranks between session and allow.
func tierRank(t Tier) int {
	switch t {
	case TierDeny:
		return 0
	case TierAsk:
		return 1
	case TierSession:
		return 2
	case TierInternal, TierAllow:
		return 4
	}
	return 3 // a kind: decided by the input
}

func (p *Policy) EnvVerdict(name string) (Verdict, string, string) {
	for _, dn := range p.Env.deny {
		for _, pat := range dn.names {
			if ok, _ := path.Match(pat, name); ok {
				return Deny, "env.deny " + pat, fmt.Sprintf("setting %s is not allowed: %s", name, dn.reason)
			}
		}
	}
	for _, pat := range p.Env.Allow {
		if ok, _ := path.Match(pat, name); ok {
			return Allow, "env.allow " + pat, fmt.Sprintf("setting %s is allowed", name)
		}
	}
	return p.Default, "", fmt.Sprintf("variable %s is not in the policy's [env] allow list", name)
}

// command finds the rule for a program name: the exact name, else the name
// in lower case (on case-insensitive file systems, as on macOS, RM runs rm),
// else the longest pattern that matches (mkfs.*).
func (p *Policy) Command(name string) (*Rule, error) {
	if n, err := p.compileRule(name, false); n != nil || err != nil {
		return n, err
	}
	lower := strings.ToLower(name)
	if lower != name {
		if n, err := p.compileRule(lower, false); n != nil || err != nil {
			return n, err
		}
	}
	var best string
	for _, pat := range p.commandGlobs {
		if ok, _ := path.Match(pat, lower); ok && len(pat) > len(best) {
			best = pat
		}
	}
	if best != "" {
		return p.compileRule(best, false)
	}
	return nil, nil
}

// why describes a node's own verdict.
func (n *Rule) Why(v Verdict) string {
	if n.reason != "" {
		return fmt.Sprintf("%s: %s", n.ID, n.reason)
	}
	switch v {
	case Allow:
		return fmt.Sprintf("%s is allowed", n.ID)
	case Ask:
		return fmt.Sprintf("%s needs approval", n.ID)
	}
	return fmt.Sprintf("%s is not allowed by policy", n.ID)
}

func (n *Rule) OptionHint() string {
	list := n.acceptedList()
	if len(list) == 0 {
		return fmt.Sprintf("%s takes no options", n.ID)
	}
	const max = 40
	more := ""
	if len(list) > max {
		more = fmt.Sprintf(" and %d more", len(list)-max)
		list = list[:max]
	}
	return fmt.Sprintf("%s accepts: %s%s", n.ID, strings.Join(list, ", "), more)
}

// isOption reports whether a word is an option in the node's style.
func (n *Rule) IsOption(s string) bool {
	if len(s) < 2 || n.Style == styleNone {
		return false
	}
	if s[0] == '+' {
		return n.Options["+"] != nil
	}
	return s[0] == '-'
}

// Loaded reports whether p is a compiled policy: a nil or zero Policy
// denies every call.
func (p *Policy) Loaded() bool { return p != nil && p.ok }

// OwnExamples returns the examples of the rules compiled at load: the
// policy file's own, not those of a built-in policy it extends.
func (p *Policy) OwnExamples() []Example {
	if !p.Loaded() {
		return nil
	}
	p.mu.Lock()
	out := slices.Clone(p.examples)
	p.mu.Unlock()
	p.exampleLines(out)
	return out
}
