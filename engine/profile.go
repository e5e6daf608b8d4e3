// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"slices"

	"guard/policy"
)

// needs is what the parts of an allowed shell call need of guard run's
// sandbox, read from its leaves:
//
//   - a part a rule allows only in the read-only sandbox (code given to
//     python or node, a search of a tree that holds a .env) must run
//     with the project read-only;
//   - a part that writes what the policy let it write ([Leaf.Writes]: a
//     granted git commit, mkdir, sed -i, a redirection into a file) needs
//     the project writable, less its kept paths;
//   - a part a rule allows only in the build or test profile, or in one
//     of the policy's own, runs the project's code: it may make files in
//     the project, and what was there before is kept from removal;
//   - a part whose rule says it runs outside the sandbox (unbound: it
//     needs the network and the user's credentials) runs as it is, and
//     only beside parts that act on the agent's shell alone (see
//     [harmlessBeside]): any other part would run outside with it;
//   - any other part only reads, and runs in any of them.
type needs struct {
	readOnly *Leaf    // the first part that must run with the project read-only
	writes   *Leaf    // the first part that writes
	code     *Leaf    // the first part that runs the project's code (build, test, the policy's own)
	only     *Leaf    // the first part allowed only in the sandbox, whatever its profile
	unbound  *Leaf    // the first part that runs outside the sandbox
	bound    *Leaf    // the first other part that would lose the sandbox's bound beside it
	build    bool     // a part is allowed in the build profile
	test     bool     // a part is allowed in the test profile
	own      []string // the policy's own profiles the parts are allowed in, sorted
}

// needsOf reads what the allowed parts of d need of the sandbox.
func needsOf(d *Decision) needs {
	var n needs
	first := func(p **Leaf, l *Leaf) {
		if *p == nil {
			*p = l
		}
	}
	for i := range d.Leaves {
		l := &d.Leaves[i]
		if l.Verdict != policy.Allow {
			continue
		}
		if l.Unbound != "" {
			first(&n.unbound, l)
		} else if !harmlessBeside(l) {
			first(&n.bound, l)
		}
		if l.Writes && len(l.Sandbox) == 0 {
			// A part allowed only in a profile runs in it whole, with
			// its wrapper (nohup cargo build): what the wrapper makes,
			// the profile lets it make.
			first(&n.writes, l)
		}
		for _, p := range l.Sandbox {
			first(&n.only, l)
			switch p {
			case "read-only":
				first(&n.readOnly, l)
				continue
			case "build":
				n.build = true
			case "test":
				n.test = true
			default:
				if !slices.Contains(n.own, p) {
					n.own = append(n.own, p)
				}
			}
			first(&n.code, l)
		}
	}
	slices.Sort(n.own)
	return n
}

// conflict returns why no one profile of guard run holds every part, or
// "": code given to an interpreter runs only with the project read-only,
// and the project's code runs only where what was there before is kept,
// so neither runs beside a part that writes, nor the one beside the
// other. Run as separate calls, each part gets the profile it needs.
func (n *needs) conflict() string {
	switch {
	case n.readOnly != nil && n.writes != nil:
		return fmt.Sprintf("%s runs only in the read-only sandbox, and %s writes files", n.readOnly.Text, n.writes.Text)
	case n.readOnly != nil && n.code != nil:
		return fmt.Sprintf("%s runs only in the read-only sandbox, and %s runs the project's code, which writes its outputs", n.readOnly.Text, n.code.Text)
	case n.code != nil && n.writes != nil:
		return fmt.Sprintf("%s runs the project's code in a sandbox that keeps the files already there, and %s writes files, which that sandbox would refuse or the code could then do too", n.code.Text, n.writes.Text)
	}
	return ""
}

// unboundConflict returns why the part that runs outside the sandbox
// cannot run beside the others, or "". The call runs as it is, so every
// other part would run outside too, where what guard's judgment missed
// the kernel no longer stops: only parts that act on the agent's shell
// alone may stand beside it, and read-only mode holds none.
func (n *needs) unboundConflict(readOnlyMode bool) string {
	u := n.unbound
	switch {
	case readOnlyMode:
		return fmt.Sprintf("%s runs outside the sandbox (%s), and read-only mode runs every command in the read-only sandbox", u.Text, u.Unbound)
	case n.bound != nil:
		return fmt.Sprintf("%s runs outside the sandbox (%s), and %s would run outside with it, where only the sandbox bounds it", u.Text, u.Unbound, n.bound.Text)
	}
	return ""
}

// harmlessBeside reports whether a part may run outside the sandbox
// beside one whose rule runs it there: an assignment, a builtin that acts
// on the agent's shell alone (cd, export, echo of constant words), or a
// redirection that writes no file (2>&1, 2>/dev/null).
func harmlessBeside(l *Leaf) bool {
	switch l.Kind {
	case "assignment":
		return true
	case "command":
		return len(l.Programs) == 1 && shellBuiltin(l.Programs[0])
	case "redirect":
		return !l.Writes
	}
	return false
}

// flags returns guard run's flags for the profile that holds every part,
// after conflict found none: --read-only where no part writes or runs
// the project's code (and in read-only mode); none where a part writes,
// for the project writable less its kept paths; --profile test, or build,
// for the project's code, and --profile NAME for each of the policy's own
// profiles the parts need. A profile of the policy's own grants what
// build does and more, so build is not named beside one.
func (n *needs) flags(readOnlyMode bool) []string {
	var out []string
	switch {
	case readOnlyMode || n.writes == nil && n.code == nil:
		out = append(out, "--read-only")
	case n.test:
		out = append(out, "--profile", "test")
	case n.build && len(n.own) == 0:
		out = append(out, "--profile", "build")
	}
	for _, p := range n.own {
		out = append(out, "--profile", p)
	}
	return out
}

// shellOnly reports whether a shell call acts on the agent's shell alone:
// every part is an assignment (export NAME=VALUE), or a builtin that
// changes or reads only the shell's own state, or prints its constant
// operands (see shellBuiltin). Such a call runs as it is: in guard run it
// would do nothing more, a cd would not move the agent's shell, and echo
// would run in bash where the agent's shell may be zsh. A redirection, a
// substitution or any other program makes the call run in the sandbox.
func shellOnly(d *Decision) bool {
	for _, l := range d.Leaves {
		switch {
		case l.Kind == "assignment":
		case l.Kind == "command" && len(l.Programs) == 1 && shellBuiltin(l.Programs[0]):
		default:
			return false
		}
	}
	return len(d.Leaves) > 0
}

// shellBuiltin reports whether name is a builtin of bash and zsh that
// changes or reads only the shell's own state (cd, pwd, export, true,
// false, :), or writes its operands to standard output and nothing else
// (echo, printf: printf -v is a construct guard refuses).
func shellBuiltin(name string) bool {
	switch name {
	case "cd", "pwd", "export", "true", "false", ":", "echo", "printf":
		return true
	}
	return false
}
