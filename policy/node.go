// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Rule is a compiled command rule: a program, or one of its subcommands.
type Rule struct {
	id           string // "git log", or the rule's own id
	verdict      Verdict
	hasVerdict   bool
	reason       string
	hint         string
	style        style
	options      map[string]*Option
	digits       bool // -NUM is accepted (head -5, git log -3)
	args         argsKind
	argsWith     []string // operands are allowed only with one of these options
	maxArgs      int      // 0: no limit
	globs        bool
	unknown      Verdict  // for an unknown option, a dynamic word, a glob where none is allowed
	require      []string // at least one of these options must be present
	children     []string // programs it may start itself: base-name or path patterns
	readOnly     bool     // it neither writes files nor runs other code (read-only mode may allow it)
	pathMode     string   // its operands are paths it reads ("read"), writes ("write"), or reads and then writes the last ("copy")
	writesCwd    bool     // without an output option it writes a file named after its operand into its working directory (go build)
	config       string   // "git", "go" or "rust": the configuration it reads where it runs (the repository, go.mod's toolchain, rustup's toolchain file), which guard checks
	revPaths     bool     // its operands are revisions, REV:PATH and paths whose contents git prints from its object store
	anyValue     bool     // any value of its operands is harmless: $(...) of an allowed command, or a read-only variable, may give them
	script       string   // "sed" or "awk": the program it runs (sed's -e scripts, else the first operand) is read by guard, and allowed only when it only reads its input and prints
	recursive    *recursion
	optionsFirst bool // options end at the first operand (xxd, POSIX getopt)
	escalations  []*escalation
	subFiles     subSource        // subcommand rules, compiled when first named
	subKey       []string         // the policy key of this rule, for errors
	subs         map[string]*Rule // the compiled ones; guarded by Policy.mu
	rest         *Rule            // the arguments after --
	wrap         *wrapFile
	exec         map[string]bool // find -exec style: these options start a command ended by ; or +
	shell        string          // "bash" or "sh": -c SCRIPT is parsed and checked
	interp       bool            // without a script operand, it runs code from standard input
	sandbox      string          // the sandbox profile it is allowed in, "" when it needs none
	unbound      string          // why it runs outside the sandbox, "" when it runs in it
	// grant is what a grant of its session tier covers: GrantRule (every
	// call this rule decides, in the session) or GrantCall (the same
	// command line again).
	grant string
}

// What a grant of the session tier covers.
const (
	GrantRule = "rule" // the calls the same rule decides (git commit, with any message)
	GrantCall = "call" // the same command, word for word, in the same directory
	GrantDir  = "dir"  // writes by any file tool in the same directory and below
	GrantFile = "file" // writes to the same file
	GrantTool = "tool" // the tool, whatever its input
)

type style int

const (
	styleGNU  style = iota // -abc bundles, -ovalue, --long[=value], unique prefixes of long options
	StyleGo                // -name, --name, -name=value or -name value; no bundles, no prefixes
	StyleFind              // -name value; no bundles, no prefixes, no =
	styleNone              // no options: every word is an operand (echo)
)

type argsKind int

const (
	argsAny  argsKind = iota // operands of any constant value
	ArgsNone                 // no operands
	ArgsPath                 // constant paths inside the project
)

type valueKind int

const (
	ValueNone     valueKind = iota // a flag
	valueRequired                  // --opt=v, --opt v, -ov, -o v
	ValueOptional                  // --opt or --opt=v, -o or -ov
)

// Option is an option a rule knows: accepted, or named by an escalation.
type Option struct {
	name     string
	value    valueKind
	typ      string   // any, int, dir, path
	values   []string // if set, the value must be one of these
	accepted bool     // listed in flags or options; otherwise only an escalation names it
}

// escalation makes a command stricter when a flag is present or an operand
// matches a pattern.
type escalation struct {
	id      string
	verdict Verdict
	reason  string
	hint    string
	flags   []string
	values  []string // patterns for the values of flags; empty: presence is enough
	args    []string // patterns: * matches any run of characters, ? one
}

var valueTypes = []string{"any", "int", "dir", "path", "write", "env"}

// compileNode compiles a rule. With eager set it compiles the rule's
// subcommands too, which checks them and collects their examples;
// otherwise they wait until a call names them.
func (c *compiler) compileNode(p *Policy, id string, parent *Rule, rf *ruleFile, key []string, eager bool) (*Rule, error) {
	if rf.Like != "" {
		merged, err := c.like(rf, key, 0)
		if err != nil {
			return nil, err
		}
		rf = merged
	}
	n := &Rule{id: id, options: make(map[string]*Option, len(rf.Flags)+len(rf.Options)), reason: rf.Reason, hint: rf.Hint, globs: rf.Globs, writesCwd: rf.WritesCwd, config: rf.Config, revPaths: rf.RevPaths, optionsFirst: rf.OptionsFirst, script: rf.Script, anyValue: rf.AnyValue}
	if rf.Recursive || len(rf.RecursiveWith) > 0 {
		n.recursive = &recursion{always: rf.Recursive, with: rf.RecursiveWith, hiddenWith: rf.HiddenWith, patternFirst: rf.PatternFirst}
	}
	if rf.ID != "" {
		if where, dup := c.ids[rf.ID]; dup {
			return nil, c.ruleErrorf(id, key, "id %q is already used by %s", rf.ID, where)
		}
		c.ids[rf.ID] = id
		n.id = rf.ID
	}
	if err := c.compileVerdicts(p, n, parent, rf, key); err != nil {
		return nil, err
	}
	if err := c.compileArgs(n, rf, key); err != nil {
		return nil, err
	}
	if err := c.compileOptions(n, rf, key); err != nil {
		return nil, err
	}
	if err := c.compileEscalations(n, rf, key); err != nil {
		return nil, err
	}
	if err := c.compileArgsWith(n, rf, key); err != nil {
		return nil, err
	}
	if err := c.compileEffects(p, n, parent, id, rf, key); err != nil {
		return nil, err
	}
	if err := c.compileRuns(n, rf, key); err != nil {
		return nil, err
	}
	if err := c.compileNested(p, n, rf, key, eager); err != nil {
		return nil, err
	}
	if !n.hasVerdict && !rf.hasSubs() {
		return nil, c.ruleErrorf(n.id, key, "no verdict: the rule matches nothing")
	}
	if rf.hasSubs() && n.args == ArgsNone {
		return nil, c.ruleErrorf(n.id, append(key, "args"), "args = \"none\" leaves no room for a subcommand")
	}

	exs := []struct {
		list []string
		want Verdict
	}{{rf.Examples.Allow, Allow}, {rf.Examples.Ask, Ask}, {rf.Examples.Deny, Deny}}
	for _, ex := range exs {
		for _, cmd := range ex.list {
			p.examples = append(p.examples, Example{File: rf.origin, Rule: n.id, Command: cmd, Want: ex.want, key: append(slices.Clone(key), "examples")})
		}
	}
	return n, nil
}

// The helpers of compileNode, in the order it calls them, each compiling
// a group of a rule's keys into n. The order is kept: the first error by
// it is the one a rule reports.

// compileVerdicts compiles verdict and unknown; unknown is the parent's,
// and the policy's default verdict at the top, unless the rule says.
func (c *compiler) compileVerdicts(p *Policy, n, parent *Rule, rf *ruleFile, key []string) error {
	if rf.Verdict != "" {
		v, err := ParseVerdict(rf.Verdict)
		if err != nil {
			return c.ruleErrorf(n.id, append(key, "verdict"), "%v", err)
		}
		n.verdict, n.hasVerdict = v, true
	}
	n.unknown = p.fallback
	if parent != nil {
		n.unknown = parent.unknown
	}
	if rf.Unknown != "" {
		v, err := ParseVerdict(rf.Unknown)
		if err != nil || v == Allow || v == Session {
			return c.ruleErrorf(n.id, append(key, "unknown"), "unknown = %q: want ask or deny", rf.Unknown)
		}
		n.unknown = v
	}
	return nil
}

// compileArgs compiles style, args and max_args: how the command's words
// split into options and operands, and how many operands it takes.
func (c *compiler) compileArgs(n *Rule, rf *ruleFile, key []string) error {
	switch rf.Style {
	case "", "gnu":
		n.style = styleGNU
	case "go":
		n.style = StyleGo
	case "find":
		n.style = StyleFind
	case "none":
		n.style = styleNone
		if len(rf.Flags) > 0 || len(rf.Options) > 0 || len(rf.Require) > 0 {
			return c.ruleErrorf(n.id, append(key, "style"), "style = \"none\" takes no options, but flags or options are listed")
		}
	default:
		return c.ruleErrorf(n.id, append(key, "style"), "style %q: want gnu, go, find or none", rf.Style)
	}
	switch rf.Args {
	case "", "any":
		n.args = argsAny
	case "none":
		n.args = ArgsNone
		if rf.MaxArgs != 0 {
			return c.ruleErrorf(n.id, append(key, "max_args"), "max_args with args = \"none\" can never match")
		}
	case "path":
		n.args = ArgsPath
	default:
		return c.ruleErrorf(n.id, append(key, "args"), "args = %q: want any, none or path", rf.Args)
	}
	if rf.MaxArgs < 0 {
		return c.ruleErrorf(n.id, append(key, "max_args"), "max_args = %d: want a positive number", rf.MaxArgs)
	}
	n.maxArgs = rf.MaxArgs
	return nil
}

// compileOptions compiles flags and options: the options the command
// accepts, and the values they take.
func (c *compiler) compileOptions(n *Rule, rf *ruleFile, key []string) error {
	for _, f := range rf.Flags {
		if f == "-#" {
			n.digits = true
			continue
		}
		if err := n.addOption(f, ValueNone, "", nil, true); err != nil {
			return c.ruleErrorf(n.id, append(key, "flags"), "%v", err)
		}
	}
	for _, name := range sortedKeys(rf.Options) {
		spec := rf.Options[name]
		kind, vtype := valueRequired, "any"
		if len(spec.Values) == 0 {
			vtype = spec.Type
			if strings.HasSuffix(vtype, "?") {
				kind, vtype = ValueOptional, strings.TrimSuffix(vtype, "?")
			}
			if !slices.Contains(valueTypes, vtype) {
				return c.ruleErrorf(n.id, append(key, "options", name), "option %s: value type %q: want one of %s, a trailing ? for an optional value, or a list of values", name, spec.Type, strings.Join(valueTypes, ", "))
			}
		}
		if err := n.addOption(name, kind, vtype, spec.Values, true); err != nil {
			return c.ruleErrorf(n.id, append(key, "options", name), "%v", err)
		}
	}
	return nil
}

// compileEscalations compiles deny, ask and session: the uses of the
// command that get a stricter verdict than its own.
func (c *compiler) compileEscalations(n *Rule, rf *ruleFile, key []string) error {
	for _, group := range []struct {
		list    []escalationFile
		verdict Verdict
		key     string
	}{{rf.Deny, Deny, "deny"}, {rf.Ask, Ask, "ask"}, {rf.Session, Session, "session"}} {
		for i, ef := range group.list {
			e, err := c.compileEscalation(n, ef, group.verdict, i)
			if err != nil {
				return c.ruleErrorf(n.id, append(key, group.key), "%v", err)
			}
			if len(e.args) > 0 && n.args == ArgsNone {
				return c.ruleErrorf(n.id, append(key, group.key), "%s rule matches operands, but the command takes none: it can never match", group.key)
			}
			n.escalations = append(n.escalations, e)
		}
	}
	return nil
}

// compileArgsWith compiles args_with: the options without one of which
// the command takes no operands.
func (c *compiler) compileArgsWith(n *Rule, rf *ruleFile, key []string) error {
	for _, a := range rf.ArgsWith {
		if o := n.options[a]; o == nil || !o.accepted {
			return c.ruleErrorf(n.id, append(key, "args_with"), "args_with %q: the option must be among the flags or options", a)
		}
		if n.args == ArgsNone {
			return c.ruleErrorf(n.id, append(key, "args_with"), "args_with with args = \"none\" can never match")
		}
		n.argsWith = append(n.argsWith, a)
	}
	return nil
}

// compileEffects compiles interpreter, sandbox, grant, read_only, config,
// script and paths: what the command reaches, where it runs, and what a
// grant of it covers. The sandbox and the grant are the parent's unless
// the rule says; a rest (id "... --") of a read-only rule is read-only.
func (c *compiler) compileEffects(p *Policy, n, parent *Rule, id string, rf *ruleFile, key []string) error {
	n.interp = rf.Interpreter
	switch _, own := p.sandbox.Profiles[rf.Sandbox]; {
	case rf.Sandbox == "" || builtinProfile(rf.Sandbox) || own:
		n.sandbox = rf.Sandbox
	default:
		return c.ruleErrorf(n.id, append(key, "sandbox"), "sandbox = %q: want read-only, build, test or a profile of the policy's [sandbox]", rf.Sandbox)
	}
	switch rf.Grant {
	case "":
		n.grant = GrantRule
		if parent != nil {
			n.grant = parent.grant
		}
	case GrantRule, GrantCall:
		n.grant = rf.Grant
	default:
		return c.ruleErrorf(n.id, append(key, "grant"), "grant = %q: want rule or call", rf.Grant)
	}
	switch {
	case rf.Unbound != "" && rf.Sandbox != "":
		return c.ruleErrorf(n.id, append(key, "unbound"), "unbound with sandbox = %q: a command runs in the sandbox or outside it", rf.Sandbox)
	case rf.Unbound != "":
		n.unbound = rf.Unbound
	case rf.Sandbox == "" && parent != nil:
		n.unbound = parent.unbound
	}
	if n.sandbox == "" && n.unbound == "" && parent != nil {
		n.sandbox = parent.sandbox
	}
	n.readOnly = rf.ReadOnly || parent != nil && parent.readOnly && strings.HasSuffix(id, " --")
	if n.unbound != "" && n.readOnly {
		return c.ruleErrorf(n.id, append(key, "read_only"), "read_only, and it runs outside the sandbox (unbound): read-only mode runs every shell command in the read-only sandbox")
	}
	if rf.Config != "" && rf.Config != "git" && rf.Config != "go" && rf.Config != "rust" {
		return c.ruleErrorf(n.id, append(key, "config"), "config = %q: want git, go or rust", rf.Config)
	}
	if rf.Script != "" && rf.Script != "sed" && rf.Script != "awk" {
		return c.ruleErrorf(n.id, append(key, "script"), "script = %q: want sed or awk", rf.Script)
	}
	switch rf.Paths {
	case "", "read", "write", "copy":
		n.pathMode = rf.Paths
	default:
		return c.ruleErrorf(n.id, append(key, "paths"), "paths = %q: want read, write or copy", rf.Paths)
	}
	return nil
}

// compileRuns compiles children, require, exec and shell: the programs
// the command may start, the options it must have, and the options and
// the -c script that run another command.
func (c *compiler) compileRuns(n *Rule, rf *ruleFile, key []string) error {
	for _, ch := range rf.Children {
		if _, err := path.Match(ch, ""); err != nil || ch == "" {
			return c.ruleErrorf(n.id, append(key, "children"), "children: %q is not a valid pattern", ch)
		}
	}
	n.children = rf.Children
	for _, r := range rf.Require {
		if o := n.options[r]; o == nil || !o.accepted {
			return c.ruleErrorf(n.id, append(key, "require"), "require %q: the option must be among the flags or options", r)
		}
		n.require = append(n.require, r)
	}
	if len(rf.Exec) > 0 {
		n.exec = map[string]bool{}
		for _, e := range rf.Exec {
			if !strings.HasPrefix(e, "-") || n.options[e] != nil {
				return c.ruleErrorf(n.id, append(key, "exec"), "exec %q: want an option name that is not also a flag or option", e)
			}
			n.exec[e] = true
		}
	}
	switch rf.Shell {
	case "":
	case "bash", "sh":
		n.shell = rf.Shell
		if o := n.options["-c"]; o == nil || !o.accepted || o.value != ValueNone {
			return c.ruleErrorf(n.id, append(key, "shell"), "shell = %q needs -c among the flags", rf.Shell)
		}
	default:
		return c.ruleErrorf(n.id, append(key, "shell"), "shell = %q: want bash or sh", rf.Shell)
	}
	return nil
}

// compileNested compiles wrap, sub and rest: the command a wrapper runs,
// the subcommands (compiled now when eager, else when first named), and
// the rule of the arguments after --.
func (c *compiler) compileNested(p *Policy, n *Rule, rf *ruleFile, key []string, eager bool) error {
	if rf.Wrap != nil {
		if rf.hasSubs() || n.shell != "" || rf.Rest != nil {
			return c.ruleErrorf(n.id, append(key, "wrap"), "a wrapper has no subcommands, shell or rest")
		}
		if rf.Wrap.Skip < 0 {
			return c.ruleErrorf(n.id, append(key, "wrap"), "wrap skip = %d: want 0 or more", rf.Wrap.Skip)
		}
		w := *rf.Wrap
		for _, o := range append(slices.Clone(w.Replace), w.Lookup...) {
			if opt := n.options[o]; opt == nil || !opt.accepted {
				return c.ruleErrorf(n.id, append(key, "wrap"), "wrap: option %q must be among the flags or options", o)
			}
		}
		n.wrap = &w
	}
	n.subFiles, n.subKey = rf.subs(), key
	for _, name := range n.subFiles.names {
		if name == "" || strings.HasPrefix(name, "-") || !validProgram(name) {
			return c.ruleErrorf(n.id, append(key, "sub", name), "subcommand %q can never match: it is empty, an option, or has shell characters", name)
		}
	}
	if eager {
		for _, name := range n.subFiles.names {
			if _, err := c.compileSub(p, n, name, true); err != nil {
				return err
			}
		}
	}
	if rf.Rest != nil {
		rest := *rf.Rest
		if rest.Verdict == "" {
			rest.Verdict = "allow" // the command's own verdict decides
		}
		rn, err := c.compileNode(p, n.id+" --", n, &rest, append(slices.Clone(key), "rest"), eager)
		if err != nil {
			return err
		}
		n.rest = rn
	}
	return nil
}

func (n *Rule) addOption(name string, kind valueKind, vtype string, values []string, accepted bool) error {
	if !validOptionName(name) {
		return fmt.Errorf("%q is not an option name (want -x, --name, or + for +toolchain)", name)
	}
	if n.options[name] != nil {
		return fmt.Errorf("option %s is listed twice", name)
	}
	if n.style == styleGNU && len(name) > 2 && name[1] != '-' && name[0] == '-' {
		return fmt.Errorf("option %s: a single-dash long option needs style = \"go\" or \"find\"", name)
	}
	n.options[name] = &Option{name: name, value: kind, typ: vtype, values: slices.Clone(values), accepted: accepted}
	return nil
}

func validOptionName(s string) bool {
	if s == "+" {
		return true
	}
	if len(s) < 2 || s[0] != '-' || s == "--" || strings.HasPrefix(s, "---") {
		return false
	}
	for _, r := range s[1:] {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.', r == '?', r == '@':
		default:
			return false
		}
	}
	return true
}

func (c *compiler) compileEscalation(n *Rule, ef escalationFile, v Verdict, i int) (*escalation, error) {
	e := &escalation{id: ef.ID, verdict: v, reason: ef.Reason, hint: ef.Hint, flags: ef.Flags, values: ef.Values, args: ef.Args}
	if e.id == "" {
		// The rule's first flag or operand pattern names it: "git push -f".
		first := append(slices.Clone(ef.Flags), ef.Args...)
		if len(first) > 0 {
			e.id = n.id + " " + first[0]
		}
	} else {
		if where, dup := c.ids[e.id]; dup {
			return nil, fmt.Errorf("id %q is already used by %s", e.id, where)
		}
		c.ids[e.id] = n.id
		e.id = n.id + ": " + e.id
	}
	if len(ef.Flags) == 0 && len(ef.Args) == 0 {
		return nil, fmt.Errorf("%s rule %d names no flags and no args", v, i+1)
	}
	if ef.Reason == "" {
		return nil, fmt.Errorf("%s rule %q: a reason is required", v, e.id)
	}
	for _, f := range ef.Flags {
		if o := n.options[f]; o != nil {
			continue
		}
		if err := n.addOption(f, ValueNone, "", nil, false); err != nil {
			return nil, err
		}
	}
	if len(ef.Values) > 0 {
		if len(ef.Flags) == 0 {
			return nil, fmt.Errorf("%s rule %q: values need the options whose values they match", v, e.id)
		}
		for _, f := range ef.Flags {
			if o := n.options[f]; o == nil || o.value == ValueNone {
				return nil, fmt.Errorf("%s rule %q: values match option values, but %s takes no value: it can never match", v, e.id, f)
			}
		}
	}
	for _, a := range ef.Args {
		if a == "" {
			return nil, fmt.Errorf("%s rule %q: an empty args pattern matches only an empty operand", v, e.id)
		}
	}
	return e, nil
}

// ruleFile returns the rule for a program, building it once: like refers
// to the same few rules again and again.
func (c *compiler) ruleFile(name string) (ruleFile, bool) {
	if rf, ok := c.built[name]; ok {
		return rf, true
	}
	rf, ok := c.rules.rule(name)
	if ok {
		if c.built == nil {
			c.built = map[string]ruleFile{}
		}
		c.built[name] = rf
	}
	return rf, ok
}

// compileSub compiles the subcommand name of n, once.
func (c *compiler) compileSub(p *Policy, n *Rule, name string, eager bool) (*Rule, error) {
	if sn := n.subs[name]; sn != nil {
		if eager {
			return sn, c.compileSubs(p, sn)
		}
		return sn, nil
	}
	if n.subFiles.get == nil {
		return nil, nil
	}
	rf, ok := n.subFiles.get(name)
	if !ok {
		return nil, nil
	}
	sn, err := c.compileNode(p, n.id+" "+name, n, &rf, append(slices.Clone(n.subKey), "sub", name), eager)
	if err != nil {
		return nil, err
	}
	if n.subs == nil {
		n.subs = map[string]*Rule{}
	}
	n.subs[name] = sn
	return sn, nil
}

// compileSubs compiles every subcommand under n that is not compiled yet.
func (c *compiler) compileSubs(p *Policy, n *Rule) error {
	for _, name := range n.subFiles.names {
		if _, err := c.compileSub(p, n, name, true); err != nil {
			return err
		}
	}
	if n.rest != nil {
		return c.compileSubs(p, n.rest)
	}
	return nil
}

// hasSubs reports whether the rule has subcommands.
func (n *Rule) HasSubs() bool { return len(n.subFiles.names) > 0 }

// SubNames returns the names of n's subcommands, sorted.
func (n *Rule) SubNames() []string { return slices.Clone(n.subFiles.names) }

// like returns the rule merged with the rule it is like: flags, options
// and escalations of both, its own fields otherwise.
func (c *compiler) like(rf *ruleFile, key []string, depth int) (*ruleFile, error) {
	if depth > 8 {
		return nil, c.errorf(key, "like = %q: rules are like each other in a cycle", rf.Like)
	}
	words := strings.Fields(rf.Like)
	if len(words) == 0 {
		return nil, c.errorf(append(key, "like"), "like = %q names no rule", rf.Like)
	}
	base, ok := c.ruleFile(words[0])
	for _, w := range words[1:] {
		if !ok {
			break
		}
		base, ok = base.subs().get(w)
	}
	if !ok {
		return nil, c.errorf(append(key, "like"), "like = %q: there is no such rule", rf.Like)
	}
	if base.Like != "" {
		b, err := c.like(&base, key, depth+1)
		if err != nil {
			return nil, err
		}
		base = *b
	}
	out := *rf
	out.Like = ""
	out.Flags = slices.Clone(rf.Flags)
	out.Options = map[string]valueSpec{}
	for k, v := range rf.Options {
		out.Options[k] = v
	}
	ownFlags := make(map[string]bool, len(out.Flags))
	for _, f := range out.Flags {
		ownFlags[f] = true
	}
	own := func(name string) bool {
		_, isOpt := out.Options[name]
		return isOpt || ownFlags[name]
	}
	for _, f := range base.Flags {
		if !own(f) {
			out.Flags = append(out.Flags, f)
		}
	}
	for k, v := range base.Options {
		if !own(k) {
			out.Options[k] = v
		}
	}
	out.Deny = append(slices.Clone(base.Deny), rf.Deny...)
	out.Ask = append(slices.Clone(base.Ask), rf.Ask...)
	out.Session = append(slices.Clone(base.Session), rf.Session...)
	for i := range out.Deny[:len(base.Deny)] {
		out.Deny[i].ID = "" // an id names one rule; the copy gets its own
	}
	for i := range out.Ask[:len(base.Ask)] {
		out.Ask[i].ID = ""
	}
	for i := range out.Session[:len(base.Session)] {
		out.Session[i].ID = ""
	}
	if out.Style == "" {
		out.Style = base.Style
	}
	return &out, nil
}

// Wildcard reports whether s matches pattern, where * matches any run of
// characters (slashes too), ? any one byte, and \ makes the byte after it
// stand for itself (\* is a star). It backtracks only to the last star, so
// it takes at most len(pattern)*len(s) steps.
func Wildcard(pattern, s string) bool {
	px, sx := 0, 0
	starPx, starSx := -1, 0
	for px < len(pattern) || sx < len(s) {
		if px < len(pattern) {
			switch c := pattern[px]; {
			case c == '*':
				starPx, starSx = px, sx
				px++
				continue
			case c == '\\' && px+1 < len(pattern):
				if sx < len(s) && pattern[px+1] == s[sx] {
					px += 2
					sx++
					continue
				}
			case sx < len(s) && (c == '?' || c == s[sx]):
				px++
				sx++
				continue
			}
		}
		if starPx >= 0 && starSx < len(s) {
			starSx++
			px, sx = starPx+1, starSx
			continue
		}
		return false
	}
	return true
}

// longNames returns the node's options that can be abbreviated: GNU long
// options, sorted.
func (n *Rule) LongNames() []string {
	var out []string
	for name := range n.options {
		if strings.HasPrefix(name, "--") {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// acceptedList returns the accepted options of the node, for hints.
func (n *Rule) acceptedList() []string {
	var out []string
	for name, o := range n.options {
		if !o.accepted {
			continue
		}
		if o.value == valueRequired {
			name += " " + strings.ToUpper(o.typ)
			if len(o.values) > 0 {
				name = o.name + " " + strings.Join(o.values, "|")
			}
		}
		out = append(out, name)
	}
	slices.Sort(out)
	if n.digits {
		out = append([]string{"-NUM"}, out...)
	}
	return out
}

// why describes a node's own verdict.
func (n *Rule) Why(v Verdict) string {
	if n.reason != "" {
		return fmt.Sprintf("%s: %s", n.id, n.reason)
	}
	switch v {
	case Allow:
		return fmt.Sprintf("%s is allowed", n.id)
	case Ask:
		return fmt.Sprintf("%s needs approval", n.id)
	case Session:
		return fmt.Sprintf("%s needs approval once in this session", n.id)
	}
	return fmt.Sprintf("%s is not allowed by policy", n.id)
}

func (n *Rule) OptionHint() string { return n.OptionHintFor("") }

// OptionHintFor says what options the rule accepts, for a word it did
// not: how many, and the few nearest to the word (the first few without
// one), never the whole list.
func (n *Rule) OptionHintFor(word string) string {
	list := n.acceptedList()
	if len(list) == 0 {
		return fmt.Sprintf("%s takes no options", n.id)
	}
	if len(list) <= 6 {
		return fmt.Sprintf("%s accepts: %s", n.id, strings.Join(list, ", "))
	}
	name, _, _ := strings.Cut(word, "=")
	return fmt.Sprintf("%s accepts %d options, such as %s", n.id, len(list), strings.Join(Nearest(name, list, 4), ", "))
}

// SubcommandHint says what subcommands a rule has rules for, for a word
// that is none of them: how many, and the few nearest to it.
func (n *Rule) SubcommandHint(word string) string {
	names := n.SubNames()
	if len(names) <= 6 {
		return fmt.Sprintf("rules exist for: %s %s", n.id, strings.Join(names, "|"))
	}
	return fmt.Sprintf("rules exist for %d subcommands of %s, such as %s", len(names), n.id, strings.Join(Nearest(word, names, 4), ", "))
}

// Nearest returns the k names nearest to word by edit distance, the
// nearest first and in their order among equals; for an empty word, the
// first k.
func Nearest(word string, names []string, k int) []string {
	if word == "" || k >= len(names) {
		return names[:min(k, len(names))]
	}
	type near struct {
		name string
		d, i int
	}
	ns := make([]near, len(names))
	for i, name := range names {
		// A name's first word is what a person mistypes (--format ANY).
		first, _, _ := strings.Cut(name, " ")
		ns[i] = near{name, editDistance(word, first), i}
	}
	slices.SortStableFunc(ns, func(a, b near) int { return a.d - b.d })
	out := make([]string, k)
	for i := range out {
		out[i] = ns[i].name
	}
	return out
}

// isOption reports whether a word is an option in the node's style.
func (n *Rule) IsOption(s string) bool {
	if len(s) < 2 || n.style == styleNone {
		return false
	}
	if s[0] == '+' {
		return n.options["+"] != nil
	}
	return s[0] == '-'
}

// recursion is how a recursive reader (grep -r, rg, tree, ls -R, diff -r)
// walks: every file under its directory operands, or under its working
// directory when it names none.
type recursion struct {
	always       bool
	with         []string // options that make it recursive; NAME=VALUE for an option's value
	hiddenWith   []string // it skips hidden files unless one of these is present; none: it reads them
	patternFirst bool     // the first operand is a pattern, unless -e, -f or --files is present
}

func (rc *recursion) On(present map[string]bool, values map[string][]string) bool {
	if rc.always {
		return true
	}
	for _, w := range rc.with {
		if name, val, ok := strings.Cut(w, "="); ok {
			if slices.Contains(values[name], val) {
				return true
			}
		} else if present[w] {
			return true
		}
	}
	return false
}
