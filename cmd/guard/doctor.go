// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
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
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return usageError(s, "doctor", "guard doctor [--agent NAME] [--cwd DIR]")
	}
	if *agentName != "claude" {
		return usageError(s, "doctor", "guard doctor: --agent %q: guard checks installations for claude", *agentName)
	}
	dir, err := initDir(env, "project", *cwd)
	if err != nil {
		fmt.Fprintf(s.err, "guard doctor: %v\n", err)
		return &exitError{code: 1}
	}
	checks := doctorClaude(ctx, env, dir)
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

// claudeHook is a guard hook found in Claude Code's settings.
type claudeHook struct {
	file    string
	matcher string
	handler map[string]any
}

// doctorClaude checks guard's installation for Claude Code in the project
// dir and the user's settings.
func doctorClaude(ctx context.Context, env getenv, dir string) []doctorCheck {
	var files []string
	files = append(files, filepath.Join(dir, ".claude", "settings.json"), filepath.Join(dir, ".claude", "settings.local.json"))
	if h := env("HOME"); filepath.IsAbs(h) {
		files = append(files, filepath.Join(h, ".claude", "settings.json"))
	}
	found := map[string][]claudeHook{}
	var checks []doctorCheck
	for _, f := range files {
		_, root, err := readJSONObject(f)
		if err != nil {
			checks = append(checks, doctorCheck{what: err.Error(), fix: "fix the file's JSON: Claude Code may not read it either"})
			continue
		}
		hooks, _ := root["hooks"].(map[string]any)
		for event, v := range hooks {
			groups, _ := v.([]any)
			for _, g := range groups {
				group, _ := g.(map[string]any)
				matcher, _ := group["matcher"].(string)
				handlers, _ := group["hooks"].([]any)
				for _, h := range handlers {
					if hm, ok := h.(map[string]any); ok && isGuardHook(hm["command"]) {
						found[event] = append(found[event], claudeHook{f, matcher, hm})
					}
				}
			}
		}
	}
	pre := found["PreToolUse"]
	if len(pre) == 0 {
		return append(checks, doctorCheck{what: "no PreToolUse hook of Claude Code's settings runs guard hook", fix: "guard init --agent claude"})
	}
	all := false
	for _, h := range pre {
		if h.matcher == "*" || h.matcher == "" {
			all = true
		}
	}
	checks = append(checks, doctorCheck{ok: all, what: fmt.Sprintf("guard hook runs before every tool (%s)", pre[0].file),
		fix: `give guard's PreToolUse group "matcher": "*": another matcher lets other tools run unchecked`})
	h := pre[0].handler
	block, _ := h["onFailure"].(string)
	checks = append(checks, doctorCheck{ok: block == "block", what: `a hook that fails blocks the call ("onFailure": "block")`,
		fix: `add "onFailure": "block" to guard's PreToolUse hook (Claude Code 2.1.295 or later): without it a missing or crashing guard lets every call run`})
	timeout := numberOf(h["timeout"])
	checks = append(checks, doctorCheck{ok: timeout == 0 || timeout > defaultDeadline.Seconds(),
		what: fmt.Sprintf("the hook's timeout (%gs) is above guard's own deadline (%s)", timeout, defaultDeadline),
		fix:  fmt.Sprintf(`set "timeout": %d: the agent must not stop guard before guard's own deadline denies`, hookTimeout)})
	for _, ev := range []string{"PostToolUse", "SessionEnd"} {
		checks = append(checks, doctorCheck{ok: len(found[ev]) > 0, warn: true, what: "guard hook runs on " + ev + " (the session tier's grants)",
			fix: "guard init --agent claude: without it the session tier asks every time, or grants end only when idle"})
	}
	command, _ := h["command"].(string)
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
		fix: "install guard there, or guard init --agent claude to register this one by its path"})
	if _, err := loadLayers("", dir, env); err != nil {
		checks = append(checks, doctorCheck{what: "the policy loads: " + err.Error(), fix: "fix the policy file; guard check --config FILE shows where"})
	} else {
		checks = append(checks, doctorCheck{ok: true, what: "the policy loads"})
	}
	return append(checks, canaries(ctx, command, dir)...)
}

// canaries sends the registered hook command two calls as Claude Code
// would, through sh: rm -rf / must be denied (exit 2, the reason on
// stderr) and git status allowed.
func canaries(ctx context.Context, command, dir string) []doctorCheck {
	run := func(cmd string) (int, string, string) {
		in, _ := json.Marshal(map[string]any{"session_id": "guard-doctor", "hook_event_name": "PreToolUse", "cwd": dir,
			"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}})
		ctx, cancel := context.WithTimeout(ctx, hookTimeout*time.Second)
		defer cancel()
		c := exec.CommandContext(ctx, "sh", "-c", command)
		c.Dir, c.Stdin = dir, bytes.NewReader(in)
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
	code, _, stderr := run("rm -rf /")
	deny := doctorCheck{ok: code == 2 && strings.HasPrefix(stderr, "guard: denied: "),
		what: fmt.Sprintf("a canary rm -rf / is blocked through the hook (exit %d)", code),
		fix:  "the registered command must be guard hook itself; run it by hand with a PreToolUse input to see what it prints"}
	code, stdout, _ := run("git status")
	allow := doctorCheck{ok: code == 0 && strings.Contains(stdout, `"permissionDecision":"allow"`),
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
