// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package guard is guard's policy engine for the authors of agent
// harnesses: a program that runs a model and dispatches the tool calls it
// makes. The harness loads a policy once, asks [Engine.Tools] which of its
// tools to offer the model, and asks [Engine.Decide] at its one dispatch
// point, before any tool runs, whether to run the call. Both answers come
// from the same policy and mode, so a tool the model is not offered is
// also refused when the model calls it anyway.
//
// # What is promised
//
//   - A call runs only on [Allow]. Whatever guard does not positively
//     understand (an unknown kind, a missing field, a relative working
//     directory, a shell command it cannot parse) is [Deny], with the
//     reason.
//   - In read-only mode ([Options.ReadOnly], or a policy that says
//     read_only), only the reading kinds are offered and allowed: read,
//     list and search; and the shell only where the harness asks for it
//     ([Options.ReadOnlyShell]), for the policy's read-only commands,
//     run in guard's read-only sandbox ([Options.Sandbox]) or, where the
//     policy says read_only_shell, without it. Nothing the model, the
//     task text or a file in the repository says can widen the mode: it
//     is the harness's to set.
//   - A search of a tree that holds a secret is refused, unless the
//     harness's search takes ripgrep's globs ([Options.SearchGlobs]):
//     then it is allowed with the secrets named by a name alone (.env)
//     left out by [Decision.Glob].
//   - A zero [Engine], a nil one, and an engine whose policy did not load
//     deny every call and offer no tool.
//   - An Engine is safe for concurrent use.
//
// # What is not promised
//
//   - Reading is not confidentiality. A read-only agent reads what the
//     policy lets it read (the policy's secrets aside), and what the
//     harness sends its model provider is the harness's business.
//   - guard judges a call; the harness runs it. A harness that runs a
//     command otherwise than guard parsed it (another shell, another
//     working directory) runs what guard did not judge. Run shell commands
//     with bash -c in the call's working directory, in an environment
//     without BASH_ENV and ENV (which make bash run a file first), or run
//     [Decision.Rewrite] where guard gives one.
//   - An ask is the harness's to put to its user. [Engine.Approve] records
//     the user's yes, so that the session tier does not ask again.
//   - The API has no stability promise before guard's first release.
package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"guard/engine"
	"guard/internal/setup"
	"guard/policy"
)

// The kinds of call: what a tool does, whatever the harness names it.
const (
	Shell  = "shell"  // runs Call.Command in a shell
	Read   = "read"   // reads the file Call.Path
	List   = "list"   // lists names under Call.Path ("" is the working directory)
	Search = "search" // searches the files under Call.Path for Call.Pattern
	Write  = "write"  // writes the file Call.Path whole
	Edit   = "edit"   // changes the file Call.Path in place
	Fetch  = "fetch"  // fetches Call.URL
	Tool   = "tool"   // any other tool: the policy's [tools] table decides by its name
)

// Verdict is a decision's answer: run the call, ask the user, or refuse it.
type Verdict string

const (
	Allow Verdict = "allow"
	Ask   Verdict = "ask"
	Deny  Verdict = "deny"
)

// Options say which policy an engine decides with.
type Options struct {
	// Config is a policy file (TOML, as guard check reads it). "" means
	// the embedded policy Policy names.
	Config string
	// Policy names an embedded policy when Config is "": "default" (also
	// for ""), or a built-in profile such as "review".
	Policy string
	// ReadOnly is read-only mode: only reading tools are offered and
	// allowed, whatever the policy says.
	ReadOnly bool
	// ReadOnlyShell offers the shell in read-only mode, for the policy's
	// read-only commands: where Sandbox is set, they run in guard's
	// read-only sandbox, which writes nothing in the project; without it,
	// only where the policy says read_only_shell (the review profile).
	// Otherwise read-only mode offers no shell.
	ReadOnlyShell bool
	// SearchGlobs says that the harness's search tool reads the files
	// under its path as ripgrep --hidden --no-follow does and takes
	// ripgrep's -g globs, the later one deciding: then a search of a tree
	// that holds secrets named by a name alone (.env) is allowed, with
	// [Decision.Glob] the globs to run it with, which leave them out.
	// Without it such a search is refused.
	SearchGlobs bool
	// Shell is the shell the harness runs commands in: "bash" or "zsh".
	// "" judges each command as both would read it.
	Shell string
	// Env is the environment the harness runs its tools in (HOME, PATH,
	// LANG, XDG_*): nil means the process's own.
	Env func(string) string
	// Managed is a policy file that decides beside the policy, whatever
	// it says, as an administrator's managed policy does for guard hook.
	// It is loaded once.
	Managed string
	// Sandbox is the command line that runs a command in guard's kernel
	// sandbox (guard run, with its flags). With it, an allowed shell
	// command the policy runs in the sandbox comes back rewritten to run
	// under it ([Decision.Rewrite]); without it, such a command asks.
	Sandbox []string
	// Log appends every decision to guard's decision log, in guard's
	// state directory ($XDG_STATE_HOME/guard/log, else
	// ~/.local/state/guard/log) as Env gives it, beside guard hook's:
	// guard log, guard suggest and guard diff read it. A decision that
	// cannot be logged stands, unless the policy says log_required: then
	// the call is denied.
	Log bool
	// Harness names the harness in the decision log; "" is "harness".
	Harness string
}

// ToolSpec is one tool of a harness's tool set.
type ToolSpec struct {
	Name string // the harness's name of the tool
	// Kind is what the tool does: one of the kinds, or "" for the
	// policy's [tools] table to say by the tool's name.
	Kind string
}

// Call is one tool call to decide.
type Call struct {
	Kind    string // one of the kinds; "" leaves it to the policy's [tools] table, by Tool
	Tool    string // the harness's name of the tool, for messages and for Kind tool
	Command string // shell: the command line
	Path    string // read, list, search, write, edit: the file or directory, absolute or relative to Cwd
	Pattern string // search, list: what is looked for
	// Glob is a search's own filter of the files it reads, in ripgrep's
	// -g syntax (globs separated by spaces, ! excluding, relative to
	// Path): not judged, but one that may name files outside Path is
	// refused, and guard adds to it what keeps secrets out
	// ([Options.SearchGlobs]).
	Glob    string
	URL     string // fetch: the URL
	Cwd     string // the call's absolute working directory
	Session string // the agent session, for the session tier's grants ("" for none)
}

// Decision is the answer to a call.
type Decision struct {
	Verdict Verdict
	Reason  string // why, in one line
	Hint    string // what to do instead, for a call that is not allowed; "" when there is nothing to say
	Rule    string // the policy rule that decided, "" when none did
	// Rewrite, when not "", is the command to run instead of the call's:
	// the policy runs the command under guard run, in the kernel sandbox.
	Rewrite string
	// Glob, when not "", is the glob field to run a search with instead
	// of the call's: its own globs, then those that leave out the
	// secrets under its path ([Options.SearchGlobs]).
	Glob string
}

// Engine decides calls with one policy and mode. Build it with [Load].
type Engine struct {
	layers        *policy.Layers
	managed       *policy.Policy
	readOnly      bool
	readOnlyShell bool // Options.ReadOnlyShell
	searchGlobs   bool // Options.SearchGlobs
	shell         string
	env           setup.Getenv
	// base is the context every call starts from: the homes, guard's own
	// directories, the agents' configuration paths, the locale.
	base    engine.Call
	grants  memGrants
	journal *journal // the decision log; nil for none
	harness string
	// mu guards reloads of the policy file.
	mu      sync.RWMutex
	config  string
	stamp   fileStamp
	loadErr error
}

// Load loads the policy options name, checks it (its examples must get
// their verdicts), and returns the engine that decides with it. A policy
// that does not load is an error naming the file and line.
func Load(opts Options) (*Engine, error) {
	e := &Engine{readOnly: opts.ReadOnly, readOnlyShell: opts.ReadOnlyShell, searchGlobs: opts.SearchGlobs, env: opts.Env, config: opts.Config}
	if e.env == nil {
		e.env = os.Getenv
	}
	switch opts.Shell {
	case "", "bash", "zsh":
		e.shell = opts.Shell
	default:
		return nil, fmt.Errorf("guard: shell %q: want bash, zsh or \"\"", opts.Shell)
	}
	var p *policy.Policy
	var err error
	if opts.Config != "" {
		if e.config, err = filepath.Abs(opts.Config); err != nil {
			return nil, fmt.Errorf("guard: %v", err)
		}
		e.stamp = stampOf(e.config)
		p, _, err = setup.LoadFile(e.config)
	} else {
		p, err = policy.Builtin(cmpOr(opts.Policy, "default"))
	}
	if err != nil {
		return nil, fmt.Errorf("guard: %w", err)
	}
	if opts.Managed != "" {
		if e.managed, _, err = setup.LoadFile(opts.Managed); err != nil {
			return nil, fmt.Errorf("guard: the managed policy: %w", err)
		}
	}
	if opts.Log {
		j := newJournal(e.env, nil)
		if j.log == nil {
			return nil, fmt.Errorf("guard: the decision log: neither XDG_STATE_HOME nor HOME is an absolute path")
		}
		e.journal = &j
		e.harness = cmpOr(opts.Harness, "harness")
	}
	e.layers = &policy.Layers{Managed: e.managed, User: p}
	e.base = setup.Context(e.env, "/", e.shell, e.readOnly)
	e.base.Run = slices.Clone(opts.Sandbox)
	if len(e.base.Run) == 0 {
		e.base.NoRun = "the harness runs commands itself"
	}
	return e, nil
}

// Reload loads the policy file again when it changed since it was
// loaded: its size, modification time or inode. While the file does not
// load, every call is denied with its error; once it loads, the new
// policy decides. An engine of an embedded policy never reloads. Decide
// does not reload: a harness that wants the policy's changes calls it, as
// guard serve does before each call.
func (e *Engine) Reload() error {
	if e == nil || e.config == "" {
		return nil
	}
	st := stampOf(e.config)
	e.mu.RLock()
	same := st == e.stamp
	err := e.loadErr
	e.mu.RUnlock()
	if same {
		return err
	}
	p, _, err := setup.LoadFile(e.config)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stamp, e.loadErr = st, err
	if err == nil {
		e.layers = &policy.Layers{Managed: e.managed, User: p}
	}
	return err
}

// fileStamp tells a changed file from an unchanged one.
type fileStamp struct {
	size, inode uint64
	mtime       int64
	ok          bool
}

func stampOf(name string) fileStamp {
	fi, err := os.Stat(name)
	if err != nil {
		return fileStamp{}
	}
	st := fileStamp{size: uint64(fi.Size()), mtime: fi.ModTime().UnixNano(), ok: true}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.inode = sys.Ino
	}
	return st
}

// PolicyName returns the name of the policy the engine decides with: its
// file, or the embedded policy's name.
func (e *Engine) PolicyName() string {
	l, _ := e.current()
	if l == nil {
		return ""
	}
	return l.Name()
}

// current returns the layers to decide with, and the error that denies
// every call instead.
func (e *Engine) current() (*policy.Layers, error) {
	if e == nil {
		return nil, fmt.Errorf("no policy is loaded")
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.loadErr != nil {
		return nil, fmt.Errorf("the policy does not load: %v", e.loadErr)
	}
	if e.layers == nil {
		return nil, fmt.Errorf("no policy is loaded")
	}
	return e.layers, nil
}

// Offers reports whether the engine offers a tool: whether any call of it
// can be allowed. In read-only mode only the reading kinds are offered,
// and the shell where the harness asks for it ([Options.ReadOnlyShell])
// and its read-only commands can run: in guard's read-only sandbox
// ([Options.Sandbox]), or without it where the policy says
// read_only_shell. Otherwise every kind is. A tool the policy's [tools]
// table denies by its name is not offered in either mode.
func (e *Engine) Offers(t ToolSpec) bool {
	l, err := e.current()
	if err != nil {
		return false
	}
	readOnly := e.readOnly || l.ReadOnly()
	shell := e.readOnlyShell && (len(e.base.Run) > 0 || l.ReadOnlyShell())
	kind := t.Kind
	switch kind {
	case "":
		tier := l.ToolTier(t.Name, readOnly, shell)
		if kind = tierKind(tier); kind == "" {
			return tier != "deny"
		}
	case Tool:
		return t.Name != "" && l.ToolTier(t.Name, readOnly, shell) != "deny"
	case Shell, Read, List, Search, Write, Edit, Fetch:
	default:
		return false
	}
	if t.Name != "" && slices.Contains(l.ToolNames(), t.Name) && l.ToolTier(t.Name, false, false) == "deny" {
		return false
	}
	if !readOnly {
		return true
	}
	if kind == Shell {
		return shell
	}
	tier, _ := policy.TierNamed(kind) // read, list, search: [policy.Tier.ReadOnly]
	return tier.ReadOnly()
}

// tierKind is the kind a [tools] tier makes a tool's call, "" for a tier
// that is a verdict.
func tierKind(tier string) string {
	switch tier {
	case "shell", "read", "list", "search", "write", "edit", "fetch":
		return tier
	}
	return ""
}

// Tools returns the tools of a harness's tool set that the engine offers,
// in their order: what the harness advertises to its model.
func (e *Engine) Tools(tools []ToolSpec) []ToolSpec {
	var out []ToolSpec
	for _, t := range tools {
		if e.Offers(t) {
			out = append(out, t)
		}
	}
	return out
}

// Decide decides a call. It never fails: what it cannot judge is denied,
// with the reason. A tool the engine does not offer is denied whatever
// its input.
func (e *Engine) Decide(c Call) Decision {
	d, full, l := e.judge(c)
	return e.record("PreToolUse", c, d, full, l)
}

// judge decides a call, and returns the engine's decision and the
// policies that made it too, nil for a call refused before the policy
// judged it.
func (e *Engine) judge(c Call) (Decision, *engine.Decision, *policy.Layers) {
	l, err := e.current()
	if err != nil {
		return Decision{Verdict: Deny, Reason: err.Error(), Hint: "fix the policy file"}, nil, nil
	}
	refuse := func(d Decision) (Decision, *engine.Decision, *policy.Layers) { return d, nil, l }
	if !filepath.IsAbs(c.Cwd) {
		return refuse(Decision{Verdict: Deny, Reason: fmt.Sprintf("the call's working directory %q is not an absolute path", c.Cwd)})
	}
	switch c.Kind {
	case "", Shell, Read, List, Search, Write, Edit, Fetch, Tool:
	default:
		return refuse(Decision{Verdict: Deny, Reason: fmt.Sprintf("guard does not know calls of kind %q", c.Kind),
			Hint: "give the call one of the kinds shell, read, list, search, write, edit, fetch or tool"})
	}
	if (c.Kind == "" || c.Kind == Tool) && c.Tool == "" {
		return refuse(Decision{Verdict: Deny, Reason: "a call of kind tool names no tool"})
	}
	if globLeavesPath(c.Glob) {
		return refuse(Decision{Verdict: Deny, Reason: fmt.Sprintf("the search's glob %q reaches outside its path", c.Glob),
			Hint: "give a glob relative to the search's path, without .., a leading / or ~, or a backslash"})
	}
	if !e.Offers(ToolSpec{Name: c.Tool, Kind: c.Kind}) {
		what := c.Tool
		if what == "" {
			what = c.Kind
		}
		if e.readOnly || l.ReadOnly() {
			return refuse(Decision{Verdict: Deny, Reason: fmt.Sprintf("read-only mode does not offer %s", what), Rule: "read-only",
				Hint: "read, search and list files instead"})
		}
		return refuse(Decision{Verdict: Deny, Reason: fmt.Sprintf("the policy does not offer %s", what), Rule: "tools." + c.Tool})
	}
	d := e.decide(l, c)
	return decisionOf(&d), &d, l
}

// decide decides a call with the engine's context and session grants.
func (e *Engine) decide(l *policy.Layers, c Call) engine.Decision {
	call := e.base
	call.Cwd = filepath.Clean(c.Cwd)
	call.Project = setup.ProjectDir(e.env, call.Cwd)
	call.Kind, call.Tool, call.Session = engine.Kind(c.Kind), c.Tool, c.Session
	call.Input = engine.Input{Command: c.Command, Path: c.Path, Pattern: c.Pattern, URL: c.URL, Glob: c.Glob}
	call.SearchGlobs = e.searchGlobs
	call.Grants = &e.grants
	return engine.DecideLayers(l, call)
}

// Approve records that the harness's user approved a call that Decide
// asked about, and returns the call's decision after that: the parts of
// the session tier (an edit in a directory, git commit, a tool) are
// granted for the rest of the call's session, so that Decide allows the
// same kind of call from then on without asking, and the decision is
// then an allow if nothing else in the call asks. A part that asks each
// time stays an ask: the harness runs the call once on its user's word,
// and asks again next time. Approve grants nothing to a call without a
// session, nor to one that is denied; grants last as long as the engine.
func (e *Engine) Approve(c Call) Decision {
	l, err := e.current()
	if err != nil || c.Session == "" || !filepath.IsAbs(c.Cwd) {
		return e.Decide(c)
	}
	first, _, _ := e.judge(c)
	if first.Verdict != Ask {
		return e.Decide(c)
	}
	d := e.decide(l, c)
	for _, leaf := range d.Leaves {
		if leaf.Grantable() {
			e.grants.add(c.Session, *leaf.Scope)
		}
	}
	after, full, l := e.judge(c)
	return e.record("approve", c, after, full, l)
}

// record writes a decision to the decision log, when the engine keeps
// one, and returns it; or a deny, when the policy requires the log and
// the line cannot be written.
func (e *Engine) record(event string, c Call, d Decision, full *engine.Decision, l *policy.Layers) Decision {
	if e == nil || e.journal == nil {
		return d
	}
	call := engine.Call{Kind: engine.Kind(c.Kind), Tool: cmpOr(c.Tool, c.Kind), Session: c.Session,
		Input: engine.Input{Command: c.Command, Path: c.Path, Pattern: c.Pattern, URL: c.URL, Glob: c.Glob}, Run: e.base.Run}
	raw := map[string]any{"kind": c.Kind, "tool": c.Tool, "command": c.Command, "path": c.Path, "pattern": c.Pattern, "glob": c.Glob, "url": c.URL, "cwd": c.Cwd}
	entry := setup.LogEntry(setup.Logged{Agent: e.harness, Event: event, Session: c.Session, Raw: raw}, call, full, l)
	switch {
	case full == nil:
		// Refused before the policy judged it: guard's own deny.
		entry.Decision, entry.Authority, entry.Reason = "denied", setup.ByGuard, d.Reason
	case event == "approve":
		entry.Authority = setup.ByUser
	}
	if err := e.journal.write(entry); err != nil && l != nil && l.LogRequired() {
		return Decision{Verdict: Deny, Reason: fmt.Sprintf("the decision log cannot be written, and the policy requires it (log_required): %v", err),
			Hint: "ask the user to fix guard's state directory"}
	}
	return d
}

// memGrants are the session tier's grants of an engine, in memory.
type memGrants struct {
	mu sync.Mutex
	m  map[string][]engine.Scope // by session
}

func (g *memGrants) add(session string, s engine.Scope) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m == nil {
		g.m = map[string][]engine.Scope{}
	}
	g.m[session] = append(g.m[session], s)
}

// Granted returns "mem" when a grant of the session covers s.
func (g *memGrants) Granted(session string, s engine.Scope) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, have := range g.m[session] {
		if have.Covers(s) {
			return "mem"
		}
	}
	return ""
}

// decisionOf is the API's form of an engine decision.
func decisionOf(d *engine.Decision) Decision {
	out := Decision{Verdict: verdictOf(d.Verdict), Reason: oneLine(d.Reason()), Hint: oneLine(d.Hint()), Rule: d.Deciding().Rule}
	if d.Rewrite != nil {
		out.Rewrite, out.Glob = d.Rewrite.Command, d.Rewrite.Glob
	}
	if out.Verdict == Allow {
		out.Hint = ""
	}
	return out
}

// verdictOf maps the engine's verdicts onto the API's: the session tier,
// which needs the user's approval once, is an ask.
func verdictOf(v engine.Verdict) Verdict {
	switch v {
	case engine.Allow:
		return Allow
	case engine.Deny:
		return Deny
	}
	return Ask
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// oneLine flattens a message for one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
