// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

// guard shell is a $SHELL for an agent that has no hook guard could
// answer: the agent runs each command as $SHELL -c COMMAND, and guard
// judges COMMAND as guard hook judges a Bash call in the current
// directory, then runs it as the hook's answer would (under guard run,
// where the policy says so) or refuses it. The rules of this file:
//
//   - Nothing runs that guard has not judged. A command line guard shell
//     does not read exactly (no -c, a script file, an option bash would
//     act on, arguments after the command) is refused, exit 2, before
//     anything is judged: an agent may call its $SHELL in any of these
//     ways.
//   - Allowed, the process becomes bash (execve: the same process, its
//     streams, its signals and its exit status are the command's), without
//     the variables that make bash run other code or read the command
//     otherwise than guard judged it.
//   - Denied or asked (nobody can answer an ask here), stderr gets one
//     "guard: denied: WHY" line and "guard: hint: ..." lines, and guard
//     shell exits 126, the shell's status for a command it cannot
//     execute, running nothing.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"guard"
	"guard/internal/setup"
)

// shellRefused is guard shell's exit status when it judged the command
// and runs nothing: a deny, an ask, or bash not found. It is the shell's
// own status for a command it cannot execute, which no command's own
// failure (1, 2) is mistaken for.
const shellRefused = 126

// shellDropEnv are the variables bash would read at its start that make
// it run code of its own (BASH_ENV, ENV, PROMPT_COMMAND, PS4 with
// xtrace), turn on options guard did not judge the command under
// (SHELLOPTS, BASHOPTS), or read words and paths otherwise (CDPATH,
// GLOBIGNORE), or read the command by other rules than bash's own, which
// guard judges by (POSIXLY_CORRECT: an assignment before a special
// builtin stays, NO_COLOR=1 :; BASH_COMPAT=31: a quoted [[ =~ ]] pattern
// is a regular expression). Exported functions (BASH_FUNC_*) go too.
var shellDropEnv = []string{"BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PROMPT_COMMAND", "PS4", "CDPATH", "GLOBIGNORE", "POSIXLY_CORRECT", "BASH_COMPAT"}

// runShell is guard shell: it reads bash's command line (see
// shellInvocation), decides the command with guard.ShellCommand, and runs
// what that returns in bash --noprofile --norc -c, in this process.
func runShell(_ context.Context, s stdio, env getenv, args []string) error {
	command, help, err := shellInvocation(args)
	switch {
	case help:
		fs := newFlagSet("shell", s)
		printHelp(s.out, fs)
		return nil
	case err != nil:
		return usageError(s, "shell", "%v; nothing was run", err)
	}
	deadline := s.start.Add(defaultDeadline)
	var claim atomic.Int32 // 0, then 1 when the decision runs the command or 2 when the deadline denies
	late := time.AfterFunc(time.Until(deadline), func() {
		if claim.CompareAndSwap(0, 2) {
			writeDeny(s, deny("the decision took longer than the %s deadline", defaultDeadline))
			if s.exit != nil {
				s.exit(shellRefused)
			}
		}
	})
	defer late.Stop()
	refuse := func(err error) error {
		if !claim.CompareAndSwap(0, 2) {
			return &exitError{code: shellRefused}
		}
		writeDeny(s, err)
		return &exitError{code: shellRefused}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return refuse(deny("the working directory: %v", err))
	}
	run, noRun := runCommand(setup.GuardBinary(), "", false)
	line, err := guard.ShellCommand(command, cwd, guard.HookOptions{Deadline: deadline, Run: run, NoRun: noRun, Env: env, Warn: s.err})
	if err != nil {
		return refuse(err)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		return refuse(deny("guard shell runs commands in bash, and finds none: %v", err))
	}
	if !claim.CompareAndSwap(0, 1) {
		return &exitError{code: shellRefused} // the deadline denied
	}
	if s.exec == nil {
		return refuse(deny("guard shell cannot start bash here"))
	}
	err = s.exec(bash, []string{"bash", "--noprofile", "--norc", "-c", line}, shellEnv(os.Environ()))
	// execve returned: nothing ran.
	fmt.Fprintf(s.err, "guard: denied: starting %s: %v\n", bash, err)
	return &exitError{code: shellRefused}
}

// shellInvocation reads guard shell's arguments as bash reads its own,
// and returns the command string of the one form it runs: options that
// are -c, and -i, alone or bundled (-c, -i -c, -ic), then the command and
// nothing after it. help is set for -h, -help or --help alone. Every other
// command line is an error that says why: bash would run something else
// than a command guard judged, or read more than the command.
//
// -i, interactive, is taken and not acted on: aider (0.86) runs its
// commands as $SHELL -i -c COMMAND where it has a terminal, and the
// interactive shell would read ~/.bashrc (aliases, functions) before the
// command. guard shell runs the command as it judged it, in a
// non-interactive bash that reads no file first.
func shellInvocation(args []string) (command string, help bool, err error) {
	if len(args) == 1 && slices.Contains([]string{"-h", "-help", "--help"}, args[0]) {
		return "", true, nil
	}
	c := false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "-" || a == "--" || !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") {
			break
		}
		if err := shellOption(a); err != nil {
			return "", false, err
		}
		c = c || strings.HasPrefix(a, "-") && strings.Contains(a, "c")
	}
	rest := args[i:]
	switch {
	case len(rest) > 0 && (rest[0] == "--" || rest[0] == "-"):
		return "", false, fmt.Errorf("%q: the command goes right after the options, without a %s", rest[0], rest[0])
	case !c && len(rest) > 0:
		return "", false, fmt.Errorf("a script file (%q): only a command given with -c runs here", rest[0])
	case !c:
		return "", false, errors.New("no -c COMMAND: no interactive shell runs here, nor commands read from the input")
	case len(rest) == 0:
		return "", false, errors.New("-c: want a command after the options")
	case len(rest) > 1:
		return "", false, fmt.Errorf("arguments after the command (%q): bash would make them $0, $1, ..., which guard does not judge", rest[1:])
	}
	return rest[0], false, nil
}

// shellOption checks one option word of bash's command line: a bundle of
// c and i after one -.
func shellOption(a string) error {
	switch {
	case strings.HasPrefix(a, "--"):
		return fmt.Errorf("option %s: only -c COMMAND is taken (and -i, which is ignored), no long option", a)
	case strings.HasPrefix(a, "+"):
		return fmt.Errorf("option %s: only -c COMMAND is taken (and -i, which is ignored), no option that bash would set", a)
	}
	for _, r := range a[1:] {
		switch r {
		case 'c', 'i':
		case 'l':
			return fmt.Errorf("option %s: a login shell reads the profile files first, which guard does not judge", a)
		case 's':
			return fmt.Errorf("option %s: bash would read commands from its input, which guard does not judge", a)
		default:
			return fmt.Errorf("option %s: only -c COMMAND is taken (and -i, which is ignored), not -%c, which bash would act on", a, r)
		}
	}
	return nil
}

// shellEnv is the environment bash starts in: environ without
// shellDropEnv and the exported functions.
func shellEnv(environ []string) []string {
	return slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(shellDropEnv, name) || strings.HasPrefix(name, "BASH_FUNC_")
	})
}
