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
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"guard/shellparse"
)

// Policy is a compiled policy. It is immutable and safe for concurrent use.
type Policy struct {
	name      string
	fallback  Verdict // what no rule decides gets; DefaultVerdict
	tools     map[string]Tier
	toolGlobs []toolGlob
	shell     map[shellparse.Kind]Verdict
	dialect   shellparse.Dialect
	env       envPolicy
	redirect  redirectPolicy
	fetch     fetchPolicy
	paths     pathPolicy
	sandbox   sandboxPolicy
	// grantIdle is how long a grant of the session tier lasts unused; 0
	// leaves it to guard (an hour).
	grantIdle     time.Duration
	readOnly      bool     // read-only mode, whatever the call says
	readOnlyShell bool     // in read-only mode, read-only shell commands may run
	logRequired   bool     // a call whose decision cannot be logged is denied
	trust         []string // sha256 digests of project policies this (user) policy trusts
	rules         ruleSource
	commandGlobs  []string // names of rules that are patterns (mkfs.*)
	comp          *compiler
	src           []byte                 // the policy's source, for the lines of examples
	exampleLine   func(key []string) int // the lines of examples, for a policy without its source
	packs         []string               // the packs the policy includes, in order
	ok            bool                   // set by compile: the zero Policy denies

	// Command rules are compiled when a call first names them, so that a
	// hook pays only for the programs it sees. mu guards what follows.
	mu       sync.Mutex
	commands map[string]*Rule
	broken   map[string]error
	examples []Example
	all      bool     // every rule is compiled
	allowed  []string // the programs allowed without asking, for hints
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

// sandboxPolicy is the compiled [sandbox] table.
type sandboxPolicy struct {
	// Run is what every policy does now: an allowed shell command is
	// rewritten to run under guard run, in the profile its parts need. It
	// is kept so that the files that say it still load.
	Run bool
	// Require: where the kernel cannot confine it, an allowed shell
	// command is asked instead; otherwise it runs as the hook judged it
	// (a part allowed only in the sandbox asks whatever Require says).
	Require bool
	// Profiles are the policy's own, by name ([sandbox.NAME]).
	Profiles map[string]SandboxProfile
}

// SandboxProfile is what a command allowed in a profile of the policy may
// reach beyond the build profile's grants.
type SandboxProfile struct {
	Read, Write []string // paths: absolute, ~/..., or under {project}, {tmp} or {home}
	Ports       []uint16 // TCP ports it may connect to
	Env         map[string]string
}

// builtinProfile reports whether name is a built-in sandbox profile.
func builtinProfile(name string) bool {
	return name == "read-only" || name == "build" || name == "test"
}

// Example is a command that a policy rule says must get a verdict.
type Example struct {
	// File is the file that holds the rule when it is not the policy's
	// own: packs/NAME.toml for a rule an included pack gave.
	File    string
	Line    int     // the line of the rule's examples in the policy file (or File), or 0
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

// exampleLines sets the lines of examples, from the policy's source, or
// from the pack's that gave the rule.
func (p *Policy) exampleLines(exs []Example) {
	var ix *keyIndex
	packs := map[string]*keyIndex{}
	for i := range exs {
		ex := &exs[i]
		switch {
		case ex.File != "":
			if packs[ex.File] == nil {
				packs[ex.File] = indexKeys(packSource(packName(ex.File)))
			}
			ex.Line, _ = packs[ex.File].pos(ex.key)
		case p.exampleLine != nil:
			ex.Line = p.exampleLine(ex.key)
		default:
			if ix == nil {
				ix = indexKeys(p.src)
			}
			ex.Line, _ = ix.pos(ex.key)
		}
	}
}

// Included returns the packs the policy includes, in the order it names
// them.
func (p *Policy) Included() []string {
	if p == nil {
		return nil
	}
	return slices.Clone(p.packs)
}

// UnknownCommandHint is the hint for a command no rule names: ask, or
// add a rule; and the allowed commands whose names are near enough to be
// what was meant (gti, gerp), never the whole list.
func (p *Policy) UnknownCommandHint(name string) string {
	p.CompileAll()
	p.mu.Lock()
	allowed := p.allowed
	p.mu.Unlock()
	hint := fmt.Sprintf("no rule of the policy names %s: ask the user to approve it, or to add a rule for it", name)
	if len(allowed) == 0 {
		return hint
	}
	var near []string
	for _, a := range Nearest(name, allowed, 3) {
		first, _, _ := strings.Cut(a, " ")
		if d := editDistance(name, first); d <= max(1, len(name)/3) && d < len(first) {
			if _, subs, ok := strings.Cut(a, " "); ok && strings.Count(subs, "|") >= 4 {
				a = first + " " + strings.Join(strings.Split(subs, "|")[:4], "|") + "|..."
			}
			near = append(near, a)
		}
	}
	if len(near) > 0 {
		return fmt.Sprintf("the policy allows %s without asking; %s", strings.Join(near, ", "), hint)
	}
	return hint
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

func (p *Policy) EnvVerdict(name string) (Verdict, string, string) {
	for _, dn := range p.env.deny {
		for _, pat := range dn.names {
			if ok, _ := path.Match(pat, name); ok {
				return Deny, "env.deny " + pat, fmt.Sprintf("setting %s is not allowed: %s", name, dn.reason)
			}
		}
	}
	for _, pat := range p.env.Allow {
		if ok, _ := path.Match(pat, name); ok {
			return Allow, "env.allow " + pat, fmt.Sprintf("setting %s is allowed", name)
		}
	}
	return p.fallback, "", fmt.Sprintf("variable %s is not in the policy's [env] allow list", name)
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
