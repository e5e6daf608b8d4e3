// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

// How guard hook talks to the agent (the rules of this file):
//
//   - Allow and ask: exit 0 and one JSON object on stdout, nothing else
//     (or nothing at all, where that is the agent's answer: Codex's allow).
//   - Deny: exit 2, nothing on stdout, and on stderr one line
//     "guard: denied: WHY" followed by "guard: hint: ..." lines that say what
//     is allowed instead. Claude Code hands stderr to the model, so it is
//     written for the model: what was denied, which rule, what to do. Where
//     an agent takes only JSON for a deny (a PermissionRequest, Antigravity),
//     the adapter answers the deny as JSON, exit 0, with the same text;
//     where it reads the reason from JSON and blocks on exit 2 too
//     (Copilot), both: the JSON on stdout, then the deny lines and exit 2.
//   - Every error, a panic, input over a bound and a missed deadline are
//     denies. No other exit code ever leaves this verb: in Claude Code only
//     exit 2 blocks, and exit 1 would let the call run.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"guard/agent"
	"guard/audit"
	"guard/engine"
	"guard/internal/setup"
	"guard/policy"
	"guard/sandbox"
	"guard/state"
)

// maxHookInput bounds the JSON read from stdin. A Write call carries a whole
// file; larger input is denied.
const maxHookInput = 4 << 20 // 4 MiB

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
	case err != nil:
		bad = deny("bad hook arguments: %v", err)
	case fs.NArg() > 0:
		bad = deny("guard hook takes no arguments, got %q", fs.Arg(0))
	case *deadline <= 0:
		bad = deny("--deadline must be positive")
	case shellErr != nil:
		bad = deny("%v", shellErr)
	case *askFlag != "ask" && *askFlag != "deny":
		bad = deny("--ask %q: want ask or deny", *askFlag)
	case *agentFlag != "auto" && agent.Adapters()[*agentFlag] == nil:
		bad = deny("--agent %q: want %s or auto", *agentFlag, strings.Join(agentNames(), ", "))
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
		return decideHook(s.in, env, hookOptions{config: *config, readOnly: *readOnly, shell: *shellFlag, agent: *agentFlag,
			askDeny: *askFlag == "deny", deadline: h.deadline, warn: s.err})
	}); owner {
		h.end(err)
	}
	return <-h.result
}

// hookFlags are guard hook's flags. Its -h and --help are bad arguments,
// and deny, as any: an agent whose hook command holds one must not take
// the help for an answer.
func hookFlags(s stdio) (fs *flag.FlagSet, config *string, deadline *time.Duration, readOnly *bool, shell, ask, agentName *string) {
	fs = newFlagSet("hook", s)
	fs.SetOutput(io.Discard) // the deny line carries the error; stderr holds nothing else
	config = fs.String("config", "", "policy `file` (default: .claude/guard.toml in the project, else the embedded default)")
	deadline = fs.Duration("deadline", defaultDeadline, "deny if the decision is not made this long after guard started")
	readOnly = fs.Bool("read-only", false, "read-only mode: allow only reading tools, whatever the policy says")
	shell = fs.String("shell", "auto", "the `shell` the agent runs commands in: bash, zsh, or auto (as the agent finds it)")
	ask = fs.String("ask", "ask", "what guard's `ask|deny` is: ask, or deny where nobody can answer one (an agent run headless)")
	agentName = fs.String("agent", "auto", "the `agent` that runs guard: "+strings.Join(agentNames(), ", ")+", or auto (by the input's shape)")
	return
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
	io.WriteString(s.err, b.String())
	return &exitError{code: 2}
}

// readHookInput reads the hook input from stdin, up to maxHookInput.
func readHookInput(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxHookInput+1))
	if err != nil {
		return nil, deny("reading the hook input: %v", err)
	}
	if len(data) > maxHookInput {
		return nil, deny("the hook input is larger than %d bytes", maxHookInput)
	}
	return data, nil
}

// decideHook reads the call through the agent's adapter, loads the
// policies and decides; the adapter renders the answer. A
// PermissionRequest is decided as its call. A PostToolUse call
// grants the session what the user approved of the session tier, and a
// SessionEnd ends the session's grants; neither is answered. Each is a
// line of the decision log; a line that cannot be written is said on warn,
// and denies the call where the policy says log_required.
func decideHook(r io.Reader, env getenv, o hookOptions) ([]byte, error) {
	config, readOnly, deadline, warn := o.config, o.readOnly, o.deadline, o.warn
	agentName := o.agent
	dlog := decisionLog(env)
	record := func(entries ...audit.Entry) error {
		if dlog == nil {
			return errNoLog
		}
		for _, e := range entries {
			if err := dlog.Append(e); err != nil {
				return err
			}
		}
		return nil
	}
	blocked := func(ev *agent.Event, err error) error {
		e := audit.Entry{Time: time.Now().UTC(), Event: "PreToolUse", Agent: agentName, Decision: "blocked-error",
			Authority: byHook, Reason: agent.Clip(oneLine(err.Error()), maxReason), Version: version()}
		if ev != nil {
			e.Session, e.Event, e.Tool = ev.Session, ev.Name, ev.Call.Tool
		}
		if lerr := record(e); lerr != nil && lerr != errNoLog {
			fmt.Fprintf(warn, "guard: warning: %v\n", lerr)
		}
		return err
	}
	data, err := readHookInput(r)
	if err != nil {
		return nil, blocked(nil, err)
	}
	if agentName == "auto" {
		agentName = detectAgent(data)
	}
	ad := agent.Adapters()[agentName]
	if ad == nil {
		return nil, blocked(nil, deny("the hook input is not one guard knows from any agent (%s); guard hook --agent NAME names the agent", strings.Join(agentNames(), ", ")))
	}
	shell, err := callShell(o.shell, agentName, env)
	if err != nil {
		return nil, blocked(nil, deny("%v", err))
	}
	ev, err := ad.Decode(data)
	if err != nil {
		return nil, blocked(nil, err)
	}
	if ev.Name == "SessionEnd" {
		// The session's grants end with it, whatever the policy.
		var ended []state.Grant
		if store := grantStore(env, nil); store != nil && state.ValidSession(ev.Session) {
			ended, _ = store.EndSession(ev.Session)
		}
		end := audit.Entry{Time: time.Now().UTC(), Session: ev.Session, Event: "SessionEnd", Agent: agentName, Authority: byHook,
			Reason: fmt.Sprintf("the session ended; %d grants with it", len(ended)), Version: version()}
		if err := record(append([]audit.Entry{end}, grantEntries("revoke", ev.Session, byHook, ended)...)...); err != nil && err != errNoLog {
			fmt.Fprintf(warn, "guard: warning: %v\n", err)
		}
		return nil, nil
	}
	call := callContext(env, ev.Call.Cwd, shell, readOnly)
	call.Kind, call.Tool, call.Input, call.Session, call.Deadline = ev.Call.Kind, ev.Call.Tool, ev.Call.Input, ev.Session, deadline
	call.SearchGlobs = ev.Call.SearchGlobs
	call.Run, call.NoRun = runCommand(call.Guard, config, readOnly)
	layers, err := loadLayers(config, call.Project, env)
	if err != nil {
		return nil, blocked(ev, &denial{Why: fmt.Sprintf("the policy does not load, so every call is denied: %v", err),
			Hints: []string{"ask the user to fix the policy file; guard check --config FILE shows the error"}})
	}
	store := grantStore(env, layers)
	call.Grants = storeGrants(store)
	e := engine.Engine{Layers: layers}
	d, reported := decideEvent(&e, ev.Name, &call)
	if agentName == "claude" && ev.Name == "PreToolUse" && d.Verdict == engine.Allow && d.Rewrite != nil {
		keepClaudeRule(&d, env, call, ev.Call.Cwd)
	}
	if o.askDeny && ev.Name == "PreToolUse" && d.Verdict == engine.Ask {
		// Nobody can answer an ask: some agents run it, others wait for
		// ever (Gemini CLI headless).
		d.Verdict = engine.Deny
		for i := range d.Leaves {
			if l := &d.Leaves[i]; l.Verdict == engine.Ask {
				l.Verdict, l.Why = engine.Deny, l.Why+" (guard hook --ask deny: nobody can approve it here)"
			}
		}
	}
	ans := ad.Answer(ev, &d, where(layers, &d))
	// The log keeps the rewrite the agent runs: guard's answer to a
	// PreToolUse call, or the rewrite an event after it reports; no other.
	logged := d
	switch {
	case reported != nil:
		logged.Rewrite = reported
	case ev.Name != "PreToolUse":
		logged.Rewrite = nil
	}
	adapterDenied := ans.Deny != nil && d.Verdict == engine.Allow
	if adapterDenied {
		// The agent cannot take guard's allow (a rewrite it has no field
		// for), and the adapter denied the call: the log says so.
		logged.Verdict, logged.Rewrite = engine.Deny, nil
	}
	entry := callEntry(agentName, ev, call, &logged, layers)
	if adapterDenied {
		entry.Authority, entry.Reason = byHook, agent.Clip(oneLine(ans.Deny.Why), maxReason)
	}
	if ev.Name == "PostToolUse" {
		ran := true
		entry.Ran = &ran
		granted, gerr := grantRan(store, call, d)
		entries := []audit.Entry{entry}
		if d.Verdict == engine.Ask {
			// It ran although guard asked: the user approved it.
			entry.Authority = byUser
			entries = append([]audit.Entry{entry}, grantEntries("grant", ev.Session, byUser, granted)...)
		}
		if err := record(entries...); err == errNoLog {
			err = nil
		} else if err = errors.Join(gerr, err); err != nil {
			fmt.Fprintf(warn, "guard: warning: %v\n", err)
		}
		return nil, nil
	}
	if err := record(entry); err != nil {
		switch {
		case layers.LogRequired():
			return nil, &denial{Why: fmt.Sprintf("the decision log cannot be written, and the policy requires it (log_required): %v", err),
				Hints: []string{"ask the user to fix guard's state directory, " + filepath.Join(stateDir(env), "log")}}
		case err != errNoLog:
			fmt.Fprintf(warn, "guard: warning: the decision was not logged: %v\n", err)
		}
	}
	switch {
	case ans.Deny != nil:
		return ans.Stdout, ans.Deny
	case len(ans.Stdout) == 0 && !ans.Silent:
		// Exit 0 with nothing on stdout lets the agent's own permission
		// rules decide: never what guard means for a PreToolUse call.
		return nil, deny("internal error: the agent adapter gave no answer to a %s call", ev.Name)
	}
	return ans.Stdout, nil
}

// decideEvent decides the call of a hook event. An event after
// PreToolUse (PostToolUse, PermissionRequest) may report the call as
// guard's own answer rewrote it, to run under guard run, which as a
// command would be denied: it is the call guard allowed. Then call becomes
// that call, its decision has no rewrite (the command runs in the sandbox
// already), and reported is the command the agent reported.
func decideEvent(e *engine.Engine, event string, call *engine.Call) (d engine.Decision, reported *engine.Input) {
	if event != "PreToolUse" {
		if inner, d, own := e.Unsandbox(*call); own {
			reported = &engine.Input{Command: call.Input.Command}
			*call = inner
			return d, reported
		}
	}
	return e.Decide(*call), nil
}

// keepClaudeRule keeps the user's own Claude Code rule that an allowed
// shell command matches (see agent.ClaudeUserRule): Claude Code would
// check it against guard run's command line, which it does not match, so
// the command is not rewritten, and is asked (or denied) as the rule says.
// Approved, it runs as written, as every approval does.
func keepClaudeRule(d *engine.Decision, env getenv, call engine.Call, cwd string) {
	configDir := env("CLAUDE_CONFIG_DIR")
	if configDir == "" && call.Home != "" {
		configDir = filepath.Join(call.Home, ".claude")
	}
	rule, deny := agent.ClaudeUserRule(configDir, call.Project, cwd, call.Input.Command)
	if rule == "" {
		return
	}
	l := engine.Leaf{Verdict: engine.Ask, Kind: "input", Text: call.Input.Command, Rule: "claude " + rule,
		Why: "the user's own Claude Code rule " + rule + " asks before it runs; approved, it runs as written, outside guard's sandbox"}
	if deny {
		l.Verdict, l.Why = engine.Deny, "the user's own Claude Code rule "+rule+" denies it"
	}
	d.Verdict, d.Rewrite = l.Verdict, nil
	d.Leaves = append(d.Leaves, l)
}

// where names the policy that decided, for the answer's reason.
func where(layers *policy.Layers, d *engine.Decision) string {
	w := "policy " + layers.Name()
	if d.ReadOnly {
		w += ", read-only mode"
	}
	return w
}

// hookOptions are guard hook's flags, as decideHook takes them.
type hookOptions struct {
	config   string
	readOnly bool
	shell    string // bash, zsh or auto
	agent    string // a name of agent.Adapters, or auto
	askDeny  bool   // an ask is a deny
	deadline time.Time
	warn     io.Writer // where a log failure is said
}

// agentNames are the agents guard hook speaks for, sorted.
func agentNames() []string {
	return slices.Sorted(maps.Keys(agent.Adapters()))
}

// detectAgent names the agent whose hook input data is, by its shape.
// Input that is no JSON object is no agent's, and is given to Claude
// Code's adapter, which denies it saying what is wrong with it.
func detectAgent(data []byte) string {
	if name := agent.Detect(data); name != "" {
		return name
	}
	return "claude"
}

// errNoLog is the decision log's failure where guard has no state
// directory ($HOME and $XDG_STATE_HOME unset): nothing is logged then, and
// nothing is said of it, unless the policy requires the log.
var errNoLog = errors.New("the decision log has no directory: set HOME or XDG_STATE_HOME")

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
