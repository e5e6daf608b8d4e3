// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"guard/agent"
	"guard/internal/setup"
	"guard/policy"
)

// stdio is what a run gets of its process: the three streams, the time the
// process started, and exit, which ends the process at once. guard hook
// measures its deadline from start and ends the process itself through
// exit (see runHook); in tests start is the time of the call and exit is
// nil or records the code.
type stdio struct {
	in       io.Reader
	out, err io.Writer
	start    time.Time
	exit     func(code int)
	// signals says that the run is the whole process, whose signal
	// dispositions it may change: guard hook ignores the signals that
	// would kill it.
	signals bool
	// exec replaces the process with a program (execve): guard shell
	// runs the command it allowed so. Nil, guard shell runs nothing.
	exec func(path string, argv, env []string) error
}

// getenv reads an environment variable; tests pass their own.
type getenv func(string) string

// command is one verb of the CLI.
type command struct {
	name  string
	usage string
	short string
	run   func(ctx context.Context, s stdio, env getenv, args []string) error
}

var commands []*command

func init() {
	commands = []*command{
		{"hook", "guard hook [--agent NAME|auto] [--config FILE] [--read-only] [--shell bash|zsh|auto] [--ask ask|deny] [--deadline DURATION]", "decide an agent's tool call read from stdin, in that agent's protocol", runHook},
		{"check", "guard check [--json] [--show-policy] [--read-only] [--shell bash|zsh|auto] [--config FILE] [--cwd DIR] [--tool NAME --input JSON] [--] 'COMMAND'", "decide a command or tool call, and say why, exiting 0, 1 or 2 for allow, ask or deny", runCheck},
		{"explain", "guard explain [--json] [--color auto|always|never] [--read-only] [--shell bash|zsh|auto] [--config FILE] [--cwd DIR] [--tool NAME --input JSON] [--] 'COMMAND'", "show how guard reads a command, word by word, and which part decides", runExplain},
		{"flags", "guard flags --agent claude [--config FILE] [--read-only]", "print the agent's flags that match the policy", runFlags},
		{"test", "guard test [--config FILE] FILES...", "run [[case]] files and the policy's examples", runTest},
		{"lint", "guard lint [--config FILE] [--json] [FILE...]", "flag what policies allow too broadly, for policy authors and CI", runLint},
		{"suggest", "guard suggest [--config FILE] [--cases GLOB] [--min N]", "propose rules for what the decision log shows was asked for want of one", runSuggest},
		{"diff", "guard diff [--cases GLOB] [--log] [--json] OLD.toml NEW.toml", "replay calls under two policies and print every verdict that changes, widenings first", runDiff},
		{"serve", "guard serve [--read-only [--read-only-shell]] [--search-globs] [--config FILE] [--shell bash|zsh]", "decide a stream of a harness's calls, a JSON object a line", runServe},
		{"shell", "guard shell -c COMMAND", "be an agent's $SHELL: judge COMMAND as guard hook judges a Bash call, then run it as the hook's answer would, or refuse it (exit 126)", runShell},
		{"run", "guard run [--read-only] [--config FILE] [--cwd DIR] [--profile NAME] [--explain] -- PROGRAM ARGS...", "run a program in the sandbox the policy gives the project", runSandboxed},
		{"init", "guard init [--agent NAME] [--shell] [--scope project|user] [--read-only] [--dry-run] [--cwd DIR] [--binary PATH]", "install guard as the agent's hook, failing closed, or for an agent with no hook (aider, --shell) the guard-shell script for its $SHELL", runInit},
		{"doctor", "guard doctor [--agent NAME] [--cwd DIR] [--heartbeat]", "prove that the installed hook runs and blocks what guard denies", runDoctor},
		{"grants", "guard grants list [--session ID] [--json] | revoke ID | --session ID | --all", "list and revoke the session tier's grants", runGrants},
		{"log", "guard log [--session ID] [--tool NAME] [--decision D] [--json] | guard log verify", "reconstruct sessions from the decision log, or verify it", runLog},
		{"schema", "guard schema", "print the JSON Schema of guard.toml, for editors", runSchema},
		{"version", "guard version", "print guard's version", runVersion},
		{"help", "guard help [VERB]", "print this help, or a verb's", runHelp},
	}
}

// subverbs says what a verb's verbs do, for their help.
var subverbs = map[string]string{
	"grants list":   "list the session tier's grants",
	"grants revoke": "revoke a grant by its ID, every grant of a session, or every grant",
	"log verify":    "check the decision log's chains: every line of every session in order, none edited, removed, inserted or moved; exit 0 when every chain is whole, 1 when one is not or the log cannot be read",
}

// exitError ends the process with a code, after its message (if any) has
// been written.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string {
	if e.msg == "" {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.msg
}

func (e *exitError) ExitCode() int { return e.code }

// run is guard without the process: main only maps its error to a code.
func run(ctx context.Context, args []string, s stdio, env getenv) (err error) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(s.err, "guard: denied: internal error: %v\n", r)
			err = &exitError{code: 2}
		}
	}()
	if len(args) == 0 {
		printUsage(s.err)
		return &exitError{code: 2}
	}
	if args[0] == "--help" || args[0] == "-h" || args[0] == "-help" {
		return runHelp(ctx, s, env, args[1:])
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(ctx, s, env, args[1:])
		}
	}
	fmt.Fprintf(s.err, "guard: unknown command %q\n", args[0])
	if typo := verbTypo(args[0], "guard ", verbNames()); typo != "" {
		fmt.Fprintf(s.err, "guard: %s\nguard help lists every verb\n", typo)
	} else {
		printUsage(s.err)
	}
	return &exitError{code: 2}
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-80s %s\n", c.usage, c.short)
	}
}

// runHelp prints guard's help, or a verb's: guard help VERB is VERB --help.
func runHelp(ctx context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("help", s)
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil {
		return &exitError{code: 2} // the flag package said why
	}
	args = fs.Args()
	if len(args) == 0 {
		fmt.Fprintln(s.out, "guard is a fail-closed pre-tool hook and policy engine for AI coding agents.")
		printUsage(s.out)
		fmt.Fprintln(s.out, "\nguard help VERB, or guard VERB --help, describes a verb and its flags.")
		return nil
	}
	if len(args) > 1 {
		return usageError(s, "help", "want one verb, got %d", len(args))
	}
	for _, c := range commands {
		switch {
		case c.name != args[0]:
		case c.name == "hook":
			fs, _, _, _, _, _, _ := hookFlags(s)
			printHelp(s.out, fs)
			return nil
		default:
			return c.run(ctx, s, env, []string{"--help"})
		}
	}
	if typo := verbTypo(args[0], "guard ", verbNames()); typo != "" {
		return usageError(s, "help", "no verb %q: %s", args[0], typo)
	}
	return usageError(s, "help", "no verb %q: the verbs are %s", args[0], strings.Join(verbNames(), ", "))
}

// verbNames are guard's verbs, as commands lists them.
func verbNames() []string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	return names
}

func runSchema(_ context.Context, s stdio, _ getenv, args []string) error {
	if helped, err := noArgs("schema", s, args); helped || err != nil {
		return err
	}
	_, err := s.out.Write(policy.Schema())
	return err
}

func runVersion(_ context.Context, s stdio, _ getenv, args []string) error {
	if helped, err := noArgs("version", s, args); helped || err != nil {
		return err
	}
	fmt.Fprintf(s.out, "guard %s\n", version())
	return nil
}

func version() string { return setup.Version() }

// usageError reports a bad command line, what is wrong (format: nothing
// when it is "") and the verb's usage; every verb exits 2 for it.
func usageError(s stdio, name, format string, a ...any) error {
	if format != "" {
		fmt.Fprintf(s.err, "guard %s: %s\n", name, fmt.Sprintf(format, a...))
	}
	for _, c := range commands {
		if c.name == name {
			fmt.Fprintf(s.err, "usage: %s\n", c.usage)
		}
	}
	return &exitError{code: 2}
}

// argsError is usageError for a command line that parseFlags parsed: err,
// which the flag package has said already, or else what format says.
func argsError(s stdio, name string, err error, format string, a ...any) error {
	if err != nil {
		format = ""
	}
	return usageError(s, name, format, a...)
}

func newFlagSet(name string, s stdio) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(s.err)
	fs.Usage = func() {} // a bad flag's error line is enough: usageError prints the usage
	return fs
}

// parseFlags parses a verb's arguments. With -h or --help it prints the
// verb's help on stdout and reports that it did: the verb then returns
// nil, having done nothing else. An unknown flag near a known one is
// named with what it may have meant.
func parseFlags(fs *flag.FlagSet, s stdio, args []string) (helped bool, err error) {
	err = fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		printHelp(s.out, fs)
		return true, nil
	}
	if err != nil {
		// After the flag package's own line: what a mistyped flag meant.
		if typo := flagTypo(fs, err); typo != "" {
			fmt.Fprintf(s.err, "guard %s: %s\n", fs.Name(), typo)
		}
	}
	return false, err
}

// noArgs parses the command line of a verb (or a verb's verb: "log
// verify") that takes no flags and no arguments but -h and --help.
func noArgs(name string, s stdio, args []string) (helped bool, err error) {
	fs := newFlagSet(name, s)
	if helped, err := parseFlags(fs, s, args); helped {
		return true, nil
	} else if err != nil {
		return false, &exitError{code: 2} // the flag package said why
	}
	if fs.NArg() > 0 {
		verb, sub, _ := strings.Cut(name, " ")
		if sub != "" {
			sub += ": "
		}
		return false, usageError(s, verb, "%swant no arguments, got %q", sub, fs.Arg(0))
	}
	return false, nil
}

// printHelp prints a verb's help: its usage, what it does, and its flags
// as guard takes them, GNU style.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	usage := false
	for _, c := range commands {
		if c.name == fs.Name() {
			fmt.Fprintf(w, "usage: %s\n\n%s.\n", c.usage, c.short)
			usage = true
		}
	}
	if !usage {
		flags := ""
		fs.VisitAll(func(*flag.Flag) { flags = " [flags]" })
		fmt.Fprintf(w, "usage: guard %s%s\n", fs.Name(), flags)
		if short := subverbs[fs.Name()]; short != "" {
			fmt.Fprintf(w, "\n%s.\n", short)
		}
	}
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprintf(w, "\nflags:\n")
			first = false
		}
		value, usage := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		line := "  " + dash + f.Name
		if value != "" {
			line += " " + strings.ToUpper(value)
		}
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "0s" {
			usage += fmt.Sprintf(" (default %s)", d)
		}
		fmt.Fprintf(w, "%s\n      %s\n", line, usage)
	})
}

// oneLine flattens a message for a single output line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// callShell returns the shell for a call from the --shell flag: bash or
// zsh as stated, auto as agentShell finds it.
func callShell(flag, agentName string, env getenv) (string, error) {
	switch flag {
	case "bash", "zsh":
		return flag, nil
	case "auto":
		return agent.Shell(agentName, env), nil
	}
	return "", fmt.Errorf("--shell %q: want bash, zsh or auto", flag)
}
