// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"

	"guard/agent"
	"guard/engine"
	"guard/internal/setup"
	"guard/policy"
)

// callFlags are the flags check and explain take to name a call.
type callFlags struct {
	config, cwd, tool, input, shell *string
	readOnly                        *bool
}

func newCallFlags(fs *flag.FlagSet) callFlags {
	return callFlags{
		config:   fs.String("config", "", "policy `file` (default: the user's policy and the project's .guard/guard.toml)"),
		cwd:      fs.String("cwd", "", "the call's working `directory` (default: the current directory)"),
		tool:     fs.String("tool", "Bash", "the tool `name`"),
		input:    fs.String("input", "", "the tool's input as a JSON `object` (for tools other than Bash)"),
		readOnly: fs.Bool("read-only", false, "decide in read-only mode, as guard hook --read-only does"),
		shell:    fs.String("shell", "auto", "the `shell` the agent runs commands in: bash, zsh, or auto ($CLAUDE_CODE_SHELL, else $SHELL)"),
	}
}

// call builds the call the flags and arguments name, and loads the
// policies that decide it. A usage error has been reported when err is
// an *exitError.
func (f callFlags) call(s stdio, env getenv, verb string, args []string) (engine.Call, *policy.Layers, error) {
	var call engine.Call
	shell, err := callShell(*f.shell, "claude", env)
	if err != nil {
		return call, nil, usageError(s, verb, "%v", err)
	}
	var in map[string]any
	switch {
	case *f.tool == "Bash" && *f.input == "":
		if len(args) != 1 {
			return call, nil, usageError(s, verb, "want one command, quoted as one argument, got %d arguments", len(args))
		}
		in = map[string]any{"command": args[0]}
	default:
		if len(args) != 0 {
			return call, nil, usageError(s, verb, "a tool call takes its input from --input, not arguments")
		}
		if err := json.Unmarshal([]byte(*f.input), &in); err != nil || in == nil {
			return call, nil, usageError(s, verb, "--input must be a JSON object")
		}
	}
	dir := *f.cwd
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return call, nil, usageError(s, verb, "finding the working directory: %v", err)
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return call, nil, usageError(s, verb, "--cwd: %v", err)
	}
	call = setup.Context(setup.Getenv(env), abs, shell, *f.readOnly)
	call.Run, call.NoRun = runCommand(call.Guard, *f.config, *f.readOnly) // as guard hook would
	call.Tool = *f.tool
	if call.Input, err = agent.ClaudeInput(*f.tool, in); err != nil {
		return call, nil, usageError(s, verb, "--input: %v", err)
	}
	layers, err := setup.LoadLayers(*f.config, call.Project, setup.Getenv(env))
	if err != nil {
		fmt.Fprintf(s.err, "guard %s: %v\n", verb, err)
		return call, nil, &exitError{code: 2}
	}
	return call, layers, nil
}

func runCheck(_ context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("check", s)
	asJSON := fs.Bool("json", false, "print the decision as JSON")
	cf := newCallFlags(fs)
	showPolicy := fs.Bool("show-policy", false, "print the policies in effect and what each decides, then the decision")
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil {
		return &exitError{code: 2}
	}
	if *showPolicy && fs.NArg() == 0 && *cf.input == "" {
		if _, err := callShell(*cf.shell, "claude", env); err != nil {
			return usageError(s, "check", "%v", err)
		}
		return showLayers(s, env, *cf.config, *cf.cwd)
	}
	call, layers, err := cf.call(s, env, "check", fs.Args())
	if err != nil {
		return err
	}
	if *showPolicy {
		describeLayers(s, layers)
	}
	e := engine.Engine{Layers: layers}
	d := e.Decide(call)
	if *asJSON {
		err = printJSON(s, layers, &d, "")
	} else {
		err = printDecision(s, layers, &d)
		if err == nil && d.Rewrite != nil {
			fmt.Fprintf(s.out, "runs as: %s\n", d.Rewrite.Command)
		}
		if err == nil && call.NoRun != "" && d.Kind == engine.KindShell {
			fmt.Fprintf(s.out, "sandbox: not here (%s): allowed shell commands run as judged, and those allowed only in the sandbox ask\n", call.NoRun)
		}
	}
	if err != nil {
		return err
	}
	return verdictExit(d.Verdict)
}

// verdictExit is check's and explain's exit: 0 for allow, 1 for ask, 2
// for deny.
func verdictExit(v engine.Verdict) error {
	switch v {
	case engine.Allow:
		return nil
	case engine.Ask:
		return &exitError{code: 1}
	}
	return &exitError{code: 2}
}

func printDecision(s stdio, layers *policy.Layers, d *engine.Decision) error {
	mode := ""
	if d.ReadOnly {
		mode = " (read-only mode)"
	}
	fmt.Fprintf(s.out, "policy: %s%s\n", layers.Name(), mode)
	fmt.Fprintf(s.out, "%s: %s\n", d.Verdict, oneLine(d.Reason()))
	if h := d.Hint(); h != "" {
		fmt.Fprintf(s.out, "hint: %s\n", oneLine(h))
	}
	tw := tabwriter.NewWriter(s.out, 2, 8, 2, ' ', 0)
	for _, l := range d.Leaves {
		rule := l.Rule
		if rule == "" {
			rule = "(default)"
		}
		pos := ""
		if l.Pos.Line > 0 {
			pos = l.Pos.String()
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", l.Verdict, l.Kind, pos, agent.Clip(oneLine(l.Text), 60), rule, oneLine(l.Why))
	}
	return tw.Flush()
}

type jsonLeaf struct {
	Verdict string `json:"verdict"`
	Kind    string `json:"kind"`
	Text    string `json:"text"`
	Pos     string `json:"pos,omitempty"`
	Rule    string `json:"rule,omitempty"`
	Why     string `json:"why"`
	Hint    string `json:"hint,omitempty"`

	Programs []string `json:"programs,omitempty"`
	Children []string `json:"children,omitempty"`
	Sandbox  []string `json:"sandbox,omitempty"`
	// Scope is what approving the part grants for the session, or what
	// the grant that allowed it covers; Grant is that grant.
	Scope  string `json:"scope,omitempty"`
	Grant  string `json:"grant,omitempty"`
	Review bool   `json:"review,omitempty"`
	// Explained is how guard read a command, in guard explain --json.
	Explained *explainJSON `json:"explained,omitempty"`
}

type jsonDecision struct {
	Verdict  string     `json:"verdict"`
	Reason   string     `json:"reason"`
	Hint     string     `json:"hint,omitempty"`
	Policy   string     `json:"policy"`
	ReadOnly bool       `json:"read_only,omitempty"`
	Leaves   []jsonLeaf `json:"leaves"`
	// Shell is the shell guard judged a command for, in guard explain.
	Shell string `json:"shell,omitempty"`
	// RunsAs is the command the hook answers with instead, to run in the
	// sandbox.
	RunsAs string `json:"runs_as,omitempty"`
}

func printJSON(s stdio, layers *policy.Layers, d *engine.Decision, shell string) error {
	out := jsonDecision{Verdict: d.Verdict.String(), Reason: d.Reason(), Hint: d.Hint(), Policy: layers.Name(), ReadOnly: d.ReadOnly, Shell: shell}
	if d.Rewrite != nil {
		out.RunsAs = d.Rewrite.Command
	}
	for _, l := range d.Leaves {
		jl := jsonLeaf{Verdict: l.Verdict.String(), Kind: l.Kind, Text: l.Text, Rule: l.Rule, Why: l.Why, Hint: l.Hint,
			Programs: l.Programs, Children: l.Children, Sandbox: l.Sandbox, Grant: l.Grant, Review: l.Review}
		if l.Scope != nil {
			jl.Scope = l.Scope.String()
		}
		if l.Explained != nil {
			jl.Explained = explainedJSON(l.Explained)
		}
		if l.Pos.Line > 0 {
			jl.Pos = l.Pos.String()
		}
		out.Leaves = append(out.Leaves, jl)
	}
	enc := json.NewEncoder(s.out)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// showLayers prints the policies in effect for the current directory.
func showLayers(s stdio, env getenv, config, cwd string) error {
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return usageError(s, "check", "finding the working directory: %v", err)
		}
		cwd = wd
	}
	layers, err := setup.LoadLayers(config, setup.ProjectDir(setup.Getenv(env), cwd), setup.Getenv(env))
	if err != nil {
		fmt.Fprintf(s.err, "guard check: %v\n", err)
		return &exitError{code: 2}
	}
	describeLayers(s, layers)
	return nil
}

// describeLayers prints each policy in effect and how they combine.
func describeLayers(s stdio, l *policy.Layers) {
	user := l.User
	if user == nil {
		user, _ = policy.Default()
	}
	switch {
	case l.Project == nil:
		fmt.Fprintf(s.out, "policy in effect: %s\n", user.Name())
	case l.Trusted():
		fmt.Fprintf(s.out, "policy in effect: %s, which %s trusts by its sha256: it decides alone\n", l.Project.Name(), user.Name())
	default:
		fmt.Fprintf(s.out, "policies in effect: %s (user) and %s (project, sha256 %s): every call gets the stricter decision of the two\n",
			user.Name(), l.Project.Name(), l.ProjectSum)
	}
	fmt.Fprintf(s.out, "from %s:\n", user.Name())
	user.Describe(s.out)
	if l.Project != nil {
		fmt.Fprintf(s.out, "from %s:\n", l.Project.Name())
		l.Project.Describe(s.out)
	}
}
