// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package corpus reads guard's behaviour corpus: files of tool calls, in
// Claude Code's terms, with the verdict and the rule a policy must give
// each. guard test runs them against a policy; TestCorpus runs testcases/
// against the embedded default.
//
// This package has no API stability promise outside this module: the
// API is package guard.
package corpus

import (
	"bytes"
	"fmt"
	"guard/agent"
	"guard/engine"
	"guard/policy"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// Case is one entry of a behaviour corpus: a tool call and the verdict a
// policy must give it. Case files hold [[case]] tables:
//
//	[[case]]
//	command = "git push --force"
//	want = "deny"
//	rule = "git push"          # the rule that must decide; "default" for the policy default
//	why = "rewrites history"   # optional: for the reader
//
// A case names a Bash command, or a tool and its input:
//
//	[[case]]
//	tool = "Write"
//	input = { file_path = "/project/x.go", content = "" }
//	want = "ask"
//
// A case can name a built-in policy to decide it instead of the one under
// test (profile = "review"), packs that policy includes (packs = ["go"],
// over the default when no profile is named), read-only mode (read_only = true), the shell
// that runs the command (shell = "bash" or "zsh"; without it the shell is
// unknown and the command must be safe in both), and the agent's locale
// (locale = "zh_CN.GBK").
//
// A case is decided where guard run's sandbox can run, unless it says
// no_sandbox = true. An allowed Bash case can say which sandbox the
// command is rewritten to run in (sandbox = "read-only", "write",
// "build", "test", the policy's own profile, as [engine.RunProfile] names
// them, or "none" for a command that runs as it is).
type Case struct {
	File     string
	Line     int
	Command  string
	Tool     string
	Input    map[string]any
	Cwd      string
	Want     policy.Verdict
	Rule     string
	Why      string
	Profile  string
	Packs    []string
	ReadOnly bool
	Shell    string
	Locale   string
	// NoSandbox decides the case where guard run cannot run; Sandbox is
	// the profile its rewrite must run in ("" for any, "none" for none).
	NoSandbox bool
	Sandbox   string
}

type caseFile struct {
	Case []struct {
		Command   string         `toml:"command"`
		Tool      string         `toml:"tool"`
		Input     map[string]any `toml:"input"`
		Cwd       string         `toml:"cwd"`
		Want      string         `toml:"want"`
		Rule      string         `toml:"rule"`
		Why       string         `toml:"why"`
		Profile   string         `toml:"profile"`
		Packs     []string       `toml:"packs"`
		ReadOnly  bool           `toml:"read_only"`
		Shell     string         `toml:"shell"`
		Locale    string         `toml:"locale"`
		NoSandbox bool           `toml:"no_sandbox"`
		Sandbox   string         `toml:"sandbox"`
	} `toml:"case"`
}

// LoadCases reads a case file. Name is used in error messages.
func LoadCases(name string, src []byte) ([]Case, error) {
	var cf caseFile
	md, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&cf)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if un := md.Undecoded(); len(un) > 0 {
		// Keys inside input tables are the tool's own and not decoded.
		for _, k := range un {
			if len(k) < 2 || k[1] != "input" {
				return nil, fmt.Errorf("%s: unknown key %q", name, k.String())
			}
		}
	}
	lines := caseLines(src)
	out := make([]Case, 0, len(cf.Case))
	for i, c := range cf.Case {
		line := 0
		if i < len(lines) {
			line = lines[i]
		}
		where := fmt.Sprintf("%s:%d", name, line)
		want, err := policy.ParseVerdict(c.Want)
		if err != nil {
			return nil, fmt.Errorf("%s: want: %v", where, err)
		}
		switch {
		case c.Command != "" && c.Tool != "" && c.Tool != "Bash":
			return nil, fmt.Errorf("%s: a case has a command or a tool other than Bash, not both", where)
		case c.Command == "" && c.Tool == "":
			return nil, fmt.Errorf("%s: a case needs a command or a tool", where)
		case c.Cwd != "" && !path.IsAbs(c.Cwd):
			return nil, fmt.Errorf("%s: cwd %q is not absolute", where, c.Cwd)
		case c.Profile != "" && !slices.Contains(policy.Profiles(), c.Profile):
			return nil, fmt.Errorf("%s: profile %q: want one of %s", where, c.Profile, strings.Join(policy.Profiles(), ", "))
		case c.Shell != "" && c.Shell != "bash" && c.Shell != "zsh":
			return nil, fmt.Errorf("%s: shell %q: want bash or zsh, or no shell for one that is unknown", where, c.Shell)
		case c.Sandbox != "" && (want != policy.Allow || c.Command == ""):
			return nil, fmt.Errorf("%s: sandbox %q: only an allowed Bash command runs in the sandbox", where, c.Sandbox)
		}
		for _, pk := range c.Packs {
			if !slices.Contains(policy.Packs(), pk) {
				return nil, fmt.Errorf("%s: pack %q: want one of %s", where, pk, strings.Join(policy.Packs(), ", "))
			}
		}
		out = append(out, Case{File: name, Line: line, Command: c.Command, Tool: c.Tool, Input: c.Input,
			Cwd: c.Cwd, Want: want, Rule: c.Rule, Why: c.Why, Profile: c.Profile, Packs: c.Packs, ReadOnly: c.ReadOnly,
			Shell: c.Shell, Locale: c.Locale, NoSandbox: c.NoSandbox, Sandbox: c.Sandbox})
	}
	return out, nil
}

// caseLines returns the line of each [[case]] header.
func caseLines(src []byte) []int {
	var out []int
	for i, l := range strings.Split(string(src), "\n") {
		if strings.TrimSpace(l) == "[[case]]" {
			out = append(out, i+1)
		}
	}
	return out
}

// Call returns the call the case describes, as Claude Code's hook would
// send it: its tool names and input fields. A case without a cwd runs at
// the root of a project in /project, as examples do. An input guard hook
// would refuse to read is an error.
func (c *Case) Call() (engine.Call, error) {
	call := engine.ExampleCall(c.Command)
	call.Kind, call.Tool = "", "Bash" // the policy's [tools] table gives the kind, as in guard hook
	if c.Tool != "" && (c.Tool != "Bash" || c.Command == "") {
		call.Tool = c.Tool
		in, err := agent.ClaudeInput(c.Tool, c.Input)
		if err != nil {
			return engine.Call{}, err
		}
		call.Input = in
	}
	call.AgentPaths = agent.ConfigPaths()
	if c.Cwd != "" {
		call.Cwd = c.Cwd
	}
	call.ReadOnly = c.ReadOnly
	call.Shell = c.Shell
	call.Locale = c.Locale
	if c.NoSandbox {
		call.Run, call.NoRun = nil, "the kernel has no Landlock (a case that says no_sandbox)"
	}
	return call, nil
}

// Check decides the case with the layers, as guard hook would, and
// returns an error if the verdict, or the rule that decided, is not the one
// the case wants. A case that names a profile or packs is decided by that
// built-in policy instead.
func Check(l *policy.Layers, c Case) (engine.Decision, error) {
	if c.Profile != "" || len(c.Packs) > 0 {
		bp, err := Policy(c.Profile, c.Packs)
		if err != nil {
			return engine.Decision{}, fmt.Errorf("%s:%d: %v", c.File, c.Line, err)
		}
		l = &policy.Layers{User: bp}
	}
	call, err := c.Call()
	var d engine.Decision
	if err != nil {
		// guard hook denies an input it cannot read, before any policy.
		d = engine.Decision{Verdict: engine.Deny, Leaves: []engine.Leaf{{Verdict: engine.Deny, Kind: "input", Why: err.Error()}}}
	} else {
		d = engine.DecideLayers(l, call)
	}
	what := c.Command
	if what == "" {
		what = c.Tool
	}
	if d.Verdict != c.Want {
		return d, fmt.Errorf("%s:%d: %q: want %s, got %s: %s", c.File, c.Line, what, c.Want, d.Verdict, d.Reason())
	}
	if c.Sandbox != "" {
		got := "none"
		if d.Rewrite != nil {
			got = engine.RunProfile(call.Run, d.Rewrite.Command)
		}
		if got != c.Sandbox {
			return d, fmt.Errorf("%s:%d: %q: want it to run in sandbox %s, got %s", c.File, c.Line, what, c.Sandbox, got)
		}
	}
	if c.Rule == "default" {
		// Decided by the policy's default: no rule matched the deciding part.
		if l := d.Deciding(); l.Rule != "" {
			return d, fmt.Errorf("%s:%d: %q: want the policy default to decide, but rule %q did: %s", c.File, c.Line, what, l.Rule, d.Reason())
		}
		return d, nil
	}
	if c.Rule != "" {
		for _, l := range d.Leaves {
			if l.Verdict == d.Verdict && (l.Rule == c.Rule || strings.HasPrefix(l.Rule, c.Rule+" ") || strings.HasPrefix(l.Rule, c.Rule+":")) {
				return d, nil
			}
		}
		return d, fmt.Errorf("%s:%d: %q: want rule %q to decide, but %q did: %s", c.File, c.Line, what, c.Rule, d.Deciding().Rule, d.Reason())
	}
	return d, nil
}

// packPolicies holds the policies Policy made, by profile and packs.
var packPolicies sync.Map

// Policy returns the built-in policy profile ("" for the default) with the
// packs included in order, as a policy file that extends the profile and
// includes them would have it.
func Policy(profile string, packs []string) (*policy.Policy, error) {
	if len(packs) == 0 {
		if profile == "" {
			return policy.Default()
		}
		return policy.Builtin(profile)
	}
	if profile == "" {
		profile = "default"
	}
	key := profile + " with " + strings.Join(packs, ", ")
	if p, ok := packPolicies.Load(key); ok {
		return p.(*policy.Policy), nil
	}
	quoted := make([]string, len(packs))
	for i, pk := range packs {
		quoted[i] = strconv.Quote(pk)
	}
	src := fmt.Sprintf("version = 1\nextends = %q\ninclude = [%s]\n", profile, strings.Join(quoted, ", "))
	p, err := policy.LoadUnchecked(key, strings.NewReader(src))
	if err != nil {
		return nil, err
	}
	packPolicies.Store(key, p)
	return p, nil
}
