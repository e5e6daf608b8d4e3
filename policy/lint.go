// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"errors"
	"fmt"
	"iter"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"guard/shellparse"

	"github.com/bmatcuk/doublestar/v4"
)

// Lint: what guard lint reports. A policy that loads may still allow more
// than its author meant: an interpreter with any script, a wrapper whose
// command guard never sees, an [env] name that makes programs run other
// code. Each check reads the compiled policy, as the engine decides with
// it, and the policy's source only to say where a finding is written and
// which parts a file that extends a built-in policy writes itself.
//
// The checks know programs by name, in the tables below: a shell, an
// interpreter, a wrapper. They cannot know every program, and say nothing
// of the ones they do not know; they read the rule's own fields (shell,
// interpreter, wrap, exec, script, paths, sandbox, its deny and ask rules)
// to tell a rule that guards what the program does from one that does not.
//
// A policy cannot take a path off guard's protected and secret lists:
// [paths] protected and secret only add to them (compilePaths, extend), so
// there is no removal to check. What a policy can do is let calls past
// the lists, and the protection check reports that: a [redirect] allow
// entry on such a path, which a redirection reaches without any path
// check, and a [tools] verdict for a file tool, which then allows its calls
// without reading their input.

// Severity is how much a finding matters.
type Severity int

const (
	SeverityNote    Severity = iota // a gap in the policy's own tests
	SeverityWarning                 // broad: allowed more widely than a policy needs to
	SeverityError                   // a way around guard's checks
)

func (s Severity) String() string {
	switch s {
	case SeverityNote:
		return "note"
	case SeverityWarning:
		return "warning"
	case SeverityError:
		return "error"
	}
	return "Severity(" + strconv.Itoa(int(s)) + ")"
}

// Finding is one thing Lint found in a policy.
type Finding struct {
	Severity Severity
	// Check names the check that found it: shell, interpreter, runner,
	// language, env, protection, sandbox, writable, shadowed, unbound,
	// examples, or compile for a rule that does not compile.
	Check string
	File  string // the policy's name, as it loaded
	// Line and Col are where the source writes Key, 1-based, as in the
	// policy's errors; 0 when unknown (the embedded default policy has no
	// source in the binary).
	Line, Col int
	Key       []string // the key the finding is about: command, bash; or env, allow
	Rule      string   // the id of the command rule ("git log"), or the entry, as the engine names it ("env.allow GIT_*", "tools.Read")
	Msg       string   // what is wrong: one line
	Fix       string   // what to change: one line
}

// Where returns the finding's place: file:line:col, file:line, or file.
func (f Finding) Where() string {
	where := f.File
	if f.Line > 0 {
		where += ":" + strconv.Itoa(f.Line)
		if f.Col > 0 {
			where += ":" + strconv.Itoa(f.Col)
		}
	}
	return where
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s: rule %q: %s", f.Where(), f.Severity, f.Rule, f.Msg)
}

// lintChecks are Lint's checks, in the order they report.
var lintChecks = []struct {
	name     string
	severity Severity
	run      func(*linter) []hit
}{
	{"compile", SeverityError, checkCompile},
	{"shell", SeverityError, checkShells},
	{"interpreter", SeverityError, checkInterpreters},
	{"runner", SeverityError, checkRunners},
	{"language", SeverityError, checkLanguages},
	{"env", SeverityError, checkEnv},
	{"protection", SeverityError, checkProtection},
	{"sandbox", SeverityWarning, checkSandbox},
	{"writable", SeverityWarning, checkWritable},
	{"shadowed", SeverityWarning, checkShadowed},
	{"unbound", SeverityNote, checkUnbound},
	{"examples", SeverityNote, checkExamples},
}

// Lint checks a loaded policy for what it allows too broadly, and returns
// the findings in the order the source writes them. A file that extends
// a built-in policy is checked for what it writes itself: the built-in
// policy's own parts are its own to lint.
func Lint(p *Policy) []Finding {
	if !p.Loaded() {
		return nil
	}
	l := newLinter(p)
	var out []Finding
	for _, c := range lintChecks {
		for _, h := range c.run(l) {
			line, col := l.ix.pos(h.key)
			out = append(out, Finding{Severity: c.severity, Check: c.name, File: p.Name(), Line: line, Col: col,
				Key: h.key, Rule: h.rule, Msg: h.msg, Fix: h.fix})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	return out
}

// hit is a finding as a check reports it, before Lint places it.
type hit struct {
	key      []string
	rule     string
	msg, fix string
}

// linter is what the checks read: the policy, the index of its source,
// and its command rules.
type linter struct {
	p  *Policy
	ix *keyIndex
	// own is the policy file as written, without what it extends; nil
	// when all of the policy is its own (the embedded default policy).
	own   *policyFile
	nodes []lintNode // the policy's own command rules, compiled, program by program
	errs  []error    // the errors of its own rules that do not compile
}

// lintNode is a compiled command rule and the words that reach it.
type lintNode struct {
	words []string // the program, then its subcommands; "--" for the arguments after --
	n     *Rule
	// allows: a call the rule decides may run, at once or once approved
	// for the session: the rule allows, and for the arguments after --,
	// the rule they are of allows too, since its verdict still counts.
	allows bool
	below  bool // a subcommand under it allows: its options are parsed on the way there
}

func newLinter(p *Policy) *linter {
	l := &linter{p: p, ix: indexKeys(p.src)}
	if p.src != nil {
		if pf, err := decodeFile(p.name, p.src); err == nil {
			l.own = pf
		}
	}
	for _, err := range p.CompileAll() {
		var e *Error
		if errors.As(err, &e) && len(e.Key) > 1 && !l.ownRule(e.Key[1]) {
			continue
		}
		l.errs = append(l.errs, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// walk adds a rule and the rules under it, and reports whether one of
	// them allows; gate is false under a rule that does not allow the
	// arguments after --.
	var walk func(words []string, n *Rule, gate bool) bool
	walk = func(words []string, n *Rule, gate bool) bool {
		i := len(l.nodes)
		l.nodes = append(l.nodes, lintNode{words: words, n: n, allows: gate && allows(n)})
		below := false
		for _, s := range sortedKeys(n.subs) {
			below = walk(append(slices.Clone(words), s), n.subs[s], true) || below
		}
		if n.rest != nil {
			walk(append(slices.Clone(words), "--"), n.rest, l.nodes[i].allows)
		}
		l.nodes[i].below = below
		return below || l.nodes[i].allows
	}
	for _, name := range p.rules.names {
		if n := p.commands[name]; n != nil && l.ownRule(name) {
			walk([]string{name}, n, true)
		}
	}
	return l
}

// allowing yields the nodes whose calls may run: the rules the checks of
// what is allowed read.
func (l *linter) allowing() iter.Seq[*lintNode] {
	return func(yield func(*lintNode) bool) {
		for i := range l.nodes {
			if l.nodes[i].allows && !yield(&l.nodes[i]) {
				return
			}
		}
	}
}

// ownRule reports whether the policy's file writes the rule for a program.
func (l *linter) ownRule(name string) bool {
	if l.own == nil {
		return true
	}
	_, ok := l.own.Command[name]
	return ok
}

// ownString reports whether the policy's file writes s in one of its
// lists, which lint reads compiled: true when all of the policy is its own.
func ownString(l *linter, list func(*policyFile) []string, s string) bool {
	return l.own == nil || slices.Contains(list(l.own), s)
}

// written reports whether the source writes a key itself, as a key or a
// table, or no source is known; a field a rule gets through like is not.
func (l *linter) written(key []string) bool {
	if l.p.src == nil {
		return true
	}
	k := strings.Join(key, pathSep)
	_, set := l.ix.set[k]
	_, implied := l.ix.implied[k]
	return set || implied
}

// base is the program's name without its directory.
func (nd *lintNode) base() string { return path.Base(nd.words[0]) }

// sub is the words after the program: "run" for npm run, "" for npm.
func (nd *lintNode) sub() string { return strings.Join(nd.words[1:], " ") }

func (nd *lintNode) hit(msg, fix string) hit {
	return hit{key: nd.n.subKey, rule: nd.n.id, msg: msg, fix: fix}
}

// named reports whether a node is the rule for words, its program given by
// name patterns of the base name: python3 is python[0-9]*.
func (nd *lintNode) named(names []string, subs ...string) bool {
	if len(nd.words) != 1+len(subs) || !slices.Equal(nd.words[1:], subs) {
		return false
	}
	return matchesName(names, nd.base())
}

func matchesName(patterns []string, name string) bool {
	return slices.ContainsFunc(patterns, func(pat string) bool {
		ok, _ := path.Match(pat, name)
		return ok
	})
}

// allows reports whether a rule's own verdict lets a call run: allow, or
// session, which allows every call of the rule once one is approved.
func allows(n *Rule) bool { return n.hasVerdict && (n.verdict == Allow || n.verdict == Session) }

// allowed says how a rule allows, for messages.
func allowed(n *Rule) string {
	if n.verdict == Session {
		return "allowed for the session once approved"
	}
	return "allowed"
}

// takesOperands reports whether a rule lets a call have operands: a rule
// with subcommands gives its first operand to one of them.
func takesOperands(n *Rule) bool { return n.args != ArgsNone && !n.HasSubs() }

// stops reports whether a rule keeps an option from being allowed: it is
// not among its options (an unknown option gets the rule's unknown
// verdict, ask or deny), or a deny or ask rule names it, whatever its
// value. Under style = "none" an option is an operand like any other.
func stops(n *Rule, opt string) bool {
	if n.style == styleNone {
		return n.args == ArgsNone
	}
	if n.style == StyleGo {
		opt = strings.TrimPrefix(opt, "-") // go style reads --name as -name
		if !strings.HasPrefix(opt, "-") {
			opt = "-" + opt
		}
	}
	if n.options[opt] == nil {
		return true
	}
	return slices.ContainsFunc(n.escalations, func(e *escalation) bool {
		return e.verdict <= Ask && len(e.values) == 0 && len(e.args) == 0 && slices.Contains(e.flags, opt)
	})
}

// checkCompile reports the policy's own rules that do not compile: a call
// that names one is denied. A policy file's rules compile as it loads, so
// only a built-in policy's can fail here.
func checkCompile(l *linter) []hit {
	var out []hit
	for _, err := range l.errs {
		h := hit{msg: err.Error(), fix: "fix the rule: a call that names it is denied"}
		var e *Error
		if errors.As(err, &e) {
			h.key, h.rule, h.msg = e.Key, e.Rule, e.Msg
		}
		out = append(out, h)
	}
	return out
}

// shellDialects are the shells, with the dialect guard reads the script of
// their -c in: "" for a shell whose scripts guard cannot read.
var shellDialects = map[string]string{
	"bash": "bash", "rbash": "bash", "sh": "sh", "dash": "sh", "ash": "sh", "posh": "sh",
	"zsh": "", "ksh": "", "ksh93": "", "mksh": "", "pdksh": "", "yash": "", "fish": "", "csh": "", "tcsh": "",
	"pwsh": "", "powershell": "", "nu": "", "elvish": "", "xonsh": "",
}

// checkShells reports a shell allowed without guard reading what it runs:
// without shell = "bash" or "sh", bash script.sh, bash -c SCRIPT (with -c
// among the flags) and echo CMD | bash run whatever they say.
func checkShells(l *linter) []hit {
	var out []hit
	for nd := range l.allowing() {
		dialect, ok := shellDialects[nd.base()]
		if !ok {
			continue
		}
		n := nd.n
		switch {
		case dialect == "":
			out = append(out, nd.hit(fmt.Sprintf("%s is %s, and guard cannot read its scripts: every script it runs goes unchecked", n.id, allowed(n)),
				`verdict = "deny", as the default policy has it`))
		case n.shell == "":
			out = append(out, nd.hit(fmt.Sprintf("%s is %s without shell = %q: the script files, -c scripts and standard input it runs go unchecked", n.id, allowed(n), dialect),
				fmt.Sprintf(`shell = %q, with -c among its flags: guard then checks the script of -c and refuses the rest`, dialect)))
		}
	}
	return out
}

// interpreter is a program that runs code in its language.
type interpreter struct {
	names   []string // patterns of its name
	inline  []string // options that give it code on the command line
	modules []string // options that make it load the module or file of code they name
	// scripts are the subcommands that run a script operand, "" for the
	// program itself; nil: every rule of the program runs one.
	scripts []string
	evals   []string // subcommands that run code from the command line or standard input
	noStdin bool     // alone, it reads no code from standard input (bun prints its help)
}

var interpreters = []interpreter{
	{names: []string{"python", "python[0-9]*", "pypy", "pypy[0-9]*"}, inline: []string{"-c"}, modules: []string{"-m"}},
	{names: []string{"node", "nodejs"}, inline: []string{"-e", "--eval", "-p", "--print", "-i", "--interactive"},
		modules: []string{"-r", "--require", "--import", "--loader", "--experimental-loader"}},
	{names: []string{"ruby", "ruby[0-9]*"}, inline: []string{"-e"}, modules: []string{"-r"}},
	{names: []string{"perl", "perl5*"}, inline: []string{"-e", "-E"}, modules: []string{"-M", "-m"}},
	{names: []string{"php", "php[0-9]*"}, inline: []string{"-r", "-B", "-R", "-E", "-F", "-a"}, modules: []string{"-d"}},
	{names: []string{"lua", "lua[0-9]*", "luajit"}, inline: []string{"-e", "-i"}, modules: []string{"-l"}},
	{names: []string{"deno"}, scripts: []string{"", "run"}, evals: []string{"eval", "repl"}},
	{names: []string{"bun"}, inline: []string{"-e", "--eval", "-p", "--print"}, modules: []string{"-r", "--preload"},
		scripts: []string{"", "run"}, noStdin: true},
	{names: []string{"tclsh", "tclsh[0-9]*", "wish", "expect"}, inline: []string{"-c"}},
	{names: []string{"Rscript"}, inline: []string{"-e"}},
	{names: []string{"julia"}, inline: []string{"-e", "--eval", "-E", "--print"}},
	{names: []string{"osascript"}, inline: []string{"-e"}},
}

// checkInterpreters reports an interpreter allowed to run code guard never
// reads: any script outside the sandbox, code on its command line, code
// on its standard input. A rule that says interpreter = true is checked
// as one, whatever the program.
func checkInterpreters(l *linter) []hit {
	var out []hit
	for nd := range l.allowing() {
		n := nd.n
		var it interpreter
		known := false
		for _, i := range interpreters {
			if matchesName(i.names, nd.base()) {
				it, known = i, true
				break
			}
		}
		if !known && !n.interp {
			continue
		}
		if slices.Contains(it.evals, nd.sub()) {
			out = append(out, nd.hit(fmt.Sprintf("%s is %s: it runs code from its command line or standard input, which guard cannot check", n.id, allowed(n)),
				`verdict = "deny"`))
			continue
		}
		if (it.scripts == nil || slices.Contains(it.scripts, nd.sub())) && takesOperands(n) && n.sandbox == "" && n.shell == "" {
			out = append(out, nd.hit(fmt.Sprintf("%s is %s outside the sandbox with any script: the script runs code guard never reads", n.id, allowed(n)),
				`verdict = "ask", or sandbox = "test" to run it in the sandbox`))
		}
		for _, o := range it.inline {
			// In the read-only sandbox code on the command line is bounded
			// as a script is; in another it could write the project.
			if !stops(n, o) && n.sandbox != "read-only" {
				out = append(out, nd.hit(fmt.Sprintf("%s is %s and accepts %s: the code on its command line runs unchecked", n.id, allowed(n), o),
					fmt.Sprintf(`deny = [{ flags = [%q], reason = "it runs code from the command line" }], or sandbox = "read-only"`, o)))
			}
		}
		if n.sandbox == "" {
			for _, o := range it.modules {
				if !stops(n, o) {
					out = append(out, nd.hit(fmt.Sprintf("%s is %s outside the sandbox and accepts %s: it runs the module or file the option names", n.id, allowed(n), o),
						fmt.Sprintf("take %s out of its options, or deny it", o)))
				}
			}
		}
		if known && len(nd.words) == 1 && !it.noStdin && !n.interp {
			out = append(out, nd.hit(fmt.Sprintf("%s is %s without interpreter = true: with no script operand it runs the code on its standard input", n.id, allowed(n)),
				"interpreter = true: guard then denies it without a script"))
		}
	}
	return out
}

// runKind is how a program runs other programs.
type runKind int

const (
	runsCommand   runKind = iota // its operands are a command it runs: wrap lets guard check it
	runsShellLine                // its operands are a command line for a shell, or a script: nothing lets guard check it
	runsAsUser                   // it runs commands with another user's rights
	runsNamed                    // it runs the script, package or program its operands name: only the sandbox bounds it
	runsTargets                  // as runsNamed, and every operand of it and of its subcommands names one more (make test install)
)

// runner is a program, or a subcommand, that runs other programs.
type runner struct {
	words []string // patterns of the program's name, then the subcommands
	kind  runKind
	wrap  string // for runsCommand: the wrap table that has guard check the command
	stdin bool   // for runsShellLine: it reads its commands from standard input too (at)
}

var runners = []runner{
	{words: []string{"xargs"}, wrap: `wrap = { stdin = true, replace = ["-I", "--replace", "-i"] }`},
	{words: []string{"env"}, wrap: "wrap = { env = true }"},
	{words: []string{"timeout"}, wrap: "wrap = { skip = 1 }"},
	{words: []string{"taskset"}, wrap: "wrap = { skip = 1 }"},
	{words: []string{"chrt"}, wrap: "wrap = { skip = 1 }"},
	{words: []string{"flock"}, wrap: "wrap = { skip = 1 }"},
	{words: []string{"nohup"}, wrap: "wrap = {}"},
	{words: []string{"nice"}, wrap: "wrap = {}"},
	{words: []string{"ionice"}, wrap: "wrap = {}"},
	{words: []string{"stdbuf"}, wrap: "wrap = {}"},
	{words: []string{"time"}, wrap: "wrap = {}"},
	{words: []string{"command"}, wrap: `wrap = { lookup = ["-v", "-V"] }`},
	{words: []string{"builtin"}, wrap: "wrap = {}"},
	{words: []string{"setsid"}, wrap: "wrap = {}"},
	{words: []string{"unbuffer"}, wrap: "wrap = {}"},
	{words: []string{"strace"}, wrap: "wrap = {}"},
	{words: []string{"ltrace"}, wrap: "wrap = {}"},
	{words: []string{"valgrind"}, wrap: "wrap = {}"},
	{words: []string{"nsenter"}, wrap: "wrap = {}"},
	{words: []string{"unshare"}, wrap: "wrap = {}"},
	{words: []string{"numactl"}, wrap: "wrap = {}"},
	{words: []string{"prlimit"}, wrap: "wrap = {}"},
	{words: []string{"caffeinate"}, wrap: "wrap = {}"},
	{words: []string{"systemd-run"}, wrap: "wrap = {}"},
	{words: []string{"firejail"}, wrap: "wrap = {}"},
	{words: []string{"busybox"}, wrap: "wrap = {}"},
	{words: []string{"watch"}, kind: runsShellLine},
	{words: []string{"parallel"}, kind: runsShellLine},
	{words: []string{"script"}, kind: runsShellLine},
	{words: []string{"tmux"}, kind: runsShellLine},
	{words: []string{"screen"}, kind: runsShellLine},
	{words: []string{"ssh"}, kind: runsShellLine},
	{words: []string{"at"}, kind: runsShellLine, stdin: true},
	{words: []string{"batch"}, kind: runsShellLine, stdin: true},
	{words: []string{"sudo"}, kind: runsAsUser},
	{words: []string{"sudoedit"}, kind: runsAsUser},
	{words: []string{"doas"}, kind: runsAsUser},
	{words: []string{"su"}, kind: runsAsUser},
	{words: []string{"pkexec"}, kind: runsAsUser},
	{words: []string{"runuser"}, kind: runsAsUser},
	{words: []string{"run0"}, kind: runsAsUser},
	{words: []string{"chroot"}, kind: runsAsUser},
	{words: []string{"make"}, kind: runsTargets},
	{words: []string{"gmake"}, kind: runsTargets},
	{words: []string{"just"}, kind: runsTargets},
	{words: []string{"ninja"}, kind: runsTargets},
	{words: []string{"rake"}, kind: runsTargets},
	{words: []string{"npx"}, kind: runsNamed},
	{words: []string{"pnpx"}, kind: runsNamed},
	{words: []string{"bunx"}, kind: runsNamed},
	{words: []string{"uvx"}, kind: runsNamed},
	{words: []string{"npm", "run"}, kind: runsNamed},
	{words: []string{"npm", "run-script"}, kind: runsNamed},
	{words: []string{"npm", "exec"}, kind: runsNamed},
	{words: []string{"npm", "x"}, kind: runsNamed},
	{words: []string{"npm", "install"}, kind: runsNamed},
	{words: []string{"npm", "i"}, kind: runsNamed},
	{words: []string{"pnpm", "run"}, kind: runsNamed},
	{words: []string{"pnpm", "exec"}, kind: runsNamed},
	{words: []string{"pnpm", "dlx"}, kind: runsNamed},
	{words: []string{"pnpm", "add"}, kind: runsNamed},
	{words: []string{"pnpm", "install"}, kind: runsNamed},
	{words: []string{"yarn", "run"}, kind: runsNamed},
	{words: []string{"yarn", "exec"}, kind: runsNamed},
	{words: []string{"yarn", "dlx"}, kind: runsNamed},
	{words: []string{"yarn", "add"}, kind: runsNamed},
	{words: []string{"bun", "x"}, kind: runsNamed},
	{words: []string{"bun", "add"}, kind: runsNamed},
	{words: []string{"bun", "install"}, kind: runsNamed},
	{words: []string{"deno", "task"}, kind: runsNamed},
	{words: []string{"cargo", "run"}, kind: runsNamed},
	{words: []string{"cargo", "install"}, kind: runsNamed},
	{words: []string{"go", "run"}, kind: runsNamed},
	{words: []string{"go", "generate"}, kind: runsNamed},
	{words: []string{"uv", "run"}, kind: runsNamed},
	{words: []string{"uv", "tool", "run"}, kind: runsNamed},
	{words: []string{"pipx", "run"}, kind: runsNamed},
	{words: []string{"poetry", "run"}, kind: runsNamed},
	{words: []string{"pipenv", "run"}, kind: runsNamed},
	{words: []string{"pdm", "run"}, kind: runsNamed},
	{words: []string{"hatch", "run"}, kind: runsNamed},
	{words: []string{"pip", "install"}, kind: runsNamed},
	{words: []string{"pip3", "install"}, kind: runsNamed},
	{words: []string{"dotnet", "run"}, kind: runsNamed},
}

// runnerOf returns the runner a node is, or nil: the rule for its words,
// or for runsTargets a rule under it.
func runnerOf(nd *lintNode) *runner {
	for i := range runners {
		r := &runners[i]
		if r.kind == runsTargets && len(nd.words) >= 1 && matchesName(r.words[:1], nd.base()) && !slices.Contains(nd.words, "--") {
			return r
		}
		if nd.named(r.words[:1], r.words[1:]...) {
			return r
		}
	}
	return nil
}

// runsUnbounded reports whether a node runs what its operands name with
// nothing bounding it: allowed, with operands, outside the sandbox.
func runsUnbounded(nd *lintNode) bool {
	r := runnerOf(nd)
	n := nd.n
	return r != nil && (r.kind == runsNamed || r.kind == runsTargets) && nd.allows && takesOperands(n) && n.sandbox == "" && n.wrap == nil
}

// riskyOption is an option of a program that runs a program or writes a
// file.
type riskyOption struct {
	names []string // patterns of the program's name
	opts  []string
	does  string
	exec  bool // exec = [...] would have guard check the command it starts (find -exec)
	root  bool // an option of the program, before its subcommand
}

var riskyOptions = []riskyOption{
	{names: []string{"find", "gfind"}, opts: []string{"-exec", "-execdir", "-ok", "-okdir"}, does: "runs the command that follows it", exec: true},
	{names: []string{"find", "gfind"}, opts: []string{"-delete"}, does: "deletes the files it finds"},
	{names: []string{"find", "gfind"}, opts: []string{"-fprint", "-fprint0", "-fprintf", "-fls"}, does: "writes to the file it names"},
	{names: []string{"fd", "fdfind"}, opts: []string{"-x", "--exec", "-X", "--exec-batch"}, does: "runs a command on the files it finds", exec: true},
	{names: []string{"rg"}, opts: []string{"--pre"}, does: "runs a program on every file it searches"},
	{names: []string{"sort"}, opts: []string{"--compress-program"}, does: "runs a program"},
	{names: []string{"sort"}, opts: []string{"-o", "--output"}, does: "writes to the file it names"},
	{names: []string{"tar", "gtar", "bsdtar"}, opts: []string{"--to-command", "--use-compress-program", "-I", "--checkpoint-action", "--info-script", "--new-volume-script", "-F"}, does: "runs a program"},
	{names: []string{"rsync"}, opts: []string{"-e", "--rsh", "--rsync-path"}, does: "runs the program it names"},
	{names: []string{"zip"}, opts: []string{"-TT", "--unzip-command"}, does: "runs the program it names"},
	{names: []string{"git"}, opts: []string{"-c", "--config-env", "--exec-path"}, does: "sets configuration that makes git run programs", root: true},
}

// writers are programs that write the files their operands name, with the
// paths modes that have guard check them: "" where none does (dd of=FILE).
var writers = map[string][]string{
	"tee": {"write"}, "touch": {"write"}, "mkdir": {"write"}, "rm": {"write"}, "rmdir": {"write"}, "unlink": {"write"},
	"truncate": {"write"}, "chmod": {"write"}, "chown": {"write"}, "chgrp": {"write"}, "shred": {"write"}, "mv": {"write"},
	"cp": {"copy", "write"}, "ln": {"copy", "write"}, "install": {"copy", "write"}, "dd": nil,
}

// checkRunners reports programs that run other programs or write files,
// allowed without the rule's fields that have guard check what they run
// or write: a wrapper without wrap, find -exec without exec, a runner of
// make targets or npm scripts outside the sandbox, sudo at all.
func checkRunners(l *linter) []hit {
	var out []hit
	for i := range l.nodes {
		nd := &l.nodes[i]
		n := nd.n
		if r := runnerOf(nd); r != nil && nd.allows {
			switch r.kind {
			case runsCommand:
				switch {
				case n.wrap == nil && takesOperands(n):
					out = append(out, nd.hit(fmt.Sprintf("%s is %s and runs its operands as a command, but the rule has no wrap: the command it runs is never checked", n.id, allowed(n)),
						r.wrap+": guard then checks the command as if it stood alone"))
				case n.wrap != nil && nd.base() == "xargs" && !n.wrap.Stdin:
					out = append(out, nd.hit(fmt.Sprintf("%s is %s with wrap, but without stdin = true: guard checks its command without the operands it reads from standard input", n.id, allowed(n)),
						r.wrap))
				case n.wrap != nil && nd.base() == "xargs":
					for _, o := range []string{"-I", "-i", "--replace"} {
						if !stops(n, o) && !slices.Contains(n.wrap.Replace, o) {
							out = append(out, nd.hit(fmt.Sprintf("%s accepts %s, which puts words from standard input into its command, but wrap replace does not list it: guard checks the command as written", n.id, o),
								r.wrap))
						}
					}
				}
			case runsShellLine:
				if takesOperands(n) || r.stdin {
					out = append(out, nd.hit(fmt.Sprintf("%s is %s and runs a command line guard never sees", n.id, allowed(n)),
						`verdict = "deny": no rule field lets guard read the commands it runs`))
				}
			case runsAsUser:
				out = append(out, nd.hit(fmt.Sprintf("%s is %s: it runs commands with another user's rights, which guard's checks do not account for", n.id, allowed(n)),
					`verdict = "deny": ask the user to run it`))
			case runsNamed, runsTargets:
				if runsUnbounded(nd) {
					what := "whatever script, package or program its operands name"
					if r.kind == runsTargets {
						what = "whatever targets its operands name"
					}
					out = append(out, nd.hit(fmt.Sprintf("%s is %s outside the sandbox with any operands: it runs %s, code guard never reads", n.id, allowed(n), what),
						`sandbox = "test", or allow only named subcommands, each with args = "none"`))
				}
			}
		}
		if modes, ok := writers[nd.base()]; ok && len(nd.words) == 1 && nd.allows && takesOperands(n) && !slices.Contains(modes, n.pathMode) {
			if len(modes) == 0 {
				out = append(out, nd.hit(fmt.Sprintf("%s is %s and writes the file of= names, which no paths mode has guard check", n.id, allowed(n)), `verdict = "deny"`))
			} else {
				out = append(out, nd.hit(fmt.Sprintf("%s is %s and writes the files its operands name, but without paths = %q guard does not check them against the writable and protected paths", n.id, allowed(n), modes[0]),
					fmt.Sprintf("paths = %q", modes[0])))
			}
		}
		if !nd.allows && !nd.below {
			continue
		}
		for _, ro := range riskyOptions {
			if !matchesName(ro.names, nd.base()) || ro.root && len(nd.words) > 1 {
				continue
			}
			for _, o := range ro.opts {
				if stops(n, o) {
					continue // exec names are never options: find -exec with exec = ["-exec"] stops here too
				}
				fix := fmt.Sprintf(`deny = [{ flags = [%q], reason = "it %s" }]`, o, ro.does)
				if ro.exec {
					fix = fmt.Sprintf("exec = [%q], so that guard checks the command it starts, or deny it", o)
				}
				out = append(out, nd.hit(fmt.Sprintf("%s accepts %s, which %s, and no deny or ask rule names it", n.id, o, ro.does), fix))
			}
		}
	}
	return out
}

// language is a program whose argument is a program in its own language.
type language struct {
	names  []string
	script string // the script key under which guard reads its programs: sed or awk; "" for none
	// samples are programs that read the environment or files: without
	// script, a rule must have a deny or ask rule on its operands that
	// catches each.
	samples []string
	files   []string // options that read the program from a file, which guard cannot check
	does    string   // what its programs can do
}

var languages = []language{
	{names: []string{"sed", "gsed"}, script: "sed", does: "e and the e flag of s run commands, w writes files"},
	{names: []string{"awk", "gawk", "mawk", "nawk"}, script: "awk", does: "system() and pipes run commands, print > FILE writes files"},
	{names: []string{"jq", "gojq", "jaq"}, samples: []string{"env", "$ENV.HOME", `import "m" as $m; .`, `include "m"; .`, "input_filename", "$__loc__"},
		files: []string{"-f", "--from-file"}, does: "env and $ENV read the environment, import and include read files anywhere"},
	{names: []string{"yq"}, samples: []string{"env(HOME)", "strenv(HOME)", `load("f")`, `load_str("f")`},
		files: []string{"--from-file"}, does: "env() reads the environment, load() reads files anywhere"},
	{names: []string{"m4"}, does: "syscmd and esyscmd run commands"},
	{names: []string{"dc"}, does: "! runs a command"},
	{names: []string{"ed", "ex"}, does: "! runs a command, w writes files"},
	{names: []string{"vi", "vim", "nvim", "view"}, does: ":! runs commands, and -c gives it commands"},
	{names: []string{"emacs"}, does: "--eval runs Lisp, which runs programs"},
	{names: []string{"sqlite3"}, does: ".shell and .system run commands"},
	{names: []string{"mlr"}, does: "system and exec run commands"},
	{names: []string{"xsltproc"}, does: "a stylesheet writes files"},
	{names: []string{"gdb"}, does: "-ex and its scripts run commands"},
}

// checkLanguages reports a program whose argument is a program allowed
// without guard reading that program: sed and awk without script, jq
// without deny or ask rules for what reads the environment and files, and
// the languages guard does not read at all.
func checkLanguages(l *linter) []hit {
	var out []hit
	for nd := range l.allowing() {
		n := nd.n
		for _, lang := range languages {
			if !matchesName(lang.names, nd.base()) {
				continue
			}
			switch {
			case lang.script != "":
				if n.script != lang.script {
					out = append(out, nd.hit(fmt.Sprintf("%s is %s without script = %q: guard does not read its program, where %s", n.id, allowed(n), lang.script, lang.does),
						fmt.Sprintf("script = %q", lang.script)))
				}
			case lang.samples != nil:
				for _, s := range lang.samples {
					if takesOperands(n) && !catches(n, s) {
						out = append(out, nd.hit(fmt.Sprintf("%s is %s, and no deny or ask rule on its operands catches the program %s: %s", n.id, allowed(n), strconv.Quote(s), lang.does),
							"an ask rule whose args match it, as the default policy's jq rule has"))
					}
				}
				for _, o := range lang.files {
					if !stops(n, o) {
						out = append(out, nd.hit(fmt.Sprintf("%s is %s and accepts %s: it reads its program from a file, which guard cannot check", n.id, allowed(n), o),
							fmt.Sprintf(`ask = [{ flags = [%q], reason = "guard cannot check the program in the file" }]`, o)))
					}
				}
			default:
				out = append(out, nd.hit(fmt.Sprintf("%s is %s, and its program is in a language guard does not read: %s", n.id, allowed(n), lang.does),
					`verdict = "ask"`))
			}
		}
	}
	return out
}

// catches reports whether a deny or ask rule of n on operands alone
// matches the operand s.
func catches(n *Rule, s string) bool {
	return slices.ContainsFunc(n.escalations, func(e *escalation) bool {
		return e.verdict <= Ask && len(e.flags) == 0 && slices.ContainsFunc(e.args, func(pat string) bool { return Wildcard(pat, s) })
	})
}

// codeEnv is every environment variable lint knows to make a program run
// code: code it holds, a program it names, or code from where it points.
// No [env] allow should admit one. The engine denies none of them by
// itself: [env] decides every name (EnvVerdict, from the engine's
// assignments and env NAME=VALUE), and only the values of the locale
// variables are checked beyond it. A [sandbox.NAME] profile's env, which
// the policy sets and the agent does not, is refused BASH_ENV, ENV,
// GOTOOLCHAIN, GIT_CONFIG_* and LD_* when it compiles.
var codeEnv = []struct {
	names []string
	why   string
}{
	{[]string{"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH"}, "the dynamic linker loads the libraries they name"},
	{[]string{"PATH"}, "it chooses the program a name runs"},
	{[]string{"BASH_ENV", "ENV", "PROMPT_COMMAND", "PS4", "SHELLOPTS", "BASHOPTS", "BASH_FUNC_ls%%", "ZDOTDIR", "FPATH"}, "the shell runs the code they hold or name"},
	{[]string{"HOME", "XDG_CONFIG_HOME"}, "programs run code from the configuration they find there"},
	{[]string{"GIT_SSH_COMMAND", "GIT_SSH", "GIT_EXEC_PATH", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_GLOBAL",
		"GIT_PAGER", "GIT_EDITOR", "GIT_ASKPASS", "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND", "GIT_DIR", "GIT_TEMPLATE_DIR"}, "git runs the programs they name, or reads configuration that does"},
	{[]string{"PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME"}, "python loads code from them"},
	{[]string{"NODE_OPTIONS", "NODE_PATH"}, "node loads code from them"},
	{[]string{"PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB"}, "perl loads code from them"},
	{[]string{"RUBYOPT", "RUBYLIB"}, "ruby loads code from them"},
	{[]string{"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH"}, "the JVM loads agents and classes from them"},
	{[]string{"RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "RUSTC", "RUSTDOC", "RUSTFLAGS", "CARGO_BUILD_RUSTC_WRAPPER",
		"CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER", "CARGO_HOME"}, "cargo runs the programs and flags they name"},
	{[]string{"GOFLAGS", "GOTOOLCHAIN", "GOROOT", "GOENV", "CC", "CXX", "LD", "CGO_CFLAGS", "CGO_LDFLAGS"}, "go and the C toolchain run the programs and flags they name"},
	{[]string{"PAGER", "MANPAGER", "EDITOR", "VISUAL", "BROWSER", "LESSOPEN", "LESSCLOSE", "SSH_ASKPASS", "SUDO_ASKPASS"}, "programs run the program they name"},
	{[]string{"MAKEFLAGS", "MAKEFILES"}, "make reads options and makefiles from them"},
	{[]string{"npm_config_script_shell", "NPM_CONFIG_SCRIPT_SHELL", "npm_config_node_options"}, "npm runs scripts with the shell and options they name"},
	{[]string{"RIPGREP_CONFIG_PATH"}, "rg reads options from the file it names, --pre among them"},
}

// checkEnv reports the [env] allow entries that let a command set a
// variable of codeEnv: the engine allows what [env] allows, unless an
// [env] deny names it too.
func checkEnv(l *linter) []hit {
	type admitted struct {
		names []string
		why   string
	}
	by := map[string]*admitted{}
	var order []string
	for _, group := range codeEnv {
		for _, name := range group.names {
			v, rule, _ := l.p.EnvVerdict(name)
			pat, ok := strings.CutPrefix(rule, "env.allow ")
			if v != Allow || !ok || !ownString(l, func(pf *policyFile) []string { return pf.Env.Allow }, pat) {
				continue
			}
			if by[pat] == nil {
				by[pat] = &admitted{why: group.why}
				order = append(order, pat)
			}
			by[pat].names = append(by[pat].names, name)
		}
	}
	var out []hit
	for _, pat := range order {
		a := by[pat]
		names := a.names
		more := ""
		if len(names) > 4 {
			more = fmt.Sprintf(" and %d more", len(names)-4)
			names = names[:4]
		}
		out = append(out, hit{key: []string{"env", "allow"}, rule: "env.allow " + pat,
			msg: fmt.Sprintf("[env] allow %q lets a command set %s%s: %s", pat, strings.Join(names, ", "), more, a.why),
			fix: fmt.Sprintf("take %q out of [env] allow, or name what it admits in an [env] deny", pat)})
	}
	return out
}

// checkProtection reports what lets calls past guard's protected and
// secret paths: a [redirect] allow entry on one of them, which a
// redirection reaches without any path check, and a [tools] verdict that
// allows a tool guard judges by its input, whose calls then skip the
// checks of their paths, commands or URLs.
func checkProtection(l *linter) []hit {
	var out []hit
	pp := &l.p.paths
	for _, a := range l.p.redirect.Allow {
		if !ownString(l, func(pf *policyFile) []string { return pf.Redirect.Allow }, a) {
			continue
		}
		for _, list := range []struct {
			what string
			pats []string
		}{{"secret", pp.Secret}, {"protected", pp.Protected}} {
			if pat := anyPathMatch(list.pats, a); pat != "" {
				out = append(out, hit{key: []string{"redirect", "allow"}, rule: "redirect.allow",
					msg: fmt.Sprintf("[redirect] allow %q is on the %s path %q: a redirection there skips guard's path checks", a, list.what, pat),
					fix: fmt.Sprintf("take %q out of [redirect] allow", a)})
				break
			}
		}
	}
	def, err := Default()
	if err != nil {
		return out
	}
	kinds := map[string]string{
		"shell": "checks of its commands", "read": "secret path check", "list": "secret path check", "search": "secret path check",
		"write": "writable, protected and secret path checks", "edit": "writable, protected and secret path checks", "fetch": "[fetch] allow list",
	}
	for _, tool := range sortedKeys(def.tools) {
		kind := def.tools[tool]
		if !kind.IsKind() {
			continue
		}
		t, rule := l.p.ToolTier(tool)
		pat := strings.TrimPrefix(rule, "tools.")
		if rule == "" || t.IsKind() || t == TierAsk || t == TierDeny {
			continue
		}
		if l.own != nil {
			if _, ok := l.own.Tools[pat]; !ok {
				continue
			}
		}
		what := fmt.Sprintf("[tools] %s = %q", strconv.Quote(pat), t)
		if pat == tool {
			what = fmt.Sprintf("[tools] %s = %q", tool, t)
		} else {
			what += " covers " + tool
		}
		out = append(out, hit{key: []string{"tools", pat}, rule: rule,
			msg: fmt.Sprintf("%s: its calls run without the %s that calls of kind %q get", what, kinds[kind.String()], kind),
			fix: fmt.Sprintf("%s = %q, as the default policy has it", tool, kind)})
	}
	return out
}

// anyPathMatch returns the first path pattern of pats that may match the
// absolute path p, whatever the placeholders stand for: ~, {home},
// {project} and {tmp} are taken for any directory. {policy} and {guard}
// cannot be placed, and are skipped.
func anyPathMatch(pats []string, p string) string {
	for _, pat := range pats {
		if strings.Contains(pat, PhPolicy) || strings.Contains(pat, PhGuard) {
			continue
		}
		g := pat
		if strings.HasPrefix(g, "~") {
			g = "**" + g[1:]
		}
		g = strings.NewReplacer(PhHome, "**", PhProject, "**", PhTmp, "**").Replace(g)
		if ok, _ := doublestar.Match(g, p); ok {
			return pat
		}
	}
	return ""
}

// packageScripts are the commands that run a script of the project's own:
// a package.json script, a makefile's target, a justfile's recipe. The
// rules under them count too.
var packageScripts = [][]string{
	{"npm", "run"}, {"npm", "run-script"}, {"npm", "test"}, {"npm", "t"}, {"npm", "tst"}, {"npm", "start"},
	{"pnpm", "run"}, {"pnpm", "test"}, {"pnpm", "t"}, {"pnpm", "start"},
	{"yarn", "run"}, {"yarn", "test"}, {"yarn", "start"},
	{"bun", "run"}, {"bun", "test"},
	{"make"}, {"gmake"}, {"just"},
}

// compilers are the commands that compile or test the project, which runs
// its code: tests, build scripts (build.rs), procedural macros, cgo's
// flags. The rules under them count too.
var compilers = [][]string{
	{"go", "build"}, {"go", "test"}, {"go", "vet"}, {"go", "install"},
	{"cargo", "build"}, {"cargo", "b"}, {"cargo", "check"}, {"cargo", "c"}, {"cargo", "test"}, {"cargo", "t"},
	{"cargo", "clippy"}, {"cargo", "doc"}, {"cargo", "d"}, {"cargo", "bench"}, {"rustc"},
}

// under reports whether the node is the command words name, or a rule
// under it.
func (nd *lintNode) under(words []string) bool {
	return len(nd.words) >= len(words) && nd.base() == words[0] && slices.Equal(nd.words[1:len(words)], words[1:])
}

// checkSandbox reports package-manager scripts, and the commands that
// compile or test the project, allowed outside the sandbox: they run the
// project's code, which guard never reads. The ones allowed with any
// operands are the runner check's errors.
func checkSandbox(l *linter) []hit {
	var out []hit
	for i := range l.nodes {
		nd := &l.nodes[i]
		n := nd.n
		if !nd.allows || n.sandbox != "" || runsUnbounded(nd) || slices.Contains(nd.words, "--") {
			continue // the arguments after -- go to the script its rule decides
		}
		switch {
		case slices.ContainsFunc(packageScripts, nd.under):
			out = append(out, nd.hit(fmt.Sprintf("%s is %s outside the sandbox: it runs the project's own scripts, which guard never reads", n.id, allowed(n)),
				`sandbox = "test": guard run then bounds what the script reaches`))
		case slices.ContainsFunc(compilers, nd.under):
			out = append(out, nd.hit(fmt.Sprintf("%s is %s outside the sandbox: it compiles or tests the project, which runs the project's code (tests, build scripts, macros, cgo), which guard never reads", n.id, allowed(n)),
				`sandbox = "build", or "test" for what runs tests: guard run then bounds what that code reaches`))
		}
	}
	return out
}

// checkUnbound reports the rules whose allowed calls run outside guard's
// sandbox, as their unbound key says: deliberate, with the policy's
// reason, but bounded by guard's judgment alone, so a reviewer should see
// each. A subcommand that has its parent's reason is its parent's finding.
func checkUnbound(l *linter) []hit {
	reported := map[string]string{} // the words of a reported rule: its reason
	var out []hit
	for i := range l.nodes {
		nd := &l.nodes[i]
		n := nd.n
		if !nd.allows || n.unbound == "" {
			continue
		}
		key := strings.Join(nd.words, " ")
		if why, ok := reported[strings.Join(nd.words[:len(nd.words)-1], " ")]; ok && len(nd.words) > 1 && why == n.unbound {
			reported[key] = why
			continue
		}
		reported[key] = n.unbound
		out = append(out, nd.hit(fmt.Sprintf("%s is %s outside guard run's sandbox (unbound: %s): guard's judgment alone bounds it", n.id, allowed(n), n.unbound),
			`leave out unbound to run it in the sandbox, where it needs nothing the sandbox withholds`))
	}
	return out
}

// checkWritable reports the writable roots outside the project and the
// temp dir.
func checkWritable(l *linter) []hit {
	var out []hit
	for _, w := range l.p.paths.Writable {
		if !ownString(l, func(pf *policyFile) []string { return pf.Paths.Writable }, w) {
			continue
		}
		c := path.Clean(w)
		inside := false
		for _, root := range []string{PhProject, PhTmp, "/tmp"} {
			if c == root || strings.HasPrefix(c, root+"/") {
				inside = true
			}
		}
		if !inside {
			out = append(out, hit{key: []string{"paths", "writable"}, rule: "paths.writable",
				msg: fmt.Sprintf("[paths] writable %q is outside the project and the temp dir: commands and file tools may change files there", w),
				fix: "keep writable roots under {project} or {tmp}; a sandbox profile's write grants a test what it needs"})
		}
	}
	return out
}

// checkShadowed reports rules that can never decide, as far as lint can
// tell exactly: deny, ask and session rules the rule's own verdict or an
// earlier rule overrides, ones that can never match, a rule for a shell
// builtin the shell always denies, and one program with two rules under
// two spellings.
func checkShadowed(l *linter) []hit {
	var out []hit
	for _, nd := range l.nodes {
		n := nd.n
		group := func(e *escalation) []string { return append(slices.Clone(n.subKey), e.verdict.String()) }
		reported := map[*escalation]bool{}
		report := func(e *escalation, msg, fix string) {
			if !reported[e] && l.written(group(e)) {
				reported[e] = true
				out = append(out, hit{key: group(e), rule: e.id, msg: msg, fix: fix})
			}
		}
		for i, e := range n.escalations {
			switch {
			case !n.HasSubs() && n.hasVerdict && n.verdict == Deny:
				report(e, fmt.Sprintf("%s is denied outright, so its %s rule %q is never reached", n.id, e.verdict, e.id),
					"take it out, or give the rule a verdict other than deny")
			case !n.HasSubs() && n.hasVerdict && e.verdict > n.verdict:
				report(e, fmt.Sprintf("%s: its %s rule %q never decides: the rule's own verdict, %s, is stricter", n.id, e.verdict, e.id, n.verdict),
					"make it stricter than the rule's verdict, or take it out")
			case n.style == styleNone && len(e.args) == 0:
				report(e, fmt.Sprintf("%s reads no options (style = \"none\"), so its %s rule %q never matches", n.id, e.verdict, e.id),
					"match the words as args, or take the rule out")
			case n.HasSubs() && len(e.args) > 0 && (!n.hasVerdict || n.rest != nil):
				report(e, fmt.Sprintf("%s has subcommands, which its first operand picks, so its %s rule %q never sees an operand", n.id, e.verdict, e.id),
					"put the rule in the subcommands it is for")
			}
			// Escalations are in the order deny, ask, session; of two that
			// match, the stricter decides, and the first of two alike.
			for _, f := range n.escalations[:i] {
				if f.verdict <= e.verdict && covers(f, e) {
					report(e, fmt.Sprintf("%s: its %s rule %q never decides: the %s rule %q matches whenever it does", n.id, e.verdict, e.id, f.verdict, f.id),
						"take it out, or make it match what the other does not")
				}
			}
		}
		if n.style == styleNone && n.rest != nil && l.written(append(slices.Clone(n.subKey), "rest")) {
			out = append(out, hit{key: append(slices.Clone(n.subKey), "rest"), rule: n.rest.id,
				msg: fmt.Sprintf("%s reads -- as an operand (style = \"none\"), so its rest rule is never reached", n.id),
				fix: "take the rest rule out, or give the rule a style that reads options"})
		}
		if len(nd.words) == 1 && (!n.hasVerdict || n.verdict != Deny || nd.below) {
			if kind := fixedConstruct(nd.words[0]); kind != "" {
				out = append(out, nd.hit(fmt.Sprintf("the shell construct %s is always denied, so the rule for %s never decides", kind, nd.words[0]),
					"take the rule out"))
			}
		}
		out = append(out, spellings(l, nd)...)
	}
	return out
}

// covers reports whether the escalation f matches every call e matches,
// for the escalations that match on one thing alone: f's flags include
// e's, or f's operand patterns include e's, without values.
func covers(f, e *escalation) bool {
	if len(f.values) > 0 || len(e.values) > 0 {
		return false
	}
	switch {
	case len(f.args) == 0 && len(e.args) == 0:
		return len(e.flags) > 0 && !slices.ContainsFunc(e.flags, func(x string) bool { return !slices.Contains(f.flags, x) })
	case len(f.flags) == 0 && len(e.flags) == 0:
		return len(e.args) > 0 && !slices.ContainsFunc(e.args, func(x string) bool { return !slices.Contains(f.args, x) })
	}
	return false
}

// fixedConstruct returns the construct the shell parser finds in every
// call of name, alone and with an operand, when no policy may allow it
// (eval, source, exec); "" when a call of it may be decided by its rule
// (export x is an assignment).
func fixedConstruct(name string) shellparse.Kind {
	if strings.ContainsAny(name, "*?/") {
		return "" // a pattern, or a path: not a builtin
	}
	var kind shellparse.Kind
	for _, src := range []string{name + " x", name} {
		s, err := shellparse.Parse(src, shellparse.Options{Dialect: shellparse.Bash})
		if err != nil {
			continue // let alone is not a command
		}
		i := slices.IndexFunc(s.Findings, func(f shellparse.Finding) bool { return f.Kind.Fixed() })
		if i < 0 {
			return ""
		}
		kind = s.Findings[i].Kind
	}
	return kind
}

// spellings reports a program, or a subcommand, with two rules under two
// spellings: names that differ only in case, which a case-insensitive file
// system (macOS) runs as one program and the engine picks by the
// spelling; and a program named by its path beside its base name, whose
// deny rules the path's spelling would get otherwise.
func spellings(l *linter, nd lintNode) []hit {
	n := nd.n
	var out []hit
	for _, s := range n.SubNames() {
		if other := sameLower(n.SubNames(), s); other != "" {
			out = append(out, hit{key: append(slices.Clone(n.subKey), "sub", s), rule: n.id + " " + s,
				msg: fmt.Sprintf("%s has subcommands %q and %q, one word where file names ignore case: which rule decides depends on the spelling", n.id, other, s),
				fix: "keep one rule, named in lower case"})
		}
	}
	if len(nd.words) != 1 {
		return out
	}
	name, names := nd.words[0], l.p.rules.names
	if other := sameLower(names, name); other != "" {
		out = append(out, nd.hit(fmt.Sprintf("command %q and command %q are one program where file names ignore case (macOS): which rule decides depends on the spelling", other, name),
			"keep one rule, named in lower case"))
	}
	if base := path.Base(name); base != name {
		if _, ok := slices.BinarySearch(names, base); ok {
			out = append(out, nd.hit(fmt.Sprintf("command %q decides for that spelling of %s instead of command %q, whose deny rules it would get otherwise", name, base, base),
				fmt.Sprintf("take the rule out: guard judges %s by the deny rules of %s", name, base)))
		}
	}
	return out
}

// sameLower returns a name of names that differs from name only in case,
// for reporting the pair once: at the name that is not in lower case,
// about the one that is, or at the later of two that are not.
func sameLower(names []string, name string) string {
	lower := func(s string) bool { return s == strings.ToLower(s) }
	if lower(name) {
		return ""
	}
	if i := slices.Index(names, strings.ToLower(name)); i >= 0 {
		return names[i]
	}
	for _, other := range names {
		if other < name && strings.EqualFold(other, name) {
			return other
		}
	}
	return ""
}

// checkExamples notes the policy's own command rules that carry no
// examples, in the rule or in any rule under it: guard test cannot tell
// when a change alters what they decide. A rule that only denies, with
// nothing under it, is left out: an example could only say it again.
func checkExamples(l *linter) []hit {
	l.p.mu.Lock()
	withExamples := map[string]bool{}
	for _, ex := range l.p.examples {
		if len(ex.key) > 1 {
			withExamples[ex.key[1]] = true
		}
	}
	l.p.mu.Unlock()
	var out []hit
	for _, nd := range l.nodes {
		n := nd.n
		if len(nd.words) != 1 || withExamples[nd.words[0]] || n.hasVerdict && n.verdict == Deny && !n.HasSubs() {
			continue
		}
		out = append(out, nd.hit(fmt.Sprintf("%s has no examples: guard test cannot tell when a change alters what it decides", n.id),
			`examples = { allow = ["..."], ask = ["..."], deny = ["..."] }`))
	}
	return out
}
