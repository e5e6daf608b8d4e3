// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"strings"
	"testing"
)

// continuationTests: source with backslash-newlines, whether zsh may run
// it too, and either the script as bash reads it (checked against bash 5.2
// and zsh 5.9 in a sandbox) or "error: " and a part of the refusal.
var continuationTests = []struct {
	src  string
	zsh  bool
	want string
}{
	// Everyday: a long command split over lines reads as one line.
	{"cargo build \\\n  --release", false, `cmd 1:1 "cargo" "build" "--release"`},
	{"cargo build \\\n  --release", true, `cmd 1:1 "cargo" "build" "--release"`},
	{"git log --oneline | \\\n  head -3 && \\\n  ls", true, "cmd 1:1 \"git\" \"log\" \"--oneline\"\ncmd 1:23 \"head\" \"-3\"\ncmd 1:36 \"ls\""},
	{"ec\\\nho a", true, `cmd 1:1 "echo" "a"`},
	{"echo \"a \\\nb\"", true, `cmd 1:1 "echo" "a b"`},

	// An escaped backslash before the newline is a backslash and a newline.
	{"echo a\\\\\nls", true, "cmd 1:1 \"echo\" \"a\\\\\"\ncmd 2:1 \"ls\""},
	{"echo a\\\\\\\nb", true, `cmd 1:1 "echo" "a\\b"`},

	// Literal contexts keep the backslash-newline.
	{"echo 'a\\\nb'", true, `cmd 1:1 "echo" "a\\\nb"`},
	{"echo $'a\\\nb'", false, `cmd 1:1 "echo" "a\\\nb"`},
	{"cat <<'E'\na\\\nE\nls", true, "cmd 1:1 \"cat\" <<\"E\"\ncmd 4:1 \"ls\""},

	// A comment ends at the newline even after a backslash: the next line
	// runs. The parser would join it into the comment.
	{"echo hi #\\\ntouch ~/x", false, "error: a comment ends in a backslash"},
	{"echo hi #\\\ntouch ~/x", true, "error: a comment ends in a backslash"},
	{"echo hi # c \\\\\ntouch ~/x", false, "error: a comment ends in a backslash"},
	{"# \\\ntouch ~/x", false, "error: a comment ends in a backslash"},
	{"echo hi # fine\nls", false, "cmd 1:1 \"echo\" \"hi\"\ncmd 2:1 \"ls\""},

	// In an unquoted here-document a joined line can be the delimiter.
	{"cat <<E\nx\n\\\nE\ntouch ~/x\nE", false, "cmd 1:1 \"cat\" <<\"E\"\ncmd 4:1 \"touch\" tilde:\"~/x\"\ncmd 5:1 \"E\""},
	{"cat <<E\nx \\\ny\nE\nls", false, "cmd 1:1 \"cat\" <<\"E\"\ncmd 4:1 \"ls\""},
	{"cat <<E\nx \\\ny\nE\nls", true, "error: zsh joins its lines differently"},

	// Continuations inside tokens: bash joins them before it tokenises.
	{"echo $\\\n{HOME}", false, "cmd 1:1 \"echo\" <parameter expansion>\nfinding 1:6 parameter-expansion"},
	{"echo $\\\n{HOME}", true, `error: a line continuation right after "$"`},
	{"(\\\n(echo hi))", false, "error: parse error"},
	{"(\\\n(1+1))", false, "finding 1:1 arithmetic"},
	{"(\\\n(1+1))", true, `error: a line continuation right after "("`},
	{"cat <<\\\n-EOF\n\thi\nEOF", false, `cmd 1:1 "cat" <<-"EOF"`},
	{"cat <<\\\n-EOF\n\thi\nEOF", true, `error: a line continuation right after "<"`},
	{"true &\\\n& ls", false, "cmd 1:1 \"true\"\ncmd 1:9 \"ls\""},
	{"true &\\\n& ls", true, `error: a line continuation right after "&"`},
	{"echo x >\\\n>f", false, `cmd 1:1 "echo" "x" >>"f"`},
	{"echo x >\\\n>f", true, `error: a line continuation right after ">"`},
	{"echo a |\\\n| echo b", true, `error: a line continuation right after "|"`},
	{"echo a |\\\n head", true, "cmd 1:1 \"echo\" \"a\"\ncmd 1:10 \"head\""},
}

func TestContinuations(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range continuationTests {
		key := tc.src
		if tc.zsh {
			key += " (zsh)"
		}
		if seen[key] {
			t.Fatalf("duplicate test %q", key)
		}
		seen[key] = true
		s, err := Parse(tc.src, Options{Zsh: tc.zsh})
		if want, ok := strings.CutPrefix(tc.want, "error: "); ok {
			if err == nil {
				t.Errorf("input: %q zsh=%v\nwant an error with %q, got:\n%s", tc.src, tc.zsh, want, s)
			} else if !strings.Contains(err.Error(), want) {
				t.Errorf("input: %q zsh=%v\ngot error %q, want one with %q", tc.src, tc.zsh, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("input: %q zsh=%v\nunexpected error: %v", tc.src, tc.zsh, err)
			continue
		}
		if got := strings.TrimSpace(s.String()); got != tc.want {
			t.Errorf("input: %q zsh=%v\ngot:\n%s\nwant:\n%s", tc.src, tc.zsh, got, tc.want)
		}
	}
}

// TestContinuationPairs: which backslashes end a line unescaped.
func TestContinuationPairs(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []int
	}{
		{"a\\\nb", []int{1}},
		{"a\\\\\nb", nil},
		{"a\\\\\\\nb", []int{3}},
		{"\\\n\\\n", []int{0, 2}},
		{"\\\\\n\\\n", []int{3}},
		{"no newline\\", nil},
	} {
		got := continuationPairs(tc.src)
		if len(got) != len(tc.want) {
			t.Errorf("input: %q: got %v, want %v", tc.src, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("input: %q: got %v, want %v", tc.src, got, tc.want)
				break
			}
		}
	}
}
