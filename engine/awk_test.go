// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"guard/policy"
)

// awkCases are programs with guard's verdict on them.
var awkCases = []struct {
	prog string
	want policy.Verdict
}{
	{"{print $1}", policy.Allow},
	{"{ print $1, $3 }", policy.Allow},
	{"-F: '{print $1}'", policy.Ask}, // not a program: the shell quotes are awk's text
	{"NR==2", policy.Allow},
	{"$3 > 100 { print $1 }", policy.Allow},
	{"{ if ($2 > 5) print $1 }", policy.Allow},
	{"{ print ($2 > 5) }", policy.Allow},
	{"{ s += $1 } END { print s }", policy.Allow},
	{"BEGIN { FS = \":\" } { print $1 }", policy.Allow},
	{"/error/ { n++ } END { print n+0 }", policy.Allow},
	{"!seen[$0]++", policy.Allow},
	{"{ printf \"%s %d\\n\", $1, $2 }", policy.Allow},
	{"{ a = $1 / 2; print a }", policy.Allow},
	{"length > 80", policy.Allow},
	{"{ gsub(/a/, \"b\"); print }", policy.Allow},
	{"{ print toupper(substr($0, 1, 3)) }", policy.Allow},
	{"function f(x) { return x*2 } { print f($1) }", policy.Allow},
	{"{ getline; print }", policy.Allow},
	{"{ while ((getline line) > 0) n++ } END { print n }", policy.Allow},
	{"NR % 2 == 0", policy.Allow},
	{"{ print $NF }", policy.Allow},
	{"# a comment with > and | in it\n{ print }", policy.Allow},
	{"{ print \"a > b | c\" }", policy.Allow},

	{"BEGIN { system(\"id\") }", policy.Deny},
	{"{ print | \"sh\" }", policy.Deny},
	{"{ print $0 | \"sort\" }", policy.Deny},
	{"BEGIN { \"id\" | getline x; print x }", policy.Deny},
	{"BEGIN { print \"x\" |& \"cat\" }", policy.Deny},
	{"{ print > \"out.txt\" }", policy.Ask},
	{"{ print $1 >> \"/tmp/log\" }", policy.Ask},
	{"{ printf(\"%s\", $1) > \"f\" }", policy.Ask},
	{"{ print $1,\n $2 > \"f\" }", policy.Ask}, // the statement goes on after the comma
	{"{ print $1 > $2 }", policy.Ask},
	{"BEGIN { while ((getline l < \"/etc/passwd\") > 0) print l }", policy.Ask},
	{"BEGIN { getline x[1] < \"f\" }", policy.Ask},
	{"BEGIN { print ENVIRON[\"HOME\"] }", policy.Ask},
	{"BEGIN { ARGV[1] = \"/home/u/.ssh/id_rsa\"; ARGC = 2 } { print }", policy.Ask},
	{"BEGIN { PROCINFO[\"sorted_in\"] = \"@ind_str_asc\" }", policy.Ask},
	{"@include \"x.awk\"", policy.Ask},
	{"@load \"filefuncs\"", policy.Ask},
	{"BEGIN { awk::x = 1 }", policy.Ask},
	{"/[/]/ { print }", policy.Ask},
	{"{ print \"a\nb\" }", policy.Ask},
	{"{ print `id` }", policy.Ask},
	{"{ print $1 } # ok\n{ print $2 > \"x\" }", policy.Ask},
	{"{ x = 4 / 2 / 1; print x > \"f\" }", policy.Ask},

	// A / that one awk reads as a regex literal and guard read as a
	// division hid the rest of the line behind a # (each ran for real).
	{"BEGIN { if (0) exit /#/; system(\"id\") }", policy.Deny},            // every awk: exit /re/
	{"BEGIN { if (1) /#/; system(\"id\") }", policy.Deny},                 // gawk, the one true awk: after an if condition
	{"BEGIN { while (0) /#/; system(\"id\") }", policy.Deny},              // the same after a while condition
	{"BEGIN { x = $/#/; system(\"id\") }", policy.Deny},                   // mawk, gawk: after $
	{"BEGIN { x++ /#/; system(\"id\") }", policy.Deny},                    // mawk: after ++
	{"BEGIN { x = length /#/; system(\"id\") }", policy.Deny},             // mawk: after length
	{"BEGIN { x = getline / 2; system(\"id\"); y = 1 / 1 }", policy.Deny}, // every awk divides after getline
	{"BEGIN { if (1) /\"/; print \"x\" > \"f\"; y = \"/ }", policy.Ask},   // a string the division reading opens
	{"BEGIN { x = \"a\" ~ /[\\]/]#/; system(\"id\") }", policy.Ask},       // gawk and mawk: [\]/] is one bracket expression
	{"BEGIN { x = \"a\" ~ /[[:alpha:]/]#/; system(\"id\") }", policy.Ask}, // a class's ] does not end the bracket expression
	{"{ print ($1 + $2) / 2 }", policy.Allow},
	{"{ print ($1)/($2), ($3)/($4) }", policy.Allow},
	{"{ n++ } END { print n / NR }", policy.Allow},
	{"{ print length / 2 }", policy.Allow},
	{"{ print $NF / 2 }", policy.Allow},
	{"/[[:alpha:]]+/ { print }", policy.Allow},
	{"/[\\t ]x/ { print }", policy.Allow},

	// A statement goes on after a line break where any awk reads on:
	// gawk after ? and :, every awk after a comma, && and ||, over blank
	// lines and comments (each ran for real: the file was written).
	{"BEGIN { print \"x\" ?\n\"y\" : \"z\" > \"f\" }", policy.Ask},     // gawk
	{"BEGIN { print \"x\" ? \"y\" :\n\"z\" > \"f\" }", policy.Ask},     // gawk
	{"BEGIN { print \"x\" ? # c\n\"y\" : \"z\" > \"f\" }", policy.Ask}, // gawk, over a comment
	{"BEGIN { print \"x\",\n\n\"y\" > \"f\" }", policy.Ask},            // every awk, over a blank line
	{"BEGIN { print \"a\", # c\n# d\n\"b\" > \"f\" }", policy.Ask},     // every awk, over comments
	{"BEGIN { print \"a\" &&\n\"b\" > \"f\" }", policy.Ask},
	{"BEGIN { print \"a\" ||\n\n\"b\" > \"f\" }", policy.Ask},
	{"BEGIN { print 1 +\n2 > \"f\" }", policy.Ask}, // no awk reads on: guard does, and no program that runs is lost
	{"BEGIN { print \"x\" \\\n> \"f\" }", policy.Ask},
	{"BEGIN { print \"x\" \\ \n> \"f\" }", policy.Ask}, // mawk: a \ and spaces before the line break go on too
	{"BEGIN { printf \"%s\", \"x\" ?\n\"y\" : \"z\" >> \"f\" }", policy.Ask},
	{"BEGIN { print (\"x\",\n\"y\") > \"f\" }", policy.Ask},
	{"BEGIN { print (\"a\") (\"b\") > (\"f\" \"g\") }", policy.Ask},
	{"BEGIN { print \"x\" > \"f\" \".txt\" }", policy.Ask},
	{"BEGIN { print \"x\"\n}\nEND { print \"y\" }", policy.Allow},
	{"BEGIN { print \"x\" # > \"f\"\n}", policy.Allow},               // the > is in a comment
	{"BEGIN { print \"x\" # \\\n}", policy.Allow},                    // a comment ends at the line break, after a \ too
	{"{ print $1,\n$2 }", policy.Allow},                              // a comma goes on, to no redirection
	{"{ x = $1 > 2 ?\n\"big\" : \"small\"; print x }", policy.Allow}, // a > outside print compares
	{"{ if ($1 > 1)\nprint $2\nelse\nprint $3 }", policy.Allow},

	// A number and the name after it are two tokens in every awk:
	// 1system("id") calls system. gawk reads 0x1F as one number, and
	// an x or a p after a number into it.
	{"BEGIN { x = 1system(\"id\") }", policy.Deny},
	{"BEGIN { x = 1e5system(\"id\") }", policy.Deny},
	{"BEGIN { x = .5system(\"id\") }", policy.Deny},
	{"BEGIN { x = 0x1system(\"id\") }", policy.Ask},
	{"BEGIN { x = 12xsystem(\"id\") }", policy.Ask}, // gawk: 12x and system
	{"BEGIN { x = 1.5xsystem(\"id\") }", policy.Ask},
	{"BEGIN { x = 1psystem(\"id\") }", policy.Ask}, // newer gawk reads p into a number too
	{"BEGIN { x = 0x1F }", policy.Ask},
	{"BEGIN { x = 1e5 + 2.5e-3 + .5 + 10. }", policy.Allow},
	{"BEGIN { x = 1e }", policy.Allow}, // 1 and e, in every awk

	// getline from a file, however its variable is written.
	{"BEGIN { getline x[1][2] < \"f\" }", policy.Ask}, // gawk
	{"BEGIN { getline ($0) < \"f\" }", policy.Ask},    // mawk
	{"BEGIN { getline $ 0 < \"f\" }", policy.Ask},
	{"BEGIN { getline < \"f\" \"g\" }", policy.Ask},
	{"BEGIN { getline x < (\"f\") }", policy.Ask},
	{"BEGIN { \"date\" | getline d; close(\"date\") }", policy.Deny},
	{"BEGIN { print \"x\" |& \"cat\"; close(\"cat\") }", policy.Deny},
	{"{ print; fflush() }", policy.Allow},
	{"{ print > \"/dev/stderr\" }", policy.Ask},
	{"@namespace \"x\"", policy.Ask},
	{"BEGIN { print PROCINFO[\"pid\"] }", policy.Ask},
	{"BEGIN { for (k in ENVIRON) print k }", policy.Ask},

	// Escapes, comments and parentheses.
	{`{ print "a\"b" }`, policy.Allow},
	{`{ print "a\\" }`, policy.Allow},
	{`{ print "a\\"; print > "f" }`, policy.Ask},   // the string ends at the second "
	{`{ print "a\"; print > \"f" }`, policy.Allow}, // one string, to the last "
	{`/a\/b/ { gsub(/\//, "-"); print }`, policy.Allow},
	{"{ print \"a\\\nb\" }", policy.Ask},            // a string continued on the next line
	{"/a\\\nb/ { print }", policy.Ask},              // a regex literal continued on the next line
	{`{ print "#" > "f" }`, policy.Ask},             // a # in a string starts no comment
	{`/#/ { print > "f" }`, policy.Ask},             // nor in a regex literal
	{`{ print "a" } # ; print > "f"`, policy.Allow}, // the rest of the line is a comment
	{`{ print ("a"; "b") > "f" }`, policy.Ask},      // a ; inside parentheses ends no statement
	{"{ if ($1 > 0 &&\n$2 > 0) print }", policy.Allow},
	{`{ print; close("f"); fflush("") }`, policy.Allow},
}

// TestAwkMatchers checks the lexer's written-out matchers against the
// regexps they stand for, on every string of up to five bytes from an
// alphabet of the bytes they tell apart.
func TestAwkMatchers(t *testing.T) {
	t.Parallel() // the package's slowest under -race; pure, or in its own temp dir
	name := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*`)
	number := regexp.MustCompile(`^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?`)
	assign := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
	const alphabet = "09.eE+-aZ_=x/ "
	var check func(s string)
	check = func(s string) {
		if got, want := awkNameLen(s), len(name.FindString(s)); got != want {
			t.Errorf("awkNameLen(%q) = %d, want %d", s, got, want)
		}
		if got, want := awkNumberLen(s), len(number.FindString(s)); got != want {
			t.Errorf("awkNumberLen(%q) = %d, want %d", s, got, want)
		}
		if got, want := awkIsAssign(s), assign.MatchString(s); got != want {
			t.Errorf("awkIsAssign(%q) = %v, want %v", s, got, want)
		}
		if len(s) < 5 {
			for i := range len(alphabet) {
				check(s + alphabet[i:i+1])
			}
		}
	}
	check("")
	for _, s := range []string{"1.5e+10x", ".5E-3", "12xsystem", "0x1F", "1.e5", "1e", "1e+", ".e5", "abc_12=3", "_=", "9a=", "é=", "a\xff"} {
		check(s)
	}
}

func TestAwkProgram(t *testing.T) {
	for _, tc := range awkCases {
		v, err := awkProgram(tc.prog)
		if v != tc.want || (err == nil) != (tc.want == policy.Allow) {
			t.Errorf("%q: %s (%v), want %s", tc.prog, v, err, tc.want)
		}
	}
}

// awkAttacks are programs guard once allowed that reach out in at least
// one awk: each writes a file, runs a command or prints the secret.
// SECRET stands for the secret file's path.
var awkAttacks = []string{
	"BEGIN { print \"x\" ?\n\"y\" : \"z\" > \"out\" }",
	"BEGIN { print \"x\",\n\n\"y\" > \"out\" }",
	"BEGIN { print \"a\", # c\n# d\n\"b\" > \"out\" }",
	"BEGIN { x = 1system(\"touch pwned\") }",
	"BEGIN { x = 0x1system(\"touch pwned\") }",
	"BEGIN { x = 12xsystem(\"touch pwned\") }",
	"BEGIN { getline x[1][2] < \"SECRET\"; print x[1][2] }",
	"BEGIN { getline ($0) < \"SECRET\"; print }",
	"BEGIN { print \"x\" \\ \n> \"out\" }",
}

// awkShapes, awkAtoms, awkOpers, awkRedir and awkGaps are what random
// programs are made of: statements that reach out, apart into their
// tokens at each space, an E standing for an expression and an R for a
// redirection or none; the operands and operators of expressions; the
// redirections; and what may stand between two tokens: the line breaks,
// continuations and comments awks read differently.
var (
	awkShapes = []string{
		`print E ? E : E R`, `printf "%s", E ? E : E R`, `print E , E R`, `print E && E R`, `print E || E R`,
		`print ( E , E ) R`, `print E in a R`, `print E R ; print E R`, `if ( E ) print E R ; else print E R`,
		`x = E system("touch pwned")`, `x = E ? system("touch pwned") : E`, `x = E ENVIRON["AWK_SECRET"] ; print x`,
		`getline E < "SECRET" ; print`, `getline x [ E ] [ E ] < "SECRET" ; print x[1][2]`, `getline ( $0 ) < "SECRET" ; print`,
		`while ( ( getline l < "SECRET" ) > 0 ) print l`, `x = E ; print x`, `E`,
	}
	awkAtoms = []string{`"a"`, `1`, `x`, `$1`, `NR`, `/a/`, `length`, `1e2`, `.5`, `0`, `a[1]`, `$NF`, `(1)`, `!x`, `-1`, `x++`}
	awkOpers = []string{"?", ":", ",", "&&", "||", "+", "-", "*", "/", "%", "^", "<", ">", "==", "~", "in", "", "="}
	awkRedir = []string{`> "out"`, `>> "out"`, `> ( "o" "ut" )`, `| "cat"`, `> "o" "ut"`, ``, ``}
	awkGaps  = []string{" ", " ", " ", " ", "", "\n", "\n\n", "\\\n", " # c\n", "\\ \n", "\t"}
)

// awkRandom writes a random program from awkShapes.
func awkRandom(rng *rand.Rand) string {
	var b strings.Builder
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	var expr func(depth int)
	expr = func(depth int) {
		if depth > 1 || rng.IntN(3) > 0 {
			b.WriteString(pick(awkAtoms))
			return
		}
		expr(depth + 1)
		b.WriteString(pick(awkGaps))
		b.WriteString(pick(awkOpers))
		b.WriteString(pick(awkGaps))
		expr(depth + 1)
	}
	b.WriteString(pick([]string{"BEGIN {", "{", "NR==1 {", "END {"}))
	for range 1 + rng.IntN(2) {
		for _, tok := range strings.Split(pick(awkShapes), " ") {
			b.WriteString(pick(awkGaps))
			switch tok {
			case "E":
				expr(0)
			case "R":
				b.WriteString(pick(awkRedir))
			default:
				b.WriteString(tok)
			}
		}
		b.WriteString(pick([]string{";", "\n", " ; "}))
	}
	b.WriteString("}")
	return b.String()
}

// awkRun runs programs through an awk in bubblewrap, each in an empty
// directory of its own under dir, with in.txt as input, and returns
// what each printed and the files each made. SECRET in a program stands
// for the secret file's path. One shell runs them all, to start one
// sandbox and one process a program, each with two seconds of processor
// time and a little output (ulimit -f 200) at most.
func awkRun(t *testing.T, dir, secret string, awk []string, progs []string) (out []string, made [][]string) {
	t.Helper()
	for _, d := range []string{"w", "o"} {
		os.RemoveAll(filepath.Join(dir, d))
	}
	os.MkdirAll(filepath.Join(dir, "o"), 0o755)
	args := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--bind", dir, dir,
		"--unshare-all", "--die-with-parent", "--setenv", "AWK_SECRET", "the-env-secret-55d0", "--",
		"sh", "-c", `dir=$1 awk=$2; shift 2; cd "$dir/w"; i=0
for prog; do
	cd $i
	(ulimit -t 2; ulimit -f 200; exec $awk "$prog" ../../in.txt) >../../o/$i 2>&1 </dev/null
	cd ..; i=$((i+1))
done`,
		"sh", dir, strings.Join(awk, " ")}
	for i, p := range progs {
		os.MkdirAll(filepath.Join(dir, "w", strconv.Itoa(i)), 0o755)
		args = append(args, strings.ReplaceAll(p, "SECRET", secret))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if b, err := exec.CommandContext(ctx, "bwrap", args...).CombinedOutput(); err != nil {
		t.Fatalf("%s in bubblewrap: %v %s", awk[0], err, b)
	}
	for i := range progs {
		n := strconv.Itoa(i)
		b, _ := os.ReadFile(filepath.Join(dir, "o", n))
		out = append(out, string(b))
		ents, _ := os.ReadDir(filepath.Join(dir, "w", n))
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		made = append(made, names)
	}
	ents, _ := os.ReadDir(dir)
	if ws, _ := os.ReadDir(filepath.Join(dir, "w")); len(ents) != 4 || len(ws) != len(progs) {
		t.Errorf("%s: the programs made files outside their directories: %v, %d in w", awk[0], ents, len(ws))
	}
	return out, made
}

// awkAllows reports whether guard allows an awk program.
func awkAllows(prog string) bool {
	v, _ := awkProgram(prog)
	return v == policy.Allow
}

// TestAwkProgramReal runs every program guard allows through gawk, mawk,
// the one true awk and busybox's awk where there is one, in bubblewrap,
// with a scratch directory: the cases, the cases put together with
// pieces that reach out, and programs made at random from awk's edges.
// None may make a file, run a command, or print the secret or the
// environment. The attacks guard refuses must reach out in some awk, so
// that they show what guard refuses. Without bubblewrap or one of the
// three awks, the test is skipped.
func TestAwkProgramReal(t *testing.T) {
	var awks [][]string
	what := "awk"
	for _, name := range []string{"gawk", "mawk", "original-awk", "busybox"} {
		p, err := exec.LookPath(name)
		switch {
		case err != nil && name != "busybox":
			what = ""
		case err == nil && name == "busybox":
			awks = append(awks, []string{p, "awk"})
		case err == nil:
			awks = append(awks, []string{p})
		}
	}
	dir, _, secret := scratchWorld(t, what, "alpha 1 x\nbeta 200 y\nerror 3 z\n", "the-secret-a41b\n")
	var progs []string
	for _, tc := range awkCases {
		if tc.want == policy.Allow {
			progs = append(progs, tc.prog)
		}
	}
	reach := []string{
		`BEGIN { system("touch pwned") }`, `{ print > "out" }`, `{ print | "cat > out2" }`,
		`BEGIN { while ((getline l < "SECRET") > 0) print l }`, `BEGIN { print ENVIRON["AWK_SECRET"] }`,
		`BEGIN { ARGV[1] = "SECRET" } { print }`,
	}
	for _, p := range progs {
		for _, r := range reach {
			for _, joined := range []string{p + "\n" + r, r + "\n" + p, p + ";" + r} {
				if awkAllows(joined) {
					progs = append(progs, joined)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for generated := 0; generated < 100; {
		if p := awkRandom(rng); awkAllows(p) {
			progs = append(progs, p)
			generated++
		}
	}
	reached := make([]bool, len(awkAttacks))
	for _, awk := range awks {
		out, made := awkRun(t, dir, secret, awk, progs)
		for i, p := range progs {
			if len(made[i]) > 0 || strings.Contains(out[i], "secret-") {
				t.Errorf("%s %q, which guard allows, made %v or printed a secret: %q", filepath.Base(awk[0]), p, made[i], out[i])
			}
		}
		out, made = awkRun(t, dir, secret, awk, awkAttacks)
		for i := range awkAttacks {
			reached[i] = reached[i] || len(made[i]) > 0 || strings.Contains(out[i], "secret-")
		}
	}
	for i, p := range awkAttacks {
		if !reached[i] {
			t.Errorf("%q reached out in no awk: the case does not show what guard refuses", p)
		}
		if awkAllows(p) {
			t.Errorf("%q: guard allows it", p)
		}
	}
}
