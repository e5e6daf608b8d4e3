// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

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
	return load(name, src, pf, mapSource(pf.Command, true))
}

// load builds the policy of a decoded file whose command rules are own:
// the built-in policy it extends and the packs it includes under it.
func load(name string, src []byte, pf *policyFile, own ruleSource) (*Policy, error) {
	rules := own
	packs := pf.Include
	if pf.Extends != "" || len(packs) > 0 {
		// The base: the built-in policy the file extends, or none; the
		// packs over it; the file over both.
		base, baseRules := &policyFile{}, mapSource(nil, false)
		var err error
		if pf.Extends != "" {
			base, baseRules, err = builtin(pf.Extends, 0)
			if err != nil {
				return nil, keyErrorf(name, indexKeys(src), []string{"extends"}, "extends = %q: %v", pf.Extends, err)
			}
		}
		if len(packs) > 0 {
			if baseRules, err = includePacks(baseRules, packs); err != nil {
				return nil, keyErrorf(name, indexKeys(src), []string{"include"}, "include: %v", err)
			}
		}
		pf, rules = extend(base, baseRules, pf, own)
	}
	p, err := compile(name, pf, rules, src)
	if err != nil {
		return nil, err
	}
	p.packs = slices.Clone(packs)
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
	out, rules := extend(base, baseRules, &pf, mapSource(pf.Command, false))
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
// compiled and checked at load, base's when a call names them. The
// examples of the rules a pack gave base are kept: the including policy's
// tests decide them, as guard test does.
func extend(base *policyFile, baseRules ruleSource, top *policyFile, topRules ruleSource) (*policyFile, ruleSource) {
	out := *top
	out.Extends, out.Include = "", nil
	if out.Default == "" {
		out.Default = base.Default
	}
	// Read-only mode, once on, stays on; protected and secret paths only grow.
	out.ReadOnly = base.ReadOnly || top.ReadOnly
	out.ReadOnlyShell = base.ReadOnlyShell || top.ReadOnlyShell
	out.LogRequired = base.LogRequired || top.LogRequired
	out.Paths = base.Paths
	if top.Paths.Writable != nil {
		out.Paths.Writable = top.Paths.Writable
	}
	out.Paths.Protected = append(slices.Clone(base.Paths.Protected), top.Paths.Protected...)
	out.Paths.Secret = append(slices.Clone(base.Paths.Secret), top.Paths.Secret...)
	out.Secret = append(slices.Clone(base.Secret), top.Secret...)
	if top.Paths.Write != "" {
		out.Paths.Write = top.Paths.Write
	}
	if top.Paths.Grant != "" {
		out.Paths.Grant = top.Paths.Grant
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
	// The sandbox, once on, stays on.
	out.Grants = base.Grants
	if top.Grants.Idle != "" {
		out.Grants.Idle = top.Grants.Idle
	}
	out.Sandbox = sandboxFile{Run: base.Sandbox.Run || top.Sandbox.Run, Require: base.Sandbox.Require || top.Sandbox.Require,
		Profiles: mergeProfiles(base.Sandbox.Profiles, top.Sandbox.Profiles)}
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
	names := append(slices.Clone(baseRules.names), topRules.names...)
	slices.Sort(names)
	rules := ruleSource{
		names: slices.Compact(names),
		rule: func(name string) (ruleFile, bool) {
			if rf, ok := topRules.rule(name); ok {
				return rf, true
			}
			rf, ok := baseRules.rule(name)
			return withoutExamples(rf), ok
		},
		eager: func(name string) bool {
			_, ok := slices.BinarySearch(topRules.names, name)
			return ok && topRules.eager(name)
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

// mergeProfiles returns base's sandbox profiles with top's laid over them,
// by name.
func mergeProfiles(base, top map[string]sandboxProfileFile) map[string]sandboxProfileFile {
	if len(base) == 0 && len(top) == 0 {
		return nil
	}
	out := make(map[string]sandboxProfileFile, len(base)+len(top))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range top {
		out[k] = v
	}
	return out
}

// withoutExamples copies a rule and its subcommands without their
// examples, but for those of the rules a pack gave.
func withoutExamples(rf ruleFile) ruleFile {
	return mapRule(rf, func(rf ruleFile) ruleFile {
		if rf.origin == "" {
			rf.Examples = examplesFile{}
		}
		return rf
	})
}
