// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"

	"guard/policy"
)

// access is how a call touches a path.
type access int

const (
	readAccess access = iota
	writeAccess
)

// expandPattern replaces the placeholders of a pattern for this call. A
// placeholder stands for each spelling of its directory: as given, and its
// real path (a home reached through a link is still the home), and for
// {home} also the other homes of the call (the passwd entry's); {$NAME}
// stands for the variable of the agent's environment. A placeholder with
// no absolute value leaves the pattern out: it matches nothing.
func (d *decider) expandPattern(p string) []string {
	if strings.HasPrefix(p, "~") {
		p = policy.PhHome + p[1:]
	}
	if !strings.Contains(p, "{") {
		return []string{p}
	}
	if d.placeholders == nil {
		d.placeholders = []placeholder{
			{policy.PhProject, d.spellings([]string{d.project()})},
			{policy.PhTmp, d.spellings([]string{d.call.Temp})},
			{policy.PhHome, d.spellings(append([]string{d.call.Home}, d.call.Homes...))},
			{policy.PhPolicy, d.spellings([]string{d.p.File()})},
			{policy.PhGuard, d.spellings([]string{d.call.Guard})},
		}
	}
	// A {$NAME} whose variable is unset or relative has no spelling: the
	// pattern matches nothing, and is not worth more work.
	var envs []placeholder
	for _, name := range policy.PatternEnv(p) {
		var v string
		if d.call.Getenv != nil {
			v = d.call.Getenv(name)
		}
		if !path.IsAbs(v) {
			return nil
		}
		envs = append(envs, placeholder{policy.EnvPlaceholder(name), d.spellings([]string{v})})
	}
	out := []string{p}
	for _, phs := range [][]placeholder{d.placeholders, envs} {
		for _, ph := range phs {
			if !strings.Contains(p, ph.name) {
				continue
			}
			next := make([]string, 0, len(out)*len(ph.values))
			for _, v := range ph.values {
				for _, o := range out {
					// A home of / makes ~/.ssh //.ssh, which is /.ssh: the
					// pattern is /.ssh/**, not //.ssh/**, which nothing matches.
					o = strings.ReplaceAll(o, ph.name+"/", strings.TrimSuffix(v, "/")+"/")
					next = append(next, strings.ReplaceAll(o, ph.name, v))
				}
			}
			out = next
		}
	}
	return out
}

// placeholder is a placeholder of path patterns and its values for a call.
type placeholder struct {
	name   string
	values []string
}

// spellings returns the absolute directories among values, cleaned, with
// their real paths, each once.
func (d *decider) spellings(values []string) []string { return spellings(d.fsys, values) }

func spellings(fsys FS, values []string) []string {
	var out []string
	for _, v := range values {
		if !path.IsAbs(v) {
			continue
		}
		out = append(out, path.Clean(v))
		if r, err := realPath(fsys, v); err == nil {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// expanded is a path pattern with its placeholders replaced for a call,
// and what a path must have to match it: the literal directory it starts
// with, and a run of its literal characters.
type expanded struct {
	pattern string
	prefix  string // "" when the pattern starts with a wildcard
	literal string // "" when it has none worth looking for
}

// expand returns a pattern of the policy for this call, once for each
// spelling of its placeholders; none when a placeholder is unknown.
func (d *decider) expand(pat string) []expanded {
	if e, ok := d.patterns[pat]; ok {
		return e
	}
	var out []expanded
	for _, p := range d.expandPattern(pat) {
		e := expanded{pattern: p, literal: policy.LiteralRun(p)}
		lit := p
		if i := strings.IndexAny(lit, "*?[{\\"); i >= 0 {
			lit = lit[:i]
		}
		if j := strings.LastIndexByte(lit, '/'); j >= 0 {
			e.prefix = lit[:j+1]
		}
		out = append(out, e)
	}
	if d.patterns == nil {
		d.patterns = make(map[string][]expanded, 128)
	}
	d.patterns[pat] = out
	return out
}

// foldCase reports whether the file systems guard runs on usually ignore
// case (macOS, Windows): there .ENV is .env and .Git/config is .git/config,
// so path patterns match without regard to case.
var foldCase = runtime.GOOS == "darwin" || runtime.GOOS == "windows"

// matchAny reports the first pattern that matches any of the paths.
func (d *decider) matchAny(patterns []string, paths []string) string {
	return matchAnyFold(d, patterns, paths, foldCase)
}

func matchAnyFold(d *decider, patterns []string, paths []string, fold bool) string {
	if len(patterns) == 0 {
		return ""
	}
	if fold {
		lower := make([]string, len(paths))
		for i, p := range paths {
			lower[i] = strings.ToLower(p)
		}
		paths = lower
	}
	list := d.compiled(patterns, fold)
	if list == nil {
		// A list matched a few times is tried pattern by pattern: building
		// its index costs more than that.
		for _, pat := range patterns {
			if anyContains(paths, d.literal(pat, fold)) && matchExpanded(d.expand(pat), paths, fold) {
				return pat
			}
		}
		return ""
	}
	d.cands = literalIndex(patterns, fold, d.literal).candidates(paths, d.cands)
	for _, k := range d.cands {
		c := &list[k]
		if !c.ready {
			*c = d.compilePattern(patterns[k], fold)
		}
		if c.prefixes != nil && !slices.ContainsFunc(paths, func(p string) bool {
			return slices.ContainsFunc(c.prefixes, func(dir string) bool { return inDir(p, dir) })
		}) {
			continue
		}
		if anyContains(paths, c.literal) && matchExpanded(c.expanded, paths, false) {
			return c.pattern
		}
	}
	return ""
}

// matchExpanded reports whether an expansion of a pattern matches one of
// paths; with fold, the expansions are lowered first (the paths are).
func matchExpanded(exps []expanded, paths []string, fold bool) bool {
	for _, e := range exps {
		if fold {
			e = foldExpanded(e)
		}
		for _, p := range paths {
			if e.prefix != "" && !inDir(p, e.prefix) || !strings.Contains(p, e.literal) {
				continue
			}
			if m, _ := doublestar.Match(e.pattern, p); m {
				return true
			}
		}
	}
	return false
}

func foldExpanded(e expanded) expanded {
	return expanded{strings.ToLower(e.pattern), strings.ToLower(e.prefix), strings.ToLower(e.literal)}
}

// compiledPattern is a pattern of a list made ready for matching many
// paths: its literal run, its expansions, and the directories all of them
// start in (nil when one starts with a wildcard).
type compiledPattern struct {
	pattern, literal string
	expanded         []expanded
	prefixes         []string
	ready            bool // made ready: a pattern is, when it is first a candidate
}

// listKey names a list of patterns by its first element: the lists are the
// policy's and the call's, which do not change during a decision.
type listKey struct {
	first *string
	n     int
	fold  bool
}

// compileAfter is how many times a decision matches paths against a list
// before it makes the list ready: most match a few paths, the sandbox's
// plan every file of a tree.
const compileAfter = 32

// compiled returns the list's patterns to be made ready for matching,
// each when it is first a candidate, once per decision; nil while the
// list has been matched fewer than compileAfter times.
func (d *decider) compiled(patterns []string, fold bool) []compiledPattern {
	key := listKey{&patterns[0], len(patterns), fold}
	if c, ok := d.lists[key]; ok {
		return c
	}
	if d.listUses == nil {
		d.listUses = map[listKey]int{}
	}
	if d.listUses[key]++; d.listUses[key] < compileAfter {
		return nil
	}
	out := make([]compiledPattern, len(patterns))
	if d.lists == nil {
		d.lists = map[listKey][]compiledPattern{}
	}
	d.lists[key] = out
	return out
}

// compilePattern makes a pattern of a list ready for matching many paths.
func (d *decider) compilePattern(pat string, fold bool) compiledPattern {
	c := compiledPattern{pattern: pat, literal: d.literal(pat, fold), prefixes: []string{}, ready: true}
	for _, e := range d.expand(pat) {
		if fold {
			e = foldExpanded(e)
		}
		c.expanded = append(c.expanded, e)
		if e.prefix == "" {
			c.prefixes = nil
		} else if c.prefixes != nil {
			c.prefixes = append(c.prefixes, e.prefix)
		}
	}
	return c
}

// literal returns policy.LiteralRun of a pattern: the policy's own
// patterns have theirs, and others are found once per decision.
func (d *decider) literal(pat string, fold bool) string {
	lit, ok := d.p.PathLiteral(pat)
	if !ok {
		if lit, ok = d.literals[pat]; !ok {
			lit = policy.LiteralRun(pat)
			if d.literals == nil {
				d.literals = map[string]string{}
			}
			d.literals[pat] = lit
		}
	}
	if fold {
		lit = strings.ToLower(lit)
	}
	return lit
}

// anyContains reports whether any of paths contains s.
func anyContains(paths []string, s string) bool {
	for _, p := range paths {
		if strings.Contains(p, s) {
			return true
		}
	}
	return false
}

// inDir reports whether p is in the directory dir, given with a slash at
// its end, or is that directory.
func inDir(p, dir string) bool {
	return strings.HasPrefix(p, dir) || len(p)+1 == len(dir) && strings.HasPrefix(dir, p)
}

// gitDirAncestor returns the nearest directory above p that git takes for
// a git directory (HEAD, objects/, refs/), or "": writing there changes a
// repository, whatever its name.
//
// What each directory gives is cached for the decision: the sandbox asks
// it of every file in a tree.
func (d *decider) gitDirAncestor(p string) string {
	dir := path.Dir(p)
	if dir == "/" || dir == "." {
		return ""
	}
	if g, ok := d.gitDirs[dir]; ok {
		return g
	}
	g := dir
	// A directory guard cannot look into is taken for one.
	if ok, err := isGitDir(d.fsys, dir); err == nil && !ok {
		g = d.gitDirAncestor(dir)
	}
	if d.gitDirs == nil {
		d.gitDirs = map[string]string{}
	}
	d.gitDirs[dir] = g
	return g
}

// pathForms is pathForms with the real path of the directory cached for
// the decision: the operands of a long command share a few directories.
func (d *decider) pathForms(abs string) ([]string, error) {
	lexical := path.Clean(abs)
	dir, name := path.Split(lexical)
	if name == "" || name == "." || name == ".." || dir == "/" || strings.Contains(abs, "/../") || strings.HasSuffix(abs, "/..") {
		return pathForms(d.fsys, abs)
	}
	dir = strings.TrimSuffix(dir, "/")
	realDir, ok := d.reals[dir]
	if !ok {
		r, err := realPath(d.fsys, dir)
		if err != nil {
			return nil, err
		}
		if d.reals == nil {
			d.reals = map[string]string{}
		}
		d.reals[dir], realDir = r, r
	}
	// The directory is resolved; only the name itself may be a link.
	real := path.Join(realDir, name)
	if fi, err := d.fsys.Lstat(real); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if real, err = realPath(d.fsys, real); err != nil {
			return nil, err
		}
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		return nil, fmt.Errorf("%s: %v", real, errors.Unwrap(err))
	}
	if real == lexical {
		return []string{lexical}, nil
	}
	return []string{lexical, real}, nil
}

// within reports whether p is under a pattern that names a directory tree
// (ending in /**) or matches p itself.
func (d *decider) allWithin(patterns []string, paths []string) bool {
	for _, p := range paths {
		if d.matchAny(patterns, []string{p}) == "" {
			return false
		}
	}
	return len(paths) > 0
}

// pathForms returns the forms of an absolute path that rules must see: the
// path as written (cleaned) and, where it differs, the real path the
// kernel will reach through symbolic links. An error means the path cannot
// be resolved (a loop, an unreadable directory).
func pathForms(fsys FS, abs string) ([]string, error) {
	real, err := realPath(fsys, abs)
	if err != nil {
		return nil, err
	}
	lexical := path.Clean(abs)
	if real == lexical {
		return []string{lexical}, nil
	}
	return []string{lexical, real}, nil
}

// maxLinks bounds the symbolic links followed in one path, as the kernel does.
const maxLinks = 40

// realPath resolves symbolic links in p as the kernel would, component by
// component, for the part of the path that exists; the rest is kept as
// written. A ".." after a link goes to the parent of the link's target.
func realPath(fsys FS, p string) (string, error) { return realPathLinks(fsys, p, 0) }

// realPathLinks is realPath with links already followed on the way.
func realPathLinks(fsys FS, p string, links int) (string, error) {
	if !path.IsAbs(p) {
		return "", fmt.Errorf("%q is not absolute", p)
	}
	todo := strings.Split(p, "/")
	cur := "/"
	for len(todo) > 0 {
		part := todo[0]
		todo = todo[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			cur = path.Dir(cur)
			continue
		}
		if cur == "/proc" && (part == "self" || part == "thread-self" || isNumber(part)) {
			// The process that opens the path, not guard: see procPath.
			return procPath(fsys, part, todo, links)
		}
		next := path.Join(cur, part)
		fi, err := fsys.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			// Nothing more exists: the rest is a name to be created.
			rest := append([]string{next}, todo...)
			return path.Clean(strings.Join(rest, "/")), nil
		case err != nil:
			return "", fmt.Errorf("%s: %v", next, errors.Unwrap(err))
		case fi.Mode()&fs.ModeSymlink != 0:
			links++
			if links > maxLinks {
				return "", fmt.Errorf("%s: too many levels of symbolic links", p)
			}
			target, err := fsys.Readlink(next)
			if err != nil {
				return "", fmt.Errorf("%s: %v", next, errors.Unwrap(err))
			}
			if _, err := fsys.Stat(next); errors.Is(err, fs.ErrNotExist) {
				// A write through it would create a file guard cannot see
				// coming; judge it as outside every root.
				return "", fmt.Errorf("%s is a dangling link to %s", next, target)
			}
			if path.IsAbs(target) {
				cur = "/"
			}
			todo = append(strings.Split(target, "/"), todo...)
		default:
			cur = next
		}
	}
	return cur, nil
}

// absPaths returns the absolute forms of p, written relative to any of the
// directories where, not cleaned: the kernel resolves ".." after a link
// from the link's target. Nil means unknown.
func (d *decider) absPaths(p string, tilde bool, where []string) []string {
	var abs []string
	switch {
	case tilde:
		if a := d.abs("/", p); a != "" {
			abs = []string{a}
		}
	case path.IsAbs(p):
		abs = []string{p}
	default:
		for _, base := range where {
			abs = append(abs, base+"/"+p)
		}
	}
	return abs
}

// checkDescriptor refuses a path that reopens a descriptor guard cannot
// name; ok is true when the path is no such descriptor or a known one.
func (d *decider) checkDescriptor(p string, tilde bool, where []string) (pathCheck, bool) {
	abs := d.absPaths(p, tilde, where)
	for _, a := range abs {
		forms, err := pathForms(d.fsys, a)
		if err != nil {
			continue // checkPath refuses it
		}
		for _, f := range forms {
			if fd, ok := descriptorPath(f); ok {
				if err := d.fds.check(p, fd); err != nil {
					return pathCheck{policy.Deny, "paths.descriptor", err.Error()}, false
				}
			}
		}
	}
	return pathCheck{}, true
}

// secretNamed returns how a refusal names a secret pattern: the pattern,
// and for an entry of the catalogue the tool and what its files hold.
func (d *decider) secretNamed(pat string) string {
	if s, ok := d.p.SecretOf(pat); ok {
		return fmt.Sprintf("%s; %s: %s", pat, s.Tool, s.Holds)
	}
	return pat
}

// pathCheck is the verdict on one path a call touches.
// pathHint is the hint for a path check's refusal, by its rule.
func pathHint(rule string, acc access) string {
	switch {
	case strings.HasPrefix(rule, "paths.secret"):
		return "guard never lets a secret file be read or written: ask the user for what you need from it"
	case strings.HasPrefix(rule, "paths.protected"):
		return "no tool may change it: ask the user to"
	case strings.HasPrefix(rule, "paths.content"):
		return "ask the user for what you need from the file without the credential, or to approve the read"
	case rule == "paths.writable":
		return "write inside the project"
	case rule == "paths.descriptor":
		return "name the file itself rather than a descriptor the command redirects"
	case rule == "paths.made":
		return madeHint
	case acc == writeAccess:
		return "write inside the project"
	}
	return "name the path literally"
}

type pathCheck struct {
	verdict policy.Verdict
	rule    string
	why     string
}

// checkPath judges access to the path p, written relative to any of the
// directories where (nil: unknown). fileVerdict is what an allowed access
// gets: a file tool's [paths] verdict, or a redirection's.
func (d *decider) checkPath(p string, tilde bool, where []string, acc access, allowed policy.Verdict) pathCheck {
	abs := d.absPaths(p, tilde, where)
	if len(abs) == 0 {
		if acc == writeAccess {
			return pathCheck{policy.Deny, "paths.writable", fmt.Sprintf("%s cannot be resolved (the directory or the home is not known), so it is outside every writable root", p)}
		}
		return pathCheck{d.p.DefaultVerdict(), "", fmt.Sprintf("%s cannot be resolved, so guard cannot tell whether it is secret", p)}
	}
	var forms []string
	for _, a := range abs {
		f, err := d.pathForms(a)
		if err != nil {
			if acc == writeAccess {
				return pathCheck{policy.Deny, "paths.writable", fmt.Sprintf("%s cannot be resolved (%v), so it is outside every writable root", p, err)}
			}
			return pathCheck{policy.Deny, "paths.secret", fmt.Sprintf("%s cannot be resolved (%v)", p, err)}
		}
		forms = append(forms, f...)
	}
	for _, f := range forms {
		if fd, ok := descriptorPath(f); ok {
			if err := d.fds.check(p, fd); err != nil {
				return pathCheck{policy.Deny, "paths.descriptor", err.Error()}
			}
		}
	}
	if pat := d.matchAny(d.p.SecretPaths(), forms); pat != "" {
		return pathCheck{policy.Deny, "paths.secret " + pat, fmt.Sprintf("%s is a secret file (%s): guard does not let it be read or written", p, d.secretNamed(pat))}
	}
	if mp := d.madeOver(forms); mp != nil {
		return d.madeCheck(p, mp, acc)
	}
	if acc == readAccess {
		if pc, ok := d.contentCheck(p, abs); ok {
			return pc
		}
		return pathCheck{allowed, "paths.read", fmt.Sprintf("reading %s", p)}
	}
	if pat := d.matchAny(d.p.ProtectedPaths(), forms); pat != "" {
		return pathCheck{policy.Deny, "paths.protected " + pat, fmt.Sprintf("%s is protected (%s): no tool may change it", p, pat)}
	}
	if pat := d.matchAny(d.call.AgentPaths, forms); pat != "" {
		return pathCheck{policy.Deny, "paths.protected " + pat, fmt.Sprintf("%s is protected: it configures a coding agent (%s), and no tool may change it", p, pat)}
	}
	if !d.protectSet {
		d.protect, d.protectSet = spellings(d.fsys, d.call.Protect), true
	}
	for _, dir := range d.protect {
		for _, f := range forms {
			if f == dir {
				return pathCheck{policy.Deny, "paths.protected", fmt.Sprintf("%s is guard's own: no tool may change it", p)}
			}
			if strings.HasPrefix(f, dir+"/") {
				return pathCheck{policy.Deny, "paths.protected", fmt.Sprintf("%s is in %s, which is guard's own: no tool may change it", p, dir)}
			}
		}
	}
	for _, f := range forms {
		if g := d.gitDirAncestor(f); g != "" {
			return pathCheck{policy.Deny, "paths.protected", fmt.Sprintf("%s is inside %s, which git takes for a repository: no tool may change it", p, g)}
		}
	}
	if !d.allWithin(d.p.WritablePaths(), forms) {
		return pathCheck{policy.Deny, "paths.writable", fmt.Sprintf("%s is outside the writable roots", p)}
	}
	return pathCheck{allowed, "paths.write", fmt.Sprintf("writing %s", p)}
}
