// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"slices"
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

// revPaths judges the operands of a rule with revpaths = true: what the
// command names, and for a read that prints what files hold, what it
// reaches. dashdash is the number of operands before --, or -1.
func (m *matcher) revPaths(n *policy.Rule, operands []shellparse.Word, dashdash int, present map[string]bool, values map[string][]string, r *result) {
	h := &historyRead{m: m, n: n, sub: strings.TrimPrefix(n.ID(), "git "), present: present, values: values, r: r}
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
				r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: %s is in a home guard does not know", n.ID(), o.Source), "name the path inside the project")
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
	if i := strings.IndexByte(v, '{'); i >= 0 && strings.Contains(v[i:], ":") {
		// git reads a : inside REV's braces (HEAD^{/x:y}) as the
		// revision's, not the start of the path: guard does not split it.
		h.r.add(h.n.Unknown(), h.n.ID(), fmt.Sprintf("%s: %s has a : after a {, which guard does not read as git does", h.n.ID(), o.Source), h.hint())
		return true
	}
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
	if h.n.ID() == "git cat-file" && isObjectName(v) {
		h.r.add(h.n.Unknown(), h.n.ID(), fmt.Sprintf("%s: %s names an object by its hash, which may be any file's contents, a secret too", h.n.ID(), o.Source), "name it as REV:PATH")
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
		h.r.add(policy.Deny, pc.rule, fmt.Sprintf("%s %s: git prints what it stores for %s", h.n.ID(), o.Source, pc.why), pathHint(pc.rule, readAccess))
		return false
	case pc.verdict != policy.Allow && pc.rule == "":
		h.r.add(h.n.Unknown(), h.n.ID(), fmt.Sprintf("%s %s: %s", h.n.ID(), o.Source, pc.why), "name the path literally")
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
				if pat := matchAnyFold(h.m.d, h.m.d.p.SecretPaths(), forms, foldCase || it.icase); pat != "" {
					why := fmt.Sprintf("%s is a secret file (%s): guard does not let it be read or written", it.match, h.m.d.secretNamed(pat))
					h.r.add(policy.Deny, "paths.secret "+pat, fmt.Sprintf("%s %s: git prints what it stores for %s", h.n.ID(), h.spec[i], why), pathHint("paths.secret", readAccess))
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
	h.r.add(h.n.Unknown(), h.n.ID(), fmt.Sprintf("%s: %s %s %s", h.n.ID(), what, dir, why), hint)
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
			h.r.add(pc.verdict, cmpOr(pc.rule, h.n.ID()), fmt.Sprintf("%s compares the files it names, as --no-index does: %s", h.n.ID(), pc.why), pathHint(pc.rule, readAccess))
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
	// A revision guard finds nowhere is not proof that git refuses the
	// command: git reads forms guard does not (an upper-case abbreviation,
	// :/text in a range, --ignore-missing), so it is unknown.
	case errors.Is(err, errGitFound):
		f := h.found
		where := "in the index"
		if f.commit != "" {
			where = "in commit " + hex.EncodeToString([]byte(f.commit))[:12]
		}
		h.r.add(policy.Deny, "paths.secret "+f.pattern, fmt.Sprintf("%s prints what git stores for %s (%s), a secret file (%s): guard does not let it be read", h.n.ID(), f.path, where, h.m.d.secretNamed(f.pattern)),
			"guard never lets a secret file be read, from the history either: name the paths you need, which leave it out, or read names only; "+h.hint())
		return false
	case err != nil:
		h.unknown(err)
		return false
	}
	return true
}

// unknown refuses a read guard cannot follow to its end.
func (h *historyRead) unknown(err error) {
	h.r.add(h.n.Unknown(), h.n.ID(), fmt.Sprintf("%s prints what files hold, and guard cannot show that none of those it reaches is secret: %v", h.n.ID(), err), h.hint())
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

// historyWrites refuses the history reads guard allowed by what the
// repository holds, when the call also runs a git command that writes:
// it may commit or stash what the read then prints.
func (d *decider) historyWrites() {
	if d.historyProofs == 0 {
		return
	}
	for _, l := range d.leaves {
		if l.Writes && l.Kind == "command" && slices.Contains(l.Programs, "git") {
			d.add(Leaf{Verdict: policy.Stricter(policy.Ask, d.p.DefaultVerdict()), Kind: "command", Text: l.Text, Pos: l.Pos, Rule: "git.history",
				Why:  fmt.Sprintf("a history read of the call is allowed by what the repository holds now, and %s may change that before it runs", l.Text),
				Hint: "run the history read as a call of its own"})
			return
		}
	}
}
