// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import "mvdan.cc/sh/v3/syntax"

// word resolves a word and walks the commands and constructs inside it.
func (p *parser) word(w *syntax.Word, kind wordKind, dir Dir, ctx []Frame, depth int) Word {
	if !p.enter(w, depth) {
		return Word{Dynamic: "error"}
	}
	p.words++
	if p.words > p.lim.MaxWords {
		p.fail(w, "more than %d words", p.lim.MaxWords)
		return Word{Dynamic: "error"}
	}
	p.parts(w.Parts, dir, ctx, depth)
	return p.resolve(w, kind)
}

func (p *parser) parts(parts []syntax.WordPart, dir Dir, ctx []Frame, depth int) {
	for _, part := range parts {
		if p.err != nil {
			return
		}
		switch x := part.(type) {
		case *syntax.Lit, *syntax.SglQuoted, *syntax.ExtGlob:
		case *syntax.DblQuoted:
			p.parts(x.Parts, dir, ctx, depth)
		case *syntax.ParamExp:
			p.param(x, dir, ctx, depth+1)
		case *syntax.CmdSubst:
			p.find(KindCmdSubst, x)
			p.heredocThenMore(x.Stmts)
			p.stmts(x.Stmts, dir, with(ctx, FrameCmdSubst, x), depth+1)
		case *syntax.ProcSubst:
			p.find(KindProcSubst, x)
			p.heredocThenMore(x.Stmts)
			p.stmts(x.Stmts, dir, with(ctx, FrameProcSubst, x), depth+1)
		case *syntax.ArithmExp:
			p.find(KindArithmetic, x)
			p.arithm(x.X, dir, ctx, depth+1)
		default:
			p.fail(part, "unsupported word part %T", part)
		}
	}
}

func (p *parser) param(x *syntax.ParamExp, dir Dir, ctx []Frame, depth int) {
	if !p.enter(x, depth) {
		return
	}
	p.find(KindParamExp, x)
	if x.Excl || x.Names != 0 {
		p.find(KindIndirect, x)
	}
	if x.Exp != nil && x.Exp.Op == syntax.OtherParamOps && (x.Exp.Word == nil || x.Exp.Word.Lit() != "Q" && x.Exp.Word.Lit() != "U" && x.Exp.Word.Lit() != "u" && x.Exp.Word.Lit() != "L" && x.Exp.Word.Lit() != "a") {
		// ${x@P} expands the value as a prompt, running substitutions in
		// it; the other operators only quote or change case.
		p.find(KindIndirect, x)
	}
	if x.Index != nil {
		if w, ok := x.Index.(*syntax.Word); !ok || (w.Lit() != "@" && w.Lit() != "*") {
			p.find(KindArithmetic, x)
		}
		p.arithm(x.Index, dir, ctx, depth+1)
	}
	if x.Slice != nil {
		p.find(KindArithmetic, x)
		for _, e := range []syntax.ArithmExpr{x.Slice.Offset, x.Slice.Length} {
			if e != nil {
				p.arithm(e, dir, ctx, depth+1)
			}
		}
	}
	if x.NestedParam != nil || len(x.Modifiers) > 0 || x.Flags != nil {
		p.fail(x, "zsh parameter expansion is not supported")
		return
	}
	if x.Repl != nil {
		for _, w := range []*syntax.Word{x.Repl.Orig, x.Repl.With} {
			if w != nil {
				p.word(w, plainWord, dir, ctx, depth+1)
			}
		}
	}
	if x.Exp != nil && x.Exp.Word != nil {
		p.word(x.Exp.Word, plainWord, dir, ctx, depth+1)
	}
}
