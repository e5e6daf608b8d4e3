// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"fmt"
	"maps"
	"path/filepath"

	"guard/engine"
)

// exitAnswer is the answer for an agent whose hook speaks by exit code
// alone (Kiro CLI, Windsurf, goose): exit 0 with nothing on stdout lets the
// call run, exit 2 with the reason on stderr blocks it. Such an agent has
// no ask for a hook, so guard refuses what it would ask, and takes no
// rewritten input, so an allowed call that must run rewritten (a shell
// command into guard run) is refused too: run unbounded, it would escape
// the sandbox its allow depends on. agent names the agent in the reasons.
func exitAnswer(agent string, d *engine.Decision, where string) Answer {
	switch {
	case d.Verdict == engine.Ask:
		return Answer{Deny: &Denial{Why: Reason(d, where) + "; " + agent + " has no ask for a hook, so guard refuses what it would ask",
			Hints: []string{d.Hint()}}}
	case d.Verdict != engine.Allow:
		return Answer{Deny: Deny(d, where)}
	case d.Rewrite != nil:
		return Answer{Deny: Unbounded(d, where, "it must run in guard's sandbox, and "+agent+
			"'s hook cannot rewrite a command to run there, so guard refuses it")}
	}
	return Answer{Silent: true}
}

// exitAllowed reads the allow of an agent that exitAnswer speaks for, for
// guard doctor's canary: exit 0 and nothing on stdout.
func exitAllowed(code int, stdout string) bool { return code == 0 && stdout == "" }

// doctorDenyCanary is the command guard doctor sends through the hook to
// be denied (its other canary is to be allowed). The agents that cannot
// run guard's rewrite get the allowed canary as a read of a file in the
// project instead of a shell command: where guard run works, guard refuses
// them every shell command it allows (exitAnswer), and the canary would
// say nothing of the installation.
const doctorDenyCanary = "rm -rf /"

// doctorReadCanary is the file the allowed canary of such an agent reads,
// in the project dir: a name no project has, so that no file's role (a
// secret, a protected path) decides it.
func doctorReadCanary(dir string) string {
	return filepath.Join(dir, "guard-doctor-canary.txt")
}

// mergeFlatHooks puts handler in the list of handlers of each event of a
// settings file's hooks object, for an agent whose events list handlers,
// not matcher groups (Cursor, Windsurf, Kiro CLI): in place of the guard
// hook there is, else at the end. Other handlers stay as they are; name is
// the file, for errors.
func mergeFlatHooks(name string, root map[string]any, events []string, handler map[string]any) error {
	hooks, _ := root["hooks"].(map[string]any)
	if root["hooks"] != nil && hooks == nil {
		return fmt.Errorf("%s: \"hooks\" is not an object", name)
	}
	if hooks == nil {
		hooks = map[string]any{}
	}
	for _, ev := range events {
		list, _ := hooks[ev].([]any)
		if hooks[ev] != nil && list == nil {
			return fmt.Errorf("%s: hooks.%s is not a list", name, ev)
		}
		replaced := false
		for i, h := range list {
			if hm, ok := h.(map[string]any); ok && IsGuardHook(hm["command"]) {
				list[i], replaced = maps.Clone(handler), true
			}
		}
		if !replaced {
			list = append(list, maps.Clone(handler))
		}
		hooks[ev] = list
	}
	root["hooks"] = hooks
	return nil
}

// installFlat plans a settings file of an agent whose events list
// handlers: handler is guard's, on each of events; fill, if not nil, sets
// the fields the agent needs that the file does not have.
func installFlat(name string, events []string, handler map[string]any, fill func(root map[string]any)) ([]FileChange, error) {
	old, root, err := ReadJSONObject(name)
	if err != nil {
		return nil, err
	}
	if fill != nil {
		fill(root)
	}
	if err := mergeFlatHooks(name, root, events, handler); err != nil {
		return nil, err
	}
	data, err := EncodeJSON(root)
	if err != nil {
		return nil, err
	}
	return []FileChange{{Path: name, Old: old, New: data}}, nil
}
