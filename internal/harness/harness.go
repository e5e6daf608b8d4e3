// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package harness is a reference agent harness with guard wired in: a
// model loop and six tools (read_file, list_files, grep, write_file,
// edit_file, bash) working in one project directory. It is an example to
// copy, kept small; it has no API stability promise.
//
// # Where guard sits
//
// guard is wired in at two places, both fed by the one engine the harness
// is built with:
//
//   - The tools offered: every request's tool definitions are those of
//     [guard.Engine.Tools] over the harness's tool set.
//   - The one dispatch point, dispatch in harness.go: every tool call the
//     model makes, advertised or not, known or not, goes through it. It
//     maps the call onto a [guard.Call] (the kind from the tool, a
//     relative path resolved against the project, the project as the
//     working directory), asks [guard.Engine.Decide], and runs the tool
//     only on [guard.Allow]. On ask or deny the tool does not run: the
//     model gets an error result with guard's reason and hint, under the
//     call's id. The bash tool starts its processes through
//     [Config.Runner] and nowhere else.
//
// The tool list and the dispatch use the same engine so that they cannot
// disagree: a tool read-only mode does not offer is also refused when the
// model calls it anyway, from memory, from a summary, or because a file in
// the repository told it to. The offer keeps the model from wasting turns;
// the dispatch is the enforcement.
//
// The engine is fixed when the harness is built. Nothing the model sees
// (the system prompt, AGENTS.md, the task, a compacted summary, a retried
// request) reaches it, so nothing the model reads can change the mode.
//
// With a nil engine the harness runs without guard: all six tools are
// offered and every call runs. (A nil [*guard.Engine] on its own denies
// everything; here nil means "no guard configured".)
//
// # What it does not promise
//
//   - Reading is not confidentiality. A read-only agent reads what the
//     policy lets it read, and the harness sends what it read, with the
//     system prompt and AGENTS.md, to the model provider: what the
//     provider is sent is the harness's business, not guard's.
//   - guard judges a call, the harness runs it. The bash tool runs exactly
//     what guard judged, bash -c in the project, or the decision's
//     [guard.Decision.Rewrite]; a harness that ran it another way would
//     run what guard did not judge.
//   - This harness has no user, so an ask is not run, like a deny. A
//     harness with a user asks them at the dispatch point.
//
// Its grep reads as ripgrep --hidden --no-follow does and runs with the
// decision's [guard.Decision.Glob], so it may be built with an engine
// loaded with [guard.Options.SearchGlobs]: a search of a tree that holds
// a .env is then allowed, with the .env left out.
package harness

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"guard"
)

// Role says who a message is from.
type Role string

const (
	User      Role = "user"
	Assistant Role = "assistant"
	Result    Role = "tool" // the result of one tool call
)

// Message is one message of the history.
type Message struct {
	Role    Role
	Text    string     // the text; for a Result, the tool's output or why it did not run
	Calls   []ToolCall // Assistant: the tool calls, in order
	CallID  string     // Result: the id of the call it answers
	IsError bool       // Result: the call failed or was not run
}

// ToolCall is one tool call of the model's.
type ToolCall struct {
	ID   string
	Name string
	Args []byte // the arguments, a JSON object
}

// Tool is the definition of a tool sent to the model.
type Tool struct {
	Name        string
	Description string
	Schema      []byte // the JSON schema of the arguments
}

// Request is what the model is sent.
type Request struct {
	System   string
	Messages []Message
	Tools    []Tool
}

// Reply is the model's answer: text, tool calls, or both.
type Reply struct {
	Text  string
	Calls []ToolCall
}

// Model is a model provider.
type Model interface {
	Complete(ctx context.Context, req Request) (Reply, error)
}

// instructionFile is the repository's instruction file, read into the
// system prompt.
const instructionFile = "AGENTS.md"

// defaultSystem is the system prompt when Config.System is "".
const defaultSystem = "You are a coding agent working in a project directory. Use the tools to do the task."

// ErrSteps is returned by [Harness.Run] when the task used up its steps.
var ErrSteps = errors.New("harness: the step limit was reached")

// Config configures a harness.
type Config struct {
	Model   Model
	Root    string // the project's absolute directory, where the tools work
	System  string // the system prompt; "" for a default
	Runner  Runner // runs the bash tool's commands; nil for ExecRunner{}
	Session string // the agent session, for guard's session grants
	// MaxSteps bounds the model requests of one Run, retries aside; 0
	// means 20.
	MaxSteps int
	// Retries is how many times a failed model request is sent again.
	Retries int
	// CompactAfter compacts the history when, after a step, it has more
	// messages than this; 0 never compacts.
	CompactAfter int
}

// Harness runs a model on tasks in one project.
type Harness struct {
	cfg     Config
	engine  *guard.Engine // nil: no guard
	system  string        // the system prompt with the instruction file
	history []Message
}

// New returns a harness that decides every tool call with e, or runs
// every call when e is nil. It reads the project's AGENTS.md, when there
// is one, into the system prompt.
func New(cfg Config, e *guard.Engine) (*Harness, error) {
	if cfg.Model == nil {
		return nil, errors.New("harness: no model")
	}
	if !filepath.IsAbs(cfg.Root) {
		return nil, fmt.Errorf("harness: the project %q is not an absolute path", cfg.Root)
	}
	cfg.Root = filepath.Clean(cfg.Root)
	if cfg.Runner == nil {
		cfg.Runner = ExecRunner{}
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = 20
	}
	h := &Harness{cfg: cfg, engine: e, system: cmp.Or(cfg.System, defaultSystem)}
	data, err := os.ReadFile(filepath.Join(cfg.Root, instructionFile))
	switch {
	case err == nil:
		h.system += "\n\nThe repository's " + instructionFile + ":\n" + string(data)
	case !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("harness: %v", err)
	}
	return h, nil
}

// Run gives the model a task and runs its tool calls until it answers
// with text only, and returns that text.
func (h *Harness) Run(ctx context.Context, task string) (string, error) {
	h.history = append(h.history, Message{Role: User, Text: task})
	for range h.cfg.MaxSteps {
		reply, err := h.complete(ctx)
		if err != nil {
			return "", err
		}
		h.history = append(h.history, Message{Role: Assistant, Text: reply.Text, Calls: reply.Calls})
		if len(reply.Calls) == 0 {
			return reply.Text, nil
		}
		for _, c := range reply.Calls {
			h.history = append(h.history, h.dispatch(ctx, c))
		}
		if h.cfg.CompactAfter > 0 && len(h.history) > h.cfg.CompactAfter {
			h.compact()
		}
	}
	return "", ErrSteps
}

// complete sends the model a request, and sends it again, built afresh,
// when it fails, up to Config.Retries times.
func (h *Harness) complete(ctx context.Context) (Reply, error) {
	var err error
	for range 1 + h.cfg.Retries {
		if ctx.Err() != nil {
			return Reply{}, ctx.Err()
		}
		var r Reply
		if r, err = h.cfg.Model.Complete(ctx, h.request()); err == nil {
			return r, nil
		}
	}
	return Reply{}, fmt.Errorf("harness: the model: %w", err)
}

// request is the next request to the model. Its tools are the engine's
// offer, asked again each time.
func (h *Harness) request() Request {
	specs := toolSpecs()
	if h.engine != nil {
		specs = h.engine.Tools(specs)
	}
	var defs []Tool
	for _, s := range specs {
		defs = append(defs, lookup(s.Name).def())
	}
	return Request{System: h.system, Messages: slices.Clone(h.history), Tools: defs}
}

// summaryHeader starts a compaction's summary.
const summaryHeader = "Summary of the conversation so far:"

// compact replaces the history before the last reply with one message
// that summarises it, as a harness does when the context fills up; the
// last reply and its results stay, so that no result is lost unseen. A
// real harness asks the model for the summary; this one writes it.
func (h *Harness) compact() {
	last := len(h.history) - 1
	for last > 0 && h.history[last].Role != Assistant {
		last--
	}
	var b strings.Builder
	b.WriteString(summaryHeader)
	calls := 0
	for _, m := range h.history[:last] {
		switch {
		case m.Role == User && strings.HasPrefix(m.Text, summaryHeader):
			b.WriteString(strings.TrimPrefix(m.Text, summaryHeader))
		case m.Role == User:
			fmt.Fprintf(&b, "\n- the user said: %s", m.Text)
		case m.Role == Assistant:
			calls += len(m.Calls)
			if m.Text != "" {
				fmt.Fprintf(&b, "\n- you said: %s", m.Text)
			}
		}
	}
	if calls > 0 {
		fmt.Fprintf(&b, "\n- you made %d tool calls.", calls)
	}
	h.history = append([]Message{{Role: User, Text: b.String()}}, h.history[last:]...)
}

// dispatch is the one place a tool call runs: it asks guard, then runs
// the tool on allow only. It always returns a result for the call's id.
func (h *Harness) dispatch(ctx context.Context, c ToolCall) Message {
	fail := func(text string) Message { return Message{Role: Result, CallID: c.ID, Text: text, IsError: true} }
	t := lookup(c.Name)
	call := guard.Call{Kind: guard.Tool, Tool: c.Name, Cwd: h.cfg.Root, Session: h.cfg.Session}
	var a args
	if t != nil {
		var err error
		if a, err = t.parse(c.Args); err != nil {
			return fail(fmt.Sprintf("%s: %v", c.Name, err))
		}
		call.Kind = t.kind
		switch t.kind {
		case guard.Shell:
			call.Command = a.Command
		case guard.Search:
			call.Path, call.Pattern = h.abs(a.Path), a.Pattern
		default:
			call.Path = h.abs(a.Path)
		}
	}
	var d guard.Decision
	if h.engine != nil {
		if d = h.engine.Decide(call); d.Verdict != guard.Allow {
			return fail(refusal(d))
		}
	}
	if t == nil {
		return fail(fmt.Sprintf("there is no tool %q", c.Name))
	}
	// What runs is what guard judged: the resolved path, the command
	// (or its rewrite) in the project.
	a.Path, a.Glob = call.Path, d.Glob
	if d.Rewrite != "" {
		a.Command = d.Rewrite
	}
	out, err := t.run(ctx, h, a)
	if len(out) > maxResult {
		out = strings.ToValidUTF8(out[:maxResult], "") + "\n[cut: the result is longer than 64 KiB]"
	}
	if err != nil {
		return fail(joinNonEmpty(out, fmt.Sprintf("%s: %v", c.Name, err)))
	}
	return Message{Role: Result, CallID: c.ID, Text: out}
}

// refusal is the model's message for a call guard did not allow.
func refusal(d guard.Decision) string {
	s := "guard: denied: " + d.Reason
	if d.Verdict == guard.Ask {
		s = "guard: needs the user's approval, and this harness cannot ask: " + d.Reason
	}
	if d.Hint != "" {
		s += "\nguard: hint: " + d.Hint
	}
	return s
}

// abs resolves a path against the project.
func (h *Harness) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(h.cfg.Root, p)
}

// joinNonEmpty joins the strings that are not "" with newlines.
func joinNonEmpty(ss ...string) string {
	return strings.Join(slices.DeleteFunc(ss, func(s string) bool { return s == "" }), "\n")
}
