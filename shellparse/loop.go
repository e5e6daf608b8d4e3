// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import "mvdan.cc/sh/v3/syntax"

// findMovingLoops returns the loops that hold a command which may change
// the working directory (cd, pushd, popd, or a command whose name is not
// known). A later pass of such a loop starts in an unknown directory.
func (p *parser) findMovingLoops(f *syntax.File) map[syntax.Node]bool {
	marked := map[syntax.Node]bool{}
	var stack []syntax.Node
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if c, ok := n.(*syntax.CallExpr); ok && p.mayChangeDir(c) {
			for i := len(stack) - 1; i >= 0; i-- {
				switch s := stack[i].(type) {
				case *syntax.WhileClause, *syntax.ForClause:
					if marked[s] {
						i = 0 // its enclosing loops are marked already
						continue
					}
					marked[s] = true
				}
			}
		}
		return true
	})
	return marked
}

// mayChangeDir reports whether a simple command may be cd, pushd or popd,
// also behind builtin or command.
func (p *parser) mayChangeDir(c *syntax.CallExpr) bool {
	for i, w := range c.Args {
		if i > 3 {
			break
		}
		v := p.resolve(w, plainWord)
		if !v.Constant() {
			return true
		}
		switch v.Value {
		case "cd", "pushd", "popd":
			return true
		case "builtin", "command", "-p", "--":
			continue
		}
		return false
	}
	return false
}

// loop walks a loop once. If the loop may change the working directory, a
// later pass could start anywhere, so it is walked from an unknown
// directory and leaves the directory unknown.
func (p *parser) loop(n syntax.Node, dir Dir, body func(Dir)) (succ, fail Dir) {
	if p.movingLoops[n] {
		body(unknownDir)
		return unknownDir, unknownDir
	}
	body(dir)
	return dir, dir
}
