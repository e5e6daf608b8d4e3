// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

import (
	"fmt"
	"strings"
)

// String renders the script for debugging and tests: one line per command,
// assignment, redirection and finding.
func (s *Script) String() string {
	var b strings.Builder
	for _, c := range s.Commands {
		fmt.Fprintf(&b, "cmd %s", c.Pos)
		for _, a := range c.Assigns {
			fmt.Fprintf(&b, " %s=%s", a.Name, a.Value.render())
		}
		for _, a := range c.Args {
			fmt.Fprintf(&b, " %s", a.render())
		}
		for _, r := range c.Redirs {
			fmt.Fprintf(&b, " %s%s%s", r.Fd, r.Op, r.Target.render())
		}
		if !c.Dir.Start() {
			fmt.Fprintf(&b, " @%s", c.Dir)
		}
		b.WriteByte('\n')
	}
	for _, a := range s.Assigns {
		fmt.Fprintf(&b, "assign %s %s %s=%s\n", a.Pos, a.Scope, a.Name, a.Value.render())
	}
	for _, r := range s.Redirects {
		fmt.Fprintf(&b, "redirect %s %s%s%s\n", r.Pos, r.Fd, r.Op, r.Target.render())
	}
	for _, f := range s.Findings {
		fmt.Fprintf(&b, "finding %s %s\n", f.Pos, f.Kind)
	}
	return b.String()
}

// render writes a word for String: quoted value, <dynamic: why>, or glob:pattern.
func (w Word) render() string {
	switch {
	case w.Dynamic != "":
		return "<" + w.Dynamic + ">"
	case w.Glob:
		return "glob:" + fmt.Sprintf("%q", w.Value)
	case w.Tilde:
		return "tilde:" + fmt.Sprintf("%q", w.Value)
	}
	return fmt.Sprintf("%q", w.Value)
}
