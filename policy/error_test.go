// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// head is the start of most policies below: lines 1 and 2.
const head = "version = 1\ndefault = \"ask\"\n"

type loadErrorCase struct {
	src  string
	want Error // File is always p.toml
	text string
}

var loadErrorCases = []loadErrorCase{
	// Syntax errors and duplicate keys: the decoder's ParseError, at its
	// position, about no one key.
	{"version = 1\ndefault = \"deny\" \"allow\"\n", Error{Line: 2, Col: 17, Msg: `expected a top-level item to end with a newline, comment, or EOF, but got '"' instead`}, `p.toml:2:17: expected a top-level item to end with a newline, comment, or EOF, but got '"' instead`},
	{"version = 1\ndefault = \"ask\n", Error{Line: 2, Col: 15, Msg: "strings cannot contain newlines"}, "p.toml:2:15: strings cannot contain newlines"},
	{"version = 1\nversion = 2\n", Error{Line: 2, Col: 1, Msg: "Key 'version' has already been defined."}, "p.toml:2:1: Key 'version' has already been defined."}, // the decoder's Col is 13
	{head + "[command.ls]\nverdict = \"allow\"\n[command.ls]\n", Error{Line: 5, Col: 2, Msg: "Key 'command.ls' has already been defined."}, "p.toml:5:2: Key 'command.ls' has already been defined."},

	// A bad value for an UnmarshalTOML method: a ParseError about its key.
	{head + "[command.ls]\nverdict = \"allow\"\noptions = { \"--color\" = 1 }\n", Error{Line: 5, Col: 13, Key: []string{"command", "ls", "options", "--color"}, Msg: "an option's value must be a type name or a list of strings, not int64"}, "p.toml:5:13: an option's value must be a type name or a list of strings, not int64"},
	{head + "[command.ls.options]\n\"--color\" = []\n", Error{Line: 4, Col: 14, Key: []string{"command", "ls", "options", "--color"}, Msg: "an empty list of option values matches nothing"}, "p.toml:4:14: an empty list of option values matches nothing"}, // the decoder places it at the ]

	// Values of the wrong type: the decoder's error has no position, the
	// key's line comes from the source.
	{head + "\n[command.ls]\nverdict = 1\n", Error{Line: 5, Col: 1, Key: []string{"command", "ls", "verdict"}, Msg: "incompatible types: TOML value has type int64; destination has type string"}, "p.toml:5:1: incompatible types: TOML value has type int64; destination has type string"},
	{head + "[command.ls]\nverdict = \"allow\"\nflags = [\"-l\", 2]\n", Error{Line: 5, Col: 1, Key: []string{"command", "ls", "flags"}, Msg: "incompatible types: TOML value has type int64; destination has type string"}, "p.toml:5:1: incompatible types: TOML value has type int64; destination has type string"},
	{head + "[command.ls]\nverdict = \"allow\"\nwrap = \"x\"\n", Error{Line: 5, Col: 1, Key: []string{"command", "ls", "wrap"}, Msg: "type mismatch for policy.wrapFile: expected table but found string"}, "p.toml:5:1: type mismatch for policy.wrapFile: expected table but found string"},
	{"version = \"1\"\n", Error{Line: 1, Col: 1, Key: []string{"version"}, Msg: "incompatible types: TOML value has type string; destination has type integer"}, "p.toml:1:1: incompatible types: TOML value has type string; destination has type integer"},
	{head + "[command]\nls.verdict = true\n", Error{Line: 4, Col: 4, Key: []string{"command", "ls", "verdict"}, Msg: "incompatible types: TOML value has type bool; destination has type string"}, "p.toml:4:4: incompatible types: TOML value has type bool; destination has type string"},
	{head + "[command.ls]\nglobs = \"yes\"\nverdict = 2\n", Error{Line: 4, Col: 1, Key: []string{"command", "ls", "globs"}, Msg: "incompatible types: TOML value has type string; destination has type boolean"}, "p.toml:4:1: incompatible types: TOML value has type string; destination has type boolean"}, // the first in the file

	// A value that is not a table where the format has a map: the decoder
	// drops it without an error.
	{head + "tools = \"deny\"\n", Error{Line: 3, Col: 1, Key: []string{"tools"}, Msg: "incompatible types: TOML value has type string; destination has type map"}, "p.toml:3:1: incompatible types: TOML value has type string; destination has type map"},
	{head + "[[shell]]\npipes = \"allow\"\n", Error{Line: 3, Col: 3, Key: []string{"shell"}, Msg: "incompatible types: TOML value has type []map[string]any; destination has type map"}, "p.toml:3:3: incompatible types: TOML value has type []map[string]any; destination has type map"},
	{head + "[command.ls]\nverdict = \"allow\"\noptions = \"x\"\n", Error{Line: 5, Col: 1, Key: []string{"command", "ls", "options"}, Msg: "incompatible types: TOML value has type string; destination has type map"}, "p.toml:5:1: incompatible types: TOML value has type string; destination has type map"},

	// Unknown keys.
	{head + "defualt = \"allow\"\n", Error{Line: 3, Col: 1, Key: []string{"defualt"}, Msg: `unknown key "defualt" (did you mean "default"?)`}, `p.toml:3:1: unknown key "defualt" (did you mean "default"?)`},
	{head + "[command.ls]\nverdict = \"allow\"\n[command.cat]\nverdict = \"allow\"\nflag = [\"-n\"]\n", Error{Line: 7, Col: 1, Key: []string{"command", "cat", "flag"}, Msg: `unknown key "command.cat.flag" (did you mean "flags"?)`}, `p.toml:7:1: unknown key "command.cat.flag" (did you mean "flags"?)`},
	{head + "command = { ls = { verdict = \"allow\", bogus = 1 } }\n", Error{Line: 3, Col: 39, Key: []string{"command", "ls", "bogus"}, Msg: `unknown key "command.ls.bogus"`}, `p.toml:3:39: unknown key "command.ls.bogus"`},
	{head + "[command.\"mkfs.*\"]\nverdict = \"allow\"\nreasn = \"x\"\n", Error{Line: 5, Col: 1, Key: []string{"command", "mkfs.*", "reasn"}, Msg: `unknown key "command.\"mkfs.*\".reasn" (did you mean "reason"?)`}, `p.toml:5:1: unknown key "command.\"mkfs.*\".reasn" (did you mean "reason"?)`},

	// The compiler's errors.
	{"version = 2\ndefault = \"ask\"\n", Error{Line: 1, Col: 1, Key: []string{"version"}, Msg: "version = 2: this guard reads version 1 policies"}, "p.toml:1:1: version = 2: this guard reads version 1 policies"},
	{"default = \"ask\"\n", Error{Line: 1, Key: []string{"version"}, Msg: "the policy has no version: write version = 1 at its top"}, "p.toml:1: the policy has no version: write version = 1 at its top"}, // not written: the file's first line
	{"version = 1\n", Error{Line: 1, Key: []string{"default"}, Msg: `the policy has no default verdict: write default = "ask" (or "deny"), or extends = "default" to build on the default policy`}, `p.toml:1: the policy has no default verdict: write default = "ask" (or "deny"), or extends = "default" to build on the default policy`},
	{"version = 1\ndefault = \"allow\"\n", Error{Line: 2, Col: 1, Key: []string{"default"}, Msg: `default = "allow": want ask or deny`}, `p.toml:2:1: default = "allow": want ask or deny`},
	{head + "[tools]\nBash = \"maybe\"\n", Error{Line: 4, Col: 1, Key: []string{"tools", "Bash"}, Msg: `tool "Bash": unknown tool tier "maybe" (want allow, session, ask, deny, internal, or a kind: shell, read, write, edit, list, search, fetch)`}, `p.toml:4:1: tool "Bash": unknown tool tier "maybe" (want allow, session, ask, deny, internal, or a kind: shell, read, write, edit, list, search, fetch)`},
	{head + "[command.\"a b\"]\nverdict = \"allow\"\n", Error{Line: 3, Col: 10, Key: []string{"command", "a b"}, Msg: `command "a b": a program name has no spaces, quotes or shell characters`}, `p.toml:3:10: command "a b": a program name has no spaces, quotes or shell characters`},
	{head + "[[env.deny]]\nnames = [\"A\"]\nreason = \"r\"\n[[env.deny]]\nnames = [\"B\"]\n", Error{Line: 3, Col: 7, Key: []string{"env", "deny"}, Msg: "env deny [B]: a reason is required"}, "p.toml:3:7: env deny [B]: a reason is required"}, // the first [[env.deny]]: a key has no index
	{head + "[paths]\nwritable = [\"rel\"]\n", Error{Line: 4, Col: 1, Key: []string{"paths", "writable"}, Msg: `paths writable: "rel" is not an absolute pattern (start it with /, ~, **/ or a placeholder such as {project})`}, `p.toml:4:1: paths writable: "rel" is not an absolute pattern (start it with /, ~, **/ or a placeholder such as {project})`},
	{"version = 1\nextends = \"nonesuch\"\n", Error{Line: 2, Col: 1, Key: []string{"extends"}, Msg: `extends = "nonesuch": there is no built-in policy "nonesuch" (want one of default, readonly, review, refactor)`}, `p.toml:2:1: extends = "nonesuch": there is no built-in policy "nonesuch" (want one of default, readonly, review, refactor)`},

	// Errors of a command rule name it.
	{head + "[command]\nls.verdict = \"allow\"\ncat.verdict = \"maybe\"\n", Error{Line: 5, Col: 5, Key: []string{"command", "cat", "verdict"}, Rule: "cat", Msg: `unknown verdict "maybe" (want allow, session, ask or deny)`}, `p.toml:5:5: rule "cat": unknown verdict "maybe" (want allow, session, ask or deny)`},
	{head + "[command.git.sub.log]\nverdict = \"allow\"\n[command.log]\nverdict = \"allow\"\n[command.git]\nverdict = \"sometimes\"\n", Error{Line: 8, Col: 1, Key: []string{"command", "git", "verdict"}, Rule: "git", Msg: `unknown verdict "sometimes" (want allow, session, ask or deny)`}, `p.toml:8:1: rule "git": unknown verdict "sometimes" (want allow, session, ask or deny)`},
	{head + "[command.git]\nverdict = \"allow\"\n[command.git.sub.log]\nargs = \"some\"\n", Error{Line: 6, Col: 1, Key: []string{"command", "git", "sub", "log", "args"}, Rule: "git log", Msg: `args = "some": want any, none or path`}, `p.toml:6:1: rule "git log": args = "some": want any, none or path`},
	{head + "[command.git]\nverdict = \"allow\"\n[[command.git.deny]]\nreason = \"r\"\n", Error{Line: 5, Col: 15, Key: []string{"command", "git", "deny"}, Rule: "git", Msg: "deny rule 1 names no flags and no args"}, `p.toml:5:15: rule "git": deny rule 1 names no flags and no args`},
	{head + "[command.cat]\nid = \"reader\"\nverdict = \"allow\"\n[command.head]\nid = \"reader\"\nverdict = \"allow\"\n", Error{Line: 6, Col: 10, Key: []string{"command", "head"}, Rule: "head", Msg: `id "reader" is already used by cat`}, `p.toml:6:10: rule "head": id "reader" is already used by cat`},
	{head + "[command.cat]\nverdict = \"allow\"\nstyle = \"go\"\nflags = [\"-name\"]\n[command.ls]\nverdict = \"allow\"\nstyle = \"gnu\"\nlike = \"cat\"\n", Error{Line: 7, Col: 10, Key: []string{"command", "ls", "flags"}, Rule: "ls", Msg: `option -name: a single-dash long option needs style = "go" or "find"`}, `p.toml:7:10: rule "ls": option -name: a single-dash long option needs style = "go" or "find"`}, // flags from like: the rule's line
	{head + "[command.ls]\nverdict = \"allow\"\nlike = \"nope\"\n", Error{Line: 5, Col: 1, Key: []string{"command", "ls", "like"}, Msg: `like = "nope": there is no such rule`}, `p.toml:5:1: like = "nope": there is no such rule`},
}

func init() {
	seen := map[string]bool{}
	for _, tc := range loadErrorCases {
		if seen[tc.src] {
			panic("duplicate load error case: " + tc.src)
		}
		seen[tc.src] = true
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range loadErrorCases {
		want := tc.want
		want.File = "p.toml"
		checkError(t, tc.src, loadError(tc.src), &want, tc.text)
	}
}

func loadError(src string) error {
	p, err := LoadUnchecked("p.toml", strings.NewReader(src))
	if err == nil && p == nil {
		return errors.New("no policy and no error")
	}
	return err
}

func checkError(t *testing.T, src string, err error, want *Error, text string) {
	t.Helper()
	var pe *Error
	if !errors.As(err, &pe) {
		t.Logf("input: %q", src)
		t.Errorf("error %v (%T) is not a *policy.Error", err, err)
		return
	}
	if !reflect.DeepEqual(pe, want) {
		t.Logf("input: %q", src)
		t.Errorf("error\n got %#v\nwant %#v", pe, want)
	}
	if err.Error() != text {
		t.Logf("input: %q", src)
		t.Errorf("error text\n got %q\nwant %q", err, text)
	}
}

func TestLoadErrorsOutsideTheSource(t *testing.T) {
	_, err := LoadUnchecked("p.toml", strings.NewReader(strings.Repeat("#", maxPolicyBytes+1)))
	checkError(t, "# × (1 MiB + 1)", err, &Error{File: "p.toml", Msg: "policy is larger than 1048576 bytes"}, "p.toml: policy is larger than 1048576 bytes")
	_, err = LoadUnchecked("p.toml", iotest.ErrReader(errors.New("disk on fire")))
	checkError(t, "a failing reader", err, &Error{File: "p.toml", Msg: "reading policy: disk on fire"}, "p.toml: reading policy: disk on fire")
}

// TestLazyRuleErrors checks the errors of rules compiled when a call first
// names them, as the built-in policies' rules are.
func TestLazyRuleErrors(t *testing.T) {
	src := head + "[command.ls]\nverdict = \"maybe\"\n[command.git]\nverdict = \"allow\"\n[command.git.sub.log]\nverdict = \"never\"\n"
	pf, err := decodeFile("lazy.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := compile("lazy.toml", pf, mapSource(pf.Command, false), []byte(src))
	if err != nil {
		t.Fatalf("compile: %v; want the rules left to compile when named", err)
	}
	wantLs := &Error{File: "lazy.toml", Line: 4, Col: 1, Key: []string{"command", "ls", "verdict"}, Rule: "ls", Msg: `unknown verdict "maybe" (want allow, session, ask or deny)`}
	textLs := `lazy.toml:4:1: rule "ls": unknown verdict "maybe" (want allow, session, ask or deny)`
	_, err = p.Command("ls")
	checkError(t, src, err, wantLs, textLs)
	_, err = p.Command("ls") // the same error again, from the broken rules
	checkError(t, src, err, wantLs, textLs)

	git, err := p.Command("git")
	if err != nil {
		t.Fatalf("git: %v", err)
	}
	_, err = p.Sub(git, "log")
	wantLog := &Error{File: "lazy.toml", Line: 8, Col: 1, Key: []string{"command", "git", "sub", "log", "verdict"}, Rule: "git log", Msg: `unknown verdict "never" (want allow, session, ask or deny)`}
	textLog := `lazy.toml:8:1: rule "git log": unknown verdict "never" (want allow, session, ask or deny)`
	checkError(t, src, err, wantLog, textLog)

	errs := p.CompileAll()
	if len(errs) != 2 {
		t.Fatalf("CompileAll: %d errors, want 2: %v", len(errs), errs)
	}
	checkError(t, src, errs[0], wantLog, textLog) // git sorts before ls
	checkError(t, src, errs[1], wantLs, textLs)
}

func TestExampleErrors(t *testing.T) {
	src := "version = 1\ndefault = \"deny\"\n\n[command.git]\nverdict = \"allow\"\nexamples = { deny = [\"git status\"] }\n\n[command.ls]\nverdict = \"allow\"\n\n[command.ls.examples]\nallow = [\"ls\"]\n"
	p, err := LoadUnchecked("ex.toml", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	exs := p.OwnExamples()
	if len(exs) != 2 {
		t.Fatalf("%d examples, want 2", len(exs))
	}
	for i, want := range []struct {
		line int
		rule string
	}{{6, "git"}, {11, "ls"}} {
		if exs[i].Line != want.line || exs[i].Rule != want.rule {
			t.Errorf("example %d: line %d of rule %q, want line %d of rule %q", i, exs[i].Line, exs[i].Rule, want.line, want.rule)
		}
	}
	err = p.ExampleErrorf(exs[0], "example %q: want %s, got allow", exs[0].Command, exs[0].Want)
	checkError(t, src, err, &Error{File: "ex.toml", Line: 6, Key: []string{"command", "git", "examples"}, Rule: "git", Msg: `example "git status": want deny, got allow`},
		`ex.toml:6: rule "git": example "git status": want deny, got allow`)
}

// FuzzLoad checks that every error of LoadUnchecked is an *Error of the
// file, at a line of the source or at none, and that a policy that loads
// has its examples at lines of the source too.
func FuzzLoad(f *testing.F) {
	for _, tc := range loadErrorCases {
		f.Add(tc.src)
	}
	if src, err := os.ReadFile("default.toml"); err == nil {
		f.Add(string(src))
	}
	f.Fuzz(func(t *testing.T, src string) {
		lines := strings.Count(strings.TrimPrefix(src, "\ufeff"), "\n") + 1
		p, err := LoadUnchecked("fuzz.toml", strings.NewReader(src))
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.File != "fuzz.toml" || pe.Line < 0 || pe.Line > lines || pe.Col < 0 {
				t.Fatalf("error %#v (%T)", err, err)
			}
			return
		}
		for _, ex := range p.OwnExamples() {
			if ex.Line < 1 || ex.Line > lines {
				t.Fatalf("example %q of rule %q at line %d of %d", ex.Command, ex.Rule, ex.Line, lines)
			}
		}
	})
}
