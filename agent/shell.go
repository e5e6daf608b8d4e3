// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"path/filepath"
	"strings"

	"guard/engine"
)

// Shell returns the shell an agent runs commands in, found as the agent
// finds it: Claude Code's $CLAUDE_CODE_SHELL, else $SHELL; Gemini CLI's
// and Copilot CLI's bash; OpenCode's $SHELL, else bash. A base name of bash or zsh names that shell;
// anything else, neither set, or an agent whose shell is not known when
// guard judges the command, is "" (unknown), and the engine then judges a
// command as both bash and zsh read it. Codex's is unknown: its model
// names the shell of each command (exec_command's shell argument), which
// the hook input does not carry.
func Shell(agentName string, env func(string) string) string {
	sh := ""
	switch agentName {
	case "claude":
		sh = env("CLAUDE_CODE_SHELL")
		if sh == "" {
			sh = env("SHELL")
		}
	case "gemini", "copilot":
		sh = "bash" // both run commands with bash whatever $SHELL is (TestGeminiRunsBash, TestCopilotRunsBash)
	case "qwen":
		sh = "bash" // Qwen Code runs bash -c whatever $SHELL is (TestQwenRunsBash)
	case "opencode":
		// OpenCode 1.18 runs $SHELL, bash where it is fish or nu, or unset.
		sh = env("SHELL")
		if b := filepath.Base(sh); sh == "" || b == "fish" || b == "nu" {
			sh = "bash"
		}
	}
	if sh == "" {
		return ""
	}
	switch base := filepath.Base(sh); base {
	case "bash", "zsh":
		return base
	}
	return ""
}

// RuleKeeper is an adapter whose agent matches rules of its user's own
// against a shell command, which guard's rewrite into guard run would
// pass by: the agent matches them against the guard run command line.
// KeepRules asks (or denies) an allowed PreToolUse call as the user's
// rule for its command says; own reports that the call is guard's own
// rewrite issued as the call (engine.Engine.Unsandbox), and d.Rewrite
// says guard rewrites it now.
type RuleKeeper interface {
	KeepRules(d *engine.Decision, env func(string) string, call engine.Call, cwd string, own bool)
}

// KeepRules keeps Claude Code's rules for a call guard rewrites, or that
// is guard's own rewrite.
func (Claude) KeepRules(d *engine.Decision, env func(string) string, call engine.Call, cwd string, own bool) {
	if d.Rewrite != nil || own {
		KeepClaudeRule(d, env, call, cwd)
	}
}

// KeepRules keeps Qwen Code's rules for a call that is guard's own
// rewrite: Qwen Code takes no rewrite from guard, so its rules meet the
// guard run command line only where the model issues it.
func (Qwen) KeepRules(d *engine.Decision, _ func(string) string, call engine.Call, cwd string, own bool) {
	if own {
		KeepQwenRule(d, call, cwd)
	}
}

// KeepClaudeRule keeps the user's own Claude Code rule that an allowed
// shell command matches (see [ClaudeUserRule]): Claude Code would check
// it against guard run's command line, which it does not match, so the
// command is not rewritten, and is asked (or denied) as the rule says.
// Approved, it runs as written, as every approval does. env is the
// agent's environment, for $CLAUDE_CONFIG_DIR; cwd the call's directory
// as Claude Code sent it.
func KeepClaudeRule(d *engine.Decision, env func(string) string, call engine.Call, cwd string) {
	configDir := env("CLAUDE_CONFIG_DIR")
	if configDir == "" && call.Home != "" {
		configDir = filepath.Join(call.Home, ".claude")
	}
	rule, deny := ClaudeUserRule(configDir, call.Project, cwd, call.Input.Command)
	keepRule(d, call, "Claude Code", rule, deny)
}

// KeepQwenRule keeps the user's own Qwen Code rule that the command of
// guard's own rewrite, issued as the call, runs (see [QwenUserRule]):
// Qwen Code checks its rules against the guard run command line, which
// they do not match. The call is asked (or denied) as the rule says.
func KeepQwenRule(d *engine.Decision, call engine.Call, cwd string) {
	rule, deny := QwenUserRule(call.Home, call.Project, cwd, call.Input.Command)
	keepRule(d, call, "Qwen Code", rule, deny)
}

// keepRule makes an allowed shell call the ask (or deny) of the user's
// own rule of agent, where there is one ("" where none matched).
func keepRule(d *engine.Decision, call engine.Call, agent, rule string, deny bool) {
	if rule == "" {
		return
	}
	l := engine.Leaf{Verdict: engine.Ask, Kind: "input", Text: call.Input.Command, Rule: strings.ToLower(strings.Fields(agent)[0]) + " " + rule,
		Why: "the user's own " + agent + " rule " + rule + " asks before it runs"}
	if d.Rewrite != nil {
		l.Why += "; approved, it runs as written, outside guard's sandbox"
	}
	if deny {
		l.Verdict, l.Why = engine.Deny, "the user's own "+agent+" rule "+rule+" denies it"
	}
	d.Verdict, d.Rewrite = l.Verdict, nil
	d.Leaves = append(d.Leaves, l)
}

// ShellTool reports whether a tool of the decision log runs shell
// commands: an agent's shell tool, or the shell kind of guard serve and
// the API.
func ShellTool(name string) bool {
	switch name {
	case "Bash", "bash", "run_shell_command", "run_command", "shell",
		"shell_command", "Execute": // Amp's and Factory Droid's
		return true
	}
	return false
}
