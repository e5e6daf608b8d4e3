// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"guard/internal/setup"
)

// guard doctor proves an installation works, not only that its files
// exist: the agent's settings register guard for the right events and
// every tool, so that a failing hook blocks; the binary they name runs;
// the policy loads; and a canary call, sent to the registered command as
// the agent would send it, is denied and an everyday one allowed, through
// the agent's protocol.

// doctorCheck is one finding: what was checked, and for a problem, the fix.
type doctorCheck struct {
	ok   bool
	warn bool // a problem that leaves the hook working (grants, say)
	what string
	fix  string
}

func runDoctor(ctx context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("doctor", s)
	agentName := fs.String("agent", "claude", "the `agent` whose installation to check")
	cwd := fs.String("cwd", "", "the project `directory` (default: $CLAUDE_PROJECT_DIR, else the current one)")
	beat := fs.Bool("heartbeat", false, "run the agent headless once, asking its model to run "+heartbeatCommand+", and check that guard decided it (one model call on the user's account)")
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil || fs.NArg() > 0 {
		return usageError(s, "doctor", "guard doctor [--agent NAME] [--cwd DIR] [--heartbeat]")
	}
	if installers[*agentName] == nil {
		return usageError(s, "doctor", "guard doctor: --agent %q: guard checks installations for %s", *agentName, strings.Join(sortedKeys(installers), ", "))
	}
	dir, err := initDir(env, "project", *cwd)
	if err != nil {
		fmt.Fprintf(s.err, "guard doctor: %v\n", err)
		return &exitError{code: 1}
	}
	checks := doctorAgent(ctx, env, dir, doctorSpecFor(*agentName, env, dir))
	checks = append(checks, doctorSandbox(ctx))
	if *beat {
		checks = append(checks, heartbeat(ctx, env, dir, *agentName))
	}
	problems := 0
	for _, c := range checks {
		switch {
		case c.ok:
			fmt.Fprintf(s.out, "ok    %s\n", c.what)
		case c.warn:
			fmt.Fprintf(s.out, "warn  %s\n      fix: %s\n", c.what, c.fix)
		default:
			problems++
			fmt.Fprintf(s.out, "FAIL  %s\n      fix: %s\n", c.what, c.fix)
		}
	}
	if problems > 0 {
		fmt.Fprintf(s.out, "%d problems: guard does not guard this project as it should\n", problems)
		return &exitError{code: 1}
	}
	fmt.Fprintln(s.out, "guard is installed, runs, and blocks what it denies")
	return nil
}

// foundHook is a guard hook found in an agent's settings.
type foundHook struct {
	file           string
	group, handler int
	matcher        string
	h              map[string]any
}

// doctorSpec is what doctor checks of one agent's installation.
type doctorSpec struct {
	agent    string
	files    []string // the settings files that may register guard
	pre      string   // the agent's event before a tool runs
	allTools []string // matchers that match every tool
	flat     bool     // hooks.EVENT lists handlers, not matcher groups (Cursor, Copilot)
	// commandKey and timeoutKey name the handler's command and timeout
	// ("command" and "timeout" where they are "").
	commandKey, timeoutKey string
	timeoutMs              bool // the agent's timeout is in milliseconds
	// blocks reports whether a handler fails closed, where the agent has
	// an option for it (nil where it has none); blockFix says how.
	blocks   func(h map[string]any) bool
	blockFix string
	after    []string // the events for the grants
	approval string   // the agent's event before it prompts ("" where it has none)
	input    func(command, dir string) []byte
	allowed  func(code int, stdout string) bool
	// denied reports whether the canary's answer is a deny (nil: exit 2
	// with guard's reason on stderr).
	denied func(code int, stdout, stderr string) bool
	extra  func(found map[string][]foundHook) []doctorCheck
}

func doctorSpecFor(name string, env getenv, dir string) doctorSpec {
	home := env("HOME")
	switch name {
	case "gemini":
		return doctorSpec{agent: "gemini", files: []string{filepath.Join(dir, ".gemini", "settings.json"), filepath.Join(home, ".gemini", "settings.json")},
			pre: "BeforeTool", allTools: []string{".*", "*", ""}, timeoutMs: true, after: []string{"AfterTool", "SessionEnd"},
			input: func(command, dir string) []byte {
				in, _ := json.Marshal(map[string]any{"session_id": "guard-doctor", "hook_event_name": "BeforeTool", "timestamp": time.Now().UTC().Format(time.RFC3339),
					"cwd": dir, "tool_name": "run_shell_command", "tool_input": map[string]any{"command": command}})
				return in
			},
			allowed: func(code int, stdout string) bool {
				return code == 0 && strings.HasPrefix(stdout, `{"decision":"allow"`)
			}}
	case "codex":
		codexHome := filepath.Join(home, ".codex")
		if v := env("CODEX_HOME"); filepath.IsAbs(v) {
			codexHome = v
		}
		hooks := filepath.Join(codexHome, "hooks.json")
		return doctorSpec{agent: "codex", files: []string{hooks}, pre: "PreToolUse", allTools: []string{""}, after: []string{"PostToolUse"},
			input: func(command, dir string) []byte {
				in, _ := json.Marshal(map[string]any{"session_id": "guard-doctor", "turn_id": "guard-doctor", "hook_event_name": "PreToolUse",
					"cwd": dir, "model": "doctor", "tool_name": "Bash", "tool_input": map[string]any{"command": command}})
				return in
			},
			// Codex takes no output as an allow, and an allow with the
			// command rewritten to run under guard run.
			allowed: func(code int, stdout string) bool {
				return code == 0 && (stdout == "" || strings.Contains(stdout, `"permissionDecision":"allow"`))
			},
			approval: "PermissionRequest",
			extra: func(found map[string][]foundHook) []doctorCheck {
				var cfg codexTrust
				_, cfgErr := toml.DecodeFile(filepath.Join(codexHome, "config.toml"), &cfg)
				var checks []doctorCheck
				for _, event := range slices.Sorted(maps.Keys(found)) {
					for _, h := range found[event] {
						name := codexEventName(event)
						sum, err := codexHookHash(name, h.h)
						key := fmt.Sprintf("%s:%s:%d:%d", h.file, name, h.group, h.handler)
						trusted := err == nil && cfgErr == nil && cfg.Hooks.State[key].TrustedHash == "sha256:"+sum
						checks = append(checks, doctorCheck{ok: trusted, warn: event != "PreToolUse",
							what: fmt.Sprintf("Codex trusts guard's %s hook (a current trust record in config.toml)", event),
							fix:  "guard init --agent codex --scope user: Codex skips an untrusted or changed hook without a word"})
					}
				}
				return checks
			}}
	case "cursor":
		return doctorSpec{agent: "cursor", files: []string{filepath.Join(dir, ".cursor", "hooks.json"), filepath.Join(home, ".cursor", "hooks.json")},
			pre: "preToolUse", allTools: []string{""}, flat: true,
			blocks:   func(h map[string]any) bool { return h["failClosed"] == true },
			blockFix: `add "failClosed": true to guard's hooks: without it a hook that fails lets the action run`,
			input: func(command, dir string) []byte {
				// preToolUse, where Cursor takes guard's rewrite into guard
				// run: beforeShellExecution cannot, and then sees the
				// command rewritten.
				in, _ := json.Marshal(map[string]any{"conversation_id": "guard-doctor", "generation_id": "guard-doctor", "hook_event_name": "preToolUse",
					"tool_name": "Shell", "tool_input": map[string]any{"command": command}, "cwd": dir, "workspace_roots": []string{dir}})
				return in
			},
			allowed: func(code int, stdout string) bool {
				return code == 0 && strings.HasPrefix(stdout, `{"permission":"allow"`)
			}}
	case "copilot":
		return doctorSpec{agent: "copilot", files: []string{filepath.Join(dir, ".github", "hooks", "guard.json"), filepath.Join(home, ".copilot", "hooks", "guard.json")},
			pre: "preToolUse", allTools: []string{""}, flat: true, commandKey: "bash", timeoutKey: "timeoutSec",
			input: func(command, dir string) []byte {
				in, _ := json.Marshal(map[string]any{"sessionId": "guard-doctor", "timestamp": time.Now().UnixMilli(), "cwd": dir,
					"toolName": "bash", "toolArgs": map[string]any{"command": command}})
				return in
			},
			allowed: func(code int, stdout string) bool {
				return code == 0 && strings.HasPrefix(stdout, `{"permissionDecision":"allow"`)
			},
			extra: func(found map[string][]foundHook) []doctorCheck {
				if !slices.ContainsFunc(found["preToolUse"], func(h foundHook) bool { return strings.HasPrefix(h.file, filepath.Join(dir, ".github")) }) {
					return nil
				}
				_, cfg, _ := readJSONObject(filepath.Join(home, ".copilot", "config.json"))
				folders, _ := cfg["trustedFolders"].([]any)
				trusted := slices.ContainsFunc(folders, func(f any) bool {
					s, _ := f.(string)
					return s != "" && (s == dir || strings.HasPrefix(dir, strings.TrimSuffix(s, "/")+"/"))
				})
				return []doctorCheck{{ok: trusted, what: "Copilot trusts the project's folder, so that it runs its .github/hooks",
					fix: "trust the folder in Copilot (its trust prompt, or trustedFolders in ~/.copilot/config.json), or guard init --agent copilot --scope user"}}
			}}
	case "antigravity":
		return doctorSpec{agent: "antigravity", files: []string{filepath.Join(dir, ".agents", "hooks.json"), filepath.Join(home, ".gemini", "config", "hooks.json")},
			pre: "PreToolUse", allTools: []string{""},
			input: func(command, dir string) []byte {
				in, _ := json.Marshal(map[string]any{"conversationId": "guard-doctor", "stepIdx": 0, "workspacePaths": []string{dir},
					"toolCall": map[string]any{"name": "run_command", "args": map[string]any{"CommandLine": command, "Cwd": dir}}})
				return in
			},
			allowed: func(code int, stdout string) bool {
				return code == 0 && strings.HasPrefix(stdout, `{"decision":"allow"`)
			},
			denied: func(code int, stdout, _ string) bool {
				return code == 0 && strings.HasPrefix(stdout, `{"decision":"deny","reason":"guard: denied: `)
			}}
	}
	return doctorSpec{agent: "claude",
		files: []string{filepath.Join(dir, ".claude", "settings.json"), filepath.Join(dir, ".claude", "settings.local.json"), filepath.Join(home, ".claude", "settings.json")},
		pre:   "PreToolUse", allTools: []string{"*", ""}, after: []string{"PostToolUse", "SessionEnd"},
		blocks:   func(h map[string]any) bool { return h["onFailure"] == "block" },
		blockFix: `add "onFailure": "block" to guard's PreToolUse hook (Claude Code 2.1.295 or later): without it a missing or crashing guard lets every call run`,
		approval: "PermissionRequest",
		input: func(command, dir string) []byte {
			in, _ := json.Marshal(map[string]any{"session_id": "guard-doctor", "hook_event_name": "PreToolUse", "cwd": dir,
				"tool_name": "Bash", "tool_input": map[string]any{"command": command}})
			return in
		},
		allowed: func(code int, stdout string) bool {
			return code == 0 && strings.Contains(stdout, `"permissionDecision":"allow"`)
		}}
}

// doctorAgent checks guard's installation for an agent in the project dir
// and the user's settings.
func doctorAgent(ctx context.Context, env getenv, dir string, spec doctorSpec) []doctorCheck {
	found := map[string][]foundHook{}
	var checks []doctorCheck
	for _, f := range spec.files {
		if !filepath.IsAbs(f) {
			continue
		}
		_, root, err := readJSONObject(f)
		if err != nil {
			checks = append(checks, doctorCheck{what: err.Error(), fix: "fix the file's JSON: the agent may not read it either"})
			continue
		}
		hooks, _ := root["hooks"].(map[string]any)
		for event, v := range hooks {
			list, _ := v.([]any)
			for gi, g := range list {
				group, _ := g.(map[string]any)
				if spec.flat {
					if isGuardHook(group[cmp.Or(spec.commandKey, "command")]) {
						found[event] = append(found[event], foundHook{f, gi, 0, "", group})
					}
					continue
				}
				matcher, _ := group["matcher"].(string)
				handlers, _ := group["hooks"].([]any)
				for hi, h := range handlers {
					if hm, ok := h.(map[string]any); ok && isGuardHook(hm["command"]) {
						found[event] = append(found[event], foundHook{f, gi, hi, matcher, hm})
					}
				}
			}
		}
	}
	fix := "guard init --agent " + spec.agent
	pre := found[spec.pre]
	if len(pre) == 0 {
		return append(checks, doctorCheck{what: fmt.Sprintf("no %s hook of the agent's settings runs guard hook", spec.pre), fix: fix})
	}
	all := slices.ContainsFunc(pre, func(h foundHook) bool { return slices.Contains(spec.allTools, h.matcher) })
	checks = append(checks, doctorCheck{ok: all, what: fmt.Sprintf("guard hook runs before every tool (%s)", pre[0].file),
		fix: "give guard's " + spec.pre + " group a matcher of every tool: another lets other tools run unchecked"})
	h := pre[0].h
	if spec.blocks != nil {
		checks = append(checks, doctorCheck{ok: spec.blocks(h), what: "a hook that fails blocks the call", fix: spec.blockFix})
	}
	timeout := numberOf(h[cmp.Or(spec.timeoutKey, "timeout")])
	if spec.timeoutMs {
		timeout /= 1000
	}
	checks = append(checks, doctorCheck{ok: timeout == 0 || timeout > defaultDeadline.Seconds(),
		what: fmt.Sprintf("the hook's timeout (%gs) is above guard's own deadline (%s)", timeout, defaultDeadline),
		fix:  fmt.Sprintf("set the timeout to %d s: the agent must not stop guard before guard's own deadline denies", hookTimeout)})
	for _, ev := range spec.after {
		checks = append(checks, doctorCheck{ok: len(found[ev]) > 0, warn: true, what: "guard hook runs on " + ev + " (the session tier's grants)",
			fix: fix + ": without it the session tier asks every time, or grants end only when idle"})
	}
	if spec.approval != "" {
		checks = append(checks, doctorCheck{ok: len(found[spec.approval]) > 0, warn: true, what: "guard hook runs on " + spec.approval + " (where the agent would ask its user)",
			fix: fix + ": without it the agent's own prompts are not guard's to answer"})
	}
	if spec.extra != nil {
		checks = append(checks, spec.extra(found)...)
	}
	command, _ := h[cmp.Or(spec.commandKey, "command")].(string)
	bin := strings.Trim(strings.Fields(command)[0], `'"`)
	path, err := exec.LookPath(bin)
	if err == nil {
		var out []byte
		out, err = exec.CommandContext(ctx, path, "version").Output()
		if err == nil && !bytes.HasPrefix(out, []byte("guard ")) {
			err = fmt.Errorf("it printed %q", out)
		}
	}
	checks = append(checks, doctorCheck{ok: err == nil, what: fmt.Sprintf("the hook's binary %s runs (%v)", bin, cmpOrErr(err)),
		fix: "install guard there, or " + fix + " to register this one by its path"})
	if _, err := setup.LoadLayers("", dir, setup.Getenv(env)); err != nil {
		checks = append(checks, doctorCheck{what: "the policy loads: " + err.Error(), fix: "fix the policy file; guard check --config FILE shows where"})
	} else {
		checks = append(checks, doctorCheck{ok: true, what: "the policy loads"})
	}
	return append(checks, canaries(ctx, command, dir, spec)...)
}

// canaries sends the registered hook command two calls as the agent
// would, through sh: rm -rf / must be denied (exit 2, the reason on
// stderr) and git status allowed.
func canaries(ctx context.Context, command, dir string, spec doctorSpec) []doctorCheck {
	run := func(cmd string) (int, string, string) {
		ctx, cancel := context.WithTimeout(ctx, hookTimeout*time.Second)
		defer cancel()
		c := exec.CommandContext(ctx, "sh", "-c", command)
		c.Dir, c.Stdin = dir, bytes.NewReader(spec.input(cmd, dir))
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		err := c.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			code = -1
		}
		return code, out.String(), errb.String()
	}
	code, stdout, stderr := run("rm -rf /")
	denied := spec.denied
	if denied == nil {
		denied = func(code int, _, stderr string) bool {
			return code == 2 && strings.HasPrefix(stderr, "guard: denied: ")
		}
	}
	deny := doctorCheck{ok: denied(code, stdout, stderr),
		what: fmt.Sprintf("a canary rm -rf / is blocked through the hook (exit %d)", code),
		fix:  "the registered command must be guard hook itself; run it by hand with the agent's input to see what it prints"}
	code, stdout, _ = run("git status")
	allow := doctorCheck{ok: spec.allowed(code, stdout),
		what: fmt.Sprintf("a canary git status is allowed through the hook (exit %d)", code),
		fix:  "the policy must allow read-only git; guard check 'git status' says why it does not"}
	return []doctorCheck{deny, allow}
}

func numberOf(v any) float64 {
	switch n := v.(type) {
	case json.Number:
		f, _ := n.Float64()
		return f
	case float64:
		return n
	}
	return 0
}

func cmpOrErr(err error) string {
	if err != nil {
		return err.Error()
	}
	return "guard version"
}
