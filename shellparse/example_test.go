// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse_test

import (
	"fmt"

	"guard/shellparse"
)

func ExampleParse() {
	script, err := shellparse.Parse(`cd src && grep -rn "TODO: fix" . | head -5 > todo.txt`, shellparse.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range script.Commands {
		fmt.Printf("%s:", c.Name())
		for _, w := range c.Args[1:] {
			fmt.Printf(" %q", w.Value)
		}
		for _, r := range c.Redirs {
			fmt.Printf(" (%s %s)", r.Op, r.Target.Value)
		}
		fmt.Println()
	}

	// A command substitution is a finding for the policy to judge, with
	// the command inside it.
	script, err = shellparse.Parse(`echo $(id -u)`, shellparse.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range script.Findings {
		fmt.Printf("finding at %s: %s %q\n", f.Pos, f.Kind, f.Source)
	}
	for _, c := range script.Commands {
		fmt.Printf("command: %s\n", c.Source)
	}

	// What the shell and the parser would read differently is an error,
	// with its position, and no script.
	script, err = shellparse.Parse("ls\x00 /", shellparse.Options{})
	fmt.Println(script == nil, err)
	// Output:
	// cd: "src"
	// grep: "-rn" "TODO: fix" "."
	// head: "-5" (> todo.txt)
	// finding at 1:6: command-substitution "$(id -u)"
	// command: id -u
	// command: echo $(id -u)
	// true 1:3: NUL byte (U+0000) is not allowed in a command
}
