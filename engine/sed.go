// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"strings"

	"guard/policy"
	"guard/shellparse"
)

// sedProgram reads a sed script as GNU sed 4.9 compiles it (compile.c:
// compile_program, compile_address, match_slash, snarf_char_class,
// mark_subst_opts, read_text, read_label, read_filename) and reports the
// first command that does more than read its input and write standard
// output: e (runs a command), r and R (read a file the script names), w
// and W (write one), and the e and w flags of s. A script guard cannot
// read as sed does is refused too; sed compiles the whole script before
// it runs any of it, so a script sed rejects runs nothing.
//
// The script is bytes, as the shell passed them: in a UTF-8 or single-byte
// locale no byte of a multibyte character is an ASCII byte, so the ASCII
// delimiters sed looks for are found at the same places (the engine
// refuses non-ASCII commands in other locales).
func sedProgram(script string) error {
	p := &sedParser{s: script}
	return p.program()
}

type sedParser struct {
	s      string
	i      int
	blocks int
}

const sedEOF = -1

func (p *sedParser) next() int {
	if p.i >= len(p.s) {
		p.i++ // so that back() after EOF stays at EOF
		return sedEOF
	}
	c := p.s[p.i]
	p.i++
	return int(c)
}

func (p *sedParser) back() { p.i-- }

// nonblank skips spaces and tabs, as sed's in_nonblank does, and returns
// the next character.
func (p *sedParser) nonblank() int {
	for {
		c := p.next()
		if c != ' ' && c != '\t' {
			return c
		}
	}
}

func (p *sedParser) errorf(format string, a ...any) error {
	return fmt.Errorf("sed script %s: "+format, append([]any{quoteScript(p.s)}, a...)...)
}

func quoteScript(s string) string {
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return fmt.Sprintf("%q", s)
}

func (p *sedParser) program() error {
	if strings.ContainsRune(p.s, '\r') {
		return p.errorf("it holds a carriage return, which sed reads differently by command")
	}
	for {
		c := p.next()
		for c == ';' || isSedSpace(c) {
			c = p.next()
		}
		if c == sedEOF {
			break
		}
		addressed := false
		if ok, err := p.address(c); err != nil {
			return err
		} else if ok {
			addressed = true
			c = p.nonblank()
			if c == ',' {
				ok, err := p.address(p.nonblank())
				if err != nil {
					return err
				}
				if !ok {
					return p.errorf("an address range has no second address")
				}
				c = p.nonblank()
			}
		}
		if c == '!' {
			if c = p.nonblank(); c == '!' {
				return p.errorf("it has two !")
			}
		}
		if err := p.command(c, addressed); err != nil {
			return err
		}
	}
	if p.blocks != 0 {
		return p.errorf("a { has no }")
	}
	return nil
}

func isSedSpace(c int) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f'
}

func isDigit(c int) bool { return c >= '0' && c <= '9' }

// address reads an address starting with c, if c starts one.
func (p *sedParser) address(c int) (bool, error) {
	switch {
	case c == '/' || c == '\\':
		if c == '\\' {
			c = p.next()
		}
		if err := p.slash(c, true); err != nil {
			return false, err
		}
		for {
			switch f := p.nonblank(); f {
			case 'I', 'M':
			default:
				p.back()
				return true, nil
			}
		}
	case isDigit(c):
		p.integer()
		if p.nonblank() == '~' {
			if !isDigit(p.nonblank()) {
				return false, p.errorf("a step address has no number")
			}
			p.integer()
		} else {
			p.back()
		}
		return true, nil
	case c == '+' || c == '~':
		if !isDigit(p.nonblank()) {
			return false, p.errorf("a step address has no number")
		}
		p.integer()
		return true, nil
	case c == '$':
		return true, nil
	}
	return false, nil
}

// integer reads the digits after the one just read.
func (p *sedParser) integer() {
	for isDigit(p.next()) {
	}
	p.back()
}

// slash reads up to the delimiter, as match_slash does: a backslash
// escapes the next character, a newline (unescaped) ends the script in an
// error, and in a regular expression a bracket expression is read whole,
// the delimiter in it included.
func (p *sedParser) slash(delim int, regex bool) error {
	if delim == sedEOF || delim == '\n' || delim == '\\' || delim >= 0x80 {
		return p.errorf("a regular expression or s command has no delimiter guard can read")
	}
	for {
		c := p.next()
		switch {
		case c == sedEOF || c == '\n':
			return p.errorf("a regular expression or s command is not ended")
		case c == delim:
			return nil
		case c == '\\':
			if p.next() == sedEOF {
				return p.errorf("it ends in a backslash")
			}
		case c == '[' && regex:
			if !p.charClass() {
				return p.errorf("a bracket expression is not ended")
			}
		}
	}
}

// charClass reads a bracket expression after its [, as snarf_char_class
// does, and reports whether it ended with ].
func (p *sedParser) charClass() bool {
	c := p.next()
	if c == '^' {
		c = p.next()
	}
	if c == ']' {
		c = p.next()
	}
	state, delim := 0, 0
	for ; ; c = p.next() {
		switch c {
		case sedEOF, '\n':
			return false
		case '.', ':', '=':
			if state == 1 {
				delim, state = c, 2
				continue
			}
			if state == 2 && c == delim {
				state = 3
				continue
			}
		case '[':
			if state == 0 {
				state = 1
			}
			continue
		case ']':
			if state == 0 || state == 1 {
				return true
			}
			if state == 3 {
				state = 0
			}
		}
		state &^= 1
	}
}

// endOfCommand reads what may follow a command, as read_end_of_cmd does.
func (p *sedParser) endOfCommand() error {
	switch c := p.nonblank(); c {
	case '}', '#':
		p.back()
	case sedEOF, '\n', ';':
	default:
		return p.errorf("%q follows a command", rune(c))
	}
	return nil
}

// label reads a label, as read_label does.
func (p *sedParser) label() string {
	c := p.nonblank()
	start := p.i - 1
	for c != sedEOF && c != '\n' && c != ' ' && c != '\t' && c != ';' && c != '}' && c != '#' {
		c = p.next()
	}
	p.back()
	if start > len(p.s) {
		return ""
	}
	return p.s[start:min(p.i, len(p.s))]
}

// text reads the text of a, i or c, as read_text does: to the first
// newline that no backslash escapes.
func (p *sedParser) text() {
	for {
		c := p.next()
		switch c {
		case sedEOF, '\n':
			return
		case '\\':
			if p.next() == sedEOF {
				return
			}
		}
	}
}

func (p *sedParser) command(c int, addressed bool) error {
	switch c {
	case '#':
		if addressed {
			return p.errorf("a comment has an address")
		}
		for c != sedEOF && c != '\n' {
			c = p.next()
		}
	case 'v':
		p.label()
	case '{':
		p.blocks++
	case '}':
		if p.blocks == 0 {
			return p.errorf("a } has no {")
		}
		p.blocks--
		return p.endOfCommand()
	case 'a', 'i', 'c':
		// GNU's one-line form, a TEXT, reads TEXT to the end of the line;
		// after a\ the next character is the text's first, taken as it is
		// (a backslash too), or a newline before it.
		switch c = p.nonblank(); c {
		case sedEOF:
			return p.errorf("a, i or c has no text")
		case '\\':
			if p.next() == sedEOF {
				return nil // the text goes on in the next -e script
			}
		default:
			p.back()
		}
		p.text()
	case ':':
		if addressed {
			return p.errorf("a label has an address")
		}
		if p.label() == "" {
			return p.errorf("a : has no label")
		}
	case 'T', 'b', 't':
		p.label()
	case 'Q', 'q', 'L', 'l':
		if d := p.nonblank(); isDigit(d) {
			p.integer()
		} else {
			p.back()
		}
		return p.endOfCommand()
	case '=', 'd', 'D', 'F', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'z', 'x':
		return p.endOfCommand()
	case 'e':
		return p.errorf("its e command runs a shell command")
	case 'r', 'R':
		return p.errorf("its %c command reads a file the script names", rune(c))
	case 'w', 'W':
		return p.errorf("its %c command writes a file", rune(c))
	case 's':
		delim := p.next()
		if err := p.slash(delim, true); err != nil {
			return err
		}
		if err := p.slash(delim, false); err != nil {
			return err
		}
		return p.substFlags()
	case 'y':
		delim := p.next()
		if err := p.slash(delim, false); err != nil {
			return err
		}
		if err := p.slash(delim, false); err != nil {
			return err
		}
		return p.endOfCommand()
	case sedEOF:
		return p.errorf("an address has no command")
	default:
		return p.errorf("%q is not a command guard knows", rune(c))
	}
	return nil
}

// substFlags reads the flags of s, as mark_subst_opts does.
func (p *sedParser) substFlags() error {
	for {
		switch c := p.nonblank(); {
		case c == 'i' || c == 'I' || c == 'm' || c == 'M' || c == 'p' || c == 'g':
		case isDigit(c):
			p.integer()
		case c == 'e':
			return p.errorf("its s command's e flag runs the result as a shell command")
		case c == 'w':
			return p.errorf("its s command's w flag writes a file")
		case c == '}' || c == '#':
			p.back()
			return nil
		case c == sedEOF || c == '\n' || c == ';':
			return nil
		default:
			return p.errorf("%q is not a flag of s", rune(c))
		}
	}
}

// sed judges a sed call's program and its files: the -e and --expression
// scripts, joined by newlines as sed joins them, else its first operand;
// the files it reads, or with -i writes (and the backup -iSUFFIX names). It
// returns the operands left for the rule's own path checks: none, since it
// checks them itself.
func (m *matcher) sed(n *policy.Rule, present map[string]bool, values map[string][]string, operands []shellparse.Word, r *result) []shellparse.Word {
	switch {
	case present["-f"] || present["--file"]:
		r.add(policy.Ask, n.ID(), fmt.Sprintf("%s -f: guard cannot check a script in a file", n.ID()), "give the script with -e")
		return nil
	case len(values["-e"]) > 0 && len(values["--expression"]) > 0:
		// sed joins them in the order written, which guard keeps only per
		// option.
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: both -e and --expression give scripts", n.ID()), "give every script with -e")
		return nil
	}
	scripts := append(values["-e"], values["--expression"]...)
	if len(scripts) == 0 {
		if len(operands) == 0 {
			r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s without a script", n.ID()), "give the script in single quotes before the files: sed -n '1,20p' FILE")
			return nil
		}
		o := operands[0]
		operands = operands[1:]
		if !o.Constant() {
			r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: the script %s is not known until run time, or is a glob the shell may expand", n.ID(), o.Source), "quote the script")
			return nil
		}
		scripts = []string{o.Value}
	}
	if err := sedProgram(strings.Join(scripts, "\n")); err != nil {
		v := policy.Ask
		if strings.Contains(err.Error(), "shell command") {
			v = policy.Deny
		}
		r.add(v, n.ID(), fmt.Sprintf("%s: %v", n.ID(), err), "print to standard output, and write files with the edit tools")
	} else if m.d.tr != nil {
		m.d.tr.note(policy.Allow, n.ID(), fmt.Sprintf("%s: the script writes no file, reads no other file and runs nothing", n.ID()))
	}
	acc := readAccess
	inPlace := present["-i"] || present["--in-place"]
	if inPlace {
		acc = writeAccess
		r.notRO = append(r.notRO, n.ID()+" -i") // read-only mode denies it
		r.writes = true
	}
	suffix := ""
	for _, v := range append(values["-i"], values["--in-place"]...) {
		suffix = v
	}
	if strings.ContainsAny(suffix, "/*") {
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: the backup suffix %q names a place of its own for the backups", n.ID(), suffix), "use a plain suffix, -i.bak")
		return nil
	}
	if inPlace && len(operands) == 0 {
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s -i without a file", n.ID()), "name the file to change")
	}
	for _, o := range operands {
		m.operandPath(n, o, acc, r)
		if suffix != "" && o.Constant() {
			backup := o
			backup.Value += suffix
			m.operandPath(n, backup, writeAccess, r)
		}
	}
	return nil
}
