// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The lines of errors that are not the TOML decoder's own (an unknown key,
// a bad value for the compiler) come from the source: the decoder keeps the
// positions of keys to itself, so keyIndex reads the source again. It
// follows TOML's structure, not its text: table and array-of-tables
// headers, dotted and quoted keys, inline tables and arrays (across lines,
// as TOML 1.1 allows), and it skips strings, comments and other values, so
// that a key name inside a string or a comment is not taken for the key.
// The source has been decoded first; on a source that is not TOML the
// index may miss keys or place them badly, and it never panics.

// keyIndex is where each key of a TOML source is first written.
type keyIndex struct {
	lines []int // the offset of each line's start
	// Offsets of the key part that names a path (joined by pathSep): where
	// a header or a key sets the path itself, and where a longer key or
	// header first implies it ([a.b] and a.b = 1 imply a).
	set, implied map[string]int
}

const pathSep = "\x00" // joins the parts of a key path: a part may contain dots

// indexKeys indexes the keys of a TOML source.
func indexKeys(src []byte) *keyIndex {
	// Columns count bytes after a byte-order mark, as the decoder's do.
	s := strings.TrimPrefix(string(src), "\ufeff")
	ix := &keyIndex{lines: lineStarts(s), set: map[string]int{}, implied: map[string]int{}}
	sc := &keyScanner{s: s, ix: ix}
	sc.document()
	return ix
}

// lineStarts returns the offset of each line's start.
func lineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// pos returns the line and column (1-based, in bytes) where the source
// first writes a key: a header or key that sets it, else the first longer
// key that implies it. A key the source does not write (a field a rule gets
// through like) is placed at the nearest table that holds it and is more
// than a top-level name, such as its rule; else pos returns 0, 0.
func (ix *keyIndex) pos(key []string) (line, col int) {
	for n := len(key); n > 0; n-- {
		if n < len(key) && n < 2 {
			break // [command] is no place for a rule the file does not have
		}
		path := strings.Join(key[:n], pathSep)
		off, ok := ix.set[path]
		if !ok {
			off, ok = ix.implied[path]
		}
		if ok {
			l := sort.Search(len(ix.lines), func(i int) bool { return ix.lines[i] > off })
			return l, off - ix.lines[l-1] + 1
		}
	}
	return 0, 0
}

// keyScanner walks a TOML source and records its keys in an index.
type keyScanner struct {
	s  string
	i  int // the offset of the next byte to read
	ix *keyIndex
}

func (sc *keyScanner) at(c byte) bool { return sc.i < len(sc.s) && sc.s[sc.i] == c }

func (sc *keyScanner) document() {
	var table []string
	for {
		sc.space(true)
		if sc.i >= len(sc.s) {
			return
		}
		if sc.at('[') {
			sc.i++
			if sc.at('[') { // [[array.of.tables]]
				sc.i++
			}
			parts, offs := sc.key()
			sc.record(nil, parts, offs)
			table = parts
		} else {
			sc.keyValue(table)
		}
		sc.skipLine()
	}
}

// record notes that base followed by parts is written, each part at its offset.
func (sc *keyScanner) record(base, parts []string, offs []int) {
	for j := range parts {
		path := strings.Join(append(base[:len(base):len(base)], parts[:j+1]...), pathSep)
		m := sc.ix.implied
		if j == len(parts)-1 {
			m = sc.ix.set
		}
		if _, ok := m[path]; !ok {
			m[path] = offs[j]
		}
	}
}

// keyValue reads key = value in the table base.
func (sc *keyScanner) keyValue(base []string) {
	parts, offs := sc.key()
	if len(parts) == 0 {
		return
	}
	sc.record(base, parts, offs)
	sc.space(false)
	if !sc.at('=') {
		return
	}
	sc.i++
	sc.space(false)
	sc.value(append(base[:len(base):len(base)], parts...))
}

// key reads a dotted key: a.b, "a.b".c, 'a' . b.
func (sc *keyScanner) key() (parts []string, offs []int) {
	for {
		sc.space(false)
		off := sc.i
		part, ok := sc.keyPart()
		if !ok {
			return parts, offs
		}
		parts, offs = append(parts, part), append(offs, off)
		sc.space(false)
		if !sc.at('.') {
			return parts, offs
		}
		sc.i++
	}
}

func (sc *keyScanner) keyPart() (string, bool) {
	start := sc.i
	switch {
	case sc.at('"'), sc.at('\''):
		q := sc.s[sc.i]
		sc.i++
		for sc.i < len(sc.s) && sc.s[sc.i] != q && sc.s[sc.i] != '\n' {
			if q == '"' && sc.s[sc.i] == '\\' {
				sc.i++
			}
			sc.i++
		}
		if !sc.at(q) {
			return "", false
		}
		sc.i++
		raw := sc.s[start+1 : sc.i-1]
		if q == '"' {
			return unescape(raw), true
		}
		return raw, true
	}
	for sc.i < len(sc.s) && !strings.ContainsRune(" \t\r\n.=[]{},#\"'", rune(sc.s[sc.i])) {
		sc.i++
	}
	return sc.s[start:sc.i], sc.i > start
}

// value skips a value, recording the keys of the inline tables in it
// under path; the elements of an array have the array's path, as in the
// decoder's keys.
func (sc *keyScanner) value(path []string) {
	if sc.i >= len(sc.s) {
		return
	}
	switch c := sc.s[sc.i]; c {
	case '{', '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		sc.i++
		for {
			sc.space(true)
			if sc.i >= len(sc.s) {
				return
			}
			if sc.at(end) {
				sc.i++
				return
			}
			if sc.at(',') {
				sc.i++
				continue
			}
			before := sc.i
			if c == '{' {
				sc.keyValue(path)
			} else {
				sc.value(path)
			}
			if sc.i == before {
				sc.i++ // not TOML: step over it
			}
		}
	case '"', '\'':
		sc.str(c)
	default: // a number, boolean or date
		for sc.i < len(sc.s) && !strings.ContainsRune(",]}#\n", rune(sc.s[sc.i])) {
			sc.i++
		}
	}
}

// str skips a string that starts with the quote q: basic or literal, on
// one line or multi-line.
func (sc *keyScanner) str(q byte) {
	triple := strings.Repeat(string(q), 3)
	if strings.HasPrefix(sc.s[sc.i:], triple) {
		sc.i += 3
		for sc.i < len(sc.s) {
			if q == '"' && sc.s[sc.i] == '\\' {
				sc.i += 2
				continue
			}
			if strings.HasPrefix(sc.s[sc.i:], triple) {
				sc.i += 3
				for k := 0; k < 2 && sc.at(q); k++ { // """a""""" ends in quotes
					sc.i++
				}
				return
			}
			sc.i++
		}
		sc.i = len(sc.s)
		return
	}
	sc.i++
	for sc.i < len(sc.s) && sc.s[sc.i] != '\n' {
		c := sc.s[sc.i]
		sc.i++
		if c == q {
			return
		}
		if q == '"' && c == '\\' && sc.i < len(sc.s) && sc.s[sc.i] != '\n' {
			sc.i++
		}
	}
}

// space skips blanks; with newlines set, also newlines and comments.
func (sc *keyScanner) space(newlines bool) {
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case ' ', '\t', '\r':
		case '\n':
			if !newlines {
				return
			}
		case '#':
			if !newlines {
				return
			}
			sc.skipLine()
			continue
		default:
			return
		}
		sc.i++
	}
}

// skipLine skips the rest of the line and its newline.
func (sc *keyScanner) skipLine() {
	if n := strings.IndexByte(sc.s[min(sc.i, len(sc.s)):], '\n'); n >= 0 {
		sc.i += n + 1
	} else {
		sc.i = len(sc.s)
	}
}

// unescape decodes the escapes of a TOML basic string; an escape it does
// not know stays as written.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		digits := 0
		switch s[i] {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 'e':
			b.WriteByte('\x1b')
		case '"', '\\':
			b.WriteByte(s[i])
		case 'x':
			digits = 2
		case 'u':
			digits = 4
		case 'U':
			digits = 8
		default:
			b.WriteString(s[i-1 : i+1])
		}
		if digits == 0 {
			continue
		}
		if i+digits < len(s) {
			if r, err := strconv.ParseUint(s[i+1:i+1+digits], 16, 32); err == nil && utf8.ValidRune(rune(r)) {
				b.WriteRune(rune(r))
				i += digits
				continue
			}
		}
		b.WriteString(s[i-1 : i+1])
	}
	return b.String()
}
