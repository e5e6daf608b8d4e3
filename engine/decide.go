// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"guard/policy"
	"guard/shellparse"
)

// Limits on how deep commands may hide inside other commands.
const (
	maxShellNesting   = 3  // bash -c 'bash -c "..."'
	maxWrapperNesting = 16 // timeout 5 nice env ...
)

// Decide returns the verdict on a call. It never fails: whatever it cannot
// judge gets the default verdict or a deny.
func Decide(p *policy.Policy, call Call) Decision {
	if !p.Loaded() {
		return Decision{Verdict: policy.Deny, Leaves: []Leaf{{Verdict: policy.Deny, Kind: "input", Why: "no policy is loaded", Hint: "fix the policy file"}}}
	}
	d := &decider{p: p, call: call, fsys: call.FS}
	if d.fsys == nil {
		d.fsys = OS
	}
	d.decide()
	out := Decision{Verdict: policy.Allow, Leaves: d.leaves, Policy: p.Name(), ReadOnly: d.readOnly()}
	if len(out.Leaves) == 0 {
		out.Leaves = []Leaf{{Verdict: policy.Deny, Kind: "input", Why: "nothing in the call could be judged"}}
	}
	if out.ReadOnly {
		// Read-only mode asks nothing: what is not allowed is denied.
		for i := range out.Leaves {
			if l := &out.Leaves[i]; l.Verdict == policy.Ask {
				l.Verdict = policy.Deny
				l.Why = "read-only mode: " + l.Why
			}
		}
	}
	for _, l := range out.Leaves {
		out.Verdict = policy.Stricter(out.Verdict, l.Verdict)
	}
	return out
}

type decider struct {
	p      *policy.Policy
	call   Call
	fsys   FS // the call's file system
	leaves []Leaf
	words  int // words parsed so far, in the command and the scripts of bash -c in it

	// Caches for one decision: a long command names the same directories
	// and matches the same patterns many times.
	patterns     map[string][]expanded // path patterns with their placeholders replaced
	placeholders []placeholder         // the values of the path patterns' placeholders
	reals        map[string]string     // real paths of directories, by their lexical path
	checkedDirs  map[string]bool       // working directories found not secret
	gitChecked   map[string]pathCheck  // repositories git finds, by working directory
	goChecked    map[string]pathCheck  // toolchains go picks, by working directory
	goLocal      *goLocal              // the go on the search path

	// fds is what the call's redirections do to descriptors, in every
	// script of the call: /dev/stdout and the like reopen them.
	fds descriptors
}

func (d *decider) add(l Leaf) { d.leaves = append(d.leaves, l) }

// readOnly reports whether the call is in read-only mode.
func (d *decider) readOnly() bool { return d.call.ReadOnly || d.p.ReadOnly() }

// kindOf returns what a tier of the [tools] table makes a tool's call.
func kindOf(t policy.Tier) Kind {
	switch t {
	case policy.TierShell:
		return KindShell
	case policy.TierRead:
		return KindRead
	case policy.TierWrite:
		return KindWrite
	case policy.TierEdit:
		return KindEdit
	case policy.TierList:
		return KindList
	case policy.TierSearch:
		return KindSearch
	case policy.TierFetch:
		return KindFetch
	}
	return KindTool
}

// name names the call in messages: its tool, else its kind.
func (d *decider) name() string {
	if d.call.Tool != "" {
		return d.call.Tool
	}
	return string(d.call.Kind)
}

func (d *decider) decide() {
	name := d.name()
	kind, t, rule := d.call.Kind, policy.TierDeny, ""
	switch kind {
	case "":
		t, rule = d.p.ToolTier(d.call.Tool)
		kind = kindOf(t)
	case KindTool:
		t, rule = d.p.ToolTier(d.call.Tool)
		if t.IsKind() {
			// A tool the policy judges by its input came without one.
			d.add(Leaf{Verdict: Deny, Kind: "input", Text: name, Rule: rule,
				Why: fmt.Sprintf("the policy judges %s as a %s call, and the call came as an other tool", name, kindOf(t))})
			return
		}
	case KindShell, KindRead, KindWrite, KindEdit, KindList, KindSearch, KindFetch:
		rule = "kind." + string(kind)
		if d.call.Tool != "" {
			// A call that names its kind and its tool: what the policy
			// says of the tool still holds. A tool of another kind is
			// denied; a tool's verdict is a leaf of its own.
			tt, trule := d.p.ToolTier(d.call.Tool)
			switch {
			case trule == "":
			case tt.IsKind() && kindOf(tt) != kind:
				d.add(Leaf{Verdict: Deny, Kind: "input", Text: name, Rule: trule,
					Why: fmt.Sprintf("the policy judges %s as a %s call, and the call came as %s", name, kindOf(tt), kind)})
				return
			case !tt.IsKind():
				d.tool(name, tt, trule)
			}
		}
	default:
		d.add(Leaf{Verdict: Deny, Kind: "input", Text: name, Why: fmt.Sprintf("guard does not know calls of kind %q", kind)})
		return
	}
	if !path.IsAbs(d.call.Cwd) {
		d.add(Leaf{Verdict: Deny, Kind: "input", Text: name, Why: fmt.Sprintf("the call's working directory %q is not an absolute path", d.call.Cwd)})
		return
	}
	if d.readOnly() && !readOnlyKind(kind, t) && (kind != KindShell || !d.p.ReadOnlyShell) {
		why := fmt.Sprintf("%s may write files or run code", name)
		hint := "read, search and list files instead"
		if kind == KindShell {
			why, hint = fmt.Sprintf("the policy does not allow %s in read-only mode", name), "read, search and list files instead; the policy can allow read-only shell commands with read_only_shell = true"
		}
		d.add(Leaf{Verdict: Deny, Kind: "tool", Text: name, Rule: "read-only", Why: why, Hint: hint})
		return
	}
	switch kind {
	case KindShell:
		cmd := d.call.Input.Command
		if cmd == "" {
			d.add(Leaf{Verdict: Deny, Kind: "input", Text: name, Rule: rule,
				Why: fmt.Sprintf("%s call has no command string in its input", name)})
			return
		}
		if !safeLocale(d.call.Locale) && hasNonASCII(cmd) {
			d.add(Leaf{Verdict: Deny, Kind: "input", Text: firstLine(cmd), Rule: "shell.locale",
				Why:  fmt.Sprintf("the agent's locale is %s, in which the shell splits non-ASCII text into characters differently from guard", d.call.Locale),
				Hint: "write the command in ASCII, or run the agent in a UTF-8 locale"})
			return
		}
		d.script(cmd, []string{path.Clean(d.call.Cwd)}, d.p.Dialect, d.call.Shell != "bash", 0)
	case KindRead, KindList, KindSearch:
		d.pathCall(name, rule, readAccess, kind != KindRead)
		if kind == KindList && d.call.Input.Pattern != "" {
			d.listPattern(name)
		}
	case KindWrite, KindEdit:
		d.pathCall(name, rule, writeAccess, false)
	case KindFetch:
		d.fetch(name)
	default:
		d.tool(name, t, rule)
	}
}

// readOnlyKind reports whether read-only mode may allow a call of this
// kind, or of a tool of this tier.
func readOnlyKind(k Kind, t policy.Tier) bool {
	switch k {
	case KindRead, KindList, KindSearch:
		return true
	case KindTool:
		return t == policy.TierInternal
	}
	return false
}

// tool decides a tool by its tier alone.
func (d *decider) tool(name string, t policy.Tier, rule string) {
	switch t {
	case policy.TierAllow, policy.TierInternal:
		d.add(Leaf{Verdict: Allow, Kind: "tool", Text: name, Rule: rule, Why: fmt.Sprintf("tool %s is allowed", name)})
	case policy.TierSession:
		l := Leaf{Verdict: Ask, Kind: "tool", Text: name, Rule: rule, Why: fmt.Sprintf("tool %s needs approval once in this session", name)}
		if d.call.Grants != nil && d.call.Session != "" && d.call.Grants.Granted(d.call.Session, l) {
			l.Verdict, l.Why = Allow, fmt.Sprintf("tool %s ran earlier in this session", name)
		}
		d.add(l)
	case policy.TierAsk:
		d.add(Leaf{Verdict: Ask, Kind: "tool", Text: name, Rule: rule, Why: fmt.Sprintf("tool %s needs approval", name)})
	default:
		why := fmt.Sprintf("tool %s is not allowed by policy", name)
		if rule == "" {
			why = fmt.Sprintf("tool %s is not in the policy's [tools] table", name)
			if d.p.Default == Ask {
				d.add(Leaf{Verdict: Ask, Kind: "tool", Text: name, Why: why + "; it needs approval"})
				return
			}
		}
		d.add(Leaf{Verdict: Deny, Kind: "tool", Text: name, Rule: rule, Why: why})
	}
}

// pathCall decides a call that reads, lists, searches or writes one path.
// Where cwdDefault is set, a call without a path works in its working
// directory.
func (d *decider) pathCall(name, rule string, acc access, cwdDefault bool) {
	p := d.call.Input.Path
	if p == "" {
		if !cwdDefault {
			d.add(Leaf{Verdict: Deny, Kind: "input", Text: name, Rule: rule, Why: fmt.Sprintf("%s call has no path string in its input", name)})
			return
		}
		p = d.call.Cwd
	}
	allowed := d.p.Paths.Read
	if acc == writeAccess {
		allowed = d.p.Paths.Write
	}
	tilde := p == "~" || strings.HasPrefix(p, "~/")
	pc := d.checkPath(p, tilde, []string{path.Clean(d.call.Cwd)}, acc, allowed)
	l := Leaf{Verdict: pc.verdict, Kind: "path", Text: name + " " + p, Rule: pc.rule, Why: fmt.Sprintf("%s: %s", name, pc.why)}
	if pc.verdict != Allow && acc == writeAccess {
		l.Hint = "write inside the project; files that configure the agent, git and the tool chain are protected"
	}
	d.add(l)
}

// listPattern judges the directory a list call's glob pattern reaches: a
// pattern may be absolute, climb out of the call's path with .., or hold
// braces that name other directories. Whatever directory its literal part
// names must be listable too; what guard cannot place is denied.
func (d *decider) listPattern(name string) {
	pat := d.call.Input.Pattern
	base := d.call.Input.Path
	if base == "" {
		base = d.call.Cwd
	}
	meta := strings.IndexAny(pat, "*?[{")
	if meta < 0 {
		meta = len(pat)
	}
	// Braces are expanded by the tool: an alternative may name a path.
	if bracesNamePaths(pat) {
		d.add(Leaf{Verdict: Deny, Kind: "path", Text: name + " " + pat, Rule: "paths.pattern",
			Why:  fmt.Sprintf("%s: the pattern %q has braces around paths, which guard does not expand", name, pat),
			Hint: "give one pattern without braces, or set the path"})
		return
	}
	for _, c := range strings.Split(pat[meta:], "/") {
		if c == ".." {
			d.add(Leaf{Verdict: Deny, Kind: "path", Text: name + " " + pat, Rule: "paths.pattern",
				Why:  fmt.Sprintf("%s: the pattern %q climbs out of its directory after a wildcard", name, pat),
				Hint: "set the path to the directory to list instead"})
			return
		}
	}
	dir := globDir(pat[:meta] + "x")
	tilde := dir == "~" || strings.HasPrefix(dir, "~/")
	if !tilde && !path.IsAbs(dir) {
		dir = path.Join(base, dir)
	}
	if !tilde && path.IsAbs(base) && (dir == path.Clean(base) || strings.HasPrefix(dir, path.Clean(base)+"/")) && !strings.Contains(pat[:meta], "..") {
		return // inside the path already judged
	}
	pc := d.checkPath(dir, tilde, []string{path.Clean(d.call.Cwd)}, readAccess, d.p.Paths.Read)
	d.add(Leaf{Verdict: pc.verdict, Kind: "path", Text: name + " " + pat, Rule: pc.rule, Why: fmt.Sprintf("%s pattern %s: %s", name, pat, pc.why)})
}

// bracesNamePaths reports whether an alternative in a pattern's braces
// holds a slash, a ~ or a .., or the braces do not close: then the
// pattern may reach directories its literal part does not name.
func bracesNamePaths(pat string) bool {
	for {
		i := strings.IndexByte(pat, '{')
		if i < 0 {
			return false
		}
		j := strings.IndexByte(pat[i:], '}')
		if j < 0 {
			return true
		}
		if inner := pat[i+1 : i+j]; strings.ContainsAny(inner, "/~{") || strings.Contains(inner, "..") {
			return true
		}
		pat = pat[i+j+1:]
	}
}

// script decides a shell script run in the directories where.
func (d *decider) script(src string, where []string, dialect shellparse.Dialect, zsh bool, depth int) {
	// Scripts of bash -c share the word bound of the command they are in,
	// so that nesting them does not multiply the work.
	left := shellparse.Defaults().MaxWords - d.words
	if left < 1 {
		d.add(Leaf{Verdict: policy.Deny, Kind: "input", Text: firstLine(src), Why: fmt.Sprintf("the command and the scripts in it hold more than %d words", shellparse.Defaults().MaxWords)})
		return
	}
	s, err := shellparse.Parse(src, shellparse.Options{Dialect: dialect, Zsh: zsh, Limits: shellparse.Limits{MaxWords: left}})
	if s != nil {
		d.words += s.Words
	}
	if err != nil {
		l := Leaf{Verdict: policy.Deny, Kind: "input", Text: firstLine(src), Rule: "shell.parse", Why: err.Error(), Hint: "write a plain command: guard denies what it cannot parse"}
		if e, ok := err.(*shellparse.Error); ok {
			l.Pos = e.Pos
			l.Why = e.Msg
			if e.Kind != "" {
				l.Rule = "shell." + string(e.Kind)
			}
			if e.Pos != (shellparse.Pos{}) {
				l.Why = fmt.Sprintf("%s at %s", e.Msg, e.Pos)
			}
		}
		d.add(l)
		return
	}
	for _, r := range s.Redirects {
		d.fds.note(r)
	}
	for _, c := range s.Commands {
		for _, r := range c.Redirs {
			d.fds.note(r)
		}
	}
	for _, f := range s.Findings {
		d.add(d.construct(f))
	}
	for _, a := range s.Assigns {
		d.add(d.assign(a))
	}
	for _, r := range s.Redirects {
		d.add(d.redirect(r, d.resolve(where, r.Dir)))
	}
	for _, c := range s.Commands {
		cwhere := d.resolve(where, c.Dir)
		if why := d.secretWorkDir(cwhere); why != "" {
			// A command reads its working directory without naming it:
			// ls, find, grep -r, git status.
			d.add(Leaf{Verdict: policy.Deny, Kind: "command", Text: c.Source, Pos: c.Pos, Rule: "paths.secret", Why: why,
				Hint: "run commands from the project"})
		}
		for _, a := range c.Assigns {
			d.add(d.assign(a))
		}
		for _, r := range c.Redirs {
			d.add(d.redirect(r, cwhere))
		}
		res := d.argv(c.Args, cwhere, depth, 0)
		if d.readOnly() && res.verdict == policy.Allow && len(res.notRO) > 0 {
			res.add(policy.Deny, "read-only", fmt.Sprintf("read-only mode: %s may write files or run code", res.notRO[0]),
				"read-only mode allows only the read-only commands of the policy")
		}
		d.add(Leaf{Verdict: res.verdict, Kind: "command", Text: c.Source, Pos: c.Pos, Rule: res.rule, Why: res.why, Hint: res.hint,
			Programs: res.programs, Children: res.children})
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " ..."
	}
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

var constructHints = map[shellparse.Kind]string{
	shellparse.KindCmdSubst:   "run the inner command on its own first, then write its output into the command literally",
	shellparse.KindProcSubst:  "run the inner command on its own first, or use a pipe",
	shellparse.KindParamExp:   "write the value out literally instead of using a variable",
	shellparse.KindBackground: "run the command in the foreground",
	shellparse.KindSubshell:   "run the commands without ( )",
	shellparse.KindGroup:      "run the commands without { }",
}

func (d *decider) construct(f shellparse.Finding) Leaf {
	l := Leaf{Kind: "construct", Text: f.Source, Pos: f.Pos, Rule: "shell." + string(f.Kind)}
	what := fmt.Sprintf("%s at %s", f.Kind.Describe(), f.Pos)
	if f.Kind.Fixed() {
		l.Verdict = policy.Deny
		l.Why = what + " is never allowed: it runs code guard cannot check, or changes what later commands mean"
		if f.Why != "" {
			l.Why = fmt.Sprintf("%s at %s is never allowed: %s", f.Kind.Describe(), f.Pos, f.Why)
		}
		l.Hint = "write the commands out plainly, one simple command at a time"
		if f.Kind == shellparse.KindZsh {
			l.Hint = "write it so that bash and zsh read it alike, or set CLAUDE_CODE_SHELL=bash"
		}
		return l
	}
	v, ok := d.p.Shell[f.Kind]
	if !ok {
		v, l.Rule = d.p.Default, ""
	}
	l.Verdict = v
	switch v {
	case policy.Allow:
		l.Why = what + " is allowed"
	case policy.Ask:
		l.Why = what + " needs approval"
	default:
		l.Why = what + " is not allowed by policy"
	}
	l.Hint = constructHints[f.Kind]
	return l
}

// assign decides an assignment by the variable's name.
func (d *decider) assign(a shellparse.Assign) Leaf {
	l := Leaf{Kind: "assignment", Text: a.Name + "=" + a.Value.Source, Pos: a.Pos}
	if a.Scope == shellparse.ScopeLoop {
		l.Text = "for " + a.Name
	}
	if why, ok := localeLeaf(a.Name, a.Value.Value, a.Scope != shellparse.ScopeLoop && a.Value.Constant() && !a.Value.Tilde); !ok {
		l.Verdict, l.Rule, l.Why = policy.Deny, "shell.locale", why
		l.Hint = "set LC_ALL, LC_CTYPE and LANG only to C, POSIX or a UTF-8 locale"
		return l
	}
	v, rule, why := d.p.EnvVerdict(a.Name)
	if tied, ok := zshTied[a.Name]; ok && d.call.Shell != "bash" {
		// zsh ties the array path to PATH, cdpath to CDPATH, ...
		if tv, trule, twhy := d.p.EnvVerdict(tied); tv < v {
			v, rule, why = tv, trule, fmt.Sprintf("in zsh, %s is %s: %s", a.Name, tied, twhy)
		}
	}
	l.Verdict, l.Rule, l.Why = v, rule, why
	if v != policy.Allow {
		l.Hint = "variables allowed: " + strings.Join(d.p.Env.Allow, ", ")
	}
	return l
}

// resolve returns the absolute directories a command runs in, given the
// directories its script runs in; nil means unknown.
func (d *decider) resolve(where []string, dir shellparse.Dir) []string {
	if where == nil || !dir.Known() {
		return nil
	}
	var out []string
	for _, base := range where {
		for _, rel := range dir.Paths {
			forms := d.chdir(base, rel)
			if forms == nil {
				return nil
			}
			out = append(out, forms...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// secretWorkDir returns why a command may not run in one of the
// directories, or "" when it may: none is secret.
func (d *decider) secretWorkDir(dirs []string) string {
	for _, dir := range dirs {
		if d.checkedDirs[dir] {
			continue
		}
		forms, err := d.pathForms(dir)
		if err != nil {
			return fmt.Sprintf("the command runs in %s, which cannot be resolved (%v)", dir, err)
		}
		if pat := d.matchAny(d.p.Paths.Secret, forms); pat != "" {
			return fmt.Sprintf("the command runs in %s, a secret directory (%s)", dir, pat)
		}
		if d.checkedDirs == nil {
			d.checkedDirs = map[string]bool{}
		}
		d.checkedDirs[dir] = true
	}
	return ""
}

// chdirAll returns where a change of directory to p from any of where may
// go; nil means unknown.
func (d *decider) chdirAll(where []string, p string) []string {
	if p == "" {
		return nil
	}
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "/") {
		where = []string{"/"}
	}
	var out []string
	for _, base := range where {
		forms := d.chdir(base, p)
		if forms == nil {
			return nil
		}
		out = append(out, forms...)
	}
	return out
}

// chdir returns where a change of directory from base to p may go: the
// lexical path (cd -L), and where ".." after a link goes (cd -P, bash's
// fallback when the lexical directory does not exist, and chdir(2) for
// env -C, git -C, go -C). Nil means unknown.
func (d *decider) chdir(base, p string) []string {
	lexical := d.abs(base, p)
	if lexical == "" {
		return nil
	}
	if !slices.Contains(strings.Split(p, "/"), "..") {
		return []string{lexical}
	}
	raw := p
	if !strings.HasPrefix(p, "/") {
		raw = base + "/" + p
	}
	physical, err := realPath(d.fsys, raw)
	if err != nil {
		return nil
	}
	if physical == lexical {
		return []string{lexical}
	}
	return []string{lexical, physical}
}

// abs resolves p against base lexically; "" when it depends on an unknown
// home directory.
func (d *decider) abs(base, p string) string {
	switch {
	case strings.HasPrefix(p, "/"):
		return path.Clean(p)
	case p == "~" || strings.HasPrefix(p, "~/"):
		if !path.IsAbs(d.call.Home) {
			return ""
		}
		return path.Join(d.call.Home, p[1:])
	}
	return path.Join(base, p)
}

// paths resolves a path operand in every directory of where; nil means it
// cannot be known.
func (d *decider) paths(where []string, w shellparse.Word) []string {
	if !w.Constant() || w.Value == "" {
		return nil
	}
	if strings.HasPrefix(w.Value, "/") || w.Tilde {
		if a := d.abs("/", w.Value); a != "" {
			return []string{a}
		}
		return nil
	}
	if where == nil {
		return nil
	}
	out := make([]string, 0, len(where))
	for _, base := range where {
		out = append(out, d.abs(base, w.Value))
	}
	return out
}

func (d *decider) project() string {
	if path.IsAbs(d.call.Project) {
		return path.Clean(d.call.Project)
	}
	return path.Clean(d.call.Cwd)
}

// inProject reports whether every path is inside the project.
// inProject reports whether every path is inside the project, as written
// and through symbolic links.
func (d *decider) inProject(paths []string) bool {
	if len(paths) == 0 {
		return false
	}
	roots := []string{d.project()}
	if real, err := realPath(d.fsys, d.project()); err == nil && real != roots[0] {
		roots = append(roots, real)
	}
	inside := func(p string) bool {
		for _, root := range roots {
			if p == root || root == "/" || strings.HasPrefix(p, root+"/") {
				return true
			}
		}
		return false
	}
	for _, p := range paths {
		forms, err := pathForms(d.fsys, p)
		if err != nil {
			return false
		}
		for _, f := range forms {
			if !inside(f) {
				return false
			}
		}
	}
	return true
}

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
	hint := "redirect output only to " + strings.Join(d.p.Redirect.Allow, ", ") + "; change files with the agent's edit tools"
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
	if len(targets) > 0 && !slices.ContainsFunc(targets, func(p string) bool { return !slices.Contains(d.p.Redirect.Allow, p) }) {
		l.Verdict, l.Rule, l.Why = policy.Allow, "redirect.allow", fmt.Sprintf("redirection to %s is allowed", t.Value)
		return l
	}
	l.Hint = hint
	acc, allowed := readAccess, d.p.Redirect.Read
	if r.Writes() {
		acc, allowed = writeAccess, d.p.Redirect.Write
	}
	pc := d.checkPath(t.Value, t.Tilde, where, acc, allowed)
	if pc.rule == "paths.writable" && pc.verdict == policy.Deny {
		pc.verdict, pc.rule = d.p.Redirect.WriteOutside, "redirect.write_outside"
	}
	if d.readOnly() && acc == writeAccess && pc.verdict != policy.Deny {
		pc = pathCheck{policy.Deny, "read-only", fmt.Sprintf("writing %s: read-only mode allows no writes", t.Value)}
	}
	l.Verdict, l.Rule = pc.verdict, pc.rule
	l.Why = "redirection: " + pc.why
	switch l.Verdict {
	case policy.Allow:
		l.Why += ": allowed"
	case policy.Ask:
		l.Why += ": needs approval"
	}
	return l
}

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
	notRO    []string // the rules on the way that are not marked read_only
}

func (r *result) add(v policy.Verdict, rule, why, hint string) {
	if !r.set || v < r.verdict {
		r.verdict, r.rule, r.why, r.hint, r.set = v, rule, why, hint, true
	}
}

func (r *result) merge(o result) {
	if o.set {
		r.add(o.verdict, o.rule, o.why, o.hint)
	}
	r.programs = append(r.programs, o.programs...)
	r.children = append(r.children, o.children...)
	r.notRO = append(r.notRO, o.notRO...)
}

// argv decides one command line.
func (d *decider) argv(args []shellparse.Word, where []string, shellDepth, wrapDepth int) result {
	var r result
	if len(args) == 0 {
		r.add(policy.Deny, "shell.parse", "empty command", "")
		return r
	}
	w0 := args[0]
	switch {
	case w0.Dynamic != "":
		r.add(policy.Deny, "shell.dynamic-command", fmt.Sprintf("command name %s is not known until run time (%s)", w0.Source, w0.Dynamic), "write the command name out literally")
		return r
	case w0.Glob:
		r.add(policy.Deny, "shell.dynamic-command", fmt.Sprintf("command name %s is a glob", w0.Source), "write the command name out literally")
		return r
	case wrapDepth > maxWrapperNesting:
		r.add(policy.Deny, "wrap", fmt.Sprintf("commands wrap other commands more than %d deep", maxWrapperNesting), "")
		return r
	}
	m := &matcher{d: d, where: where, shellDepth: shellDepth, wrapDepth: wrapDepth}
	name := w0.Value
	n, err := d.p.Command(name)
	if err != nil {
		r.add(policy.Deny, "", fmt.Sprintf("the policy's rule for %s does not compile: %v", name, err), "fix the policy file")
		return r
	}
	if n != nil {
		r := m.match(n, args[1:])
		r.programs = append([]string{name}, r.programs...)
		return r
	}
	hint := ""
	if allowed := d.p.AllowedHint(); allowed != "" {
		hint = "allowed without asking: " + allowed
	}
	r.add(d.p.Default, "", fmt.Sprintf("no rule for %s", name), hint)
	if i := strings.LastIndexByte(name, '/'); i >= 0 && i < len(name)-1 {
		// A program named by its path is judged by its rules only to deny:
		// /tmp/x/git may be anything, /bin/rm -rf is still rm -rf.
		if n, _ := d.p.Command(name[i+1:]); n != nil {
			if br := m.match(n, args[1:]); br.verdict == policy.Deny {
				r.add(policy.Deny, br.rule, fmt.Sprintf("%s is %s by its path: %s", name, name[i+1:], br.why), br.hint)
			}
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
}

func (m *matcher) match(n *policy.Rule, args []shellparse.Word) result {
	r := result{children: n.Children}
	if !n.ReadOnly {
		r.notRO = []string{n.ID} // dropped again when a subcommand decides
	}
	if !n.HasSubs() && n.HasVerdict && n.Verdict == policy.Deny {
		r.add(policy.Deny, n.ID, n.Why(policy.Deny), n.Hint)
		return r
	}
	present := map[string]bool{}
	values := map[string][]string{}
	var operands []shellparse.Word
	endOpts := false
	where := m.where
	for i := 0; i < len(args); {
		w := args[i]
		if n.OptionsFirst && len(operands) > 0 {
			endOpts = true
		}
		if w.Dynamic != "" {
			r.add(n.Unknown, n.ID, fmt.Sprintf("%s: argument %s is not known until run time (%s)", n.ID, w.Source, w.Dynamic), "write the argument out literally")
			operands = append(operands, w)
			i++
			continue
		}
		if !endOpts && !w.Glob && n.Exec[w.Value] {
			i = m.exec(n, args, i, operands, &r)
			continue
		}
		if !endOpts && !w.Glob && n.IsOption(w.Value) {
			if w.Value == "--" {
				endOpts = true
				i++
				if n.Rest != nil {
					r.merge(m.match(n.Rest, args[i:]))
					i = len(args)
				}
				continue
			}
			i = m.option(n, args, i, present, values, &r)
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
				r.add(policy.Deny, n.ID, fmt.Sprintf("the policy's rule for %s %s does not compile: %v", n.ID, w.Value, err), "fix the policy file")
				return r
			}
			if sub == nil {
				r.add(n.Unknown, n.ID, fmt.Sprintf("no rule for %s %s", n.ID, w.Source), "rules exist for: "+n.ID+" "+strings.Join(slices.Sorted(maps.Keys(n.SubFiles)), "|"))
				return r
			}
			r.notRO = nil // the subcommand's own mark decides
			if n.Config != "" {
				m.programConfig(n, values, &r)
			}
			r.merge(m.match(sub, args[i+1:]))
			return r
		}
		if n.Wrap != nil && !slices.ContainsFunc(n.Wrap.Lookup, func(o string) bool { return present[o] }) {
			m.escalate(n, present, values, nil, &r)
			r.merge(m.wrapped(n, args[i:], present, values, where))
			r.add(n.Verdict, n.ID, n.Why(n.Verdict), n.Hint)
			return r
		}
		operands = append(operands, w)
		i++
	}
	if n.HasSubs() && !n.HasVerdict {
		r.add(n.Unknown, n.ID, fmt.Sprintf("%s needs a subcommand", n.ID), "rules exist for: "+n.ID+" "+strings.Join(slices.Sorted(maps.Keys(n.SubFiles)), "|"))
		return r
	}
	if n.Wrap != nil && len(operands) == 0 {
		r.add(n.Unknown, n.ID, fmt.Sprintf("%s without a command", n.ID), "")
	}
	// The rule's own deny and ask rules first: their reasons say most.
	m.escalate(n, present, values, operands, &r)
	switch {
	case n.Args == policy.ArgsNone && len(operands) > 0:
		r.add(n.Unknown, n.ID, fmt.Sprintf("%s takes no operands here, got %s", n.ID, operands[0].Source), n.OptionHint())
	case len(n.ArgsWith) > 0 && len(operands) > 0 && !slices.ContainsFunc(n.ArgsWith, func(o string) bool { return present[o] }):
		r.add(n.Unknown, n.ID, fmt.Sprintf("%s takes operands only with %s, got %s", n.ID, strings.Join(n.ArgsWith, " or "), operands[0].Source), "")
	case n.MaxArgs > 0 && len(operands) > n.MaxArgs:
		r.add(n.Unknown, n.ID, fmt.Sprintf("%s takes at most %d operands, got %d", n.ID, n.MaxArgs, len(operands)), "")
	}
	for _, o := range operands {
		if o.Glob && o.GlobLead && !n.Globs {
			r.add(n.Unknown, n.ID, fmt.Sprintf("%s: %s is a glob, and a file name it matches could act as an option", n.ID, o.Source), "prefix the pattern with a directory (./*.txt), quote it, or name the files")
			break
		}
	}
	if n.Args == policy.ArgsPath {
		for _, o := range operands {
			if !m.d.inProject(m.d.paths(m.where, o)) {
				r.add(n.Unknown, n.ID, fmt.Sprintf("%s: %s is outside the project, or not known until run time", n.ID, o.Source), "")
				break
			}
		}
	}
	if n.PathMode != "" {
		for i, o := range operands {
			acc := readAccess
			if n.PathMode == "write" || n.PathMode == "copy" && i == len(operands)-1 {
				acc = writeAccess
			}
			m.operandPath(n, o, acc, &r)
		}
	}
	if n.WritesCwd {
		m.cwdOutput(n, operands, &r)
	}
	if n.Config != "" {
		m.programConfig(n, values, &r)
	}
	if n.RevPaths {
		m.revPaths(n, operands, &r)
	}
	if n.Recursive != nil {
		m.recursiveRead(n, present, values, operands, &r)
	}
	if len(n.Require) > 0 && !slices.ContainsFunc(n.Require, func(o string) bool { return present[o] || restHas(args, o) }) {
		r.add(n.Unknown, n.ID, fmt.Sprintf("%s is allowed only with %s", n.ID, strings.Join(n.Require, " or ")), fmt.Sprintf("add %s", n.Require[0]))
	}
	if n.Interp && (len(operands) == 0 || operands[0].Constant() && operands[0].Value == "-") && !valueOptionPresent(n, present) {
		r.add(policy.Deny, n.ID, fmt.Sprintf("%s reads code from standard input, which guard cannot check", n.ID), "write the code to a file with the edit tools, and ask to run it")
	}
	if n.Shell != "" {
		m.shell(n, present, operands, &r)
	}
	r.add(n.Verdict, n.ID, n.Why(n.Verdict), n.Hint)
	return r
}

// programConfig checks the configuration a program reads from where it
// runs, after its -C options: the repository git uses and its
// configuration, or the toolchain go.mod makes go download.
func (m *matcher) programConfig(n *policy.Rule, values map[string][]string, r *result) {
	dirs := m.where
	for _, v := range values["-C"] {
		dirs = m.d.chdirAll(dirs, v)
	}
	if dirs == nil {
		r.add(n.Unknown, n.ID, fmt.Sprintf("%s runs in a directory guard does not know, so guard cannot tell what configuration it reads there", n.ID), "")
		return
	}
	for _, dir := range dirs {
		switch n.Config {
		case "git":
			if v, why := m.d.checkGit(dir); v != policy.Allow {
				r.add(v, "git.repository", fmt.Sprintf("%s: %s", n.ID, why), "run git from the project's own working tree")
				return
			}
		case "go":
			if v, why := m.d.checkGo(dir); v != policy.Allow {
				r.add(v, "go.toolchain", fmt.Sprintf("%s: %s", n.ID, why), "ask the user to install that go, or to run with GOTOOLCHAIN=local")
				return
			}
		}
	}
}

// cwdOutput checks the file a command like go build writes into its
// working directory, named after the package it builds: cd .git/hooks &&
// go build ../../pre-commit writes a hook.
func (m *matcher) cwdOutput(n *policy.Rule, operands []shellparse.Word, r *result) {
	var names []string
	for _, o := range operands {
		switch {
		case !o.Constant():
			r.add(n.Unknown, n.ID, fmt.Sprintf("%s writes a file named after %s into its directory, which guard cannot name", n.ID, o.Source), "")
			return
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
		r.add(policy.Deny, "paths.writable", fmt.Sprintf("%s writes into a directory guard does not know", n.ID), "")
		return
	}
	for _, dir := range m.where {
		for _, name := range names {
			if name == "." || name == "/" {
				name = path.Base(dir)
			}
			if pc := m.d.checkPath(path.Join(dir, name), false, nil, writeAccess, policy.Allow); pc.verdict != policy.Allow {
				r.add(pc.verdict, pc.rule, fmt.Sprintf("%s writes its output into its directory: %s", n.ID, pc.why), "build with -o into the project, or from the project's root")
				return
			}
		}
	}
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
				r.add(policy.Deny, pc.rule, fmt.Sprintf("%s: the glob %s: %s", n.ID, o.Source, pc.why), "")
				return
			}
		}
		r.add(n.Unknown, n.ID, fmt.Sprintf("%s writes to the files the glob %s names, which guard cannot check", n.ID, o.Source), "name the files")
		return
	case o.Glob:
		m.globRead(n, o, r)
		return
	}
	pc := m.d.checkPath(o.Value, o.Tilde, m.where, acc, policy.Allow)
	if pc.verdict != policy.Allow {
		r.add(pc.verdict, pc.rule, fmt.Sprintf("%s: %s", n.ID, pc.why), "")
	}
}

// valueOptionPresent reports whether an accepted option that takes a value
// is present: for an interpreter, such an option names the code to run
// (python -m module), so it does not read standard input.
func valueOptionPresent(n *policy.Rule, present map[string]bool) bool {
	for name := range present {
		if o := n.Options[name]; o != nil && o.Accepted && o.Value != policy.ValueNone {
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
		r.add(n.Unknown, n.ID, why, n.OptionHint())
		return i + 1
	}
	if tok[0] == '+' {
		o := n.Options["+"]
		present["+"] = true
		return m.value(n, o, tok[1:], true, args, i, values, r)
	}
	if n.Digits && strings.Trim(tok[1:], "0123456789") == "" {
		return i + 1
	}
	switch n.Style {
	case policy.StyleGo, policy.StyleFind:
		name, val, hasEq := tok, "", false
		if n.Style == policy.StyleGo {
			name, val, hasEq = strings.Cut(tok, "=")
			if strings.HasPrefix(name, "--") {
				name = name[1:]
			}
		}
		o := n.Options[name]
		if o == nil {
			return unknown(fmt.Sprintf("%s: option %s is not in the accept-list", n.ID, tok))
		}
		present[o.Name] = true
		if !o.Accepted {
			return i + 1 // only an escalation names it; the escalation decides
		}
		if o.Value == policy.ValueNone {
			if hasEq && val != "true" && val != "false" {
				return unknown(fmt.Sprintf("%s: flag %s takes no value", n.ID, name))
			}
			return i + 1
		}
		return m.value(n, o, val, hasEq, args, i, values, r)
	}
	if strings.HasPrefix(tok, "--") {
		name, val, hasEq := strings.Cut(tok, "=")
		o := n.Options[name]
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
				return unknown(fmt.Sprintf("%s: %s may be an abbreviation of %s; write options in full", n.ID, name, strings.Join(cands, " or ")))
			}
			return unknown(fmt.Sprintf("%s: option %s is not in the accept-list", n.ID, name))
		}
		present[name] = true
		if !o.Accepted {
			return i + 1
		}
		if o.Value == policy.ValueNone {
			if hasEq {
				return unknown(fmt.Sprintf("%s: flag %s takes no value", n.ID, name))
			}
			return i + 1
		}
		return m.value(n, o, val, hasEq, args, i, values, r)
	}
	// A bundle of short options: -abc, -n5, -ofile.
	for j := 1; j < len(tok); j++ {
		c := tok[j]
		if c >= 0x80 {
			return unknown(fmt.Sprintf("%s: option %s is not in the accept-list", n.ID, tok))
		}
		name := "-" + string(c)
		o := n.Options[name]
		if o == nil {
			// The rest may be this option's value or more options; an
			// escalation on any of them applies.
			for _, rc := range tok[j+1:] {
				if e := n.Options["-"+string(rc)]; e != nil && !e.Accepted {
					present[e.Name] = true
				}
			}
			what := name
			if len(tok) > 2 {
				what = fmt.Sprintf("%s (in %s)", name, tok)
			}
			return unknown(fmt.Sprintf("%s: option %s is not in the accept-list", n.ID, what))
		}
		present[name] = true
		if !o.Accepted || o.Value == policy.ValueNone {
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
		r.add(n.Unknown, n.ID, fmt.Sprintf("%s: %s", n.ID, why), n.OptionHint())
		return next
	}
	if attached && args[i].Glob {
		// The shell expands the whole word, value and all.
		return bad(fmt.Sprintf("the value of %s in %s is part of a glob", o.Name, args[i].Source))
	}
	if !attached {
		if o.Value == policy.ValueOptional {
			return next
		}
		if next >= len(args) {
			return bad(fmt.Sprintf("option %s needs a value", o.Name))
		}
		w := args[next]
		next++
		switch {
		case w.Dynamic != "":
			return bad(fmt.Sprintf("the value %s of %s is not known until run time (%s)", w.Source, o.Name, w.Dynamic))
		case w.Glob:
			return bad(fmt.Sprintf("the value %s of %s is a glob", w.Source, o.Name))
		case strings.HasPrefix(w.Value, "-") && o.Type != "int":
			return bad(fmt.Sprintf("the value %s of %s starts with -; attach it as %s=%s", w.Source, o.Name, o.Name, w.Value))
		}
		val = w.Value
	}
	values[o.Name] = append(values[o.Name], val)
	if len(o.Values) > 0 {
		if !slices.Contains(o.Values, val) {
			return bad(fmt.Sprintf("%s %s: the value must be one of %s", o.Name, val, strings.Join(o.Values, ", ")))
		}
		return next
	}
	switch o.Type {
	case "int":
		if _, err := strconv.ParseInt(val, 10, 64); err != nil {
			return bad(fmt.Sprintf("%s %s: the value must be a number", o.Name, val))
		}
	case "dir", "path":
		w := shellparse.Word{Value: val, Tilde: val == "~" || strings.HasPrefix(val, "~/")}
		if pc := m.d.checkPath(val, w.Tilde, m.where, readAccess, policy.Allow); pc.verdict != policy.Allow {
			r.add(pc.verdict, pc.rule, fmt.Sprintf("%s %s: %s", n.ID, o.Name, pc.why), "")
		}
		if !m.d.inProject(m.d.chdirAll(m.where, val)) {
			return bad(fmt.Sprintf("%s %s: the path is outside the project", o.Name, val))
		}
	case "env":
		// The value names a variable the program sets for the commands it
		// runs (xargs --process-slot-var=NAME): judged as an assignment.
		l := m.d.assign(shellparse.Assign{Name: val, Value: shellparse.Word{Value: "0", Source: "0"}, Scope: shellparse.ScopeCommand})
		l.Text = o.Name + "=" + val
		m.d.add(l)
	case "write":
		tilde := val == "~" || strings.HasPrefix(val, "~/")
		if pc := m.d.checkPath(val, tilde, m.where, writeAccess, policy.Allow); pc.verdict != policy.Allow {
			r.add(pc.verdict, pc.rule, fmt.Sprintf("%s %s: %s", n.ID, o.Name, pc.why), "")
		}
	}
	return next
}

// escalate applies the node's deny and ask rules.
func (m *matcher) escalate(n *policy.Rule, present map[string]bool, values map[string][]string, operands []shellparse.Word, r *result) {
	for _, e := range n.Escalations {
		matched := "" // what triggered the rule, for the message
		flagHit := len(e.Flags) == 0
		for _, f := range e.Flags {
			if !present[f] || flagHit {
				continue
			}
			if len(e.Values) == 0 {
				flagHit, matched = true, f
			}
			for _, v := range values[f] {
				for _, pat := range e.Values {
					if !flagHit && policy.Wildcard(pat, v) {
						flagHit, matched = true, f+"="+v
					}
				}
			}
		}
		argHit := len(e.Args) == 0
		for _, o := range operands {
			if argHit {
				break
			}
			if !o.Constant() {
				continue // already short of allow; the rule's own verdict stands
			}
			for _, pat := range e.Args {
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
			hint := e.Hint
			if hint == "" {
				hint = n.Hint
			}
			r.add(e.Verdict, e.ID, fmt.Sprintf("%s %s: %s", n.ID, matched, e.Reason), hint)
		}
	}
}

// wrapped decides the command that a wrapper such as timeout, env or xargs
// runs.
func (m *matcher) wrapped(n *policy.Rule, args []shellparse.Word, present map[string]bool, values map[string][]string, where []string) result {
	var r result
	w := n.Wrap
	if len(args) < w.Skip {
		r.add(n.Unknown, n.ID, fmt.Sprintf("%s needs %d operands before the command", n.ID, w.Skip), "")
		return r
	}
	for _, a := range args[:w.Skip] {
		if !a.Constant() {
			r.add(n.Unknown, n.ID, fmt.Sprintf("%s: operand %s is not known until run time", n.ID, a.Source), "")
		}
	}
	inner := slices.Clone(args[w.Skip:])
	if w.Env {
		// env takes every NAME=VALUE before the command as an assignment,
		// whatever NAME is (BASH_FUNC_ls%%=... defines a function for bash).
		for len(inner) > 0 && inner[0].Constant() {
			name, _, ok := strings.Cut(inner[0].Value, "=")
			if !ok {
				break
			}
			l := m.d.assign(shellparse.Assign{Name: name, Value: shellparse.Word{Value: inner[0].Value[len(name)+1:], Source: inner[0].Source}, Pos: inner[0].Pos})
			l.Text = inner[0].Source
			m.d.add(l)
			inner = inner[1:]
		}
	}
	if len(inner) == 0 {
		r.add(n.Unknown, n.ID, fmt.Sprintf("%s without a command", n.ID), "")
		return r
	}
	if w.Stdin {
		// Words from standard input may be any path, absolute or not, and
		// may look like options.
		from := shellparse.Word{Glob: true, GlobLead: true, Value: "/**", Source: stdinWords}
		replaced := false
		for _, opt := range w.Replace {
			if !present[opt] {
				continue
			}
			token := "{}"
			if vs := values[opt]; len(vs) > 0 && vs[len(vs)-1] != "" {
				token = vs[len(vs)-1]
			}
			for k := range inner {
				if inner[k].Constant() && strings.Contains(inner[k].Value, token) {
					inner[k] = from // the command name too: xargs -I{} {} runs what stdin says
				}
			}
			replaced = true
		}
		if !replaced {
			inner = append(inner, from)
		}
	}
	for name, vs := range values {
		if o := n.Options[name]; o != nil && o.Type == "dir" && len(vs) > 0 {
			where = m.d.chdirAll(where, vs[len(vs)-1])
		}
	}
	return m.d.argv(inner, where, m.shellDepth, m.wrapDepth+1)
}

// exec decides the command of a find -exec style option at args[i] and
// returns the index after its terminator.
func (m *matcher) exec(n *policy.Rule, args []shellparse.Word, i int, roots []shellparse.Word, r *result) int {
	opt := args[i].Value
	// find puts in place of {} a name under one of its start paths, which
	// does not look like an option unless a start path does.
	names := []shellparse.Word{{Glob: true, Value: "./**", Source: findNames}}
	if len(roots) > 0 {
		names = nil
		for _, root := range roots {
			if !root.Constant() {
				names = []shellparse.Word{{Dynamic: "a name under a start path known only at run time", Source: findNames}}
				break
			}
			names = append(names, shellparse.Word{Glob: true, GlobLead: strings.HasPrefix(root.Value, "-"),
				Value: strings.TrimSuffix(root.Value, "/") + "/**", Tilde: root.Tilde, Source: findNames})
		}
	}
	var inner []shellparse.Word
	var braces []int // where {} stands in inner
	for j := i + 1; j < len(args); j++ {
		a := args[j]
		if a.Constant() && (a.Value == ";" || a.Value == "+" && len(inner) > 0 && inner[len(inner)-1].Value == "{}") {
			if len(inner) == 0 {
				r.add(n.Unknown, n.ID, fmt.Sprintf("%s %s without a command", n.ID, opt), "")
				return j + 1
			}
			if len(braces) == 0 {
				r.merge(m.d.argv(inner, m.where, m.shellDepth, m.wrapDepth+1))
				return j + 1
			}
			for _, name := range names {
				for _, k := range braces {
					name.Pos = inner[k].Pos
					inner[k] = name
				}
				r.merge(m.d.argv(slices.Clone(inner), m.where, m.shellDepth, m.wrapDepth+1))
			}
			return j + 1
		}
		switch {
		case a.Constant() && a.Value == "{}":
			braces = append(braces, len(inner))
		case a.Constant() && strings.Contains(a.Value, "{}"):
			a = shellparse.Word{Dynamic: "find puts a file name inside it", Source: a.Source, Pos: a.Pos}
		}
		inner = append(inner, a)
	}
	r.add(n.Unknown, n.ID, fmt.Sprintf("%s %s has no ; or + to end its command", n.ID, opt), "")
	return len(args)
}

// shell decides the script of bash -c SCRIPT.
func (m *matcher) shell(n *policy.Rule, present map[string]bool, operands []shellparse.Word, r *result) {
	switch {
	case !present["-c"] && len(operands) > 0:
		r.add(n.Unknown, n.ID, fmt.Sprintf("%s runs the script file %s, which guard cannot check", n.ID, operands[0].Source), "run the commands of the script directly")
		return
	case !present["-c"]:
		r.add(policy.Deny, n.ID, fmt.Sprintf("%s reads commands from standard input, which guard cannot check", n.ID), "pass the commands with -c '...'")
		return
	case len(operands) == 0:
		r.add(n.Unknown, n.ID, fmt.Sprintf("%s -c without a script", n.ID), "")
		return
	}
	script := operands[0]
	if !script.Constant() {
		r.add(policy.Deny, n.ID, fmt.Sprintf("the script of %s -c is not known until run time", n.ID), "pass the script as one quoted string")
		return
	}
	if m.shellDepth >= maxShellNesting {
		r.add(policy.Deny, n.ID, fmt.Sprintf("shells nest more than %d deep", maxShellNesting), "")
		return
	}
	dialect := shellparse.Bash
	if n.Shell == "sh" {
		dialect = shellparse.POSIX
	}
	before := len(m.d.leaves)
	m.d.script(script.Value, m.where, dialect, false, m.shellDepth+1)
	worst := policy.Allow
	var deciding *Leaf
	for k := before; k < len(m.d.leaves); k++ {
		if l := &m.d.leaves[k]; deciding == nil || l.Verdict < worst {
			worst, deciding = l.Verdict, l
		}
	}
	if deciding != nil && worst != policy.Allow {
		r.add(worst, deciding.Rule, fmt.Sprintf("in the script of %s -c: %s", n.ID, deciding.Why), deciding.Hint)
	}
}
