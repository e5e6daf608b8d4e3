// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Line continuations.
//
// bash removes a backslash-newline pair as it reads characters, before its
// tokeniser sees them, everywhere except in three literal contexts: single
// quotes (also $'...'), comments (which end at the newline, backslash or
// not) and the bodies of here-documents whose delimiter is quoted. A pair
// whose backslash is itself escaped (\\ before the newline, counted in the
// same context) is an escaped backslash and a newline, not a continuation.
// So `(\⏎(` is bash's "((", `<<\⏎-EOF` is "<<-EOF", `$\⏎{HOME}` is
// "${HOME}", and in an unquoted here-document a line "\" followed by the
// delimiter ends the document.
//
// The parser instead removes continuations per lexer state, and differs in
// comments, heredoc delimiter lines, after $ and inside two-character
// operators. So guard does what bash does: it removes every continuation
// outside the literal contexts and parses the joined text, which holds no
// continuation for the parser to read differently.
//
// Which pairs are in a literal context depends on the parse itself, so the
// joining is checked against the parse of its result: every pair kept must
// lie in a literal context (or be escaped), no pair removed may lie in one,
// and no comment may end in a backslash (bash ends the comment at the
// newline; the parser joins the next line into it). When the check fails,
// guard cannot be sure how bash splits the text and refuses it.
//
// zsh, which may run the command too, does not join a continuation inside
// an operator (`&\⏎&` is two &s, `<<\⏎-EOF` is "<<" and "-EOF"); when zsh
// may run the command, a continuation between two characters that could
// form an operator is refused.

// joinContinuations returns src as bash reads it with its line
// continuations removed, or an error when guard cannot be sure where bash
// removes them. The second result reports whether anything was removed.
func joinContinuations(src string, v syntax.LangVariant, zsh bool) (string, bool, *Error) {
	// A backslash at the very end: bash -c and eval keep it in the word,
	// a script file and zsh drop it.
	if run := len(src) - len(strings.TrimRight(src, "\\")); run%2 == 1 {
		return "", false, continuationError(offsetPos(src, len(src)-1), "the command ends in a backslash, which shells read differently; remove it")
	}
	if !strings.Contains(src, "\\\n") {
		return src, false, nil
	}
	// Even without a continuation (\\ before a newline) a comment that
	// ends in a backslash must be checked.
	pairs := continuationPairs(src)
	// First guess: the literal contexts the parser finds in src. Then: no
	// pair is in a literal context, the common case of a long command
	// split over lines.
	var guesses [][]bool
	if f, err := parseKeepComments(src, v); err == nil {
		lits := literalRanges(f, src)
		keep := make([]bool, len(pairs))
		for i, at := range pairs {
			keep[i] = lits.contains(at)
		}
		guesses = append(guesses, keep)
	}
	guesses = append(guesses, make([]bool, len(pairs)))
	var first *Error
	for _, keep := range guesses {
		joined, err := checkJoin(src, pairs, keep, v, zsh)
		if err == nil {
			return joined, len(pairs) > 0, nil
		}
		if first == nil {
			first = err
		}
	}
	return "", false, first
}

// continuationPairs returns the offsets of the backslashes that end a line
// and are not escaped by a backslash before them.
func continuationPairs(src string) []int {
	var pairs []int
	for i := 0; i+1 < len(src); i++ {
		if src[i] != '\\' || src[i+1] != '\n' {
			continue
		}
		run := 0
		for j := i; j >= 0 && src[j] == '\\'; j-- {
			run++
		}
		if run%2 == 1 {
			pairs = append(pairs, i)
		}
	}
	return pairs
}

// checkJoin removes the pairs not kept and checks the result against its
// own parse.
func checkJoin(src string, pairs []int, keep []bool, v syntax.LangVariant, zsh bool) (string, *Error) {
	var b strings.Builder
	b.Grow(len(src))
	// at maps each pair to its offset in the joined text: a kept pair's
	// backslash, or the point where a removed pair was.
	at := make([]int, len(pairs))
	prev := 0
	for i, off := range pairs {
		b.WriteString(src[prev:off])
		at[i] = b.Len()
		if keep[i] {
			b.WriteString("\\\n")
		}
		prev = off + 2
	}
	b.WriteString(src[prev:])
	joined := b.String()

	f, err := parseKeepComments(joined, v)
	if err != nil {
		// The joined text is what bash parses: its error is the command's.
		return "", parseError(err)
	}
	lits := literalRanges(f, joined)
	for _, c := range lits.comments {
		if text := joined[c.start:c.end]; strings.HasSuffix(text, "\\") || strings.Contains(text, "\n") {
			return "", continuationError(offsetPos(joined, c.start), "a comment ends in a backslash: bash ends the comment at the newline, guard's parser would join the next line into it; remove the backslash")
		}
	}
	if zsh {
		if err := zshJoins(joined, at, keep); err != nil {
			return "", err
		}
	}
	for _, off := range at {
		why := ""
		switch {
		case within(lits.backquotes, off):
			why = "a line continuation inside `...`: bash removes it before it reads the quotes there; use $(...) or one line"
		case within(lits.dashDocs, off):
			why = "a line continuation in a <<- here-document: write the body without backslash-newlines"
		case zsh && within(lits.bodies, off):
			why = "a line continuation in a here-document: zsh joins its lines differently from bash"
		}
		if why != "" {
			return "", continuationError(offsetPos(joined, off), why)
		}
	}
	for i, off := range at {
		switch {
		case keep[i] && !lits.contains(off):
			return "", continuationError(offsetPos(joined, off), "guard cannot tell how bash joins the line continuation here; write the command on one line")
		case !keep[i] && lits.inside(off):
			return "", continuationError(offsetPos(joined, off), "guard cannot tell how bash joins the line continuation here; write the command on one line")
		}
	}
	return joined, nil
}

// within reports whether off is inside one of the spans, ends included.
func within(spans []span, off int) bool {
	for _, s := range spans {
		if off >= s.start && off <= s.end {
			return true
		}
	}
	return false
}

// zshJoins refuses the continuations that zsh would not join as bash does:
// those between two characters that could form an operator.
// It looks at the joined text, where at holds the join points, so that
// continuations in a row (1\⏎\⏎>f) are judged by what they join.
func zshJoins(joined string, at []int, keep []bool) *Error {
	for i, off := range at {
		if keep[i] || off == 0 || off >= len(joined) {
			continue
		}
		before, after := joined[off-1], joined[off]
		blank := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }
		switch {
		case strings.IndexByte("&|;<>()$=!", before) >= 0 && !blank(after):
			return continuationError(offsetPos(joined, off), fmt.Sprintf("a line continuation right after %q: bash joins it into one token, zsh does not; put a space before the backslash", string(before)))
		case strings.IndexByte("&|;<>()", after) >= 0 && !blank(before):
			// 1\⏎>x: bash reads 1>x, zsh the word 1 and >x.
			return continuationError(offsetPos(joined, off), fmt.Sprintf("a line continuation right before %q: bash joins it into one token, zsh does not; put a space before the backslash", string(after)))
		}
	}
	return nil
}

func parseKeepComments(src string, v syntax.LangVariant) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(v), syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
}

type span struct{ start, end int } // [start, end) byte offsets

// literals are the literal contexts of a parse: where a backslash-newline
// stays as written.
type literals struct {
	quotes   []span // '...' and $'...', quotes included
	comments []span // # to the end of the line, newline excluded
	heredocs []span // bodies of heredocs with quoted delimiters, delimiter line included

	// Where a continuation is refused whatever the guess.
	backquotes []span // `...`: bash removes continuations inside before it reads the quotes in it
	dashDocs   []span // bodies of <<- heredocs: bash strips tabs and joins lines in an order guard does not model
	bodies     []span // bodies of heredocs with unquoted delimiters: zsh joins lines in them differently
}

// contains reports whether the backslash at off is in a literal context.
func (l *literals) contains(off int) bool {
	for _, s := range l.quotes {
		if off > s.start && off < s.end-1 {
			return true
		}
	}
	for _, s := range l.comments {
		if off > s.start && off < s.end {
			return true
		}
	}
	for _, s := range l.heredocs {
		if off >= s.start && off < s.end {
			return true
		}
	}
	return false
}

// inside reports whether a continuation removed at off would have been in a
// literal context, where bash keeps it.
func (l *literals) inside(off int) bool {
	for _, s := range l.quotes {
		if off > s.start && off < s.end {
			return true
		}
	}
	for _, s := range l.comments {
		if off > s.start && off <= s.end {
			return true
		}
	}
	for _, s := range l.heredocs {
		// A pair at the end of the delimiter line kept it from being one.
		if off > s.start && off <= s.end {
			return true
		}
	}
	return false
}

func literalRanges(f *syntax.File, src string) *literals {
	l := &literals{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted:
			l.quotes = append(l.quotes, span{int(n.Left.Offset()), int(n.Right.Offset()) + 1})
		case *syntax.Comment:
			start := int(n.Hash.Offset())
			end := start + 1 + len(n.Text)
			if end > len(src) {
				end = len(src)
			}
			l.comments = append(l.comments, span{start, end})
		case *syntax.CmdSubst:
			if n.Backquotes {
				l.backquotes = append(l.backquotes, span{int(n.Left.Offset()), int(n.Right.Offset()) + 1})
			}
		case *syntax.Redirect:
			if (n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc) && (n.Hdoc == nil || !n.Hdoc.Pos().IsValid()) {
				// An empty body: its delimiter line is the first line after
				// the operator's that is the delimiter.
				if sp, ok := emptyBodyLine(src, n); ok {
					l.addHeredoc(n, sp)
				}
			}
			if (n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc) && n.Hdoc != nil && n.Hdoc.Pos().IsValid() {
				// The body, and the delimiter line after it. The parser puts
				// a body that starts with backslash-newlines after them.
				start, end := int(n.Hdoc.Pos().Offset()), int(n.Hdoc.End().Offset())
				for start >= 2 && start <= len(src) && src[start-2:start] == "\\\n" {
					start -= 2
				}
				if start <= len(src) {
					start = strings.LastIndexByte(src[:start], '\n') + 1
				}
				if end < len(src) {
					if i := strings.IndexByte(src[end:], '\n'); i >= 0 {
						end += i
					} else {
						end = len(src)
					}
				}
				l.addHeredoc(n, span{start, end})
			}
		}
		return true
	})
	return l
}

func (l *literals) addHeredoc(r *syntax.Redirect, sp span) {
	if r.Op == syntax.DashHdoc {
		l.dashDocs = append(l.dashDocs, sp)
	}
	if quotedDelimiter(r.Word) {
		l.heredocs = append(l.heredocs, sp)
	} else {
		l.bodies = append(l.bodies, sp)
	}
}

// emptyBodyLine returns the delimiter line of a heredoc whose body the
// parser found empty.
func emptyBodyLine(src string, r *syntax.Redirect) (span, bool) {
	if r.Word == nil {
		return span{}, false
	}
	delim := strings.NewReplacer("'", "", "\"", "", "\\", "").Replace(src[r.Word.Pos().Offset():r.Word.End().Offset()])
	off := int(r.Word.End().Offset())
	nl := strings.IndexByte(src[off:], '\n')
	if nl < 0 {
		return span{}, false
	}
	for start := off + nl + 1; start < len(src); {
		end := strings.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		line := src[start:end]
		if r.Op == syntax.DashHdoc {
			line = strings.TrimLeft(line, "\t")
		}
		if line == delim {
			return span{start, end}, true
		}
		start = end + 1
	}
	return span{}, false
}

// quotedDelimiter reports whether a heredoc delimiter has any quoting, which
// makes the body literal.
func quotedDelimiter(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok || strings.Contains(lit.Value, "\\") {
			return true
		}
	}
	return false
}

func continuationError(p Pos, msg string) *Error {
	return &Error{Pos: p, Msg: msg, Kind: KindContinuation}
}

// offsetPos converts a byte offset into a line and column.
func offsetPos(src string, off int) Pos {
	if off > len(src) {
		off = len(src)
	}
	line := 1 + strings.Count(src[:off], "\n")
	col := off - strings.LastIndexByte(src[:off], '\n')
	return Pos{Line: line, Col: col}
}

// checkComments refuses a comment that does not start a word. bash starts
// a comment only at the start of a word; inside $(...) the parser also
// takes the # after $a for one ($(x $a# ; rm -rf ~) is x $a#, then rm for
// bash), and would hide the rest of the line.
func checkComments(f *syntax.File, src string) *Error {
	var bad *Error
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.Comment)
		if !ok || bad != nil {
			return bad == nil
		}
		off := int(c.Hash.Offset())
		if off > 0 && off <= len(src) && strings.IndexByte(" \t\n;&|()", src[off-1]) < 0 {
			bad = errorf(offsetPos(src, off), "a # inside a word, which guard's parser reads as a comment and bash does not; quote it")
		}
		return true
	})
	return bad
}
