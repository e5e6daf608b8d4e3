// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"guard/policy"
	"guard/shellparse"
)

// Globs a command reads.
//
// The shell replaces a glob with the names of the files it matches, which
// guard does not see in the command. A glob is judged two ways, and both
// must pass:
//
//   - by its pattern: a glob that could match a secret path, in any
//     component (~/.ss?/id_rsa, /etc/shad*, .e*), is refused whatever is on
//     disk now, since an earlier command, another process, or zsh's options
//     (GLOB_DOTS, a recursive **) can make it match;
//   - by its matches: guard expands it as bash would and judges every file
//     it matches, through its links (aws*/config, where awsx is a link to
//     ~/.aws).
//
// A match that is secret denies; a pattern that could match a secret, or a
// glob too large to expand, gets the rule's unknown verdict.

// Bounds of expanding a glob for a decision.
const (
	maxGlobMatches = 1024  // files one glob may match
	maxGlobReads   = 10000 // directory entries read for one glob
	maxGlobDepth   = 32    // directories below its start a recursive glob of zsh's goes
)

// findNames is the Source of the word that stands for the file name find
// puts in place of {} in the command of -exec.
const findNames = "{}"

// stdinWords is the Source of the word that stands for what xargs reads
// from standard input.
const stdinWords = "(words read from standard input)"

// stdinFilesHint is what to do instead of giving a program the files to
// read on standard input (find | xargs grep): have find run it, which
// guard judges by find's start paths, or name them.
func stdinFilesHint(program string) string {
	return fmt.Sprintf("have find run it: find DIR -name '*.py' -exec %s ... {} + reads only the files find finds; or name the files on the command line", program)
}

func (m *matcher) globRead(n *policy.Rule, o shellparse.Word, r *result) {
	if o.Source == stdinWords && o.Value == "/**" {
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s reads the files named on standard input, which guard cannot see: they may be secret", n.ID()), stdinFilesHint(n.ID()))
		return
	}
	if slices.Contains(strings.Split(o.Value, "/"), "..") {
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: the glob %s goes up with .., which a link makes go elsewhere", n.ID(), o.Source), "name the files")
		return
	}
	pats := m.d.globPatterns(o, m.where)
	if pats == nil {
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: the glob %s is in a directory guard does not know", n.ID(), o.Source), "name the files")
		return
	}
	if o.Source == findNames {
		// Any file under find's start paths: the tree is judged as it is.
		for _, pat := range pats {
			root := path.Clean(strings.TrimSuffix(pat, "/**"))
			found, err := m.d.treeSecret(root)
			switch {
			case err != nil:
				r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: the files find passes it are under %s: %v", n.ID(), root, err), "name the files")
				return
			case found == root || found != "" && !strings.HasPrefix(found, root+"/"):
				r.add(policy.Deny, "paths.secret", fmt.Sprintf("%s: the files find passes it are under %s, which is secret (%s)", n.ID(), root, found), "search a directory without secrets")
				return
			case found != "" && m.d.sandboxHides(root, true):
				r.sandbox = append(r.sandbox, "read-only")
				r.add(policy.Allow, n.ID(), fmt.Sprintf("%s: the files find passes it are under %s, which holds the secret %s: allowed in the read-only sandbox, which hides it", n.ID(), root, found), "")
			case found != "":
				// find's own tests (-name '*.go') may leave it out; guard
				// does not judge them.
				r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: the files find passes it are under %s, which holds the secret %s", n.ID(), root, found), "search a directory without secrets, or name the files")
				return
			}
		}
		return
	}
	for _, pat := range pats {
		// A glob whose literal directory is secret surely reads a secret.
		if pc := m.d.checkPath(globDir(pat), false, nil, readAccess, policy.Allow); pc.verdict == policy.Deny {
			r.add(policy.Deny, pc.rule, fmt.Sprintf("%s: the glob %s reaches into %s: %s", n.ID(), o.Source, globDir(pat), pc.why), "name the files")
			return
		}
		if sec := m.d.globMayBeSecret(pat); sec != "" {
			r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: the glob %s could match a secret path (%s)", n.ID(), o.Source, sec), "name the files")
			return
		}
		matches, err := expandGlob(m.d.fsys, pat, false)
		if err == nil && m.d.call.Shell != "bash" && strings.Contains(pat, "**") {
			// zsh's reading, and bash's where the shell is not known.
			var z []string
			if z, err = expandGlob(m.d.fsys, pat, true); m.d.call.Shell == "zsh" {
				matches = z
			} else {
				matches = append(matches, z...)
			}
		}
		if err != nil {
			r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: the glob %s: %v", n.ID(), o.Source, err), "name the files")
			return
		}
		for _, f := range matches {
			if pc := m.d.checkPath(f, false, nil, readAccess, policy.Allow); pc.verdict != policy.Allow {
				r.add(pc.verdict, pc.rule, fmt.Sprintf("%s: the glob %s matches %s: %s", n.ID(), o.Source, f, pc.why), "name the files")
				return
			}
		}
	}
}

// globPatterns returns a glob as absolute patterns, one for each directory
// the command may run in; nil when the directory is unknown.
func (d *decider) globPatterns(o shellparse.Word, where []string) []string {
	v := o.Value
	switch {
	case o.Tilde:
		if !path.IsAbs(d.call.Home) {
			return nil
		}
		return []string{path.Join(d.call.Home, strings.TrimPrefix(v, "~"))}
	case path.IsAbs(v):
		return []string{path.Clean(v)}
	}
	return d.absPaths(v, false, where)
}

// globMayBeSecret returns the secret pattern that the glob could match, or
// "". Both are compared component by component: a glob's ** (zsh's
// recursive glob) and a secret's ** match any number of components.
func (d *decider) globMayBeSecret(glob string) string {
	g := strings.Split(strings.TrimPrefix(path.Clean(glob), "/"), "/")
	for _, sec := range d.p.SecretPaths() {
		for _, s := range d.secretComponents(sec) {
			if componentsMeet(g, s) {
				return sec
			}
		}
	}
	return ""
}

// secretComponents returns the components of each expansion of a secret
// pattern, once per decision.
func (d *decider) secretComponents(sec string) [][]string {
	if c, ok := d.components[sec]; ok {
		return c
	}
	var out [][]string
	for _, e := range d.expand(sec) {
		s := strings.Split(strings.TrimPrefix(e.pattern, "/"), "/")
		if strings.HasPrefix(e.pattern, "**/") {
			s = strings.Split(e.pattern, "/")
		}
		out = append(out, s)
	}
	if d.components == nil {
		d.components = make(map[string][][]string, len(d.p.SecretPaths()))
	}
	d.components[sec] = out
	return out
}

// componentsMeet reports whether a path could match both the glob g and
// the secret pattern s, given as components.
func componentsMeet(g, s []string) bool {
	switch {
	case len(g) == 0 && len(s) == 0:
		return true
	case len(s) > 0 && s[0] == "**":
		return componentsMeet(g, s[1:]) || len(g) > 0 && componentsMeet(g[1:], s)
	case len(g) > 0 && (g[0] == "**" || g[0] == "***"):
		return componentsMeet(g[1:], s) || len(s) > 0 && componentsMeet(g, s[1:])
	case len(g) == 0 || len(s) == 0:
		return false
	}
	return componentMeets(g[0], s[0]) && componentsMeet(g[1:], s[1:])
}

// componentMeets reports whether one name could match both the glob
// component g and the secret component s. Two patterns are taken to meet
// unless one is a literal the other does not match.
func componentMeets(g, s string) bool {
	gLit, sLit := !hasMeta(g), !hasMeta(s)
	switch {
	case gLit && sLit:
		return g == s
	case sLit:
		return globMatch(g, s)
	case gLit:
		ok, err := path.Match(s, g)
		return ok || err != nil
	}
	// Both patterns: a hidden name needs a glob that starts with a dot.
	if strings.HasPrefix(s, ".") && !strings.HasPrefix(g, ".") {
		return false
	}
	return true
}

func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[\\") }

// globMatch matches a name as bash does against one glob component: a
// leading dot must be matched by a dot, and [!x] is a negated class. A
// pattern guard cannot read ([[:alpha:]]) matches everything.
func globMatch(g, name string) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(g, ".") {
		return false
	}
	if strings.Contains(g, "[:") {
		return true
	}
	ok, err := path.Match(strings.ReplaceAll(g, "[!", "[^"), name)
	return ok || err != nil
}

// expandGlob returns the files an absolute glob matches now, within the
// bounds, as bash expands it (** is *) and, where zsh may run the command,
// as zsh does too: **/ is any number of directories, ***/ the same through
// links to directories.
func expandGlob(fsys FS, glob string, zsh bool) ([]string, error) {
	comps := strings.Split(strings.TrimPrefix(glob, "/"), "/")
	cur := []string{"/"}
	reads := 0
	for i, c := range comps {
		var next []string
		if !hasMeta(c) {
			for _, dir := range cur {
				next = append(next, path.Join(dir, c))
			}
			cur = next
			continue
		}
		if zsh && (c == "**" || c == "***") && i < len(comps)-1 {
			// Every directory under each, itself included, hidden ones
			// too (GLOB_DOTS may be set): as many as bash's * and more.
			var err error
			if cur, err = globDirs(fsys, cur, c == "***", &reads); err != nil {
				return nil, err
			}
			continue
		}
		if c == "**" || c == "***" {
			c = "*"
		}
		for _, dir := range cur {
			ents, err := fsys.ReadDir(dir)
			if err != nil {
				if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
					continue // nothing there for the shell either
				}
				if strings.Contains(err.Error(), "not a directory") {
					continue
				}
				return nil, fmt.Errorf("reading %s: %v", dir, err)
			}
			reads += len(ents)
			if reads > maxGlobReads {
				return nil, fmt.Errorf("it reaches more than %d files, too many for guard to check", maxGlobReads)
			}
			for _, e := range ents {
				if globMatch(c, e.Name()) {
					next = append(next, path.Join(dir, e.Name()))
				}
			}
		}
		if len(next) > maxGlobMatches {
			return nil, fmt.Errorf("it matches more than %d files, too many for guard to check", maxGlobMatches)
		}
		cur = next
	}
	var out []string
	for _, f := range cur {
		switch _, err := fsys.Lstat(f); {
		case err == nil:
			out = append(out, f)
		case !absent(err):
			// The shell may pass it all the same.
			return nil, fmt.Errorf("%s: %v", f, errors.Unwrap(err))
		}
	}
	return out, nil
}

// globDirs returns dirs and every directory under them, through links
// to directories where links is set, within the bound of entries read.
func globDirs(fsys FS, dirs []string, links bool, reads *int) ([]string, error) {
	type entry struct {
		dir   string
		depth int
	}
	var out []string
	seen := map[string]bool{}
	var todo []entry
	for _, d := range dirs {
		todo = append(todo, entry{d, 0})
	}
	for len(todo) > 0 {
		e := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		dir := e.dir
		if seen[dir] {
			continue
		}
		if e.depth > maxGlobDepth {
			// A link back up makes a loop, which zsh follows as deep as
			// a path may be.
			return nil, fmt.Errorf("it goes more than %d directories deep, through links in a loop or a tree too deep for guard to check", maxGlobDepth)
		}
		seen[dir] = true
		out = append(out, dir)
		ents, err := fsys.ReadDir(dir)
		switch {
		case absent(err) || errors.Is(err, os.ErrPermission):
			continue
		case err != nil:
			return nil, fmt.Errorf("reading %s: %v", dir, err)
		}
		if *reads += len(ents); *reads > maxGlobReads {
			return nil, fmt.Errorf("it reaches more than %d files, too many for guard to check", maxGlobReads)
		}
		for _, de := range ents {
			p := path.Join(dir, de.Name())
			switch {
			case de.IsDir():
				todo = append(todo, entry{p, e.depth + 1})
			case links && de.Type()&os.ModeSymlink != 0:
				fi, err := fsys.Stat(p)
				switch {
				case err == nil && fi.IsDir():
					todo = append(todo, entry{p, e.depth + 1})
				case err != nil && !absent(err) && !errors.Is(err, os.ErrPermission):
					// zsh may go through it all the same.
					return nil, fmt.Errorf("%s: %v", p, errors.Unwrap(err))
				}
			}
		}
		if len(out) > maxGlobMatches {
			return nil, fmt.Errorf("it reaches more than %d directories, too many for guard to check", maxGlobMatches)
		}
	}
	return out, nil
}

// globDir returns the directory a glob's matches are in, as far as its
// literal start tells: "~/.ssh/*" is in ~/.ssh, "src/*.go" in src.
func globDir(glob string) string {
	lit := glob
	if i := strings.IndexAny(lit, "*?["); i >= 0 {
		lit = lit[:i]
	}
	if strings.HasSuffix(lit, "/") {
		return path.Clean(lit)
	}
	return path.Dir(lit)
}

// maxTreeEntries bounds the entries guard reads to judge a whole tree.
const maxTreeEntries = 20000

// treeSecret returns a secret path in the tree under dir (or dir itself),
// reached by walking it without following links but judging where each
// link points, or "" when there is none. The .git directory is not
// walked: git's own files are not secret, and it holds many. A tree too
// large to walk within the bound is an error.
func (d *decider) treeSecret(dir string) (string, error) { return d.treeSecretHidden(dir, true) }

// treeSecretHidden is treeSecret for a reader that may skip hidden files:
// then a secret named like a hidden file (.env) is not reached.
func (d *decider) treeSecretHidden(dir string, hidden bool) (string, error) {
	return d.treeSecretIn(treeKey{dir: dir, hidden: hidden})
}

// treeSecretIn is treeSecret for the tree and the reader key names.
func (d *decider) treeSecretIn(key treeKey) (string, error) {
	if r, ok := d.trees[key]; ok {
		return r.secret, r.err
	}
	secret, err := d.walkTreeSecret(key)
	if d.trees == nil {
		d.trees = map[treeKey]treeResult{}
	}
	d.trees[key] = treeResult{secret, err}
	return secret, err
}

// sandboxHides reports whether guard run's sandbox keeps every secret
// of the tree dir from a reader that runs there, so that the reader may
// read the tree in it: the call can run in the sandbox (Call.Run), and
// dir is in the project, whose files guard run lets a command read
// without the secret ones, as the policy names them. A secret the walk
// finds through a link, or one of another shape (~/.ssh/** when the
// project is the home), may be reachable there: then it does not.
func (d *decider) sandboxHides(dir string, hidden bool) bool {
	if len(d.call.Run) == 0 || !d.inProject([]string{dir}) {
		return false
	}
	found, err := d.treeSecretIn(treeKey{dir: dir, hidden: hidden, named: true})
	return found == "" && err == nil
}

// treeKey and treeResult keep treeSecretHidden's answers for a decision:
// the commands of a long script walk the same trees. Named leaves out the
// secrets named by a name alone (.env) that are no links, as guard run's
// sandbox does in the project.
type treeKey struct {
	dir    string
	hidden bool
	named  bool
}

type treeResult struct {
	secret string
	err    error
}

func (d *decider) walkTreeSecret(key treeKey) (string, error) {
	dir, hidden := key.dir, key.hidden
	if pc := d.checkPath(dir, false, nil, readAccess, policy.Allow); pc.verdict == policy.Deny {
		return dir, nil
	}
	real, err := realPath(d.fsys, dir)
	if err != nil {
		return "", err
	}
	// Anchored secrets (~/.ssh/**, /etc/shadow) under the tree are found
	// without walking to them, and one whose pattern reaches into the tree
	// from above it (/proc/**/environ in /proc/self) is taken as there.
	names, anchors := d.secretShapes()
	for _, a := range anchors {
		for _, root := range []string{path.Clean(dir), real} {
			switch {
			case a.lit == root || a.reachesInto(root):
				// What the pattern may match under the root, not the
				// root: a found path that is the tree's own is the
				// tree being secret.
				return a.pattern, nil
			case root == "/" || strings.HasPrefix(a.lit, root+"/"):
				switch _, err := d.fsys.Lstat(a.lit); {
				case err == nil:
					return a.lit, nil
				case !absent(err) && !errors.Is(err, os.ErrPermission):
					return "", fmt.Errorf("%s: %v", a.lit, errors.Unwrap(err))
				}
			}
		}
	}
	count := 0
	var walk func(string) (string, error)
	walk = func(at string) (string, error) {
		ents, err := d.fsys.ReadDir(at)
		switch {
		case errors.Is(err, os.ErrPermission), errors.Is(err, os.ErrNotExist):
			return "", nil // what guard cannot read, the command (same user) cannot either
		case err != nil:
			return "", fmt.Errorf("reading %s: %v", at, err)
		}
		count += len(ents)
		if count > maxTreeEntries {
			return "", fmt.Errorf("it holds more than %d files, too many for guard to check", maxTreeEntries)
		}
		for _, e := range ents {
			name := e.Name()
			p := path.Join(at, name)
			if !hidden && strings.HasPrefix(name, ".") {
				continue // the reader skips it, and what is under it
			}
			named := false
			for _, pat := range names {
				if ok, _ := path.Match(pat, name); ok {
					named = true
					break
				}
			}
			switch {
			case named && key.named && e.Type()&os.ModeSymlink == 0:
				continue // left out, and what is under it
			case named:
				return p, nil
			}
			switch {
			case e.Type()&os.ModeSymlink != 0:
				if pc := d.checkPath(p, false, nil, readAccess, policy.Allow); pc.verdict == policy.Deny {
					return p, nil
				}
			case e.IsDir() && name != ".git":
				if found, err := walk(p); found != "" || err != nil {
					return found, err
				}
			}
		}
		return "", nil
	}
	return walk(real)
}

// secretShapes splits the secret patterns of the decision, expanded, into
// those on a name alone (**/.env gives .env) and the others, each with the
// literal path it starts from (~/.ssh/** gives ~/.ssh), once per decision.
func (d *decider) secretShapes() (names []string, anchors []anchor) {
	if d.shapes == nil {
		d.shapes = &secretShapes{}
		for _, sec := range d.p.SecretPaths() {
			for _, e := range d.expand(sec) {
				if rest, ok := strings.CutPrefix(e.pattern, "**/"); ok && !strings.Contains(rest, "/") {
					d.shapes.names = append(d.shapes.names, rest)
					continue
				}
				lit := e.pattern
				if i := strings.IndexAny(lit, "*?[{"); i >= 0 {
					lit = path.Dir(lit[:i] + "x")
				}
				d.shapes.anchors = append(d.shapes.anchors, anchor{lit, e.pattern})
			}
		}
	}
	return d.shapes.names, d.shapes.anchors
}

type secretShapes struct {
	names   []string
	anchors []anchor
}

// anchor is a secret pattern that is not a name alone, and the literal
// path it starts from.
type anchor struct{ lit, pattern string }

// reachesInto reports whether the pattern may match a path under root, a
// directory below its literal start: /proc/**/environ reaches into
// /proc/self, ~/.*_history (one level under the home) into no directory
// of the home.
func (a anchor) reachesInto(root string) bool {
	prefix := strings.TrimSuffix(a.lit, "/") + "/"
	rel, ok := strings.CutPrefix(root, prefix)
	if !ok || rel == "" {
		return false
	}
	rest, ok := strings.CutPrefix(a.pattern, prefix)
	if !ok || strings.Contains(rest, "**") {
		return true // a pattern that is its literal path (a secret file with a tree under it?), or one of any depth
	}
	segs, dirs := strings.Split(rest, "/"), strings.Split(rel, "/")
	if len(dirs) >= len(segs) {
		return false // the pattern ends at or above root: nothing under it matches
	}
	for i, dir := range dirs {
		seg := segs[i]
		if foldCase {
			seg, dir = strings.ToLower(seg), strings.ToLower(dir)
		}
		if ok, err := path.Match(seg, dir); !ok || err != nil {
			return err != nil
		}
	}
	return true
}

// recursiveRead judges the trees a recursive reader walks: a secret under
// one (a .env, a link to ~/.aws) is not allowed. Hidden secrets count only
// when the command reads hidden files.
func (m *matcher) recursiveRead(n *policy.Rule, present map[string]bool, values map[string][]string, operands []shellparse.Word, r *result) {
	rc := n.Recursive()
	if !rc.On(present, values) {
		return
	}
	ops := operands
	if rc.PatternFirst() && len(ops) > 0 && !present["-e"] && !present["--regexp"] && !present["-f"] && !present["--file"] && !present["--files"] {
		ops = ops[1:]
	}
	var roots []string
	exists := false
	for _, o := range ops {
		if !o.Constant() || o.Glob {
			exists = true
			continue // judged as a path or a glob already
		}
		for _, a := range m.d.absPaths(o.Value, o.Tilde, m.where) {
			fi, err := m.d.fsys.Stat(a)
			if err == nil {
				exists = true
			}
			if err == nil && fi.IsDir() {
				roots = append(roots, path.Clean(a))
			}
		}
	}
	// Operands that name nothing may be values guard took for operands
	// (tree -I PATTERN): then the working directory is read.
	if len(ops) == 0 || !exists {
		if m.where == nil {
			r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s reads the files under a directory guard does not know", n.ID()), "name the directory literally, inside the project")
			return
		}
		roots = m.where
	}
	hidden := len(rc.HiddenWith()) == 0 || slices.ContainsFunc(rc.HiddenWith(), func(f string) bool { return present[f] })
	for _, root := range roots {
		if mp := m.d.madeUnder(root); mp != nil {
			r.add(policy.Stricter(Ask, m.d.p.DefaultVerdict()), "paths.made", fmt.Sprintf("%s reads every file under %s, where %s in the same command may make a link guard cannot see", n.ID(), root, mp.what), madeHint)
			return
		}
		found, err := m.d.treeSecretHidden(root, hidden)
		switch {
		case err != nil:
			r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s reads every file under %s: %v", n.ID(), root, err), "search a smaller directory")
			return
		case found != "" && m.d.sandboxHides(root, hidden):
			r.sandbox = append(r.sandbox, "read-only")
			r.add(policy.Allow, n.ID(), fmt.Sprintf("%s reads every file under %s, which holds the secret %s: allowed in the read-only sandbox, which hides it", n.ID(), root, found), "")
		case found != "":
			r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s reads every file under %s, which holds the secret %s", n.ID(), root, found), "search the directories without secrets, or name the files")
			return
		}
	}
}
