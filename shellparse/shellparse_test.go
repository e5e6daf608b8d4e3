// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"fmt"
	"strings"
	"testing"
)

// parseTests: source, and the script rendered by Script.String, one line per
// command, assignment, redirection and finding.
var parseTests = []struct {
	src  string
	want string
}{
	// Simple commands and lists.
	{"git status", `cmd 1:1 "git" "status"`},
	{"ls -la | wc -l", "cmd 1:1 \"ls\" \"-la\"\ncmd 1:10 \"wc\" \"-l\""},
	{"a && b || c; d", "cmd 1:1 \"a\"\ncmd 1:6 \"b\"\ncmd 1:11 \"c\"\ncmd 1:14 \"d\""},
	{"a |& b", "cmd 1:1 \"a\"\ncmd 1:6 \"b\""},
	{"a\nb", "cmd 1:1 \"a\"\ncmd 2:1 \"b\""},
	{"! a", `cmd 1:3 "a"`},
	{"time ls", `cmd 1:6 "ls"`},
	// After a pipe, time is the program /usr/bin/time, not the keyword.
	{"ls | time git status", "cmd 1:1 \"ls\"\ncmd 1:6 \"time\" \"git\" \"status\""},
	{"ls | time NO_COLOR=1 git status", "cmd 1:1 \"ls\"\ncmd 1:6 \"time\" \"NO_COLOR=1\" \"git\" \"status\""},
	{"ls | time A+=1 git status", "cmd 1:1 \"ls\"\ncmd 1:6 \"time\" \"A+=1\" \"git\" \"status\""},
	{"ls |& time -p git log >x", "cmd 1:1 \"ls\"\ncmd 1:7 \"time\" \"-p\" \"git\" \"log\" >\"x\""},
	{"a && time b", "cmd 1:1 \"a\"\ncmd 1:11 \"b\""},

	// Quoting and escaping resolve as bash passes the words.
	{`r''m -rf x`, `cmd 1:1 "rm" "-rf" "x"`},
	{`"r"m x`, `cmd 1:1 "rm" "x"`},
	{`\rm x`, `cmd 1:1 "rm" "x"`},
	{`g\it lo\g`, `cmd 1:1 "git" "log"`},
	{`sort --out\put=x`, `cmd 1:1 "sort" "--output=x"`},
	{`sort "--out""put=x"`, `cmd 1:1 "sort" "--output=x"`},
	{`echo "a\"b\\c\$d\x"`, `cmd 1:1 "echo" "a\"b\\c$d\\x"`},
	{`echo 'a\nb'`, `cmd 1:1 "echo" "a\\nb"`},
	{`echo $'a\tb\x41\101\u0041'`, `cmd 1:1 "echo" "a\tbAAA"`},
	{`echo $'\u00e9'`, `cmd 1:1 "echo" <ANSI-C escape of a non-ASCII character>`},
	{`echo $'100%s' $'--out\x70ut'`, `cmd 1:1 "echo" "100%s" "--output"`},
	{`echo $'rm\x00junk'`, `cmd 1:1 "echo" "rm"`},
	{"echo a\\\nb", `cmd 1:1 "echo" "ab"`},

	// Globs, tildes and braces.
	{`ls *.go`, `cmd 1:1 "ls" glob:"*.go"`},
	{`ls src/*.go`, `cmd 1:1 "ls" glob:"src/*.go"`},
	{`ls '*.go' \*`, `cmd 1:1 "ls" "*.go" "*"`},
	{`ls x[1] [ ]`, `cmd 1:1 "ls" glob:"x[1]" "[" "]"`},
	{`[ -f x ]`, `cmd 1:1 "[" "-f" "x" "]"`},
	{`ls ~ ~/x`, `cmd 1:1 "ls" tilde:"~" tilde:"~/x"`},
	{`ls ~root ~+ "~"`, `cmd 1:1 "ls" <tilde expansion> <tilde expansion> "~"`},
	{`git log HEAD~3 @{u}..`, `cmd 1:1 "git" "log" "HEAD~3" "@{u}.."`},
	{`echo {a,b} {1..3} {} x{}`, `cmd 1:1 "echo" <brace expansion> <brace expansion> "{}" "x{}"`},
	{`echo a=~/x --p=~/x`, `cmd 1:1 "echo" <tilde expansion> "--p=~/x"`},

	// Dynamic words.
	{`echo $HOME "${x:-y}"`, "cmd 1:1 \"echo\" <parameter expansion> <parameter expansion>\nfinding 1:6 parameter-expansion\nfinding 1:13 parameter-expansion"},
	{`$cmd -rf x`, "cmd 1:1 <parameter expansion> \"-rf\" \"x\"\nfinding 1:1 parameter-expansion\nfinding 1:1 dynamic-command"},
	{`echo $"x"`, `cmd 1:1 "echo" <locale translation>`},
	{`ls @(a|b)`, `cmd 1:1 "ls" <extended glob>`},

	// Commands inside substitutions come out too, before the command that uses them.
	{`echo $(rm -rf x)`, "cmd 1:8 \"rm\" \"-rf\" \"x\"\ncmd 1:1 \"echo\" <command substitution>\nfinding 1:6 command-substitution"},
	{"echo `id`", "cmd 1:7 \"id\"\ncmd 1:1 \"echo\" <command substitution>\nfinding 1:6 command-substitution"},
	{`echo "${x:-$(id)}"`, "cmd 1:14 \"id\"\ncmd 1:1 \"echo\" <parameter expansion>\nfinding 1:7 parameter-expansion\nfinding 1:12 command-substitution"},
	{`diff <(ls a) >(cat)`, "cmd 1:8 \"ls\" \"a\"\ncmd 1:16 \"cat\"\ncmd 1:1 \"diff\" <process substitution> <process substitution>\nfinding 1:6 process-substitution\nfinding 1:14 process-substitution"},
	{"cat <<EOF\n$(id)\nEOF", "cmd 2:3 \"id\"\ncmd 1:1 \"cat\" <<\"EOF\"\nfinding 2:1 command-substitution"},
	{"cat <<'EOF'\n$(id)\nEOF", `cmd 1:1 "cat" <<"EOF"`},
	{`case $(id) in $(whoami)) ls;; esac`, "cmd 1:8 \"id\"\ncmd 1:17 \"whoami\"\ncmd 1:26 \"ls\"\nfinding 1:1 control-flow\nfinding 1:6 command-substitution\nfinding 1:15 command-substitution"},

	// Assignments.
	{`FOO=1 BAR=$x cmd`, "cmd 1:1 FOO=\"1\" BAR=<parameter expansion> \"cmd\"\nfinding 1:11 parameter-expansion"},
	{`X=1; export Y=2 Z`, "assign 1:1 shell X=\"1\"\nassign 1:13 export Y=\"2\"\nassign 1:17 export Z=<the current value>"},
	{`X+=a`, `assign 1:1 shell X=<appends to the current value>`},
	{`X=~/a:~/b`, `assign 1:1 shell X=<tilde expansion>`},
	{`for PATH in /tmp; do ls; done`, "cmd 1:22 \"ls\"\nassign 1:5 loop PATH=<loop variable>\nfinding 1:1 control-flow"},
	{`a[1]=x`, "assign 1:1 shell a=\"x\"\nfinding 1:1 arithmetic"},
	{`a=(x y)`, `assign 1:1 shell a=<array>`},
	{`export -n X`, `finding 1:1 declare`},
	{`declare -i x=1`, `finding 1:1 declare`},
	{`local x`, `finding 1:1 declare`},

	// Redirections.
	{`ls >/dev/null 2>&1`, `cmd 1:1 "ls" >"/dev/null" 2>&"1"`},
	{`ls &>out`, `cmd 1:1 "ls" &>"out"`},
	{`{ ls; } >out`, "cmd 1:3 \"ls\"\nredirect 1:9 >\"out\"\nfinding 1:1 group"},
	{`>out`, `redirect 1:1 >"out"`},
	{`ls {fd}>x`, "cmd 1:1 \"ls\" {fd}>\"x\"\nfinding 1:4 named-file-descriptor"},
	{`cat <<<"$x"`, "cmd 1:1 \"cat\" <<<<parameter expansion>\nfinding 1:9 parameter-expansion"},

	// Constructs a policy must judge.
	{`(ls)`, "cmd 1:2 \"ls\"\nfinding 1:1 subshell"},
	{`ls &`, "cmd 1:1 \"ls\"\nfinding 1:1 background"},
	{`if a; then b; elif c; then d; else e; fi`, "cmd 1:4 \"a\"\ncmd 1:12 \"b\"\ncmd 1:20 \"c\"\ncmd 1:28 \"d\"\ncmd 1:36 \"e\"\nfinding 1:1 control-flow"},
	{`while a; do b; done`, "cmd 1:7 \"a\"\ncmd 1:13 \"b\"\nfinding 1:1 control-flow"},
	{`until a; do b; done`, "cmd 1:7 \"a\"\ncmd 1:13 \"b\"\nfinding 1:1 control-flow"},
	{`select x in a; do b; done`, "cmd 1:19 \"b\"\nassign 1:8 loop x=<loop variable>\nfinding 1:1 control-flow"},
	{`f() { ls; }`, "cmd 1:7 \"ls\" @unknown\nfinding 1:1 function\nfinding 1:5 group"},
	{`coproc ls`, "cmd 1:8 \"ls\"\nfinding 1:1 coproc"},
	{`eval ls`, "cmd 1:1 \"eval\" \"ls\"\nfinding 1:1 eval"},
	{`. x; source y`, "cmd 1:1 \".\" \"x\"\ncmd 1:6 \"source\" \"y\"\nfinding 1:1 source\nfinding 1:6 source"},
	{`exec ls`, "cmd 1:1 \"exec\" \"ls\"\nfinding 1:1 exec"},
	{`alias ls=rm`, "cmd 1:1 \"alias\" \"ls=rm\"\nfinding 1:1 alias"},
	{`trap 'rm x' EXIT`, "cmd 1:1 \"trap\" \"rm x\" \"EXIT\"\nfinding 1:1 trap"},
	{`hash -p /tmp/x git`, "cmd 1:1 \"hash\" \"-p\" \"/tmp/x\" \"git\"\nfinding 1:1 dynamic-builtin"},
	{`command eval x`, "cmd 1:1 \"command\" \"eval\" \"x\"\nfinding 1:1 eval"},
	{`builtin source x`, "cmd 1:1 \"builtin\" \"source\" \"x\"\nfinding 1:1 source"},
	{`command -v eval`, `cmd 1:1 "command" "-v" "eval"`},
	{`shopt -s extglob`, "cmd 1:1 \"shopt\" \"-s\" \"extglob\"\nfinding 1:1 shell-state"},
	{`set -euo pipefail`, `cmd 1:1 "set" "-euo" "pipefail"`},
	{`set -o errexit`, `cmd 1:1 "set" "-o" "errexit"`},
	{`set -k`, "cmd 1:1 \"set\" \"-k\"\nfinding 1:1 shell-state"},
	{`set -eo posix`, "cmd 1:1 \"set\" \"-eo\" \"posix\"\nfinding 1:1 shell-state"},
	{`set -- a b`, "cmd 1:1 \"set\" \"--\" \"a\" \"b\"\nfinding 1:1 shell-state"},
	{`set -$X`, "cmd 1:1 \"set\" <parameter expansion>\nfinding 1:6 parameter-expansion\nfinding 1:1 shell-state"},
	{`set -e$X`, "cmd 1:1 \"set\" <parameter expansion>\nfinding 1:7 parameter-expansion\nfinding 1:1 shell-state"},
	{`set -o $X`, "cmd 1:1 \"set\" \"-o\" <parameter expansion>\nfinding 1:8 parameter-expansion\nfinding 1:1 shell-state"},
	{`set -euxo`, "cmd 1:1 \"set\" \"-euxo\"\nfinding 1:1 shell-state"},
	{`set +x -C`, `cmd 1:1 "set" "+x" "-C"`},
	{`set -`, "cmd 1:1 \"set\" \"-\"\nfinding 1:1 shell-state"},
	{`set x`, "cmd 1:1 \"set\" \"x\"\nfinding 1:1 shell-state"},
	{`[[ -f x ]]`, `finding 1:1 test`},

	// Arithmetic contexts, where bash runs a[$(cmd)] without a substitution node.
	{`(( 'a[$(id)]' ))`, `finding 1:1 arithmetic`},
	{`echo $((1+2))`, "cmd 1:1 \"echo\" <arithmetic expansion>\nfinding 1:6 arithmetic"},
	{`let x=1`, `finding 1:1 arithmetic`},
	{`[[ $x -eq 1 ]]`, "finding 1:4 arithmetic\nfinding 1:4 parameter-expansion"},
	{`[[ -v 'a[$(id)]' ]]`, `finding 1:4 arithmetic`},
	{`test -v x`, "cmd 1:1 \"test\" \"-v\" \"x\"\nfinding 1:1 arithmetic"},
	{`[ -v x ]`, "cmd 1:1 \"[\" \"-v\" \"x\" \"]\"\nfinding 1:1 arithmetic"},
	{`echo ${a[$(id)]}`, "cmd 1:12 \"id\"\ncmd 1:1 \"echo\" <parameter expansion>\nfinding 1:6 parameter-expansion\nfinding 1:6 arithmetic\nfinding 1:10 command-substitution"},
	{`echo ${a['$(id)']}`, "cmd 1:1 \"echo\" <parameter expansion>\nfinding 1:6 parameter-expansion\nfinding 1:6 arithmetic"},
	{`echo ${x:'a[$(id)]'}`, "cmd 1:1 \"echo\" <parameter expansion>\nfinding 1:6 parameter-expansion\nfinding 1:6 arithmetic"},
	{`echo ${!x}`, "cmd 1:1 \"echo\" <parameter expansion>\nfinding 1:6 parameter-expansion\nfinding 1:6 indirect-expansion"},
	{`echo ${x@P}`, "cmd 1:1 \"echo\" <parameter expansion>\nfinding 1:6 parameter-expansion\nfinding 1:6 indirect-expansion"},
	{`echo ${a[@]}`, "cmd 1:1 \"echo\" <parameter expansion>\nfinding 1:6 parameter-expansion"},
	{`printf -v 'a[$(id)]' x`, "cmd 1:1 \"printf\" \"-v\" \"a[$(id)]\" \"x\"\nfinding 1:1 arithmetic"},
	{`printf -va[1] x`, "cmd 1:1 \"printf\" glob:\"-va[1]\" \"x\"\nassign 1:15 shell x=<set by printf>\nfinding 1:1 arithmetic"}, // unsure which words are names: all are
	{`read 'a[$(id)]'`, "cmd 1:1 \"read\" \"a[$(id)]\"\nfinding 1:1 arithmetic"},
	{`unset 'a[$(id)]'`, "cmd 1:1 \"unset\" \"a[$(id)]\"\nfinding 1:1 arithmetic"},
	{`read -r line`, "cmd 1:1 \"read\" \"-r\" \"line\"\nassign 1:9 shell line=<set by read>"},
	{`read -rp '> ' -a PATH`, "cmd 1:1 \"read\" \"-rp\" \"> \" \"-a\" \"PATH\"\nassign 1:18 shell PATH=<set by read>"},
	{`read`, "cmd 1:1 \"read\"\nassign 0:0 shell REPLY=<set by read>"},
	{`mapfile -t lines`, "cmd 1:1 \"mapfile\" \"-t\" \"lines\"\nassign 1:12 shell lines=<set by mapfile>"},
	{`mapfile -C 'rm x' -c 1 arr`, "cmd 1:1 \"mapfile\" \"-C\" \"rm x\" \"-c\" \"1\" \"arr\"\nassign 1:24 shell arr=<set by mapfile>\nfinding 1:1 eval"},
	{`getopts ab opt`, "cmd 1:1 \"getopts\" \"ab\" \"opt\"\nassign 1:12 shell opt=<set by getopts>\nassign 0:0 shell OPTARG=<set by getopts>\nassign 0:0 shell OPTIND=<set by getopts>"},
	{`printf -v PATH /tmp`, "cmd 1:1 \"printf\" \"-v\" \"PATH\" \"/tmp\"\nassign 1:11 shell PATH=<set by printf>"},
	{`printf '%s' -v x`, `cmd 1:1 "printf" "%s" "-v" "x"`},
	{`echo ${x@Q} ${x@U}`, "cmd 1:1 \"echo\" <parameter expansion> <parameter expansion>\nfinding 1:6 parameter-expansion\nfinding 1:13 parameter-expansion"},
	{`export`, `finding 1:1 declare`},
	{`for ((i=0;i<3;i++)); do ls; done`, "cmd 1:25 \"ls\"\nfinding 1:1 control-flow\nfinding 1:5 arithmetic"},

	// cd moves later commands.
	{`cd sub && ls`, "cmd 1:1 \"cd\" \"sub\"\ncmd 1:11 \"ls\" @sub"},
	{`cd sub; ls`, "cmd 1:1 \"cd\" \"sub\"\ncmd 1:9 \"ls\" @. or sub"},
	{`cd a || cd b; ls`, "cmd 1:1 \"cd\" \"a\"\ncmd 1:9 \"cd\" \"b\"\ncmd 1:15 \"ls\" @. or a or b"},
	{`(cd sub && ls); ls`, "cmd 1:2 \"cd\" \"sub\"\ncmd 1:12 \"ls\" @sub\ncmd 1:17 \"ls\"\nfinding 1:1 subshell"},
	{`cd /tmp && cd .. && ls`, "cmd 1:1 \"cd\" \"/tmp\"\ncmd 1:12 \"cd\" \"..\" @/tmp\ncmd 1:21 \"ls\" @/tmp/.."},
	{`cd && ls`, "cmd 1:1 \"cd\"\ncmd 1:7 \"ls\" @~"},
	{`cd ~/x/.. && ls`, "cmd 1:1 \"cd\" tilde:\"~/x/..\"\ncmd 1:14 \"ls\" @unknown"},
	{`cd - && ls`, "cmd 1:1 \"cd\" \"-\"\ncmd 1:9 \"ls\" @unknown"},
	{`cd $d && ls`, "cmd 1:1 \"cd\" <parameter expansion>\ncmd 1:10 \"ls\" @unknown\nfinding 1:4 parameter-expansion"},
	{`if cd a; then ls; fi; pwd`, "cmd 1:4 \"cd\" \"a\"\ncmd 1:15 \"ls\" @a\ncmd 1:23 \"pwd\" @. or a\nfinding 1:1 control-flow"},
	{`while true; do cd ..; done; ls`, "cmd 1:7 \"true\" @unknown\ncmd 1:16 \"cd\" \"..\" @unknown\ncmd 1:29 \"ls\" @unknown\nfinding 1:1 control-flow"},
	{`cd a | ls; pwd`, "cmd 1:1 \"cd\" \"a\"\ncmd 1:8 \"ls\"\ncmd 1:12 \"pwd\""},
	{`ls | cd a; pwd`, "cmd 1:1 \"ls\"\ncmd 1:6 \"cd\" \"a\"\ncmd 1:12 \"pwd\" @. or a"}, // lastpipe may run cd in this shell
	{`builtin cd a && ls`, "cmd 1:1 \"builtin\" \"cd\" \"a\"\ncmd 1:17 \"ls\" @a"},
	{`pushd a && ls`, "cmd 1:1 \"pushd\" \"a\"\ncmd 1:12 \"ls\" @unknown\nfinding 1:1 shell-state"},
}

func init() {
	seen := map[string]bool{}
	for _, tc := range parseTests {
		if seen[tc.src] {
			panic(fmt.Sprintf("duplicate parse test %q", tc.src))
		}
		seen[tc.src] = true
	}
}

func TestParse(t *testing.T) {
	for _, tc := range parseTests {
		s, err := Parse(tc.src, Options{})
		if err != nil {
			t.Errorf("input: %q\nunexpected error: %v", tc.src, err)
			continue
		}
		if got := strings.TrimSpace(s.String()); got != tc.want {
			t.Errorf("input: %q\ngot:\n%s\nwant:\n%s", tc.src, got, tc.want)
		}
	}
}

var errorTests = []struct {
	src  string
	want string
}{
	{"", "empty command"},
	{`echo a\`, "1:7: the command ends in a backslash, which shells read differently; remove it"},
	{"# only a comment", "empty command"},
	{"echo 'unclosed", "1:6: parse error: reached EOF without closing quote `'`"},
	{"cat <<EOF\nx", "parse error"},
	{"ls )", "parse error"},
	{"ls &&", "parse error"},
	{"fi", "parse error"},
	{"echo a\x00b", "1:7: NUL byte (U+0000) is not allowed in a command"},
	{"echo a\rrm x", "1:7: carriage return (U+000D) is not allowed in a command"},
	{"echo \x1b[31m", "1:6: control character (U+001B) is not allowed in a command"},
	{"echo \u0085", "1:6: C1 control character (U+0085) is not allowed in a command"},
	{"echo \u202egnp.exe", "1:6: bidirectional control character (U+202E) is not allowed in a command"},
	{"r\u200bm x", "1:2: invisible character (U+200B) is not allowed in a command"},
	{"\ufeffls", "1:1: invisible character (U+FEFF) is not allowed in a command"},
	{"echo \u2028", "1:6: line separator (U+2028) is not allowed in a command"},
	{"echo \xff", "1:6: invalid UTF-8 byte 0xff"},
	{"ls\necho \x07", "2:6: control character (U+0007) is not allowed in a command"},
	{strings.Repeat("a", 64<<10+1), "command is 65537 bytes, over the limit of 65536 bytes"},
	{strings.Repeat("(", 300) + "ls" + strings.Repeat(")", 300), "brackets nest 300 deep, over the limit of 256"},
	{strings.Repeat("(", 70) + "ls" + strings.Repeat(")", 70), "constructs nest more than 64 deep"},
	{strings.Repeat("echo $(", 70) + "ls" + strings.Repeat(")", 70), "constructs nest more than 64 deep"},
	{strings.Repeat("if true; then ", 70) + "ls" + strings.Repeat("; fi", 70), "constructs nest more than 64 deep"},
	{"echo" + strings.Repeat(" a", 8200), "more than 8192 words"},
	{"@test 'x' { ls; }", "parse error"},
	{"ls | time { ls; }", "1:6: time after | runs the program /usr/bin/time"},
	{"ls | time a[1]=2", "1:11: time after | runs the program /usr/bin/time, which bash gives the words of an array assignment"},
	{"ls | time a=(1 2)", "1:11: time after | runs the program /usr/bin/time, which bash gives the words of an array assignment"},
	{"x | time a[1]=2 cmd", "inline variables cannot be arrays"},
}

func TestParseErrors(t *testing.T) {
	for _, tc := range errorTests {
		s, err := Parse(tc.src, Options{})
		if err == nil {
			t.Errorf("input: %q\nwant error %q, got script:\n%s", tc.src, tc.want, s)
			continue
		}
		if s != nil {
			t.Errorf("input: %q\nan error came with a script", tc.src)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("input: %q\ngot error %q, want it to contain %q", tc.src, err, tc.want)
		}
		if _, ok := err.(*Error); !ok {
			t.Errorf("input: %q\nerror is %T, not *Error", tc.src, err)
		}
	}
}

// TestLongChains checks that && chains and pipelines, which nest one level
// per operator in the syntax tree, do not count as deep nesting.
func TestLongChains(t *testing.T) {
	for _, op := range []string{" && ", " || ", " | ", "; "} {
		src := strings.Repeat("ls"+op, 2000) + "ls"
		s, err := Parse(src, Options{})
		if err != nil {
			t.Fatalf("%q chain: %v", op, err)
		}
		if len(s.Commands) != 2001 {
			t.Errorf("%q chain: got %d commands, want 2001", op, len(s.Commands))
		}
	}
}

func TestDialect(t *testing.T) {
	// dash runs touch here; bash does not. Parsing as POSIX must refuse it.
	src := "echo A &> /dev/null touch m"
	if _, err := Parse(src, Options{Dialect: POSIX}); err == nil {
		t.Errorf("POSIX: %q parsed; want an error", src)
	}
	if _, err := Parse(src, Options{Dialect: Bash}); err != nil {
		t.Errorf("bash: %q: %v", src, err)
	}
	// In sh, ~ after = in an argument is not expanded.
	s, err := Parse("echo a=~/x", Options{Dialect: POSIX})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Commands[0].Args[1]; got.Dynamic != "" || got.Value != "a=~/x" {
		t.Errorf("POSIX: a=~/x: got %+v, want the literal", got)
	}
}

func TestGlobLead(t *testing.T) {
	for _, tc := range []struct {
		src       string
		mayOption bool
	}{
		{"*", true},
		{"*.go", true},
		{"?x", true},
		{"[ab]*", true},
		{"-*", true},
		{"''*", true},
		{"src/*", false},
		{"./*", false},
		{"x*", false},
		{"'-'*", true},
		{"plain", false},
		{"-plain", true},
	} {
		s, err := Parse("ls "+tc.src, Options{})
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		w := s.Commands[0].Args[1]
		if got := w.MayBeOption(); got != tc.mayOption {
			t.Errorf("%q: MayBeOption = %v, want %v (word %+v)", tc.src, got, tc.mayOption, w)
		}
	}
}

// TestSafeSet: set keeps the shell as guard reads it only with options it
// knows, each a constant word: a word known at run time may be any option
// (set -$X may be set -k, after which a command's argument A=1 is a
// variable of its environment).
func TestSafeSet(t *testing.T) {
	for _, tc := range []struct {
		args []Word
		want bool
	}{
		{[]Word{{Value: "-euo"}, {Value: "pipefail"}}, true},
		{[]Word{{Value: "+x"}, {Value: "-C"}}, true},
		{[]Word{{Value: "-e", Dynamic: "parameter expansion"}}, false},
		{[]Word{{Value: "-o"}, {Value: "errexit", Dynamic: "parameter expansion"}}, false},
		{[]Word{{Value: "-o"}, {Value: "posix"}}, false},
		{[]Word{{Value: "-k"}}, false},
		{[]Word{{Value: "--"}, {Value: "a"}}, false},
		{[]Word{{Value: "-"}}, false},
		{[]Word{{Value: "-eo"}}, false},
	} {
		if got := safeSet(tc.args); got != tc.want {
			t.Errorf("set %v: safe = %v, want %v", tc.args, got, tc.want)
		}
	}
}
