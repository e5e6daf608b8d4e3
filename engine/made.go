// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"guard/policy"
	"guard/shellparse"
)

// Paths the call's own commands change.
//
// guard judges every path of a call before any of it runs. A command that
// copies, moves, links or unpacks can put a link, or a tree guard has not
// seen, where a later command of the same call reads or writes: cp -P of
// a committed link, cp -s, ln, mv of a directory that holds one, tar -x,
// git switch to a branch that commits one. What such a command may have
// made is unknown to the judge: a read under it may reach a secret and is
// asked, a write under it may land anywhere and is denied; so is a
// recursive read of a tree that holds it. A command of a loop runs again
// after the commands that follow it, so the whole call is decided once
// more with what every command may make known up front (Decide).

// made is a path a command of the call may have made, and the command.
type made struct {
	path string // absolute and clean; "/" when the command's operands are not known
	by   int    // the command's number in the call (decider.cmdSeq)
	what string // the command, for the reason
	// again is set for a command that may run again after, or at once
	// with, the commands that follow it: in a loop, a pipeline, the
	// background, a function. Then it reaches every command of the call,
	// else those after it.
	again bool
}

// makers are the rules whose commands make paths from what guard cannot
// see as it judges: their destinations. The git subcommands write the
// work tree from the object store.
var makers = map[string]bool{
	"cp": true, "mv": true, "ln": true, "link": true, "install": true, "rsync": true, "tar": true, "bsdtar": true,
	"unzip": true, "7z": true, "cpio": true, "patch": true,
	"git checkout": true, "git switch": true, "git restore": true, "git reset": true, "git stash": true,
	"git merge": true, "git pull": true, "git rebase": true, "git cherry-pick": true, "git revert": true,
	"git am": true, "git apply": true, "git mv": true, "git read-tree": true, "git checkout-index": true,
	"git worktree": true, "git clone": true, "git submodule": true,
}

// noteMade records what a command that matched the rule n may make.
func (m *matcher) noteMade(n *policy.Rule, present map[string]bool, values map[string][]string, operands []shellparse.Word) {
	if !makers[n.ID()] || m.d.madeKnown {
		return
	}
	d := m.d
	// A place guard cannot resolve (no home, a directory not known) may be
	// anywhere: "/".
	add := func(abs ...string) {
		if len(abs) == 0 {
			abs = []string{"/"}
		}
		for _, a := range abs {
			if a == "" {
				a = "/"
			}
			d.made = append(d.made, made{path: path.Clean(a), by: d.cmdSeq, what: n.ID(), again: d.again})
		}
	}
	// Where it writes: a directory option, else its last operand.
	dest := func(opts ...string) {
		for _, o := range opts {
			for _, v := range values[o] {
				add(d.absPaths(v, strings.HasPrefix(v, "~"), m.where)...)
			}
			if present[o] && len(values[o]) == 0 {
				add("/") // its value is not known
			}
		}
	}
	word := func(w shellparse.Word) []string {
		switch {
		case w.Dynamic != "":
			return []string{"/"}
		case w.Glob:
			dir := globDir(w.Value)
			if dir == "" {
				dir = "."
			}
			return d.absPaths(dir, w.Tilde, m.where)
		}
		return d.absPaths(w.Value, w.Tilde, m.where)
	}
	switch n.ID() {
	case "cp", "install", "mv", "rsync":
		// A copy or move of regular files makes regular files: reading
		// one reads what was copied, which was judged. Links (-s, -l, a
		// link among the sources) and directories guard has not walked
		// make what it cannot see.
		links := present["-s"] || present["--symbolic-link"] || present["-l"] || present["--link"]
		dir := present["-t"] || present["--target-directory"]
		sources := operands
		if !dir && len(sources) > 0 {
			sources = sources[:len(sources)-1]
		}
		if !links && !slices.ContainsFunc(sources, func(w shellparse.Word) bool { return !d.plainFiles(word(w), w) }) {
			return
		}
		if dir {
			dest("-t", "--target-directory")
			return
		}
		if len(operands) > 0 {
			add(word(operands[len(operands)-1])...)
		}
	case "ln", "link":
		if present["-t"] || present["--target-directory"] {
			dest("-t", "--target-directory")
			return
		}
		switch len(operands) {
		case 0:
		case 1:
			// ln TARGET makes a link of the target's name here.
			if m.where == nil {
				add()
			}
			for _, a := range word(operands[0]) {
				for _, w := range m.where {
					add(path.Join(w, path.Base(a)))
				}
			}
		default:
			add(word(operands[len(operands)-1])...)
		}
	case "git checkout", "git switch":
		// A new branch where HEAD is leaves the work tree as it is.
		if (present["-b"] || present["-c"] || present["-B"] || present["-C"] || present["--create"]) && len(operands) <= 1 {
			return
		}
		add(d.project())
	case "git stash":
		if len(operands) > 0 && operands[0].Constant() && (operands[0].Value == "list" || operands[0].Value == "show") {
			return
		}
		add(d.project())
	case "git reset":
		if !present["--hard"] && !present["--merge"] && !present["--keep"] {
			return // the index and HEAD only
		}
		add(d.project())
	default:
		// tar, unzip, the other git commands: anywhere in the working
		// directories, and where their options send them.
		add(m.where...) // "/" where they are not known
		dest("-C", "--directory", "-d")
		add(d.project())
	}
}

// plainFiles reports whether the paths a source operand names are
// regular files, or directories with no link in them, as guard finds
// them now.
func (d *decider) plainFiles(abs []string, w shellparse.Word) bool {
	if w.Dynamic != "" || w.Glob || len(abs) == 0 {
		return false
	}
	for _, a := range abs {
		fi, err := d.fsys.Lstat(a)
		switch {
		case err != nil:
			return false
		case fi.Mode().IsRegular():
		case fi.IsDir():
			if !d.noLinks(a, 10000) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// noLinks reports whether the tree dir holds only regular files and
// directories, with no more than max entries.
func (d *decider) noLinks(dir string, max int) bool {
	todo := []string{dir}
	for len(todo) > 0 {
		cur := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		ents, err := d.fsys.ReadDir(cur)
		if err != nil {
			return false
		}
		for _, e := range ents {
			if max--; max < 0 {
				return false
			}
			switch t := e.Type(); {
			case t.IsDir():
				todo = append(todo, path.Join(cur, e.Name()))
			case t&fs.ModeType != 0:
				return false
			}
		}
	}
	return true
}

// madeOver returns what made a path of forms, or a directory above it, by
// a command that may run before the one being decided, or nil.
func (d *decider) madeOver(forms []string) *made {
	for i := range d.made {
		mp := &d.made[i]
		if !d.before(mp) {
			continue
		}
		for _, f := range forms {
			if within(f, mp.path) {
				return mp
			}
		}
	}
	return nil
}

// madeUnder returns what made a path at or under the tree root, by a
// command that may run before the one being decided, or nil: a recursive
// reader of the tree reads it too.
func (d *decider) madeUnder(root string) *made {
	for i := range d.made {
		if mp := &d.made[i]; d.before(mp) && (within(mp.path, root) || within(root, mp.path)) {
			return mp
		}
	}
	return nil
}

// before reports whether the command that made mp may run before the one
// being decided.
func (d *decider) before(mp *made) bool {
	return mp.by != d.cmdSeq && (mp.again || mp.by < d.cmdSeq || d.concurrent)
}

// concurrent reports whether a command in these constructs runs at once
// with the commands that follow it.
func concurrent(ctx []shellparse.Frame) bool {
	return slices.ContainsFunc(ctx, func(f shellparse.Frame) bool {
		return f.Kind == shellparse.FrameBackground || f.Kind == shellparse.FrameCoproc
	})
}

// again reports whether a command in these constructs may run again
// after the commands that follow it, or at once with them.
func again(ctx []shellparse.Frame) bool {
	for _, f := range ctx {
		switch f.Kind {
		case shellparse.FramePipeline, shellparse.FrameWhile, shellparse.FrameUntil, shellparse.FrameFor,
			shellparse.FrameSelect, shellparse.FrameFunction, shellparse.FrameBackground, shellparse.FrameCoproc:
			return true
		}
	}
	return false
}

// within reports whether p is dir or under it.
func within(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

// madeCheck is checkPath's answer for a path a command of the call may
// have made.
func (d *decider) madeCheck(p string, mp *made, acc access) pathCheck {
	where := mp.path
	if where == "/" {
		where = "paths it does not name literally"
	}
	if acc == writeAccess {
		return pathCheck{policy.Deny, "paths.made", fmt.Sprintf("%s is at or under %s, where %s in the same command may make a link guard cannot see: the write could land anywhere", p, where, mp.what)}
	}
	return pathCheck{policy.Stricter(Ask, d.p.DefaultVerdict()), "paths.made", fmt.Sprintf("%s is at or under %s, where %s in the same command may make a link guard cannot see: the read could reach a secret", p, where, mp.what)}
}

// madeHint is the hint of a refusal for a path a command of the call
// made.
const madeHint = "run the command that makes the files in a call of its own: guard then judges them as they are"
