// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// Antigravity CLI (agy), Gemini CLI's successor for consumers, runs guard
// hook as a command hook of hooks.json in a customization root: the
// project's .agents/ (or .agent/, _agents/, _agent/), or the user's
// ~/.gemini/config/. Its top-level keys name hooks, each mapping events to
// matcher groups: {"hooks": {"PreToolUse": [{"matcher": "", "hooks":
// [{"type": "command", "command": "..."}]}]}}, the empty matcher for every
// tool.
//
// Its input is protojson, camelCase, with no event name: conversationId,
// stepIdx, toolCall {name, args}, transcriptPath, workspacePaths. Tool
// names are agy's own (run_command, view_file, write_to_file, ...) and
// their arguments PascalCase; run_command's command line is CommandLine
// and its directory Cwd. The answer is
//
//	{"decision": "allow"|"deny"|"ask"|"force_ask", "reason": "..."}
//
// with "overwrite": {"CommandLine": "..."} for a rewritten command; agy
// blocks on {} and on an answer it cannot read. "ask" lets agy's own
// always-allow list approve without a prompt (a prefix the user once
// allowed, "cat", would run a cat that guard asks about), so guard asks
// with force_ask, which always prompts. A deny is the JSON deny, whose
// reason agy shows the model. An allow does not skip agy's own review,
// which may still ask the user.
//
// From descriptions published by others who ran agy 1.0 and 1.1: agy is
// not on npm, and guard has not run against it. The arguments of its tools
// other than run_command are not published, so guard judges those by
// their names alone (an unknown tool asks).

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"guard/engine"
)

// Antigravity is the adapter for Antigravity CLI.
type Antigravity struct{}

// Decode reads a PreToolUse input: agy names no event, and guard is
// registered for PreToolUse alone. The working directory is run_command's
// Cwd, else the first workspace path; an input with neither is denied.
func (Antigravity) Decode(data []byte) (*Event, error) {
	raw, err := readObject(data)
	if err != nil {
		return nil, err
	}
	tc, ok := raw["toolCall"].(map[string]any)
	if !ok {
		return nil, deny("the hook input has no toolCall object, which Antigravity sends: it is not Antigravity's; give guard hook the --agent it runs under")
	}
	tool, err := stringField(tc, "name", true)
	if err != nil {
		return nil, err
	}
	if tool == "" {
		return nil, deny("the hook input's toolCall.name is empty")
	}
	args := map[string]any{}
	if v, ok := tc["args"]; ok && v != nil {
		if args, ok = v.(map[string]any); !ok {
			return nil, deny("the hook input's toolCall.args is not a JSON object")
		}
	}
	session, err := stringField(raw, "conversationId", false)
	if err != nil {
		return nil, err
	}
	cwd, err := inputString(tool, args, "Cwd")
	if err != nil {
		return nil, err
	}
	if cwd == "" {
		paths, _ := raw["workspacePaths"].([]any)
		if len(paths) > 0 {
			cwd, _ = paths[0].(string)
		}
	}
	if !filepath.IsAbs(cwd) {
		return nil, deny("the hook input names no absolute working directory (run_command's Cwd, or workspacePaths): %q", cwd)
	}
	ev := &Event{Name: "PreToolUse", Session: session, Raw: args,
		Call: engine.Call{Kind: engine.KindTool, Tool: tool, Cwd: cwd, Session: session}}
	if tool == "run_command" {
		cmd, err := inputString(tool, args, "CommandLine")
		if err != nil {
			return nil, err
		}
		if cmd == "" {
			return nil, deny("the run_command call has no CommandLine")
		}
		ev.Call.Kind, ev.Call.Input = engine.KindShell, engine.Input{Command: cmd}
	}
	return ev, nil
}

type antigravityOutput struct {
	Decision  string            `json:"decision"`
	Reason    string            `json:"reason"`
	Overwrite map[string]string `json:"overwrite,omitempty"`
}

// Answer renders a decision for Antigravity, always as JSON: allow (a
// rewrite in overwrite.CommandLine), force_ask, or deny with guard's
// reason and hint.
func (Antigravity) Answer(ev *Event, d *engine.Decision, where string) Answer {
	out := antigravityOutput{Reason: answerReason(d, where)}
	switch d.Verdict {
	case engine.Allow:
		out.Decision = "allow"
	case engine.Ask:
		out.Decision = "force_ask"
	default:
		out.Decision = "deny"
		out.Reason = "guard: denied: " + out.Reason
		if h := d.Hint(); h != "" {
			out.Reason += "\nguard: hint: " + oneLine(h)
		}
		out.Reason = Clip(out.Reason, maxReason)
	}
	if d.Rewrite != nil && d.Verdict == engine.Allow {
		if ev.Call.Kind != engine.KindShell || *d.Rewrite != (engine.Input{Command: d.Rewrite.Command}) {
			return Answer{Deny: &Denial{Why: fmt.Sprintf("guard cannot rewrite the input of tool %s", ev.Call.Tool)}}
		}
		out.Overwrite = map[string]string{"CommandLine": d.Rewrite.Command}
	}
	data, err := json.Marshal(out)
	if err != nil {
		return Answer{Deny: &Denial{Why: fmt.Sprintf("encoding the answer: %v", err)}}
	}
	return Answer{Stdout: append(data, '\n')}
}

// ConfigPaths are Antigravity's customization roots (hooks, rules,
// skills, settings), in the project and in the home directory.
func (Antigravity) ConfigPaths() []string {
	return []string{
		"{project}/.agents/**", "{project}/.agents", "{project}/.agent/**", "{project}/.agent",
		"{project}/_agents/**", "{project}/_agents", "{project}/_agent/**", "{project}/_agent",
		"~/.gemini/config/**", "~/.gemini/antigravity-cli/**",
	}
}

// Reports is false: guard is registered for Antigravity's PreToolUse alone.
func (Antigravity) Reports() bool { return false }
