// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"guard/shellparse"
)

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
		if pat := d.matchAny(d.p.SecretPaths(), forms); pat != "" {
			return fmt.Sprintf("the command runs in %s, a secret directory (%s)", dir, d.secretNamed(pat))
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
