// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"slices"
	"strings"

	"guard/policy"
	"guard/shellparse"
)

// Limits on how deep commands may hide inside other commands.
const (
	maxShellNesting   = 3  // bash -c 'bash -c "..."'
	maxWrapperNesting = 16 // timeout 5 nice env ...
)

// wrapped decides the command that a wrapper such as timeout, env or xargs
// runs.
func (m *matcher) wrapped(n *policy.Rule, args []shellparse.Word, present map[string]bool, values map[string][]string, where []string) result {
	r := result{tr: m.d.tr}
	w := n.Wrap()
	if len(args) < w.Skip {
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s needs %d operands before the command", n.ID(), w.Skip), "give its operands, then the command")
		return r
	}
	for _, a := range args[:w.Skip] {
		if !a.Constant() {
			r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s: operand %s is not known until run time", n.ID(), a.Source), "write the operand out literally")
		}
	}
	inner := slices.Clone(args[w.Skip:])
	if w.Env {
		// env takes every NAME=VALUE before the command as an assignment,
		// whatever NAME is (BASH_FUNC_ls%%=... defines a function for bash).
		for len(inner) > 0 && inner[0].Constant() {
			name, _, ok := strings.Cut(inner[0].Value, "=")
			if !ok {
				break
			}
			l := m.d.assign(shellparse.Assign{Name: name, Value: shellparse.Word{Value: inner[0].Value[len(name)+1:], Source: inner[0].Source}, Pos: inner[0].Pos})
			l.Text = inner[0].Source
			m.d.add(l)
			inner = inner[1:]
		}
	}
	if len(inner) == 0 {
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s without a command", n.ID()), "give it the command to run")
		return r
	}
	if w.Stdin {
		// Words from standard input may be any path, absolute or not, and
		// may look like options.
		from := shellparse.Word{Glob: true, GlobLead: true, Value: "/**", Source: stdinWords}
		replaced := false
		for _, opt := range w.Replace {
			if !present[opt] {
				continue
			}
			token := "{}"
			if vs := values[opt]; len(vs) > 0 && vs[len(vs)-1] != "" {
				token = vs[len(vs)-1]
			}
			for k := range inner {
				if inner[k].Constant() && strings.Contains(inner[k].Value, token) {
					inner[k] = from // the command name too: xargs -I{} {} runs what stdin says
				}
			}
			replaced = true
		}
		if !replaced {
			inner = append(inner, from)
		}
	}
	for name, vs := range values {
		if o := n.Option(name); o != nil && o.Type() == "dir" && len(vs) > 0 {
			where = m.d.chdirAll(where, vs[len(vs)-1])
		}
	}
	return m.d.argv(inner, where, m.shellDepth, m.wrapDepth+1)
}

// exec decides the command of a find -exec style option at args[i] and
// returns the index after its terminator.
func (m *matcher) exec(n *policy.Rule, args []shellparse.Word, i int, roots []shellparse.Word, r *result) int {
	opt := args[i].Value
	// find puts in place of {} a name under one of its start paths, which
	// does not look like an option unless a start path does.
	names := []shellparse.Word{{Glob: true, Value: "./**", Source: findNames}}
	if len(roots) > 0 {
		names = nil
		for _, root := range roots {
			if !root.Constant() {
				names = []shellparse.Word{{Dynamic: "a name under a start path known only at run time", Source: findNames}}
				break
			}
			names = append(names, shellparse.Word{Glob: true, GlobLead: strings.HasPrefix(root.Value, "-"),
				Value: strings.TrimSuffix(root.Value, "/") + "/**", Tilde: root.Tilde, Source: findNames})
		}
	}
	var inner []shellparse.Word
	var braces []int // where {} stands in inner
	for j := i + 1; j < len(args); j++ {
		a := args[j]
		if a.Constant() && (a.Value == ";" || a.Value == "+" && len(inner) > 0 && inner[len(inner)-1].Value == "{}") {
			if len(inner) == 0 {
				r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s %s without a command", n.ID(), opt), fmt.Sprintf("give %s the command to run, ended by \\; or +", opt))
				return j + 1
			}
			if len(braces) == 0 {
				r.merge(m.d.argv(inner, m.where, m.shellDepth, m.wrapDepth+1))
				return j + 1
			}
			for _, name := range names {
				for _, k := range braces {
					name.Pos = inner[k].Pos
					inner[k] = name
				}
				r.merge(m.d.argv(slices.Clone(inner), m.where, m.shellDepth, m.wrapDepth+1))
			}
			return j + 1
		}
		switch {
		case a.Constant() && a.Value == "{}":
			braces = append(braces, len(inner))
		case a.Constant() && strings.Contains(a.Value, "{}"):
			a = shellparse.Word{Dynamic: "find puts a file name inside it", Source: a.Source, Pos: a.Pos}
		}
		inner = append(inner, a)
	}
	r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s %s has no ; or + to end its command", n.ID(), opt), fmt.Sprintf("end the command of %s with \\; or +", opt))
	return len(args)
}

// shell decides the script of bash -c SCRIPT.
func (m *matcher) shell(n *policy.Rule, present map[string]bool, operands []shellparse.Word, r *result) {
	switch {
	case !present["-c"] && len(operands) > 0:
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s runs the script file %s, which guard cannot check", n.ID(), operands[0].Source), "run the commands of the script directly")
		return
	case !present["-c"]:
		r.add(policy.Deny, n.ID(), fmt.Sprintf("%s reads commands from standard input, which guard cannot check", n.ID()), "pass the commands with -c '...'")
		return
	case len(operands) == 0:
		r.add(n.Unknown(), n.ID(), fmt.Sprintf("%s -c without a script", n.ID()), "give the script after -c, in quotes")
		return
	}
	script := operands[0]
	if !script.Constant() {
		r.add(policy.Deny, n.ID(), fmt.Sprintf("the script of %s -c is not known until run time", n.ID()), "pass the script as one quoted string")
		return
	}
	if m.shellDepth >= maxShellNesting {
		r.add(policy.Deny, n.ID(), fmt.Sprintf("shells nest more than %d deep", maxShellNesting), "run the inner commands directly")
		return
	}
	dialect := shellparse.Bash
	if n.Shell() == "sh" {
		dialect = shellparse.POSIX
	}
	before := len(m.d.leaves)
	if m.d.tr != nil {
		outer := m.d.scriptCtx
		m.d.scriptCtx = append(slices.Clip(outer), fmt.Sprintf("the script of %s -c at %s", n.ID(), script.Pos))
		defer func() { m.d.scriptCtx = outer }()
	}
	m.d.script(script.Value, m.where, dialect, false, m.shellDepth+1)
	worst := policy.Allow
	var deciding *Leaf
	for k := before; k < len(m.d.leaves); k++ {
		if l := &m.d.leaves[k]; deciding == nil || l.Verdict < worst {
			worst, deciding = l.Verdict, l
		}
	}
	if deciding != nil && worst != policy.Allow {
		r.add(worst, deciding.Rule, fmt.Sprintf("in the script of %s -c: %s", n.ID(), deciding.Why), deciding.Hint)
	}
}
