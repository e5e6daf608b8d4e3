// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"guard/policy"
	"guard/shellparse"
)

// Kind is what a call does, whatever the agent names its tool. An agent
// adapter, or the policy's [tools] table, gives each tool its kind.
type Kind string

const (
	KindShell  Kind = "shell"  // runs Input.Command in a shell
	KindRead   Kind = "read"   // reads the file Input.Path
	KindWrite  Kind = "write"  // writes the file Input.Path whole
	KindEdit   Kind = "edit"   // changes the file Input.Path in place
	KindList   Kind = "list"   // lists names under Input.Path ("" is the working directory)
	KindSearch Kind = "search" // searches the files under Input.Path ("" is the working directory) for Input.Pattern
	KindFetch  Kind = "fetch"  // fetches Input.URL
	KindTool   Kind = "tool"   // any other tool: its name's tier in the policy decides
)

// Input is what guard judges of a call's input. An adapter fills the
// fields of the call's kind from the agent's own input, and leaves a field
// empty when the agent's input does not hold it as a string: an empty
// field that the kind needs is denied.
type Input struct {
	Command string // shell: the command line
	Path    string // read, write, edit, list, search: the file or directory
	Pattern string // list, search: what is looked for; not judged
	URL     string // fetch: the URL
	// Glob is a search's filter of the files it reads, in ripgrep's -g
	// syntax, for a tool that takes one (Claude Code's Grep): not judged,
	// but guard adds to it what keeps secrets out (Call.SearchGlobs).
	Glob string
}

// Call is one tool call to decide: what it does (its kind and input), where
// (its context), and in which mode.
type Call struct {
	// Kind is what the call does. "" leaves it to the policy: the [tools]
	// table gives Tool its kind, or a verdict.
	Kind Kind
	// Tool is the tool's name as the agent calls it (Bash, Read,
	// mcp__github__get_issue): for messages, and for KindTool its tier.
	Tool  string
	Input Input

	Cwd     string   // the absolute working directory of the call
	Project string   // the absolute project root; "" means Cwd
	Home    string   // the user's home directory ($HOME); "" means unknown
	Homes   []string // other homes of the user (the passwd entry's): ~ in secret and protected paths stands for each
	// ExecPath is the agent's search path for programs ($PATH), where guard
	// finds the go whose version go.mod lines are compared with.
	ExecPath string
	// Protect names more directories no write may touch: guard's own
	// state and the user's policy, wherever the environment puts them.
	Protect []string
	// AgentPaths are path patterns of the agents' own configuration
	// (settings, hooks, instructions), protected like the policy's
	// protected paths. The agent adapters give them.
	AgentPaths []string
	Temp       string // the system temp directory; "" means unknown
	// Getenv looks up a variable of the agent's environment, for the path
	// patterns that name one ({$CODEX_HOME}/auth.json: where Codex keeps
	// its sign-in when CODEX_HOME is set). Nil is an empty environment.
	Getenv func(name string) string `json:"-"`
	Guard  string                   // the guard binary, a protected path; "" means unknown
	// Locale is the agent's locale, as LC_ALL, else LC_CTYPE, else LANG
	// of its environment set it ("" when none is). Outside C, POSIX and
	// UTF-8 locales a command holding non-ASCII bytes is refused: the shell
	// would split it into characters differently.
	Locale string
	// Shell is the shell the agent runs commands in: "bash", "zsh", or ""
	// when unknown. Unless it is bash, a command is judged as bash and as
	// zsh would read it, and allowed only when it is safe in both.
	Shell string

	// SearchGlobs says that the call's search tool reads as ripgrep with
	// --hidden --no-follow does, and takes ripgrep's -g globs in
	// Input.Glob, the later one deciding (Claude Code's Grep). Then a
	// search of a tree that holds secrets named by a name alone (.env) is
	// allowed, rewritten to leave them out (!**/.env), where it would
	// otherwise ask.
	SearchGlobs bool

	// ReadOnly puts the call in read-only mode, whatever the policy says
	// (guard hook --read-only). Nothing in the call can take it away.
	ReadOnly bool
	// readOnlyShell is read_only_shell from the layer that put the call
	// in read-only mode, for a layer that did not (DecideLayers).
	readOnlyShell bool
	// Run is the command line of guard run for the call (the guard binary,
	// "run" and its flags), with which an allowed shell command is
	// rewritten when the policy's [sandbox] says run. Empty, the call
	// cannot run in the sandbox, and NoRun says why.
	Run   []string
	NoRun string
	// Deadline, when set, is when the decision must be made: a decision
	// still walking the commands of a script then denies. The hook's
	// watchdog stays the backstop for work that does not check it.
	Deadline time.Time
	// Session is the agent session the call belongs to, "" when unknown.
	Session string
	// Grants answers for the session tier: a session-tier part of the call
	// that a grant of the session covers is allowed. Nil grants nothing.
	Grants Grants
	// Explain records how guard read each command, in its leaf's
	// Explained, for guard explain. It costs time the hook does not spend.
	Explain bool
	// FS is the file system the call's paths resolve in: links, git
	// repositories, go.mod files, the trees recursive readers walk. Nil is
	// the operating system's.
	FS FS
}

// Grants is a store of what agent sessions were granted.
type Grants interface {
	// Granted returns the id of a grant of the session that covers the
	// scope of a session-tier part of a call, or "" when none does.
	Granted(session string, s Scope) string
}

// A Scope is what a grant of the session tier covers: its Kind is one of
// policy.GrantRule, GrantCall, GrantDir, GrantFile and GrantTool, and its
// Key the rule's id, the command line (in its directory), the directory
// or the file (real, absolute paths), or the tool's name. A grant of a
// directory covers the files under it too; every other grant covers only
// its key.
type Scope struct {
	Kind string `json:"kind"`
	Key  string `json:"key"`
}

// Covers reports whether a grant of s covers a call of scope o.
func (s Scope) Covers(o Scope) bool {
	switch {
	case s.Kind == policy.GrantDir && (o.Kind == policy.GrantDir || o.Kind == policy.GrantFile):
		return o.Key == s.Key || strings.HasPrefix(o.Key, strings.TrimSuffix(s.Key, "/")+"/")
	case s.Kind != o.Kind:
		return false
	}
	return s.Key == o.Key
}

// String names the scope for people: "rule git commit", "dir /p/src",
// "call \"make x\" in /p".
func (s Scope) String() string {
	if dir, cmd, ok := strings.Cut(s.Key, "\x00"); ok && s.Kind == policy.GrantCall {
		return fmt.Sprintf("%s %q in %s", s.Kind, cmd, dir)
	}
	return s.Kind + " " + s.Key
}

// Leaf is the verdict on one part of a call.
type Leaf struct {
	Verdict Verdict
	Kind    string         // tool, command, redirect, assignment, construct, input
	Text    string         // the part as written
	Pos     shellparse.Pos // its position in the command, if it has one
	Rule    string         // the rule that decided; "" when none matched and the default applied
	Why     string         // why, in words the agent can act on
	Hint    string         // what is allowed instead, if anything

	// For a command: the programs it runs, as named (a wrapper and the
	// command it wraps, find and its -exec command), and patterns of the
	// programs those may start themselves (git its helpers, go test its
	// compilers), from the rules' children lists. A pattern without a
	// slash matches a program's base name; with one, its path.
	Programs []string
	Children []string
	// Sandbox names the sandbox profiles the rules allow the command in
	// (read-only, build, test): it is allowed only to run in the sandbox.
	Sandbox []string
	// Writes marks a command or a redirection that writes files the
	// policy let it write: a redirection into a file, or a command of a
	// rule that is not read_only and names no sandbox profile (git commit
	// once granted, mkdir, sed -i). Allowed, the call runs in the sandbox
	// with the project writable.
	Writes bool
	// Unbound says why a command runs outside the sandbox, as its rule
	// says (unbound = "..."): it needs what the sandbox withholds, the
	// network and the user's credentials. Allowed, the call runs as it is,
	// where every other part only reads and every layer agrees.
	Unbound string

	// Scope is what a grant would cover, for a part of the session tier:
	// it asks until the session holds a grant of its scope, and then it is
	// allowed, with Grant the grant's id. A part of the session tier
	// without a scope (a write whose directory is not known) always asks.
	Scope *Scope
	Grant string
	// Review marks a part the policy does not classify (a tool missing
	// from [tools]): the decision log flags it for review.
	Review bool
	// Explained is how guard read the command, for a call that asks
	// (Call.Explain); nil otherwise, and for other kinds of leaf.
	Explained *Explained
}

// Grantable reports whether approving the leaf would grant its scope: it
// is of the session tier, and no grant covers it yet.
func (l *Leaf) Grantable() bool { return l.Scope != nil && l.Grant == "" && l.Verdict == Ask }

// Decision is the verdict on a whole call and on each of its parts.
type Decision struct {
	Verdict  Verdict
	Leaves   []Leaf
	Policy   string // the name of the policy that decided
	ReadOnly bool   // the call was decided in read-only mode
	Kind     Kind   // what the call was judged as; "" when it was denied before that was known
	// Rewrite, when set, is the input the agent is to run instead of the
	// call's, with the same verdict: a shell command guard wraps to run
	// in a sandbox, say. An adapter whose agent cannot take a rewritten
	// input denies the call rather than run the original.
	Rewrite *Input
}

// Deciding returns the first leaf whose verdict is the decision's.
func (d *Decision) Deciding() Leaf {
	for _, l := range d.Leaves {
		if l.Verdict == d.Verdict {
			return l
		}
	}
	return Leaf{Verdict: d.Verdict, Kind: "input", Why: "nothing to decide"}
}

// Reason says why the call got its verdict.
func (d *Decision) Reason() string {
	if d.Verdict == policy.Allow {
		leaves, unbounded := d.Leaves, ""
		if n := len(leaves); n > 1 && leaves[n-1].Kind == "sandbox" {
			// A shell call that runs outside the sandbox says why.
			leaves, unbounded = leaves[:n-1], "; "+leaves[n-1].Why
		}
		return allowReason(leaves) + unbounded
	}
	return d.Deciding().Why
}

// allowReason says why a call whose leaves are these is allowed.
func allowReason(leaves []Leaf) string {
	if len(leaves) == 1 {
		return leaves[0].Why
	}
	var cmds []string
	for _, l := range leaves {
		if l.Kind == "command" || l.Kind == "tool" {
			cmds = appendOnce(cmds, l.Text)
		}
	}
	s := fmt.Sprintf("every part is allowed: %s", strings.Join(cmds, "; "))
	if len(cmds) == 0 {
		// A file tool's path and what it reads: each says why.
		var whys []string
		for _, l := range leaves {
			whys = appendOnce(whys, l.Why)
		}
		s = strings.Join(whys, "; ")
	}
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// appendOnce appends s to list unless list says it already: a reason
// names a part, or gives a why, once.
func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// SandboxOnly reports whether a part of the call is allowed only in the
// sandbox (a rule's sandbox = "test", python's code, a search of a tree
// that holds a .env): where guard run cannot run, the call asks. Every
// other allowed shell call runs in the sandbox too where it can, and on
// guard's judgment alone where it cannot.
func (d *Decision) SandboxOnly() bool {
	return slices.ContainsFunc(d.Leaves, func(l Leaf) bool { return len(l.Sandbox) > 0 })
}

// Hint says what is allowed instead, or "".
func (d *Decision) Hint() string {
	if d.Verdict == policy.Allow {
		return ""
	}
	return d.Deciding().Hint
}
