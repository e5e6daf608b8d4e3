// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"guard/policy"
	"guard/shellparse"
)

// result is the verdict on one command while it is being matched: the
// strictest verdict seen so far and why.
type result struct {
	verdict policy.Verdict
	rule    string
	why     string
	hint    string
	set     bool

	programs []string // the programs the command runs, as named
	children []string // patterns of the programs they may start themselves
	sandbox  []string // the sandbox profiles the rules on the way allow it in
	notRO    []string // the rules on the way that are not marked read_only
	writes   bool     // a rule on the way is neither read_only nor sandboxed: the command writes (Leaf.Writes)
	unbound  string   // why the command runs outside the sandbox, as the rule on the way says (Leaf.Unbound)

	tr *tracer // for guard explain; nil otherwise
}

func (r *result) add(v policy.Verdict, rule, why, hint string) {
	if r.tr != nil {
		r.tr.add(Note{Verdict: v, Rule: rule, Why: why})
	}
	r.set1(v, rule, why, hint)
}

// set1 makes v the verdict if it is stricter, without noting it: for a
// verdict noted already, where it was added.
func (r *result) set1(v policy.Verdict, rule, why, hint string) {
	if !r.set || v < r.verdict {
		r.verdict, r.rule, r.why, r.hint, r.set = v, rule, why, hint, true
	}
}

func (r *result) merge(o result) {
	if o.set {
		r.set1(o.verdict, o.rule, o.why, o.hint)
	}
	r.programs = append(r.programs, o.programs...)
	r.children = append(r.children, o.children...)
	r.sandbox = append(r.sandbox, o.sandbox...)
	r.notRO = append(r.notRO, o.notRO...)
	r.writes = r.writes || o.writes
	r.unbound = cmpOr(r.unbound, o.unbound)
}

// argv decides one command line.
func (d *decider) argv(args []shellparse.Word, where []string, shellDepth, wrapDepth int) result {
	r := result{tr: d.tr}
	if len(args) == 0 {
		r.add(policy.Deny, "shell.parse", "empty command", "write the command out")
		return r
	}
	w0 := args[0]
	mark := d.tr.mark()
	named := func(rule string) { d.tr.read(args[:1], "the command name", rule, mark) }
	switch {
	case w0.Dynamic != "":
		r.add(policy.Deny, "shell.dynamic-command", fmt.Sprintf("command name %s is not known until run time (%s)", w0.Source, w0.Dynamic), "write the command name out literally")
		named("")
		return r
	case w0.Glob:
		r.add(policy.Deny, "shell.dynamic-command", fmt.Sprintf("command name %s is a glob", w0.Source), "write the command name out literally")
		named("")
		return r
	case wrapDepth > maxWrapperNesting:
		r.add(policy.Deny, "wrap", fmt.Sprintf("commands wrap other commands more than %d deep", maxWrapperNesting), "run the command with fewer wrappers")
		named("")
		return r
	}
	if d.isGuard(w0.Value) {
		// guard run with other flags or another policy would be a way out
		// of the sandbox guard itself puts the command in.
		r.add(policy.Deny, "guard", fmt.Sprintf("%s is guard itself: no command may start it", w0.Source), "run the command itself; guard decides and sandboxes it")
		named("")
		return r
	}
	m := &matcher{d: d, where: where, shellDepth: shellDepth, wrapDepth: wrapDepth}
	name := w0.Value
	n, err := d.p.Command(name)
	if err != nil {
		r.add(policy.Deny, "", fmt.Sprintf("the policy's rule for %s does not compile: %v", name, err), "fix the policy file")
		named("")
		return r
	}
	if n != nil {
		named(n.ID())
		r := m.match(n, args[1:])
		r.programs = append([]string{name}, r.programs...)
		return r
	}
	r.add(d.p.DefaultVerdict(), "", fmt.Sprintf("no rule for %s", name), d.p.UnknownCommandHint(path.Base(name)))
	named("")
	if i := strings.LastIndexByte(name, '/'); i >= 0 && i < len(name)-1 {
		// A program named by its path is judged by its rules only to deny:
		// /tmp/x/git may be anything, /bin/rm -rf is still rm -rf.
		if n, _ := d.p.Command(name[i+1:]); n != nil {
			br := m.match(n, args[1:])
			mark := d.tr.mark()
			if br.verdict == policy.Deny {
				r.add(policy.Deny, br.rule, fmt.Sprintf("%s is %s by its path: %s", name, name[i+1:], br.why), br.hint)
			}
			d.tr.check("judged by its base name, only to deny", n.ID(), mark)
		}
	}
	return r
}

// matcher matches one command line against a rule and its subcommands.
type matcher struct {
	d          *decider
	where      []string
	shellDepth int
	wrapDepth  int
	// outer are the options of the command a subcommand is of (git's
	// own, such as --literal-pathspecs), once a subcommand is reached.
	outer map[string]bool
}

func (m *matcher) match(n *policy.Rule, args []shellparse.Word) result {
	r := result{children: n.Children(), tr: m.d.tr}
	if n.Grant() == policy.GrantCall {
		m.d.noteGrant(n.ID(), n.Grant())
	}
	if n.Sandbox() != "" {
		r.sandbox = []string{n.Sandbox()}
	}
	if !n.ReadOnly() {
		r.notRO = []string{n.ID()} // dropped again when a subcommand decides
		r.writes = n.Sandbox() == "" && n.Unbound() == ""
	}
	if u := n.Unbound(); u != "" {
		r.unbound = u
	}
	if !n.HasSubs() && n.HasVerdict() && n.Verdict() == policy.Deny {
		mark := m.d.tr.mark()
		r.add(policy.Deny, n.ID(), n.Why(policy.Deny), n.Hint())
		m.d.tr.check("the rule's own verdict, whatever follows", n.ID(), mark)
		return r
	}
	present := map[string]bool{}
	values := map[string][]string{}
	var operands []shellparse.Word
	endOpts, dashdash := false, -1 // dashdash: the operands before --
	where := m.where
	tr := m.d.tr
	for i := 0; i < len(args); {
		w, start, mark := args[i], i, tr.mark()
		if n.OptionsFirst() && len(operands) > 0 {
			endOpts = true
		}
		if w.Dynamic != "" {
			as := "an argument known only at run time"
			if n.AnyValue() && m.d.anyValue(n.ID(), w) {
				as = "an operand known only at run time, which the rule takes whatever its value (any_value)"
			} else {
				r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: argument %s is not known until run time (%s)", n.ID(), w.Source, w.Dynamic), "write the argument out literally")
			}
			operands = append(operands, w)
			i++
			tr.read(args[start:i], as, n.ID(), mark)
			continue
		}
		if !endOpts && !w.Glob && n.ExecOption(w.Value) {
			tr.read(args[i:i+1], "an option that runs the command after it, up to ; or +, judged as a command of its own", n.ID(), mark)
			opt, mark := w.Value, tr.mark()
			i = m.exec(n, args, i, operands, &r)
			if tr != nil {
				tr.check("the end of the command "+opt+" runs", n.ID(), mark)
			}
			continue
		}
		if !endOpts && !w.Glob && n.IsOption(w.Value) {
			if w.Value == "--" {
				endOpts, dashdash = true, len(operands)
				i++
				if n.Rest() != nil {
					tr.read(args[start:i], "the end of options: the rest is read by the rule for what follows --", n.ID(), mark)
					r.merge(m.match(n.Rest(), args[i:]))
					i = len(args)
				} else {
					tr.read(args[start:i], "the end of options: the rest are operands", n.ID(), mark)
				}
				continue
			}
			i = m.option(n, args, i, present, values, &r)
			if tr != nil {
				tr.read(args[start:i], optionAs(n, w.Value, i-start), n.ID(), mark)
			}
			continue
		}
		// An operand.
		if n.HasSubs() && len(operands) == 0 && !endOpts {
			m.escalate(n, present, values, nil, &r)
			var sub *policy.Rule
			var err error
			if w.Constant() && !w.Tilde {
				if sub, err = m.d.p.Sub(n, w.Value); sub == nil && err == nil {
					sub, err = m.d.p.Sub(n, strings.ToLower(w.Value))
				}
			}
			if err != nil {
				r.add(policy.Deny, n.ID(), fmt.Sprintf("the policy's rule for %s %s does not compile: %v", n.ID(), w.Value, err), "fix the policy file")
				tr.read(args[i:i+1], "a subcommand", n.ID(), mark)
				return r
			}
			if sub == nil {
				r.add(n.Unknown(), n.ID(), fmt.Sprintf("no rule for %s %s", n.ID(), w.Source), n.SubcommandHint(w.Value))
				tr.read(args[i:i+1], "a subcommand the policy has no rule for", n.ID(), mark)
				return r
			}
			r.notRO, r.writes, r.unbound = nil, false, "" // the subcommand's own mark decides
			if n.Config() != "" {
				m.programConfig(n, values, &r)
			}
			if tr != nil {
				tr.read(args[i:i+1], "a subcommand: the rule for "+sub.ID()+" reads the rest", n.ID(), mark)
			}
			if m.outer == nil {
				m.outer = present
			}
			r.merge(m.match(sub, args[i+1:]))
			return r
		}
		if wf := n.Wrap(); wf != nil && !slices.ContainsFunc(wf.Lookup, func(o string) bool { return present[o] }) {
			m.escalate(n, present, values, nil, &r)
			if tr != nil {
				tr.read(nil, "the command "+n.ID()+" runs, from here on, judged as a command of its own", n.ID(), mark)
			}
			mark = tr.mark()
			r.merge(m.wrapped(n, args[i:], present, values, where))
			if tr != nil {
				tr.check("what "+n.ID()+" does to the command it runs", n.ID(), mark)
			}
			mark = tr.mark()
			r.add(n.Verdict(), n.ID(), n.Why(n.Verdict()), n.Hint())
			tr.check("the wrapper's own rule", n.ID(), mark)
			return r
		}
		operands = append(operands, w)
		i++
		as := "an operand"
		if w.Glob {
			as = "an operand with a glob"
		}
		tr.read(args[start:i], as, n.ID(), mark)
	}
	mark := tr.mark()
	if n.HasSubs() && !n.HasVerdict() {
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s needs a subcommand", n.ID()), n.SubcommandHint(""))
		tr.check("the command as a whole", n.ID(), mark)
		return r
	}
	if n.Wrap() != nil && len(operands) == 0 {
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s without a command", n.ID()), cmpOr(n.Hint(), "give it the command to run"))
	}
	// The rule's own deny and ask rules first: their reasons say most.
	m.escalate(n, present, values, operands, &r)
	switch {
	case n.Args() == policy.ArgsNone && len(operands) > 0:
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s takes no operands here, got %s", n.ID(), operands[0].Source), n.OptionHint())
	case len(n.ArgsWith()) > 0 && len(operands) > 0 && !slices.ContainsFunc(n.ArgsWith(), func(o string) bool { return present[o] }):
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s takes operands only with %s, got %s", n.ID(), strings.Join(n.ArgsWith(), " or "), operands[0].Source), fmt.Sprintf("add %s, or leave the operands out", strings.Join(n.ArgsWith(), " or ")))
	case n.MaxArgs() > 0 && len(operands) > n.MaxArgs():
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s takes at most %d operands, got %d", n.ID(), n.MaxArgs(), len(operands)), fmt.Sprintf("run it once for every %d operands", n.MaxArgs()))
	}
	for _, o := range operands {
		if o.Glob && o.GlobLead && !n.Globs() {
			r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: %s is a glob, and a file name it matches could act as an option", n.ID(), o.Source), "prefix the pattern with a directory (./*.txt), quote it, or name the files")
			break
		}
	}
	if n.Args() == policy.ArgsPath {
		for _, o := range operands {
			if !m.d.inProject(m.d.paths(m.where, o)) {
				r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: %s is outside the project, or not known until run time", n.ID(), o.Source), "name paths inside the project, literally")
				break
			}
		}
	}
	tr.check("the rule's deny and ask rules, and its operands", n.ID(), mark)
	mark = tr.mark()
	switch n.Script() {
	case "sed":
		operands = m.sed(n, present, values, operands, &r)
		tr.check("the sed script, read as GNU sed 4.9 reads it, and the files it reads", n.ID(), mark)
	case "awk":
		operands = m.awk(n, present, operands, &r)
		tr.check("the awk program, read as mawk, gawk and the one true awk read it, and the files it reads", n.ID(), mark)
	}
	mark = tr.mark()
	if n.PathMode() != "" {
		for i, o := range operands {
			acc := readAccess
			if n.PathMode() == "write" || n.PathMode() == "copy" && i == len(operands)-1 {
				acc = writeAccess
			}
			m.operandPath(n, o, acc, &r)
		}
	}
	m.noteMade(n, present, values, operands)
	if n.WritesCwd() {
		m.cwdOutput(n, operands, values, &r)
	}
	if n.Config() != "" {
		m.programConfig(n, values, &r)
	}
	if n.RevPaths() {
		m.revPaths(n, operands, dashdash, present, values, &r)
	}
	if n.Recursive() != nil {
		m.recursiveRead(n, present, values, operands, &r)
	}
	tr.check("the paths, repositories and toolchains it reaches", n.ID(), mark)
	mark = tr.mark()
	if len(n.Require()) > 0 && !slices.ContainsFunc(n.Require(), func(o string) bool { return present[o] || restHas(args, o) }) {
		hint := n.Hint() // what the rule says to do instead, else add what it needs
		if hint == "" {
			hint = fmt.Sprintf("add %s", n.Require()[0])
		}
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s is allowed only with %s", n.ID(), strings.Join(n.Require(), " or ")), hint)
	}
	// Without a script an interpreter runs the code on its standard input:
	// denied, unless the rule allows it only in the sandbox, which bounds
	// that code as it bounds a script.
	if n.Interp() && n.Sandbox() == "" && (len(operands) == 0 || operands[0].Constant() && operands[0].Value == "-") && !valueOptionPresent(n, present) {
		r.add(policy.Deny, n.ID(), fmt.Sprintf("%s reads code from standard input, which guard cannot check", n.ID()), "write the code to a file with the edit tools, and ask to run it")
	}
	if n.Shell() != "" {
		m.shell(n, present, operands, &r)
	}
	tr.check("what the rule requires, and the scripts it runs (bash -c)", n.ID(), mark)
	mark = tr.mark()
	r.add(n.Verdict(), n.ID(), n.Why(n.Verdict()), n.Hint())
	tr.check("the rule's own verdict", n.ID(), mark)
	return r
}

// optionAs says what an option the matcher read over n words is, for
// guard explain.
func optionAs(n *policy.Rule, tok string, words int) string {
	name := tok
	switch {
	case n.Style() == policy.StyleGo:
		name, _, _ = strings.Cut(tok, "=")
		if strings.HasPrefix(name, "--") {
			name = name[1:]
		}
	case n.Style() == policy.StyleFind:
	case strings.HasPrefix(tok, "--"):
		name, _, _ = strings.Cut(tok, "=")
	case tok[0] == '+':
		name = "+"
	case len(tok) > 2:
		return bundleAs(n, tok)
	}
	o := n.Option(name)
	switch {
	case o == nil && n.Digits() && strings.Trim(tok[1:], "0123456789") == "":
		return "a count, as -N"
	case o == nil:
		return "an option not in the rule's accept-list"
	case !o.Accepted():
		return "an option that only a deny or ask rule names"
	case o.Value() == policy.ValueNone:
		return "an accepted flag"
	case len(o.Values()) > 0:
		return "an accepted option, whose value must be one of " + strings.Join(o.Values(), ", ")
	}
	as := "an accepted option with a value"
	if words == 2 {
		as = "an accepted option and its value"
	}
	switch o.Type() {
	case "int":
		as += ", a number"
	case "dir", "path":
		as += ", a path it reads inside the project"
	case "write":
		as += ", a path it writes"
	case "env":
		as += ", the name of a variable it sets"
	}
	return as
}

// bundleAs says what a bundle of short options is: -la, -n5.
func bundleAs(n *policy.Rule, tok string) string {
	var names []string
	for j := 1; j < len(tok); j++ {
		o := n.Option("-" + tok[j:j+1])
		if o == nil {
			return fmt.Sprintf("short options in one word: -%s is not in the rule's accept-list", tok[j:j+1])
		}
		names = append(names, o.Name())
		if o.Accepted() && o.Value() != policy.ValueNone {
			if j+1 < len(tok) {
				return fmt.Sprintf("short options in one word: %s, the last with the value %s", strings.Join(names, " "), tok[j+1:])
			}
			return fmt.Sprintf("short options in one word: %s, the last with the value after it", strings.Join(names, " "))
		}
	}
	return "short options in one word: " + strings.Join(names, " ")
}

// programConfig checks the configuration a program reads from where it
// runs, after its -C options: the repository git uses and its
// configuration, the toolchain go.mod makes go download, or the one a
// rust-toolchain file makes rustup's proxies run (rust.go).
func (m *matcher) programConfig(n *policy.Rule, values map[string][]string, r *result) {
	dirs := m.where // after -C, which moved it
	if dirs == nil {
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s runs in a directory guard does not know, so guard cannot tell what configuration it reads there", n.ID()), "run it from the project's own directory, named literally")
		return
	}
	for _, dir := range dirs {
		switch n.Config() {
		case "git":
			if v, why := m.d.checkGit(dir); v != policy.Allow {
				r.add(v, "git.repository", fmt.Sprintf("%s: %s", n.ID(), why), "run git from the project's own working tree")
				return
			}
		case "go":
			if v, why := m.d.checkGo(dir); v != policy.Allow {
				r.add(v, "go.toolchain", fmt.Sprintf("%s: %s", n.ID(), why), "ask the user to install that go, or to run with GOTOOLCHAIN=local")
				return
			}
		case "rust":
			if why := m.d.rustToolchain(dir); why != "" {
				m.rustRunner(n, why, r)
				return
			}
		}
	}
}

// cwdOutput checks the file a command like go build writes into its
// working directory, named after the package it builds: cd .git/hooks &&
// go build ../../pre-commit writes a hook. go build -o names the output
// instead: a file, which the option's own check judged, or a directory
// (one that exists, or a name that ends in /) that gets the same names.
func (m *matcher) cwdOutput(n *policy.Rule, operands []shellparse.Word, values map[string][]string, r *result) {
	var names []string
	goNames := n.Style() == policy.StyleGo // names found by reading the packages, in every directory of where
	for _, o := range operands {
		switch {
		case !o.Constant():
			r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s writes a file named after %s into its directory, which guard cannot name", n.ID(), o.Source), "name the package literally, or build with -o into the project")
			return
		case goNames:
			names = append(names, o.Value)
		case strings.Contains(o.Value, "..."), strings.HasSuffix(o.Value, ".go"):
			// A pattern builds no binary here; a file list is named after the first file.
			if strings.HasSuffix(o.Value, ".go") {
				names = append(names, strings.TrimSuffix(path.Base(o.Value), ".go"))
			}
		default:
			names = append(names, path.Base(o.Value))
		}
	}
	if len(operands) == 0 {
		names = append(names, ".")
	}
	if m.where == nil {
		r.add(policy.Deny, "paths.writable", fmt.Sprintf("%s writes into a directory guard does not know", n.ID()), "run it from the project, or build with -o into the project")
		return
	}
	var outDirs []string // where -o puts the outputs; nil: the working directory
	if o := n.Option("-o"); o != nil && o.Type() == "write" && len(values["-o"]) > 0 {
		out := values["-o"][len(values["-o"])-1]
		if dir := path.Base(out); !strings.HasSuffix(out, "/") && dir != "." && dir != ".." && !m.d.mayBeDir(m.where, out) {
			return
		}
		if outDirs = m.d.chdirAll(m.where, out); outDirs == nil {
			r.add(policy.Deny, "paths.writable", fmt.Sprintf("%s writes into %s, which guard cannot resolve", n.ID(), out), "build with -o into the project")
			return
		}
	}
	for _, dir := range m.where {
		dirNames := names
		if goNames {
			dirNames = nil
			for _, op := range names {
				found, ok := m.d.goExecNames(dir, op)
				if !ok {
					r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s may write the commands %s names, which guard cannot name", n.ID(), op), "build with -o into a directory of the project, naming the packages literally")
					return
				}
				for _, f := range found {
					// GOOS=windows adds .exe
					dirNames = append(dirNames, f, f+".exe")
				}
			}
			slices.Sort(dirNames)
			dirNames = slices.Compact(dirNames)
		}
		for _, name := range dirNames {
			if name == "." || name == "/" || name == "" {
				name = path.Base(dir)
			}
			targets := []string{path.Join(dir, name)}
			if outDirs != nil {
				targets = targets[:0]
				for _, od := range outDirs {
					targets = append(targets, path.Join(od, name))
				}
			}
			for _, t := range targets {
				if pc := m.d.checkPath(t, false, nil, writeAccess, policy.Allow); pc.verdict != policy.Allow {
					r.add(pc.verdict, pc.rule, fmt.Sprintf("%s writes its output into its directory: %s", n.ID(), pc.why), "build with -o into the project, or from the project's root")
					return
				}
			}
		}
	}
}

// mayBeDir reports whether p, written relative to any of where, may name
// a directory: one that is there, or that guard cannot tell.
func (d *decider) mayBeDir(where []string, p string) bool {
	for _, a := range d.absPaths(p, p == "~" || strings.HasPrefix(p, "~/"), where) {
		fi, err := d.fsys.Stat(a)
		if err == nil && fi.IsDir() || err != nil && !errors.Is(err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}

// operandPath checks an operand that names a path the command reads or
// writes against the policy's paths.
func (m *matcher) operandPath(n *policy.Rule, o shellparse.Word, acc access, r *result) {
	switch {
	case o.Dynamic != "":
		return // already short of allow
	case o.Glob && acc == writeAccess:
		// The directory the glob starts in must be writable at least.
		if dir := globDir(o.Value); dir != "" {
			if pc := m.d.checkPath(dir, o.Tilde, m.where, writeAccess, policy.Allow); pc.verdict == policy.Deny {
				r.add(policy.Deny, pc.rule, fmt.Sprintf("%s: the glob %s: %s", n.ID(), o.Source, pc.why), pathHint(pc.rule, writeAccess))
				return
			}
		}
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s writes to the files the glob %s names, which guard cannot check", n.ID(), o.Source), "name the files")
		return
	case o.Glob:
		m.globRead(n, o, r)
		return
	}
	pc := m.d.checkPath(o.Value, o.Tilde, m.where, acc, policy.Allow)
	if pc.verdict != policy.Allow {
		r.add(pc.verdict, pc.rule, fmt.Sprintf("%s: %s", n.ID(), pc.why), pathHint(pc.rule, acc))
		return
	}
	if m.d.tr != nil {
		m.d.tr.note(policy.Allow, pc.rule, fmt.Sprintf("%s: %s: %s", n.ID(), pc.why, allowedPath[acc]))
	}
}

// allowedPath says why an allowed path is, for guard explain.
var allowedPath = map[access]string{
	readAccess:  "not a secret path",
	writeAccess: "inside the writable roots, and neither secret nor protected",
}

// valueOptionPresent reports whether an accepted option that takes a value
// is present: for an interpreter, such an option names the code to run
// (python -m module), so it does not read standard input.
func valueOptionPresent(n *policy.Rule, present map[string]bool) bool {
	for name := range present {
		if o := n.Option(name); o != nil && o.Accepted() && o.Value() != policy.ValueNone {
			return true
		}
	}
	return false
}

// restHas reports whether opt stands after -- among args: cargo fmt --
// --check passes --check on to rustfmt.
func restHas(args []shellparse.Word, opt string) bool {
	i := slices.IndexFunc(args, func(w shellparse.Word) bool { return w.Constant() && w.Value == "--" })
	return i >= 0 && slices.ContainsFunc(args[i+1:], func(w shellparse.Word) bool { return w.Constant() && w.Value == opt })
}

// option reads the option at args[i], with its value, and returns the index
// of the next argument.
func (m *matcher) option(n *policy.Rule, args []shellparse.Word, i int, present map[string]bool, values map[string][]string, r *result) int {
	tok := args[i].Value
	unknown := func(why string) int {
		r.add(n.Unknown(), n.ID(), why, n.OptionHintFor(tok))
		return i + 1
	}
	if tok[0] == '+' {
		o := n.Option("+")
		present["+"] = true
		return m.value(n, o, tok[1:], true, args, i, values, r)
	}
	if n.Digits() && strings.Trim(tok[1:], "0123456789") == "" {
		present["-#"] = true
		values["-#"] = append(values["-#"], tok[1:]) // -5: a count, as -n 5
		return i + 1
	}
	switch n.Style() {
	case policy.StyleGo, policy.StyleFind:
		name, val, hasEq := tok, "", false
		if n.Style() == policy.StyleGo {
			name, val, hasEq = strings.Cut(tok, "=")
			if strings.HasPrefix(name, "--") {
				name = name[1:]
			}
		}
		o := n.Option(name)
		if o == nil {
			return unknown(fmt.Sprintf("%s: option %s is not in the accept-list", n.ID(), tok))
		}
		present[o.Name()] = true
		if !o.Accepted() {
			return i + 1 // only an escalation names it; the escalation decides
		}
		if o.Value() == policy.ValueNone {
			if hasEq && val != "true" && val != "false" {
				return unknown(fmt.Sprintf("%s: flag %s takes no value", n.ID(), name))
			}
			return i + 1
		}
		return m.value(n, o, val, hasEq, args, i, values, r)
	}
	if strings.HasPrefix(tok, "--") {
		name, val, hasEq := strings.Cut(tok, "=")
		o := n.Option(name)
		if o == nil {
			// GNU tools and git take any unique prefix of a long option.
			var cands []string
			for _, long := range n.LongNames() {
				if strings.HasPrefix(long, name) {
					cands = append(cands, long)
					present[long] = true // an escalation on any of them applies
				}
			}
			if len(cands) > 0 {
				return unknown(fmt.Sprintf("%s: %s may be an abbreviation of %s; write options in full", n.ID(), name, strings.Join(cands, " or ")))
			}
			return unknown(fmt.Sprintf("%s: option %s is not in the accept-list", n.ID(), name))
		}
		present[name] = true
		if !o.Accepted() {
			return i + 1
		}
		if o.Value() == policy.ValueNone {
			if hasEq {
				return unknown(fmt.Sprintf("%s: flag %s takes no value", n.ID(), name))
			}
			return i + 1
		}
		return m.value(n, o, val, hasEq, args, i, values, r)
	}
	// A bundle of short options: -abc, -n5, -ofile.
	for j := 1; j < len(tok); j++ {
		c := tok[j]
		if c >= 0x80 {
			return unknown(fmt.Sprintf("%s: option %s is not in the accept-list", n.ID(), tok))
		}
		name := "-" + string(c)
		o := n.Option(name)
		if o == nil {
			// The rest may be this option's value or more options; an
			// escalation on any of them applies.
			for _, rc := range tok[j+1:] {
				if e := n.Option("-" + string(rc)); e != nil && !e.Accepted() {
					present[e.Name()] = true
				}
			}
			what := name
			if len(tok) > 2 {
				what = fmt.Sprintf("%s (in %s)", name, tok)
			}
			return unknown(fmt.Sprintf("%s: option %s is not in the accept-list", n.ID(), what))
		}
		present[name] = true
		if !o.Accepted() || o.Value() == policy.ValueNone {
			continue
		}
		if j+1 < len(tok) {
			return m.value(n, o, tok[j+1:], true, args, i, values, r)
		}
		return m.value(n, o, "", false, args, i, values, r)
	}
	return i + 1
}

// value checks the value of option o. An attached value is val; otherwise,
// for a required value, the next argument. It returns the index of the
// argument after the option and its value.
func (m *matcher) value(n *policy.Rule, o *policy.Option, val string, attached bool, args []shellparse.Word, i int, values map[string][]string, r *result) int {
	next := i + 1
	bad := func(why string) int {
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: %s", n.ID(), why), n.OptionHint())
		return next
	}
	if attached && args[i].Glob {
		// The shell expands the whole word, value and all.
		return bad(fmt.Sprintf("the value of %s in %s is part of a glob", o.Name(), args[i].Source))
	}
	if !attached {
		if o.Value() == policy.ValueOptional {
			return next
		}
		if next >= len(args) {
			return bad(fmt.Sprintf("option %s needs a value", o.Name()))
		}
		w := args[next]
		next++
		switch {
		case w.Dynamic != "":
			return bad(fmt.Sprintf("the value %s of %s is not known until run time (%s)", w.Source, o.Name(), w.Dynamic))
		case w.Glob:
			return bad(fmt.Sprintf("the value %s of %s is a glob", w.Source, o.Name()))
		case strings.HasPrefix(w.Value, "-") && o.Type() != "int" && n.Style() != policy.StyleFind:
			// find takes the next word as the value, whatever it is
			// (find -mtime -1), and takes no -opt=value; another program's
			// parser may read such a word as an option.
			return bad(fmt.Sprintf("the value %s of %s starts with -; attach it as %s=%s", w.Source, o.Name(), o.Name(), w.Value))
		}
		val = w.Value
	}
	values[o.Name()] = append(values[o.Name()], val)
	if len(o.Values()) > 0 {
		if !slices.Contains(o.Values(), val) {
			return bad(fmt.Sprintf("%s %s: the value must be one of %s", o.Name(), val, strings.Join(o.Values(), ", ")))
		}
		return next
	}
	switch o.Type() {
	case "int":
		if _, err := strconv.ParseInt(val, 10, 64); err != nil {
			return bad(fmt.Sprintf("%s %s: the value must be a number", o.Name(), val))
		}
	case "dir", "path":
		w := shellparse.Word{Value: val, Tilde: val == "~" || strings.HasPrefix(val, "~/")}
		if pc := m.d.checkPath(val, w.Tilde, m.where, readAccess, policy.Allow); pc.verdict != policy.Allow {
			r.add(pc.verdict, pc.rule, fmt.Sprintf("%s %s: %s", n.ID(), o.Name(), pc.why), pathHint(pc.rule, readAccess))
		}
		dirs := m.d.chdirAll(m.where, val)
		if o.Type() == "dir" {
			// The program works there from now on (git -C, go -C, env
			// --chdir, terraform -chdir): go build -C .git -o hooks/x
			// writes .git/hooks/x, and every path after resolves there.
			m.where = dirs
		}
		if !m.d.inProject(dirs) {
			return bad(fmt.Sprintf("%s %s: the path is outside the project", o.Name(), val))
		}
	case "env":
		// The value names a variable the program sets for the commands it
		// runs (xargs --process-slot-var=NAME): judged as an assignment.
		l := m.d.assign(shellparse.Assign{Name: val, Value: shellparse.Word{Value: "0", Source: "0"}, Scope: shellparse.ScopeCommand})
		l.Text = o.Name() + "=" + val
		m.d.add(l)
	case "write":
		if path.Clean(val) == "/dev/null" {
			break // what goes there is gone: go build -o /dev/null only checks that it builds
		}
		tilde := val == "~" || strings.HasPrefix(val, "~/")
		if pc := m.d.checkPath(val, tilde, m.where, writeAccess, policy.Allow); pc.verdict != policy.Allow {
			r.add(pc.verdict, pc.rule, fmt.Sprintf("%s %s: %s", n.ID(), o.Name(), pc.why), pathHint(pc.rule, writeAccess))
		} else if m.d.tr != nil {
			m.d.tr.note(policy.Allow, pc.rule, fmt.Sprintf("%s %s: %s: %s", n.ID(), o.Name(), pc.why, allowedPath[writeAccess]))
		}
	}
	return next
}

// escalate applies the node's deny and ask rules.
func (m *matcher) escalate(n *policy.Rule, present map[string]bool, values map[string][]string, operands []shellparse.Word, r *result) {
	for _, e := range n.Escalations() {
		matched := "" // what triggered the rule, for the message
		flagHit := len(e.Flags()) == 0
		for _, f := range e.Flags() {
			if !present[f] || flagHit {
				continue
			}
			if len(e.Values()) == 0 {
				flagHit, matched = true, f
			}
			for _, v := range values[f] {
				for _, pat := range e.Values() {
					if !flagHit && policy.Wildcard(pat, v) {
						flagHit, matched = true, f+"="+v
					}
				}
			}
		}
		argHit := len(e.Args()) == 0
		for _, o := range operands {
			if argHit {
				break
			}
			if !o.Constant() {
				continue // already short of allow; the rule's own verdict stands
			}
			for _, pat := range e.Args() {
				if policy.Wildcard(pat, o.Value) {
					argHit = true
					if matched == "" {
						matched = o.Value
					}
					break
				}
			}
		}
		if flagHit && argHit {
			hint := e.Hint()
			if hint == "" {
				hint = n.Hint()
			}
			if n.Grant() == policy.GrantCall {
				m.d.noteGrant(e.ID(), n.Grant())
			}
			r.add(e.Verdict(), e.ID(), fmt.Sprintf("%s %s: %s", n.ID(), matched, e.Reason()), hint)
		}
	}
}

// isGuard reports whether a command name starts guard: its base name is
// guard, or it is guard's binary by any path.
func (d *decider) isGuard(name string) bool {
	if path.Base(name) == "guard" {
		return true
	}
	if d.call.Guard == "" || !strings.Contains(name, "/") {
		return false
	}
	abs := d.abs(d.call.Cwd, name)
	if abs == "" {
		return false
	}
	forms, err := d.pathForms(abs)
	if err != nil {
		return false
	}
	guards := spellings(d.fsys, []string{d.call.Guard})
	for _, f := range forms {
		if slices.Contains(guards, f) {
			return true
		}
	}
	return false
}
