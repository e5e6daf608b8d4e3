// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"guard/policy"
	"guard/shellparse"
)

// Reads of git's history, judged by what they can print.
//
// git keeps every version of every file it was given: a .env committed
// once and removed later is printed again by git log -p, git show of the
// commit that added it, git diff across it, git grep PATTERN REV, and by a
// pathspec that matches it (git log -p -- '*.env', '.e*', ':(icase).ENV').
// A secret pattern applies to the history as to the tree. The rules that
// say revpaths = true (log, show, diff, grep, blame, cat-file, stash show
// and list, shortlog, rev-list) are judged so:
//
//   - what the command names is a read path: REV:PATH (:PATH and :N:PATH in
//     the index, REV:./PATH from where git runs), each pathspec element,
//     read each way git may read it (gitSpecModes: :(icase).ENV is .env),
//     and the file of -L. A secret one is denied, as reading it would be.
//   - a command that prints what the files hold (a patch: -p, -U, --cc,
//     -L, the default of show, diff and stash show; -S and -G, whose
//     answer depends on it; grep; --check) is allowed only where guard
//     shows, reading the repository as git would (gitstore.go), that none
//     of the files it reaches is secret: the commits it walks (all of
//     them, or the last N of -n when nothing else filters which it
//     shows), the changes of each against each parent, the whole trees
//     grep and diff against the working tree read, the index. A path
//     counts when the pathspecs may admit it, read each way; --follow,
//     -L and --full-diff print more than the pathspecs name, so there
//     every changed path counts. A secret among them is denied, named
//     with its commit. What guard cannot follow to its end (a history
//     longer than it reads, a revision it cannot resolve, --stdin, a
//     submodule's diff) is unknown, and gets the rule's unknown verdict,
//     with a narrower read as the hint. Without a repository git prints
//     nothing.
//   - a command that prints names alone (--stat, --name-only, --oneline,
//     ls-tree) is allowed: names are not contents.
//
// A proof holds for the history as it is when guard decides: a call that
// also runs a git command that writes (git commit, git stash) may change
// it first, so such a call asks (historyWrites).

// gitContent are the options that make a command of the log family print
// what the files hold, or answer by it.
var gitContent = []string{
	"-p", "-u", "--patch", "-U", "--unified", "--patch-with-stat", "--patch-with-raw", "--cc", "-c",
	"--remerge-diff", "--binary", "--check", "-L", "-S", "-G", "--word-diff", "--word-diff-regex",
	"--color-words", "-W", "--function-context",
}

// gitNamesOnly are the options with which show, diff and stash show print
// names rather than their default patch.
var gitNamesOnly = []string{
	"--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--raw", "--summary",
	"--dirstat", "-s", "--no-patch", "--quiet",
}

// gitWalkKeeps are the options of git log that do not choose which commits
// it shows (they format them, or say where the walk starts): with only
// these, git log -n N shows commits at most N-1 parents from a start.
var gitWalkKeeps = map[string]bool{}

func init() {
	for _, o := range strings.Fields(`-# -n --max-count --skip --oneline --graph --decorate --no-decorate
		--shortstat --numstat --name-only --name-status -p -u --patch -s --no-patch --abbrev-commit
		--no-abbrev-commit --abbrev -i --regexp-ignore-case -E --extended-regexp -F --fixed-strings
		--basic-regexp --perl-regexp --all --branches --tags --remotes --glob --exclude --single-worktree
		--first-parent --reverse --relative-date --date --no-color --color --topo-order --date-order
		--author-date-order --no-renames -w --ignore-all-space -b --ignore-space-change --ignore-blank-lines
		--ignore-space-at-eol -I --ignore-matching-lines --left-right --no-notes --notes --show-notes --source
		--use-mailmap --mailmap --no-mailmap --log-size --parents --children --full-diff --raw --summary
		--patch-with-stat --patch-with-raw --minimal --histogram --patience --diff-algorithm --no-ext-diff
		--no-textconv --cc -m -c --remerge-diff --full-index --binary -z --check --no-prefix --default-prefix
		--src-prefix --dst-prefix --line-prefix -a --text -R --clear-decorations --decorate-refs
		--decorate-refs-exclude --no-expand-tabs --expand-tabs --show-linear-break --ignore-missing --no-walk
		--do-walk --exit-code --quiet --function-context -W --irreversible-delete -D --no-relative --relative
		--ita-invisible-in-index --ita-visible-in-index --no-indent-heuristic --indent-heuristic
		--no-color-moved --no-color-moved-ws --color-moved --count --objects --objects-edge --format --pretty
		--stat --stat-width --stat-name-width --stat-count --stat-graph-width --dirstat --encoding -U --unified
		--word-diff --word-diff-regex --color-words --inter-hunk-context --ignore-submodules --anchored -O
		--ws-error-highlight -l --break-rewrites -B --abbrev-ref --rotate-to --skip-to -M -C --find-renames
		--find-copies --pickaxe-all --pickaxe-regex`) {
		gitWalkKeeps[o] = true
	}
}

// gitPatternGiven are grep's options that give the pattern, so that no
// operand is one.
var gitPatternGiven = []string{"-e", "-f", "--regexp", "--file"}

// historyRead is one history read being judged.
type historyRead struct {
	m       *matcher
	n       *policy.Rule
	sub     string // the subcommand: log, show, diff, grep, stash show, ...
	present map[string]bool
	values  map[string][]string
	r       *result

	revs []string // operands that may be revisions, as written
	spec []string // pathspec elements, as written

	// While a repository is read:
	s        *gitStore
	top      string   // the top of its working tree
	tops     []string // each spelling of it
	pathspec *gitSpec
	filtered bool               // the pathspecs limit what is printed
	found    *gitFinding        // a secret the read reaches
	commit   string             // the commit being looked at, for the message
	seen     map[[3]string]bool // tree pairs compared, and where
}

// gitFinding is a secret a history read reaches.
type gitFinding struct {
	path, commit, pattern string
}

// errGitFound ends a walk at the first secret.
var errGitFound = errors.New("a secret file")

// errNoRevision is a revision git finds nowhere either, having looked
// where guard did: git then refuses the command and prints nothing.
var errNoRevision = errors.New("no such revision")

// revPaths judges the operands of a rule with revpaths = true: what the
// command names, and for a read that prints what files hold, what it
// reaches. dashdash is the number of operands before --, or -1.
func (m *matcher) revPaths(n *policy.Rule, operands []shellparse.Word, dashdash int, present map[string]bool, values map[string][]string, r *result) {
	h := &historyRead{m: m, n: n, sub: strings.TrimPrefix(n.ID, "git "), present: present, values: values, r: r}
	before := dashdash
	if before < 0 {
		before = len(operands)
	}
	if h.sub == "grep" && before > 0 && !slices.ContainsFunc(gitPatternGiven, func(o string) bool { return present[o] }) {
		operands, before = operands[1:], before-1 // the pattern
	}
	for i, o := range operands {
		if o.Dynamic != "" {
			continue // already short of allow
		}
		if o.Glob {
			m.globRead(n, o, r) // the shell's expansion, judged as any glob read
		}
		v := o.Value
		if o.Tilde {
			// The shell makes it a path in the home.
			abs := m.d.absPaths(v, true, nil)
			if len(abs) == 0 {
				r.add(n.Unknown, n.ID, fmt.Sprintf("%s: %s is in a home guard does not know", n.ID, o.Source), "name the path inside the project")
				return
			}
			v, o.Tilde = path.Clean(abs[0]), false
		}
		switch {
		case h.sub == "cat-file" || h.sub == "blame":
			if !h.named(o, v) {
				return
			}
		case i >= before:
			if path.IsAbs(v) && !h.named(o, v) {
				return // a path outside the tree: git diff compares it
			}
			h.spec = append(h.spec, v)
		case strings.HasPrefix(v, ":(") || strings.HasPrefix(v, ":!") || strings.HasPrefix(v, ":^"):
			h.spec = append(h.spec, v) // pathspec magic, before -- too
		default:
			if !h.named(o, v) {
				return
			}
			h.revs = append(h.revs, v)
		}
	}
	for _, v := range values["-L"] {
		// -L START,END:FILE and -L :FUNCNAME:FILE: FILE is after a colon,
		// the last one unless the file's name holds one.
		for i := strings.LastIndexByte(v, ':'); i >= 0; i = strings.LastIndexByte(v[:i], ':') {
			if !h.namedPath(shellparse.Word{Value: v[i+1:], Source: "-L " + v}, v[i+1:], false, m.where) {
				return
			}
		}
	}
	if !h.namedSpec() || !h.printsContents() {
		return
	}
	h.prove()
}

// named judges an operand that names what git stores: REV:PATH, or a path.
// It reports false when it denied.
func (h *historyRead) named(o shellparse.Word, v string) bool {
	if rev, p, ok := strings.Cut(v, ":"); ok {
		if strings.HasPrefix(p, "/") && rev == "" {
			return true // :/text names a commit by its message
		}
		if rev == "" && len(p) > 2 && p[0] >= '0' && p[0] <= '3' && p[1] == ':' {
			p = p[2:] // :N:PATH, a stage of the index
		}
		if p == "" {
			return true
		}
		where := []string{h.m.d.project()}
		if tops := h.worktreeTops(); len(tops) > 0 {
			where = tops
		}
		if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || p == "." || p == ".." {
			where = h.m.where
		}
		return h.namedPath(o, p, false, where)
	}
	if h.n.ID == "git cat-file" && isObjectName(v) {
		h.r.add(h.n.Unknown, h.n.ID, fmt.Sprintf("%s: %s names an object by its hash, which may be any file's contents, a secret too", h.n.ID, o.Source), "name it as REV:PATH")
		return true
	}
	return h.namedPath(o, v, o.Tilde, h.m.where)
}

// namedPath judges a path git prints what it stores for.
func (h *historyRead) namedPath(o shellparse.Word, p string, tilde bool, where []string) bool {
	if p == "" {
		return true
	}
	pc := h.m.d.checkPath(p, tilde, where, readAccess, policy.Allow)
	switch {
	case pc.verdict == policy.Deny && strings.HasPrefix(pc.rule, "paths.secret"):
		h.r.add(policy.Deny, pc.rule, fmt.Sprintf("%s %s: git prints what it stores for %s", h.n.ID, o.Source, pc.why), pathHint(pc.rule, readAccess))
		return false
	case pc.verdict != policy.Allow && pc.rule == "":
		h.r.add(h.n.Unknown, h.n.ID, fmt.Sprintf("%s %s: %s", h.n.ID, o.Source, pc.why), "name the path literally")
	}
	return true
}

// worktreeTops returns the tops of the working trees git uses where the
// command runs.
func (h *historyRead) worktreeTops() []string {
	var out []string
	for _, dir := range h.m.where {
		if _, top, err := gitWorkTree(h.m.d.fsys, dir); err == nil && top != "" && !slices.Contains(out, top) {
			out = append(out, top)
		}
	}
	return out
}

// namedSpec judges the literal pathspec elements, read each way git may
// read them, as read paths. It reports false when it denied.
func (h *historyRead) namedSpec() bool {
	if len(h.spec) == 0 {
		return true
	}
	modes := gitSpecModes(h.m.outer)
	for _, dir := range h.m.where {
		// From the top of the working tree; without one, from the root.
		rel, top := strings.TrimPrefix(path.Clean(dir), "/"), "/"
		if _, t, err := gitWorkTree(h.m.d.fsys, dir); err == nil && t != "" {
			if r, ok := relDir(t, dir); ok {
				rel, top = r, t
			}
		}
		spec := &gitSpec{elems: h.spec, dir: rel, top: top}
		for _, mode := range modes {
			items, dies := spec.items(mode)
			if dies {
				continue
			}
			for i, it := range items {
				if it.exclude || it.kind != specLiteral {
					continue
				}
				forms := []string{gitTopPath(top, it.match)}
				if pat := matchAnyFold(h.m.d, h.m.d.p.Paths.Secret, forms, foldCase || it.icase); pat != "" {
					why := fmt.Sprintf("%s is a secret file (%s): guard does not let it be read or written", it.match, pat)
					h.r.add(policy.Deny, "paths.secret "+pat, fmt.Sprintf("%s %s: git prints what it stores for %s", h.n.ID, h.spec[i], why), pathHint("paths.secret", readAccess))
					return false
				}
			}
		}
	}
	return true
}

// relDir returns dir from top ("" for top itself); false when dir is not
// in the working tree.
func relDir(top, dir string) (string, bool) {
	dir = path.Clean(dir)
	if dir == top {
		return "", true
	}
	rel, ok := strings.CutPrefix(dir, top+"/")
	if !ok || rel == ".git" || strings.HasPrefix(rel, ".git/") {
		return "", false
	}
	return rel, true
}

// printsContents reports whether the command prints what files hold, or
// answers by it.
func (h *historyRead) printsContents() bool {
	has := func(list []string) bool {
		return slices.ContainsFunc(list, func(o string) bool { return h.present[o] })
	}
	switch h.sub {
	case "grep":
		return true
	case "show", "diff", "stash show":
		return has(gitContent) || !has(gitNamesOnly)
	case "log", "stash list":
		return has(gitContent)
	}
	return false
}

// prove reads each repository the command reaches for what it prints.
func (h *historyRead) prove() {
	d := h.m.d
	if h.m.where == nil {
		return // programConfig refused already
	}
	for _, dir := range h.m.where {
		if v, _ := d.checkGit(dir); v != policy.Allow {
			return // refused already: not the project's repository
		}
		real, err := realPath(d.fsys, dir)
		if err != nil {
			h.unknown(err)
			return
		}
		gitDir, top, err := gitWorkTree(d.fsys, real)
		if err != nil {
			h.unknown(err)
			return
		}
		if gitDir == "" {
			if !h.noRepository(real) {
				return
			}
			continue
		}
		rel, ok := relDir(top, real)
		if !ok {
			h.unknown(fmt.Errorf("git runs in %s, outside its working tree", dir))
			return
		}
		if h.sub == "diff" && len(h.revs)+len(h.spec) == 2 && h.outside(top, rel) && !h.noIndex(real) {
			return
		}
		if !h.proveIn(gitDir, top, rel) {
			return
		}
	}
	if h.sub != "blame" && h.sub != "cat-file" {
		d.historyProofs++
	}
}

// noRepository judges the command where git finds no repository: git
// diff then compares the files it names (as --no-index does), and git
// grep, with grep.fallbackToNoIndex, searches the files under dir; the
// others print nothing. It reports false when it refused the command.
func (h *historyRead) noRepository(dir string) bool {
	switch {
	case h.sub == "diff" && len(h.revs)+len(h.spec) == 2:
		return h.noIndex(dir)
	case h.sub == "grep":
		return h.treeRead(dir, "outside a repository git searches every file under", "(grep.fallbackToNoIndex)", "search with rg, which skips hidden files such as .env")
	}
	return true
}

// treeRead judges a command that reads every file under dir, as grep -r
// does: a secret there refuses it. It reports false when it refused.
func (h *historyRead) treeRead(dir, what, why, hint string) bool {
	found, err := h.m.d.treeSecret(dir)
	switch {
	case err != nil:
		why = err.Error()
	case found != "":
		why += fmt.Sprintf(", which holds the secret %s", found)
	default:
		return true
	}
	h.r.add(h.n.Unknown, h.n.ID, fmt.Sprintf("%s: %s %s %s", h.n.ID, what, dir, why), hint)
	return false
}

// noIndex judges git diff comparing the two paths it names as files, as
// --no-index does, where git runs in dir: outside a repository, or with a
// path outside the working tree. Each is a read path; a directory is read
// whole, as grep -r reads it. It reports false when it refused the
// command.
func (h *historyRead) noIndex(dir string) bool {
	d := h.m.d
	for _, v := range slices.Concat(h.revs, h.spec) {
		pc := d.checkPath(v, false, []string{dir}, readAccess, policy.Allow)
		if pc.verdict != policy.Allow {
			h.r.add(pc.verdict, cmpOr(pc.rule, h.n.ID), fmt.Sprintf("%s compares the files it names, as --no-index does: %s", h.n.ID, pc.why), pathHint(pc.rule, readAccess))
			return false
		}
		for _, a := range d.absPaths(v, false, []string{dir}) {
			if fi, err := d.fsys.Stat(a); err != nil || !fi.IsDir() {
				continue // a file, judged by its path; or nothing, which git cannot read either
			}
			if !h.treeRead(path.Clean(a), "compares every file under", "as --no-index does", "compare the files with diff -u FILE1 FILE2") {
				return false
			}
		}
	}
	return true
}

// outside reports whether an operand of git diff is a path outside the
// working tree (top, where git runs in rel).
func (h *historyRead) outside(top, rel string) bool {
	for _, v := range slices.Concat(h.revs, h.spec) {
		switch {
		case strings.HasPrefix(v, ":"):
		case path.IsAbs(v):
			if _, ok := relDir(top, path.Clean(v)); !ok {
				return true
			}
		default:
			if _, ok := normalGitPath(rel + "/" + v); !ok {
				return true
			}
		}
	}
	return false
}

// proveIn reads one repository; false when it refused the command.
func (h *historyRead) proveIn(gitDir, top, rel string) bool {
	d := h.m.d
	s, err := openGitStore(d.fsys, gitDir)
	if err != nil {
		h.unknown(err)
		return false
	}
	defer s.close()
	h.s, h.top, h.tops, h.seen = s, top, spellings(d.fsys, []string{top}), map[[3]string]bool{}
	h.pathspec = &gitSpec{elems: h.spec, dir: rel, top: top, modes: gitSpecModes(h.m.outer)}
	h.filtered = len(h.spec) > 0 && !h.unfiltered()
	switch h.sub {
	case "diff":
		err = h.diff()
	case "show":
		err = h.show()
	case "stash show":
		err = h.stashShow()
	case "grep":
		err = h.grep()
	default:
		err = h.log()
	}
	switch {
	case errors.Is(err, errNoRevision):
		return true // git refuses the command
	case errors.Is(err, errGitFound):
		f := h.found
		where := "in the index"
		if f.commit != "" {
			where = "in commit " + hex.EncodeToString([]byte(f.commit))[:12]
		}
		h.r.add(policy.Deny, "paths.secret "+f.pattern, fmt.Sprintf("%s prints what git stores for %s (%s), a secret file (%s): guard does not let it be read", h.n.ID, f.path, where, f.pattern), h.hint())
		return false
	case err != nil:
		h.unknown(err)
		return false
	}
	return true
}

// unknown refuses a read guard cannot follow to its end.
func (h *historyRead) unknown(err error) {
	h.r.add(h.n.Unknown, h.n.ID, fmt.Sprintf("%s prints what files hold, and guard cannot show that none of those it reaches is secret: %v", h.n.ID, err), h.hint())
}

// hint names a read that does what the command was for without reaching
// every file.
func (h *historyRead) hint() string {
	switch h.sub {
	case "log":
		if len(h.spec) > 0 {
			// -n does not bound a walk that paths filter.
			return "git log --oneline -- PATH lists the commits that changed a path, and git show COMMIT -- PATH prints one of them; git log --stat prints names only"
		}
		return "git log -p -n 5 reads the last commits only; git log -p -- src/ the paths you name, where no secret is; git log --stat prints names only"
	case "show":
		return "git show --stat REV prints names only; git show REV -- src/ prints the changes to the paths you name"
	case "diff":
		return "git diff --stat prints names only; git diff -- src/ prints the changes to the paths you name"
	case "grep":
		return "search the paths you need: git grep PATTERN REV -- src/"
	case "stash show", "stash list":
		return "git stash show --stat prints names only"
	}
	return "name the paths to read"
}

// visit judges a path the read may print; commit is "" for the index.
func (h *historyRead) visit(p string, e gitEntry) error {
	if e.isGitlink() {
		if v := h.values["--submodule"]; slices.Contains(v, "diff") || h.present["--recurse-submodules"] || h.s.submoduleDiff && !h.present["--submodule"] {
			if !h.filtered || h.pathspec.admits(p) {
				return fmt.Errorf("%s is a submodule, whose own files git prints too", p)
			}
		}
		return nil
	}
	if h.filtered && !h.pathspec.admits(p) {
		return nil
	}
	forms := make([]string, len(h.tops))
	for i, t := range h.tops {
		forms[i] = gitTopPath(t, p)
	}
	if pat := h.m.d.matchAny(h.m.d.p.Paths.Secret, forms); pat != "" {
		h.found = &gitFinding{path: p, commit: h.commit, pattern: pat}
		return errGitFound
	}
	return nil
}

// diffTrees visits every path that differs between the trees a and b
// ("" for none), under dir.
func (h *historyRead) diffTrees(a, b, dir string) error {
	if a == b || h.seen[[3]string{a, b, dir}] {
		return nil
	}
	h.seen[[3]string{a, b, dir}] = true
	ea, err := h.entries(a)
	if err != nil {
		return err
	}
	eb, err := h.entries(b)
	if err != nil {
		return err
	}
	// Both are in git's order: a tree's name sorts as if it ended in /.
	for i, j := 0, 0; i < len(ea) || j < len(eb); {
		c := -1 // only a's entries are left
		switch {
		case i == len(ea):
			c = 1
		case j < len(eb):
			c = gitOrder(ea[i], eb[j])
		}
		var x, y *gitEntry
		if c <= 0 {
			x = &ea[i]
			i++
		}
		if c >= 0 {
			y = &eb[j]
			j++
		}
		if x != nil && y != nil && x.id == y.id && x.mode == y.mode {
			continue
		}
		if err := h.diffEntries(x, y, dir); err != nil {
			return err
		}
	}
	return nil
}

// gitOrder compares two entries of trees in git's order.
func gitOrder(x, y gitEntry) int {
	xn, yn := x.name, y.name
	if x.isTree() {
		xn += "/"
	}
	if y.isTree() {
		yn += "/"
	}
	return strings.Compare(xn, yn)
}

// diffEntries visits the entries x and y (either may be nil) of a name
// that differs between two trees, under dir.
func (h *historyRead) diffEntries(x, y *gitEntry, dir string) error {
	var p string
	var xt, yt string
	for _, e := range []*gitEntry{x, y} {
		if e == nil {
			continue
		}
		p = joinGit(dir, e.name)
		if !e.isTree() {
			if err := h.visit(p, *e); err != nil {
				return err
			}
		}
	}
	if x != nil && x.isTree() {
		xt = x.id
	}
	if y != nil && y.isTree() {
		yt = y.id
	}
	if (xt != "" || yt != "") && (!h.filtered || h.pathspec.descends(p)) {
		return h.diffTrees(xt, yt, p)
	}
	return nil
}

func (h *historyRead) entries(tree string) ([]gitEntry, error) {
	if tree == "" {
		return nil, nil
	}
	return h.s.tree(tree)
}

func joinGit(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// changes visits what a commit changed against each of its parents (all
// it holds, for a root), and with --find-copies-harder every file of its
// parents, which may be the source of a copy.
func (h *historyRead) changes(id string) error {
	c, err := h.s.commit(id)
	if err != nil {
		return err
	}
	h.commit = id
	if len(c.parents) == 0 {
		return h.diffTrees("", c.tree, "")
	}
	// -C twice finds copies among every file, as --find-copies-harder
	// does; guard cannot count it, so any -C counts.
	harder := h.present["--find-copies-harder"] || h.present["-C"] || h.present["--find-copies"]
	for _, p := range c.parents {
		pc, err := h.s.commit(p)
		if err != nil {
			return err
		}
		if err := h.diffTrees(pc.tree, c.tree, ""); err != nil {
			return err
		}
		if harder {
			if err := h.diffTrees("", pc.tree, ""); err != nil {
				return err
			}
		}
	}
	return nil
}

// wholeTree visits every path of a tree-ish.
func (h *historyRead) wholeTree(id, dir string) error {
	peeled, _, err := h.s.peel(id)
	if err != nil {
		return err
	}
	tree, err := h.treeOf(peeled)
	if err != nil {
		return err
	}
	h.commit = peeled
	return h.diffTrees("", tree, dir)
}

// treeOf returns the tree a tree-ish names.
func (h *historyRead) treeOf(id string) (string, error) {
	id, typ, err := h.s.peel(id)
	if err != nil {
		return "", err
	}
	switch typ {
	case gitTree:
		return id, nil
	case gitCommit:
		c, err := h.s.commit(id)
		return c.tree, err
	}
	return "", fmt.Errorf("object %x is not a tree", id)
}

// index visits the paths of the index.
func (h *historyRead) index() error {
	ix, err := h.s.index()
	if err != nil {
		return err
	}
	h.commit = ""
	for _, e := range ix.entries {
		if err := h.visit(e.path, gitEntry{mode: e.mode, id: e.id}); err != nil {
			return err
		}
	}
	return nil
}

// revision resolves one revision as git's get_oid does, for the forms
// guard reads: a full or unique abbreviated hash, a ref (HEAD, @, a
// branch, tag or remote, as git's rules find it), NAME@{N}, and the
// suffixes ^, ^N, ~, ~N, ^{}, ^{commit} and ^{tree}.
func (h *historyRead) revision(rev string) (string, error) {
	base := rev
	if i := strings.IndexAny(rev, "^~"); i >= 0 {
		base, rev = rev[:i], rev[i:]
	} else {
		rev = ""
	}
	id, err := h.revBase(base)
	if err != nil {
		return "", err
	}
	for rev != "" {
		op := rev[0]
		rev = rev[1:]
		if op == '^' && strings.HasPrefix(rev, "{") {
			end := strings.IndexByte(rev, '}')
			if end < 0 {
				return "", fmt.Errorf("a revision guard cannot read: %s", base)
			}
			what := rev[1:end]
			rev = rev[end+1:]
			peeled, typ, err := h.s.peel(id)
			if err != nil {
				return "", err
			}
			switch {
			case what == "" || what == "commit" && typ == gitCommit:
				id = peeled
			case what == "tree":
				if id, err = h.treeOf(peeled); err != nil {
					return "", err
				}
			default:
				return "", fmt.Errorf("guard does not read the revision suffix ^{%s}", what)
			}
			continue
		}
		digits := len(rev) - len(strings.TrimLeft(rev, "0123456789"))
		n := 1
		if digits > 0 {
			var err error
			if n, err = strconv.Atoi(rev[:digits]); err != nil || n > 1<<20 {
				return "", fmt.Errorf("a revision guard cannot read: %s", rev)
			}
			rev = rev[digits:]
		}
		peeled, _, err := h.s.peel(id)
		if err != nil {
			return "", err
		}
		id = peeled
		if op == '^' && n == 0 {
			continue
		}
		steps, nth := n, 1
		if op == '^' {
			steps, nth = 1, n
		}
		for range steps {
			c, err := h.s.commit(id)
			if err != nil {
				return "", err
			}
			if len(c.parents) < nth {
				return "", fmt.Errorf("%w: past the history's start", errNoRevision)
			}
			id = c.parents[nth-1]
		}
	}
	return id, nil
}

// gitRefRules are the places git looks for a short ref name, in order.
var gitRefRules = []string{"refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"}

// revBase resolves a revision without suffixes.
func (h *historyRead) revBase(base string) (string, error) {
	s := h.s
	name, reflog := base, -1
	if i := strings.Index(base, "@{"); i >= 0 && strings.HasSuffix(base, "}") {
		n, err := strconv.Atoi(base[i+2 : len(base)-1])
		if err != nil || n < 0 {
			return "", fmt.Errorf("guard does not read the revision %s", base)
		}
		name, reflog = base[:i], n
	}
	if name == "@" || name == "" && reflog < 0 {
		name = "HEAD"
	}
	if name == "" {
		// @{N}: the reflog of the branch HEAD is on.
		name = "HEAD"
		if data, err := readFile(s.fsys, path.Join(s.gitDir, "HEAD"), maxGitFile); err == nil {
			if target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "ref:"); ok {
				name = strings.TrimSpace(target)
			}
		}
	}
	if id, ok := s.parseID(name); ok && reflog < 0 {
		return id, nil
	}
	if strings.HasPrefix(name, "main-worktree/") || strings.HasPrefix(name, "worktrees/") {
		return "", fmt.Errorf("%s is no revision guard can read", base)
	}
	if !validRefName(name) {
		return "", fmt.Errorf("%w: %s cannot be a ref", errNoRevision, base)
	}
	var found []string
	var refs []string
	try := func(full string) error {
		id, err := s.ref(full)
		if err != nil {
			return err
		}
		if id != "" && !slices.Contains(found, id) {
			found = append(found, id)
			refs = append(refs, full)
		}
		return nil
	}
	if name == "HEAD" || strings.HasPrefix(name, "refs/") || isPseudoRef(name) {
		if err := try(name); err != nil {
			return "", err
		}
	}
	for _, rule := range gitRefRules {
		if err := try(fmt.Sprintf(rule, name)); err != nil {
			return "", err
		}
	}
	isHex := len(name) >= 4 && strings.Trim(name, "0123456789abcdef") == ""
	if isHex && reflog < 0 {
		ids, err := s.withPrefix(name)
		if err != nil {
			return "", err
		}
		for _, id := range ids {
			if !slices.Contains(found, id) {
				found = append(found, id)
				refs = append(refs, "")
			}
		}
	}
	if len(found) == 0 && reflog < 0 {
		// git describe's NAME-N-gHASH names the commit HASH.
		if i := strings.LastIndex(name, "-g"); i > 0 && len(name)-i-2 >= 4 && strings.Trim(name[i+2:], "0123456789abcdef") == "" {
			ids, err := s.withPrefix(name[i+2:])
			if err != nil {
				return "", err
			}
			found = ids
		}
	}
	switch {
	case len(found) == 0:
		return "", fmt.Errorf("%w: %s", errNoRevision, base)
	case len(found) > 1:
		return "", fmt.Errorf("%s may name more than one object", base)
	case reflog < 0:
		return found[0], nil
	}
	log, err := s.reflog(refs[0])
	if err != nil {
		return "", err
	}
	if reflog >= len(log) {
		return "", fmt.Errorf("%w: %s is past the end of its reflog", errNoRevision, base)
	}
	return log[reflog], nil
}

// isObjectName reports whether s looks like an object's hash.
func isObjectName(s string) bool {
	if len(s) < 4 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// isPseudoRef reports whether name may be a ref of the git directory's
// own (FETCH_HEAD, ORIG_HEAD, AUTO_MERGE): capitals and _ alone.
func isPseudoRef(name string) bool {
	return strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == ""
}

// validRefName reports whether git could take name for a ref.
func validRefName(name string) bool {
	if name == "" || strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".") ||
		strings.Contains(name, "..") || strings.Contains(name, "//") || strings.Contains(name, "@{") {
		return false
	}
	for _, c := range strings.Split(name, "/") {
		if strings.HasPrefix(c, ".") || strings.HasSuffix(c, ".lock") {
			return false
		}
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) {
			return false
		}
	}
	return true
}

// revRange is what the revision operands name: the commits to start
// from, those whose history is left out, and whether one was a range.
type revRange struct {
	tips, not []string
	isRange   bool
}

// revisions resolves the revision operands as git log reads them; an
// operand that is no revision is a path if it has a wildcard or names a
// file in the working tree, as git takes it, else unknown.
func (h *historyRead) revisions(revs []string) (revRange, error) {
	var out revRange
	for _, v := range revs {
		switch {
		case strings.HasPrefix(v, ":/"):
			// The youngest commit whose message matches, which guard does
			// not search for: any commit a ref reaches.
			ids, err := h.allTips()
			if err != nil {
				return out, err
			}
			out.tips, out.isRange = append(out.tips, ids...), true
		case strings.Contains(v, "..."):
			a, b, _ := strings.Cut(v, "...")
			for _, x := range []string{a, b} {
				id, err := h.revision(cmpOr(x, "HEAD"))
				if err != nil {
					return out, err
				}
				out.tips = append(out.tips, id)
			}
			out.isRange = true
		case strings.Contains(v, ".."):
			a, b, _ := strings.Cut(v, "..")
			x, err := h.revision(cmpOr(a, "HEAD"))
			if err != nil {
				return out, err
			}
			y, err := h.revision(cmpOr(b, "HEAD"))
			if err != nil {
				return out, err
			}
			out.not, out.tips, out.isRange = append(out.not, x), append(out.tips, y), true
		case strings.HasPrefix(v, "^"):
			id, err := h.revision(v[1:])
			if err != nil {
				return out, err
			}
			out.not, out.isRange = append(out.not, id), true
		case strings.HasSuffix(v, "^@"), strings.HasSuffix(v, "^!"):
			id, err := h.revision(v[:len(v)-2])
			if err != nil {
				return out, err
			}
			out.tips, out.isRange = append(out.tips, id), true
		default:
			if err := h.revOrPath(v, &out.tips); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// revOrPath resolves an operand before --: a revision, added to ids, or
// a path if git finds no such revision and takes it for one (isPath),
// added to the pathspecs.
func (h *historyRead) revOrPath(v string, ids *[]string) error {
	id, err := h.revision(v)
	switch {
	case errors.Is(err, errNoRevision) && h.isPath(v):
		h.addSpec(v)
	case err != nil:
		return err
	default:
		*ids = append(*ids, id)
	}
	return nil
}

// addSpec adds a pathspec element found among the operands.
func (h *historyRead) addSpec(v string) {
	h.spec = append(h.spec, v)
	h.pathspec.elems = h.spec
	h.filtered = !h.unfiltered()
}

// unfiltered reports whether the command prints more than its pathspecs
// name: --follow (or log.follow, for one path) follows the file to its
// older names, -L its lines, --full-diff prints every change of a commit.
func (h *historyRead) unfiltered() bool {
	return h.present["--follow"] || h.present["-L"] || h.present["--full-diff"] ||
		h.s != nil && h.s.follow && h.sub == "log" && len(h.spec) == 1
}

// isPath reports whether git takes an operand that is no revision for a
// path: it has a wildcard, or names a file where git runs.
func (h *historyRead) isPath(v string) bool {
	if strings.ContainsAny(v, "^~:") || strings.Contains(v, "@{") {
		return false
	}
	if hasWildcard(v) {
		return true
	}
	for _, a := range h.m.d.absPaths(v, false, h.m.where) {
		if _, err := h.m.d.fsys.Lstat(a); err == nil {
			return true
		}
	}
	return false
}

// refTips returns the refs git log's --all, --branches, --tags,
// --remotes, --glob and --bisect start from: every ref, and HEAD.
func (h *historyRead) refTips() ([]string, error) {
	for _, o := range []string{"--all", "--branches", "--tags", "--remotes", "--glob", "--bisect"} {
		if h.present[o] {
			return h.allTips()
		}
	}
	return nil, nil
}

// allTips returns what every ref names, and HEAD.
func (h *historyRead) allTips() ([]string, error) {
	ids, err := h.s.refs("refs/")
	if err != nil {
		return nil, err
	}
	head, err := h.s.ref("HEAD")
	if err != nil {
		return nil, err
	}
	if head != "" {
		ids = append(ids, head)
	}
	return ids, nil
}

// log judges the commits git log (and shortlog, rev-list, stash list)
// walks, each with what it changed.
func (h *historyRead) log() error {
	if h.present["--stdin"] {
		return errors.New("it reads revisions from standard input, which guard cannot see")
	}
	if h.present["-g"] || h.present["--walk-reflogs"] || h.sub == "stash list" {
		return h.reflogs()
	}
	rr, err := h.revisions(h.revs)
	if err != nil {
		return err
	}
	more, err := h.refTips()
	if err != nil {
		return err
	}
	rr.tips = append(rr.tips, more...)
	if len(rr.tips) == 0 && len(more) == 0 {
		head, err := h.s.ref("HEAD")
		if err != nil || head == "" {
			return err // an unborn branch: nothing to show
		}
		rr.tips = []string{head}
	}
	return h.walk(rr, h.depth())
}

// depth returns how far from a start git log's -n lets it go, or -1:
// commit N-1 parents away is the farthest the first N can be, where
// nothing else chooses which commits it shows.
func (h *historyRead) depth() int {
	if len(h.spec) > 0 {
		return -1
	}
	for o := range h.present {
		if !gitWalkKeeps[o] {
			return -1
		}
	}
	last := func(o string) (int, bool) {
		v := h.values[o]
		if len(v) == 0 {
			return 0, false
		}
		n, err := strconv.Atoi(v[len(v)-1])
		return n, err == nil && n >= 0
	}
	n, ok := -1, false
	for _, o := range []string{"-n", "--max-count", "-#"} {
		if k, found := last(o); found {
			n, ok = k, true
		}
	}
	if !ok {
		return -1
	}
	skip, _ := last("--skip")
	if n == 0 {
		return 0
	}
	return n + skip
}

// walk visits the commits reachable from the tips, at most depth commits
// deep (-1: all), and not reachable from rr.not.
func (h *historyRead) walk(rr revRange, depth int) error {
	if depth == 0 {
		return nil
	}
	hidden := map[string]bool{}
	if h.present["--not"] {
		// --not turns what follows around, ^A back to A: guard walks all.
		rr.tips, rr.not = append(rr.tips, rr.not...), nil
	}
	if !h.present["--boundary"] {
		err := h.eachAncestor(rr.not, func(id string, _ int) (bool, error) {
			hidden[id] = true
			return true, nil
		})
		if err != nil {
			return err
		}
	}
	return h.eachAncestor(rr.tips, func(id string, d int) (bool, error) {
		if hidden[id] {
			return false, nil
		}
		return depth < 0 || d < depth, h.changes(id)
	})
}

// eachAncestor calls visit with each commit reachable from starts (tags
// peeled, trees and blobs left out), once, and its distance from them (1
// for a start); where visit returns false, not with its parents.
func (h *historyRead) eachAncestor(starts []string, visit func(id string, depth int) (bool, error)) error {
	type item struct {
		id    string
		depth int
	}
	queue := make([]item, len(starts))
	for i, s := range starts {
		queue[i] = item{s, 1}
	}
	seen := map[string]bool{}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		id, typ, err := h.s.peel(it.id)
		if err != nil {
			return err
		}
		if typ != gitCommit || seen[id] {
			continue // git log refuses a tree or a blob
		}
		seen[id] = true
		more, err := visit(id, it.depth)
		if err != nil || !more {
			if err != nil {
				return err
			}
			continue
		}
		c, err := h.s.commit(id)
		if err != nil {
			return err
		}
		for _, p := range c.parents {
			queue = append(queue, item{p, it.depth + 1})
		}
	}
	return nil
}

// reflogs judges git log -g: the commits the reflogs of the named refs
// (HEAD by default, refs/stash for git stash list) hold.
func (h *historyRead) reflogs() error {
	names := []string{"HEAD"}
	if h.sub == "stash list" {
		names = []string{"refs/stash"}
	}
	if len(h.revs) > 0 {
		names = nil
		for _, v := range h.revs {
			full := ""
			for _, cand := range append([]string{v}, fmtRules(v)...) {
				if id, err := h.s.ref(cand); err == nil && id != "" {
					full = cand
					break
				}
			}
			if full == "" {
				return fmt.Errorf("guard does not read the reflog of %s", v)
			}
			names = append(names, full)
		}
	}
	for _, name := range names {
		ids, err := h.s.reflog(name)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if err := h.changes(id); err != nil {
				return err
			}
		}
	}
	return nil
}

func fmtRules(name string) []string {
	out := make([]string, len(gitRefRules))
	for i, r := range gitRefRules {
		out[i] = fmt.Sprintf(r, name)
	}
	return out
}

// show judges git show: each commit it names with what it changed, the
// commits of a range it walks, a tag's target.
func (h *historyRead) show() error {
	// Every operand is read first: the paths among them limit what is
	// printed of every commit.
	var tips, blobs []string
	var ranges []revRange
	for _, v := range h.revs {
		switch {
		case strings.Contains(v, ":") && !strings.HasPrefix(v, ":/"):
			blobs = append(blobs, v)
		case strings.HasPrefix(v, ":/") || strings.Contains(v, "..") || strings.HasPrefix(v, "^") ||
			strings.HasSuffix(v, "^@") || strings.HasSuffix(v, "^!") || h.present["--do-walk"]:
			rr, err := h.revisions([]string{v})
			if err != nil {
				return err
			}
			ranges = append(ranges, rr)
		default:
			if err := h.revOrPath(v, &tips); err != nil {
				return err
			}
		}
	}
	for _, v := range blobs {
		if err := h.blobOperand(v); err != nil {
			return err
		}
	}
	for _, rr := range ranges {
		if err := h.walk(rr, h.depth()); err != nil {
			return err
		}
	}
	if len(tips)+len(blobs)+len(ranges) == 0 {
		head, err := h.s.ref("HEAD")
		if err != nil || head == "" {
			return err
		}
		tips = []string{head}
	}
	for _, t := range tips {
		id, typ, err := h.s.peel(t)
		if err != nil {
			return err
		}
		switch typ {
		case gitCommit:
			if err := h.changes(id); err != nil {
				return err
			}
		case gitBlob:
			return fmt.Errorf("%x is a file's contents named by its hash, which may be a secret", t)
		}
	}
	return nil
}

// blobOperand judges REV:PATH as an operand of show or diff: the path was
// judged as a read path; a directory is a tree, whose files diff compares.
func (h *historyRead) blobOperand(v string) error {
	rev, p, _ := strings.Cut(v, ":")
	if rev == "" {
		return nil // the index's file, judged by its name
	}
	id, err := h.revision(rev)
	if err != nil {
		return err
	}
	tree, err := h.treeOf(id)
	if err != nil {
		return err
	}
	clean, ok := normalGitPath(p)
	if !ok || clean == "" {
		return h.wholeTree(tree, "")
	}
	cur := tree
	parts := strings.Split(clean, "/")
	for i, part := range parts {
		ents, err := h.s.tree(cur)
		if err != nil {
			return err
		}
		j := slices.IndexFunc(ents, func(e gitEntry) bool { return e.name == part })
		if j < 0 {
			return nil // git finds nothing there
		}
		e := ents[j]
		if !e.isTree() {
			return nil // a file, judged by its name
		}
		cur = e.id
		if i == len(parts)-1 {
			return h.diffTrees("", cur, clean)
		}
	}
	return nil
}

// diff judges git diff by what it compares: the working tree and the
// index (the index's paths), a tree and the working tree or the index
// (the index and the tree), two trees, or a merge base and a tree.
func (h *historyRead) diff() error {
	var trees, blobs []string
	var pairs [][2]string
	for _, v := range h.revs {
		switch {
		case strings.HasPrefix(v, ":/"):
			return fmt.Errorf("%s names a commit by its message, which guard does not search for", v)
		case strings.Contains(v, ":"):
			blobs = append(blobs, v)
		case strings.Contains(v, "..."):
			a, b, _ := strings.Cut(v, "...")
			ids, err := h.mergeBases(cmpOr(a, "HEAD"), cmpOr(b, "HEAD"))
			if err != nil {
				return err
			}
			y, err := h.revision(cmpOr(b, "HEAD"))
			if err != nil {
				return err
			}
			for _, x := range ids {
				pairs = append(pairs, [2]string{x, y})
			}
		case strings.Contains(v, ".."):
			a, b, _ := strings.Cut(v, "..")
			x, err := h.revision(cmpOr(a, "HEAD"))
			if err != nil {
				return err
			}
			y, err := h.revision(cmpOr(b, "HEAD"))
			if err != nil {
				return err
			}
			pairs = append(pairs, [2]string{x, y})
		default:
			if err := h.revOrPath(v, &trees); err != nil {
				return err
			}
		}
	}
	for _, v := range blobs {
		if err := h.blobOperand(v); err != nil {
			return err
		}
	}
	if h.present["--merge-base"] && len(trees) > 0 {
		other := "HEAD"
		if len(trees) > 1 {
			other = hex.EncodeToString([]byte(trees[1]))
		}
		ids, err := h.mergeBases(hex.EncodeToString([]byte(trees[0])), other)
		if err != nil {
			return err
		}
		trees = append(ids, trees[1:]...)
	}
	for i := range trees {
		for j := i + 1; j < len(trees); j++ {
			pairs = append(pairs, [2]string{trees[i], trees[j]})
		}
	}
	for _, p := range pairs {
		a, err := h.treeOf(p[0])
		if err != nil {
			return err
		}
		b, err := h.treeOf(p[1])
		if err != nil {
			return err
		}
		h.commit = p[1]
		if err := h.diffTrees(a, b, ""); err != nil {
			return err
		}
	}
	if len(trees) >= 2 || len(pairs) > 0 || len(blobs) > 0 {
		return nil
	}
	cached := h.present["--cached"] || h.present["--staged"]
	if len(trees) == 0 && cached {
		head, err := h.s.ref("HEAD")
		if err != nil {
			return err
		}
		if head != "" {
			trees = []string{head}
		}
	}
	tree := ""
	if len(trees) == 1 {
		var err error
		if tree, err = h.treeOf(trees[0]); err != nil {
			return err
		}
		h.commit = trees[0]
	}
	return h.againstIndex(tree, cached)
}

// againstIndex visits what git diff prints comparing the tree (or, for
// "", nothing) with the index (cached) or the working tree: a path whose
// two sides git finds the same is not printed. Against the working tree,
// a file is the index's when git takes it for unchanged without reading
// it (gitIndex.unchanged).
func (h *historyRead) againstIndex(tree string, cached bool) error {
	ix, err := h.s.index()
	if err != nil {
		return err
	}
	same := func(e gitIndexEntry) bool {
		return cached || ix.unchanged(h.m.d.fsys, h.top, e)
	}
	inIndex := map[string]gitIndexEntry{}
	for _, e := range ix.entries {
		inIndex[e.path] = e
	}
	inTree := map[string]gitEntry{}
	if tree != "" {
		if err := h.listTree(tree, "", inTree); err != nil {
			return err
		}
	}
	for _, p := range slices.Sorted(maps.Keys(inTree)) {
		t := inTree[p]
		e, ok := inIndex[p]
		if ok && e.stage == 0 && e.id == t.id && e.mode == t.mode && same(e) {
			continue
		}
		if err := h.visit(p, t); err != nil {
			return err
		}
	}
	h.commit = ""
	for _, e := range ix.entries {
		if _, ok := inTree[e.path]; ok && tree != "" {
			continue // judged with the tree's
		}
		if tree == "" && !cached && same(e) {
			continue
		}
		if err := h.visit(e.path, gitEntry{mode: e.mode, id: e.id}); err != nil {
			return err
		}
	}
	return nil
}

// listTree adds every file of a tree to paths, by its path.
func (h *historyRead) listTree(tree, dir string, paths map[string]gitEntry) error {
	ents, err := h.s.tree(tree)
	if err != nil {
		return err
	}
	for _, e := range ents {
		p := joinGit(dir, e.name)
		if e.isTree() {
			if h.filtered && !h.pathspec.descends(p) {
				continue
			}
			if err := h.listTree(e.id, p, paths); err != nil {
				return err
			}
			continue
		}
		paths[p] = e
	}
	return nil
}

// mergeBases returns commits among which git diff A...B finds the merge
// base: those reachable from b where the walk first meets a's history.
func (h *historyRead) mergeBases(a, b string) ([]string, error) {
	x, err := h.revision(a)
	if err != nil {
		return nil, err
	}
	y, err := h.revision(b)
	if err != nil {
		return nil, err
	}
	anc := map[string]bool{}
	err = h.eachAncestor([]string{x}, func(id string, _ int) (bool, error) {
		anc[id] = true
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	var out []string
	err = h.eachAncestor([]string{y}, func(id string, _ int) (bool, error) {
		if anc[id] {
			out = append(out, id)
			return false, nil
		}
		return true, nil
	})
	return out, err
}

// stashShow judges git stash show: the stash's commit against each of
// its parents (the untracked files' among them).
func (h *historyRead) stashShow() error {
	rev := "refs/stash"
	if len(h.revs) > 0 {
		rev = h.revs[0]
		if strings.Trim(rev, "0123456789") == "" {
			rev = "refs/stash@{" + rev + "}"
		}
	}
	id, err := h.revision(rev)
	if err != nil {
		return err
	}
	return h.changes(id)
}

// grep judges git grep: every file of each tree it searches, or of the
// index.
func (h *historyRead) grep() error {
	var trees, blobs []string
	for _, v := range h.revs {
		if rev, _, ok := strings.Cut(v, ":"); ok && rev != "" {
			blobs = append(blobs, v)
			continue
		}
		if err := h.revOrPath(v, &trees); err != nil {
			return err
		}
	}
	for _, v := range blobs {
		if err := h.blobOperand(v); err != nil {
			return err
		}
	}
	if len(trees)+len(blobs) == 0 {
		return h.index()
	}
	for _, t := range trees {
		if err := h.wholeTree(t, ""); err != nil {
			return err
		}
	}
	return nil
}

// historyWrites refuses the history reads guard allowed by what the
// repository holds, when the call also runs a git command that writes:
// it may commit or stash what the read then prints.
func (d *decider) historyWrites() {
	if d.historyProofs == 0 {
		return
	}
	for _, l := range d.leaves {
		if l.Writes && l.Kind == "command" && slices.Contains(l.Programs, "git") {
			d.add(Leaf{Verdict: policy.Stricter(policy.Ask, d.p.Default), Kind: "command", Text: l.Text, Pos: l.Pos, Rule: "git.history",
				Why:  fmt.Sprintf("a history read of the call is allowed by what the repository holds now, and %s may change that before it runs", l.Text),
				Hint: "run the history read as a call of its own"})
			return
		}
	}
}
