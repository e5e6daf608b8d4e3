// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// zsh.
//
// Claude Code runs commands in the user's shell, zsh on macOS, and Codex in
// the login shell. zsh reads many plain bash words differently. With
// Options.Zsh, Parse still reads the source as bash does, and where zsh
// (with its default options) would read it otherwise, it refuses: the word
// is dynamic, or the construct is a [KindZsh] finding. Each case was seen
// in zsh 5.9 against bash 5.2:
//
//   - brace expansion bash leaves alone: `{-..-}` is a character range
//     (`find . {-..-}exec touch x ';'` runs touch); a "}" in a word that
//     no "{" in it opens ends a group (`{ echo a}` is a group);
//   - `=cmd` at the start of a word or an assignment value is the path of
//     cmd (`x==ls` sets x to /usr/bin/ls);
//   - $'...' drops the backslash of an escape it does not know ($'\-' is
//     "-"; bash keeps `\-`);
//   - printf's numeric conversions, exit, return, shift, break and continue
//     evaluate their arguments as arithmetic (`printf %d PATH=0` sets PATH);
//   - a redirection without a command runs cat (`> f`) or a pager (`< f`);
//   - `>! f` and `>>! f` write f (bash writes a file named "!");
//   - `<1-10>` is a glob of numbers, not two redirections;
//   - `{a} >x` opens a descriptor into $a, even with the blank (bash: the
//     argument {a}), and a command word `{y}` is a group;
//   - `time -p CMD` runs a program named -p (zsh's time takes no option);
//   - `cd +N` is an entry of the directory stack, and `cd OLD NEW` replaces
//     OLD by NEW in the working directory (already unknown to guard: bash
//     refuses two operands).
//
// Line continuations zsh joins differently are refused by
// joinContinuations. What zsh options, aliases and functions the user set
// (EXTENDED_GLOB, BRACE_CCL, a function named git) are out of reach: guard
// assumes zsh's defaults.

// findZsh records a construct zsh reads differently.
func (p *parser) findZsh(n syntax.Node, why string) {
	p.script.Findings = append(p.script.Findings, Finding{Kind: KindZsh, Pos: position(n.Pos()), Source: p.text(n), Why: why})
}

// zshWord returns why zsh expands a word that bash takes literally, or "".
// The word's unquoted text is the concatenation of its Lit parts, with
// quoted parts replaced by a placeholder that no check matches.
func zshWord(w *syntax.Word) string {
	var unq strings.Builder
	for _, part := range w.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			unq.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar && !zshSameANSIC(x.Value) {
				return "zsh reads this $'...' escape differently"
			}
			unq.WriteByte(0)
		default:
			unq.WriteByte(0)
		}
	}
	u := unq.String()
	if len(u) > 1 && u[0] == '=' {
		return "zsh replaces =NAME with the path of the command NAME"
	}
	if zshBraces(u) {
		return "zsh brace expansion"
	}
	return ""
}

// zshStructure refuses a word that changes the structure of the command
// for zsh: a "}" that ends a group. It is a finding, not a dynamic word,
// since what follows it is no longer the same command.
func (p *parser) zshStructure(w *syntax.Word) {
	var unq strings.Builder
	for _, part := range w.Parts {
		if lit, ok := part.(*syntax.Lit); ok {
			unq.WriteString(lit.Value)
		} else {
			unq.WriteByte(0)
		}
	}
	if zshStrayBrace(unq.String()) {
		p.findZsh(w, "zsh reads a } that no { in the word opens as the end of a group")
	}
}

// zshStrayBrace reports whether unquoted text holds a "}" that no "{"
// before it in the word opens. zsh ends a group there (`{ echo a}` is a
// group around echo a), bash keeps it in the word.
func zshStrayBrace(u string) bool {
	depth := 0
	for i := 0; i < len(u); i++ {
		switch u[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return true
			}
			depth--
		}
	}
	return false
}

// zshBraces reports whether unquoted text holds a brace expansion for zsh:
// a {...} with a comma or a ".." in it, which zsh expands whatever the
// items are.
func zshBraces(u string) bool {
	for i := 0; i < len(u); i++ {
		if u[i] == '\\' {
			i++
			continue
		}
		if u[i] != '{' {
			continue
		}
		depth := 0
		for j := i; j < len(u); j++ {
			switch u[j] {
			case '\\':
				j++
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					body := u[i+1 : j]
					if strings.Contains(body, ",") || strings.Contains(body, "..") {
						return true
					}
					j = len(u)
				}
			}
		}
	}
	return false
}

// zshSameANSIC reports whether zsh decodes the body of a $'...' as bash
// does: only the escapes both read alike.
func zshSameANSIC(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if i+1 >= len(s) {
			return false
		}
		i++
		switch s[i] {
		case 'a', 'b', 'e', 'E', 'f', 'n', 'r', 't', 'v', '\\', '\'', '"':
		case 'x':
			// Exactly two hex digits: the shells differ on how many they take.
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		default:
			return false
		}
	}
	return true
}

// zshRedirect refuses redirections zsh reads differently.
func (p *parser) zshRedirect(r *syntax.Redirect, out Redirect) {
	src := out.Target.Source
	switch {
	case (r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.RdrAll || r.Op == syntax.AppAll) && strings.HasPrefix(src, "!"):
		p.findZsh(r, "zsh reads >! as a redirection that overwrites the next word")
	case r.Op == syntax.RdrIn && numericGlob(src) && int(r.Word.End().Offset()) < len(p.src) && p.src[r.Word.End().Offset()] == '>':
		p.findZsh(r, "zsh reads <N-M> as a glob of numbers")
	}
}

// numericGlob reports whether s is what zsh reads as <N-M>, a glob of
// numbers, between < and >: digits, one -, digits (^[0-9]*-[0-9]*$).
func numericGlob(s string) bool {
	before, after, ok := strings.Cut(s, "-")
	return ok && digits(before) == len(before) && digits(after) == len(after)
}

// namedFd reports whether s is a word zsh may take for a named descriptor
// ({fd}>file), even with a blank before the redirection:
// ^\{[A-Za-z_][A-Za-z0-9_]*\}$.
func namedFd(s string) bool {
	if len(s) < 3 || s[0] != '{' || s[len(s)-1] != '}' || isDigit(s[1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		if !isDigit(c) && c != '_' && !('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// zshArgs refuses arguments zsh reads as something else: {NAME} before a
// redirection is a descriptor zsh opens into NAME.
func (p *parser) zshArgs(c *syntax.CallExpr) {
	if len(c.Args) < 2 {
		return
	}
	for _, w := range c.Args[1:] {
		if namedFd(p.text(w)) {
			p.findZsh(w, "zsh reads {NAME} before a redirection as a descriptor it opens into NAME, blank or not")
			return
		}
	}
}

// zshBuiltin refuses builtins whose arguments zsh evaluates as arithmetic.
func (p *parser) zshBuiltin(c *syntax.CallExpr, name string, args []Word) {
	if strings.HasPrefix(name, "{") {
		p.findZsh(c, "zsh reads a command word that starts with { as a group")
		return
	}
	switch name {
	case "exit", "return", "shift", "break", "continue":
		for _, a := range args {
			if !a.Constant() || !numeric(a.Value) {
				p.findZsh(c, "zsh evaluates the argument of "+name+" as arithmetic, which can assign variables")
				return
			}
		}
	case "printf":
		i := 0
		for i < len(args) && args[i].Constant() && strings.HasPrefix(args[i].Value, "-") && args[i].Value != "-" {
			if args[i].Value == "--" {
				i++
				break
			}
			if args[i].Value == "-v" {
				i++
			}
			i++
		}
		if i >= len(args) {
			return
		}
		format, rest := args[i], args[i+1:]
		if len(rest) == 0 {
			return
		}
		if format.Constant() && !numericConversion(format.Value) {
			return
		}
		for _, a := range rest {
			if !a.Constant() || !numeric(a.Value) {
				p.findZsh(c, "zsh's printf evaluates the arguments of numeric conversions as arithmetic, which can assign variables")
				return
			}
		}
	}
}

// numericConversion reports whether a printf format holds a conversion that
// takes a number, or a * width or precision: whether it holds a match of
//
//	%[-+ #0'I]*(\*|[0-9]*(\.(\*|[0-9]*))?[hlLqjzt]*[diouxXeEfFgGaA]|[0-9]*\.\*)
//
// It is matched by hand so that no process pays for compiling a regexp at
// start. Each run (flags, digits, length modifiers) is taken whole: no two
// runs share a byte but 0, and a 0 taken as a flag could as well have been a
// digit of a width, which may be empty.
func numericConversion(format string) bool {
	for i := strings.IndexByte(format, '%'); i >= 0; {
		s := strings.TrimLeft(format[i+1:], "-+ #0'I")
		if strings.HasPrefix(s, "*") {
			return true
		}
		s = s[digits(s):]
		if rest, ok := strings.CutPrefix(s, "."); ok {
			if strings.HasPrefix(rest, "*") {
				return true
			}
			s = rest[digits(rest):]
		}
		s = strings.TrimLeft(s, "hlLqjzt")
		if s != "" && strings.IndexByte("diouxXeEfFgGaA", s[0]) >= 0 {
			return true
		}
		j := strings.IndexByte(format[i+1:], '%')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// digits returns the number of ASCII digits s starts with.
func digits(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// numeric reports whether s is a plain number, which no shell evaluates
// into anything else.
func numeric(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	dot := false
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return true
}

// zshStackEntry reports whether a cd operand names an entry of zsh's
// directory stack.
func zshStackEntry(s string) bool {
	return len(s) > 1 && s[0] == '+' && strings.Trim(s[1:], "0123456789") == ""
}
