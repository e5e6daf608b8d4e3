// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"errors"
	"path/filepath"
	"slices"
)

// Install registers guard in Claude Code's settings.json for
// PreToolUse (every tool, onFailure block), PermissionRequest (to refuse
// at a prompt what guard denies), PostToolUse and PostToolUseFailure (for
// the grants, and the log: a command that failed ran) and
// SessionEnd.
func (Claude) Install(dir string, project bool, guard string) ([]FileChange, error) {
	return installHooks(claudeHooks(dir), guard, "claude")
}

// ClaudeTools are Claude Code's own permissions for its tools, as guard
// init --read-only writes them: Deny's tools are removed from the agent,
// Allow's run without asking; the others are the hook's to judge.
type ClaudeTools struct {
	Allow, Deny []string
}

// InstallReadOnly registers guard as Install does, its hook in read-only
// mode (guard hook --read-only), and sets Claude Code's own permissions
// to match: the tools guard denies in that mode removed from the agent
// (permissions.deny), those it allows by name pre-approved
// (permissions.allow), and the dontAsk mode, in which a call that neither
// the hook nor a rule approves is refused without a prompt. Rules the
// settings hold already stay; a deny rule there still wins.
func (Claude) InstallReadOnly(dir string, project bool, guard string, tools ClaudeTools) ([]FileChange, error) {
	f := claudeHooks(dir)
	f.args = " --read-only"
	f.more = func(root map[string]any) error {
		perms, ok := root["permissions"].(map[string]any)
		if root["permissions"] != nil && !ok {
			return errors.New(`"permissions" is not an object`)
		}
		if perms == nil {
			perms = map[string]any{}
		}
		for _, k := range []struct {
			key   string
			tools []string
		}{{"allow", tools.Allow}, {"deny", tools.Deny}} {
			rules, err := mergeRules(perms[k.key], k.tools)
			if err != nil {
				return errors.New(`"permissions.` + k.key + `": ` + err.Error())
			}
			if len(rules) > 0 {
				perms[k.key] = rules
			}
		}
		perms["defaultMode"] = "dontAsk"
		root["permissions"] = perms
		return nil
	}
	return installHooks(f, guard, "claude")
}

// mergeRules adds the tools to a list of permission rules that do not
// have them already.
func mergeRules(v any, tools []string) ([]any, error) {
	var rules []any
	if v != nil {
		var ok bool
		if rules, ok = v.([]any); !ok {
			return nil, errors.New("not a list of rules")
		}
	}
	for _, t := range tools {
		if !slices.Contains(rules, any(t)) {
			rules = append(rules, t)
		}
	}
	return rules, nil
}

// claudeHooks is Claude Code's settings file with guard's hooks.
func claudeHooks(dir string) hooksFile {
	return hooksFile{
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
}
