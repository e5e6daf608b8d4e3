// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"errors"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// maxGoWalk bounds the directories guard reads to name the binaries a
// go build pattern (./...) may write; a larger tree is judged unknown.
const maxGoWalk = 50000

// goExecNames returns the names go build may give the binaries it builds
// for the operand op, run in dir: a superset, since each is checked where
// it would be written. go names a binary after the last element of its
// package's import path, the one before it for a major version suffix
// (example.com/tool/v2 is tool), and the import path of a module's root
// is the module's path, not the directory's name: in a module
// example.com/pre-commit, go build writes ./pre-commit. A pattern
// (./cmd/...) builds every main package under its root, each named so,
// and writes the one it matches when it matches one. ok is false when
// guard cannot tell the names.
func (d *decider) goExecNames(dir, op string) (names []string, ok bool) {
	local := op == "." || op == ".." || strings.HasPrefix(op, "./") || strings.HasPrefix(op, "../") || strings.HasPrefix(op, "/")
	i := strings.Index(op, "...")
	switch {
	case i < 0 && strings.HasSuffix(op, ".go"):
		return []string{strings.TrimSuffix(path.Base(op), ".go")}, true
	case i < 0 && local:
		return d.goDirNames(d.abs(dir, op)), true
	case i < 0 && (op == "std" || op == "cmd" || op == "all" || op == "work" || op == "tool"):
		if op == "std" {
			return nil, true // the standard library has no commands
		}
		root, _, found := d.goModule(dir)
		if !found || op == "cmd" || op == "tool" {
			return nil, false
		}
		return d.goWalkNames(root)
	case i < 0:
		// An import path: its own name, or the module directory's.
		names = []string{goExecName(op)}
		if root, mod, found := d.goModule(dir); found && (op == mod || strings.HasPrefix(op, mod+"/")) {
			names = append(names, d.goDirNames(path.Join(root, strings.TrimPrefix(op, mod)))...)
		}
		return names, true
	}
	// A pattern: every directory under the directory its literal prefix
	// names may hold a command.
	prefix := op[:i]
	var root string
	if local {
		root = d.abs(dir, prefix)
		if !strings.HasSuffix(prefix, "/") && prefix != "" {
			root = path.Dir(root)
		}
	} else {
		modRoot, mod, found := d.goModule(dir)
		if !found {
			return nil, false
		}
		switch {
		case strings.HasPrefix(prefix, mod+"/") || prefix == mod:
			root = path.Join(modRoot, strings.TrimPrefix(prefix, mod))
			if !strings.HasSuffix(prefix, "/") {
				root = path.Dir(root)
			}
		case strings.HasPrefix(mod, prefix):
			root = modRoot // example.com/... takes in the whole module
		default:
			return nil, false // another module's commands, or the standard library's
		}
	}
	return d.goWalkNames(root)
}

// goWalkNames returns the names of the commands under root, as go's
// pattern matching walks it: not into links, nor directories whose names
// begin with . or _, nor testdata; a directory without a .go file holds
// no command.
func (d *decider) goWalkNames(root string) ([]string, bool) {
	if root == "" {
		return nil, false
	}
	_, ip, _ := d.goImportPath(root)
	type entry struct{ dir, ip string }
	todo := []entry{{root, ip}}
	var names []string
	for n := 0; len(todo) > 0; n++ {
		if n >= maxGoWalk {
			return nil, false
		}
		e := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		ents, err := d.fsys.ReadDir(e.dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && e.dir == root {
				return nil, true // go finds no package there
			}
			return nil, false
		}
		goFiles := false
		for _, de := range ents {
			name := de.Name()
			if !de.IsDir() {
				goFiles = goFiles || strings.HasSuffix(name, ".go")
				continue
			}
			if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" {
				continue
			}
			todo = append(todo, entry{e.dir + "/" + name, e.ip + "/" + name})
		}
		if goFiles {
			names = append(names, path.Base(e.dir), goExecName(e.ip))
		}
	}
	return names, true
}

// goDirNames returns the names go gives the command in the directory dir:
// the directory's own name and the one its import path makes.
func (d *decider) goDirNames(dir string) []string {
	if dir == "" {
		return nil
	}
	names := []string{path.Base(dir), goExecName(dir)}
	if _, ip, ok := d.goImportPath(dir); ok {
		names = append(names, goExecName(ip))
	}
	return names
}

// goImportPath returns the module root above dir and dir's import path in
// it; ok is false outside a module, and the import path then is dir.
func (d *decider) goImportPath(dir string) (root, ip string, ok bool) {
	real, err := realPath(d.fsys, dir)
	if err != nil {
		real = path.Clean(dir)
	}
	for r := real; ; r = path.Dir(r) {
		if mod, found := d.goModulePath(r); found {
			return r, path.Join(mod, strings.TrimPrefix(real, r)), true
		}
		if r == "/" {
			return "", dir, false
		}
	}
}

// goModule returns the root and path of the module go finds from dir.
func (d *decider) goModule(dir string) (root, mod string, ok bool) {
	root, _, ok = d.goImportPath(dir)
	if !ok {
		return "", "", false
	}
	mod, _ = d.goModulePath(root)
	return root, mod, true
}

// goModulePath reads the module path of dir/go.mod.
func (d *decider) goModulePath(dir string) (string, bool) {
	data, err := readFile(d.fsys, path.Join(dir, "go.mod"), maxGoMod)
	if err != nil {
		return "", false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "module" {
			continue
		}
		mod := f[1]
		if u, err := strconv.Unquote(mod); err == nil {
			mod = u
		}
		return mod, true
	}
	return "", false
}

// goExecName is the name go gives the command of the import path ip
// (cmd/go's DefaultExecName): its last element, the one before for a
// major version suffix.
func goExecName(ip string) string {
	elem := path.Base(ip)
	if elem != ip && isGoVersionElement(elem) {
		elem = path.Base(path.Dir(ip))
	}
	return elem
}

// isGoVersionElement reports whether s is a major version suffix: v2, v3, ...
func isGoVersionElement(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] == '0' || s[1] == '1' && len(s) == 2 {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
