// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Command guard is a fail-closed pre-tool hook for AI coding agents.
//
// Claude Code runs guard hook before every tool call, with the call as JSON
// on stdin; guard answers allow, ask or deny. Bash commands are parsed into a
// syntax tree and every simple command, wherever it hides, is checked against
// a TOML policy. Whatever guard does not positively understand, it denies.
//
// # Usage
//
//	guard hook [--agent NAME|auto] [--config FILE] [--read-only] [--shell bash|zsh|auto] [--ask ask|deny] [--deadline DURATION]
//	guard check [--json] [--show-policy] [--read-only] [--shell bash|zsh|auto] [--config FILE] [--cwd DIR] [--tool NAME --input JSON] [--] 'COMMAND'
//	guard test [--config FILE] [-v] FILES...
//	guard lint [--config FILE] [--json] [FILE...]
//	guard flags --agent claude [--config FILE] [--read-only]
//	guard run [--read-only] [--config FILE] [--cwd DIR] [--profile NAME] [--explain] -- PROGRAM ARGS...
//	guard shell -c COMMAND
//	guard suggest [--config FILE] [--cases GLOB] [--min N]
//	guard diff [--cases GLOB] [--log] [--json] OLD.toml NEW.toml
//	guard serve [--read-only] [--config FILE] [--shell bash|zsh]
//	guard init [--agent NAME] [--shell] [--scope project|user] [--read-only] [--dry-run] [--cwd DIR] [--binary PATH]
//	guard doctor [--agent NAME] [--cwd DIR] [--heartbeat]
//	guard grants list [--session ID] [--json] | revoke ID | --session ID | --all
//	guard log [--session ID] [--tool NAME] [--decision D] [--json] | guard log verify
//	guard schema
//	guard version
//
// guard hook reads one PreToolUse call from stdin. It uses the tool_name,
// tool_input, cwd and session_id fields and ignores the rest. Given a
// PostToolUse call, it records that the call ran (guard's own rewrite of a
// command to run under guard run as the call it allowed, in the sandbox's
// profile) and grants a tool of the session tier that ran, and answers
// nothing. With --read-only every call is decided in read-only
// mode, whatever the policy says. guard hook -h (or --help) is a deny like
// any bad argument: its help goes to stderr after the deny line, and it
// exits 2. Every other verb prints its help on stdout and exits 0.
//
// A Bash command is judged for the shell the agent runs it in. --shell
// states it; auto (the default) finds it as Claude Code does, from
// $CLAUDE_CODE_SHELL, else $SHELL, by base name: bash or zsh. Any other
// shell, or none, is unknown, and a command is then allowed only when it is
// safe both as bash and as zsh read it. guard check takes the same flag.
// Both also read the agent's locale ($LC_ALL, else $LC_CTYPE, else $LANG):
// outside C, POSIX and UTF-8 locales the shell splits non-ASCII text into
// characters differently, and a command holding a non-ASCII byte is denied.
//
// guard hook denies when it has not answered --deadline (default 3s) after
// its process started, and when SIGTERM, SIGINT or SIGHUP arrives after its
// first 20 ms, even while reading stdin, opening a policy file or writing
// its answer blocks; it ignores them before, and SIGPIPE throughout. The deadline is a backstop: the bounds on the input bound
// the work, and the most expensive call they allow takes well under a
// second on a loaded machine. Keep it below the agent's own hook timeout,
// which lets the call run when it passes.
//
// guard serve decides a stream of calls for an agent harness: one JSON
// object a line on stdin ({"id", "kind", "input", "cwd", "session"}), one
// answer a line on stdout ({"id", "decision", "reason", "hint", "rule",
// "rewrite"}), in order. A line it cannot judge gets a deny saying why, and
// the stream goes on; the policy file is loaded again when it changes.
//
// guard init registers guard as an agent's hook so that a failing hook
// blocks, merging into the agent's settings: the project's, or the
// user's (--scope user, the default for Codex and Copilot, which run a
// project's hooks only where their user trusts it); guard doctor proves the
// installation: the registration, the binary, the policy, canaries through
// the agent's protocol, and with --heartbeat a call through the agent
// itself, run headless once.
//
// guard shell is the $SHELL of an agent that has no hook (aider): the
// agent runs each command as $SHELL -c COMMAND, and guard shell judges
// COMMAND as guard hook judges a Bash call in the current directory, with
// the same policies. Allowed, it becomes bash --noprofile --norc -c with
// the command, or with the rewrite to run it under guard run, as the
// hook's answer would be: the command's streams and exit status are the
// agent's. Denied, or asked (there is no session and nobody to ask), it
// writes the deny lines on stderr and exits 126, running nothing. Any
// other command line (no -c, a script file, -l, -s, -o, +o, a long
// option, arguments after the command) is refused, exit 2; -i with -c is
// taken and not acted on: the command runs in a non-interactive bash,
// which reads no rc file. guard init --agent aider, or --shell for another
// agent, writes the guard-shell script that runs it, for $SHELL, and says
// how to start the agent with it.
//
// guard flags prints the Claude Code flags (--permission-mode,
// --allowedTools, --disallowedTools) that match the policy.
//
// guard run runs the program in a jail made from the policy: on Linux,
// new user, mount, PID, IPC and network namespaces; the
// system, the toolchains and git's configuration read-only, the build
// caches writable, a throwaway home, /tmp and /dev, its own /proc; the
// project read-only with its secrets hidden, where guard's supervisor (a
// seccomp notification) makes each change the policy lets the program
// make, and refuses the kept paths; no capability, no terminal to push
// input into, no process outside to see, and nothing left running when it
// ends. The rules come from the same policy layers as guard hook's;
// --explain prints them. It never runs a program unconfined: when the
// policy does not load or the kernel cannot make the jail it exits 125
// and runs nothing.
//
// guard check prints the decision on one command (or tool call), and for
// every part of it (each simple command, redirection, assignment and shell
// construct) the verdict, the rule and why.
//
// guard test decides every [[case]] of the given files, and every example of
// the policy's rules, and prints "N passed, N failed".
//
// # Policy
//
// With --config, guard uses that file alone. Otherwise the user's policy
// ($XDG_CONFIG_HOME/guard/guard.toml, else ~/.config/guard/guard.toml, else
// the embedded default) and the project's .guard/guard.toml, or
// .claude/guard.toml, not both (in $CLAUDE_PROJECT_DIR, else the call's
// cwd), decide together, and a call
// gets the stricter decision, unless the user's policy trusts the project
// policy by its sha256. A policy file that exists but does not load makes
// every call a deny; guard never falls back to another policy then.
//
// # Exit codes
//
//	verb     0                       1                2
//	hook     allow or ask (JSON out)  never            deny, and every error
//	check    allowed                  needs approval   denied, or could not decide
//	test     every case passed        a case failed    could not run
//	flags    printed                  never            bad arguments or policy
//	shell    the command's own status when guard allowed it and bash ran it; 126 when
//	         guard denied it (or it asked) and ran nothing; 2 for a command line it refuses
//	version  printed                  never            bad arguments
//
// # Limitations
//
// A hook is a guardrail, not a sandbox. An allowed go test or cargo test runs
// code from the repository, and repository configuration (.git/config,
// .cargo/config.toml) can run code too. guard judges the command line, not
// what the programs it allows then do.
package main
