// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import "strings"

// decodeANSIC decodes the body of a $'...' word part as bash 5.2 does, and
// reports false when the result depends on more than the text: an escape
// of a non-ASCII character (\u, \U) is written in the locale's encoding.
//
// bash cuts the part at the first NUL it produces ($'a\0b' is "a"), keeps
// the backslash of an unknown escape ($'\z' is `\z`), takes the low eight
// bits of a three-digit octal escape, and reads \cX as the control
// character of X (\c? is DEL).
func decodeANSIC(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, j := 0, i
			for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
				n = n*8 + int(s[j]-'0')
			}
			b.WriteByte(byte(n))
			i = j - 1
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			n, j := 0, i+1
			for ; j < len(s) && j < i+1+max && isHex(s[j]); j++ {
				n = n*16 + hexValue(s[j])
			}
			switch {
			case j == i+1: // no digits: the escape stays as it is
				b.WriteByte('\\')
				b.WriteByte(e)
			case e == 'x':
				b.WriteByte(byte(n))
			case n >= 0x80:
				return "", false
			default:
				b.WriteByte(byte(n))
			}
			if j > i+1 {
				i = j - 1
			}
		case 'c':
			if i+1 >= len(s) {
				b.WriteString(`\c`) // \c at the end stays as it is
				continue
			}
			i++
			x := s[i]
			if x == '\\' && i+1 < len(s) && s[i+1] == '\\' {
				i++ // \c\\ is the control character of a backslash
			}
			if x == '?' {
				b.WriteByte(0x7f)
			} else {
				b.WriteByte(toUpper(x) & 0x1f)
			}
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	out := b.String()
	if i := strings.IndexByte(out, 0); i >= 0 {
		out = out[:i]
	}
	return out, true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexValue(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}

func toUpper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}
