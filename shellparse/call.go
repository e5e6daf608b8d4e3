// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// call walks a simple command.
func (p *parser) call(c *syntax.CallExpr, redirs []Redirect, dir Dir, ctx []Frame, depth int) (succ, fail Dir) {
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			p.script.Assigns = append(p.script.Assigns, p.assign(a, ScopeShell, dir, ctx, depth))
		}
		return dir, dir
	}
	cmd := Command{Dir: dir, Context: ctx, Pos: position(c.Pos()), Source: p.text(c), Redirs: redirs}
	for _, a := range c.Assigns {
		cmd.Assigns = append(cmd.Assigns, p.assign(a, ScopeCommand, dir, ctx, depth))
	}
	cmd.Args = make([]Word, 0, len(c.Args))
	for _, w := range c.Args {
		cmd.Args = append(cmd.Args, p.word(w, argWord, dir, ctx, depth))
	}
	if p.err != nil {
		return unknownDir, unknownDir
	}
	p.script.Commands = append(p.script.Commands, cmd)
	return p.builtin(c, &cmd, dir)
}

// builtin records the findings for builtins that run code or change the
// shell, and follows cd.
func (p *parser) builtin(c *syntax.CallExpr, cmd *Command, dir Dir) (succ, fail Dir) {
	args := cmd.Args
	// builtin NAME and command [-p] NAME run NAME as the shell would.
	for len(args) > 0 && args[0].Constant() && !args[0].Tilde && (args[0].Value == "builtin" || args[0].Value == "command") {
		wrapper := args[0].Value
		args = args[1:]
		for wrapper == "command" && len(args) > 0 && args[0].Constant() && strings.HasPrefix(args[0].Value, "-") {
			if args[0].Value == "--" {
				args = args[1:]
				break
			}
			if strings.ContainsAny(args[0].Value, "vV") {
				return dir, dir // command -v only looks the name up
			}
			args = args[1:]
		}
	}
	if len(args) == 0 {
		return dir, dir
	}
	if !args[0].Constant() || args[0].Tilde {
		p.find(KindDynamicCommand, c)
		return unknownDir, unknownDir
	}
	rest := args[1:]
	if p.zsh {
		p.zshBuiltin(c, args[0].Value, rest)
		p.zshArgs(c)
	}
	switch args[0].Value {
	case "cd":
		return p.cd(rest, dir)
	case "pushd", "popd":
		p.find(KindShellBuiltins, c)
		return unknownDir, dir
	case "eval":
		p.find(KindEval, c)
	case "source", ".":
		p.find(KindSource, c)
	case "exec":
		p.find(KindExec, c)
	case "alias":
		p.find(KindAlias, c)
	case "trap":
		p.find(KindTrap, c)
	case "enable", "hash", "fc", "bind", "compgen", "complete", "compopt":
		p.find(KindDynamicShell, c)
	case "declare", "typeset", "local", "readonly", "export":
		p.find(KindDeclare, c)
	case "let":
		p.find(KindArithmetic, c)
	case "shopt":
		p.find(KindShellBuiltins, c)
	case "set":
		if !safeSet(rest) {
			p.find(KindShellBuiltins, c)
		}
	case "read", "mapfile", "readarray", "getopts", "printf":
		// These assign the variables they name, as an assignment would.
		names, code := assignedNames(args[0].Value, rest)
		if code {
			p.find(KindEval, c) // mapfile -C runs a callback
		}
		for _, w := range names {
			if !w.Constant() || strings.Contains(w.Value, "[") {
				p.find(KindArithmetic, c)
				continue
			}
			p.script.Assigns = append(p.script.Assigns, Assign{
				Name:  w.Value,
				Value: Word{Dynamic: "set by " + args[0].Value, Pos: w.Pos, Source: w.Source},
				Scope: ScopeShell,
				Dir:   dir,
				Pos:   w.Pos,
			})
		}
	case "unset", "wait":
		if anySubscript(rest) {
			p.find(KindArithmetic, c)
		}
	case "test", "[":
		for _, a := range rest {
			if !a.Constant() || a.Value == "-v" || a.Value == "-R" {
				p.find(KindArithmetic, c)
				break
			}
		}
	}
	return dir, dir
}

// assignedNames returns the variable names that read, mapfile, readarray,
// getopts and printf -v assign, and whether a callback option (mapfile -C)
// makes the builtin run code. Options are read as bash's getopt does:
// bundled flags, and a value attached or in the next word.
func assignedNames(builtin string, args []Word) (names []Word, code bool) {
	var valued, nameOpts string // options that take a value; those whose value is a name
	switch builtin {
	case "read":
		valued, nameOpts = "adinNptu", "a"
	case "mapfile", "readarray":
		valued = "dnOsuCc"
	case "printf":
		valued, nameOpts = "v", "v"
	}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.Constant() {
			return append(names, args[i:]...), code
		}
		v := a.Value
		if v == "--" {
			i++
			break
		}
		if builtin == "getopts" || len(v) < 2 || v[0] != '-' {
			break
		}
		for j := 1; j < len(v); j++ {
			opt := v[j]
			if !strings.ContainsRune(valued, rune(opt)) {
				continue
			}
			value := Word{Value: v[j+1:], Pos: a.Pos, Source: a.Source}
			if j+1 == len(v) {
				if i+1 >= len(args) {
					break
				}
				i++
				value = args[i]
			}
			if opt == 'C' {
				code = true
			}
			if strings.ContainsRune(nameOpts, rune(opt)) {
				names = append(names, value)
			}
			break
		}
	}
	rest := args[i:]
	switch builtin {
	case "read":
		names = append(names, rest...)
		if len(rest) == 0 && len(names) == 0 {
			names = append(names, Word{Value: "REPLY"})
		}
	case "mapfile", "readarray":
		if len(rest) > 0 {
			names = append(names, rest[0])
		} else {
			names = append(names, Word{Value: "MAPFILE"})
		}
	case "getopts":
		if len(rest) > 1 {
			names = append(names, rest[1])
		}
		names = append(names, Word{Value: "OPTARG"}, Word{Value: "OPTIND"})
	}
	return names, code
}

// anySubscript reports whether a variable name argument may carry a
// subscript, which bash evaluates as arithmetic.
func anySubscript(args []Word) bool {
	for _, a := range args {
		if !a.Constant() || strings.Contains(a.Value, "[") {
			return true
		}
	}
	return false
}

// safeSet reports whether a set command only sets options that do not
// change how later commands are read or run.
func safeSet(args []Word) bool {
	safeLong := map[string]bool{"errexit": true, "nounset": true, "pipefail": true, "xtrace": true, "verbose": true, "noclobber": true, "noglob": true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Constant() {
			return false
		}
		v := a.Value
		if len(v) < 2 || (v[0] != '-' && v[0] != '+') || v == "--" {
			return false // set -- args, or set args: positional parameters
		}
		for _, c := range v[1:] {
			switch {
			case c == 'o':
				// -o NAME, also at the end of a bundle: -euo pipefail.
				i++
				if i >= len(args) || !args[i].Constant() || !safeLong[args[i].Value] {
					return false
				}
			case strings.ContainsRune("euxvCf", c):
			default:
				return false
			}
		}
	}
	return true
}

// cd follows a cd command.
func (p *parser) cd(args []Word, dir Dir) (succ, fail Dir) {
	for len(args) > 0 && args[0].Constant() && strings.HasPrefix(args[0].Value, "-") && args[0].Value != "-" {
		opt := args[0].Value
		args = args[1:]
		if opt == "--" {
			break
		}
		if strings.Trim(opt[1:], "LPe@") != "" {
			return unknownDir, dir
		}
	}
	switch {
	case len(args) == 0:
		return dir.cd("~"), dir
	case len(args) > 1, !args[0].Constant(), args[0].Value == "-", args[0].Value == "":
		return unknownDir, dir
	case p.zsh && zshStackEntry(args[0].Value):
		return unknownDir, dir // zsh: cd +N goes to an entry of the directory stack
	}
	return dir.cd(args[0].Value), dir
}
