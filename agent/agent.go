// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package agent speaks the hook protocols of coding agents. An adapter
// turns what an agent sends before a tool runs into an [engine.Call], and
// the engine's [engine.Decision] into the answer that agent understands.
// Each agent is one file: adding an agent is adding an adapter.
//
// The engine knows no agent. What differs between agents lives here: the
// names and input fields of their tools, the shape of their answers and
// exit codes, and the files that configure them, which no call may write.
//
// This package has no API stability promise outside this module: the
// API is package guard.
package agent

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"guard/engine"
)

// Event is one hook input, decoded.
type Event struct {
	// Name is the hook event: PreToolUse decides a call; PostToolUse
	// reports a call that ran; SessionEnd ends a session, and its grants.
	Name    string
	Session string
	// CallID is the agent's id of the tool call, for the decision log:
	// Claude Code's and Codex's tool_use_id (the model's id of the call,
	// the same on the call's PreToolUse and PostToolUse). It is "" where
	// the input has none (Gemini CLI's, Copilot CLI's, a PermissionRequest;
	// Cursor's and Antigravity's adapters read none) or one that is not a
	// string of at most [MaxCallID] bytes: guard judges nothing by it.
	CallID string
	// Call is the call to decide, with its kind left to the policy, its
	// tool and input, and its working directory. The caller fills in the
	// rest of its context.
	Call engine.Call
	// Raw is the tool's input as the agent sent it: an answer that
	// rewrites the input starts from it.
	Raw map[string]any
}

// MaxCallID bounds the tool call id an [Event] keeps, in bytes: the
// agents' ids are a few dozen (toolu_01ABC..., call_...).
const MaxCallID = 256

// Answer is what guard hook writes and how it exits: Stdout and exit 0,
// or a Denial (exit 2, the reason on stderr), or both, for an agent that
// reads its deny's reason from stdout and blocks on exit 2 as well
// (Copilot): Stdout, then the reason on stderr and exit 2.
type Answer struct {
	Stdout []byte
	Deny   *Denial
	// Silent says that exit 0 with nothing on stdout is the answer, where
	// an agent takes no output as its allow (Codex); without it an empty
	// Stdout is an adapter's error, and the call is denied.
	Silent bool
}

// Denial is a deny with its reason and what to do instead, as the hook
// writes it to stderr for the agent's model.
type Denial struct {
	Why   string
	Hints []string
}

func (d *Denial) Error() string { return d.Why }

// Adapter is one agent's hook protocol.
type Adapter interface {
	// Decode reads one hook input. A malformed input is a *Denial.
	Decode(data []byte) (*Event, error)
	// Answer renders the decision of an event's call. where names the
	// policy that decided, for the reason.
	Answer(ev *Event, d *engine.Decision, where string) Answer
	// ConfigPaths are path patterns of the agent's own configuration:
	// settings, hooks, instructions. No call may write them.
	ConfigPaths() []string
	// Reports says whether guard hook hears from the agent after a call
	// ran (a PostToolUse event): where it does not, an allowed call is
	// taken to have run, unreported.
	Reports() bool
	// Install plans the files that register guard hook, the binary guard
	// by its absolute path, with the agent: in the project dir, or in the
	// user's settings under the home dir when project is false. It merges
	// into the settings there are, and planned again it changes nothing.
	Install(dir string, project bool, guard string) ([]FileChange, error)
	// Doctor says what guard doctor checks of the agent's installation,
	// for the project dir and the user's settings (env's HOME).
	Doctor(env func(string) string, dir string) DoctorSpec
}

// adapters are the agents guard speaks for, by the name guard hook --agent
// takes, in the order guard lists them: one line an agent.
var adapters = []struct {
	name string
	ad   Adapter
}{
	{"claude", Claude{}},
	{"gemini", Gemini{}},
	{"codex", Codex{}},
	{"cursor", Cursor{}},
	{"copilot", Copilot{}},
	{"antigravity", Antigravity{}},
	{"kiro", Kiro{}},
	{"windsurf", Windsurf{}},
	{"goose", Goose{}},
	{"qwen", Qwen{}},
	{"opencode", OpenCode{}},
	{"cline", Cline{}},
	{"amp", Amp{}},
	{"droid", Droid{}},
}

// Adapters are the agents guard speaks for, by the name guard hook
// --agent takes.
func Adapters() map[string]Adapter {
	m := make(map[string]Adapter, len(adapters))
	for _, a := range adapters {
		m[a.name] = a.ad
	}
	return m
}

// ConfigPaths returns the configuration paths of every agent guard knows,
// whichever agent runs it: an agent must not rewrite another's hooks.
func ConfigPaths() []string {
	var out []string
	for _, a := range adapters {
		out = append(out, a.ad.ConfigPaths()...)
	}
	return out
}

// maxReason bounds the reason an agent shows; Claude Code cuts longer
// strings.
const maxReason = 4000

// Reason says why a call got its verdict, in one line, for the agent.
func Reason(d *engine.Decision, where string) string {
	leaf := d.Deciding()
	switch d.Verdict {
	case engine.Allow:
		return Clip(oneLine(fmt.Sprintf("guard (%s): allowed: %s", where, d.Reason())), maxReason)
	case engine.Ask:
		reason := fmt.Sprintf("guard (%s): needs approval: %s", where, d.Reason())
		if leaf.Rule != "" {
			reason += fmt.Sprintf(" (rule %s)", leaf.Rule)
		}
		return Clip(oneLine(reason), maxReason)
	}
	why := d.Reason()
	if leaf.Rule != "" {
		why += fmt.Sprintf(" (rule %s, %s)", leaf.Rule, where)
	} else {
		why += fmt.Sprintf(" (%s)", where)
	}
	return why
}

// answerReason is Reason for an agent's answer that carries the verdict:
// an ask's hint goes with it, to the user who approves and to a model
// that is refused for want of one (a headless run).
func answerReason(d *engine.Decision, where string) string {
	reason := Reason(d, where)
	if h := d.Hint(); d.Verdict == engine.Ask && h != "" {
		reason = Clip(reason+"; hint: "+oneLine(h), maxReason)
	}
	return reason
}

// Deny returns the denial of a decision.
func Deny(d *engine.Decision, where string) *Denial {
	return &Denial{Why: Reason(d, where), Hints: []string{d.Hint()}}
}

// Unbounded is the deny of a call guard allows only rewritten (a shell
// command, to run in guard run's sandbox) where the agent cannot take the
// rewrite: why says why, after the decision's reason. Its hint gives the
// rewritten command: the agent's model, issuing it as the call, runs the
// command in the sandbox, and guard hook allows its own rewrite as it is
// (hook.go's decideEvent, by [engine.Engine.Unsandbox], byte for byte).
// A rewrite of more than a command (a search's globs) has no such hint;
// nor has an ask, which that form does not answer.
func Unbounded(d *engine.Decision, where, why string) *Denial {
	den := &Denial{Why: Reason(d, where) + "; " + why}
	if r := d.Rewrite; d.Verdict == engine.Allow && r != nil && *r == (engine.Input{Command: r.Command}) {
		den.Hints = []string{"to run it in guard's sandbox, run exactly this command instead, which guard allows as it is: " + r.Command}
	}
	return den
}

// oneLine puts s on one line, its runs of white space made one space.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Clip shortens s to at most n bytes, on a character boundary.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
