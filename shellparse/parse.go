// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
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
