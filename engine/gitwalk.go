// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// What each history read reaches (githistory.go): the commits git log
// walks, the changes git show prints, the trees and the index git diff
// and git grep read, each path judged by visit.

// gitFinding is a secret a history read reaches.
type gitFinding struct {
	path, commit, pattern string
}

// errGitFound ends a walk at the first secret.
var errGitFound = errors.New("a secret file")

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
	if pat := h.m.d.matchAny(h.m.d.p.SecretPaths(), forms); pat != "" {
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

// gitWalkKeeps are the options of git log that do not choose which commits
// it shows (they format them, or say where the walk starts): with only
// these, git log -n N shows commits at most N-1 parents from a start. The
// set is built on first use, not when the package starts.
var gitWalkKeeps = sync.OnceValue(func() map[string]bool {
	keeps := map[string]bool{}
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
		keeps[o] = true
	}
	return keeps
})

// depth returns how far from a start git log's -n lets it go, or -1:
// commit N-1 parents away is the farthest the first N can be, where
// nothing else chooses which commits it shows.
func (h *historyRead) depth() int {
	if len(h.spec) > 0 {
		return -1
	}
	for o := range h.present {
		if !gitWalkKeeps()[o] {
			return -1
		}
	}
	// The largest of every count given: git takes the last, and -n -1
	// takes the limit away.
	most := func(opts ...string) (int, bool) {
		n, found := 0, false
		for _, o := range opts {
			for _, v := range h.values[o] {
				k, err := strconv.Atoi(v)
				if err != nil || k < 0 {
					return -1, true
				}
				n, found = max(n, k), true
			}
		}
		return n, found
	}
	n, found := most("-n", "--max-count", "-#")
	if !found || n < 0 {
		return -1
	}
	skip, _ := most("--skip")
	switch {
	case skip < 0:
		return -1
	case n == 0:
		return 0 // -n 0: nothing is shown
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
			// REV:PATH prints the file, judged by its name, or a tree's
			// names.
			blobs = append(blobs, v)
		case strings.HasPrefix(v, ":/") || strings.Contains(v, "..") || strings.HasPrefix(v, "^") ||
			strings.HasSuffix(v, "^@") || strings.HasSuffix(v, "^!") || rangeMinus(v) >= 0 || h.present["--do-walk"]:
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

// blobOperands judges the operands REV:PATH of show, diff or grep.
func (h *historyRead) blobOperands(vs []string) error {
	for _, v := range vs {
		if err := h.blobOperand(v); err != nil {
			return err
		}
	}
	return nil
}

// blobOperand judges REV:PATH as an operand of show, diff or grep: the
// path was judged as a read path; a directory is a tree, whose files they
// read.
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
	if err := h.blobOperands(blobs); err != nil {
		return err
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
	if err := h.blobOperands(blobs); err != nil {
		return err
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
