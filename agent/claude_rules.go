// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Claude Code checks the user's own permission rules (permissions.ask and
// permissions.deny in its settings) against the input a PreToolUse hook
// lets run: a shell command guard rewrites into guard run no longer
// matches "Bash(cat:*)", and the user's rule would be passed by. So guard
// checks them against the command as the model wrote it, and a command
// one of them matches is not rewritten: it is asked (or denied) as the
// user's rule says.

// claudeSettingsFiles are the settings Claude Code reads for a project,
// from the home (or $CLAUDE_CONFIG_DIR), the project and the system.
func claudeSettingsFiles(configDir, project, cwd string) []string {
	files := []string{"/etc/claude-code/managed-settings.json"}
	if configDir != "" {
		files = append(files, filepath.Join(configDir, "settings.json"))
	}
	for _, dir := range []string{project, cwd} {
		if dir != "" {
			files = append(files, filepath.Join(dir, ".claude", "settings.json"), filepath.Join(dir, ".claude", "settings.local.json"))
		}
	}
	return files
}

// ClaudeUserRule returns the user's own Claude Code rule for Bash that
// command matches, a deny rule before an ask rule, and whether it is a
// deny; "" when none does. configDir is Claude Code's (~/.claude, or
// $CLAUDE_CONFIG_DIR). A settings file that does not parse is skipped:
// guard has no rule of it to keep. The match is wider than Claude Code's own where
// the two differ: each part of a list or pipeline, and the whole command,
// is tried against each rule.
func ClaudeUserRule(configDir, project, cwd, command string) (rule string, deny bool) {
	asks, denies := permissionRules(claudeSettingsFiles(configDir, project, cwd), nil)
	return userRule(asks, denies, command)
}

// QwenUserRule returns the user's own Qwen Code rule for its shell tool
// that command matches, as ClaudeUserRule does: Qwen Code's
// permissions.deny and permissions.ask, in Claude Code's form (Bash(git
// *); ShellTool and run_shell_command name the tool too), and its older
// tools.exclude and excludeTools (ShellTool(rm): a command that starts
// with rm), from ~/.qwen/settings.json, the project's and the working
// directory's .qwen/settings.json and the system's. Qwen Code matches
// them against the command it runs, which for guard's own rewrite is the
// guard run command line.
func QwenUserRule(home, project, cwd, command string) (rule string, deny bool) {
	files := []string{"/etc/qwen-code/settings.json"}
	for _, dir := range []string{home, project, cwd} {
		if dir != "" {
			files = append(files, filepath.Join(dir, ".qwen", "settings.json"))
		}
	}
	asks, denies := permissionRules(files, func(s map[string]any) []string {
		var out []string
		tools, _ := s["tools"].(map[string]any)
		for _, v := range []any{tools["exclude"], s["excludeTools"]} {
			list, _ := v.([]any)
			for _, r := range list {
				if r, ok := r.(string); ok {
					if spec, ok := strings.CutSuffix(qwenBashRule(r), ")"); ok {
						r = spec + ":*)" // a prefix of the command
					}
					out = append(out, r)
				}
			}
		}
		return out
	})
	for i, r := range asks {
		asks[i] = qwenBashRule(r)
	}
	for i, r := range denies {
		denies[i] = qwenBashRule(r)
	}
	return userRule(asks, denies, command)
}

// qwenBashRule writes a Qwen Code rule of its shell tool in Claude Code's
// form, Bash or Bash(SPEC); another rule as it is.
func qwenBashRule(r string) string {
	for _, name := range []string{"ShellTool", "run_shell_command", "Shell"} {
		if rest, ok := strings.CutPrefix(r, name); ok && (rest == "" || strings.HasPrefix(rest, "(")) {
			return "Bash" + rest
		}
	}
	return r
}

// permissionRules reads permissions.ask and permissions.deny of each
// settings file, and the deny rules more returns of it (where not nil). A
// file that does not parse is skipped: guard has no rule of it to keep.
func permissionRules(files []string, more func(map[string]any) []string) (asks, denies []string) {
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var s struct {
			Permissions struct {
				Ask  []string `json:"ask"`
				Deny []string `json:"deny"`
			} `json:"permissions"`
		}
		var m map[string]any
		if json.Unmarshal(data, &s) != nil || json.Unmarshal(data, &m) != nil {
			continue
		}
		asks = append(asks, s.Permissions.Ask...)
		denies = append(denies, s.Permissions.Deny...)
		if more != nil {
			denies = append(denies, more(m)...)
		}
	}
	return asks, denies
}

// userRule returns the rule of denies, else of asks, that command
// matches (see bashRuleMatches), and whether it is a deny.
func userRule(asks, denies []string, command string) (rule string, deny bool) {
	parts := append([]string{strings.TrimSpace(command)}, commandParts(command)...)
	for _, set := range []struct {
		rules []string
		deny  bool
	}{{denies, true}, {asks, false}} {
		for _, r := range set.rules {
			for _, p := range parts {
				if bashRuleMatches(r, p) {
					return r, set.deny
				}
			}
		}
	}
	return "", false
}

// commandParts splits a shell command at its operators (;, &, |, newline)
// and the openings of groups and substitutions, roughly: a part holds one
// command and its arguments, with the words before it that are not a
// command (!, a group's brace) dropped.
func commandParts(command string) []string {
	var out []string
	for _, p := range regexp.MustCompile("[;&|\n()`{}]|\\$\\(").Split(command, -1) {
		p = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(p), "!"))
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// bashRuleMatches reports whether a Claude Code rule matches a shell
// command: Bash and Bash(*) every one, Bash(PREFIX:*) one that is PREFIX
// or starts with it and a space, Bash(GLOB) with * for any text one it
// matches whole, Bash(COMMAND) that command.
func bashRuleMatches(rule, command string) bool {
	if rule == "Bash" {
		return true
	}
	spec, ok := strings.CutPrefix(rule, "Bash(")
	if !ok || !strings.HasSuffix(spec, ")") {
		return false
	}
	spec = strings.TrimSuffix(spec, ")")
	if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
		return command == prefix || strings.HasPrefix(command, prefix+" ")
	}
	if !strings.Contains(spec, "*") {
		return command == spec
	}
	if bare, ok := strings.CutSuffix(spec, " *"); ok && command == bare {
		return true // git commit * is git commit too
	}
	quoted := strings.Split(spec, "*")
	for i, q := range quoted {
		quoted[i] = regexp.QuoteMeta(q)
	}
	re, err := regexp.Compile("^" + strings.Join(quoted, ".*") + "$")
	return err == nil && re.MatchString(command)
}
