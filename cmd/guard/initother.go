// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"path/filepath"

	"guard/internal/setup"
)

// cursorEvents are the Cursor hook events guard registers for: every tool
// (preToolUse), and the shell, MCP and file reads on their own events,
// whose failClosed Cursor documents.
var cursorEvents = []string{"preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile"}

// installCursor registers guard in Cursor's hooks.json (the project's
// .cursor/, or ~/.cursor/), failClosed on every event: without it a hook
// that fails lets the action run.
func installCursor(dir string, project bool, guard string) ([]fileChange, error) {
	name := filepath.Join(dir, ".cursor", "hooks.json")
	old, root, err := readJSONObject(name)
	if err != nil {
		return nil, err
	}
	if _, ok := root["version"]; !ok {
		root["version"] = 1
	}
	hooks, _ := root["hooks"].(map[string]any)
	if root["hooks"] != nil && hooks == nil {
		return nil, fmt.Errorf("%s: \"hooks\" is not an object", name)
	}
	if hooks == nil {
		hooks = map[string]any{}
	}
	command := shellQuote(guard) + " hook --agent cursor"
	for _, ev := range cursorEvents {
		handler := map[string]any{"command": command, "timeout": hookTimeout, "failClosed": true}
		list, _ := hooks[ev].([]any)
		if hooks[ev] != nil && list == nil {
			return nil, fmt.Errorf("%s: hooks.%s is not a list", name, ev)
		}
		replaced := false
		for i, h := range list {
			if hm, ok := h.(map[string]any); ok && isGuardHook(hm["command"]) {
				list[i], replaced = handler, true
			}
		}
		if !replaced {
			list = append(list, handler)
		}
		hooks[ev] = list
	}
	root["hooks"] = hooks
	data, err := encodeJSON(root)
	if err != nil {
		return nil, err
	}
	changes := []fileChange{{path: name, old: old, new: data}}
	return withStarterPolicy(changes, dir, project)
}

// installCopilot writes guard's own hooks file for GitHub Copilot CLI
// (.github/hooks/guard.json, or ~/.copilot/hooks/guard.json): Copilot runs
// every hooks file there, so guard's is a file of its own, and a crash or
// a non-zero exit denies (a timeout lets the call run).
func installCopilot(dir string, project bool, guard string) ([]fileChange, error) {
	name := filepath.Join(dir, ".github", "hooks", "guard.json")
	if !project {
		name = filepath.Join(dir, ".copilot", "hooks", "guard.json")
	}
	old, _, err := readJSONObject(name)
	if err != nil {
		return nil, err
	}
	command := shellQuote(guard) + " hook --agent copilot"
	data, err := encodeJSON(map[string]any{"version": 1, "hooks": map[string]any{
		"preToolUse": []any{map[string]any{"type": "command", "bash": command, "timeoutSec": hookTimeout}},
	}})
	if err != nil {
		return nil, err
	}
	return withStarterPolicy([]fileChange{{path: name, old: old, new: data}}, dir, project)
}

// installAntigravity registers guard in Antigravity's hooks.json (the
// project's .agents/, or ~/.gemini/config/) for PreToolUse, every tool
// (agy's catch-all matcher is the empty one), under the hook name "hooks".
// agy has no option that makes a failing hook block; it blocks on an
// answer it cannot read. It names no event in its input, so guard is not
// registered for PostToolUse: the session tier asks every time there.
func installAntigravity(dir string, project bool, guard string) ([]fileChange, error) {
	name := filepath.Join(dir, ".agents", "hooks.json")
	if !project {
		name = filepath.Join(dir, ".gemini", "config", "hooks.json")
	}
	f := hooksFile{
		path:         name,
		events:       []hookEvent{{"PreToolUse", "", true}},
		emptyMatcher: true,
		handler: func(command string, _ hookEvent) map[string]any {
			return map[string]any{"type": "command", "command": command, "timeout": hookTimeout}
		},
	}
	return installHooks(f, dir, project, guard, "antigravity")
}

// withStarterPolicy adds the starter policy to changes where there is
// none: the project's .guard.toml, or the user's policy file. A project
// that keeps its policy in .claude/guard.toml gets no second one.
func withStarterPolicy(changes []fileChange, dir string, project bool) ([]fileChange, error) {
	policy := filepath.Join(dir, ".config", "guard", "guard.toml")
	if project {
		switch existing, err := setup.ProjectPolicyFile(dir); {
		case err != nil:
			return changes, err
		case existing != "":
			return changes, nil
		}
		policy = filepath.Join(dir, filepath.FromSlash(setup.PolicyFile))
	}
	c, err := starterPolicy(policy)
	if err != nil {
		return changes, err
	}
	if c != nil {
		changes = append(changes, *c)
	}
	sc, err := schemaFile(policy)
	if err != nil || sc == nil {
		return changes, err
	}
	return append(changes, *sc), nil
}
