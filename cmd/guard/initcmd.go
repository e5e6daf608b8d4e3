// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"guard/internal/setup"
	"guard/policy"
)

// guard init registers guard as an agent's hook, so that a hook that
// fails blocks: the agent's fail-closed options, a timeout well above
// guard's own deadline, and guard's binary by its absolute path. It merges
// into the settings there are, keeping every other setting and hook, and
// running it again changes nothing.

// hookTimeout is the timeout init gives the hook, in seconds: well above
// guard's own deadline (defaultDeadline), so that guard, not the agent,
// ends a slow decision, in a deny.
const hookTimeout = 30

// fileChange is a file init writes: what is there (nil: nothing) and what
// it will hold.
type fileChange struct {
	path     string
	old, new []byte
}

// installer plans the files that register guard with one agent.
type installer func(scopeDir string, project bool, guard string) ([]fileChange, error)

var installers = map[string]installer{
	"claude":      installClaude,
	"gemini":      installGemini,
	"codex":       installCodex,
	"cursor":      installCursor,
	"copilot":     installCopilot,
	"antigravity": installAntigravity,
}

func runInit(_ context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("init", s)
	agentName := fs.String("agent", "claude", "the `agent` to install guard for")
	scope := fs.String("scope", "project", "project (the project's settings) or user (the user's)")
	dryRun := fs.Bool("dry-run", false, "print what would change, and change nothing")
	cwd := fs.String("cwd", "", "the project `directory` (default: $CLAUDE_PROJECT_DIR, else the current one)")
	binary := fs.String("binary", "", "the guard `binary` to register (default: this one)")
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil || fs.NArg() > 0 {
		return usageError(s, "init", "guard init [--agent NAME] [--scope project|user] [--dry-run] [--cwd DIR] [--binary PATH]")
	}
	inst := installers[*agentName]
	if inst == nil {
		return usageError(s, "init", "guard init: --agent %q: guard installs itself for %s", *agentName, strings.Join(sortedKeys(installers), ", "))
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
	changes, err := inst(dir, *scope == "project", guard)
	if err != nil {
		fmt.Fprintf(s.err, "guard init: %v; nothing was changed\n", err)
		return &exitError{code: 1}
	}
	changed := 0
	for _, c := range changes {
		if bytes.Equal(c.old, c.new) {
			fmt.Fprintf(s.out, "%s: already as guard needs it\n", c.path)
			continue
		}
		changed++
		if *dryRun {
			fmt.Fprint(s.out, unifiedDiff(c.path, c.old, c.new))
			continue
		}
		if err := writeInitFile(c.path, c.new); err != nil {
			fmt.Fprintf(s.err, "guard init: %v\n", err)
			return &exitError{code: 1}
		}
		fmt.Fprintf(s.out, "%s: written\n", c.path)
	}
	if changed > 0 && !*dryRun {
		if *agentName == "copilot" && *scope == "project" {
			fmt.Fprintln(s.out, "Copilot runs a project's hooks only in a folder its user trusts (trustedFolders in ~/.copilot/config.json): --scope user needs no trust")
		}
		fmt.Fprintf(s.out, "guard doctor --agent %s checks that the hook runs and blocks\n", *agentName)
	}
	return nil
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

// hookEvent is an event init registers guard for: the agent's name of it,
// the matcher of guard's group ("" for none), and whether a failing hook
// must block (where the agent has the option).
type hookEvent struct {
	name, matcher string
	block         bool
}

// hooksFile is the settings file of an agent whose hooks are JSON in the
// shape Claude Code set: hooks, then events, then matcher groups, then
// handlers.
type hooksFile struct {
	path    string
	events  []hookEvent
	handler func(command string, ev hookEvent) map[string]any
	// emptyMatcher writes a matcher of "" where an event's is "", for an
	// agent whose catch-all is the empty matcher.
	emptyMatcher bool
}

// installClaude registers guard in Claude Code's settings.json for
// PreToolUse (every tool, onFailure block), PermissionRequest (to refuse
// at a prompt what guard denies), PostToolUse and PostToolUseFailure (for
// the grants, and the log: a command that failed ran) and
// SessionEnd, and writes a starter policy where there is none.
func installClaude(dir string, project bool, guard string) ([]fileChange, error) {
	f := hooksFile{
		path:   filepath.Join(dir, ".claude", "settings.json"),
		events: []hookEvent{{"PreToolUse", "*", true}, {"PermissionRequest", "*", false}, {"PostToolUse", "*", false}, {"PostToolUseFailure", "*", false}, {"SessionEnd", "", false}},
		handler: func(command string, ev hookEvent) map[string]any {
			h := map[string]any{"type": "command", "command": command, "timeout": hookTimeout}
			if ev.block {
				h["onFailure"] = "block"
			}
			return h
		},
	}
	return installHooks(f, dir, project, guard, "claude")
}

// installGemini registers guard in Gemini CLI's settings.json for
// BeforeTool, AfterTool and SessionEnd. Gemini CLI has no option that
// makes a failing hook block: a guard that crashes or times out lets the
// call run there (a missing one blocks: sh's error text is a reason).
func installGemini(dir string, project bool, guard string) ([]fileChange, error) {
	f := hooksFile{
		path:   filepath.Join(dir, ".gemini", "settings.json"),
		events: []hookEvent{{"BeforeTool", ".*", true}, {"AfterTool", ".*", false}, {"SessionEnd", "", false}},
		handler: func(command string, _ hookEvent) map[string]any {
			return map[string]any{"name": "guard", "type": "command", "command": command, "timeout": hookTimeout * 1000} // ms
		},
	}
	return installHooks(f, dir, project, guard, "gemini")
}

// installHooks merges guard's handlers into an agent's hooks file, and
// writes a starter policy (the project's .guard/guard.toml, which guard
// reads whatever the agent; the user's policy file otherwise) where there
// is none.
func installHooks(f hooksFile, dir string, project bool, guard, agentName string) ([]fileChange, error) {
	old, root, err := readJSONObject(f.path)
	if err != nil {
		return nil, err
	}
	hooks, _ := root["hooks"].(map[string]any)
	if root["hooks"] != nil && hooks == nil {
		return nil, fmt.Errorf("%s: \"hooks\" is not an object", f.path)
	}
	if hooks == nil {
		hooks = map[string]any{}
	}
	command := shellQuote(guard) + " hook --agent " + agentName
	for _, ev := range f.events {
		groups, err := mergeHandler(hooks[ev.name], ev.matcher, f.emptyMatcher, f.handler(command, ev))
		if err != nil {
			return nil, fmt.Errorf("%s: hooks.%s: %v", f.path, ev.name, err)
		}
		hooks[ev.name] = groups
	}
	root["hooks"] = hooks
	data, err := encodeJSON(root)
	if err != nil {
		return nil, err
	}
	return withStarterPolicy([]fileChange{{path: f.path, old: old, new: data}}, dir, project)
}

// encodeJSON is a settings file's JSON: indented, && and <> as they are.
func encodeJSON(v any) ([]byte, error) {
	var data bytes.Buffer
	enc := json.NewEncoder(&data)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return data.Bytes(), nil
}

// mergeHandler puts guard's handler in an event's list of matcher groups:
// in place of the guard hook there is (one whose command runs guard hook),
// else in a group of its own. Other groups and handlers stay as they are.
// An empty matcher is written only where always says so.
func mergeHandler(v any, matcher string, always bool, handler map[string]any) ([]any, error) {
	var groups []any
	if v != nil {
		var ok bool
		if groups, ok = v.([]any); !ok {
			return nil, errors.New("not a list of matcher groups")
		}
	}
	for _, g := range groups {
		group, ok := g.(map[string]any)
		if !ok {
			continue
		}
		handlers, _ := group["hooks"].([]any)
		for i, h := range handlers {
			if hm, ok := h.(map[string]any); ok && isGuardHook(hm["command"]) {
				handlers[i] = handler
				if matcher != "" || always {
					group["matcher"] = matcher
				}
				return groups, nil
			}
		}
	}
	group := map[string]any{"hooks": []any{handler}}
	if matcher != "" || always {
		group["matcher"] = matcher
	}
	return append(groups, group), nil
}

// isGuardHook reports whether a hook command runs guard hook.
func isGuardHook(v any) bool {
	cmd, ok := v.(string)
	if !ok {
		return false
	}
	f := strings.Fields(cmd)
	return len(f) >= 2 && strings.HasSuffix(strings.Trim(f[0], `'"`), "guard") && f[1] == "hook"
}

// readJSONObject reads a settings file: its bytes (nil when it is not
// there) and its object. A file that is not a JSON object is an error, and
// init leaves it as it is.
func readJSONObject(name string) ([]byte, map[string]any, error) {
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, map[string]any{}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var root map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil || root == nil || dec.More() {
		return nil, nil, fmt.Errorf("%s is not a JSON object guard can read (%v); fix it, or move it aside", name, err)
	}
	return data, root, nil
}

// starterPolicy is the policy file init writes where there is none.
func starterPolicy(name string) (*fileChange, error) {
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
	return &fileChange{path: name, new: []byte(src)}, nil
}

// schemaFile is the JSON Schema of the policy format, beside a policy
// file, for the starter policy's #:schema line: written where it is
// missing or is another guard's.
func schemaFile(policyName string) (*fileChange, error) {
	name := filepath.Join(filepath.Dir(policyName), "guard.schema.json")
	old, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	schema := policy.Schema()
	if bytes.Equal(old, schema) {
		return nil, nil
	}
	return &fileChange{path: name, old: old, new: schema}, nil
}

// writeInitFile writes a file whole, through a new file renamed over it.
func writeInitFile(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
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
