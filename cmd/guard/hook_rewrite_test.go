// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"guard/audit"
	"guard/sandbox"
)

// rewriteTestAgent is how one agent sends a shell call before it runs,
// where its answer carries guard's rewrite, and how it reports the
// rewritten call in its later events.
type rewriteTestAgent struct {
	pre     func(session, cwd, command string) map[string]any
	rewrite []string // the path of the rewritten input, or of its command, in guard's answer
	// later returns the agent's later event (guard's name for it) for the
	// input guard's answer gave it.
	later map[string]func(session, cwd string, input map[string]any) map[string]any
}

// rewriteTestAgents are the agents guard speaks, as they send a shell call
// and report it: from the inputs the real agents sent (agent/testdata),
// where there are any.
func rewriteTestAgents(t *testing.T) map[string]rewriteTestAgent {
	// from reads one of agent/testdata's real inputs, with its session, cwd
	// and tool_input changed.
	from := func(file string) func(session, cwd string, input map[string]any) map[string]any {
		return func(session, cwd string, input map[string]any) map[string]any {
			data, err := os.ReadFile(filepath.Join("..", "..", "agent", "testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			m["session_id"], m["cwd"], m["tool_input"] = session, cwd, input
			return m
		}
	}
	command := func(make func(session, cwd string, input map[string]any) map[string]any) func(session, cwd, command string) map[string]any {
		return func(session, cwd, command string) map[string]any {
			return make(session, cwd, map[string]any{"command": command, "description": "run it"})
		}
	}
	claudePost := func(session, cwd string, input map[string]any) map[string]any {
		m := from("claude/pretooluse-bash.json")(session, cwd, input)
		m["hook_event_name"] = "PostToolUse"
		m["tool_response"] = map[string]any{"stdout": "ok\n", "stderr": "", "interrupted": false, "isImage": false}
		return m
	}
	return map[string]rewriteTestAgent{
		"claude": {
			pre:     command(from("claude/pretooluse-bash.json")),
			rewrite: []string{"hookSpecificOutput", "updatedInput"},
			later: map[string]func(session, cwd string, input map[string]any) map[string]any{
				"PostToolUse":       claudePost,
				"PermissionRequest": from("claude/permissionrequest-bash.json"),
			},
		},
		"codex": {
			pre:     command(from("codex/pretooluse-bash.json")),
			rewrite: []string{"hookSpecificOutput", "updatedInput"},
			later: map[string]func(session, cwd string, input map[string]any) map[string]any{
				"PostToolUse":       from("codex/posttooluse-bash.json"),
				"PermissionRequest": from("codex/permissionrequest-bash.json"),
			},
		},
		"gemini": {
			pre:     command(from("gemini/beforetool-run_shell_command.json")),
			rewrite: []string{"hookSpecificOutput", "tool_input"},
			later: map[string]func(session, cwd string, input map[string]any) map[string]any{
				"PostToolUse": from("gemini/aftertool-run_shell_command.json"), // AfterTool
			},
		},
		"cursor": {
			pre: func(session, cwd, command string) map[string]any {
				return map[string]any{"hook_event_name": "preToolUse", "conversation_id": session, "workspace_roots": []any{cwd},
					"cwd": cwd, "tool_name": "Shell", "tool_input": map[string]any{"command": command}}
			},
			rewrite: []string{"updated_input"},
		},
		"copilot": {
			pre: func(session, cwd, command string) map[string]any {
				return map[string]any{"sessionId": session, "timestamp": 1796146199719, "cwd": cwd, "toolName": "bash",
					"toolArgs": map[string]any{"command": command, "description": "run it"}}
			},
			rewrite: []string{"modifiedArgs"},
		},
		"antigravity": {
			pre: func(session, cwd, command string) map[string]any {
				return map[string]any{"conversationId": session, "stepIdx": 3, "workspacePaths": []any{cwd},
					"toolCall": map[string]any{"name": "run_command", "args": map[string]any{"CommandLine": command, "Cwd": cwd}}}
			},
			rewrite: []string{"overwrite", "CommandLine"},
		},
	}
}

// rewriteTestEnv is a home with engine's testdata/valid/sandboxed.toml as
// the user's policy (every allowed shell command runs under guard run;
// make integration in its profile net), and a project in it.
func rewriteTestEnv(t *testing.T) (env map[string]string, proj string) {
	t.Helper()
	if err := sandbox.Available(); err != nil {
		t.Skipf("guard run cannot confine a command here, so guard rewrites none: %v", err)
	}
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	for _, d := range []string{filepath.Join(home, ".config", "guard"), filepath.Join(proj, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	policy, err := os.ReadFile(filepath.Join("..", "..", "engine", "testdata", "valid", "sandboxed.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "guard", "guard.toml"), policy, 0o644); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"HOME": home}, proj
}

// rewriteTestHook runs guard hook on an input, and returns its answer.
func rewriteTestHook(t *testing.T, env map[string]string, args []string, in map[string]any) (code int, stdout string) {
	t.Helper()
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := hookTestRun(t, append([]string{"hook"}, args...), string(data), env)
	if code != 0 && code != 2 || stderr != "" && code == 0 {
		t.Fatalf("guard hook %s: exit %d, stdout %q, stderr %q", data, code, stdout, stderr)
	}
	return code, stdout
}

// rewriteTestLog returns guard log --json: each line and its outcome.
func rewriteTestLog(t *testing.T, env map[string]string) []rewriteTestLine {
	t.Helper()
	code, stdout, stderr := hookTestRun(t, []string{"log", "--json"}, "", env)
	if code != 0 || stderr != "" {
		t.Fatalf("guard log --json: exit %d, stderr %q", code, stderr)
	}
	var out []rewriteTestLine
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		var l rewriteTestLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("guard log --json: %v: %s", err, sc.Text())
		}
		out = append(out, l)
	}
	return out
}

type rewriteTestLine struct {
	audit.Entry
	Outcome string `json:"outcome"`
}

// dig returns the value at path in a JSON object.
func dig(v any, path ...string) any {
	for _, k := range path {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

// TestHookLogsOwnRewrite: for each agent guard speaks, an allowed shell
// call is answered with its command rewritten to run under guard run (the
// engine's own rewrite, read from the answer), and each later event the
// agent reports that rewrite in is logged as the allowed call, in the
// sandbox's profile, with the call's rewrite digest: never as a command of
// its own, never denied. guard log says the call ran; for an agent that
// reports nothing after a call, that it ran unreported.
func TestHookLogsOwnRewrite(t *testing.T) {
	env, proj := rewriteTestEnv(t)
	agents := rewriteTestAgents(t)
	tests := []struct {
		agent    string
		args     []string // guard hook's flags
		command  string
		inner    string // the call the rewrite runs, as guard printed it
		profile  string
		events   []string // the later events that report the rewrite, in order
		outcome  string   // of the PreToolUse call, in guard log
		approved bool     // the agent's PermissionRequest gets guard's approval
	}{
		// Claude Code: PostToolUse, and PermissionRequest before it.
		{"claude", nil, "make show", "make show", "write", []string{"PostToolUse"}, "ran", false},
		{"claude", nil, "make   show", "make show", "write", []string{"PermissionRequest", "PostToolUse"}, "ran", false},
		{"claude", nil, "cd " + proj + "/sub && make integration", "cd " + proj + "/sub && make integration", "net", []string{"PostToolUse"}, "ran", false},
		{"claude", []string{"--read-only"}, "cat notes.txt", "cat notes.txt", "read-only", []string{"PostToolUse"}, "ran", false},
		{"claude", nil, "make show", "make show", "write", []string{"PermissionRequest"}, "not run", false},
		// Codex: PostToolUse, and PermissionRequest, which guard approves.
		{"codex", nil, "make show", "make show", "write", []string{"PermissionRequest", "PostToolUse"}, "ran", true},
		{"codex", []string{"--read-only"}, "cat notes.txt", "cat notes.txt", "read-only", []string{"PostToolUse"}, "ran", false},
		// Gemini CLI: AfterTool.
		{"gemini", nil, "make integration", "make integration", "net", []string{"PostToolUse"}, "ran", false},
		{"gemini", []string{"--read-only"}, "cat notes.txt", "cat notes.txt", "read-only", []string{"PostToolUse"}, "ran", false},
		// No event after a call: what guard allowed ran, unreported.
		{"cursor", nil, "make show", "", "write", nil, "ran, not reported", false},
		{"copilot", nil, "make integration", "", "net", nil, "ran, not reported", false},
		{"antigravity", []string{"--read-only"}, "cat notes.txt", "", "read-only", nil, "ran, not reported", false},
	}
	for i, tc := range tests {
		session := "rewrite-" + tc.agent + "-" + string(rune('a'+i))
		t.Logf("input: %s %v %q, then %v", tc.agent, tc.args, tc.command, tc.events)
		ag := agents[tc.agent]
		code, stdout := rewriteTestHook(t, env, append([]string{"--agent", tc.agent}, tc.args...), ag.pre(session, proj, tc.command))
		var ans map[string]any
		if code != 0 || json.Unmarshal([]byte(stdout), &ans) != nil {
			t.Fatalf("%s %q: exit %d, answer %q; want an allow", tc.agent, tc.command, code, stdout)
		}
		input, _ := dig(ans, ag.rewrite...).(map[string]any)
		reported, _ := dig(ans, ag.rewrite...).(string)
		if input != nil {
			reported, _ = input["command"].(string)
		}
		if !strings.Contains(reported, "' 'run' ") || !strings.HasSuffix(reported, "'"+strings.TrimPrefix(tc.inner, "cd "+proj+"/sub && ")+"'") && tc.inner != "" {
			t.Fatalf("%s %q: answer %q, want the command rewritten under guard run", tc.agent, tc.command, stdout)
		}
		for _, ev := range tc.events {
			code, stdout := rewriteTestHook(t, env, append([]string{"--agent", tc.agent}, tc.args...), ag.later[ev](session, proj, input))
			switch {
			case code != 0:
				t.Errorf("%s %s of the rewrite: exit %d, want 0", tc.agent, ev, code)
			case ev == "PermissionRequest" && tc.approved != strings.Contains(stdout, `"behavior":"allow"`),
				ev == "PermissionRequest" && strings.Contains(stdout, "deny"),
				ev == "PostToolUse" && stdout != "":
				t.Errorf("%s %s of the rewrite: answer %q, want approved %v", tc.agent, ev, stdout, tc.approved)
			}
		}

		var lines []rewriteTestLine
		for _, l := range rewriteTestLog(t, env) {
			if l.Session == session {
				lines = append(lines, l)
			}
		}
		if len(lines) != 1+len(tc.events) {
			t.Fatalf("%s: %d lines in the log, want %d: %+v", session, len(lines), 1+len(tc.events), lines)
		}
		pre := lines[0]
		if pre.Event != "PreToolUse" || pre.Decision != "allowed" || pre.Call != tc.command || pre.Profile != tc.profile ||
			pre.RewriteDigest == "" || pre.Outcome != tc.outcome {
			t.Errorf("%s: the call is logged %+v; want %q allowed in profile %s, %s", session, pre, tc.command, tc.profile, tc.outcome)
		}
		for j, ev := range tc.events {
			l := lines[1+j]
			ran := l.Ran != nil && *l.Ran
			if l.Event != ev || l.Decision != "allowed" || l.Call != tc.inner || l.Profile != tc.profile ||
				l.RewriteDigest != pre.RewriteDigest || l.Digest == pre.Digest || ran != (ev == "PostToolUse") {
				t.Errorf("%s: its %s is logged %+v; want %q allowed in profile %s, with the call's rewrite digest", session, ev, l, tc.inner, tc.profile)
			}
		}
	}
}

// TestHookLogsOnlyOwnRewrite: a report of a command that only looks like
// guard's rewrite (its body changed, its quoting, words after it, another
// guard) is not guard's own: it is judged and logged as the command it
// is, with no profile, and the allowed call it looks like did not run.
func TestHookLogsOnlyOwnRewrite(t *testing.T) {
	env, proj := rewriteTestEnv(t)
	agents := rewriteTestAgents(t)
	guard, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tamper := []struct {
		name string
		edit func(string) string
	}{
		{"another body", func(r string) string { return strings.Replace(r, "'make show'", "'make integration'", 1) }},
		{"a body guard would print otherwise", func(r string) string { return strings.Replace(r, "'make show'", "'make  show'", 1) }},
		{"double quotes", func(r string) string { return strings.Replace(r, "'make show'", `"make show"`, 1) }},
		{"quoting that ends early", func(r string) string { return strings.Replace(r, "'make show'", `'make'\'' show'`, 1) }},
		{"words after the body", func(r string) string { return r + " extra" }},
		{"a command after it", func(r string) string { return r + "; rm -rf src" }},
		{"a command before it", func(r string) string { return "rm -rf src && " + r }},
		{"another guard", func(r string) string { return strings.Replace(r, guard, "/tmp/guard", 1) }},
		{"a flag guard did not write", func(r string) string { return strings.Replace(r, " 'run' ", " 'run' '--profile' 'net' ", 1) }},
		{"bash with its rc files", func(r string) string { return strings.Replace(r, "bash --noprofile --norc", "bash", 1) }},
	}
	for i, tc := range tamper {
		for _, name := range []string{"claude", "codex", "gemini"} {
			session := "tampered-" + name + "-" + string(rune('a'+i))
			ag := agents[name]
			_, stdout := rewriteTestHook(t, env, []string{"--agent", name}, ag.pre(session, proj, "make show"))
			var ans map[string]any
			json.Unmarshal([]byte(stdout), &ans)
			input, _ := dig(ans, ag.rewrite...).(map[string]any)
			r, _ := input["command"].(string)
			bad := tc.edit(r)
			if bad == r {
				t.Fatalf("%s: %q unchanged", tc.name, r)
			}
			t.Logf("input: %s %s: %q", name, tc.name, bad)
			input["command"] = bad
			rewriteTestHook(t, env, []string{"--agent", name}, ag.later["PostToolUse"](session, proj, input))
			var lines []rewriteTestLine
			for _, l := range rewriteTestLog(t, env) {
				if l.Session == session {
					lines = append(lines, l)
				}
			}
			if len(lines) != 2 {
				t.Fatalf("%s: %d lines in the log, want 2", session, len(lines))
			}
			pre, post := lines[0], lines[1]
			if post.Call != bad || post.Decision == "allowed" || post.Profile != "" || post.RewriteDigest != "" {
				t.Errorf("%s (%s): the report is logged %+v; want the command as reported, judged as one, not allowed", session, tc.name, post)
			}
			if pre.Outcome != "not run" {
				t.Errorf("%s (%s): the call it looks like: %q, want not run", session, tc.name, pre.Outcome)
			}
		}
	}
}

// TestHookLogsAdapterDeny: an agent that cannot take a rewritten command
// (Cursor's beforeShellExecution; Kiro CLI, Windsurf and goose at all) is
// denied the call guard allowed: exit 2 with the reason, and the log says
// it was denied, by guard, and that it did not run.
func TestHookLogsAdapterDeny(t *testing.T) {
	for agent, input := range map[string]func(proj string) map[string]any{
		"cursor": func(proj string) map[string]any {
			return map[string]any{"hook_event_name": "beforeShellExecution", "conversation_id": "cursor-shell", "command": "make show", "cwd": proj}
		},
		"kiro": func(proj string) map[string]any {
			return map[string]any{"hook_event_name": "preToolUse", "cwd": proj, "tool_name": "execute_bash", "tool_input": map[string]any{"command": "make show"}}
		},
		"windsurf": func(proj string) map[string]any {
			return map[string]any{"agent_action_name": "pre_run_command", "trajectory_id": "windsurf-shell", "execution_id": "e",
				"timestamp": "2026-01-01T00:00:00Z", "tool_info": map[string]any{"command_line": "make show", "cwd": proj}}
		},
		"goose": func(proj string) map[string]any {
			return map[string]any{"event": "PreToolUse", "session_id": "goose-shell", "matcher_context": "developer__shell", "tool_call_id": "c",
				"tool_name": "developer__shell", "tool_input": map[string]any{"command": "make show"}, "working_dir": proj}
		},
	} {
		env, proj := rewriteTestEnv(t)
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		t.Chdir(proj) // Cascade runs its hooks in the workspace, where its commands must run
		if code, _ := rewriteTestHook(t, env, []string{"--agent", agent}, input(proj)); code != 2 {
			t.Fatalf("%s: a shell call to rewrite: exit %d, want 2", agent, code)
		}
		t.Chdir(wd)
		lines := rewriteTestLog(t, env)
		if len(lines) != 1 {
			t.Fatalf("%s: %d lines in the log, want 1", agent, len(lines))
		}
		if l := lines[0]; l.Decision != "denied" || l.Authority != "guard" || l.Outcome != "blocked" || l.Profile != "" || l.RewriteDigest != "" ||
			!strings.Contains(l.Reason, "cannot rewrite a command") {
			t.Errorf("%s: logged %+v; want denied by guard, blocked, for the rewrite the agent cannot take", agent, l)
		}
	}
}

// TestHookTakesItsOwnRewrite: an agent that takes no rewrite is refused
// an allowed shell command with the command that runs it in guard run as
// the hint, and that command, issued as the call, is allowed as it is:
// it is guard's own rewrite, byte for byte. What only looks like it (a
// wider sandbox, another body, another guard, more after it, another
// directory) is not.
func TestHookTakesItsOwnRewrite(t *testing.T) {
	const lead = "guard: hint: to run it in guard's sandbox, run exactly this command instead, which guard allows as it is: "
	for agent, input := range map[string]func(proj, cmd string) map[string]any{
		"kiro": func(proj, cmd string) map[string]any {
			return map[string]any{"hook_event_name": "preToolUse", "cwd": proj, "tool_name": "execute_bash", "tool_input": map[string]any{"command": cmd}}
		},
		"goose": func(proj, cmd string) map[string]any {
			return map[string]any{"event": "PreToolUse", "session_id": "goose-shell", "matcher_context": "developer__shell", "tool_call_id": "c",
				"tool_name": "developer__shell", "tool_input": map[string]any{"command": cmd}, "working_dir": proj}
		},
		"qwen": func(proj, cmd string) map[string]any {
			return map[string]any{"hook_event_name": "PreToolUse", "session_id": "qwen-shell", "cwd": proj, "tool_call_id": "call_1",
				"tool_name": "run_shell_command", "tool_input": map[string]any{"command": cmd, "directory": proj}}
		},
	} {
		env, proj := rewriteTestEnv(t)
		hook := func(cmd string) (int, string) {
			t.Helper()
			data, err := json.Marshal(input(proj, cmd))
			if err != nil {
				t.Fatal(err)
			}
			code, _, stderr := hookTestRun(t, []string{"hook", "--agent", agent}, string(data), env)
			return code, stderr
		}
		code, stderr := hook("make show")
		i := strings.Index(stderr, lead)
		if code != 2 || i < 0 {
			t.Fatalf("%s: make show: exit %d, stderr %q; want 2 and the rewrite as a hint", agent, code, stderr)
		}
		own, _, _ := strings.Cut(stderr[i+len(lead):], "\n")
		if !strings.Contains(own, "'run'") || !strings.HasSuffix(own, "'make show'") {
			t.Fatalf("%s: the hint's command %q is not guard run's of make show", agent, own)
		}
		if code, stderr := hook(own); code != 0 {
			t.Errorf("%s: guard's own rewrite %q: exit %d, %q; want it allowed", agent, own, code, stderr)
		}
		guardPath := own[:strings.Index(own, "' ")+1]
		for _, bad := range []string{
			own + "; touch pwned",
			strings.Replace(own, "'run'", "'run' '--profile' 'net'", 1),
			strings.Replace(own, "'make show'", "'make show; touch pwned'", 1),
			strings.Replace(own, guardPath, "'/tmp/guard'", 1),
			"cd /tmp && " + own,
		} {
			if bad == own {
				t.Fatalf("%s: the variant is the rewrite itself: %q", agent, own)
			}
			if code, _ := hook(bad); code != 2 {
				t.Errorf("%s: %q, which only looks like guard's rewrite: exit %d, want 2", agent, bad, code)
			}
		}
		lines := rewriteTestLog(t, env)
		if len(lines) < 2 {
			t.Fatalf("%s: %d lines in the log, want the refusal and the allow first", agent, len(lines))
		}
		if l := lines[1]; l.Decision != "allowed" || l.Call != "make show" || l.RewriteDigest == "" || l.Profile == "" {
			t.Errorf("%s: the rewrite issued: logged %+v; want make show allowed, with the rewrite it ran in", agent, l)
		}
	}
}

// TestHookOwnRewriteKeepsClaudeRule: the user's own Claude Code rule that
// a command matches is kept where the model issues guard's rewrite of it
// as the call, as where guard rewrites it: Claude Code checks its rules
// against the guard run command line, which they do not match.
func TestHookOwnRewriteKeepsClaudeRule(t *testing.T) {
	env, proj := rewriteTestEnv(t)
	agents := rewriteTestAgents(t)
	pre := func(cmd string) (int, string) {
		t.Helper()
		return rewriteTestHook(t, env, []string{"--agent", "claude"}, agents["claude"].pre("s-rule", proj, cmd))
	}
	code, out := pre("make show")
	var ans struct {
		HookSpecificOutput struct {
			PermissionDecision string
			UpdatedInput       struct{ Command string }
		}
	}
	if err := json.Unmarshal([]byte(out), &ans); err != nil || code != 0 || ans.HookSpecificOutput.UpdatedInput.Command == "" {
		t.Fatalf("make show: exit %d, %q (%v); want it allowed rewritten", code, out, err)
	}
	own := ans.HookSpecificOutput.UpdatedInput.Command
	for _, tc := range []struct{ rules, want string }{
		{`{"permissions": {"deny": ["Bash(make show)"]}}`, "deny"},
		{`{"permissions": {"ask": ["Bash(make:*)"]}}`, "ask"},
	} {
		if err := os.MkdirAll(filepath.Join(proj, ".claude"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(proj, ".claude", "settings.json"), []byte(tc.rules), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"make show", own} {
			code, out := pre(cmd)
			ans.HookSpecificOutput.PermissionDecision = ""
			_ = json.Unmarshal([]byte(out), &ans)
			got := ans.HookSpecificOutput.PermissionDecision
			if code == 2 {
				got = "deny"
			}
			if got != tc.want {
				t.Errorf("%s, %q: exit %d, %q; want %s, as the user's rule says", tc.rules, cmd, code, out, tc.want)
			}
		}
	}
}
