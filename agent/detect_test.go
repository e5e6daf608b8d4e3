// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"guard/engine"
	"guard/policy"
)

// readGolden returns a hook input in testdata/. The files under
// testdata/claude, testdata/gemini and testdata/codex are what the real
// clients sent guard in the e2e runs (Claude Code 2.1.332, Gemini CLI
// 0.61.0, Codex CLI 0.169.0), with only the test's temporary directory
// renamed /tmp/e2e.
func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestDetectGolden: every golden input is its agent's, by its directory.
func TestDetectGolden(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
	if err != nil || len(names) < 20 {
		t.Fatalf("golden inputs: %d, %v", len(names), err)
	}
	for _, name := range names {
		want := filepath.Base(filepath.Dir(name))
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := Detect(data); got != want {
			t.Errorf("%s: Detect = %q, want %q", name, got, want)
		}
	}
}

// detectCases are hook inputs and the agent Detect names for each.
var detectCases = []struct {
	in, want string
}{
	// Gemini CLI: its own events, whatever else the input holds.
	{`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{},"cwd":"/p"}`, "gemini"},
	{`{"hook_event_name":"AfterTool"}`, "gemini"},
	{`{"hook_event_name":"BeforeModel","llm_request":{}}`, "gemini"},
	{`{"hook_event_name":"BeforeToolSelection"}`, "gemini"},
	{`{"hook_event_name":"BeforeTool","turn_id":"t"}`, "gemini"},
	// Shared events with Gemini CLI's timestamp.
	{`{"hook_event_name":"SessionStart","timestamp":"2026-12-01T15:32:23.509Z","source":"startup"}`, "gemini"},
	{`{"hook_event_name":"SessionEnd","timestamp":"2026-12-01T15:32:24.327Z","reason":"exit"}`, "gemini"},
	{`{"hook_event_name":"Notification","timestamp":"x"}`, "gemini"},
	// A timestamp on a tool event is not Gemini CLI's (Copilot's
	// Claude-compatible input has one).
	{`{"hook_event_name":"PreToolUse","timestamp":"x","tool_name":"Bash"}`, "claude"},
	{`{"hook_event_name":"SessionStart","timestamp":5}`, "claude"},
	// Qwen Code: tool_call_id, on its tool events. Its SessionEnd has
	// Gemini CLI's timestamp, and the two adapters read it alike.
	{`{"hook_event_name":"PreToolUse","timestamp":"x","permission_mode":"yolo","tool_name":"run_shell_command","tool_call_id":"call_1"}`, "qwen"},
	{`{"hook_event_name":"PostToolUse","tool_call_id":null}`, "qwen"},
	{`{"hook_event_name":"SessionEnd","timestamp":"2026-12-07T02:08:02.275Z","session_id":"s","transcript_path":"/t","cwd":"/p","permission_mode":"yolo"}`, "gemini"},
	// Codex: turn_id, on any event, even null.
	{`{"hook_event_name":"PreToolUse","turn_id":"t","tool_name":"Bash"}`, "codex"},
	{`{"hook_event_name":"PostToolUse","turn_id":"t"}`, "codex"},
	{`{"turn_id":null}`, "codex"},
	// Codex's SessionEnd has no turn_id: Claude Code's adapter reads it
	// alike.
	{`{"cwd":"/p","hook_event_name":"SessionEnd","reason":"other","session_id":"s","transcript_path":null}`, "claude"},
	// Claude Code, and any other object.
	{`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{},"cwd":"/p","tool_use_id":"t","permission_mode":"default"}`, "claude"},
	{`{"hook_event_name":"SessionEnd","reason":"clear"}`, "claude"},
	{`{}`, "claude"},
	{`{"hook_event_name":5}`, "claude"},
	{` {"tool_name":"Bash"} ` + "\n", "claude"},
	// Kiro CLI: camelCase preToolUse without Cursor's conversation_id.
	{`{"hook_event_name":"preToolUse","cwd":"/p","tool_name":"execute_bash","tool_input":{}}`, "kiro"},
	{`{"hook_event_name":"preToolUse","conversation_id":"c","tool_name":"Shell","tool_input":{}}`, "cursor"},
	// Windsurf: agent_action_name, whatever its event; goose: event and
	// matcher_context.
	{`{"agent_action_name":"post_cascade_response","tool_info":{}}`, "windsurf"},
	{`{"event":"PreToolUse","matcher_context":"developer__shell","tool_name":"developer__shell"}`, "goose"},
	{`{"event":"PreToolUse","tool_name":"Bash"}`, "claude"},
	// Not one JSON object.
	{``, ""},
	{` `, ""},
	{`null`, ""},
	{`[]`, ""},
	{`"BeforeTool"`, ""},
	{`{"hook_event_name":"BeforeTool"} {}`, ""},
	{`{"hook_event_name":"BeforeTool"`, ""},
}

func init() {
	seen := map[string]bool{}
	for _, tc := range detectCases {
		if seen[tc.in] {
			panic(fmt.Sprintf("detectCases: duplicate case %q", tc.in))
		}
		seen[tc.in] = true
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range detectCases {
		if got := Detect([]byte(tc.in)); got != tc.want {
			t.Errorf("Detect(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// noFS is a file system with nothing in it: the default policy's verdicts
// in the tests do not hang on the machine's files.
type noFS struct{}

func (noFS) Stat(string) (fs.FileInfo, error)      { return nil, fs.ErrNotExist }
func (noFS) Lstat(string) (fs.FileInfo, error)     { return nil, fs.ErrNotExist }
func (noFS) Readlink(string) (string, error)       { return "", fs.ErrNotExist }
func (noFS) ReadDir(string) ([]fs.DirEntry, error) { return nil, fs.ErrNotExist }
func (noFS) Open(string) (fs.File, error)          { return nil, fs.ErrNotExist }

// decideDefault decodes a hook input with ad, decides its call with the
// embedded default policy as guard hook would (the project is the working
// directory, HOME is /tmp/e2e/home, every agent's configuration is
// protected; with sandbox, guard run is there to rewrite into), and
// returns the event and the adapter's answer.
func decideDefault(t *testing.T, ad Adapter, data []byte, sandbox bool) (*Event, Answer) {
	t.Helper()
	ev, err := ad.Decode(data)
	if err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
	return ev, answerDefault(t, ad, ev, sandbox)
}

// answerDefault decides a decoded event's call as decideDefault does,
// and returns the adapter's answer.
func answerDefault(t *testing.T, ad Adapter, ev *Event, sandbox bool) Answer {
	t.Helper()
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	call := ev.Call
	call.Project, call.Home, call.Temp, call.Guard = call.Cwd, "/tmp/e2e/home", "/tmp", "/usr/local/bin/guard"
	call.AgentPaths, call.FS = ConfigPaths(), noFS{}
	if sandbox {
		call.Run = []string{"/usr/local/bin/guard", "run"}
	}
	e := engine.Engine{Layers: &policy.Layers{User: p}}
	d := e.Decide(call)
	return ad.Answer(ev, &d, "policy default")
}

// answerString renders an answer as guard hook does, for comparing:
// "exit 0: " and stdout, "exit 0, silent", "exit 2: " and the reason, or
// "exit 2 after: " and stdout for a deny with an answer.
func answerString(a Answer) string {
	switch {
	case a.Deny != nil && a.Silent:
		return fmt.Sprintf("a silent deny: %+v", a)
	case a.Deny != nil && a.Stdout != nil:
		return "exit 2 after: " + string(a.Stdout)
	case a.Deny != nil:
		return "exit 2: " + a.Deny.Why
	case a.Silent && a.Stdout == nil:
		return "exit 0, silent"
	case a.Silent:
		return fmt.Sprintf("silent with stdout %q", a.Stdout)
	}
	return "exit 0: " + string(a.Stdout)
}

// TestCallID: the id of the tool call is read from the hook input where
// the agent sends one (tool_use_id, on Claude Code's and Codex's tool
// events), and is "" where it sends none or one guard does not keep.
func TestCallID(t *testing.T) {
	long := strings.Repeat("x", MaxCallID+1)
	for _, tc := range []struct {
		agent, in, want string
	}{
		// What the real agents sent.
		{"claude", "@claude/pretooluse-bash.json", "toolu_e2e_1"},
		{"claude", "@claude/permissionrequest-bash.json", ""},
		{"codex", "@codex/pretooluse-bash.json", "call_1"},
		{"codex", "@codex/posttooluse-bash.json", "call_1"},
		{"codex", "@codex/pretooluse-apply_patch.json", "call_3"},
		{"gemini", "@gemini/beforetool-run_shell_command.json", ""},
		{"claude", "@copilot/claude-compatible/pretooluse-bash.json", ""},
		// An id that is not a string, or is too long, is not kept; the
		// call is still decided.
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/p","tool_use_id":7}`, ""},
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/p","tool_use_id":null}`, ""},
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/p","tool_use_id":"` + long + `"}`, ""},
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/p","tool_use_id":"` + long[1:] + `"}`, long[1:]},
	} {
		data := []byte(tc.in)
		if name, ok := strings.CutPrefix(tc.in, "@"); ok {
			data = readGolden(t, name)
		}
		ev, err := Adapters()[tc.agent].Decode(data)
		if err != nil {
			t.Errorf("%s: %v", tc.in[:min(len(tc.in), 80)], err)
			continue
		}
		if ev.CallID != tc.want {
			t.Errorf("%s: CallID = %.40q, want %.40q", tc.in[:min(len(tc.in), 80)], ev.CallID, tc.want)
		}
	}
}
