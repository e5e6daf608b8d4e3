// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"maps"
	"path/filepath"
	"slices"
)

// Install registers guard in Cursor's hooks.json (the project's
// .cursor/, or ~/.cursor/), failClosed on every event: without it a hook
// that fails lets the action run.
func (Cursor) Install(dir string, project bool, guard string) ([]FileChange, error) {
	handler := map[string]any{"command": quote(guard) + " hook --agent cursor", "timeout": HookTimeout, "failClosed": true}
	return installFlat(filepath.Join(dir, ".cursor", "hooks.json"), slices.Sorted(maps.Keys(cursorEvents)), handler, func(root map[string]any) {
		if _, ok := root["version"]; !ok {
			root["version"] = 1
		}
	})
}

// Install writes guard's own hooks file for GitHub Copilot CLI
// (.github/hooks/guard.json, or ~/.copilot/hooks/guard.json): Copilot runs
// every hooks file there, so guard's is a file of its own, and a crash or
// a non-zero exit denies (a timeout lets the call run).
func (Copilot) Install(dir string, project bool, guard string) ([]FileChange, error) {
	name := filepath.Join(dir, ".github", "hooks", "guard.json")
	if !project {
		name = filepath.Join(dir, ".copilot", "hooks", "guard.json")
	}
	old, _, err := ReadJSONObject(name)
	if err != nil {
		return nil, err
	}
	command := quote(guard) + " hook --agent copilot"
	data, err := EncodeJSON(map[string]any{"version": 1, "hooks": map[string]any{
		"preToolUse": []any{map[string]any{"type": "command", "bash": command, "timeoutSec": HookTimeout}},
	}})
	if err != nil {
		return nil, err
	}
	return []FileChange{{Path: name, Old: old, New: data}}, nil
}

// Install registers guard in Antigravity's hooks.json (the
// project's .agents/, or ~/.gemini/config/) for PreToolUse, every tool
// (agy's catch-all matcher is the empty one), under the hook name "hooks".
// agy has no option that makes a failing hook block; it blocks on an
// answer it cannot read. It names no event in its input, so guard is not
// registered for PostToolUse: the session tier asks every time there.
func (Antigravity) Install(dir string, project bool, guard string) ([]FileChange, error) {
	name := filepath.Join(dir, ".agents", "hooks.json")
	if !project {
		name = filepath.Join(dir, ".gemini", "config", "hooks.json")
	}
	f := hooksFile{
		path:         name,
		events:       []hookEvent{{"PreToolUse", "", true}},
		emptyMatcher: true,
		handler: func(command string, _ hookEvent) map[string]any {
			return map[string]any{"type": "command", "command": command, "timeout": HookTimeout}
		},
	}
	return installHooks(f, guard, "antigravity")
}

// Install registers guard in Qwen Code's settings.json (the project's
// .qwen/, or ~/.qwen/) for PreToolUse, PostToolUse and SessionEnd, with
// Qwen Code's timeout in seconds. Qwen Code has no option that makes a
// failing hook block: a guard that crashes, times out or is missing lets
// the call run there.
func (Qwen) Install(dir string, project bool, guard string) ([]FileChange, error) {
	f := hooksFile{
		path:   filepath.Join(dir, ".qwen", "settings.json"),
		events: []hookEvent{{"PreToolUse", "*", true}, {"PostToolUse", "*", false}, {"SessionEnd", "", false}},
		handler: func(command string, _ hookEvent) map[string]any {
			return map[string]any{"type": "command", "command": command, "timeout": HookTimeout}
		},
	}
	return installHooks(f, guard, "qwen")
}
