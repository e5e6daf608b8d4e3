// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"guard/policy"
	"guard/shellparse"
)

// awkProgram reads an awk program and reports what in it does more than
// read its input and print to standard output, with the verdict that
// deserves: a pipe or system() runs a command (deny); output redirected
// from print or printf writes a file, getline < reads one the program
// names, ENVIRON reads the environment and ARGV, ARGC and PROCINFO change
// which files awk reads and how (ask). It reads the program as the widest
// of gawk, mawk and the one true awk: a statement goes on across a line
// break wherever any of them reads on. It refuses what they could read
// differently: a gawk directive (@include, @load), a namespace, a /
// inside a bracket expression of a regex literal, a line break inside a
// string or regex, a number run into an x or a p. Where a / could start a regex literal or
// be a division, by awk or by a context guard does not follow, guard
// reads the program both ways and judges each reading.
func awkProgram(prog string) (policy.Verdict, error) {
	readings, err := awkLex(prog)
	if err != nil {
		return policy.Ask, err
	}
	verdict, why := policy.Allow, error(nil)
	for _, toks := range readings {
		if v, err := awkTokens(prog, toks); v == policy.Deny {
			return v, err
		} else if v != policy.Allow && verdict == policy.Allow {
			verdict, why = v, err
		}
	}
	return verdict, why
}

// awkTokens judges one reading of an awk program.
func awkTokens(prog string, toks []awkToken) (policy.Verdict, error) {
	for i, t := range toks {
		switch {
		case t.kind == awkName && awkRuns[t.text]:
			return policy.Deny, fmt.Errorf("awk program %s: %s runs a command", quoteScript(prog), t.text)
		case t.kind == awkName && awkWide[t.text] != "":
			return policy.Ask, fmt.Errorf("awk program %s: %s %s", quoteScript(prog), t.text, awkWide[t.text])
		case t.kind == awkOp && (t.text == "|" || t.text == "|&"):
			return policy.Deny, fmt.Errorf("awk program %s: a pipe (%s) runs a command", quoteScript(prog), t.text)
		case t.kind == awkName && (t.text == "print" || t.text == "printf"):
			if redirect := printRedirect(toks[i+1:]); redirect != "" {
				return policy.Ask, fmt.Errorf("awk program %s: %s %s writes to a file", quoteScript(prog), t.text, redirect)
			}
		case t.kind == awkName && t.text == "getline":
			if getlineFile(toks[i+1:]) {
				return policy.Ask, fmt.Errorf("awk program %s: getline < reads a file the program names", quoteScript(prog))
			}
		}
	}
	return policy.Allow, nil
}

// awkRuns are the names that run commands.
var awkRuns = map[string]bool{"system": true, "extension": true}

// awkWide are the names that reach beyond the program's input, with what
// they do.
var awkWide = map[string]string{
	"ENVIRON":  "reads the environment, secrets too",
	"ARGV":     "can change which files awk reads",
	"ARGC":     "can change which files awk reads",
	"PROCINFO": "is gawk's window on the process",
	"SYMTAB":   "reaches every variable by name",
	"FUNCTAB":  "reaches every function by name",
}

// printRedirect returns the redirection of a print or printf statement,
// whose tokens follow: a > or >> outside parentheses and brackets before
// the statement ends ("" when there is none).
func printRedirect(toks []awkToken) string {
	depth := 0
	for i, t := range toks {
		switch {
		case t.kind == awkNewline && depth <= 0 && !awkGoesOn(toks[:i]):
			return ""
		case t.kind == awkNewline:
		case t.kind != awkOp:
		case t.text == "(" || t.text == "[":
			depth++
		case t.text == ")" || t.text == "]":
			depth--
		case depth <= 0 && (t.text == ";" || t.text == "}"):
			return ""
		case depth <= 0 && (t.text == ">" || t.text == ">>"):
			return t.text
		}
	}
	return ""
}

// awkGoesOn reports whether a line break after toks may go on with the
// statement, in some awk: where the last token, past other line breaks
// and comments, cannot end an expression. gawk reads on after a comma,
// &&, ||, ? and :, mawk and the one true awk after a comma, && and ||,
// all of them over blank lines and comments; after any other operator
// every awk that does not read on refuses the program, so reading on
// costs no program that runs. After a name, a number, a string, a regex
// literal, ), ], ++ and --, every awk ends the statement.
func awkGoesOn(toks []awkToken) bool {
	for i := len(toks) - 1; i >= 0; i-- {
		switch t := toks[i]; t.kind {
		case awkNewline:
		case awkName:
			return awkNoEnd[t.text]
		case awkOp:
			return !slices.Contains([]string{")", "]", "++", "--", ";", "}"}, t.text)
		default:
			return false
		}
	}
	return false
}

// awkNoEnd are the names an expression or statement cannot end with.
var awkNoEnd = map[string]bool{
	"do": true, "else": true, "in": true, "if": true, "while": true, "for": true, "switch": true, "case": true,
	"default": true, "function": true, "func": true, "delete": true,
}

// getlineFile reports whether getline, whose tokens follow, reads from a
// file: getline [var] < file, where var is a name with subscripts
// (gawk's x[1][2] too). After $ or ( guard does not follow the variable,
// and takes it for a read: mawk reads getline ($0) < file.
func getlineFile(toks []awkToken) bool {
	if len(toks) > 0 && toks[0].kind == awkOp && (toks[0].text == "$" || toks[0].text == "(") {
		return true
	}
	i := 0
	if i < len(toks) && toks[i].kind == awkName {
		i++
		for i < len(toks) && toks[i].kind == awkOp && toks[i].text == "[" {
			for depth := 0; i < len(toks); {
				t := toks[i]
				i++
				if t.kind == awkOp && t.text == "[" {
					depth++
				} else if t.kind == awkOp && t.text == "]" {
					if depth--; depth == 0 {
						break
					}
				}
			}
		}
	}
	return i < len(toks) && toks[i].kind == awkOp && toks[i].text == "<"
}

type awkKind int

const (
	awkName awkKind = iota
	awkNumber
	awkString
	awkRegex
	awkOp
	awkNewline
)

type awkToken struct {
	kind awkKind
	text string
}

// awkOps are the operators, longest first.
var awkOps = []string{
	"**=", "&&", "||", "|&", ">>", "<=", ">=", "==", "!=", "!~", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "**",
	"|", ">", "<", "=", "!", "~", "+", "-", "*", "/", "%", "^", "?", ":", ",", ";", "{", "}", "(", ")", "[", "]", "$",
}

// awkNameLen returns the length of the name at the start of s, or 0: the
// match of ^[A-Za-z_][A-Za-z0-9_]*. These matchers are written out rather
// than regexps compiled when the package starts, which every hook paid for;
// TestAwkMatchers checks them against the regexps.
func awkNameLen(s string) int {
	if s == "" || !awkNameStart(s[0]) {
		return 0
	}
	i := 1
	for i < len(s) && (awkNameStart(s[i]) || s[i] >= '0' && s[i] <= '9') {
		i++
	}
	return i
}

func awkNameStart(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'
}

// awkNumberLen returns the length of the decimal number at the start of s, or
// 0: the match of ^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?, as
// every awk reads one: a name right after it is a name of its own
// (1system("id") calls system), but for an x or a p, which gawk reads into
// the number (0x1F, 12xsystem("id") is 12x and a call to system) and the
// others into the name.
func awkNumberLen(s string) int {
	i := awkDigits(s, 0)
	switch {
	case i > 0:
		if i < len(s) && s[i] == '.' {
			i = awkDigits(s, i+1)
		}
	case len(s) > 1 && s[0] == '.' && awkDigits(s, 1) > 1:
		i = awkDigits(s, 1)
	default:
		return 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if k := awkDigits(s, j); k > j {
			i = k
		}
	}
	return i
}

// awkDigits returns the end of the run of decimal digits from s[i].
func awkDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// awkKeywords may be followed by a regex literal; the other names are
// operands, which a / after divides.
var awkKeywords = map[string]bool{
	"print": true, "printf": true, "return": true, "in": true, "do": true, "else": true, "case": true,
	"if": true, "while": true, "for": true,
}

// awkReserved are the other keywords and the built-in functions: after
// them awks differ on what a / starts. After exit every awk reads a regex
// literal (exit /#/ is exit with a match), after getline they read a
// division, after length mawk reads a regex literal and gawk a division.
var awkReserved = map[string]bool{
	"BEGIN": true, "END": true, "BEGINFILE": true, "ENDFILE": true, "break": true, "continue": true,
	"default": true, "delete": true, "exit": true, "func": true, "function": true, "getline": true,
	"next": true, "nextfile": true, "switch": true,
	"and": true, "asort": true, "asorti": true, "atan2": true, "bindtextdomain": true, "close": true,
	"compl": true, "cos": true, "dcgettext": true, "dcngettext": true, "exp": true, "fflush": true,
	"gensub": true, "gsub": true, "index": true, "int": true, "isarray": true, "length": true,
	"log": true, "lshift": true, "match": true, "mktime": true, "or": true, "patsplit": true,
	"rand": true, "rshift": true, "sin": true, "split": true, "sprintf": true, "sqrt": true,
	"srand": true, "strftime": true, "strtonum": true, "sub": true, "substr": true, "system": true,
	"systime": true, "tolower": true, "toupper": true, "typeof": true, "xor": true,
}

// awkSlash says what a / read after some token starts.
type awkSlash int

const (
	slashRegex    awkSlash = iota // a regex literal, in every awk
	slashDivision                 // a division, in every awk
	slashEither                   // either, by awk or by a context guard does not follow
)

// awkMaxReadings bounds the readings of a program with slashes that could
// start a regex literal or divide.
const awkMaxReadings = 32

// awkReading is one way of reading a program: the tokens so far, and the
// text left.
type awkReading struct {
	i    int
	toks []awkToken
}

// awkLex splits an awk program into tokens, every way an awk could: where
// a / could start a regex literal or be a division (after the ) of an if,
// while or for condition every awk but mawk reads a regex literal, after
// $ mawk and gawk do, after ++ and -- mawk does), guard reads the program
// both ways and returns each reading, so that what one awk takes for a
// regex and another for code is checked as code. A regex reading whose
// literal does not end on its line is one no awk can run, and is dropped.
func awkLex(prog string) ([][]awkToken, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("awk program %s: "+format, append([]any{quoteScript(prog)}, a...)...)
	}
	todo := []awkReading{{}}
	var done [][]awkToken
	for len(todo) > 0 {
		rd := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		toks, forks, err := awkLexFrom(prog, rd, bad)
		if err != nil {
			return nil, err
		}
		if len(done)+len(todo)+len(forks) > awkMaxReadings {
			return nil, bad("it has too many slashes that awks could read as a division or as a regex literal")
		}
		todo = append(todo, forks...)
		if forks == nil {
			done = append(done, toks)
		}
	}
	return done, nil
}

// awkLexFrom reads on from a reading to the end of the program, and
// returns its tokens. At a / that could start a regex literal or divide,
// it stops and returns instead the readings that go on from there: one
// with a division, and one with the regex literal if that can end.
func awkLexFrom(prog string, rd awkReading, bad func(string, ...any) error) (toks []awkToken, forks []awkReading, err error) {
	toks = slices.Clone(rd.toks)
	// slash says what a / here starts, by the token before it.
	slash := func() awkSlash {
		if len(toks) == 0 {
			return slashRegex
		}
		t := toks[len(toks)-1]
		switch t.kind {
		case awkNumber, awkString, awkRegex:
			return slashDivision
		case awkName:
			switch {
			case awkKeywords[t.text]:
				return slashRegex
			case awkReserved[t.text]:
				return slashEither
			}
			return slashDivision
		case awkOp:
			switch t.text {
			case "]":
				return slashDivision
			case ")", "$", "++", "--":
				return slashEither
			}
			return slashRegex
		}
		return slashRegex // after a newline
	}
	regex := func(i int) (int, error) {
		j, err := awkRegexEnd(prog, i+1)
		if err != nil {
			return 0, bad("%v", err)
		}
		toks = append(toks, awkToken{awkRegex, prog[i:j]})
		return j, nil
	}
	for i := rd.i; i < len(prog); {
		c := prog[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '\\' && i+1 < len(prog) && prog[i+1] == '\n':
			i += 2 // a line continued
		case c == '\n':
			toks = append(toks, awkToken{awkNewline, "\n"})
			i++
		case c == '#':
			for i < len(prog) && prog[i] != '\n' {
				i++
			}
		case c == '"':
			j := i + 1
			for ; j < len(prog) && prog[j] != '"'; j++ {
				if prog[j] == '\n' {
					return nil, nil, bad("a string holds a line break")
				}
				if prog[j] == '\\' {
					if j++; j < len(prog) && prog[j] == '\n' {
						return nil, nil, bad("a string is continued on the next line")
					}
				}
			}
			if j >= len(prog) {
				return nil, nil, bad("a string is not ended")
			}
			toks = append(toks, awkToken{awkString, prog[i : j+1]})
			i = j + 1
		case c == '/' && slash() == slashRegex:
			if i, err = regex(i); err != nil {
				return nil, nil, err
			}
		case c == '/' && slash() == slashEither:
			div := awkToken{awkOp, "/"}
			if strings.HasPrefix(prog[i+1:], "=") {
				div.text = "/="
			}
			forks = []awkReading{{i + len(div.text), append(slices.Clone(toks), div)}}
			if j, err := awkRegexEnd(prog, i+1); err == nil {
				forks = append(forks, awkReading{j, append(toks, awkToken{awkRegex, prog[i:j]})})
			} else if !errors.Is(err, errAwkRegexUnended) {
				return nil, nil, bad("%v", err)
			}
			return nil, forks, nil
		case c == '@':
			return nil, nil, bad("it has a gawk directive (@)")
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(prog) && prog[i+1] >= '0' && prog[i+1] <= '9':
			m := prog[i : i+awkNumberLen(prog[i:])]
			if j := i + len(m); j < len(prog) && strings.IndexByte("xXpP", prog[j]) >= 0 {
				return nil, nil, bad("gawk reads the x or p after %s into the number, other awks into a name", m)
			}
			toks = append(toks, awkToken{awkNumber, m})
			i += len(m)
		case awkNameLen(prog[i:]) > 0:
			m := prog[i : i+awkNameLen(prog[i:])]
			if strings.HasPrefix(prog[i+len(m):], "::") {
				return nil, nil, bad("it names a gawk namespace (%s::)", m)
			}
			toks = append(toks, awkToken{awkName, m})
			i += len(m)
		default:
			op := ""
			for _, o := range awkOps {
				if strings.HasPrefix(prog[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				return nil, nil, bad("%q is not awk guard can read", c)
			}
			toks = append(toks, awkToken{awkOp, op})
			i += len(op)
		}
	}
	return toks, nil, nil
}

// errAwkRegexUnended is a regex literal that does not end on its line,
// which every awk refuses.
var errAwkRegexUnended = errors.New("a regex literal is not ended on its line")

// awkRegexEnd returns the index after the / that ends a regex literal
// whose text starts at i. A line break ends none; a / inside a bracket
// expression is refused, since awks differ on whether it ends the
// literal, and so is a \ before the ] or / of one (gawk and mawk read
// [\]/] as one bracket expression holding ] and /, the one true awk
// not). A bracket expression's classes ([:alpha:], [.a.], [=a=]) are
// read whole: their ] does not end it.
func awkRegexEnd(prog string, i int) (int, error) {
	for ; i < len(prog); i++ {
		switch prog[i] {
		case '\n':
			return 0, errAwkRegexUnended
		case '\\':
			if i++; i < len(prog) && prog[i] == '\n' {
				return 0, fmt.Errorf("a regex literal is continued on the next line")
			}
		case '/':
			return i + 1, nil
		case '[':
			j, err := awkBracketEnd(prog, i+1)
			if err != nil {
				return 0, err
			}
			i = j
		}
	}
	return 0, errAwkRegexUnended
}

// awkBracketEnd returns the index of the ] that ends a bracket expression
// whose text starts at i, after its [.
func awkBracketEnd(prog string, i int) (int, error) {
	j := i
	if j < len(prog) && prog[j] == '^' {
		j++
	}
	if j < len(prog) && prog[j] == ']' {
		j++
	}
	for ; j < len(prog); j++ {
		switch prog[j] {
		case ']':
			return j, nil
		case '/':
			return 0, fmt.Errorf("a regex literal has a / inside a bracket expression, which awks read differently")
		case '\n':
			return 0, fmt.Errorf("a regex literal holds a line break")
		case '\\':
			if j+1 < len(prog) && strings.IndexByte("]/\n", prog[j+1]) >= 0 {
				return 0, fmt.Errorf("a bracket expression of a regex literal has a \\ before %q, which awks read differently", prog[j+1])
			}
			j++
		case '[':
			if j+1 < len(prog) && strings.IndexByte(":.=", prog[j+1]) >= 0 {
				end := strings.Index(prog[j+2:], string(prog[j+1])+"]")
				if end < 0 || strings.ContainsAny(prog[j+2:j+2+end], "/\n") {
					return 0, fmt.Errorf("a bracket expression of a regex literal has a class that is not ended")
				}
				j += 2 + end + 1
			}
		}
	}
	return 0, fmt.Errorf("a bracket expression of a regex literal is not ended")
}

// awk judges an awk call's program, its first operand, and the files it
// reads: its other operands, but for the assignments (NAME=value) awk
// makes of them. It returns no operands for the rule's own path checks.
func (m *matcher) awk(n *policy.Rule, present map[string]bool, operands []shellparse.Word, r *result) []shellparse.Word {
	if present["-f"] || present["--file"] {
		r.add(policy.Ask, n.ID(), fmt.Sprintf("%s -f: guard cannot check a program in a file", n.ID()), "give the program on the command line")
		return nil
	}
	if len(operands) == 0 {
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s without a program", n.ID()), "give the program in single quotes before the files: awk '{print $1}' FILE")
		return nil
	}
	o := operands[0]
	if !o.Constant() {
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: the program %s is not known until run time, or is a glob the shell may expand", n.ID(), o.Source), "quote the program")
		return nil
	}
	if v, err := awkProgram(o.Value); err != nil {
		r.add(v, n.ID(), fmt.Sprintf("%s: %v", n.ID(), err), "print to standard output; use cut, grep or jq where awk would reach further")
	} else if m.d.tr != nil {
		m.d.tr.note(policy.Allow, n.ID(), fmt.Sprintf("%s: the program only reads its input and prints to standard output", n.ID()))
	}
	for _, f := range operands[1:] {
		if f.Constant() && awkIsAssign(f.Value) || f.Constant() && f.Value == "-" {
			continue
		}
		if f.Constant() && gawkNetwork(f.Value) {
			r.add(policy.Ask, n.ID(), fmt.Sprintf("%s: gawk reads %s from a network connection to the host it names", n.ID(), f.Source), "read files; ask the user to reach the network")
			continue
		}
		m.operandPath(n, f, readAccess, r)
	}
	return nil
}

// gawkNetwork reports whether gawk opens a file operand of this name as a
// network connection: /inet/tcp/LPORT/HOST/RPORT and the like, by the
// name as written.
func gawkNetwork(name string) bool {
	for _, p := range []string{"/inet/", "/inet4/", "/inet6/"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// awkIsAssign reports whether awk takes an operand for an assignment, not a
// file: it matches ^[A-Za-z_][A-Za-z0-9_]*=.
func awkIsAssign(operand string) bool {
	n := awkNameLen(operand)
	return n > 0 && n < len(operand) && operand[n] == '='
}
