// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"strings"
	"testing"
)

type keyPosCase struct {
	src       string
	key       []string
	line, col int
}

// The cases marked "old:" got another line from keyLine, the text search
// that keyIndex replaced.
var keyPosCases = []keyPosCase{
	// Keys and [tables].
	{"a = 1\nb = 2\n", []string{"b"}, 2, 1},
	{"[a]\nb = 1\n", []string{"a", "b"}, 2, 1},
	{"[a]\nb = 1\n", []string{"a"}, 1, 2},
	{"[ a . b ]\nc = 1\n", []string{"a", "b", "c"}, 2, 1},
	{"[a]\n  b\t= 1\n", []string{"a", "b"}, 2, 3},
	{"a = 1\r\nb = 2\r\n", []string{"b"}, 2, 1},
	{"\ufeffa = 1\nb = 2\n", []string{"a"}, 1, 1}, // old: 0; columns count after a byte-order mark, as the decoder's do

	// Dotted keys: the longer key implies the shorter.
	{"a.b.c = 1\n", []string{"a", "b", "c"}, 1, 5},
	{"a.b.c = 1\n", []string{"a", "b"}, 1, 3},
	{"[a]\nb . c = 1\n", []string{"a", "b", "c"}, 2, 5},
	{"[command]\nls.verdict = 1\ncat.verdict = 2\n", []string{"command", "cat", "verdict"}, 3, 5},
	{"x = 1\n[command]\nls.verdict = 1\n[command.cat]\nverdict = 2\n", []string{"command", "ls", "verdict"}, 3, 4},

	// Quoted keys: basic strings with escapes, literal strings, dots inside.
	{"[command.\"mkfs.*\"]\nverdict = 1\n", []string{"command", "mkfs.*", "verdict"}, 2, 1},
	{"[command.\"mkfs.*\"]\nverdict = 1\n", []string{"command", "mkfs.*"}, 1, 10},
	{"[command.'a b']\nx = 1\n", []string{"command", "a b", "x"}, 2, 1},
	{"a.\"b.c\".d = 1\n", []string{"a", "b.c", "d"}, 1, 9},
	{"[a]\n\"b.c\" = 1\nc = 2\n", []string{"a", "c"}, 3, 1},
	{"\"a\\\"b\" = 1\n", []string{"a\"b"}, 1, 1},         // old: 0
	{"\"\\u00e9t\\u00e9\" = 1\n", []string{"été"}, 1, 1}, // old: 0
	{"'a\\b' = 1\n", []string{`a\b`}, 1, 1},
	{"\"\" = 1\n", []string{""}, 1, 1},

	// Inline tables, also across lines (TOML 1.1), and arrays of them.
	{"a = { b = 1, c = { d = 2 } }\n", []string{"a", "c", "d"}, 1, 20},
	{"options = { \"--color\" = [\"a\"], \"-n\" = \"int\" }\n", []string{"options", "-n"}, 1, 32},
	{"a = {\n  b = 1, # a comment\n  c = 2,\n}\n", []string{"a", "c"}, 3, 3},
	{"deny = [{ flags = [\"-f\"], reason = \"r\" }]\n", []string{"deny", "reason"}, 1, 27},
	{"deny = [\n  { flags = [\"-f\"] },\n  { reason = \"r\" },\n]\nreason = 1\n", []string{"deny", "reason"}, 3, 5},
	{"command = { ls = { verdict = \"allow\", bogus = 1 } }\n", []string{"command", "ls", "bogus"}, 1, 39},

	// [[arrays.of.tables]]: the first sets the path.
	{"[[env.deny]]\nnames = []\n[[env.deny]]\nreason = \"r\"\n", []string{"env", "deny", "reason"}, 4, 1},
	{"[[env.deny]]\nnames = []\n[[env.deny]]\n", []string{"env", "deny"}, 1, 7},
	{"[[command.git.deny]]\nflags = []\n", []string{"command", "git", "deny", "flags"}, 2, 1},

	// A later table, and one re-opened: the table that sets a path comes
	// before one that only implies it.
	{"[command.git.sub.log]\nverdict = 1\n[command.log]\nverdict = 2\n", []string{"command", "log", "verdict"}, 4, 1}, // old: 2
	{"[command.git.sub.log]\nverdict = 1\n[command.log]\nverdict = 2\n", []string{"command", "log"}, 3, 10},           // old: 1
	{"[command.git.sub.log]\nverdict = 1\n[command.git]\nflags = []\n", []string{"command", "git"}, 3, 10},            // old: 1
	{"[command.git.sub.log]\nverdict = 1\n[command.git]\nverdict = 2\n", []string{"command", "git", "verdict"}, 4, 1}, // old: 2
	{"[command.ls]\nx = 1\n[command.cat]\nverdict = 1\n[command.ls.sub.a]\nverdict = 2\n", []string{"command", "ls", "sub", "a", "verdict"}, 6, 1},

	// Keys in strings and comments are not keys.
	{"# verdict = 1\nverdict = 2\n", []string{"verdict"}, 2, 1},
	{"x = [\"a\", \"b.verdict = 2\"]\nverdict = 3\n", []string{"verdict"}, 2, 1},           // old: 1
	{"x = \"\"\"\nverdict = 1\n\"\"\"\nverdict = 2\n", []string{"verdict"}, 4, 1},          // old: 2
	{"x = '''\n[command.ls]\n'''\n[command.ls]\n", []string{"command", "ls"}, 4, 10},       // old: 2
	{"x = \"\"\"a\\\"\"\"\nverdict = 1\"\"\"\"\nverdict = 2\n", []string{"verdict"}, 3, 1}, // old: 2
	{"[command.ls] # verdict = 1\nreason = \"verdict = 2\"\nverdict = 3\n", []string{"command", "ls", "verdict"}, 3, 1},

	// A key the source does not write: its rule's line, if the rule is
	// written (a field that comes through like), else none.
	{"[command.ls]\nverdict = 1\n[command.cat]\nflags = []\n", []string{"command", "ls", "flags"}, 1, 10}, // old: 4
	{"[command.make]\nverdict = 1\n", []string{"command", "make", "sub", "x", "verdict"}, 1, 10},          // old: 0
	{"[command.make]\nverdict = 1\n", []string{"command", "git"}, 0, 0},
	{"version = 1\n", []string{"default"}, 0, 0},
	{"", []string{"version"}, 0, 0},
}

func init() {
	seen := map[string]bool{}
	for _, tc := range keyPosCases {
		k := tc.src + "\x01" + strings.Join(tc.key, "\x00")
		if seen[k] {
			panic("duplicate key position case: " + k)
		}
		seen[k] = true
	}
}

func TestKeyPos(t *testing.T) {
	for _, tc := range keyPosCases {
		line, col := indexKeys([]byte(tc.src)).pos(tc.key)
		if line != tc.line || col != tc.col {
			t.Logf("input: %q", tc.src)
			t.Errorf("pos(%q) = %d:%d, want %d:%d", tc.key, line, col, tc.line, tc.col)
		}
	}
}

// FuzzKeyPos checks that indexing never panics, and that a position it gives
// is inside the source.
func FuzzKeyPos(f *testing.F) {
	for _, tc := range keyPosCases {
		f.Add(tc.src, strings.Join(tc.key, "."))
	}
	f.Fuzz(func(t *testing.T, src, key string) {
		line, col := indexKeys([]byte(src)).pos(strings.Split(key, "."))
		lines := strings.Split(strings.TrimPrefix(src, "\ufeff"), "\n")
		if (line == 0) != (col == 0) || line > len(lines) || line > 0 && (col < 1 || col > len(lines[line-1])) {
			t.Fatalf("pos = %d:%d in %d lines", line, col, len(lines))
		}
	})
}
