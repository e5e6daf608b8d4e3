// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import "path/filepath"

// Install registers guard in Claude Code's settings.json for
// PreToolUse (every tool, onFailure block), PermissionRequest (to refuse
// at a prompt what guard denies), PostToolUse and PostToolUseFailure (for
// the grants, and the log: a command that failed ran) and
// SessionEnd.
func (Claude) Install(dir string, project bool, guard string) ([]FileChange, error) {
	f := hooksFile{
		path:   filepath.Join(dir, ".claude", "settings.json"),
		events: []hookEvent{{"PreToolUse", "*", true}, {"PermissionRequest", "*", false}, {"PostToolUse", "*", false}, {"PostToolUseFailure", "*", false}, {"SessionEnd", "", false}},
		handler: func(command string, ev hookEvent) map[string]any {
			h := map[string]any{"type": "command", "command": command, "timeout": HookTimeout}
			if ev.block {
				h["onFailure"] = "block"
			}
			return h
		},
	}
	return installHooks(f, guard, "claude")
}
