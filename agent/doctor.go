// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// What guard doctor checks of each agent's installation: the settings
// files that may register guard, the events, how a handler fails closed
// and times out, and the canary calls in the agent's own shape.

// FoundHook is a guard hook found in an agent's settings.
type FoundHook struct {
	File           string
	Group, Handler int
	Matcher        string
	H              map[string]any
}

// DoctorSpec is what guard doctor checks of one agent's installation.
type DoctorSpec struct {
	Agent    string
	Files    []string // the settings files that may register guard
	Pre      string   // the agent's event before a tool runs
	AllTools []string // matchers that match every tool
	Flat     bool     // hooks.EVENT lists handlers, not matcher groups (Cursor, Copilot)
	// CommandKey and TimeoutKey name the handler's command and timeout
	// ("command" and "timeout" where they are "").
	CommandKey, TimeoutKey string
	TimeoutMs              bool // the agent's timeout is in milliseconds
	// Blocks reports whether a handler fails closed, where the agent has
	// an option for it (nil where it has none); BlockFix says how.
	Blocks   func(h map[string]any) bool
	BlockFix string
	After    []string // the events for the grants
	Approval string   // the agent's event before it prompts ("" where it has none)
	Input    func(command, dir string) []byte
	Allowed  func(code int, stdout string) bool
	// Input is the agent's hook input for a shell command in dir, for the
	// canaries; Allowed reads the allow of one. Denied reports whether the
	// canary's answer is a deny (nil: exit 2 with guard's reason on
	// stderr). Extra checks what only this agent needs, of the hooks
	// found, by event.
	Denied func(code int, stdout, stderr string) bool
	Extra  func(found map[string][]FoundHook) []Check
	// Find finds guard's hooks, by event, where they are not handlers of
	// JSON settings in Files (OpenCode's plugin), with what is wrong.
	Find func() (map[string][]FoundHook, []Check)
	// FindIn, where it is set, finds guard's hooks in a settings file of
	// Files, by event, in place of the hooks object of Claude Code's shape
	// (Amp's amp.permissions). Env is more of the canaries' environment.
	FindIn func(file string, root map[string]any) map[string][]FoundHook
	Env    []string
	// AllowCanary is the command of the canary that must be allowed
	// ("" for git status), and NoTimeout says that the agent has no
	// timeout of its hook to check (Amp waits for it as long as it takes).
	AllowCanary string
	NoTimeout   bool
}

// Check is one finding of guard doctor: OK, or a problem with its fix; a
// Warn problem leaves the hook working (grants, say).
type Check struct {
	OK, Warn  bool
	What, Fix string
}

// Doctor is what guard doctor checks of Claude's installation, in the
// project dir and the user's settings.
func (Claude) Doctor(env func(string) string, dir string) DoctorSpec {
	home := env("HOME")
	return DoctorSpec{Agent: "claude",
		Files: []string{filepath.Join(dir, ".claude", "settings.json"), filepath.Join(dir, ".claude", "settings.local.json"), filepath.Join(home, ".claude", "settings.json")},
		Pre:   "PreToolUse", AllTools: []string{"*", ""}, After: []string{"PostToolUse", "SessionEnd"},
		Blocks:   func(h map[string]any) bool { return h["onFailure"] == "block" },
		BlockFix: `add "onFailure": "block" to guard's PreToolUse hook (Claude Code 2.1.295 or later): without it a missing or crashing guard lets every call run`,
		Approval: "PermissionRequest",
		Input: func(command, dir string) []byte {
			in, _ := json.Marshal(map[string]any{"session_id": "guard-doctor", "hook_event_name": "PreToolUse", "cwd": dir,
				"tool_name": "Bash", "tool_input": map[string]any{"command": command}})
			return in
		},
		Allowed: func(code int, stdout string) bool {
			return code == 0 && strings.Contains(stdout, `"permissionDecision":"allow"`)
		}}
}

// Doctor is what guard doctor checks of Gemini's installation, in the
// project dir and the user's settings.
func (Gemini) Doctor(env func(string) string, dir string) DoctorSpec {
	home := env("HOME")
	return DoctorSpec{Agent: "gemini", Files: []string{filepath.Join(dir, ".gemini", "settings.json"), filepath.Join(home, ".gemini", "settings.json")},
		Pre: "BeforeTool", AllTools: []string{".*", "*", ""}, TimeoutMs: true, After: []string{"AfterTool", "SessionEnd"},
		Input: func(command, dir string) []byte {
			in, _ := json.Marshal(map[string]any{"session_id": "guard-doctor", "hook_event_name": "BeforeTool", "timestamp": time.Now().UTC().Format(time.RFC3339),
				"cwd": dir, "tool_name": "run_shell_command", "tool_input": map[string]any{"command": command}})
			return in
		},
		Allowed: func(code int, stdout string) bool {
			return code == 0 && strings.HasPrefix(stdout, `{"decision":"allow"`)
		}}
}

// Doctor is what guard doctor checks of Codex's installation, in the
// project dir and the user's settings.
func (Codex) Doctor(env func(string) string, dir string) DoctorSpec {
	home := env("HOME")
	codexHome := filepath.Join(home, ".codex")
	if v := env("CODEX_HOME"); filepath.IsAbs(v) {
		codexHome = v
	}
	hooks := filepath.Join(codexHome, "hooks.json")
	return DoctorSpec{Agent: "codex", Files: []string{hooks}, Pre: "PreToolUse", AllTools: []string{""}, After: []string{"PostToolUse"},
		Input: func(command, dir string) []byte {
			in, _ := json.Marshal(map[string]any{"session_id": "guard-doctor", "turn_id": "guard-doctor", "hook_event_name": "PreToolUse",
				"cwd": dir, "model": "doctor", "tool_name": "Bash", "tool_input": map[string]any{"command": command}})
			return in
		},
		// Codex takes no output as an allow, and an allow with the
		// command rewritten to run under guard run.
		Allowed: func(code int, stdout string) bool {
			return code == 0 && (stdout == "" || strings.Contains(stdout, `"permissionDecision":"allow"`))
		},
		Approval: "PermissionRequest",
		Extra: func(found map[string][]FoundHook) []Check {
			var cfg codexTrust
			_, cfgErr := toml.DecodeFile(filepath.Join(codexHome, "config.toml"), &cfg)
			var checks []Check
			for _, event := range slices.Sorted(maps.Keys(found)) {
				for _, h := range found[event] {
					name := codexEventName(event)
					sum, err := codexHookHash(name, h.H)
					key := fmt.Sprintf("%s:%s:%d:%d", h.File, name, h.Group, h.Handler)
					trusted := err == nil && cfgErr == nil && cfg.Hooks.State[key].TrustedHash == "sha256:"+sum
					checks = append(checks, Check{OK: trusted, Warn: event != "PreToolUse",
						What: fmt.Sprintf("Codex trusts guard's %s hook (a current trust record in config.toml)", event),
						Fix:  "guard init --agent codex --scope user: Codex skips an untrusted or changed hook without a word"})
					n, _ := h.H["timeout"].(json.Number)
					if timeout, err := n.Float64(); err == nil && event == "SessionEnd" && timeout > codexSessionEndTimeout {
						checks = append(checks, Check{Warn: true,
							What: fmt.Sprintf("the SessionEnd hook's timeout (%gs) is longer than Codex takes (%ds)", timeout, codexSessionEndTimeout),
							Fix:  "guard init --agent codex --scope user: Codex shortens it, and says so in every run"})
					}
				}
			}
			return checks
		}}
}

// Doctor is what guard doctor checks of Cursor's installation, in the
// project dir and the user's settings.
func (Cursor) Doctor(env func(string) string, dir string) DoctorSpec {
	home := env("HOME")
	return DoctorSpec{Agent: "cursor", Files: []string{filepath.Join(dir, ".cursor", "hooks.json"), filepath.Join(home, ".cursor", "hooks.json")},
		Pre: "preToolUse", AllTools: []string{""}, Flat: true,
		Blocks:   func(h map[string]any) bool { return h["failClosed"] == true },
		BlockFix: `add "failClosed": true to guard's hooks: without it a hook that fails lets the action run`,
		Input: func(command, dir string) []byte {
			// preToolUse, where Cursor takes guard's rewrite into guard
			// run: beforeShellExecution cannot, and then sees the
			// command rewritten.
			in, _ := json.Marshal(map[string]any{"conversation_id": "guard-doctor", "generation_id": "guard-doctor", "hook_event_name": "preToolUse",
				"tool_name": "Shell", "tool_input": map[string]any{"command": command}, "cwd": dir, "workspace_roots": []string{dir}})
			return in
		},
		Allowed: func(code int, stdout string) bool {
			return code == 0 && strings.HasPrefix(stdout, `{"permission":"allow"`)
		}}
}

// Doctor is what guard doctor checks of Copilot's installation, in the
// project dir and the user's settings.
func (Copilot) Doctor(env func(string) string, dir string) DoctorSpec {
	home := env("HOME")
	return DoctorSpec{Agent: "copilot", Files: []string{filepath.Join(dir, ".github", "hooks", "guard.json"), filepath.Join(home, ".copilot", "hooks", "guard.json")},
		Pre: "preToolUse", AllTools: []string{""}, Flat: true, CommandKey: "bash", TimeoutKey: "timeoutSec",
		Input: func(command, dir string) []byte {
			in, _ := json.Marshal(map[string]any{"sessionId": "guard-doctor", "timestamp": time.Now().UnixMilli(), "cwd": dir,
				"toolName": "bash", "toolArgs": map[string]any{"command": command}})
			return in
		},
		Allowed: func(code int, stdout string) bool {
			return code == 0 && strings.HasPrefix(stdout, `{"permissionDecision":"allow"`)
		},
		Extra: func(found map[string][]FoundHook) []Check {
			// The folder's trust matters only where guard's hook is the
			// project's alone: Copilot runs the user's in every folder.
			inProject := func(h FoundHook) bool { return strings.HasPrefix(h.File, filepath.Join(dir, ".github")+"/") }
			pre := found["preToolUse"]
			if !slices.ContainsFunc(pre, inProject) || slices.ContainsFunc(pre, func(h FoundHook) bool { return !inProject(h) }) {
				return nil
			}
			_, cfg, _ := ReadJSONObject(filepath.Join(home, ".copilot", "config.json"))
			folders, _ := cfg["trustedFolders"].([]any)
			trusted := slices.ContainsFunc(folders, func(f any) bool {
				s, _ := f.(string)
				return s != "" && (s == dir || strings.HasPrefix(dir, strings.TrimSuffix(s, "/")+"/"))
			})
			return []Check{{OK: trusted, What: "Copilot trusts the project's folder, so that it runs its .github/hooks",
				Fix: "trust the folder in Copilot (its trust prompt, or trustedFolders in ~/.copilot/config.json), or guard init --agent copilot --scope user"}}
		}}
}

// Doctor is what guard doctor checks of Antigravity's installation, in the
// project dir and the user's settings.
func (Antigravity) Doctor(env func(string) string, dir string) DoctorSpec {
	home := env("HOME")
	return DoctorSpec{Agent: "antigravity", Files: []string{filepath.Join(dir, ".agents", "hooks.json"), filepath.Join(home, ".gemini", "config", "hooks.json")},
		Pre: "PreToolUse", AllTools: []string{""},
		Input: func(command, dir string) []byte {
			in, _ := json.Marshal(map[string]any{"conversationId": "guard-doctor", "stepIdx": 0, "workspacePaths": []string{dir},
				"toolCall": map[string]any{"name": "run_command", "args": map[string]any{"CommandLine": command, "Cwd": dir}}})
			return in
		},
		Allowed: func(code int, stdout string) bool {
			return code == 0 && strings.HasPrefix(stdout, `{"decision":"allow"`)
		},
		Denied: func(code int, stdout, _ string) bool {
			return code == 0 && strings.HasPrefix(stdout, `{"decision":"deny","reason":"guard: denied: `)
		}}
}

// Doctor is what guard doctor checks of Qwen Code's installation, in the
// project dir and the user's settings.
func (Qwen) Doctor(env func(string) string, dir string) DoctorSpec {
	home := env("HOME")
	return DoctorSpec{Agent: "qwen", Files: []string{filepath.Join(dir, ".qwen", "settings.json"), filepath.Join(home, ".qwen", "settings.json")},
		Pre: "PreToolUse", AllTools: []string{"*", "", ".*"}, After: []string{"PostToolUse", "SessionEnd"},
		// The allowed canary is a read_file: Qwen Code takes no rewrite, so
		// where guard run works guard refuses git status (with its rewrite
		// as the hint), and the canary would say nothing of the install.
		Input: func(command, dir string) []byte {
			tool, input := "run_shell_command", map[string]any{"command": command}
			if command != doctorDenyCanary {
				tool, input = "read_file", map[string]any{"file_path": doctorReadCanary(dir)}
			}
			in, _ := json.Marshal(map[string]any{"session_id": "guard-doctor", "hook_event_name": "PreToolUse", "timestamp": time.Now().UTC().Format(time.RFC3339),
				"cwd": dir, "permission_mode": "yolo", "tool_name": tool, "tool_input": input,
				"tool_use_id": "guard-doctor", "tool_call_id": "guard-doctor"})
			return in
		},
		Allowed: func(code int, stdout string) bool {
			return code == 0 && strings.HasPrefix(stdout, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"`)
		},
	}
}
