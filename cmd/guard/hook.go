// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

// How guard hook talks to the agent (the rules of this file):
//
//   - Allow and ask: exit 0 and one JSON object on stdout, nothing else.
//   - Deny: exit 2, nothing on stdout, and on stderr one line
//     "guard: denied: WHY" followed by "guard: hint: ..." lines that say what
//     is allowed instead. Claude Code hands stderr to the model, so it is
//     written for the model: what was denied, which rule, what to do.
//   - Every error, a panic, input over a bound and a missed deadline are
//     denies. No other exit code ever leaves this verb: in Claude Code only
//     exit 2 blocks, and exit 1 would let the call run.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"guard/rules"
)

// maxHookInput bounds the JSON read from stdin. A Write call carries a whole
// file; larger input is denied.
const maxHookInput = 4 << 20 // 4 MiB

// defaultDeadline is how long guard hook may take before it denies. A
// decision takes milliseconds; Claude Code would wait 600 s, and a hook that
// times out there lets the call run.
const defaultDeadline = 500 * time.Millisecond

// maxReason bounds the reason Claude Code shows; it cuts longer strings.
const maxReason = 4000

type hookOutput struct {
	HookSpecificOutput hookDecision `json:"hookSpecificOutput"`
}

type hookDecision struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// denial is a deny with its reason and hints, as the hook writes it.
type denial struct {
	why   string
	hints []string
}

func (d *denial) Error() string { return d.why }

func deny(format string, a ...any) *denial {
	return &denial{why: fmt.Sprintf(format, a...)}
}

func runHook(ctx context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("hook", s)
	fs.SetOutput(io.Discard) // the deny line carries the error; stderr holds nothing else
	config := fs.String("config", "", "policy `file` (default: .claude/guard.toml in the project, else the embedded default)")
	deadline := fs.Duration("deadline", defaultDeadline, "deny if the decision takes longer than this")
	readOnly := fs.Bool("read-only", false, "read-only mode: allow only reading tools, whatever the policy says")
	if err := fs.Parse(args); err != nil {
		return writeDeny(s, deny("bad hook arguments: %v", err))
	}
	if fs.NArg() > 0 {
		return writeDeny(s, deny("guard hook takes no arguments, got %q", fs.Arg(0)))
	}
	if *deadline <= 0 {
		return writeDeny(s, deny("--deadline must be positive"))
	}

	type answer struct {
		out *hookOutput
		err error
	}
	done := make(chan answer, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- answer{err: deny("internal error: %v", r)}
			}
		}()
		out, err := decideHook(s.in, env, *config, *readOnly)
		done <- answer{out, err}
	}()
	timer := time.NewTimer(*deadline)
	defer timer.Stop()
	select {
	case a := <-done:
		if a.err != nil {
			return writeDeny(s, a.err)
		}
		if a.out == nil {
			return nil // PostToolUse: nothing to answer
		}
		data, err := json.Marshal(a.out)
		if err != nil {
			return writeDeny(s, deny("encoding the answer: %v", err))
		}
		if _, err := s.out.Write(append(data, '\n')); err != nil {
			return writeDeny(s, deny("writing the answer: %v", err))
		}
		return nil
	case <-timer.C:
		return writeDeny(s, &denial{why: fmt.Sprintf("the decision took longer than the %s deadline", *deadline),
			hints: []string{"split the command into smaller ones"}})
	case <-ctx.Done():
		return writeDeny(s, deny("cancelled: %v", ctx.Err()))
	}
}

// writeDeny writes a deny to stderr and returns the exit error for it.
func writeDeny(s stdio, err error) error {
	var d *denial
	if !errors.As(err, &d) {
		d = &denial{why: err.Error()}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "guard: denied: %s\n", clip(oneLine(d.why), maxReason))
	for _, h := range d.hints {
		if h != "" {
			fmt.Fprintf(&b, "guard: hint: %s\n", clip(oneLine(h), maxReason))
		}
	}
	io.WriteString(s.err, b.String())
	return &exitError{code: 2}
}

// hookInput holds the fields of Claude Code's PreToolUse input that guard
// uses. Field names are matched exactly; others are ignored.
type hookInput struct {
	event     string
	session   string
	toolName  string
	toolInput map[string]any
	cwd       string
}

func decodeHookInput(r io.Reader) (*hookInput, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxHookInput+1))
	if err != nil {
		return nil, deny("reading the hook input: %v", err)
	}
	if len(data) > maxHookInput {
		return nil, deny("the hook input is larger than %d bytes", maxHookInput)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, deny("the hook input is empty; guard hook reads a PreToolUse call as JSON on stdin")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, deny("the hook input is not a JSON object: %v", err)
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return nil, deny("the hook input has data after its JSON object")
	}
	if raw == nil {
		return nil, deny("the hook input is not a JSON object")
	}
	in := &hookInput{}
	str := func(key string, required bool) (string, error) {
		v, ok := raw[key]
		if !ok {
			if required {
				return "", deny("the hook input has no %q field", key)
			}
			return "", nil
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", deny("the hook input's %q field is not a string", key)
		}
		return s, nil
	}
	if in.event, err = str("hook_event_name", false); err != nil {
		return nil, err
	}
	if in.event != "" && in.event != "PreToolUse" && in.event != "PostToolUse" {
		return nil, deny("guard hook decides PreToolUse calls, not %q", in.event)
	}
	if in.session, err = str("session_id", false); err != nil {
		return nil, err
	}
	if in.toolName, err = str("tool_name", true); err != nil {
		return nil, err
	}
	if in.toolName == "" {
		return nil, deny("the hook input's tool_name is empty")
	}
	if in.cwd, err = str("cwd", true); err != nil {
		return nil, err
	}
	if !filepath.IsAbs(in.cwd) {
		return nil, deny("the hook input's cwd %q is not an absolute path", in.cwd)
	}
	ti, ok := raw["tool_input"]
	if !ok {
		return nil, deny("the hook input has no \"tool_input\" field")
	}
	tdec := json.NewDecoder(bytes.NewReader(ti))
	tdec.UseNumber()
	if err := tdec.Decode(&in.toolInput); err != nil || in.toolInput == nil {
		return nil, deny("the hook input's tool_input is not a JSON object")
	}
	return in, nil
}

// decideHook reads the call, loads the policies and decides. For a
// PostToolUse call it records that a tool of session tier ran, and answers
// nothing.
func decideHook(r io.Reader, env getenv, config string, readOnly bool) (*hookOutput, error) {
	in, err := decodeHookInput(r)
	if err != nil {
		return nil, err
	}
	project := projectDir(env, in.cwd)
	layers, err := loadLayers(config, project, env)
	if err != nil {
		return nil, &denial{why: fmt.Sprintf("the policy does not load, so every call is denied: %v", err),
			hints: []string{"ask the user to fix the policy file; guard check --config FILE shows the error"}}
	}
	state := sessionFile(env, in.session)
	if in.event == "PostToolUse" {
		if state != "" && layers.SessionTool(in.toolName) {
			recordSession(state, in.toolName)
		}
		return nil, nil
	}
	d := layers.Decide(rules.Call{
		Tool:     in.toolName,
		Input:    in.toolInput,
		Cwd:      in.cwd,
		Project:  project,
		Home:     env("HOME"),
		Temp:     os.TempDir(),
		Guard:    guardBinary(),
		ReadOnly: readOnly,
		Approved: sessionApproved(state),
	})
	where := "policy " + layers.Name()
	if d.ReadOnly {
		where += ", read-only mode"
	}
	leaf := d.Deciding()
	switch d.Verdict {
	case rules.Allow:
		return answer("allow", fmt.Sprintf("guard (%s): allowed: %s", where, d.Reason())), nil
	case rules.Ask:
		reason := fmt.Sprintf("guard (%s): needs approval: %s", where, d.Reason())
		if leaf.Rule != "" {
			reason += fmt.Sprintf(" (rule %s)", leaf.Rule)
		}
		return answer("ask", reason), nil
	}
	why := d.Reason()
	if leaf.Rule != "" {
		why += fmt.Sprintf(" (rule %s, %s)", leaf.Rule, where)
	} else {
		why += fmt.Sprintf(" (%s)", where)
	}
	return nil, &denial{why: why, hints: []string{d.Hint()}}
}

func answer(decision, reason string) *hookOutput {
	return &hookOutput{HookSpecificOutput: hookDecision{
		HookEventName:            "PreToolUse",
		PermissionDecision:       decision,
		PermissionDecisionReason: clip(oneLine(reason), maxReason),
	}}
}

// clip shortens s to at most n bytes, on a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
