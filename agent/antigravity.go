// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// Antigravity CLI (agy), Gemini CLI's successor for consumers, runs guard
// hook as a command hook of .agents/hooks.json (or
// ~/.gemini/config/hooks.json), nested as {"hooks": {"PreToolUse": [...]}}.
// Its shell tool is run_command, with the command line in CommandLine. It
// takes the decisions allow, deny, ask and force_ask, rewrites through
// overwrite.CommandLine, and blocks on {} or an answer it cannot read.
//
// From those published facts only: agy is not on npm, and guard has not
// run against it. The input is read as Claude Code's shape, with agy's
// tool names; a deny is exit 2 with the reason on stderr and nothing on
// stdout, which agy, blocking on what it cannot read, blocks.

import (
	"encoding/json"
	"fmt"

	"guard/engine"
)

// Antigravity is the adapter for Antigravity CLI.
type Antigravity struct{}

var antigravityEvents = map[string]string{"PreToolUse": "PreToolUse", "PostToolUse": "PostToolUse", "SessionEnd": "SessionEnd"}

// Decode reads a PreToolUse, PostToolUse or SessionEnd input.
func (Antigravity) Decode(data []byte) (*Event, error) {
	ev, err := decodeEvent(data, "Antigravity", antigravityEvents)
	if err != nil || ev.Name == "SessionEnd" {
		return ev, err
	}
	ev.Call.Kind = engine.KindTool
	if ev.Call.Tool == "run_command" {
		cmd, err := inputString(ev.Call.Tool, ev.Raw, "CommandLine")
		if err != nil {
			return nil, err
		}
		ev.Call.Kind, ev.Call.Input = engine.KindShell, engine.Input{Command: cmd}
	}
	return ev, nil
}

type antigravityOutput struct {
	Decision  string            `json:"decision"`
	Reason    string            `json:"reason,omitempty"`
	Overwrite map[string]string `json:"overwrite,omitempty"`
}

// Answer renders a decision for Antigravity: allow and ask as JSON (a
// rewrite in overwrite.CommandLine), a deny as exit 2.
func (Antigravity) Answer(ev *Event, d *engine.Decision, where string) Answer {
	if ev.Name != "PreToolUse" {
		return Answer{}
	}
	out := antigravityOutput{}
	switch d.Verdict {
	case engine.Allow:
		out.Decision = "allow"
	case engine.Ask:
		out.Decision, out.Reason = "ask", Reason(d, where)
	default:
		return Answer{Deny: Deny(d, where)}
	}
	if d.Rewrite != nil {
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

// ConfigPaths are Antigravity's hooks and settings.
func (Antigravity) ConfigPaths() []string {
	return []string{"{project}/.agents/**", "{project}/.agents", "~/.gemini/config/**"}
}
