// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// stmts walks a statement list; each statement runs whether or not the one
// before it succeeded.
func (p *parser) stmts(list []*syntax.Stmt, dir Dir, ctx []Frame, depth int) (succ, fail Dir) {
	succ, fail = dir, dir
	for i, st := range list {
		if i > 0 {
			dir = union(succ, fail)
		}
		succ, fail = p.stmt(st, dir, ctx, depth)
	}
	return succ, fail
}

// stmt walks one statement and returns the possible working directories
// after it when it succeeds and when it fails.
func (p *parser) stmt(st *syntax.Stmt, dir Dir, ctx []Frame, depth int) (succ, fail Dir) {
	if !p.enter(st, depth) {
		return unknownDir, unknownDir
	}
	switch {
	case st.Background, st.Disown:
		p.find(KindBackground, st)
		ctx = with(ctx, FrameBackground, st)
	case st.Coprocess:
		p.find(KindCoproc, st)
		ctx = with(ctx, FrameCoproc, st)
	}
	if st.Negated {
		ctx = with(ctx, FrameNegated, st)
	}
	redirs := make([]Redirect, 0, len(st.Redirs))
	for _, r := range st.Redirs {
		redirs = append(redirs, p.redirect(r, dir, ctx, depth))
	}
	call, isCall := st.Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Args) == 0 {
		p.script.Redirects = append(p.script.Redirects, redirs...)
		redirs = nil
	}
	if st.Cmd == nil {
		if p.zsh && len(st.Redirs) > 0 {
			// zsh runs $NULLCMD (cat) or, for a lone <, $READNULLCMD (a pager).
			p.findZsh(st, "a redirection without a command runs cat or a pager in zsh")
		}
		succ, fail = dir, dir
	} else {
		succ, fail = p.command(st.Cmd, redirs, dir, ctx, depth)
	}
	if st.Background || st.Disown || st.Coprocess {
		// Runs in a subshell; the shell goes on at once, exit status 0.
		return dir, dir
	}
	if st.Negated {
		return fail, succ
	}
	return succ, fail
}

func (p *parser) command(cmd syntax.Command, redirs []Redirect, dir Dir, ctx []Frame, depth int) (succ, fail Dir) {
	switch c := cmd.(type) {
	case *syntax.CallExpr:
		return p.call(c, redirs, dir, ctx, depth)

	case *syntax.BinaryCmd:
		return p.binary(c, dir, ctx, depth)

	case *syntax.Subshell:
		p.find(KindSubshell, c)
		p.stmts(c.Stmts, dir, with(ctx, FrameSubshell, c), depth+1)
		return dir, dir

	case *syntax.Block:
		p.find(KindGroup, c)
		return p.stmts(c.Stmts, dir, with(ctx, FrameGroup, c), depth+1)

	case *syntax.IfClause:
		p.find(KindControlFlow, c)
		ictx := with(ctx, FrameIf, c)
		succ, fail = unknownDir, unknownDir
		first := true
		add := func(s, f Dir) {
			if first {
				succ, fail, first = s, f, false
				return
			}
			succ, fail = union(succ, s), union(fail, f)
		}
		for clause := c; clause != nil; clause = clause.Else {
			if !p.enter(clause, depth+1) {
				return unknownDir, unknownDir
			}
			if len(clause.Cond) == 0 { // else
				add(p.stmts(clause.Then, dir, ictx, depth+1))
				return succ, fail
			}
			cs, cf := p.stmts(clause.Cond, dir, ictx, depth+1)
			add(p.stmts(clause.Then, cs, ictx, depth+1))
			dir = cf
		}
		// No branch ran: the if succeeds in the directory the conditions left.
		add(dir, dir)
		return succ, fail

	case *syntax.WhileClause:
		p.find(KindControlFlow, c)
		kind := FrameWhile
		if c.Until {
			kind = FrameUntil
		}
		wctx := with(ctx, kind, c)
		return p.loop(c, dir, func(d Dir) {
			cs, _ := p.stmts(c.Cond, d, wctx, depth+1)
			p.stmts(c.Do, cs, wctx, depth+1)
		})

	case *syntax.ForClause:
		p.find(KindControlFlow, c)
		kind := FrameFor
		if c.Select {
			kind = FrameSelect
		}
		fctx := with(ctx, kind, c)
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			for _, w := range l.Items {
				p.word(w, plainWord, dir, fctx, depth+1)
			}
			p.script.Assigns = append(p.script.Assigns, Assign{
				Name:  l.Name.Value,
				Value: Word{Dynamic: "loop variable", Pos: position(l.Name.Pos()), Source: l.Name.Value},
				Scope: ScopeLoop,
				Dir:   dir,
				Pos:   position(l.Name.Pos()),
			})
		case *syntax.CStyleLoop:
			p.find(KindArithmetic, l)
			for _, x := range []syntax.ArithmExpr{l.Init, l.Cond, l.Post} {
				if x != nil {
					p.arithm(x, dir, fctx, depth+1)
				}
			}
		default:
			p.fail(c, "unsupported loop %T", c.Loop)
			return unknownDir, unknownDir
		}
		return p.loop(c, dir, func(d Dir) {
			p.stmts(c.Do, d, fctx, depth+1)
		})

	case *syntax.CaseClause:
		p.find(KindControlFlow, c)
		cctx := with(ctx, FrameCase, c)
		p.word(c.Word, plainWord, dir, cctx, depth+1)
		succ, fail = dir, dir
		for _, item := range c.Items {
			for _, pat := range item.Patterns {
				p.word(pat, plainWord, dir, cctx, depth+1)
			}
			s, f := p.stmts(item.Stmts, dir, cctx, depth+1)
			succ, fail = union(succ, s), union(fail, f)
		}
		return succ, fail

	case *syntax.FuncDecl:
		p.find(KindFunction, c)
		// The body runs whenever the function is called, from anywhere.
		p.stmt(c.Body, unknownDir, with(ctx, FrameFunction, c), depth+1)
		return dir, dir

	case *syntax.ArithmCmd:
		p.find(KindArithmetic, c)
		p.arithm(c.X, dir, ctx, depth+1)
		return dir, dir

	case *syntax.TestClause:
		before := len(p.script.Findings)
		p.test(c.X, dir, ctx, depth+1)
		if !slices.ContainsFunc(p.script.Findings[before:], func(f Finding) bool { return f.Kind == KindArithmetic }) {
			p.find(KindTest, c)
		}
		return dir, dir

	case *syntax.DeclClause:
		return p.decl(c, dir, ctx, depth)

	case *syntax.LetClause:
		p.find(KindArithmetic, c)
		for _, x := range c.Exprs {
			p.arithm(x, dir, ctx, depth+1)
		}
		return dir, dir

	case *syntax.TimeClause:
		if c.PosixFormat && p.zsh {
			// zsh's time takes no options: time -p runs a program named -p.
			p.findZsh(c, "zsh's time has no -p: it runs a program named -p")
		}
		if c.Stmt == nil {
			return dir, dir
		}
		return p.stmt(c.Stmt, dir, with(ctx, FrameTime, c), depth+1)

	case *syntax.CoprocClause:
		p.find(KindCoproc, c)
		if c.Name != nil {
			p.word(c.Name, plainWord, dir, ctx, depth+1)
		}
		p.stmt(c.Stmt, dir, with(ctx, FrameCoproc, c), depth+1)
		return dir, dir

	case *syntax.TestDecl:
		p.fail(c, "bats test declarations are not shell commands")
		return unknownDir, unknownDir

	default:
		p.fail(cmd, "unsupported command node %T", cmd)
		return unknownDir, unknownDir
	}
}

// binary walks a chain of && and || or a pipeline. Chains nest to the left
// in the syntax tree, one level per operator; they are flattened here so
// that a long chain does not count as deep nesting.
func (p *parser) binary(c *syntax.BinaryCmd, dir Dir, ctx []Frame, depth int) (succ, fail Dir) {
	pipe := c.Op == syntax.Pipe || c.Op == syntax.PipeAll
	type link struct {
		op syntax.BinCmdOperator
		st *syntax.Stmt
	}
	var links []link // in reverse order
	cur := c
	for {
		links = append(links, link{cur.Op, cur.Y})
		x, ok := cur.X.Cmd.(*syntax.BinaryCmd)
		if !ok || !plainStmt(cur.X) || (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) != pipe {
			links = append(links, link{0, cur.X})
			break
		}
		cur = x
	}
	if pipe {
		pctx := with(ctx, FramePipeline, c)
		var last Dir
		for i := len(links) - 1; i >= 0; i-- {
			st := links[i].st
			if tc, ok := st.Cmd.(*syntax.TimeClause); ok && i < len(links)-1 {
				if p.zsh {
					// zsh reads it as its keyword, and runs the last part
					// of a pipeline in the shell itself: | time cd x
					// changes its directory.
					p.findZsh(tc, "after |, time is bash's /usr/bin/time but zsh's keyword")
				}
				// After |, time is not bash's keyword but the program
				// /usr/bin/time, with the rest of the words as arguments.
				if st = p.timeProgram(st, tc); st == nil {
					return unknownDir, unknownDir
				}
			}
			s, f := p.stmt(st, dir, pctx, depth+1)
			last = union(s, f)
		}
		// Each part runs in a subshell, unless lastpipe is set; assume it may be.
		all := union(dir, last)
		return all, all
	}
	first := links[len(links)-1].st
	succ, fail = p.stmt(first, dir, with(ctx, opFrame(links[len(links)-2].op), c), depth+1)
	for i := len(links) - 2; i >= 0; i-- {
		l := links[i]
		lctx := with(ctx, opFrame(l.op), c)
		if l.op == syntax.AndStmt {
			s, f := p.stmt(l.st, succ, lctx, depth+1)
			succ, fail = s, union(fail, f)
		} else {
			s, f := p.stmt(l.st, fail, lctx, depth+1)
			succ, fail = union(succ, s), f
		}
	}
	return succ, fail
}

// timeProgram rewrites a time clause that bash reads as a command (after a
// pipe) into the simple command it is: time [-p] words..., where the words
// of an assignment are arguments too (time NAME=v cmd runs "NAME=v").
func (p *parser) timeProgram(st *syntax.Stmt, tc *syntax.TimeClause) *syntax.Stmt {
	at := tc.Time
	lit := func(s string, end bool) *syntax.Word {
		l := &syntax.Lit{ValuePos: at, ValueEnd: at, Value: s}
		if end {
			l.ValueEnd = syntax.NewPos(at.Offset()+uint(len(s)), at.Line(), at.Col()+uint(len(s)))
		}
		return &syntax.Word{Parts: []syntax.WordPart{l}}
	}
	call := &syntax.CallExpr{Args: []*syntax.Word{lit("time", true)}}
	if tc.PosixFormat {
		call.Args = append(call.Args, lit("-p", false))
	}
	out := &syntax.Stmt{Position: st.Position, Cmd: call, Redirs: st.Redirs, Negated: st.Negated,
		Background: st.Background, Coprocess: st.Coprocess, Disown: st.Disown}
	if tc.Stmt == nil {
		return out
	}
	inner, ok := tc.Stmt.Cmd.(*syntax.CallExpr)
	if !ok || tc.Stmt.Negated || tc.Stmt.Background || tc.Stmt.Coprocess {
		p.fail(tc, "time after | runs the program /usr/bin/time, which bash gives the words of %T", tc.Stmt.Cmd)
		return nil
	}
	for _, a := range inner.Assigns {
		if a.Index != nil || a.Array != nil || a.Naked || a.Name == nil {
			p.fail(a, "time after | runs the program /usr/bin/time, which bash gives the words of an array assignment")
			return nil
		}
		op := "="
		if a.Append {
			op = "+="
		}
		w := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: a.Pos(), ValueEnd: a.Pos(), Value: a.Name.Value + op}}}
		if a.Value != nil {
			w.Parts = append(w.Parts, a.Value.Parts...)
		}
		call.Args = append(call.Args, w)
	}
	call.Args = append(call.Args, inner.Args...)
	out.Redirs = append(append([]*syntax.Redirect(nil), st.Redirs...), tc.Stmt.Redirs...)
	return out
}

func opFrame(op syntax.BinCmdOperator) FrameKind {
	if op == syntax.OrStmt {
		return FrameOr
	}
	return FrameAnd
}

// plainStmt reports whether a statement is only its command, so that a
// chain can be flattened through it.
func plainStmt(st *syntax.Stmt) bool {
	return !st.Negated && !st.Background && !st.Coprocess && !st.Disown && len(st.Redirs) == 0
}
