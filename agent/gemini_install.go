// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import "path/filepath"

// Install registers guard in Gemini CLI's settings.json for
// BeforeTool, AfterTool and SessionEnd. Gemini CLI has no option that
// makes a failing hook block: a guard that crashes or times out lets the
// call run there (a missing one blocks: sh's error text is a reason).
func (Gemini) Install(dir string, project bool, guard string) ([]FileChange, error) {
	f := hooksFile{
		path:   filepath.Join(dir, ".gemini", "settings.json"),
		events: []hookEvent{{"BeforeTool", ".*", true}, {"AfterTool", ".*", false}, {"SessionEnd", "", false}},
		handler: func(command string, _ hookEvent) map[string]any {
			return map[string]any{"name": "guard", "type": "command", "command": command, "timeout": HookTimeout * 1000} // ms
		},
	}
	return installHooks(f, guard, "gemini")
}
