// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// Amp runs guard hook as the program of a delegate rule of its
// amp.permissions setting, the first rule, for every tool:
//
//	{"tool": "*", "action": "delegate", "to": PROGRAM}
//
// in .amp/settings.json (the workspace's, which Amp's documentation says
// overrides the user's) or ~/.config/amp/settings.json. PROGRAM is one
// path, run with no arguments (a "to" with a space in it is taken whole as
// a file name), so guard init writes a script that runs guard hook
// --agent amp. The input is the tool's arguments alone, one JSON object
// on stdin; the tool's name is in the environment, AGENT_TOOL_NAME (and
// AGENT=amp). Nothing in it says where the call runs: the delegate runs
// in Amp's own working directory (seen with amp permissions test; in a
// thread, not seen), which guard takes for the call's (a command's
// workdir, where it names one, is where it runs). Exit 0
// allows, exit 1 asks, and exit 2, any other exit, death by a signal and
// a program that cannot start reject, with stderr as the reason. Amp
// waits for the delegate as long as it takes: guard's own deadline ends a
// slow decision.
//
// guard hook exits 0 or 2 only, so what guard would ask is rejected,
// saying so; and a delegate cannot change the call, so an allowed command
// that must run in guard run's sandbox is rejected too, saying why:
// approved as an ask it would run unbounded.
//
// Amp 0.0.1790142911-g7618fb's tools, as amp tools show prints them:
// shell_command {command, workdir, timeout_ms}, apply_patch {patchText}
// (Codex's patch format), create_file {path, content}, edit_file {path,
// old_str, new_str, replace_all} (the ultra mode's instead of
// apply_patch), read_web_page {url, ...}, web_search, and others. The
// Bash tool of Amp's older documentation ({cmd}, and a directory field
// not seen) is not offered by this release, and is refused: guard would
// not know where its command runs. The delegate protocol was
// checked with amp permissions test, which runs the delegate as a thread
// would, without a model: a thread cannot run here (it needs ampcode.com).

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"guard/engine"
)

// Amp is the adapter for Amp.
type Amp struct{}

// EnvDecoder is an adapter whose agent gives part of a call outside its
// hook input: in the hook's environment and its working directory (Amp's
// delegate). guard hook decodes with DecodeEnv where an adapter has it.
type EnvDecoder interface {
	// DecodeEnv reads one hook input with the hook's environment and
	// its working directory, an absolute path ("" where it is unknown).
	DecodeEnv(data []byte, env func(string) string, cwd string) (*Event, error)
}

// ampTools are Amp's tools whose input guard reads, with their kind and
// fields (as copilotInput reads them). A tool that is not listed is of
// KindTool: the policy's tier of its name decides.
var ampTools = map[string]copilotTool{
	"shell_command": {kind: engine.KindShell, field: "command"},
	"create_file":   {kind: engine.KindWrite, path: []string{"path"}},
	"edit_file":     {kind: engine.KindEdit, path: []string{"path"}},
	"read_web_page": {kind: engine.KindFetch, field: "url"},
	"web_search":    {kind: engine.KindFetch}, // no URL: denied, as a search carries its query out
}

// ampWorkdir names, for each of Amp's shell tools, the field of the
// directory its command runs in.
var ampWorkdir = map[string]string{"shell_command": "workdir"}

// Decode refuses an input without its environment: Amp names the tool
// there, and guard hook reads it through DecodeEnv.
func (Amp) Decode([]byte) (*Event, error) {
	return nil, deny("Amp names the tool in the delegate's environment (AGENT_TOOL_NAME), which this input comes without")
}

// DecodeEnv reads the arguments of one of Amp's tool calls, named by
// AGENT_TOOL_NAME, run in cwd.
func (Amp) DecodeEnv(data []byte, env func(string) string, cwd string) (*Event, error) {
	in, err := readObject(data)
	if err != nil {
		return nil, err
	}
	tool := env("AGENT_TOOL_NAME")
	if tool == "" {
		return nil, deny("AGENT_TOOL_NAME is not set: guard hook --agent amp runs as Amp's delegate, which names the tool there")
	}
	if !filepath.IsAbs(cwd) {
		return nil, deny("the working directory of Amp's delegate is not known, and the call's is taken from it")
	}
	ev := &Event{Name: "PreToolUse", Raw: in, Call: engine.Call{Kind: engine.KindTool, Tool: tool, Cwd: cwd}}
	if k := ampWorkdir[tool]; k != "" {
		dir, err := inputString(tool, in, k)
		switch {
		case err != nil:
			return nil, err
		case dir != "" && !filepath.IsAbs(dir):
			return nil, &Denial{Why: fmt.Sprintf("the %s call's %s %q is not an absolute path, and guard cannot tell what Amp joins it to", tool, k, dir),
				Hints: []string{"give " + k + " as an absolute path"}}
		case dir != "":
			dir = filepath.Clean(dir)
			if !dirWithin(dir, cwd) {
				// guard hook judges the call with its directory as the
				// project, and guard run bounds it to that tree.
				return nil, &Denial{Why: fmt.Sprintf("the %s call's %s %s is not in Amp's working directory %s, the project guard judges its commands in", tool, k, dir, filepath.Clean(cwd)),
					Hints: []string{"run the command in the project: leave out " + k + ", or name a directory of the project that is no symbolic link"}}
			}
			ev.Call.Cwd = dir
		}
	}
	if tool == "apply_patch" {
		patch, err := inputString(tool, in, "patchText")
		if err == nil && patch == "" {
			err = deny("the apply_patch call has no patchText")
		}
		if err != nil {
			return nil, err
		}
		ev.Call.Kind = engine.KindWrite
		if ev.Call.Input.Path, err = patchFile(patch, cwd); err != nil {
			return nil, err
		}
		return ev, nil
	}
	if t, ok := ampTools[tool]; ok {
		ev.Call.Kind = t.kind
		if ev.Call.Input, err = copilotInput(tool, t, in); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// dirWithin reports whether dir is base or below it, lexically and with
// their symbolic links resolved (of the part of each that exists).
func dirWithin(dir, base string) bool {
	under := func(d, b string) bool {
		return d == b || strings.HasPrefix(d, strings.TrimSuffix(b, "/")+"/")
	}
	realDir, err := realExisting(dir)
	realBase, berr := realExisting(base)
	return under(dir, filepath.Clean(base)) && err == nil && berr == nil && under(realDir, realBase)
}

// realExisting resolves the symbolic links of the longest part of the
// absolute path p that exists, and puts the rest after it.
func realExisting(p string) (string, error) {
	p = filepath.Clean(p)
	rest := ""
	for {
		r, err := filepath.EvalSymlinks(p)
		switch {
		case err == nil:
			return filepath.Join(r, rest), nil
		case !errors.Is(err, fs.ErrNotExist) || p == "/":
			return "", err
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = filepath.Dir(p)
	}
}

// Answer renders a decision for Amp's delegate: an allow is exit 0 with
// nothing on stdout; anything else is exit 2 with the reason on stderr,
// which Amp gives the model.
func (Amp) Answer(ev *Event, d *engine.Decision, where string) Answer {
	switch {
	case d.Verdict == engine.Ask:
		return Answer{Deny: &Denial{Why: Reason(d, where) + "; guard hook answers allow or deny only (Amp's ask is exit 1, which guard never gives), so guard refuses what it would ask",
			Hints: []string{d.Hint()}}}
	case d.Verdict != engine.Allow:
		return Answer{Deny: Deny(d, where)}
	case d.Rewrite != nil:
		return Answer{Deny: Unbounded(d, where, "it must run in guard's sandbox (guard run), and Amp's delegate cannot change a call, so guard refuses it rather than let it run unbounded")}
	}
	return Answer{Silent: true}
}

// ConfigPaths are Amp's settings, plugins, skills and the managed
// settings, in the project and in the home directory, and the skills it
// reads from ~/.config/agents/skills (amp skill list lists them; its
// .agents/skills and .claude/skills are goose's and Claude Code's).
func (Amp) ConfigPaths() []string {
	return []string{"{project}/.amp/**", "{project}/.amp", "~/.config/amp/**", "/etc/ampcode/**", "~/.config/agents/**", "~/.config/agents"}
}

// Reports is false: Amp's delegate is asked before a call only.
func (Amp) Reports() bool { return false }

// AmpDelegateName is the file name of the script guard init writes for
// Amp's delegate rule, beside the settings that name it.
const AmpDelegateName = "guard-delegate"

// ampSettings returns Amp's settings file and the delegate script beside
// it: the project's .amp/, or the user's ~/.config/amp/ under dir.
func ampSettings(dir string, project bool) (settings, script string) {
	d := filepath.Join(dir, ".amp")
	if !project {
		d = filepath.Join(dir, ".config", "amp")
	}
	return filepath.Join(d, "settings.json"), filepath.Join(d, AmpDelegateName)
}

// Install writes the delegate script that runs guard hook --agent amp,
// and puts the delegate rule of every tool first in amp.permissions
// (first match wins), in place of a guard delegate rule there was. The
// rules after it are kept, and no longer match: guard decides every call.
func (Amp) Install(dir string, project bool, guard string) ([]FileChange, error) {
	name, script := ampSettings(dir, project)
	old, root, err := ReadJSONObject(name)
	if err != nil {
		return nil, err
	}
	rules, ok := root["amp.permissions"].([]any)
	if root["amp.permissions"] != nil && !ok {
		return nil, fmt.Errorf("%s: %q is not a list of rules", name, "amp.permissions")
	}
	kept := []any{map[string]any{"tool": "*", "action": "delegate", "to": script}}
	for _, r := range rules {
		if !isAmpGuardRule(r) {
			kept = append(kept, r)
		}
	}
	root["amp.permissions"] = kept
	data, err := EncodeJSON(root)
	if err != nil {
		return nil, err
	}
	oldScript, err := os.ReadFile(script)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	text := "#!/bin/sh\n# guard hook, as Amp's delegate (written by guard init)\nexec " + quote(guard) + " hook --agent amp\n"
	return []FileChange{{Path: script, Old: oldScript, New: []byte(text), Mode: 0o755}, {Path: name, Old: old, New: data}}, nil
}

// isAmpGuardRule reports whether an amp.permissions rule delegates to
// guard's script.
func isAmpGuardRule(r any) bool {
	m, _ := r.(map[string]any)
	to, _ := m["to"].(string)
	return m["action"] == "delegate" && filepath.Base(to) == AmpDelegateName
}

// Doctor is what guard doctor checks of Amp's installation, in the
// project dir and the user's settings: the first rule of amp.permissions
// delegates every tool to guard's script, and the guard hook command the
// script runs blocks the canary.
func (Amp) Doctor(env func(string) string, dir string) DoctorSpec {
	project, _ := ampSettings(dir, true)
	user, _ := ampSettings(env("HOME"), false)
	return DoctorSpec{Agent: "amp", Files: []string{project, user}, Pre: "amp.permissions", AllTools: []string{"*"},
		FindIn: func(file string, root map[string]any) map[string][]FoundHook {
			rules, _ := root["amp.permissions"].([]any)
			if len(rules) == 0 || !isAmpGuardRule(rules[0]) {
				return nil
			}
			rule := rules[0].(map[string]any)
			tool, _ := rule["tool"].(string)
			if !IsGuardHook(ampScriptCommand(rule["to"])) {
				return nil // no script, or one that does not run guard hook
			}
			return map[string][]FoundHook{"amp.permissions": {{File: file, Matcher: tool, H: map[string]any{"command": ampScriptCommand(rule["to"])}}}}
		},
		Env: []string{"AGENT=amp", "AGENT_TOOL_NAME=shell_command"},
		// Amp cannot take guard run's rewrite, so git status, which guard
		// allows only in the sandbox where it runs, is refused there;
		// pwd acts on the agent's shell alone and is allowed as it is.
		AllowCanary: "pwd", NoTimeout: true,
		Input: func(command, dir string) []byte {
			in, _ := json.Marshal(map[string]any{"command": command, "workdir": dir})
			return in
		},
		Allowed: func(code int, stdout string) bool { return code == 0 && stdout == "" }}
}

// ampScriptCommand returns the guard hook command of guard's delegate
// script: its exec line, without the exec ("" where there is none).
func ampScriptCommand(to any) string {
	name, _ := to.(string)
	data, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(data)) {
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "exec "); ok {
			return cmd
		}
	}
	return ""
}
