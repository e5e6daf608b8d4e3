// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package guard

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"guard/agent"
	"guard/audit"
	"guard/engine"
	"guard/internal/setup"
	"guard/policy"
	"guard/state"
)

// The door of guard hook: one event of an agent's hook, from the JSON the
// agent wrote to the answer it reads. The verb (cmd/guard) owns the
// process: its flags, stdin and stdout, the deadline's watchdog, signals
// and the exit status. Hook owns the rest: the agent's adapter decodes the
// event, the policies load, the engine decides, the adapter answers, and
// the decision log keeps the answer.

// HookOptions are the settings of guard hook for one event.
type HookOptions struct {
	// Config is a policy file that decides alone (beside the managed
	// policy); "" means the user's policy and the project's.
	Config   string
	ReadOnly bool
	// Shell is the agent's shell: bash, zsh, or auto (as the agent
	// finds it, see [agent.Shell]).
	Shell string
	// Agent names the agent's adapter (see [agent.Adapters]), or auto:
	// by the input's shape.
	Agent string
	// AskDeny makes an ask a deny, where nobody can answer one.
	AskDeny bool
	// Deadline is when the engine stops judging and denies.
	Deadline time.Time
	// Run is guard run's command line, that an allowed shell command the
	// policy bounds is rewritten to run under; NoRun says why there is
	// none, and such a command then asks.
	Run   []string
	NoRun string
	// Env is the agent's environment (guard hook's own).
	Env func(string) string
	// Dir is guard hook's working directory, for an agent that tells the
	// call's in no other way (Amp); "" where it is not known.
	Dir string
	// Warn is where a decision log that cannot be written is said.
	Warn io.Writer
}

// getenv returns the agent's environment: o.Env, else guard's own.
func (o HookOptions) getenv() setup.Getenv {
	if o.Env == nil {
		return os.Getenv
	}
	return o.Env
}

// MaxInput bounds one call's JSON, a hook event or a line of guard
// serve: a Write call carries a whole file; larger input is denied.
const MaxInput = 4 << 20 // 4 MiB

// Denial is a deny as the agent's model reads it: why, and what to do
// instead.
type Denial = agent.Denial

// AgentNames are the agents guard hook speaks for, sorted.
func AgentNames() []string {
	return slices.Sorted(maps.Keys(agent.Adapters()))
}

// Hook reads one event of an agent's hook from r, up to [MaxInput], and
// decides it: a PreToolUse call, a PermissionRequest (decided as its
// call), a PostToolUse report (the session is granted what the user
// approved of the session tier), or a SessionEnd (the session's grants
// end). It returns what to write on stdout, and an error when the call is
// denied, a *Denial where guard has its reason and hints: guard hook then
// writes the stdout it got (an agent that reads its deny from JSON) and
// exits 2 with the reason on stderr. Every event is a line of the decision
// log; a line that cannot be written is said on o.Warn, and denies the
// call where the policy says log_required.
func Hook(r io.Reader, o HookOptions) ([]byte, error) {
	env := o.getenv()
	agentName := o.Agent
	j := newJournal(env, o.Warn)
	blocked := func(ev *agent.Event, err error) error { return j.blocked(agentName, ev, err) }
	input, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	switch {
	case err != nil:
		return nil, blocked(nil, hookDeny("reading the hook input: %v", err))
	case len(input) > MaxInput:
		return nil, blocked(nil, hookDeny("the hook input is larger than %d bytes", MaxInput))
	}
	if agentName == "auto" {
		agentName = detectAgent(input)
	}
	ad := agent.Adapters()[agentName]
	if ad == nil {
		return nil, blocked(nil, hookDeny("the hook input is not one guard knows from any agent (%s); guard hook --agent NAME names the agent", strings.Join(AgentNames(), ", ")))
	}
	shell := o.Shell
	switch shell {
	case "bash", "zsh":
	case "auto":
		shell = agent.Shell(agentName, env)
	default:
		return nil, blocked(nil, hookDeny("--shell %q: want bash, zsh or auto", o.Shell))
	}
	var ev *agent.Event
	if ed, ok := ad.(agent.EnvDecoder); ok {
		ev, err = ed.DecodeEnv(input, env, o.Dir)
	} else {
		ev, err = ad.Decode(input)
	}
	if err != nil {
		return deniedOut(ad, input, err), blocked(nil, err)
	}
	if ev.Name == "SessionEnd" {
		endSession(j, env, agentName, ev)
		return nil, nil
	}

	call := setup.Context(env, ev.Call.Cwd, shell, o.ReadOnly)
	call.Kind, call.Tool, call.Input, call.Session, call.Deadline = ev.Call.Kind, ev.Call.Tool, ev.Call.Input, ev.Session, o.Deadline
	call.SearchGlobs = ev.Call.SearchGlobs
	call.Run, call.NoRun = o.Run, o.NoRun
	layers, err := setup.LoadLayers(o.Config, call.Project, env)
	if err != nil {
		return deniedOut(ad, input, policyDenial(err)), blocked(ev, policyDenial(err))
	}
	store := setup.GrantStore(env, layers)
	call.Grants = setup.StoreGrants(store)
	d, reported := decideEvent(layers, &call)
	if rk, ok := ad.(agent.RuleKeeper); ok && ev.Name == "PreToolUse" && d.Verdict == engine.Allow {
		// The agent's own rules would meet the guard run command line,
		// which they do not match: they are kept for the call it runs.
		rk.KeepRules(&d, env, call, ev.Call.Cwd, reported != nil)
	}
	if o.AskDeny && ev.Name == "PreToolUse" && d.Verdict == engine.Ask {
		askIsDeny(&d, "guard hook --ask deny: nobody can approve it here")
	}
	ans := ad.Answer(ev, &d, where(layers, &d))

	// The log keeps the answer the agent got, and the rewrite it runs:
	// guard's answer to a PreToolUse call, or the rewrite an event after
	// it reports; no other.
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
	entry := setup.LogEntry(setup.Logged{Agent: agentName, Event: ev.Name, Session: ev.Session, CallID: ev.CallID, Raw: ev.Raw}, call, &logged, layers)
	if adapterDenied {
		entry.Authority, entry.Reason = setup.ByGuard, agent.Clip(oneLine(ans.Deny.Why), setup.MaxReason)
	}
	if ev.Name == "PostToolUse" {
		ranCall(j, store, call, d, entry)
		return nil, nil
	}
	if err := j.decided(entry, layers, env); err != nil {
		return nil, err
	}
	switch {
	case ans.Deny != nil:
		return ans.Stdout, ans.Deny
	case len(ans.Stdout) == 0 && !ans.Silent:
		// Exit 0 with nothing on stdout lets the agent's own permission
		// rules decide: never what guard means for a PreToolUse call.
		return nil, hookDeny("internal error: the agent adapter gave no answer to a %s call", ev.Name)
	}
	return ans.Stdout, nil
}

// deniedOut is what guard hook writes on stdout for a deny before the
// adapter's answer (an input it cannot judge, a policy that does not
// load): the deny in the agent's JSON where the agent runs a call whose
// hook exits 2 with nothing on stdout (agent.DenyWriter), else nothing.
func deniedOut(ad agent.Adapter, input []byte, err error) []byte {
	w, ok := ad.(agent.DenyWriter)
	dn, isDenial := err.(*Denial)
	if !ok || !isDenial {
		return nil
	}
	return w.DenyOutput(input, dn)
}

// hookDeny is a deny with a reason and no hint.
func hookDeny(format string, a ...any) *Denial {
	return &Denial{Why: fmt.Sprintf(format, a...)}
}

// endSession ends a session's grants, whatever the policy, and logs it.
func endSession(j journal, env setup.Getenv, agentName string, ev *agent.Event) {
	var ended []state.Grant
	if store := setup.GrantStore(env, nil); store != nil && state.ValidSession(ev.Session) {
		ended, _ = store.EndSession(ev.Session)
	}
	end := audit.Entry{Time: time.Now().UTC(), Session: ev.Session, Event: "SessionEnd", Agent: agentName, Authority: setup.ByGuard,
		Reason: fmt.Sprintf("the session ended; %d grants with it", len(ended)), Version: setup.Version()}
	j.warnOf(j.write(append([]audit.Entry{end}, setup.GrantEntries("revoke", ev.Session, setup.ByGuard, ended)...)...))
}

// ranCall logs a call the agent reports it ran: one guard asked about ran
// because the user approved it, and the session is granted its parts of
// the session tier.
func ranCall(j journal, store *state.Store, call engine.Call, d engine.Decision, entry audit.Entry) {
	ran := true
	entry.Ran = &ran
	granted, gerr := setup.GrantRan(store, call, d)
	entries := []audit.Entry{entry}
	if d.Verdict == engine.Ask {
		entry.Authority = setup.ByUser
		entries = append([]audit.Entry{entry}, setup.GrantEntries("grant", call.Session, setup.ByUser, granted)...)
	}
	j.warnOf(errors.Join(gerr, j.write(entries...)))
}

// askIsDeny turns an ask into a deny: nobody can answer it (some agents
// run it, others wait for ever: Gemini CLI headless). why, after each
// part that asked, says so.
func askIsDeny(d *engine.Decision, why string) {
	d.Verdict = engine.Deny
	for i := range d.Leaves {
		if l := &d.Leaves[i]; l.Verdict == engine.Ask {
			l.Verdict, l.Why = engine.Deny, l.Why+" ("+why+")"
		}
	}
}

// policyDenial is the deny of every call while a policy does not load.
func policyDenial(err error) *Denial {
	return &Denial{Why: fmt.Sprintf("the policy does not load, so every call is denied: %v", err),
		Hints: []string{"ask the user to fix the policy file; guard check --config FILE shows the error"}}
}

// decideEvent decides the call of a hook event. A call may be guard's own
// rewrite of a call it allows, to run under guard run, which as a command
// would be denied: an event after PreToolUse (PostToolUse,
// PermissionRequest) reports the call as guard's answer rewrote it, and a
// model whose agent takes no rewrite issues the rewrite itself, as guard's
// refusal told it to ([agent.Unbounded]). It is the call guard allows, and
// bounded as guard would bound it: [engine.Engine.Unsandbox] takes it only
// where it is, byte for byte, the rewrite guard makes of it now. Then call
// becomes that call, its decision has no rewrite (the command runs in the
// sandbox already), and reported is the command the agent sent.
func decideEvent(layers *policy.Layers, call *engine.Call) (d engine.Decision, reported *engine.Input) {
	e := engine.Engine{Layers: layers}
	if inner, d, own := e.Unsandbox(*call); own {
		reported = &engine.Input{Command: call.Input.Command}
		*call = inner
		return d, reported
	}
	return e.Decide(*call), nil
}

// where names the policy that decided, for the answer's reason.
func where(layers *policy.Layers, d *engine.Decision) string {
	w := "policy " + layers.Name()
	if d.ReadOnly {
		w += ", read-only mode"
	}
	return w
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
