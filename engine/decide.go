// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"path"
	"strings"
	"unicode"

	"guard/policy"
	"guard/shellparse"
)

// Decide returns the verdict on a call. It never fails: whatever it cannot
// judge gets the default verdict or a deny.
func Decide(p *policy.Policy, call Call) Decision {
	if !p.Loaded() {
		return Decision{Verdict: policy.Deny, Leaves: []Leaf{{Verdict: policy.Deny, Kind: "input", Why: "no policy is loaded", Hint: "fix the policy file"}}}
	}
	fsys := call.FS
	if fsys == nil {
		fsys = OS
	}
	d := &decider{p: p, call: call, fsys: newStatCache(fsys), scan: true}
	if call.Explain {
		d.tr = &tracer{}
	}
	d.decide()
	d.historyWrites()
	d.grantSession()
	out := Decision{Verdict: policy.Allow, Leaves: d.leaves, Policy: p.Name(), ReadOnly: d.readOnly(), Kind: d.kind}
	if d.excludes != nil {
		in := call.Input
		in.Glob = searchGlob(in.Glob, d.excludes)
		out.Rewrite = &in
	}
	if len(out.Leaves) == 0 {
		out.Leaves = []Leaf{{Verdict: policy.Deny, Kind: "input", Why: "nothing in the call could be judged"}}
	}
	if out.ReadOnly {
		// Read-only mode asks nothing: what is not allowed is denied.
		for i := range out.Leaves {
			if l := &out.Leaves[i]; l.Verdict == policy.Ask {
				l.Verdict = policy.Deny
				l.Why = "read-only mode refuses what it would ask: " + l.Why
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
	words  int     // words parsed so far, in the command and the scripts of bash -c in it
	kind   Kind    // the call's kind, once known
	tr     *tracer // the readings of the command being decided, for guard explain; nil otherwise
	// scriptCtx names the scripts of bash -c the commands being decided
	// are in, outermost first, for guard explain.
	scriptCtx []string

	// Caches for one decision: a long command names the same directories
	// and matches the same patterns many times.
	patterns     map[string][]expanded  // path patterns with their placeholders replaced
	literals     map[string]string      // what every path a pattern matches contains
	shapes       *secretShapes          // the secret patterns by shape, for walking trees
	trees        map[treeKey]treeResult // trees walked for secrets
	placeholders []placeholder          // the values of the path patterns' placeholders
	reals        map[string]string      // real paths of directories, by their lexical path
	protect      []string               // guard's own directories, each way they are spelled
	protectSet   bool
	gitDirs      map[string]string             // gitDirAncestor of a path in each directory
	grantKinds   map[string]string             // what a grant covers, for the rules that say grant = "call"
	lists        map[listKey][]compiledPattern // lists of path patterns made ready for matching
	cands        []int32                       // the candidates of a match, reused
	components   map[string][][]string         // the components of the secret patterns' expansions
	listUses     map[listKey]int               // times each list was matched, until it is made ready
	checkedDirs  map[string]bool               // working directories found not secret
	gitChecked   map[string]pathCheck          // repositories git finds, by working directory
	goChecked    map[string]pathCheck          // toolchains go picks, by working directory
	goLocal      *goLocal                      // the go on the search path
	rustChecked  map[string]string             // why rustup's proxies run a toolchain the project picks, by working directory ("": they do not)
	excludes     []string                      // globs a search is rewritten with, to leave secrets out (Call.SearchGlobs)
	// scan says that the files the call reads are checked for what a
	// credential looks like (content.go): a decision's, not a
	// Confinement's, which answers for paths a jail shows.
	scan         bool
	scanned      map[string]scanResult // files checked for credentials
	trackedFiles map[string]struct{}   // the paths the project's repository tracks, once a check needs them
	// historyProofs counts the history reads allowed by what the
	// repository holds (githistory.go).
	historyProofs int

	// fds is what the call's redirections do to descriptors, in every
	// script of the call: /dev/stdout and the like reopen them.
	fds descriptors

	// anyParts are the positions, in the script being decided, of the
	// command substitutions and parameter expansions that give operands
	// of rules that take any value (any_value), with the rule.
	anyParts map[shellparse.Pos]string

	// made is what the call's commands may make that guard cannot see
	// (made.go); cmdSeq numbers the commands as they are decided, the
	// scripts of bash -c in them included.
	made       []made
	madeKnown  bool // made holds what every command makes: the second pass
	cmdSeq     int
	again      bool // the command being decided may run again after those that follow it
	concurrent bool // the command being decided runs at once with those that follow it
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
	// In read-only mode the read-only shell commands run in the read-only
	// sandbox where it can run (sandboxed rewrites them), and only where
	// the policy says read_only_shell otherwise.
	if d.readOnly() && !readOnlyKind(kind, t) && (kind != KindShell || !d.p.ReadOnlyShell() && !d.call.readOnlyShell && len(d.call.Run) == 0) {
		why := fmt.Sprintf("%s may write files or run code", name)
		hint := "read, search and list files instead"
		if kind == KindShell {
			why = fmt.Sprintf("the policy does not allow %s in read-only mode without the sandbox (%s)", name, cmpOr(d.call.NoRun, "guard run is not available"))
			hint = "read, search and list files instead; the policy can allow read-only shell commands without the sandbox with read_only_shell = true"
		}
		d.add(Leaf{Verdict: Deny, Kind: "tool", Text: name, Rule: "read-only", Why: why, Hint: hint})
		return
	}
	d.kind = kind
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
		leaves, fds := len(d.leaves), d.fds.clone()
		d.script(cmd, []string{path.Clean(d.call.Cwd)}, d.p.Dialect(), d.call.Shell != "bash", 0)
		if len(d.made) > 0 {
			// Decide again, with what every command may make known to
			// each: a command of a loop runs after those that follow it.
			d.leaves, d.fds, d.words, d.cmdSeq, d.madeKnown = d.leaves[:leaves], fds, 0, 0, true
			d.script(cmd, []string{path.Clean(d.call.Cwd)}, d.p.Dialect(), d.call.Shell != "bash", 0)
		}
	case KindRead, KindList, KindSearch:
		if !d.pathCall(name, rule, readAccess, kind != KindRead) {
			return
		}
		if kind == KindList && d.call.Input.Pattern != "" {
			d.listPattern(name)
		}
		if kind == KindSearch {
			d.searchTree(name)
		}
	case KindWrite, KindEdit:
		d.pathCall(name, rule, writeAccess, false)
	case KindFetch:
		d.fetch(name)
	default:
		d.tool(name, t, rule)
	}
}

// cmpOr returns s, or def when s is "".
func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// readOnlyKind reports whether read-only mode may allow a call of this
// kind, or of a tool of this tier: [policy.Tier.ReadOnly] says, of the
// tier the kind is named after.
func readOnlyKind(k Kind, t policy.Tier) bool {
	if k != KindTool {
		t, _ = policy.TierNamed(string(k)) // no such tier: TierDeny, not read-only
	}
	return t.ReadOnly()
}

// tool decides a tool by its tier alone.
func (d *decider) tool(name string, t policy.Tier, rule string) {
	switch t {
	case policy.TierAllow, policy.TierInternal:
		d.add(Leaf{Verdict: Allow, Kind: "tool", Text: name, Rule: rule, Why: fmt.Sprintf("tool %s is allowed", name)})
	case policy.TierSession:
		d.add(Leaf{Verdict: policy.Session, Kind: "tool", Text: name, Rule: rule, Why: fmt.Sprintf("tool %s needs approval once in this session", name),
			Scope: &Scope{Kind: policy.GrantTool, Key: name}})
	case policy.TierAsk:
		d.add(Leaf{Verdict: Ask, Kind: "tool", Text: name, Rule: rule, Why: fmt.Sprintf("tool %s needs approval", name)})
	default:
		why := fmt.Sprintf("tool %s is not allowed by policy", name)
		if rule == "" {
			why = fmt.Sprintf("tool %s is not in the policy's [tools] table", name)
			if d.p.DefaultVerdict() == Ask {
				d.add(Leaf{Verdict: Ask, Kind: "tool", Text: name, Why: why + "; it needs approval", Review: true})
				return
			}
		}
		d.add(Leaf{Verdict: Deny, Kind: "tool", Text: name, Rule: rule, Why: why, Review: rule == ""})
	}
}

// pathCall decides a call that reads, lists, searches or writes one path.
// Where cwdDefault is set, a call without a path works in its working
// directory. It reports whether the path was judged, whatever its verdict.
func (d *decider) pathCall(name, rule string, acc access, cwdDefault bool) bool {
	p := d.call.Input.Path
	if p == "" {
		if !cwdDefault {
			d.add(Leaf{Verdict: Deny, Kind: "input", Text: name, Rule: rule, Why: fmt.Sprintf("%s call has no path string in its input", name)})
			return false
		}
		p = d.call.Cwd
	}
	allowed := d.p.FileReadVerdict()
	if acc == writeAccess {
		allowed = d.p.FileWriteVerdict()
	}
	tilde := p == "~" || strings.HasPrefix(p, "~/")
	pc := d.checkPath(p, tilde, []string{path.Clean(d.call.Cwd)}, acc, allowed)
	l := Leaf{Verdict: pc.verdict, Kind: "path", Text: name + " " + p, Rule: pc.rule, Why: fmt.Sprintf("%s: %s", name, pc.why)}
	if l.Verdict == policy.Session {
		l.Why += ": needs approval once in this session"
		l.Scope = d.pathScope(p, tilde, []string{path.Clean(d.call.Cwd)})
	}
	if pc.verdict == Deny && acc == writeAccess {
		l.Hint = writeDenyHint
	}
	d.add(l)
	return true
}

// searchTree judges the files a search tool reads: every file under its
// directory, as a recursive reader's (grep -r) are. A search tool (Claude
// Code's Grep with ripgrep's --hidden, Gemini CLI's grep_search with
// git grep --untracked or grep -r) reads hidden files, so a tree that
// holds a secret (a .env, a link to ~/.ssh) is not allowed: the search
// would print its lines. The call's path itself was judged already.
func (d *decider) searchTree(name string) {
	p := d.call.Input.Path
	if p == "" {
		p = d.call.Cwd
	}
	tilde := p == "~" || strings.HasPrefix(p, "~/")
	unknown := policy.Stricter(Ask, d.p.DefaultVerdict())
	var roots []string
	for _, a := range d.absPaths(p, tilde, []string{path.Clean(d.call.Cwd)}) {
		if fi, err := d.fsys.Stat(a); err == nil && fi.IsDir() {
			roots = append(roots, path.Clean(a)) // a file is judged as the call's path; nothing to search
		}
	}
	if len(roots) > 0 && d.call.SearchGlobs {
		if globs, ok := d.searchExcludes(roots); ok {
			d.excludes = globs
			d.add(Leaf{Verdict: Allow, Kind: "path", Text: name + " " + p, Rule: "paths.search",
				Why: fmt.Sprintf("%s reads the files under %s but those the secret patterns name, which guard leaves out of the search (%s)", name, p, strings.Join(globs, " "))})
			return
		}
	}
	for _, a := range roots {
		found, err := d.treeSecret(a)
		switch {
		case err != nil:
			d.add(Leaf{Verdict: unknown, Kind: "path", Text: name + " " + p, Rule: "paths.search",
				Why:  fmt.Sprintf("%s reads every file under %s: %v", name, p, err),
				Hint: "search a smaller directory"})
			return
		case found != "":
			d.add(Leaf{Verdict: unknown, Kind: "path", Text: name + " " + p, Rule: "paths.search",
				Why:  fmt.Sprintf("%s reads every file under %s, which holds the secret %s", name, p, found),
				Hint: "search a directory without secrets under it, or read the files by name"})
			return
		}
	}
}

// searchExcludes returns the globs that leave the secrets out of a search
// of the trees roots by a tool that reads as ripgrep with --hidden
// --no-follow does (Call.SearchGlobs): !**/NAME for each secret named by a
// name alone (**/.env). ok is false where that is not enough: a secret of
// another shape (~/.ssh/**) at or under a root, or a name a glob cannot
// carry as one word of the tool's glob field.
func (d *decider) searchExcludes(roots []string) (globs []string, ok bool) {
	names, anchors := d.secretShapes()
	for _, root := range roots {
		real, err := realPath(d.fsys, root)
		if err != nil {
			return nil, false
		}
		for _, a := range anchors {
			for _, r := range []string{root, real} {
				if r == "/" || a.lit == r || strings.HasPrefix(a.lit, r+"/") || a.reachesInto(r) {
					return nil, false
				}
			}
		}
	}
	for _, n := range names {
		// The tool splits its glob field at white space, and at commas
		// outside braces; a leading ! would turn the exclusion around.
		if n == "" || strings.ContainsAny(n, " \t\n\r\v\f,{}\\!") || foldCase && strings.Contains(n, "[") {
			return nil, false
		}
		globs = append(globs, "!**/"+foldGlob(n))
	}
	return globs, true
}

// foldGlob makes a glob's letters match either case where the file
// system ignores case, as guard's own patterns do there (ripgrep's -g
// globs never do): .env is .[eE][nN][vV].
func foldGlob(g string) string {
	if !foldCase {
		return g
	}
	var b strings.Builder
	for _, r := range g {
		if lo, up := unicode.ToLower(r), unicode.ToUpper(r); lo != up {
			b.WriteString("[" + string(lo) + string(up) + "]")
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// searchGlob is the glob field of a search that leaves out what excludes
// names: the call's own globs first, since the later glob decides.
func searchGlob(own string, excludes []string) string {
	return strings.TrimSpace(own + " " + strings.Join(excludes, " "))
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
	pc := d.checkPath(dir, tilde, []string{path.Clean(d.call.Cwd)}, readAccess, d.p.FileReadVerdict())
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
