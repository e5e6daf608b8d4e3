// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Revisions, as git resolves them for a history read (githistory.go): refs
// by git's rules, abbreviated hashes, reflogs, the suffixes ^ and ~, and
// ranges; and the operands git takes for paths instead.

// errNoRevision is a revision git finds nowhere either, having looked
// where guard did: git then refuses the command and prints nothing.
var errNoRevision = errors.New("no such revision")

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
		if op != '^' && op != '~' {
			return "", fmt.Errorf("a revision guard cannot read: %q after ^ or ~", op)
		}
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
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') { // git takes either case
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
		case rangeMinus(v) >= 0:
			// A^-N is ^A^N A.
			i := rangeMinus(v)
			id, err := h.revision(v[:i])
			if err != nil {
				return out, err
			}
			parent, err := h.revision(v[:i] + "^" + cmpOr(v[i+2:], "1"))
			if err != nil {
				return out, err
			}
			out.tips, out.not, out.isRange = append(out.tips, id), append(out.not, parent), true
		default:
			if err := h.revOrPath(v, &out.tips); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// rangeMinus returns where the suffix ^- or ^-N of A^-N starts, or -1.
func rangeMinus(v string) int {
	i := strings.LastIndex(v, "^-")
	if i < 0 || strings.Trim(v[i+2:], "0123456789") != "" {
		return -1
	}
	return i
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
