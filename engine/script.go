// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"strings"
	"time"

	"guard/policy"
	"guard/shellparse"
)

// script decides a shell script run in the directories where.
func (d *decider) script(src string, where []string, dialect shellparse.Dialect, zsh bool, depth int) {
	// Scripts of bash -c share the word bound of the command they are in,
	// so that nesting them does not multiply the work.
	left := shellparse.Defaults().MaxWords - d.words
	if left < 1 {
		d.add(Leaf{Verdict: policy.Deny, Kind: "input", Text: firstLine(src), Why: fmt.Sprintf("the command and the scripts in it hold more than %d words", shellparse.Defaults().MaxWords)})
		return
	}
	s, err := shellparse.Parse(src, shellparse.Options{Dialect: dialect, Zsh: zsh, Limits: shellparse.Limits{MaxWords: left}})
	if s != nil {
		d.words += s.Words
	}
	if err != nil {
		l := Leaf{Verdict: policy.Deny, Kind: "input", Text: firstLine(src), Rule: "shell.parse", Why: err.Error(), Hint: "write a plain command: guard denies what it cannot parse"}
		if e, ok := err.(*shellparse.Error); ok {
			l.Pos = e.Pos
			l.Why = e.Msg
			if e.Kind != "" {
				l.Rule = "shell." + string(e.Kind)
			}
			if e.Pos != (shellparse.Pos{}) {
				l.Why = fmt.Sprintf("%s at %s", e.Msg, e.Pos)
			}
		}
		d.add(l)
		return
	}
	for _, r := range s.Redirects {
		d.fds.note(r)
	}
	for _, c := range s.Commands {
		for _, r := range c.Redirs {
			d.fds.note(r)
		}
	}
	// The operands that take any value, found while the commands are
	// decided, make their own substitutions and expansions allowed.
	outer := d.anyParts
	d.anyParts = nil
	defer func() { d.anyParts = outer }()
	type construct struct {
		leaf int
		kind shellparse.Kind
	}
	var constructs []construct
	for _, f := range s.Findings {
		if f.Kind == shellparse.KindCmdSubst || f.Kind == shellparse.KindParamExp {
			constructs = append(constructs, construct{len(d.leaves), f.Kind})
		}
		d.add(d.construct(f))
	}
	defer func() {
		for _, c := range constructs {
			l := &d.leaves[c.leaf]
			if rule := d.anyParts[l.Pos]; rule != "" && l.Verdict != policy.Allow {
				l.Verdict, l.Hint = policy.Allow, ""
				l.Why = fmt.Sprintf("%s at %s gives an operand of %s, which takes any value", c.kind.Describe(), l.Pos, rule)
			}
		}
	}()
	for _, a := range s.Assigns {
		d.add(d.assign(a))
	}
	for _, r := range s.Redirects {
		d.add(d.redirect(r, d.resolve(where, r.Dir)))
	}
	for _, c := range s.Commands {
		if !d.call.Deadline.IsZero() && time.Now().After(d.call.Deadline) {
			d.add(Leaf{Verdict: policy.Deny, Kind: "input", Text: firstLine(src), Rule: "deadline",
				Why: "the decision took longer than its deadline", Hint: DeadlineHint})
			return
		}
		d.cmdSeq++
		cwhere := d.resolve(where, c.Dir)
		if why := d.secretWorkDir(cwhere); why != "" {
			// A command reads its working directory without naming it:
			// ls, find, grep -r, git status.
			d.add(Leaf{Verdict: policy.Deny, Kind: "command", Text: c.Source, Pos: c.Pos, Rule: "paths.secret", Why: why,
				Hint: "run commands from the project"})
		}
		for _, a := range c.Assigns {
			d.add(d.assign(a))
		}
		for _, r := range c.Redirs {
			d.add(d.redirect(r, cwhere))
		}
		outerTr := d.tr
		if outerTr != nil {
			d.tr = &tracer{}
		}
		outerAgain, outerConcurrent := d.again, d.concurrent
		d.again, d.concurrent = outerAgain || again(c.Context), outerConcurrent || concurrent(c.Context)
		res := d.argv(c.Args, cwhere, depth, 0)
		d.again, d.concurrent = outerAgain, outerConcurrent
		if d.readOnly() && res.verdict == policy.Allow && len(res.notRO) > 0 {
			mark := d.tr.mark()
			res.add(policy.Deny, "read-only", fmt.Sprintf("read-only mode: %s may write files or run code", res.notRO[0]),
				"read-only mode allows only the read-only commands of the policy")
			d.tr.check("read-only mode", "read-only", mark)
		}
		l := Leaf{Verdict: res.verdict, Kind: "command", Text: c.Source, Pos: c.Pos, Rule: res.rule, Why: res.why, Hint: res.hint,
			Programs: res.programs, Children: res.children, Sandbox: res.sandbox, Writes: res.writes, Unbound: res.unbound}
		if l.Verdict == policy.Session {
			l.Scope = d.commandScope(res, c.Source, cwhere)
		}
		if outerTr != nil {
			l.Explained = explainContext(&c, cwhere, d.scriptCtx)
			l.Explained.Words = d.tr.done(res.rule)
			d.tr = outerTr
		}
		d.add(l)
	}
}

// DeadlineHint is the hint for a decision that missed its deadline. The
// command may be fine: a loaded machine or a slow file system makes a
// decision slow too, so the first thing to try is the same command.
const DeadlineHint = "run it again, as a busy machine decides slowly; if it is refused again, split it into smaller commands, or name files rather than whole trees"

// anyValue reports whether a dynamic word is one a rule that takes any
// value may take: every command substitution and parameter expansion of
// its own is of a command guard decides on its own, or of a read-only
// variable; and it records them.
func (d *decider) anyValue(rule string, w shellparse.Word) bool {
	if len(w.Parts) == 0 || strings.ContainsRune(w.Source, '\n') || strings.Contains(w.Source, "\\`") {
		// A line break, or backticks inside backticks, which shells read
		// differently: the word stays unknown.
		return false
	}
	for _, p := range w.Parts {
		if p.Kind == shellparse.KindParamExp && !anyValueVars[p.Name] {
			return false
		}
	}
	if d.anyParts == nil {
		d.anyParts = map[shellparse.Pos]string{}
	}
	for _, p := range w.Parts {
		d.anyParts[p.Pos] = rule
	}
	return true
}

// anyValueVars are the variables whose value an operand that takes any
// value may have: the shell's and the session's own, never a secret.
var anyValueVars = map[string]bool{
	"HOME": true, "PWD": true, "OLDPWD": true, "USER": true, "LOGNAME": true, "HOSTNAME": true, "SHELL": true,
	"TERM": true, "LANG": true, "TMPDIR": true, "PATH": true, "UID": true, "EUID": true, "PPID": true,
	"?": true, "#": true, "$": true,
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " ..."
	}
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

var constructHints = map[shellparse.Kind]string{
	shellparse.KindCmdSubst:      "run the inner command on its own first, then write its output into the command literally",
	shellparse.KindProcSubst:     "run the inner command on its own first, or use a pipe",
	shellparse.KindParamExp:      "write the value out literally instead of using a variable",
	shellparse.KindBackground:    "run the command in the foreground",
	shellparse.KindSubshell:      "run the commands without ( )",
	shellparse.KindGroup:         "run the commands without { }",
	shellparse.KindControlFlow:   "run the commands one at a time, without if, for, while or case",
	shellparse.KindTest:          "use test or [ ] instead of [[ ]]",
	shellparse.KindNamedFd:       "redirect to a numbered descriptor or a file instead",
	shellparse.KindShellBuiltins: "run the commands without changing the shell's options and state (set, shopt, umask, ulimit)",
}

func (d *decider) construct(f shellparse.Finding) Leaf {
	l := Leaf{Kind: "construct", Text: f.Source, Pos: f.Pos, Rule: "shell." + string(f.Kind)}
	what := fmt.Sprintf("%s at %s", f.Kind.Describe(), f.Pos)
	if f.Kind.Fixed() {
		l.Verdict = policy.Deny
		l.Why = what + " is never allowed: it runs code guard cannot check, or changes what later commands mean"
		if f.Why != "" {
			l.Why = fmt.Sprintf("%s at %s is never allowed: %s", f.Kind.Describe(), f.Pos, f.Why)
		}
		l.Hint = "write the commands out plainly, one simple command at a time"
		if f.Kind == shellparse.KindZsh {
			l.Hint = "write it so that bash and zsh read it alike, or set CLAUDE_CODE_SHELL=bash"
		}
		return l
	}
	v, ok := d.p.ShellVerdict(f.Kind)
	if !ok {
		v, l.Rule = d.p.DefaultVerdict(), ""
	}
	l.Verdict = v
	switch v {
	case policy.Allow:
		l.Why = what + " is allowed"
	case policy.Ask:
		l.Why = what + " needs approval"
	default:
		l.Why = what + " is not allowed by policy"
	}
	l.Hint = constructHints[f.Kind]
	return l
}

// envHint is the hint for an assignment the policy does not allow: leave
// it out, and the allowed names nearest to it, never the whole list.
func envHint(name string, allowed []string) string {
	switch {
	case len(allowed) == 0:
		return "run the command without setting " + name
	case len(allowed) <= 4:
		return fmt.Sprintf("run the command without setting %s; the policy allows setting %s", name, strings.Join(allowed, ", "))
	}
	return fmt.Sprintf("run the command without setting %s; the policy allows setting %d variables, such as %s", name, len(allowed), strings.Join(policy.Nearest(name, allowed, 4), ", "))
}

// assign decides an assignment by the variable's name.
func (d *decider) assign(a shellparse.Assign) Leaf {
	l := Leaf{Kind: "assignment", Text: a.Name + "=" + a.Value.Source, Pos: a.Pos}
	if a.Scope == shellparse.ScopeLoop {
		l.Text = "for " + a.Name
	}
	if why, ok := localeLeaf(a.Name, a.Value.Value, a.Scope != shellparse.ScopeLoop && a.Value.Constant() && !a.Value.Tilde); !ok {
		l.Verdict, l.Rule, l.Why = policy.Deny, "shell.locale", why
		l.Hint = "set LC_ALL, LC_CTYPE and LANG only to C, POSIX or a UTF-8 locale"
		return l
	}
	why, ok := namesFileWord(a.Name, a.Value)
	if a.Scope == shellparse.ScopeLoop {
		why, ok = loopNamesFile(a.Name)
	}
	if ok {
		l.Verdict, l.Rule, l.Why = policy.Deny, "env.value", why
		l.Hint = "set it to a locale or zone name (C.UTF-8, en_US.UTF-8, fr:de, Europe/Paris), or leave it out"
		return l
	}
	v, rule, why := d.p.EnvVerdict(a.Name)
	if tied, ok := zshTied[a.Name]; ok && d.call.Shell != "bash" {
		// zsh ties the array path to PATH, cdpath to CDPATH, ...
		if tv, trule, twhy := d.p.EnvVerdict(tied); tv < v {
			v, rule, why = tv, trule, fmt.Sprintf("in zsh, %s is %s: %s", a.Name, tied, twhy)
		}
	}
	l.Verdict, l.Rule, l.Why = v, rule, why
	if v != policy.Allow {
		l.Hint = envHint(a.Name, d.p.EnvAllow())
	}
	return l
}
