// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
}

func TestAwkProgram(t *testing.T) {
	for _, tc := range awkCases {
		v, err := awkProgram(tc.prog)
		if v != tc.want || (err == nil) != (tc.want == policy.Allow) {
			t.Errorf("%q: %s (%v), want %s", tc.prog, v, err, tc.want)
		}
	}
}

// TestAwkProgramReal runs every program guard allows through each awk
// installed here (mawk, gawk, the one true awk) in bubblewrap, with a
// scratch directory, and programs made to reach out: no file may appear,
// no command run, and neither the secret nor the environment be read.
func TestAwkProgramReal(t *testing.T) {
	var awks []string
	for _, name := range []string{"mawk", "gawk", "original-awk", "busybox"} {
		if p, err := exec.LookPath(name); err == nil {
			awks = append(awks, p)
		}
	}
	what := ""
	if len(awks) > 0 {
		what = "awk"
	}
	dir, in, secret := scratchWorld(t, what, "alpha 1 x\nbeta 200 y\nerror 3 z\n", "the-secret-a41b\n")
	progs := []string{}
	for _, tc := range awkCases {
		if tc.want == policy.Allow {
			progs = append(progs, tc.prog)
		}
	}
	// Pieces that reach out, put after allowed programs and around them.
	reach := []string{
		`BEGIN { system("touch pwned") }`, `{ print > "out" }`, `{ print | "cat > out2" }`,
		`BEGIN { while ((getline l < "` + secret + `") > 0) print l }`, `BEGIN { print ENVIRON["AWK_SECRET"] }`,
		`BEGIN { ARGV[1] = "` + secret + `" } { print }`,
	}
	for _, p := range progs {
		for _, r := range reach {
			for _, joined := range []string{p + "\n" + r, r + "\n" + p, p + ";" + r} {
				if v, _ := awkProgram(joined); v == policy.Allow {
					progs = append(progs, joined)
				}
			}
		}
	}
	for _, bin := range awks {
		args := []string{bin}
		if strings.HasSuffix(bin, "busybox") {
			args = append(args, "awk")
		}
		for _, p := range progs {
			cmd := exec.Command("bwrap", append([]string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
				"--bind", dir, dir, "--unshare-all", "--die-with-parent", "--chdir", dir, "--setenv", "AWK_SECRET", "the-env-secret-55d0", "--"},
				append(args, p, in)...)...)
			out, _ := cmd.CombinedOutput()
			ents, _ := os.ReadDir(dir)
			if len(ents) != 2 || strings.Contains(string(out), "secret-") {
				for _, e := range ents {
					if e.Name() != "in.txt" && e.Name() != "secret" {
						os.RemoveAll(filepath.Join(dir, e.Name()))
					}
				}
				t.Errorf("%s %q, which guard allows, reached out: %d entries, output %q", filepath.Base(bin), p, len(ents), out)
			}
		}
	}
}
