// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Canonical returns src as Parse read it (its line continuations joined),
// printed by mvdan.cc/sh's printer, for a shell to run what guard judged.
// When src is a change to a literal directory and then the rest (cd DIR &&
// REST), it returns the two apart: dir is the cd command, and body REST.
// Otherwise dir is "" and body the whole.
func Canonical(src string, opt Options) (dir, body string, err error) {
	joined, _, jerr := joinContinuations(src, opt.Dialect.variant(), opt.Zsh)
	if jerr != nil {
		return "", "", jerr
	}
	f, perr := syntax.NewParser(syntax.Variant(opt.Dialect.variant()), syntax.KeepComments(true)).Parse(strings.NewReader(joined), "")
	if perr != nil {
		return "", "", parseError(perr)
	}
	print := func(n syntax.Node) (string, error) {
		var b strings.Builder
		if err := syntax.NewPrinter().Print(&b, n); err != nil {
			return "", err
		}
		return strings.TrimSuffix(b.String(), "\n"), nil
	}
	if cd, rest := leadingCd(f); cd != nil {
		if dir, err = print(cd); err == nil {
			body, err = print(rest)
		}
		return dir, body, err
	}
	body, err = print(f)
	return "", body, err
}

// leadingCd splits a file that is one statement, cd LITERAL && REST, with
// no redirection, negation or background, into its cd and REST.
func leadingCd(f *syntax.File) (cd *syntax.CallExpr, rest *syntax.Stmt) {
	if len(f.Stmts) != 1 || len(f.Last) > 0 {
		return nil, nil
	}
	s := f.Stmts[0]
	if s.Negated || s.Background || s.Coprocess || len(s.Redirs) > 0 || len(s.Comments) > 0 {
		return nil, nil
	}
	bin, ok := s.Cmd.(*syntax.BinaryCmd)
	if !ok || bin.Op != syntax.AndStmt {
		return nil, nil
	}
	left := bin.X
	if left.Negated || left.Background || len(left.Redirs) > 0 || len(left.Comments) > 0 {
		return nil, nil
	}
	call, ok := left.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) != 2 || call.Args[0].Lit() != "cd" || call.Args[1].Lit() == "" {
		return nil, nil
	}
	d := call.Args[1].Lit()
	if strings.ContainsAny(d, "~*?[{\\$`'\"") {
		return nil, nil
	}
	if !strings.HasPrefix(d, "/") && !strings.HasPrefix(d, "./") && !strings.HasPrefix(d, "../") && d != "." && d != ".." {
		// bash and zsh search CDPATH for any other relative directory,
		// and the agent's shell may have one: ./ goes where guard judged.
		lit := *call
		lit.Args = []*syntax.Word{call.Args[0], {Parts: []syntax.WordPart{&syntax.Lit{Value: "./" + d}}}}
		call = &lit
	}
	return call, bin.Y
}

// SingleQuote quotes s as one word that bash, zsh and sh all read the
// same: in single quotes, each single quote in s closing the quotes,
// escaped with a backslash, and opening them again.
func SingleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
