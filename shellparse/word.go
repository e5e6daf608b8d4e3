// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// wordKind tells resolve where the word stands, because bash expands a
// tilde differently in each place.
type wordKind int

const (
	argWord    wordKind = iota // an argument: leading ~, and ~ after NAME= (bash only)
	assignWord                 // an assignment value: leading ~ and ~ after each :
	plainWord                  // a redirection target or loop item: leading ~ only
)

// resolve returns the word as the shell would pass it, or marks it dynamic.
// It never guesses: anything whose value depends on the environment or on
// other commands is dynamic.
func (p *parser) resolve(w *syntax.Word, kind wordKind) Word {
	out := Word{Pos: position(w.Pos()), Source: p.text(w), Parts: wordParts(w.Parts, nil)}
	var b strings.Builder
	b.Grow(len(out.Source))  // quotes, escapes and $'...' only shrink a word
	unquotedBracket := false // an unquoted [ seen: a later ] makes a pattern
	leadBracket := false     // the word starts with that [
	for i, part := range w.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			v := x.Value
			if i == 0 && strings.HasPrefix(v, "~") {
				end := strings.IndexByte(v, '/')
				if end < 0 {
					end = len(v)
				}
				if end != 1 || (len(w.Parts) > 1 && end == len(v)) {
					// ~user, ~+, ~-, or ~ followed by a quoted part ("~"'x' is ~x)
					if out.Dynamic == "" {
						out.Dynamic = "tilde expansion"
					}
				}
				out.Tilde = true
			}
			for j := 0; j < len(v); j++ {
				c := v[j]
				switch c {
				case '\\':
					if j+1 < len(v) {
						j++
						b.WriteByte(v[j])
					}
					// A backslash at the very end of the input is dropped, as bash does.
					continue
				case '*', '?':
					out.Glob = true
					if b.Len() == 0 {
						out.GlobLead = true
					}
				case '[':
					if b.Len() == 0 {
						leadBracket = true
					}
					unquotedBracket = true
				case ']':
					if unquotedBracket {
						out.Glob = true
						out.GlobLead = out.GlobLead || leadBracket
					}
				case '~':
					if j > 0 && p.tildeAfter(kind, b.String(), v[j-1]) && out.Dynamic == "" {
						out.Dynamic = "tilde expansion"
					}
				}
				b.WriteByte(c)
			}
		case *syntax.SglQuoted:
			if x.Dollar {
				s, ok := decodeANSIC(x.Value)
				if !ok {
					if out.Dynamic == "" {
						out.Dynamic = "ANSI-C escape of a non-ASCII character"
					}
					continue
				}
				b.WriteString(s)
				continue
			}
			b.WriteString(x.Value)
			if unquotedBracket && strings.Contains(x.Value, "]") {
				out.Glob = true
				out.GlobLead = out.GlobLead || leadBracket
			}
		case *syntax.DblQuoted:
			if x.Dollar {
				if out.Dynamic == "" {
					out.Dynamic = "locale translation"
				}
				continue
			}
			for _, dp := range x.Parts {
				l, ok := dp.(*syntax.Lit)
				if !ok {
					if out.Dynamic == "" {
						out.Dynamic = partName(dp)
					}
					continue
				}
				v := l.Value
				for j := 0; j < len(v); j++ {
					if v[j] == '\\' && j+1 < len(v) && strings.IndexByte("\\$`\"", v[j+1]) >= 0 {
						j++
					}
					b.WriteByte(v[j])
				}
				if unquotedBracket && strings.Contains(v, "]") {
					out.Glob = true
					out.GlobLead = out.GlobLead || leadBracket
				}
			}
		default:
			if out.Dynamic == "" {
				out.Dynamic = partName(part)
			}
		}
	}
	if out.Dynamic == "" && hasBraceExpansion(w) {
		out.Dynamic = "brace expansion"
	}
	if p.zsh {
		p.zshStructure(w)
		if out.Dynamic == "" {
			out.Dynamic = zshWord(w)
		}
	}
	if out.Dynamic != "" {
		out.Glob, out.GlobLead = false, false
		return out
	}
	out.Value = b.String()
	if out.Glob && strings.HasPrefix(out.Value, "-") {
		out.GlobLead = true
	}
	if !out.Glob {
		out.GlobLead = false
	}
	return out
}

// tildeAfter reports whether bash expands a "~" that follows prev, given the
// resolved text before it.
func (p *parser) tildeAfter(kind wordKind, before string, prev byte) bool {
	switch kind {
	case assignWord:
		return prev == ':'
	case argWord:
		// bash, outside POSIX mode, expands ~ after the = of an argument
		// that looks like an assignment, and after each : that follows.
		if p.dialect != Bash {
			return false
		}
		eq := strings.IndexByte(before, '=')
		if eq <= 0 || !validName(before[:eq]) {
			return false
		}
		return prev == '=' || prev == ':'
	}
	return false
}

// wordParts appends the command substitutions and parameter expansions
// of parts, and of their double quotes, to out.
func wordParts(parts []syntax.WordPart, out []Part) []Part {
	for _, part := range parts {
		switch x := part.(type) {
		case *syntax.DblQuoted:
			out = wordParts(x.Parts, out)
		case *syntax.CmdSubst:
			out = append(out, Part{Kind: KindCmdSubst, Pos: position(x.Pos())})
		case *syntax.ParamExp:
			pt := Part{Kind: KindParamExp, Pos: position(x.Pos())}
			if x.Param != nil && !x.Excl && !x.Length && !x.Width && !x.IsSet && x.Index == nil && x.Slice == nil && x.Repl == nil && x.Names == 0 && x.Exp == nil && x.NestedParam == nil && x.Flags == nil && len(x.Modifiers) == 0 &&
				x.Split == syntax.OptUnset && x.GlobSubst == syntax.OptUnset && x.RcExpand == syntax.OptUnset {
				pt.Name = x.Param.Value
			}
			out = append(out, pt)
		}
	}
	return out
}

// partName names a word part that makes a word dynamic.
func partName(part syntax.WordPart) string {
	switch part.(type) {
	case *syntax.ParamExp:
		return "parameter expansion"
	case *syntax.CmdSubst:
		return "command substitution"
	case *syntax.ArithmExp:
		return "arithmetic expansion"
	case *syntax.ProcSubst:
		return "process substitution"
	case *syntax.ExtGlob:
		return "extended glob"
	case *syntax.BraceExp:
		return "brace expansion"
	}
	return "unknown word part"
}

// hasBraceExpansion reports whether bash would apply brace expansion to w.
// syntax.SplitBraces rewrites the word it is given, so it gets a copy.
func hasBraceExpansion(w *syntax.Word) bool {
	found := false
	for _, part := range w.Parts {
		if l, ok := part.(*syntax.Lit); ok && strings.IndexByte(l.Value, '{') >= 0 {
			found = true
			break
		}
	}
	if !found {
		return false
	}
	cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
	syntax.SplitBraces(cp) // reports any "{", not whether an expansion was found
	for _, part := range cp.Parts {
		if _, ok := part.(*syntax.BraceExp); ok {
			return true
		}
	}
	return false
}

// validName reports whether s is a shell variable name.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
