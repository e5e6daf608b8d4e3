// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Options select the dialect and the bounds of Parse. The zero value parses
// bash with the limits of [Defaults].
type Options struct {
	Dialect Dialect
	Limits  Limits
	// Zsh reports that zsh may run the source too (the agent's shell is zsh
	// or unknown): what zsh reads differently from bash is then refused, as
	// a dynamic word or a [KindZsh] finding.
	Zsh bool
}

// Parse returns what the shell would do with src, or an [*Error] and no
// script.
func Parse(src string, opt Options) (*Script, error) {
	lim, def := opt.Limits, Defaults()
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = def.MaxBytes
	}
	if lim.MaxDepth <= 0 {
		lim.MaxDepth = def.MaxDepth
	}
	if lim.MaxWords <= 0 {
		lim.MaxWords = def.MaxWords
	}
	if err := checkInput(src, lim); err != nil {
		return nil, err
	}
	src, _, jerr := joinContinuations(src, opt.Dialect.variant(), opt.Zsh)
	if jerr != nil {
		return nil, jerr
	}
	f, err := syntax.NewParser(syntax.Variant(opt.Dialect.variant()), syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, parseError(err)
	}
	if strings.Contains(src, "#") {
		if err := checkComments(f, src); err != nil {
			return nil, err
		}
	}
	p := &parser{src: src, dialect: opt.Dialect, lim: lim, zsh: opt.Zsh}
	if strings.Contains(src, "cd") || strings.Contains(src, "pushd") || strings.Contains(src, "popd") {
		p.movingLoops = p.findMovingLoops(f)
	}
	p.stmts(f.Stmts, startDir, nil, 0)
	if p.err != nil {
		return nil, p.err
	}
	if len(p.script.Commands) == 0 && len(p.script.Redirects) == 0 && len(p.script.Assigns) == 0 && len(p.script.Findings) == 0 {
		return nil, errorf(Pos{}, "empty command")
	}
	p.script.Words = p.words
	return &p.script, nil
}

func parseError(err error) *Error {
	switch e := err.(type) {
	case syntax.ParseError:
		return errorf(position(e.Pos), "parse error: %s", e.Text)
	case syntax.LangError:
		return errorf(position(e.Pos), "parse error: %s", strings.TrimPrefix(e.Error(), e.Pos.String()+": "))
	}
	return errorf(Pos{}, "parse error: %v", err)
}

type parser struct {
	src         string
	dialect     Dialect
	zsh         bool // zsh may run the source too: see zsh.go
	lim         Limits
	words       int
	script      Script
	err         *Error
	movingLoops map[syntax.Node]bool // loops whose bodies may change directory
}

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

// fail records the first error; the walk stops adding to the script.
func (p *parser) fail(n syntax.Node, format string, a ...any) {
	if p.err == nil {
		var pos Pos
		if n != nil {
			pos = position(n.Pos())
		}
		p.err = errorf(pos, format, a...)
	}
}

func (p *parser) text(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(p.src) || start > end {
		return ""
	}
	return p.src[start:end]
}

func (p *parser) find(k Kind, n syntax.Node) {
	p.script.Findings = append(p.script.Findings, Finding{Kind: k, Pos: position(n.Pos()), Source: p.text(n)})
}

// enter checks the nesting bound; walkers call it before going one level down.
func (p *parser) enter(n syntax.Node, depth int) bool {
	if p.err != nil {
		return false
	}
	if depth > p.lim.MaxDepth {
		p.fail(n, "constructs nest more than %d deep", p.lim.MaxDepth)
		return false
	}
	return true
}

func with(ctx []Frame, k FrameKind, n syntax.Node) []Frame {
	return append(ctx[:len(ctx):len(ctx)], Frame{Kind: k, Pos: position(n.Pos())})
}

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

// heredocThenMore refuses a here-document inside $(...) unless it is the
// plain form $(cat <<'EOF' ... EOF): one simple command, and nothing after
// the delimiter line. bash 5.2 joins the lines after the delimiter into the
// words of the command before them ($(cat <<E⏎E⏎{ git diff;echo
// --output=x⏎}) runs git diff echo --output=x), and moves what follows the
// operator on its line after the body; the parser does neither.
func (p *parser) heredocThenMore(list []*syntax.Stmt) {
	if len(list) == 0 {
		return
	}
	var docs []*syntax.Redirect
	for _, st := range list {
		syntax.Walk(st, func(n syntax.Node) bool {
			if r, ok := n.(*syntax.Redirect); ok && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) {
				docs = append(docs, r)
			}
			return true
		})
	}
	if len(docs) == 0 {
		return
	}
	const why = "a here-document inside a substitution, other than $(cat <<'EOF' ... EOF): bash reads the lines around it differently"
	if _, simple := list[0].Cmd.(*syntax.CallExpr); len(list) > 1 || len(docs) > 1 || list[0].Cmd != nil && !simple {
		p.fail(docs[0], why)
		return
	}
	r := docs[0]
	var from int
	if r.Hdoc != nil && r.Hdoc.Pos().IsValid() {
		from = int(r.Hdoc.End().Offset())
		if nl := strings.IndexByte(p.src[min(from, len(p.src)):], '\n'); nl >= 0 {
			from += nl
		} else {
			from = len(p.src)
		}
	} else if sp, ok := emptyBodyLine(p.src, r); ok {
		from = sp.end
	} else {
		from = len(p.src)
	}
	if end := int(list[0].End().Offset()); from < end && strings.TrimSpace(p.src[from:end]) != "" {
		p.fail(r, why)
	}
}

func (p *parser) redirect(r *syntax.Redirect, dir Dir, ctx []Frame, depth int) Redirect {
	out := Redirect{Op: r.Op.String(), Dir: dir, Pos: position(r.Pos())}
	switch {
	case (r.Op == syntax.DplOut || r.Op == syntax.DplIn) && r.Word != nil:
		// bash reads >&- as closing the descriptor and what follows as
		// another word: >&-x is >&- and x.
		if t := p.text(r.Word); len(t) > 1 && t[0] == '-' {
			p.fail(r, "%s%s: bash closes the descriptor at - and reads %s as another word; put a space after the -", r.Op, t, t[1:])
		}
	case (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) && r.Word != nil:
		// The parser does not find a delimiter line that holds non-ASCII
		// text, and would read the commands after it as the body.
		if hasNonASCII(p.text(r.Word)) {
			p.fail(r, "a here-document delimiter with non-ASCII text: write it in ASCII (EOF)")
		}
	}
	if r.N != nil {
		out.Fd = r.N.Value
		if strings.HasPrefix(r.N.Value, "{") {
			p.find(KindNamedFd, r)
		}
	}
	if r.Word != nil {
		out.Target = p.word(r.Word, plainWord, dir, ctx, depth)
		if p.zsh {
			p.zshRedirect(r, out)
		}
	}
	if r.Hdoc != nil {
		// The body is fed to standard input; expansions in it still run.
		p.word(r.Hdoc, plainWord, dir, with(ctx, FrameHeredoc, r), depth)
	}
	return out
}

// call walks a simple command.
func (p *parser) call(c *syntax.CallExpr, redirs []Redirect, dir Dir, ctx []Frame, depth int) (succ, fail Dir) {
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			p.script.Assigns = append(p.script.Assigns, p.assign(a, ScopeShell, dir, ctx, depth))
		}
		return dir, dir
	}
	cmd := Command{Dir: dir, Context: ctx, Pos: position(c.Pos()), Source: p.text(c), Redirs: redirs}
	for _, a := range c.Assigns {
		cmd.Assigns = append(cmd.Assigns, p.assign(a, ScopeCommand, dir, ctx, depth))
	}
	cmd.Args = make([]Word, 0, len(c.Args))
	for _, w := range c.Args {
		cmd.Args = append(cmd.Args, p.word(w, argWord, dir, ctx, depth))
	}
	if p.err != nil {
		return unknownDir, unknownDir
	}
	p.script.Commands = append(p.script.Commands, cmd)
	return p.builtin(c, &cmd, dir)
}

// builtin records the findings for builtins that run code or change the
// shell, and follows cd.
func (p *parser) builtin(c *syntax.CallExpr, cmd *Command, dir Dir) (succ, fail Dir) {
	args := cmd.Args
	// builtin NAME and command [-p] NAME run NAME as the shell would.
	for len(args) > 0 && args[0].Constant() && !args[0].Tilde && (args[0].Value == "builtin" || args[0].Value == "command") {
		wrapper := args[0].Value
		args = args[1:]
		for wrapper == "command" && len(args) > 0 && args[0].Constant() && strings.HasPrefix(args[0].Value, "-") {
			if args[0].Value == "--" {
				args = args[1:]
				break
			}
			if strings.ContainsAny(args[0].Value, "vV") {
				return dir, dir // command -v only looks the name up
			}
			args = args[1:]
		}
	}
	if len(args) == 0 {
		return dir, dir
	}
	if !args[0].Constant() || args[0].Tilde {
		p.find(KindDynamicCommand, c)
		return unknownDir, unknownDir
	}
	rest := args[1:]
	if p.zsh {
		p.zshBuiltin(c, args[0].Value, rest)
		p.zshArgs(c)
	}
	switch args[0].Value {
	case "cd":
		return p.cd(rest, dir)
	case "pushd", "popd":
		p.find(KindShellBuiltins, c)
		return unknownDir, dir
	case "eval":
		p.find(KindEval, c)
	case "source", ".":
		p.find(KindSource, c)
	case "exec":
		p.find(KindExec, c)
	case "alias":
		p.find(KindAlias, c)
	case "trap":
		p.find(KindTrap, c)
	case "enable", "hash", "fc", "bind", "compgen", "complete", "compopt":
		p.find(KindDynamicShell, c)
	case "declare", "typeset", "local", "readonly", "export":
		p.find(KindDeclare, c)
	case "let":
		p.find(KindArithmetic, c)
	case "shopt":
		p.find(KindShellBuiltins, c)
	case "set":
		if !safeSet(rest) {
			p.find(KindShellBuiltins, c)
		}
	case "read", "mapfile", "readarray", "getopts", "printf":
		// These assign the variables they name, as an assignment would.
		names, code := assignedNames(args[0].Value, rest)
		if code {
			p.find(KindEval, c) // mapfile -C runs a callback
		}
		for _, w := range names {
			if !w.Constant() || strings.Contains(w.Value, "[") {
				p.find(KindArithmetic, c)
				continue
			}
			p.script.Assigns = append(p.script.Assigns, Assign{
				Name:  w.Value,
				Value: Word{Dynamic: "set by " + args[0].Value, Pos: w.Pos, Source: w.Source},
				Scope: ScopeShell,
				Dir:   dir,
				Pos:   w.Pos,
			})
		}
	case "unset", "wait":
		if anySubscript(rest) {
			p.find(KindArithmetic, c)
		}
	case "test", "[":
		for _, a := range rest {
			if !a.Constant() || a.Value == "-v" || a.Value == "-R" {
				p.find(KindArithmetic, c)
				break
			}
		}
	}
	return dir, dir
}

// assignedNames returns the variable names that read, mapfile, readarray,
// getopts and printf -v assign, and whether a callback option (mapfile -C)
// makes the builtin run code. Options are read as bash's getopt does:
// bundled flags, and a value attached or in the next word.
func assignedNames(builtin string, args []Word) (names []Word, code bool) {
	var valued, nameOpts string // options that take a value; those whose value is a name
	switch builtin {
	case "read":
		valued, nameOpts = "adinNptu", "a"
	case "mapfile", "readarray":
		valued = "dnOsuCc"
	case "printf":
		valued, nameOpts = "v", "v"
	}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.Constant() {
			return append(names, args[i:]...), code
		}
		v := a.Value
		if v == "--" {
			i++
			break
		}
		if builtin == "getopts" || len(v) < 2 || v[0] != '-' {
			break
		}
		for j := 1; j < len(v); j++ {
			opt := v[j]
			if !strings.ContainsRune(valued, rune(opt)) {
				continue
			}
			value := Word{Value: v[j+1:], Pos: a.Pos, Source: a.Source}
			if j+1 == len(v) {
				if i+1 >= len(args) {
					break
				}
				i++
				value = args[i]
			}
			if opt == 'C' {
				code = true
			}
			if strings.ContainsRune(nameOpts, rune(opt)) {
				names = append(names, value)
			}
			break
		}
	}
	rest := args[i:]
	switch builtin {
	case "read":
		names = append(names, rest...)
		if len(rest) == 0 && len(names) == 0 {
			names = append(names, Word{Value: "REPLY"})
		}
	case "mapfile", "readarray":
		if len(rest) > 0 {
			names = append(names, rest[0])
		} else {
			names = append(names, Word{Value: "MAPFILE"})
		}
	case "getopts":
		if len(rest) > 1 {
			names = append(names, rest[1])
		}
		names = append(names, Word{Value: "OPTARG"}, Word{Value: "OPTIND"})
	}
	return names, code
}

// anySubscript reports whether a variable name argument may carry a
// subscript, which bash evaluates as arithmetic.
func anySubscript(args []Word) bool {
	for _, a := range args {
		if !a.Constant() || strings.Contains(a.Value, "[") {
			return true
		}
	}
	return false
}

// safeSet reports whether a set command only sets options that do not
// change how later commands are read or run.
func safeSet(args []Word) bool {
	safeLong := map[string]bool{"errexit": true, "nounset": true, "pipefail": true, "xtrace": true, "verbose": true, "noclobber": true, "noglob": true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Constant() {
			return false
		}
		v := a.Value
		if len(v) < 2 || (v[0] != '-' && v[0] != '+') || v == "--" {
			return false // set -- args, or set args: positional parameters
		}
		for _, c := range v[1:] {
			switch {
			case c == 'o':
				// -o NAME, also at the end of a bundle: -euo pipefail.
				i++
				if i >= len(args) || !args[i].Constant() || !safeLong[args[i].Value] {
					return false
				}
			case strings.ContainsRune("euxvCf", c):
			default:
				return false
			}
		}
	}
	return true
}

// cd follows a cd command.
func (p *parser) cd(args []Word, dir Dir) (succ, fail Dir) {
	for len(args) > 0 && args[0].Constant() && strings.HasPrefix(args[0].Value, "-") && args[0].Value != "-" {
		opt := args[0].Value
		args = args[1:]
		if opt == "--" {
			break
		}
		if strings.Trim(opt[1:], "LPe@") != "" {
			return unknownDir, dir
		}
	}
	switch {
	case len(args) == 0:
		return dir.cd("~"), dir
	case len(args) > 1, !args[0].Constant(), args[0].Value == "-", args[0].Value == "":
		return unknownDir, dir
	case p.zsh && zshStackEntry(args[0].Value):
		return unknownDir, dir // zsh: cd +N goes to an entry of the directory stack
	}
	return dir.cd(args[0].Value), dir
}

func (p *parser) assign(a *syntax.Assign, scope AssignScope, dir Dir, ctx []Frame, depth int) Assign {
	out := Assign{Scope: scope, Dir: dir, Pos: position(a.Pos())}
	if a.Name != nil {
		out.Name = a.Name.Value
	}
	if a.Index != nil {
		p.find(KindArithmetic, a)
		p.arithm(a.Index, dir, ctx, depth+1)
	}
	switch {
	case a.Array != nil:
		for _, el := range a.Array.Elems {
			if el.Index != nil {
				p.find(KindArithmetic, el)
				p.arithm(el.Index, dir, ctx, depth+1)
			}
			if el.Value != nil {
				p.word(el.Value, assignWord, dir, ctx, depth+1)
			}
		}
		out.Value = Word{Dynamic: "array", Pos: position(a.Array.Pos()), Source: p.text(a.Array)}
	case a.Value != nil:
		out.Value = p.word(a.Value, assignWord, dir, ctx, depth)
	default:
		out.Value = Word{Pos: out.Pos} // X= sets the empty string
	}
	if a.Append && out.Value.Dynamic == "" {
		out.Value.Dynamic = "appends to the current value"
	}
	return out
}

// decl walks declare, local, export, readonly, typeset and nameref. Only
// export of plain names is an assignment guard follows; the rest can set
// attributes that make bash evaluate values as arithmetic.
func (p *parser) decl(c *syntax.DeclClause, dir Dir, ctx []Frame, depth int) (succ, fail Dir) {
	plain := c.Variant.Value == "export"
	var assigns []Assign
	for _, a := range c.Args {
		if a.Naked && a.Name == nil {
			plain = false // an option, or a name known only at run time
			if a.Value != nil {
				p.word(a.Value, argWord, dir, ctx, depth)
			}
			continue
		}
		if a.Index != nil || a.Array != nil || a.Append {
			plain = false
		}
		as := p.assign(a, ScopeExport, dir, ctx, depth)
		if a.Naked {
			as.Value = Word{Dynamic: "the current value", Pos: as.Pos, Source: as.Name}
		}
		assigns = append(assigns, as)
	}
	if !plain || len(c.Args) == 0 {
		// A bare export prints the environment.
		p.find(KindDeclare, c)
		return dir, dir
	}
	p.script.Assigns = append(p.script.Assigns, assigns...)
	return dir, dir
}

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

// String renders the script for debugging and tests: one line per command,
// assignment, redirection and finding.
func (s *Script) String() string {
	var b strings.Builder
	for _, c := range s.Commands {
		fmt.Fprintf(&b, "cmd %s", c.Pos)
		for _, a := range c.Assigns {
			fmt.Fprintf(&b, " %s=%s", a.Name, a.Value.render())
		}
		for _, a := range c.Args {
			fmt.Fprintf(&b, " %s", a.render())
		}
		for _, r := range c.Redirs {
			fmt.Fprintf(&b, " %s%s%s", r.Fd, r.Op, r.Target.render())
		}
		if !c.Dir.Start() {
			fmt.Fprintf(&b, " @%s", c.Dir)
		}
		b.WriteByte('\n')
	}
	for _, a := range s.Assigns {
		fmt.Fprintf(&b, "assign %s %s %s=%s\n", a.Pos, a.Scope, a.Name, a.Value.render())
	}
	for _, r := range s.Redirects {
		fmt.Fprintf(&b, "redirect %s %s%s%s\n", r.Pos, r.Fd, r.Op, r.Target.render())
	}
	for _, f := range s.Findings {
		fmt.Fprintf(&b, "finding %s %s\n", f.Pos, f.Kind)
	}
	return b.String()
}

// render writes a word for String: quoted value, <dynamic: why>, or glob:pattern.
func (w Word) render() string {
	switch {
	case w.Dynamic != "":
		return "<" + w.Dynamic + ">"
	case w.Glob:
		return "glob:" + fmt.Sprintf("%q", w.Value)
	case w.Tilde:
		return "tilde:" + fmt.Sprintf("%q", w.Value)
	}
	return fmt.Sprintf("%q", w.Value)
}
