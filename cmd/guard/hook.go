// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

// How guard hook talks to the agent (the rules of this file):
//
//   - Allow and ask: exit 0 and one JSON object on stdout, nothing else.
//   - Deny: exit 2, nothing on stdout, and on stderr one line
//     "guard: denied: WHY" followed by "guard: hint: ..." lines that say what
//     is allowed instead. Claude Code hands stderr to the model, so it is
//     written for the model: what was denied, which rule, what to do.
//   - Every error, a panic, input over a bound and a missed deadline are
//     denies. No other exit code ever leaves this verb: in Claude Code only
//     exit 2 blocks, and exit 1 would let the call run.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"guard/engine"
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

// hookSignals end guard hook in a deny. Without a handler a Go program dies
// of SIGTERM, SIGINT and SIGHUP, and of SIGPIPE on a write to a closed
// stdout or stderr: a death by signal lets the call run.
var hookSignals = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGPIPE}

// maxReason bounds the reason Claude Code shows; it cuts longer strings.
const maxReason = 4000

type hookOutput struct {
	HookSpecificOutput hookDecision `json:"hookSpecificOutput"`
}

type hookDecision struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// denial is a deny with its reason and hints, as the hook writes it.
type denial struct {
	why   string
	hints []string
}

func (d *denial) Error() string { return d.why }

func deny(format string, a ...any) *denial {
	return &denial{why: fmt.Sprintf(format, a...)}
}

// runHook decides one call. The decision runs in a goroutine of its own,
// because it reads stdin and the file system and writes stdout, and any of
// these can block forever. This goroutine is the watchdog: it ends the run
// with a deny when the deadline passes, a signal arrives or ctx is done,
// whatever the decision is doing. The run then ends the process itself
// through s.exit before it lets go of the signals, so that no signal can
// kill it between the answer and the exit.
func runHook(ctx context.Context, s stdio, env getenv, args []string) error {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, hookSignals...)
	defer signal.Stop(sigs)

	fs := newFlagSet("hook", s)
	fs.SetOutput(io.Discard) // the deny line carries the error; stderr holds nothing else
	config := fs.String("config", "", "policy `file` (default: .claude/guard.toml in the project, else the embedded default)")
	deadline := fs.Duration("deadline", defaultDeadline, "deny if the decision is not made this long after guard started")
	readOnly := fs.Bool("read-only", false, "read-only mode: allow only reading tools, whatever the policy says")
	shellFlag := fs.String("shell", "auto", "the `shell` the agent runs commands in: bash, zsh, or auto ($CLAUDE_CODE_SHELL, else $SHELL)")
	// A bad command line is denied like any other call: through the
	// decision, whose writes the watchdog bounds.
	var bad error
	err := fs.Parse(args)
	shell, shellErr := callShell(*shellFlag, env)
	switch {
	case err != nil:
		bad = deny("bad hook arguments: %v", err)
	case fs.NArg() > 0:
		bad = deny("guard hook takes no arguments, got %q", fs.Arg(0))
	case *deadline <= 0:
		bad = deny("--deadline must be positive")
	case shellErr != nil:
		bad = deny("%v", shellErr)
	}
	if *deadline <= 0 {
		*deadline = defaultDeadline
	}

	h := &hookRun{s: s, deadline: s.start.Add(*deadline), done: make(chan error, 1),
		late: &denial{why: fmt.Sprintf("the decision took longer than the %s deadline", *deadline),
			hints: []string{"split the command into smaller ones"}}}
	go h.decide(func() (*hookOutput, error) {
		if bad != nil {
			return nil, bad
		}
		return decideHook(s.in, env, *config, *readOnly, shell)
	})
	timer := time.NewTimer(time.Until(h.deadline))
	defer timer.Stop()
	select {
	case err = <-h.done:
	case <-timer.C:
		err = h.stop(h.late)
	case sig := <-sigs:
		err = h.stop(deny("guard hook was stopped by %s before it answered", signalName(sig)))
	case <-ctx.Done():
		err = h.stop(deny("cancelled: %v", ctx.Err()))
	}
	if s.exit != nil {
		s.exit(exitCode(err))
	}
	return err
}

// hookRun is one run of guard hook: its decision and its watchdog race to
// write the one answer, and the first to claim it writes.
type hookRun struct {
	s        stdio
	deadline time.Time
	late     *denial      // the deny for missing the deadline
	claim    atomic.Int32 // claimNone, then claimAnswer or claimDeny
	done     chan error   // the decision's end: nil, or the exit error of its deny
}

const (
	claimNone   = iota
	claimAnswer // the decision writes the answer to stdout
	claimDeny   // a deny is written to stderr; nothing else is written after it
)

// claimDeny claims the run for a deny, unless a deny has it already. A deny
// may follow an answer that is being written: exit 2 blocks the call, and a
// write to stdout that does not end must not hold up the deny.
func (h *hookRun) claimDeny() bool {
	for {
		c := h.claim.Load()
		if c == claimDeny {
			return false
		}
		if h.claim.CompareAndSwap(c, claimDeny) {
			return true
		}
	}
}

// decide runs the decision and writes its answer or its deny, unless the
// watchdog has denied first. A panic in it is a deny, and so is an answer
// found after the deadline: the watchdog may not have woken yet.
func (h *hookRun) decide(decide func() (*hookOutput, error)) {
	defer func() {
		if r := recover(); r != nil {
			h.deny(deny("internal error: %v", r))
		}
	}()
	out, err := decide()
	if err != nil {
		h.deny(err)
		return
	}
	var data []byte
	if out != nil {
		if data, err = json.Marshal(out); err != nil {
			h.deny(deny("encoding the answer: %v", err))
			return
		}
	}
	if time.Now().After(h.deadline) {
		h.deny(h.late)
		return
	}
	if !h.claim.CompareAndSwap(claimNone, claimAnswer) {
		return // the watchdog denied
	}
	if out == nil {
		h.done <- nil // PostToolUse: nothing to answer
		return
	}
	if _, err := h.s.out.Write(append(data, '\n')); err != nil {
		h.deny(deny("writing the answer: %v", err))
		return
	}
	h.done <- nil
}

// deny ends the decision in a deny, unless the watchdog has denied first.
func (h *hookRun) deny(err error) {
	if h.claimDeny() {
		h.done <- writeDeny(h.s, err)
	}
}

// stop is the watchdog's deny. A decision that has just ended keeps its
// answer. Otherwise the deny line is written unless the decision is writing
// its own, and the run ends within denyGrace even if stderr blocks.
func (h *hookRun) stop(err error) error {
	select {
	case err := <-h.done:
		return err
	default:
	}
	written := h.done // the decision's deny, if it has claimed one
	if h.claimDeny() {
		written = make(chan error, 1)
		go func() { written <- writeDeny(h.s, err) }()
	}
	grace := time.NewTimer(denyGrace)
	defer grace.Stop()
	select {
	case err := <-written:
		return err
	case <-grace.C:
		return &exitError{code: 2, msg: "the deny line could not be written"}
	}
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
		d = &denial{why: err.Error()}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "guard: denied: %s\n", clip(oneLine(d.why), maxReason))
	for _, h := range d.hints {
		if h != "" {
			fmt.Fprintf(&b, "guard: hint: %s\n", clip(oneLine(h), maxReason))
		}
	}
	io.WriteString(s.err, b.String())
	return &exitError{code: 2}
}

// hookInput holds the fields of Claude Code's PreToolUse input that guard
// uses. Field names are matched exactly; others are ignored.
type hookInput struct {
	event     string
	session   string
	toolName  string
	toolInput map[string]any
	cwd       string
}

func decodeHookInput(r io.Reader) (*hookInput, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxHookInput+1))
	if err != nil {
		return nil, deny("reading the hook input: %v", err)
	}
	if len(data) > maxHookInput {
		return nil, deny("the hook input is larger than %d bytes", maxHookInput)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, deny("the hook input is empty; guard hook reads a PreToolUse call as JSON on stdin")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, deny("the hook input is not a JSON object: %v", err)
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return nil, deny("the hook input has data after its JSON object")
	}
	if raw == nil {
		return nil, deny("the hook input is not a JSON object")
	}
	in := &hookInput{}
	str := func(key string, required bool) (string, error) {
		v, ok := raw[key]
		if !ok {
			if required {
				return "", deny("the hook input has no %q field", key)
			}
			return "", nil
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", deny("the hook input's %q field is not a string", key)
		}
		return s, nil
	}
	if in.event, err = str("hook_event_name", false); err != nil {
		return nil, err
	}
	if in.event != "" && in.event != "PreToolUse" && in.event != "PostToolUse" {
		return nil, deny("guard hook decides PreToolUse calls, not %q", in.event)
	}
	if in.session, err = str("session_id", false); err != nil {
		return nil, err
	}
	if in.toolName, err = str("tool_name", true); err != nil {
		return nil, err
	}
	if in.toolName == "" {
		return nil, deny("the hook input's tool_name is empty")
	}
	if in.cwd, err = str("cwd", true); err != nil {
		return nil, err
	}
	if !filepath.IsAbs(in.cwd) {
		return nil, deny("the hook input's cwd %q is not an absolute path", in.cwd)
	}
	ti, ok := raw["tool_input"]
	if !ok {
		return nil, deny("the hook input has no \"tool_input\" field")
	}
	tdec := json.NewDecoder(bytes.NewReader(ti))
	tdec.UseNumber()
	if err := tdec.Decode(&in.toolInput); err != nil || in.toolInput == nil {
		return nil, deny("the hook input's tool_input is not a JSON object")
	}
	return in, nil
}

// decideHook reads the call, loads the policies and decides. For a
// PostToolUse call it records that a tool of session tier ran, and answers
// nothing.
func decideHook(r io.Reader, env getenv, config string, readOnly bool, shell string) (*hookOutput, error) {
	in, err := decodeHookInput(r)
	if err != nil {
		return nil, err
	}
	project := projectDir(env, in.cwd)
	layers, err := loadLayers(config, project, env)
	if err != nil {
		return nil, &denial{why: fmt.Sprintf("the policy does not load, so every call is denied: %v", err),
			hints: []string{"ask the user to fix the policy file; guard check --config FILE shows the error"}}
	}
	state := sessionFile(env, in.session)
	if in.event == "PostToolUse" {
		if state != "" && engine.SessionTool(layers, in.toolName) {
			recordSession(state, in.toolName)
		}
		return nil, nil
	}
	var homes []string
	if h := passwdHome(); h != "" {
		homes = []string{h}
	}
	d := engine.DecideLayers(layers, engine.Call{
		Tool:     in.toolName,
		Input:    in.toolInput,
		Cwd:      in.cwd,
		Project:  project,
		Home:     env("HOME"),
		Homes:    homes,
		Path:     env("PATH"),
		Protect:  ownDirs(env, append([]string{env("HOME")}, homes...)),
		Temp:     os.TempDir(),
		Guard:    guardBinary(),
		Shell:    shell,
		Locale:   agentLocale(env),
		ReadOnly: readOnly,
		Approved: sessionApproved(state),
	})

	where := "policy " + layers.Name()
	if d.ReadOnly {
		where += ", read-only mode"
	}
	leaf := d.Deciding()
	switch d.Verdict {
	case engine.Allow:
		return answer("allow", fmt.Sprintf("guard (%s): allowed: %s", where, d.Reason())), nil
	case engine.Ask:
		reason := fmt.Sprintf("guard (%s): needs approval: %s", where, d.Reason())
		if leaf.Rule != "" {
			reason += fmt.Sprintf(" (rule %s)", leaf.Rule)
		}
		return answer("ask", reason), nil
	}
	why := d.Reason()
	if leaf.Rule != "" {
		why += fmt.Sprintf(" (rule %s, %s)", leaf.Rule, where)
	} else {
		why += fmt.Sprintf(" (%s)", where)
	}
	return nil, &denial{why: why, hints: []string{d.Hint()}}
}

func answer(decision, reason string) *hookOutput {
	return &hookOutput{HookSpecificOutput: hookDecision{
		HookEventName:            "PreToolUse",
		PermissionDecision:       decision,
		PermissionDecisionReason: clip(oneLine(reason), maxReason),
	}}
}

// clip shortens s to at most n bytes, on a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
