// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import "mvdan.cc/sh/v3/syntax"

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
