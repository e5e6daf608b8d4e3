// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"guard/engine"
)

func TestClaudeInput(t *testing.T) {
	for _, tc := range []struct {
		tool string
		in   map[string]any
		want engine.Input
	}{
		{"Bash", map[string]any{"command": "ls", "description": "list"}, engine.Input{Command: "ls"}},
		{"Read", map[string]any{"file_path": "/p/a"}, engine.Input{Path: "/p/a"}},
		// The tool writes notebook_path: a file_path beside it must not be
		// what guard judges.
		{"NotebookEdit", map[string]any{"notebook_path": "/home/u/.bashrc", "file_path": "/p/ok"}, engine.Input{Path: "/home/u/.bashrc"}},
		{"Write", map[string]any{"path": "/p/ok", "file_path": "/home/u/.bashrc"}, engine.Input{Path: "/home/u/.bashrc"}},
		{"Grep", map[string]any{"pattern": "x", "path": "/p"}, engine.Input{Path: "/p", Pattern: "x"}},
		{"WebFetch", map[string]any{"url": "https://go.dev/"}, engine.Input{URL: "https://go.dev/"}},
		// A tool guard does not know: one path field is read; two that
		// differ leave the path unknown, and a call that needs one is denied.
		{"mcp__fs__read", map[string]any{"path": "/p/a"}, engine.Input{Path: "/p/a"}},
		{"mcp__fs__read", map[string]any{"path": "/p/a", "file_path": "/home/u/.ssh/id_rsa"}, engine.Input{}},
	} {
		got, err := ClaudeInput(tc.tool, tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%s %v: got %+v, %v; want %+v", tc.tool, tc.in, got, err, tc.want)
		}
	}
	// A field the tool uses that is there but is not a non-empty string:
	// guard cannot tell what the tool makes of it (a Grep path of "" or
	// [] is not the working directory for sure).
	for _, tc := range []struct {
		tool string
		in   map[string]any
	}{
		{"Bash", map[string]any{"command": 5}},
		{"Bash", map[string]any{"command": []any{"ls"}}},
		{"Grep", map[string]any{"pattern": "x", "path": ""}},
		{"Grep", map[string]any{"pattern": "x", "path": []any{"/home/u/.ssh"}}},
		{"Glob", map[string]any{"pattern": 7}},
		{"Read", map[string]any{"file_path": nil}},
		{"mcp__fs__read", map[string]any{"path": map[string]any{}}},
	} {
		if got, err := ClaudeInput(tc.tool, tc.in); err == nil {
			t.Errorf("%s %v: read as %+v, want an error", tc.tool, tc.in, got)
		}
	}
}

func TestClaudeDecode(t *testing.T) {
	ev, err := Claude{}.Decode([]byte(`{"hook_event_name":"PreToolUse","session_id":"s1","cwd":"/p","tool_name":"Bash","tool_input":{"command":"git status"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Name != "PreToolUse" || ev.Session != "s1" || ev.Call.Tool != "Bash" || ev.Call.Cwd != "/p" || ev.Call.Input.Command != "git status" || ev.Call.Kind != "" {
		t.Errorf("decoded %+v", ev)
	}
	for _, bad := range []string{
		``, `[]`, `null`, `{}`, `{"cwd":"/p","tool_input":{}}`,
		`{"tool_name":"Bash","cwd":"p","tool_input":{}}`,
		`{"tool_name":"Bash","cwd":"/p","tool_input":[]}`,
		`{"tool_name":"Bash","cwd":"/p","tool_input":{}} {}`,
		`{"hook_event_name":"Stop","tool_name":"Bash","cwd":"/p","tool_input":{}}`,
		`{"tool_name":5,"cwd":"/p","tool_input":{}}`,
	} {
		if _, err := (Claude{}).Decode([]byte(bad)); err == nil {
			t.Errorf("%q: decoded, want an error", bad)
		} else if _, ok := err.(*Denial); !ok {
			t.Errorf("%q: error %T, want *Denial", bad, err)
		}
	}
}

func TestClaudeAnswer(t *testing.T) {
	ev := &Event{Name: "PreToolUse", Call: engine.Call{Tool: "Bash"}, Raw: map[string]any{"command": "go test ./...", "timeout": json.Number("60")}}
	leaf := engine.Leaf{Verdict: engine.Allow, Kind: "command", Text: "go test ./...", Why: "go test is allowed"}
	decode := func(t *testing.T, a Answer) map[string]any {
		t.Helper()
		if a.Deny != nil {
			t.Fatalf("denied: %s", a.Deny.Why)
		}
		var out struct {
			H map[string]any `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(a.Stdout, &out); err != nil || !strings.HasSuffix(string(a.Stdout), "}\n") {
			t.Fatalf("stdout %q: %v", a.Stdout, err)
		}
		return out.H
	}
	h := decode(t, Claude{}.Answer(ev, &engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{leaf}}, "policy default"))
	if h["permissionDecision"] != "allow" || h["hookEventName"] != "PreToolUse" || h["updatedInput"] != nil ||
		h["permissionDecisionReason"] != "guard (policy default): allowed: go test is allowed" {
		t.Errorf("allow: %v", h)
	}
	ask := leaf
	ask.Verdict, ask.Rule = engine.Ask, "go"
	if h := decode(t, Claude{}.Answer(ev, &engine.Decision{Verdict: engine.Ask, Leaves: []engine.Leaf{ask}}, "p")); h["permissionDecision"] != "ask" || !strings.HasSuffix(h["permissionDecisionReason"].(string), "(rule go)") {
		t.Errorf("ask: %v", h)
	}
	no := leaf
	no.Verdict, no.Why, no.Hint = engine.Deny, "go test -exec runs a program", "use go test without -exec"
	a := Claude{}.Answer(ev, &engine.Decision{Verdict: engine.Deny, Leaves: []engine.Leaf{no}}, "p")
	if a.Deny == nil || a.Stdout != nil || a.Deny.Why != "go test -exec runs a program (p)" || len(a.Deny.Hints) != 1 || a.Deny.Hints[0] != no.Hint {
		t.Errorf("deny: %+v", a)
	}
	// A rewritten command replaces the command, and the rest of the input
	// stays: Claude Code takes updatedInput as the whole input.
	rw := &engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{leaf}, Rewrite: &engine.Input{Command: "guard run -- go test ./..."}}
	h = decode(t, Claude{}.Answer(ev, rw, "p"))
	up, _ := h["updatedInput"].(map[string]any)
	if up["command"] != "guard run -- go test ./..." || up["timeout"] != float64(60) || ev.Raw["command"] != "go test ./..." {
		t.Errorf("rewrite: %v (raw %v)", h, ev.Raw)
	}
	// guard cannot rewrite a Write's input: it denies rather than run the
	// original.
	w := &Event{Name: "PreToolUse", Call: engine.Call{Tool: "Write"}, Raw: map[string]any{"file_path": "/p/x"}}
	if a := (Claude{}).Answer(w, &engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{leaf}, Rewrite: &engine.Input{Command: "x"}}, "p"); a.Deny == nil {
		t.Errorf("rewrite of Write: %+v, want a deny", a)
	}
	// A Grep's rewrite sets its glob field and keeps the rest; one that
	// would change what it searches, or a Grep's command, is refused.
	g, err := Claude{}.Decode([]byte(`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Grep","tool_input":{"pattern":"TODO","path":"src","glob":"*.go","output_mode":"content"}}`))
	if err != nil || !g.Call.SearchGlobs || g.Call.Input != (engine.Input{Path: "src", Pattern: "TODO", Glob: "*.go"}) {
		t.Fatalf("Grep decoded as %+v (SearchGlobs %v), %v", g.Call.Input, g.Call.SearchGlobs, err)
	}
	grw := &engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{leaf}, Rewrite: &engine.Input{Path: "src", Pattern: "TODO", Glob: "*.go !**/.env"}}
	h = decode(t, Claude{}.Answer(g, grw, "p"))
	up, _ = h["updatedInput"].(map[string]any)
	if want := map[string]any{"pattern": "TODO", "path": "src", "glob": "*.go !**/.env", "output_mode": "content"}; !reflect.DeepEqual(up, want) {
		t.Errorf("Grep rewrite: updatedInput %v, want %v", up, want)
	}
	for _, in := range []engine.Input{{Path: "/", Pattern: "TODO", Glob: "x"}, {Pattern: "TODO", Glob: "x"}, {Command: "x"}} {
		if a := (Claude{}).Answer(g, &engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{leaf}, Rewrite: &in}, "p"); a.Deny == nil {
			t.Errorf("Grep rewrite to %+v: %+v, want a deny", in, a)
		}
	}
	if _, err := (Claude{}).Decode([]byte(`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Grep","tool_input":{"pattern":"x","glob":["*.go"]}}`)); err == nil {
		t.Errorf("a Grep whose glob is not a string was decoded")
	}
	if a := (Claude{}).Answer(&Event{Name: "PostToolUse"}, &engine.Decision{Verdict: engine.Allow}, "p"); a.Deny != nil || a.Stdout != nil {
		t.Errorf("PostToolUse: %+v, want no answer", a)
	}
}

// TestClaudeAnswerShape checks the answer written without reflection
// against encoding/json's rendering of the same answer.
func TestClaudeAnswerShape(t *testing.T) {
	ev := &Event{Name: "PreToolUse", Call: engine.Call{Tool: "Bash"}}
	for _, tc := range []struct {
		verdict engine.Verdict
		why     string
	}{
		{engine.Allow, "git status is allowed"},
		{engine.Ask, `cat "a\b" <x> & y` + "\n\t\x01 \u2028 \xff"},
	} {
		d := &engine.Decision{Verdict: tc.verdict, Leaves: []engine.Leaf{{Verdict: tc.verdict, Kind: "command", Text: "x", Why: tc.why}}}
		got := Claude{}.Answer(ev, d, "policy default")
		want, err := json.Marshal(claudeOutput{HookSpecificOutput: claudeDecision{HookEventName: "PreToolUse",
			PermissionDecision: map[engine.Verdict]string{engine.Allow: "allow", engine.Ask: "ask"}[tc.verdict], PermissionDecisionReason: Reason(d, "policy default")}})
		if err != nil {
			t.Fatal(err)
		}
		if string(got.Stdout) != string(want)+"\n" {
			t.Errorf("%s: answer\n%s\nwant\n%s", tc.verdict, got.Stdout, want)
		}
	}
}

// TestClaudeUnderCopilot: Copilot CLI runs Claude Code's hooks (guard
// hook --agent claude from .claude/settings.json) with its own tools'
// arguments under Claude Code's names. guard reads them as Copilot's:
// a Glob of ~/.ssh given in paths is judged as that directory, not as the
// project, and a Read's path is the file read.
func TestClaudeUnderCopilot(t *testing.T) {
	for _, tc := range []struct {
		file string
		want engine.Input
	}{
		{"copilot/claude-compatible/pretooluse-glob.json", engine.Input{Path: "/tmp/e2e/home/.ssh", Pattern: "**/*"}},
		{"copilot/claude-compatible/pretooluse-read.json", engine.Input{Path: "/tmp/e2e/proj/hello.txt"}},
	} {
		ev, err := Claude{}.Decode(readGolden(t, tc.file))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if ev.Call.Input != tc.want {
			t.Errorf("%s: input %+v, want %+v", tc.file, ev.Call.Input, tc.want)
		}
	}
	// Claude Code's own Grep never has paths: another agent's field is
	// refused, not ignored.
	if _, err := ClaudeInput("Grep", map[string]any{"pattern": "x", "paths": []any{"/home/u/.ssh"}}); err == nil {
		t.Error("a Grep with paths was read")
	}
}
