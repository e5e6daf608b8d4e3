// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"guard/agent"
	"guard/internal/setup"
	"guard/policy"
)

// guard init registers guard as an agent's hook, so that a hook that
// fails blocks: the agent's fail-closed options, a timeout well above
// guard's own deadline, and guard's binary by its absolute path. It merges
// into the settings there are, keeping every other setting and hook, and
// running it again changes nothing.

func runInit(_ context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("init", s)
	agentName := fs.String("agent", "claude", "the `agent` to install guard for")
	scope := fs.String("scope", "", "project (the project's settings) or user (the user's); default: user for Codex and Copilot, which run a project's hooks only where their user trusts it, else project")
	dryRun := fs.Bool("dry-run", false, "print what would change, and change nothing")
	cwd := fs.String("cwd", "", "the project `directory` (default: $CLAUDE_PROJECT_DIR, else the current one)")
	binary := fs.String("binary", "", "the guard `binary` to register (default: this one)")
	readOnly := fs.Bool("read-only", false, "read-only mode: the hook as guard hook --read-only, and the agent's own tool settings to match (claude)")
	shell := fs.Bool("shell", false, "for an agent with no hook that runs commands as $SHELL -c COMMAND: write the guard-shell script that runs guard shell, and say how to start the agent with it")
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil || fs.NArg() > 0 {
		return argsError(s, "init", err, "want no arguments, got %q", fs.Arg(0))
	}
	agentSet := false
	fs.Visit(func(f *flag.Flag) { agentSet = agentSet || f.Name == "agent" })
	switch {
	case *shell && agentSet && *agentName != "aider":
		return usageError(s, "init", "--shell is for an agent with no hook (aider); guard installs itself as %s's hook: guard init --agent %s", *agentName, *agentName)
	case *shell || *agentName == "aider":
		if !agentSet {
			*agentName = ""
		}
		*shell = true
	}
	if *readOnly && *agentName != "claude" {
		return usageError(s, "init", "--read-only: guard writes the read-only recipe for claude only; for %s, add --read-only to guard hook's command in the hook guard init writes", cmp.Or(*agentName, "guard shell"))
	}
	ad := agent.Adapters()[*agentName]
	if ad == nil && !*shell {
		return usageError(s, "init", "--agent %q: guard installs itself for %s, and as aider's $SHELL", *agentName, strings.Join(sortedKeys(agent.Adapters()), ", "))
	}
	if *scope == "" {
		*scope = agent.DefaultScope(*agentName)
	}
	dir, err := initDir(env, *scope, *cwd)
	if err != nil {
		fmt.Fprintf(s.err, "guard init: %v\n", err)
		return &exitError{code: 1}
	}
	guard, err := guardPath(*binary)
	if err != nil {
		fmt.Fprintf(s.err, "guard init: %v\n", err)
		return &exitError{code: 1}
	}
	var changes []agent.FileChange
	var tools agent.ClaudeTools
	switch {
	case *shell:
		changes, err = shellWrapper(env, guard)
	case *readOnly:
		tools, err = readOnlyTools(env, dir, *scope == "project")
		if err == nil {
			changes, err = agent.Claude{}.InstallReadOnly(dir, *scope == "project", guard, tools)
		}
	default:
		changes, err = ad.Install(dir, *scope == "project", guard)
	}
	if err == nil {
		changes, err = withStarterPolicy(changes, dir, *scope == "project")
	}
	if err != nil {
		fmt.Fprintf(s.err, "guard init: %v; nothing was changed\n", err)
		return &exitError{code: 1}
	}
	changed := 0
	for _, c := range changes {
		if bytes.Equal(c.Old, c.New) && modeAsNeeded(c) {
			fmt.Fprintf(s.out, "%s: already as guard needs it\n", c.Path)
			continue
		}
		changed++
		if *dryRun {
			fmt.Fprint(s.out, unifiedDiff(c.Path, c.Old, c.New))
			continue
		}
		if err := writeInitFile(c.Path, c.New, c.Mode); err != nil {
			fmt.Fprintf(s.err, "guard init: %v\n", err)
			return &exitError{code: 1}
		}
		fmt.Fprintf(s.out, "%s: written\n", c.Path)
	}
	if *shell {
		shellRecipe(s, *agentName, changes[0].Path)
		return nil
	}
	if changed > 0 && !*dryRun {
		if *agentName == "copilot" && *scope == "project" {
			fmt.Fprintln(s.out, "Copilot runs a project's hooks only in a folder its user trusts (trustedFolders in ~/.copilot/config.json): --scope user needs no trust")
		}
		if *agentName == "kiro" {
			fmt.Fprintln(s.out, "Kiro CLI runs the hooks of the agent in use: start it with kiro-cli chat --agent guard, or make that agent the default: kiro-cli agent set-default guard")
		}
		if *readOnly {
			fmt.Fprintf(s.out, "read-only: %d tools removed from Claude Code (permissions.deny), nothing asked (dontAsk); guard allows reading, searching and listing%s\n", len(tools.Deny), readOnlyShellNote(tools))
		}
		fmt.Fprintf(s.out, "guard doctor --agent %s checks that the hook runs and blocks\n", *agentName)
	}
	return nil
}

// readOnlyTools are Claude Code's own permissions for guard hook
// --read-only, from the policies the hook will decide with: the user's,
// and for the project scope the project's.
func readOnlyTools(env getenv, dir string, project bool) (agent.ClaudeTools, error) {
	projectDir := ""
	if project {
		projectDir = dir
	}
	layers, err := setup.LoadLayers("", projectDir, setup.Getenv(env))
	if err != nil {
		return agent.ClaudeTools{}, err
	}
	return claudeTools(layers, true, readOnlyShell(layers, "")), nil
}

// readOnlyShellNote says whether the read-only recipe keeps the shell.
func readOnlyShellNote(t agent.ClaudeTools) string {
	if slices.Contains(t.Deny, "Bash") {
		return " (no shell: guard run's sandbox cannot run here, and the policy does not say read_only_shell)"
	}
	return ", and the read-only shell commands in guard run's read-only sandbox"
}

// initDir is where init writes: the project, or the home.
func initDir(env getenv, scope, cwd string) (string, error) {
	switch scope {
	case "project":
		dir := cwd
		if dir == "" {
			wd, err := os.Getwd()
			if err != nil {
				return "", err
			}
			dir = setup.ProjectDir(setup.Getenv(env), wd)
		}
		return filepath.Abs(dir)
	case "user":
		if h := env("HOME"); filepath.IsAbs(h) {
			return h, nil
		}
		return "", errors.New("--scope user needs $HOME")
	}
	return "", fmt.Errorf("--scope %q: want project or user", scope)
}

// guardPath is the absolute path of the guard to register, links
// resolved (the running one's unless binary names another): the agent then
// runs that guard whatever its PATH. It must be there and executable.
func guardPath(binary string) (string, error) {
	exe := binary
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return "", fmt.Errorf("guard's own binary: %v", err)
		}
	}
	exe, err := filepath.Abs(exe)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	if fi, err := os.Stat(exe); err != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("%s is not an executable file", exe)
	}
	if binary != "" {
		return exe, nil
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "", fmt.Errorf("guard runs from a temporary build (%s): install it first (go install ./cmd/guard) and run that guard's init", exe)
	}
	return exe, nil
}

// starterPolicy is the policy file init writes where there is none.
func starterPolicy(name string) (*agent.FileChange, error) {
	if _, err := os.Lstat(name); err == nil {
		return nil, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	src := `#:schema ./guard.schema.json
# guard's policy: the embedded default, and what this file adds or restricts.
# guard check --show-policy shows it; guard test checks its examples; the
# schema beside it (guard schema writes it again) lets an editor check it.
version = 1
extends = "default"
`
	return &agent.FileChange{Path: name, New: []byte(src)}, nil
}

// schemaFile is the JSON Schema of the policy format, beside a policy
// file, for the starter policy's #:schema line: written where it is
// missing or is another guard's.
func schemaFile(policyName string) (*agent.FileChange, error) {
	name := filepath.Join(filepath.Dir(policyName), "guard.schema.json")
	old, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	schema := policy.Schema()
	if bytes.Equal(old, schema) {
		return nil, nil
	}
	return &agent.FileChange{Path: name, Old: old, New: schema}, nil
}

// modeAsNeeded reports whether a file guard init changes has the
// permissions the change asks for, if any.
func modeAsNeeded(c agent.FileChange) bool {
	if c.Mode == 0 {
		return true
	}
	fi, err := os.Stat(c.Path)
	return err == nil && fi.Mode().Perm() == c.Mode
}

// writeInitFile writes a file whole, through a new file renamed over it,
// with the permissions mode, or where mode is 0 the file's own (0644 for
// a new file).
func writeInitFile(name string, data []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	if fi, err := os.Stat(name); err == nil && mode == 0 {
		mode = fi.Mode().Perm()
	}
	if mode == 0 {
		mode = 0o644
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// sortedKeys returns a map's keys, sorted.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// unifiedDiff shows the change from old to new of a file, line by line:
// the lines of the longest common run kept, the others - and +.
func unifiedDiff(name string, old, new []byte) string {
	a, b := splitLines(old), splitLines(new)
	// lcs[i][j]: the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	from := name
	if old == nil {
		from = "/dev/null"
	}
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, name)
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out.WriteString(" " + a[i] + "\n")
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			out.WriteString("+" + b[j] + "\n")
			j++
		default:
			out.WriteString("-" + a[i] + "\n")
			i++
		}
	}
	return out.String()
}

func splitLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}
