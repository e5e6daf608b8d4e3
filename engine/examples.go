// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"errors"
	"guard/policy"
	"io"
)

// CheckExamples compiles every rule of the policy, decides every example,
// and returns an error for each rule that does not compile and each
// example that does not get its verdict.
func CheckExamples(p *policy.Policy) []error {
	if !p.Loaded() {
		return []error{errors.New("no policy")}
	}
	errs := p.CompileAll()
	for _, ex := range p.Examples() {
		if err := checkExample(p, ex); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

func checkExample(p *policy.Policy, ex policy.Example) error {
	d := Decide(p, ExampleCall(ex.Command))
	if d.Verdict != ex.Want {
		return p.ExampleErrorf(ex, "example %q: want %s, got %s: %s", ex.Command, ex.Want, d.Verdict, d.Reason())
	}
	return nil
}

// ExampleCall is the call used to decide examples and test cases: a shell
// command run at the root of a project in /project, by a user whose home
// is /home/user, with guard in /usr/local/bin.
func ExampleCall(command string) Call {
	return Call{
		Kind:    KindShell,
		Input:   Input{Command: command},
		Cwd:     "/project",
		Project: "/project",
		Home:    "/home/user",
		Temp:    "/tmp",
		Guard:   "/usr/local/bin/guard",
		// Examples are judged where the sandbox runs: a command allowed
		// only in it is allowed, and rewritten.
		Run: []string{"/usr/local/bin/guard", "run"},
	}
}

// Load reads, checks and compiles a TOML policy, and decides the examples
// of its own rules: every one must get its verdict, or Load fails.
func Load(name string, r io.Reader) (*policy.Policy, error) {
	p, err := policy.LoadUnchecked(name, r)
	if err != nil {
		return nil, err
	}
	for _, ex := range p.OwnExamples() {
		if err := checkExample(p, ex); err != nil {
			return nil, err
		}
	}
	return p, nil
}
