// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

// How guard hook talks to the agent (the rules of this file):
//
//   - Allow and ask: exit 0 and one JSON object on stdout, nothing else
//     (or nothing at all, where that is the agent's answer: the allow of
//     Codex, Kiro CLI, Windsurf and goose).
//   - Deny: exit 2, nothing on stdout, and on stderr one line
//     "guard: denied: WHY" followed by "guard: hint: ..." lines that say what
//     is allowed instead (after them, guard hook -h alone writes its
//     help). Claude Code hands stderr to the model, so it is
//     written for the model: what was denied, which rule, what to do. Where
//     an agent takes only JSON for a deny (a PermissionRequest, Antigravity),
//     the adapter answers the deny as JSON, exit 0, with the same text;
//     where it reads the reason from JSON and blocks on exit 2 too
//     (Copilot), both: the JSON on stdout, then the deny lines and exit 2.
//     Where the agent runs a call whose hook exits 2 with nothing on
//     stdout (Cline), a deny that comes before a decision (an input guard
//     cannot judge, a policy that does not load) has its JSON too.
//   - Every error, a panic, input over a bound and a missed deadline are
//     denies. No other exit code ever leaves this verb: in Claude Code only
//     exit 2 blocks, and exit 1 would let the call run.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"guard"
	"guard/agent"
	"guard/engine"
	"guard/internal/setup"
	"guard/sandbox"
)

// defaultDeadline is how long guard hook may take, from the start of its
// process, before it denies. It is a backstop, not a budget: the bounds on
// the input (maxHookInput, and the parser's and the engine's limits) bound
// the work. The most expensive call they allow, bench/input's Worst judged
// for an unknown shell (as bash and as zsh), took at most 63 ms on a
// 2-core machine with little else running, and at most 347 ms with two
// busy loops on its two cores. Three seconds is eight times that, and well
// below the 10 s timeout the README registers guard with: a hook that
// times out there lets the call run.
const defaultDeadline = 3 * time.Second

// denyGrace bounds how long guard hook waits for its deny line when stderr
// blocks; past it, it exits 2 without one. Exit 2 blocks the call either way.
const denyGrace = 500 * time.Millisecond

// hookSignals would end guard hook unanswered: without a handler a Go
// program dies of SIGTERM, SIGINT and SIGHUP, and of SIGPIPE on a write to
// a closed stdout or stderr, and a death by signal lets the call run.
//
// guard hook ignores them from its start, which costs a system call each,
// and installs a handler for the stopping signals only when it is still
// running after signalDelay: a handler costs a goroutine and an OS thread,
// about a sixth of the whole run of a typical call. A signal while they
// are ignored is lost, and the run ends as it would have; a signal after
// signalDelay ends the run in a deny at once. SIGPIPE stays ignored: a
// write to a closed pipe then fails with EPIPE, which is a deny, and a
// SIGPIPE sent by kill is lost. (Go's runtime hands a SIGPIPE that reaches
// an idle thread to the disposition it found, so a handler installed over
// an ignored SIGPIPE would miss some of them.)
var hookSignals = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGPIPE}

// stopSignals are the hookSignals that a handler turns into a deny.
var stopSignals = hookSignals[:3]

// signalDelay is how long guard hook runs with hookSignals ignored before
// it installs their handler. A typical call has been answered by then.
const signalDelay = 20 * time.Millisecond

// maxReason bounds the reason Claude Code shows; it cuts longer strings.
const maxReason = setup.MaxReason

// denial is a deny with its reason and hints, as the hook writes it.
type denial = agent.Denial

func deny(format string, a ...any) *denial {
	return &denial{Why: fmt.Sprintf(format, a...)}
}

// runHook decides one call on this goroutine, with a watchdog behind it:
// the decision reads stdin and the file system and writes stdout, and any of
// these can block forever. The watchdog is a timer, not a goroutine: when
// the deadline passes, a signal arrives or ctx is done while the decision
// runs, it writes the deny and ends the process through s.exit, whatever
// the decision is doing. Whoever ends the run first, the decision or the
// watchdog, calls s.exit; runHook returns that end's error.
func runHook(ctx context.Context, s stdio, env getenv, args []string) error {
	if s.signals {
		signal.Ignore(hookSignals...)
	}
	fs, config, deadline, readOnly, shellFlag, askFlag, agentFlag := hookFlags(s)
	// A bad command line is denied like any other call: through the
	// decision, whose writes the watchdog bounds.
	var bad error
	err := fs.Parse(args)
	_, shellErr := callShell(*shellFlag, "", env)
	switch {
	case errors.Is(err, flag.ErrHelp):
		var help strings.Builder
		printHelp(&help, fs)
		bad = &hookHelp{help: help.String()}
	case err != nil:
		d := deny("bad hook arguments: %v", err)
		d.Hints = []string{flagTypo(fs, err)}
		bad = d
	case fs.NArg() > 0:
		bad = deny("guard hook takes no arguments, got %q", fs.Arg(0))
	case *deadline <= 0:
		bad = deny("--deadline must be positive")
	case shellErr != nil:
		bad = deny("%v", shellErr)
	case *askFlag != "ask" && *askFlag != "deny":
		bad = deny("--ask %q: want ask or deny", *askFlag)
	case *agentFlag != "auto" && agent.Adapters()[*agentFlag] == nil:
		bad = deny("--agent %q: want %s or auto", *agentFlag, strings.Join(guard.AgentNames(), ", "))
	}
	if *deadline <= 0 {
		*deadline = defaultDeadline
	}

	h := &hookRun{s: s, deadline: s.start.Add(*deadline), result: make(chan error, 1),
		late: &denial{Why: fmt.Sprintf("the decision took longer than the %s deadline", *deadline),
			Hints: []string{engine.DeadlineHint}}}
	late := time.AfterFunc(time.Until(h.deadline), func() { h.expire(h.late) })
	defer late.Stop()
	cancelled := context.AfterFunc(ctx, func() { h.expire(deny("cancelled: %v", ctx.Err())) })
	defer cancelled()
	if s.signals {
		listen := time.AfterFunc(signalDelay, h.listen)
		defer listen.Stop()
	}
	if err, owner := h.decide(func() ([]byte, error) {
		if bad != nil {
			return nil, bad
		}
		return decideHook(s.in, env, guard.HookOptions{Config: *config, ReadOnly: *readOnly, Shell: *shellFlag, Agent: *agentFlag,
			AskDeny: *askFlag == "deny", Deadline: h.deadline, Warn: s.err})
	}); owner {
		h.end(err)
	}
	return <-h.result
}

// hookFlags are guard hook's flags. Its -h and --help deny, as a bad
// argument does, with the help after the deny line (see hookHelp): an
// agent whose hook command holds one must not take the help for an answer.
func hookFlags(s stdio) (fs *flag.FlagSet, config *string, deadline *time.Duration, readOnly *bool, shell, ask, agentName *string) {
	fs = newFlagSet("hook", s)
	fs.SetOutput(io.Discard) // the deny line carries the error; stderr holds nothing else
	config = fs.String("config", "", "policy `file` (default: the user's policy and the project's .guard/guard.toml)")
	deadline = fs.Duration("deadline", defaultDeadline, "deny if the decision is not made this long after guard started")
	readOnly = fs.Bool("read-only", false, "read-only mode: allow only reading tools, whatever the policy says")
	shell = fs.String("shell", "auto", "the `shell` the agent runs commands in: bash, zsh, or auto (as the agent finds it)")
	ask = fs.String("ask", "ask", "what guard's `ask|deny` is: ask, or deny where nobody can answer one (an agent run headless)")
	agentName = fs.String("agent", "auto", "the `agent` that runs guard: "+strings.Join(guard.AgentNames(), ", ")+", or auto (by the input's shape)")
	return
}

// hookHelp is guard hook's -h or --help: a deny, whose stderr holds the
// verb's help after the deny line.
type hookHelp struct{ help string }

func (e *hookHelp) Error() string {
	return "guard hook decides no call with -h or --help: its help follows"
}

// hookRun is one run of guard hook: its decision and its watchdog race to
// write the one answer, and the first to claim it writes.
type hookRun struct {
	s        stdio
	deadline time.Time
	late     *denial      // the deny for missing the deadline
	claim    atomic.Int32 // claimNone, then claimAnswer, claimDone or claimDeny
	ended    atomic.Bool
	result   chan error // the error of the run's end
}

const (
	claimNone   = iota
	claimAnswer // the decision writes the answer to stdout
	claimDone   // the answer is written; nothing else is written after it
	claimDeny   // a deny is written to stderr; nothing else is written after it
)

// claimDeny claims the run for a deny, unless a deny has it already or the
// answer is out. A deny may follow an answer that is being written: exit 2
// blocks the call, and a write to stdout that does not end must not hold up
// the deny.
func (h *hookRun) claimDeny() bool {
	for {
		c := h.claim.Load()
		if c == claimDeny || c == claimDone {
			return false
		}
		if h.claim.CompareAndSwap(c, claimDeny) {
			return true
		}
	}
}

// end ends the run with err, once: it hands err to runHook and exits the
// process through s.exit. A second end does nothing.
func (h *hookRun) end(err error) {
	if !h.ended.CompareAndSwap(false, true) {
		return
	}
	h.result <- err
	if h.s.exit != nil {
		h.s.exit(exitCode(err))
	}
}

// decide runs the decision and writes its answer or its deny, unless the
// watchdog has denied first. A panic in it is a deny, and so is an answer
// found after the deadline: the watchdog may not have woken yet. It
// reports whether the run is the decision's to end.
func (h *hookRun) decide(decide func() ([]byte, error)) (err error, owner bool) {
	data, err := recovered(decide)
	if time.Now().After(h.deadline) {
		data, err = nil, h.late // whatever the decision found, even its own deadline deny
	}
	if err != nil {
		if !h.claimDeny() {
			return nil, false // the watchdog denied
		}
		if len(data) > 0 {
			// The agent's own deny answer, before exit 2: a write that
			// fails changes nothing, the exit still blocks.
			h.s.out.Write(data)
		}
		return writeDeny(h.s, err), true
	}
	if !h.claim.CompareAndSwap(claimNone, claimAnswer) {
		return nil, false
	}
	if len(data) > 0 { // a PostToolUse call has nothing to answer
		if _, err := h.s.out.Write(data); err != nil {
			if !h.claimDeny() {
				return nil, false
			}
			return writeDeny(h.s, deny("writing the answer: %v", err)), true
		}
	}
	if !h.claim.CompareAndSwap(claimAnswer, claimDone) {
		return nil, false // the watchdog denied while stdout was written
	}
	return nil, true
}

// recovered runs decide, turning a panic into a deny.
func recovered(decide func() ([]byte, error)) (data []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			data, err = nil, deny("internal error: %v", r)
		}
	}()
	return decide()
}

// expire is the watchdog's deny. An answer that is out stays the answer.
// Otherwise the deny line is written unless the decision is writing its
// own, and the run ends within denyGrace even if stderr blocks.
func (h *hookRun) expire(d *denial) {
	if !h.claimDeny() {
		if h.claim.Load() == claimDone {
			return // the decision is ending the run with its answer
		}
		time.Sleep(denyGrace) // the decision's deny is being written
		h.end(&exitError{code: 2, msg: "the deny line could not be written"})
		return
	}
	written := make(chan error, 1)
	go func() { written <- writeDeny(h.s, d) }()
	grace := time.NewTimer(denyGrace)
	defer grace.Stop()
	select {
	case err := <-written:
		h.end(err)
	case <-grace.C:
		h.end(&exitError{code: 2, msg: "the deny line could not be written"})
	}
}

// listen installs the handler of stopSignals, for a run still going after
// signalDelay: the first signal ends it in a deny.
func (h *hookRun) listen() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, stopSignals...)
	h.expire(deny("guard hook was stopped by %s before it answered", signalName(<-sigs)))
}

// signalName names the signals that end guard hook.
func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	}
	return sig.String()
}

// writeDeny writes a deny to stderr and returns the exit error for it.
func writeDeny(s stdio, err error) error {
	var d *denial
	if !errors.As(err, &d) {
		d = &denial{Why: err.Error()}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "guard: denied: %s\n", agent.Clip(oneLine(d.Why), maxReason))
	for _, h := range d.Hints {
		if h != "" {
			fmt.Fprintf(&b, "guard: hint: %s\n", agent.Clip(oneLine(h), maxReason))
		}
	}
	var help *hookHelp
	if errors.As(err, &help) {
		b.WriteString("\n" + help.help)
	}
	io.WriteString(s.err, b.String())
	return &exitError{code: 2}
}

// decideHook hands the event on stdin to the door, guard.Hook, with the
// sandbox's command line for the rewrite.
func decideHook(r io.Reader, env getenv, o guard.HookOptions) ([]byte, error) {
	o.Env = env
	if wd, err := os.Getwd(); err == nil {
		o.Dir = wd
	}
	o.Run, o.NoRun = runCommand(setup.GuardBinary(), o.Config, o.ReadOnly)
	return guard.Hook(r, o)
}

// runCommand returns the command line of guard run that an allowed shell
// command is rewritten with, or why there is none: guard cannot find its
// own binary, or the kernel cannot confine a command.
func runCommand(guard, config string, readOnly bool) ([]string, string) {
	if guard == "" {
		return nil, "guard cannot find its own binary"
	}
	if err := sandbox.Available(); err != nil {
		return nil, err.Error()
	}
	run := []string{guard, "run"}
	if config != "" {
		abs, err := filepath.Abs(config)
		if err != nil {
			return nil, fmt.Sprintf("the policy file: %v", err)
		}
		run = append(run, "--config", abs)
	}
	if readOnly {
		run = append(run, "--read-only")
	}
	return run, ""
}
