// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import "mvdan.cc/sh/v3/syntax"

func (p *parser) arithm(x syntax.ArithmExpr, dir Dir, ctx []Frame, depth int) {
	if !p.enter(x, depth) {
		return
	}
	switch e := x.(type) {
	case *syntax.BinaryArithm:
		p.arithm(e.X, dir, ctx, depth+1)
		p.arithm(e.Y, dir, ctx, depth+1)
	case *syntax.UnaryArithm:
		p.arithm(e.X, dir, ctx, depth+1)
	case *syntax.ParenArithm:
		p.arithm(e.X, dir, ctx, depth+1)
	case *syntax.Word:
		p.word(e, plainWord, dir, ctx, depth)
	default:
		p.fail(x, "unsupported arithmetic node %T", x)
	}
}

// arithmTestOps are the [[ ]] operators that evaluate their operands as
// arithmetic, and the unary ones that evaluate a subscript.
var arithmTestOps = map[string]bool{
	"-eq": true, "-ne": true, "-lt": true, "-le": true, "-gt": true, "-ge": true,
	"-v": true, "-R": true,
}

func (p *parser) test(x syntax.TestExpr, dir Dir, ctx []Frame, depth int) {
	if !p.enter(x, depth) {
		return
	}
	switch e := x.(type) {
	case *syntax.BinaryTest:
		if arithmTestOps[e.Op.String()] {
			p.find(KindArithmetic, e)
		}
		p.test(e.X, dir, ctx, depth+1)
		p.test(e.Y, dir, ctx, depth+1)
	case *syntax.UnaryTest:
		if arithmTestOps[e.Op.String()] {
			p.find(KindArithmetic, e)
		}
		p.test(e.X, dir, ctx, depth+1)
	case *syntax.ParenTest:
		p.test(e.X, dir, ctx, depth+1)
	case *syntax.Word:
		p.word(e, plainWord, dir, ctx, depth)
	default:
		p.fail(x, "unsupported test node %T", x)
	}
}
