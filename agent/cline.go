// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

// Cline's CLI runs guard through a hook file: an executable named after
// the event, PreToolUse, in a hooks directory it reads on every task
// (the project's .clinerules/hooks/ or .cline/hooks/, the user's
// ~/.cline/hooks/ or ~/Documents/Cline/Hooks/). Hooks are on with no
// setting. It gives the file one JSON object on stdin: hookName
// "tool_call", taskId, workspaceRoots (the first is where commands run),
// and tool_call, the tool's id, name and input as the tool will get it
// (preToolUse holds the same input with every value a string). It reads
// the answer from stdout, one JSON object:
//
//	{"cancel": false, "overrideInput": {...}, "errorMessage": "..."}
//
// overrideInput replaces the tool's input: the rewrite into guard run.
// cancel stops the whole task, and its errorMessage reaches nobody; with
// cancel false, errorMessage is added to the conversation after the
// tool's result, for the model. So guard denies one of Cline's own tools
// that checks its input by giving it an input it refuses (null), with
// the reason in errorMessage: the tool does nothing, the model reads why,
// and the task goes on. A tool guard has not seen refuse null (an MCP
// tool, a team tool) is denied by cancel, which stops the task. Cline has
// no ask in a hook's answer ("review" is ignored), so guard refuses what
// it would ask.
//
// Cline ignores the hook's exit code: exit 2 with nothing on stdout, a
// crash, output that is not JSON, and a hook that runs past its 120 s
// timeout all let the call run. So guard hook answers a deny as JSON on
// stdout, also one it gives before deciding (DenyOutput), and exits 2 as
// it does for every agent; and the hook file guard init writes answers
// with cancel where guard hook gives no answer (guard missing, a crash,
// its deadline).
//
// Run against the Cline CLI 3.0.65 (npm cline, headless: cline "task";
// see e2e/cline_test.go): the input; the tools and their fields; cancel,
// the null input with errorMessage, overrideInput, review; exit 2 with no
// output and output that is not JSON running the call; the project's
// .clinerules/hooks and the user's ~/.cline/hooks. Its older documented
// protocol (tool names execute_command, read_file, ...; a non-zero exit
// blocks; the hooks_enabled setting) is not what 3.0.65 does. Read from
// its source, not run: the timeout and that it runs the call, the other
// hooks directories, the file names with an extension (PreToolUse.sh,
// ...) that run too, and that of several hooks' answers the last
// overrideInput wins and any cancel cancels.

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"guard/engine"
)

// Cline is the adapter for the Cline CLI.
type Cline struct{}

// clineRefusesNull are Cline's tools that check their input and refuse
// null, doing nothing (checked with 3.0.65): a deny of these is the null
// input and the reason for the model.
var clineRefusesNull = []string{"run_commands", "read_files", "editor", "search_codebase", "fetch_web_content"}

// Decode reads a PreToolUse (tool_call) input.
func (Cline) Decode(data []byte) (*Event, error) {
	raw, err := readObject(data)
	if err != nil {
		return nil, err
	}
	name, err := stringField(raw, "hookName", true)
	if err != nil {
		return nil, err
	}
	if name != "tool_call" {
		return nil, deny("guard hook decides Cline's tool calls (its tool_call hook, the PreToolUse file); it does not take %q", name)
	}
	ev := &Event{Name: "PreToolUse"}
	if ev.Session, err = stringField(raw, "taskId", false); err != nil {
		return nil, err
	}
	roots, _ := raw["workspaceRoots"].([]any)
	if len(roots) == 0 {
		return nil, deny("the hook input has no workspaceRoots")
	}
	cwd, _ := roots[0].(string)
	if !filepath.IsAbs(cwd) {
		return nil, deny("the hook input's workspace root %q is not an absolute path", cwd)
	}
	tc, ok := raw["tool_call"].(map[string]any)
	if !ok {
		return nil, deny("the hook input's tool_call is not a JSON object")
	}
	tool, err := stringField(tc, "name", true)
	if err != nil {
		return nil, err
	}
	if tool == "" {
		return nil, deny("the hook input's tool name is empty")
	}
	if id, ok := tc["id"].(string); ok && len(id) <= MaxCallID {
		ev.CallID = id
	}
	ev.Raw, _ = tc["input"].(map[string]any)
	ev.Call = engine.Call{Kind: engine.KindTool, Tool: tool, Cwd: cwd, Session: ev.Session}
	if ev.Call.Kind, ev.Call.Input, err = clineInput(tool, ev.Raw); err != nil {
		return nil, err
	}
	return ev, nil
}

// clineInput returns what the engine judges of one of Cline's tools: a
// call of run_commands, read_files or fetch_web_content with one command,
// file or URL (Cline runs several concurrently, and guard judges one per
// call), editor's and read_files' absolute paths, search_codebase's
// queries over the workspace; other tools by name. The input must have
// only the fields guard reads: Cline also takes other shapes (a command
// with its argv, run without a shell), which guard refuses.
func clineInput(tool string, in map[string]any) (engine.Kind, engine.Input, error) {
	var out engine.Input
	list := func(key string, allowed ...string) ([]any, error) {
		if in == nil {
			return nil, deny("the %s call's input is not a JSON object", tool)
		}
		for k := range in {
			if k != key && !slices.Contains(allowed, k) {
				return nil, deny("the %s call has a field %q guard does not judge", tool, k)
			}
		}
		l, ok := in[key].([]any)
		if !ok || len(l) == 0 {
			return nil, deny("the %s call's %q is not a list guard can judge", tool, key)
		}
		return l, nil
	}
	one := func(key, what string) (any, error) {
		l, err := list(key)
		if err != nil {
			return nil, err
		}
		if len(l) != 1 {
			return nil, &Denial{Why: fmt.Sprintf("the %s call names %d %ss; guard judges one per call", tool, len(l), what),
				Hints: []string{fmt.Sprintf("make one %s call for each %s", tool, what)}}
		}
		return l[0], nil
	}
	absPath := func(m map[string]any) (string, error) {
		p, err := inputString(tool, m, "path")
		if err == nil && p == "" {
			err = deny("the %s call names no path", tool)
		}
		if err == nil && !filepath.IsAbs(p) {
			return "", &Denial{Why: fmt.Sprintf("the %s call's path %q is not absolute", tool, p), Hints: []string{"give the file's absolute path"}}
		}
		return p, err
	}
	switch tool {
	case "run_commands":
		v, err := one("commands", "command")
		if err != nil {
			return "", out, err
		}
		s, ok := v.(string)
		if !ok || s == "" {
			return "", out, deny("the run_commands call's command is not a string guard can judge (a command with its argv runs without a shell)")
		}
		out.Command = s
		return engine.KindShell, out, nil
	case "read_files":
		v, err := one("files", "file")
		if err != nil {
			return "", out, err
		}
		f, ok := v.(map[string]any)
		if !ok {
			return "", out, deny("the read_files call's file is not a JSON object")
		}
		for k := range f {
			if k != "path" && k != "start_line" && k != "end_line" {
				return "", out, deny("the read_files call's file has a field %q guard does not judge", k)
			}
		}
		out.Path, err = absPath(f)
		return engine.KindRead, out, err
	case "editor":
		if in == nil {
			return "", out, deny("the editor call's input is not a JSON object")
		}
		for k := range in {
			if !slices.Contains([]string{"path", "new_text", "old_text", "insert_line"}, k) {
				return "", out, deny("the editor call has a field %q guard does not judge", k)
			}
		}
		p, err := absPath(in)
		out.Path = p
		// editor replaces or inserts text in a file, or makes it.
		return engine.KindEdit, out, err
	case "search_codebase":
		l, err := list("queries")
		if err != nil {
			return "", out, err
		}
		var qs []string
		for _, q := range l {
			s, ok := q.(string)
			if !ok {
				return "", out, deny("the search_codebase call's query is not a string")
			}
			qs = append(qs, s)
		}
		out.Pattern = strings.Join(qs, "\n") // over the whole workspace
		return engine.KindSearch, out, nil
	case "fetch_web_content":
		v, err := one("requests", "URL")
		if err != nil {
			return "", out, err
		}
		r, ok := v.(map[string]any)
		if !ok {
			return "", out, deny("the fetch_web_content call's request is not a JSON object")
		}
		out.URL, err = inputString(tool, r, "url")
		return engine.KindFetch, out, err
	}
	return engine.KindTool, out, nil
}

// clineOutput is Cline's answer. OverrideInput is written even when it
// is null: that is the deny of a tool of clineRefusesNull.
type clineOutput struct {
	Cancel        bool   `json:"cancel"`
	OverrideInput any    `json:"overrideInput,omitempty"`
	ErrorMessage  string `json:"errorMessage,omitempty"`
}

// Answer renders a decision for Cline: allow as cancel false, with the
// command rewritten for run_commands; ask and deny as a deny, which
// guard hook also writes on stderr with exit 2.
func (Cline) Answer(ev *Event, d *engine.Decision, where string) Answer {
	switch d.Verdict {
	case engine.Ask:
		return clineDeny(ev, &Denial{Why: Reason(d, where) + "; Cline's hooks have no ask, so guard refuses what it would ask",
			Hints: []string{d.Hint()}})
	case engine.Allow:
	default:
		return clineDeny(ev, Deny(d, where))
	}
	var data []byte
	var err error
	if d.Rewrite == nil {
		data, err = json.Marshal(clineOutput{})
	} else {
		if ev.Call.Tool != "run_commands" || ev.Call.Kind != engine.KindShell || *d.Rewrite != (engine.Input{Command: d.Rewrite.Command}) {
			return clineDeny(ev, &Denial{Why: fmt.Sprintf("guard cannot rewrite the input of Cline's tool %s", ev.Call.Tool)})
		}
		data, err = json.Marshal(clineOutput{OverrideInput: map[string]any{"commands": []string{d.Rewrite.Command}}})
	}
	if err != nil {
		return clineDeny(ev, &Denial{Why: fmt.Sprintf("encoding the answer: %v", err)})
	}
	return Answer{Stdout: append(data, '\n')}
}

// clineDeny is Cline's deny of a denial: the null input and the reason
// for the model, for a tool that refuses null, else cancel, which stops
// the task; then the reason on stderr and exit 2, as every deny of guard
// hook.
func clineDeny(ev *Event, dn *Denial) Answer {
	msg := "guard: denied: " + oneLine(dn.Why)
	for _, h := range dn.Hints {
		if h != "" {
			msg += "\nguard: hint: " + oneLine(h)
		}
	}
	msg = Clip(msg, maxReason)
	var data []byte
	if slices.Contains(clineRefusesNull, ev.Call.Tool) {
		data = []byte(`{"cancel":false,"overrideInput":null,"errorMessage":` + jsonString(msg) + "}")
	} else {
		data = []byte(`{"cancel":true,"errorMessage":` + jsonString(msg) + "}")
	}
	return Answer{Stdout: append(data, '\n'), Deny: dn}
}

// DenyWriter is an adapter whose agent runs a call whose hook exits 2
// with nothing on stdout (Cline): guard hook writes DenyOutput for a deny
// it gives before the adapter answers, of the raw hook input.
type DenyWriter interface {
	DenyOutput(input []byte, dn *Denial) []byte
}

// DenyOutput is Cline's deny of a call guard hook refuses before it
// decides (an input guard cannot judge, a policy that does not load): as
// clineDeny answers it, by the tool's name, where the input has one.
func (Cline) DenyOutput(input []byte, dn *Denial) []byte {
	var raw struct {
		ToolCall struct {
			Name string `json:"name"`
		} `json:"tool_call"`
	}
	json.Unmarshal(input, &raw) // no name: cancel
	return clineDeny(&Event{Call: engine.Call{Tool: raw.ToolCall.Name}}, dn).Stdout
}

// jsonString is s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always encodes
	return string(b)
}

// ConfigPaths are Cline's hooks, rules, skills and settings (with its
// providers' keys), in the project and the user's home: where 3.0.65's
// storage paths (@cline/shared) put them, ~/Cline/Rules among them, and
// the directories $CLINE_DIR (in place of ~/.cline) and $CLINE_DATA_DIR
// name. The project's .agents/ and ~/.agents/ (skills, Agent Plugins) are
// other agents' too.
func (Cline) ConfigPaths() []string {
	return []string{"{project}/.clinerules/**", "{project}/.clinerules", "{project}/.cline/**", "{project}/.cline",
		"~/.cline/**", "~/Documents/Cline/**", "~/Cline/Rules/**", "~/Cline/Rules", "~/.agents/skills/**",
		"{$CLINE_DIR}/**", "{$CLINE_DATA_DIR}/**"}
}

// Reports is false: guard takes Cline's PreToolUse alone.
func (Cline) Reports() bool { return false }
