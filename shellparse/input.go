// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"unicode/utf8"
)

// checkInput rejects source that is too large or holds characters that the
// parser and the shell would read differently, or that make a prompt lie
// about what will run.
func checkInput(src string, lim Limits) *Error {
	if len(src) > lim.MaxBytes {
		return errorf(Pos{}, "command is %d bytes, over the limit of %d bytes", len(src), lim.MaxBytes)
	}
	line, col := 1, 1
	for i := 0; i < len(src); {
		if b := src[i]; b >= 0x20 && b < 0x7f {
			i, col = i+1, col+1 // printable ASCII, the common case
			continue
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		if r == utf8.RuneError && size <= 1 {
			return errorf(Pos{line, col}, "invalid UTF-8 byte 0x%02x", src[i])
		}
		if name := forbiddenRune(r); name != "" {
			return errorf(Pos{line, col}, "%s (U+%04X) is not allowed in a command", name, r)
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col += size
		}
		i += size
	}
	if d := bracketDepth(src); d > 4*lim.MaxDepth {
		return errorf(Pos{}, "brackets nest %d deep, over the limit of %d", d, 4*lim.MaxDepth)
	}
	return nil
}

// forbiddenRune names r if a command may not contain it, or returns "".
func forbiddenRune(r rune) string {
	switch {
	case r == '\t' || r == '\n':
		return ""
	case r == 0:
		return "NUL byte"
	case r == '\r':
		return "carriage return"
	case r < 0x20 || r == 0x7f:
		return "control character"
	case r >= 0x80 && r <= 0x9f:
		return "C1 control character"
	case r == 0x00ad, r == 0x034f, r == 0x061c, r == 0x115f, r == 0x1160, r == 0x17b4, r == 0x17b5,
		r == 0x180e, r >= 0x200b && r <= 0x200f, r >= 0x2060 && r <= 0x2064, r == 0x3164,
		r == 0xfeff, r == 0xffa0, r >= 0xfff0 && r <= 0xfffb:
		return "invisible character"
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return "bidirectional control character"
	case r == 0x2028 || r == 0x2029:
		return "line separator"
	case r >= 0xe0000 && r <= 0xe007f:
		return "tag character"
	}
	return ""
}

// bracketDepth is a cheap upper bound on how deep the parser will recurse:
// the greatest nesting of parentheses and braces, quotes ignored. It keeps
// pathological input away from the recursive parser, whose stack overflow
// cannot be recovered.
func bracketDepth(src string) int {
	depth, max := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{':
			depth++
			if depth > max {
				max = depth
			}
		case ')', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return max
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}
