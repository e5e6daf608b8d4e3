// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// goose runs guard hook as a PreToolUse command hook of a plugin: a
// directory under the project's .agents/plugins/ or the user's
// ~/.agents/plugins/, named for the plugin, whose hooks/hooks.json holds
// {"hooks": {"PreToolUse": [{"matcher", "hooks": [{"type": "command",
// "command", "timeout", "on_failure"}]}]}}; no matcher is every tool, and
// "*" is a regular expression that does not compile, which goose skips
// without a word (block/goose documentation/docs/guides/context-
// engineering/hooks.md, "Where Hooks Live", "Hook Configuration";
// crates/goose/src/plugins/discovery.rs lists every directory there, a
// project's plugin first: one of the same name hides the user's). A
// plugin listed in disabledPlugins of ~/.config/goose/settings.json or
// the project's .config/goose/settings.json (or settings.local.json), or
// set enabled: false in the plugins map of goose's config.yaml, does not
// run.
//
// Its input is one JSON object on stdin: event ("PreToolUse"),
// session_id, matcher_context, tool_call_id, tool_name (namespaced:
// developer__shell), tool_input and working_dir (hooks.md, "Hook
// Payload"; HookContext in crates/goose/src/hooks/mod.rs). The developer
// tools' inputs are developer__shell {command, timeout_secs},
// developer__write {path, content}, developer__edit {path, before, after}
// and developer__tree {path, depth} (hooks.md, "Tool Input Keys").
//
// The answer (hooks.md, "stdout Is the Decision Channel"): exit 0 with
// nothing on stdout allows; exit 2 blocks, and the model gets "Tool call
// denied by policy hook `guard`: <stderr>"; anything else is no decision,
// which lets the call run unless the handler has "on_failure": "block",
// which guard init writes (goose 1.48.0 and later, hooks.md "Choose What
// Happens When a Hook Cannot Decide"). goose has no ask for a hook and
// takes no changed input, so guard refuses what it would ask, and the
// shell commands it allows only in its sandbox (exitAnswer).
//
// From goose's documentation and source: goose is not on npm, and guard
// has not run against it. Whether goose's file tools expand ~ or resolve a
// relative path against working_dir is not documented: guard refuses a
// path that is not absolute.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"guard/engine"
)

// Goose is the adapter for goose.
type Goose struct{}

// gooseTools are the developer tools guard reads the input of, with the
// kind of call each makes; any other tool is of KindTool, decided by its
// name.
var gooseTools = map[string]engine.Kind{
	"developer__shell": engine.KindShell,
	"developer__write": engine.KindWrite,
	"developer__edit":  engine.KindEdit,
	"developer__tree":  engine.KindList,
}

// Decode reads a PreToolUse input.
func (Goose) Decode(data []byte) (*Event, error) {
	raw, err := readObject(data)
	if err != nil {
		return nil, err
	}
	event, err := stringField(raw, "event", true)
	if err != nil {
		return nil, err
	}
	if event != "PreToolUse" {
		return nil, deny("guard hook decides goose's tool calls; it does not take its %q event", event)
	}
	ev := &Event{Name: "PreToolUse"}
	if ev.Session, err = stringField(raw, "session_id", false); err != nil {
		return nil, err
	}
	if id, ok := raw["tool_call_id"].(string); ok && len(id) <= MaxCallID {
		ev.CallID = id
	}
	tool, err := stringField(raw, "tool_name", true)
	if err != nil {
		return nil, err
	}
	if tool == "" {
		return nil, deny("the hook input's tool_name is empty")
	}
	cwd, err := stringField(raw, "working_dir", true)
	if err != nil {
		return nil, err
	}
	if !filepath.IsAbs(cwd) {
		return nil, deny("the hook input's working_dir %q is not an absolute path", cwd)
	}
	// tool_input is left out where a tool has none (HookContext's
	// Option): an empty input.
	ev.Raw = map[string]any{}
	if v, ok := raw["tool_input"]; ok && v != nil {
		if ev.Raw, ok = v.(map[string]any); !ok {
			return nil, deny("the hook input's tool_input is not a JSON object")
		}
	}
	ev.Call = engine.Call{Kind: engine.KindTool, Tool: tool, Cwd: cwd, Session: ev.Session}
	kind, ok := gooseTools[tool]
	if !ok {
		return ev, nil
	}
	ev.Call.Kind = kind
	if kind == engine.KindShell {
		ev.Call.Input.Command, err = inputString(tool, ev.Raw, "command")
		return ev, err
	}
	p, err := inputString(tool, ev.Raw, "path")
	switch {
	case err != nil:
		return nil, err
	case p != "" && !filepath.IsAbs(p):
		return nil, &Denial{Why: fmt.Sprintf("the %s call's path %q is not absolute, and guard cannot tell which file goose would take it for", tool, p),
			Hints: []string{"give the file's absolute path"}}
	}
	ev.Call.Input.Path = p
	return ev, nil
}

// Answer renders a decision for goose: exit 0 and no output to allow,
// exit 2 and the reason on stderr to deny (exitAnswer).
func (Goose) Answer(_ *Event, d *engine.Decision, where string) Answer {
	return exitAnswer("goose", d, where)
}

// ConfigPaths are goose's plugins (its hooks among them) in the project
// and the user's home, the settings that disable them, its config.yaml and
// permissions (~/.config/goose/), and the project's .goosehints.
func (Goose) ConfigPaths() []string {
	return []string{"{project}/.agents/**", "{project}/.agents", "~/.agents/**", "~/.agents",
		"{project}/.config/goose/**", "{project}/.config/goose", "~/.config/goose/**", "{project}/.goosehints"}
}

// Reports is false: guard is registered for goose's PreToolUse alone.
func (Goose) Reports() bool { return false }

// goosePlugin is the name of guard's goose plugin, and its directory's
// under .agents/plugins/.
const goosePlugin = "guard"

// goosePluginDir is guard's plugin directory under dir: the project, or
// the home (goose's user plugins, ~/.agents/plugins/, as discovery.rs's
// tests lay them out).
func goosePluginDir(dir string) string {
	return filepath.Join(dir, ".agents", "plugins", goosePlugin)
}

// Install writes guard's goose plugin, .agents/plugins/guard/ in the
// project or the home: its plugin.json, where there is none (goose finds a
// plugin by its directory; the manifest names it), and its hooks/hooks.json,
// merged, with guard's PreToolUse hook for every tool (no matcher),
// HookTimeout and on_failure block.
func (Goose) Install(dir string, project bool, guard string) ([]FileChange, error) {
	root := goosePluginDir(dir)
	manifest := filepath.Join(root, "plugin.json")
	old, _, err := ReadJSONObject(manifest)
	if err != nil {
		return nil, err
	}
	data := old
	if old == nil {
		if data, err = EncodeJSON(map[string]any{"name": goosePlugin, "version": "1.0.0",
			"description": "guard hook decides each tool call before it runs"}); err != nil {
			return nil, err
		}
	}
	f := hooksFile{
		path:   filepath.Join(root, "hooks", "hooks.json"),
		events: []hookEvent{{"PreToolUse", "", true}},
		handler: func(command string, _ hookEvent) map[string]any {
			return map[string]any{"type": "command", "command": command, "timeout": HookTimeout, "on_failure": "block"}
		},
	}
	hooks, err := installHooks(f, guard, "goose")
	if err != nil {
		return nil, err
	}
	return append([]FileChange{{Path: manifest, Old: old, New: data}}, hooks...), nil
}

// Doctor is what guard doctor checks of goose's installation, in the
// project dir and the user's plugins.
func (Goose) Doctor(env func(string) string, dir string) DoctorSpec {
	home := env("HOME")
	return DoctorSpec{Agent: "goose",
		Files: []string{filepath.Join(goosePluginDir(dir), "hooks", "hooks.json"), filepath.Join(goosePluginDir(home), "hooks", "hooks.json")},
		Pre:   "PreToolUse", AllTools: []string{"", ".*"},
		Blocks:   func(h map[string]any) bool { return h["on_failure"] == "block" },
		BlockFix: `add "on_failure": "block" to guard's PreToolUse hook (goose 1.48.0 or later): without it a missing or crashing guard lets every call run`,
		Input: func(command, dir string) []byte {
			in := map[string]any{"event": "PreToolUse", "session_id": "guard-doctor", "matcher_context": "developer__shell", "tool_call_id": "guard-doctor",
				"tool_name": "developer__shell", "tool_input": map[string]any{"command": command}, "working_dir": dir}
			if command != doctorDenyCanary {
				// goose has no reading tool: the canary lists a path.
				in["matcher_context"], in["tool_name"] = "developer__tree", "developer__tree"
				in["tool_input"] = map[string]any{"path": doctorReadCanary(dir), "depth": 1}
			}
			data, _ := json.Marshal(in)
			return data
		},
		Allowed: exitAllowed,
		Extra: func(found map[string][]FoundHook) []Check {
			return gooseChecks(home, dir, found)
		}}
}

// gooseChecks are what guard doctor checks of goose's plugin beyond its
// hooks: that no settings file disables it, and that guard's plugin in
// the home is not hidden by a plugin of the same name in the project.
func gooseChecks(home, dir string, found map[string][]FoundHook) []Check {
	var disabled []string
	for _, f := range []string{filepath.Join(home, ".config", "goose", "settings.json"),
		filepath.Join(dir, ".config", "goose", "settings.json"), filepath.Join(dir, ".config", "goose", "settings.local.json")} {
		_, root, err := ReadJSONObject(f)
		list, _ := root["disabledPlugins"].([]any)
		if err != nil || slices.Contains(list, any(goosePlugin)) {
			disabled = append(disabled, f)
		}
	}
	what := "no goose settings file disables the " + goosePlugin + " plugin"
	if len(disabled) > 0 {
		what += " (" + strings.Join(disabled, ", ") + ")"
	}
	checks := []Check{{OK: len(disabled) == 0, What: what,
		Fix: "take " + goosePlugin + " out of disabledPlugins (or fix the file's JSON): goose skips a disabled plugin's hooks"}}
	inProject := func(h FoundHook) bool { return strings.HasPrefix(h.File, goosePluginDir(dir)+"/") }
	if pre := found["PreToolUse"]; len(pre) > 0 && !slices.ContainsFunc(pre, inProject) {
		_, err := os.Lstat(goosePluginDir(dir))
		checks = append(checks, Check{OK: err != nil, What: "no plugin of the project is named " + goosePlugin + " (goose runs the project's in place of the user's)",
			Fix: "remove the project's .agents/plugins/" + goosePlugin + ", or guard init --agent goose in the project"})
	}
	return checks
}
