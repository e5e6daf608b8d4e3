// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

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
