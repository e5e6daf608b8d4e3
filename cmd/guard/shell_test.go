// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"guard/sandbox"
)

// TestShellInvocation: guard shell runs the command of -c COMMAND (with
// -i, bundled or not) and refuses every other command line bash takes,
// saying why.
func TestShellInvocation(t *testing.T) {
	tests := []struct {
		args    []string
		command string
		err     string // "" for none
	}{
		// The forms it runs.
		{[]string{"-c", "ls"}, "ls", ""},
		{[]string{"-i", "-c", "ls -l"}, "ls -l", ""},
		{[]string{"-c", "-i", "ls"}, "ls", ""},
		{[]string{"-ic", "ls"}, "ls", ""},
		{[]string{"-ci", "ls"}, "ls", ""},
		{[]string{"-c", ""}, "", ""},
		{[]string{"-c", "a b\nc"}, "a b\nc", ""},

		// No command.
		{nil, "", "no -c COMMAND: no interactive shell runs here, nor commands read from the input"},
		{[]string{"-i"}, "", "no -c COMMAND: no interactive shell runs here, nor commands read from the input"},
		{[]string{"-c"}, "", "-c: want a command after the options"},
		{[]string{"-ic"}, "", "-c: want a command after the options"},
		{[]string{"script.sh"}, "", `a script file ("script.sh"): only a command given with -c runs here`},
		{[]string{"-i", "script.sh"}, "", `a script file ("script.sh"): only a command given with -c runs here`},
		{[]string{"-"}, "", `"-": the command goes right after the options, without a -`},
		{[]string{"-c", "--", "ls"}, "", `"--": the command goes right after the options, without a --`},

		// $0 and $1...
		{[]string{"-c", "echo $0", "name"}, "", `arguments after the command (["name"]): bash would make them $0, $1, ..., which guard does not judge`},
		{[]string{"-c", "echo $1", "name", "arg"}, "", `arguments after the command (["name" "arg"]): bash would make them $0, $1, ..., which guard does not judge`},

		// Options bash would act on.
		{[]string{"-l", "-c", "ls"}, "", "option -l: a login shell reads the profile files first, which guard does not judge"},
		{[]string{"-lc", "ls"}, "", "option -lc: a login shell reads the profile files first, which guard does not judge"},
		{[]string{"-cl", "ls"}, "", "option -cl: a login shell reads the profile files first, which guard does not judge"},
		{[]string{"-s", "-c", "ls"}, "", "option -s: bash would read commands from its input, which guard does not judge"},
		{[]string{"-o", "errexit", "-c", "ls"}, "", "option -o: only -c COMMAND is taken (and -i, which is ignored), not -o, which bash would act on"},
		{[]string{"-c", "-e", "ls"}, "", "option -e: only -c COMMAND is taken (and -i, which is ignored), not -e, which bash would act on"},
		{[]string{"-cx", "ls"}, "", "option -cx: only -c COMMAND is taken (and -i, which is ignored), not -x, which bash would act on"},
		{[]string{"+o", "posix", "-c", "ls"}, "", "option +o: only -c COMMAND is taken (and -i, which is ignored), no option that bash would set"},
		{[]string{"+B", "-c", "ls"}, "", "option +B: only -c COMMAND is taken (and -i, which is ignored), no option that bash would set"},
		{[]string{"--rcfile", "x", "-c", "ls"}, "", "option --rcfile: only -c COMMAND is taken (and -i, which is ignored), no long option"},
		{[]string{"--norc", "-c", "ls"}, "", "option --norc: only -c COMMAND is taken (and -i, which is ignored), no long option"},
		{[]string{"--login", "-c", "ls"}, "", "option --login: only -c COMMAND is taken (and -i, which is ignored), no long option"},
		{[]string{"-c", "--posix", "ls"}, "", "option --posix: only -c COMMAND is taken (and -i, which is ignored), no long option"},
		{[]string{"-c", "-o"}, "", "option -o: only -c COMMAND is taken (and -i, which is ignored), not -o, which bash would act on"},
		{[]string{"-h", "-c", "ls"}, "", "option -h: only -c COMMAND is taken (and -i, which is ignored), not -h, which bash would act on"},
	}
	for _, tc := range tests {
		t.Logf("input: %q", tc.args)
		command, help, err := shellInvocation(tc.args)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if command != tc.command || got != tc.err || help {
			t.Errorf("shellInvocation(%q) = %q, help %v, error %q; want %q, error %q", tc.args, command, help, got, tc.command, tc.err)
		}
	}
	for _, h := range []string{"-h", "-help", "--help"} {
		if _, help, err := shellInvocation([]string{h}); !help || err != nil {
			t.Errorf("shellInvocation(%q): help %v, error %v; want help", h, help, err)
		}
	}
}

// TestShellEnv: bash starts without the variables that would run code or
// read the command otherwise than guard judged it, and with every other.
func TestShellEnv(t *testing.T) {
	in := []string{"PATH=/usr/bin", "BASH_ENV=/tmp/x", "ENV=/tmp/y", "SHELLOPTS=xtrace", "BASHOPTS=extglob", "PROMPT_COMMAND=id",
		"PS4=$(id)", "CDPATH=/etc", "GLOBIGNORE=*", "BASH_FUNC_ls%%=() { id; }", "HOME=/home/me", "BASH_ENVX=kept", "LANG=C.UTF-8"}
	want := []string{"PATH=/usr/bin", "HOME=/home/me", "BASH_ENVX=kept", "LANG=C.UTF-8"}
	if got := shellEnv(in); !slices.Equal(got, want) {
		t.Errorf("shellEnv = %q, want %q", got, want)
	}
	// With the real bash, builtins only: the variables that make bash read
	// a command by other rules than guard judged it by are gone.
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, tc := range []struct{ env, command, plain string }{
		{"POSIXLY_CORRECT=1", "NO_COLOR=1 :; echo \"[$NO_COLOR]\"", "[]"},
		{"BASH_COMPAT=31", `[[ axb =~ "a.b" ]] && echo match || echo no`, "no"},
	} {
		run := func(environ []string) string {
			cmd := exec.Command(bash, "--noprofile", "--norc", "-c", tc.command)
			cmd.Env = environ
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v", tc.command, err)
			}
			return strings.TrimSpace(string(out))
		}
		environ := []string{"PATH=/usr/bin:/bin", tc.env}
		if got := run(environ); got == tc.plain {
			t.Fatalf("%s: bash reads %q alike without it (%q): the test shows nothing", tc.env, tc.command, got)
		}
		if got := run(shellEnv(environ)); got != tc.plain {
			t.Errorf("%s: in guard shell's environment, %q prints %q, want %q", tc.env, tc.command, got, tc.plain)
		}
	}
}

// TestShellRuns: an allowed command becomes bash -c with the command (or
// guard run's rewrite of it), in an environment without BASH_ENV; a
// denied or asked one runs nothing and exits 126 with the deny lines.
func TestShellRuns(t *testing.T) {
	home := t.TempDir()
	t.Chdir(t.TempDir())
	t.Setenv("BASH_ENV", "/tmp/bash-env")
	env := func(name string) string {
		if name == "HOME" {
			return home
		}
		return ""
	}
	type ran struct {
		path       string
		argv, envv []string
	}
	shell := func(command string) (*ran, int, string) {
		var r *ran
		var errb bytes.Buffer
		s := stdio{in: strings.NewReader(""), out: &bytes.Buffer{}, err: &errb, start: time.Now(),
			exec: func(path string, argv, envv []string) error {
				r = &ran{path, argv, envv}
				return errors.New("not run")
			}}
		err := run(context.Background(), []string{"shell", "-c", command}, s, env)
		return r, exitCode(err), errb.String()
	}

	t.Run("allowed", func(t *testing.T) {
		t.Setenv("GUARD_TEST_NO_SANDBOX", "1")
		r, _, _ := shell("git status && ls | head -3")
		if r == nil {
			t.Fatal("nothing was run")
		}
		if filepath.Base(r.path) != "bash" || !slices.Equal(r.argv, []string{"bash", "--noprofile", "--norc", "-c", "git status && ls | head -3"}) {
			t.Errorf("ran %s %q", r.path, r.argv)
		}
		if slices.ContainsFunc(r.envv, func(kv string) bool { return strings.HasPrefix(kv, "BASH_ENV=") }) {
			t.Errorf("BASH_ENV is in bash's environment")
		}
	})
	t.Run("rewritten", func(t *testing.T) {
		t.Setenv("GUARD_TEST_NO_SANDBOX", "")
		if err := sandbox.Available(); err != nil {
			t.Skipf("guard run's sandbox cannot run here: %v", err)
		}
		r, _, _ := shell("ls")
		if r == nil {
			t.Fatal("nothing was run")
		}
		self, _ := os.Executable()
		want := "'" + self + "' 'run' "
		if len(r.argv) != 5 || !strings.HasPrefix(r.argv[4], want) || !strings.HasSuffix(r.argv[4], "-- bash --noprofile --norc -c 'ls'") {
			t.Errorf("ran %q, want bash -c %s... -- bash --noprofile --norc -c 'ls'", r.argv, want)
		}
	})
	for _, tc := range []struct{ command, stderr string }{
		{"rm -rf ~", "guard: denied: rm -r: it deletes directories recursively (rule rm -r, policy default)\nguard: hint: delete single files, or ask the user\n"},
		{"touch x", "guard: denied: touch needs approval once in this session; once approved, the session is granted rule touch (guard shell cannot ask: the agent runs its $SHELL without a hook) (rule touch, policy default)\n" +
			"guard: hint: the edit tools write and create files, asked once a directory; this command asks once a session\n" +
			"guard: hint: ask the user to run it, or to allow it in guard's policy\n"},
	} {
		t.Run(tc.command, func(t *testing.T) {
			t.Setenv("GUARD_TEST_NO_SANDBOX", "1")
			r, code, stderr := shell(tc.command)
			if r != nil || code != shellRefused || stderr != tc.stderr {
				t.Errorf("ran %v, exit %d, stderr %q; want nothing run, exit %d, stderr %q", r, code, stderr, shellRefused, tc.stderr)
			}
		})
	}
}
