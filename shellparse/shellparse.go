// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package shellparse turns shell source into the flat list of simple commands
// that the shell would run, so that a policy can judge each one.
//
// [Parse] parses with mvdan.cc/sh/v3 and walks every node of the syntax tree
// with a type switch whose default case is an error: a construct this package
// does not know is never passed over. For every simple command it reports the
// argument words resolved exactly as bash passes them to the program, or marks
// a word dynamic when its value is only known at run time; the environment
// assignments; the redirections; the constructs it sits in; and the working
// directories it may run in, as far as literal cd commands tell.
//
// Constructs that a policy must see but that are not simple commands are
// reported as [Finding]s: substitutions, background jobs, function
// definitions, eval, arithmetic evaluation and the like. Parse does not decide
// anything; it knows no policy.
//
// Input is bounded before it is parsed (see [Limits]) and characters that the
// parser and the shell read differently (NUL, CR, other control characters,
// invalid UTF-8, bidi and zero-width code points) are rejected. Every error
// is an [*Error] with a position; an error never comes with commands.
//
// This package has no API stability promise outside this module.
package shellparse

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Dialect is the shell language the source is parsed as. It should be the
// language of the shell that will run the command.
type Dialect int

const (
	Bash  Dialect = iota // bash 5.2; the zero value
	POSIX                // POSIX sh, as dash runs it
)

func (d Dialect) String() string {
	switch d {
	case Bash:
		return "bash"
	case POSIX:
		return "sh"
	}
	return fmt.Sprintf("Dialect(%d)", int(d))
}

func (d Dialect) variant() syntax.LangVariant {
	if d == POSIX {
		return syntax.LangPOSIX
	}
	return syntax.LangBash
}

// Limits bound the input that Parse accepts. A zero field takes its value
// from [Defaults].
type Limits struct {
	MaxBytes int // length of the source in bytes
	MaxDepth int // nesting of subshells, groups, substitutions and compound commands
	MaxWords int // words in the whole source, counting every argument, assignment and redirection target
}

// Defaults returns the limits Parse applies where [Limits] leaves a field
// zero. They are generous for commands a person or an agent writes and small
// enough that parsing stays within a few milliseconds.
func Defaults() Limits {
	return Limits{
		MaxBytes: 64 << 10, // 64 KiB
		MaxDepth: 64,
		MaxWords: 8192,
	}
}

// Pos is a position in the source: 1-based line and column (in bytes).
type Pos struct {
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

func position(p syntax.Pos) Pos { return Pos{Line: int(p.Line()), Col: int(p.Col())} }

// Error is a reason Parse refused the source.
type Error struct {
	Pos  Pos    // zero when the error concerns the whole input
	Msg  string // lower case, no position
	Kind Kind   // the construct refused, when the refusal is for one (line-continuation); "" otherwise
}

func (e *Error) Error() string {
	if e.Pos == (Pos{}) {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

func errorf(p Pos, format string, a ...any) *Error {
	return &Error{Pos: p, Msg: fmt.Sprintf(format, a...)}
}

// Script is what one piece of shell source would do.
type Script struct {
	// Commands holds every simple command in source order, wherever it
	// hides: pipelines, lists, subshells, groups, substitutions, compound
	// command bodies, function bodies.
	Commands []Command
	// Assigns holds assignments that outlive a single command: variable
	// assignments standing alone (X=1), export, and for-loop variables.
	Assigns []Assign
	// Redirects holds redirections that do not belong to a simple command:
	// those of compound commands ({ ...; } >f) and bare ones (>f).
	Redirects []Redirect
	// Findings holds the constructs a policy must judge besides commands.
	Findings []Finding
	// Words counts the words parsed, towards Limits.MaxWords.
	Words int
}

// Command is one simple command.
type Command struct {
	Args    []Word     // argv, Args[0] being the command name; never empty
	Assigns []Assign   // NAME=value prefixes, exported to this command only
	Redirs  []Redirect // redirections of this command
	Context []Frame    // the constructs it sits in, outermost first
	Dir     Dir        // where it may run
	Pos     Pos
	Source  string // the command as written, without its redirections' statement
}

// Name returns the command name if it is a constant, or "".
func (c *Command) Name() string {
	if len(c.Args) == 0 || c.Args[0].Dynamic != "" || c.Args[0].Glob || c.Args[0].Tilde {
		return ""
	}
	return c.Args[0].Value
}

// Word is one shell word: an argument, an assignment value or a redirection
// target.
type Word struct {
	// Value is the exact string the shell passes when the word is
	// constant. For a Glob word it is the pattern with quotes removed; for a
	// Tilde word it starts with "~" which the shell replaces with $HOME.
	Value string
	// Dynamic is empty for a constant word. Otherwise it names what makes
	// the value unknown until run time ("parameter expansion", "command
	// substitution", "brace expansion", ...), and Value is meaningless.
	Dynamic string
	// Glob reports unquoted pattern characters (* ? [...]): the shell
	// replaces the word with the names of matching files, which may be any
	// number of words, each of which may look like an option.
	Glob bool
	// GlobLead reports that a Glob word starts with a pattern character
	// (or a "-"), so a file name it matches may start with "-" and act as an
	// option. A glob such as src/*.rs always expands to words that start
	// with "src/".
	GlobLead bool
	// Tilde reports a leading unquoted "~" or "~/": the word is a path
	// under the user's home directory.
	Tilde  bool
	Pos    Pos
	Source string // the word as written
	// Parts are the word's own command substitutions and parameter
	// expansions, in it or in its double quotes, not those nested in
	// them: what gives a Dynamic word its value. Each is also a Finding
	// at the same position.
	Parts []Part
}

// Part is a command substitution or a parameter expansion of a word.
type Part struct {
	Kind Kind // KindCmdSubst or KindParamExp
	Pos  Pos
	// Name is the variable of a plain parameter expansion, $NAME or
	// ${NAME}; "" for any other (with an operator, an index, a length).
	Name string
}

// Constant reports whether the word is one known string: not dynamic, not a
// glob. A Tilde word is constant up to the value of $HOME.
func (w *Word) Constant() bool { return w.Dynamic == "" && !w.Glob }

// MayBeOption reports whether the word, as the program sees it, may start
// with "-": a constant that does, a glob that may expand to such a file
// name, or a dynamic word.
func (w *Word) MayBeOption() bool {
	switch {
	case w.Dynamic != "":
		return true
	case w.Glob:
		return w.GlobLead
	}
	return strings.HasPrefix(w.Value, "-")
}

// AssignScope says how long an assignment lasts.
type AssignScope int

const (
	ScopeCommand AssignScope = iota // NAME=v cmd: in the environment of cmd only
	ScopeShell                      // NAME=v standing alone: for the rest of the shell
	ScopeExport                     // export NAME=v: for the rest of the shell and its children
	ScopeLoop                       // for NAME in ...: set by a loop
)

func (s AssignScope) String() string {
	switch s {
	case ScopeCommand:
		return "command"
	case ScopeShell:
		return "shell"
	case ScopeExport:
		return "export"
	case ScopeLoop:
		return "loop"
	}
	return fmt.Sprintf("AssignScope(%d)", int(s))
}

// Assign is an assignment of a variable.
type Assign struct {
	Name  string
	Value Word // for ScopeLoop, the value is dynamic
	Scope AssignScope
	Dir   Dir
	Pos   Pos
}

// Redirect is one redirection.
type Redirect struct {
	Op     string // as written: ">", ">>", "<", "<>", ">&", "<&", ">|", "&>", "&>>", "<<", "<<-", "<<<"
	Fd     string // the file descriptor written before Op, or ""
	Target Word   // file, descriptor or here-string; for heredocs the delimiter
	Dir    Dir
	Pos    Pos
}

// Heredoc reports whether the redirection feeds a here-document or a
// here-string to standard input; its target is not a file.
func (r *Redirect) Heredoc() bool {
	return r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<"
}

// Writes reports whether the redirection may create or write a file.
func (r *Redirect) Writes() bool {
	switch r.Op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
		return true
	case ">&", "<&":
		// N>&M duplicates a descriptor; >&word with a file name writes to it.
		return !r.Duplicates()
	}
	return false
}

// Duplicates reports whether the redirection duplicates or closes a file
// descriptor (2>&1, >&-, <&0) rather than opening a file.
func (r *Redirect) Duplicates() bool {
	if r.Op != ">&" && r.Op != "<&" {
		return false
	}
	v := r.Target.Value
	if !r.Target.Constant() || r.Target.Tilde || v == "" {
		return false
	}
	v = strings.TrimSuffix(v, "-") // N>&M- moves a descriptor
	if v == "" {
		return true // >&- closes
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// FrameKind is a construct that encloses commands.
type FrameKind string

const (
	FramePipeline   FrameKind = "pipeline"
	FrameAnd        FrameKind = "&&"
	FrameOr         FrameKind = "||"
	FrameSubshell   FrameKind = "subshell"
	FrameGroup      FrameKind = "group"
	FrameCmdSubst   FrameKind = "command substitution"
	FrameProcSubst  FrameKind = "process substitution"
	FrameIf         FrameKind = "if"
	FrameWhile      FrameKind = "while"
	FrameUntil      FrameKind = "until"
	FrameFor        FrameKind = "for"
	FrameSelect     FrameKind = "select"
	FrameCase       FrameKind = "case"
	FrameFunction   FrameKind = "function"
	FrameBackground FrameKind = "background"
	FrameCoproc     FrameKind = "coproc"
	FrameNegated    FrameKind = "!"
	FrameTime       FrameKind = "time"
	FrameHeredoc    FrameKind = "heredoc"
)

// Frame is one enclosing construct.
type Frame struct {
	Kind FrameKind
	Pos  Pos
}

// Kind names a construct that a policy must judge. The names are the keys of
// a policy's [shell] table.
type Kind string

// Constructs a policy may allow: they only arrange commands that are judged
// on their own.
const (
	KindSubshell      Kind = "subshell"              // ( ... )
	KindGroup         Kind = "group"                 // { ...; }
	KindControlFlow   Kind = "control-flow"          // if, while, until, for, select, case
	KindTest          Kind = "test"                  // [[ ... ]] without arithmetic
	KindBackground    Kind = "background"            // cmd &
	KindCmdSubst      Kind = "command-substitution"  // $(...) and `...`
	KindProcSubst     Kind = "process-substitution"  // <(...) and >(...)
	KindParamExp      Kind = "parameter-expansion"   // $x, ${x:-y}
	KindNamedFd       Kind = "named-file-descriptor" // {var}>file assigns var
	KindShellBuiltins Kind = "shell-state"           // builtins that change how later commands run: cd is tracked, these are not
)

// Constructs that run code guard cannot see, or change what later commands
// mean. A policy cannot allow them.
const (
	KindArithmetic     Kind = "arithmetic"         // $((..)), ((..)), let, subscripts: bash evaluates a[$(cmd)] in them
	KindEval           Kind = "eval"               // eval
	KindSource         Kind = "source"             // source and .
	KindExec           Kind = "exec"               // exec
	KindAlias          Kind = "alias"              // alias
	KindTrap           Kind = "trap"               // trap
	KindFunction       Kind = "function"           // a function definition: it can shadow any command
	KindCoproc         Kind = "coproc"             // coproc
	KindDeclare        Kind = "declare"            // declare, typeset, local, readonly, export with options
	KindDynamicCommand Kind = "dynamic-command"    // a command name known only at run time
	KindDynamicShell   Kind = "dynamic-builtin"    // a builtin that loads or runs code: enable, hash, fc, bind, compgen, complete
	KindIndirect       Kind = "indirect-expansion" // ${!x}, ${x@P}: expand a value as a name or a prompt
	KindZsh            Kind = "zsh"                // what zsh, which may run the command, reads differently from bash
	KindContinuation   Kind = "line-continuation"  // a backslash-newline where bash and the parser would split the text differently
	KindLocale         Kind = "locale"             // a locale that changes how the shell lexes the rest of the input
)

// Fixed reports whether no policy may allow the construct.
func (k Kind) Fixed() bool {
	switch k {
	case KindArithmetic, KindEval, KindSource, KindExec, KindAlias, KindTrap,
		KindFunction, KindCoproc, KindDeclare, KindDynamicCommand, KindDynamicShell, KindIndirect,
		KindZsh, KindContinuation, KindLocale:
		return true
	}
	return false
}

// AllKinds returns every construct kind in a new slice, the ones a policy
// may allow first.
func AllKinds() []Kind {
	return []Kind{
		KindSubshell, KindGroup, KindControlFlow, KindTest, KindBackground, KindCmdSubst,
		KindProcSubst, KindParamExp, KindNamedFd, KindShellBuiltins,
		KindArithmetic, KindEval, KindSource, KindExec, KindAlias, KindTrap, KindFunction,
		KindCoproc, KindDeclare, KindDynamicCommand, KindDynamicShell, KindIndirect,
		KindZsh, KindContinuation, KindLocale,
	}
}

// Describe returns a short English name of the construct for messages.
func (k Kind) Describe() string {
	switch k {
	case KindSubshell:
		return "a subshell"
	case KindGroup:
		return "a command group"
	case KindControlFlow:
		return "a compound command"
	case KindTest:
		return "a [[ ]] test"
	case KindBackground:
		return "a background job"
	case KindCmdSubst:
		return "command substitution"
	case KindProcSubst:
		return "process substitution"
	case KindParamExp:
		return "parameter expansion"
	case KindNamedFd:
		return "a named file descriptor"
	case KindShellBuiltins:
		return "a builtin that changes the shell"
	case KindArithmetic:
		return "arithmetic evaluation"
	case KindEval:
		return "eval"
	case KindSource:
		return "source"
	case KindExec:
		return "exec"
	case KindAlias:
		return "alias"
	case KindTrap:
		return "trap"
	case KindFunction:
		return "a function definition"
	case KindCoproc:
		return "coproc"
	case KindDeclare:
		return "declare"
	case KindDynamicCommand:
		return "a command name known only at run time"
	case KindDynamicShell:
		return "a builtin that loads or runs code"
	case KindIndirect:
		return "indirect expansion"
	case KindZsh:
		return "a construct zsh reads differently from bash"
	case KindContinuation:
		return "a line continuation bash reads differently"
	case KindLocale:
		return "a locale that changes how the shell reads the command"
	}
	return string(k)
}

// Finding is one construct a policy must judge.
type Finding struct {
	Kind   Kind
	Pos    Pos
	Source string // the construct as written, possibly shortened
	Why    string // for some kinds, what exactly makes it one; may be ""
}
