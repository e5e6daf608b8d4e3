package rules

import (
	"errors"
	"fmt"
	"io"
)

// CheckExamples compiles every rule of the policy, decides every example,
// and returns an error for each rule that does not compile and each
// example that does not get its verdict.
func (p *Policy) CheckExamples() []error {
	if !p.Loaded() {
		return []error{errors.New("no policy")}
	}
	errs := p.CompileAll()
	for _, ex := range p.Examples() {
		if err := p.checkExample(ex); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

func (p *Policy) checkExample(ex Example) error {
	d := p.Decide(exampleCall(ex.Command))
	if d.Verdict != ex.Want {
		return fmt.Errorf("%s:%d: rule %q: example %q: want %s, got %s: %s", p.Name(), ex.Line, ex.Rule, ex.Command, ex.Want, d.Verdict, d.Reason())
	}
	return nil
}

// exampleCall is the call used to decide examples and test cases: a Bash
// command run at the root of a project in /project, by a user whose home
// is /home/user, with guard in /usr/local/bin.
func exampleCall(command string) Call {
	return Call{
		Tool:    "Bash",
		Input:   map[string]any{"command": command},
		Cwd:     "/project",
		Project: "/project",
		Home:    "/home/user",
		Temp:    "/tmp",
		Guard:   "/usr/local/bin/guard",
	}
}

// Load reads, checks and compiles a TOML policy, and decides the examples
// of its own rules: every one must get its verdict, or Load fails.
func Load(name string, r io.Reader) (*Policy, error) {
	p, err := LoadUnchecked(name, r)
	if err != nil {
		return nil, err
	}
	for _, ex := range p.OwnExamples() {
		if err := p.checkExample(ex); err != nil {
			return nil, err
		}
	}
	return p, nil
}
