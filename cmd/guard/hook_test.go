// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"guard/engine"
)

// hookTestCall is a PreToolUse call as Claude Code writes it, with a Bash
// command run in cwd.
func hookTestCall(cwd, command string) string {
	in := map[string]any{
		"session_id":      "s1",
		"hook_event_name": "PreToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": command},
		"cwd":             cwd,
	}
	data, err := json.Marshal(in)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// hookTestRun runs guard in-process with stdin and an environment of its
// own, and returns the exit code and both streams.
func hookTestRun(t *testing.T, args []string, stdin string, env map[string]string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	getenv := func(k string) string { return env[k] }
	err := run(context.Background(), args, stdio{in: strings.NewReader(stdin), out: &out, err: &errb, start: time.Now()}, getenv)
	return exitCode(err), out.String(), errb.String()
}

// TestHookDeniesBadInput checks the fail-closed promise of guard hook:
// every input it cannot positively judge exits 2, writes nothing to stdout,
// and says on stderr what was wrong.
func TestHookDeniesBadInput(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	clean := filepath.Join(dir, "clean") // a project without a policy
	broken := filepath.Join(dir, "broken")
	unreadable := filepath.Join(dir, "unreadable") // .claude/guard.toml is a directory
	dangling := filepath.Join(dir, "dangling")     // .claude/guard.toml is a dangling symlink
	for _, d := range []string{home, clean, filepath.Join(broken, ".claude"), filepath.Join(unreadable, ".claude", "guard.toml"), filepath.Join(dangling, ".claude")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	policy := "version = 1\ndefault = \"deny\"\ndefualt = \"allow\"\n"
	if err := os.WriteFile(filepath.Join(broken, ".claude", "guard.toml"), []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}

	if err := os.Symlink(filepath.Join(dir, "missing.toml"), filepath.Join(dangling, ".claude", "guard.toml")); err != nil {
		t.Fatal(err)
	}

	env := map[string]string{"HOME": home}
	envProject := func(p string) map[string]string { return map[string]string{"HOME": home, "CLAUDE_PROJECT_DIR": p} }
	hook := []string{"hook"}
	hookSlow := []string{"hook", "--deadline", "2m"}
	ok := hookTestCall(clean, "git status") // allowed by the default policy
	call := func(command string) string { return hookTestCall(clean, command) }

	// Over the 4 MiB bound, as an otherwise valid call: the padding is in
	// a field guard ignores.
	big := `{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"` + clean + `","pad":"` + strings.Repeat("x", 4<<20) + `"}`
	words := "echo" + strings.Repeat(" a", 9000) // 9000 words in about 18 KiB
	wordsLong := "echo" + strings.Repeat(" abcdef", 9000)

	tests := []struct {
		name  string
		args  []string
		stdin string
		env   map[string]string
		want  string // in the deny line
	}{
		// Not a JSON object.
		{"empty stdin", hook, "", env, "the hook input is empty"},
		{"whitespace only", hook, " \n\t\r\n ", env, "the hook input is empty"},
		{"invalid JSON", hook, `{"tool_name":`, env, "the hook input is not a JSON object"},
		{"JSON array", hook, `[` + ok + `]`, env, "the hook input is not a JSON object"},
		{"JSON string", hook, `"git status"`, env, "the hook input is not a JSON object"},
		{"JSON null", hook, `null`, env, "the hook input is not a JSON object"},
		{"JSON number", hook, `2`, env, "the hook input is not a JSON object"},
		{"trailing object", hook, ok + ` {}`, env, "the hook input has data after its JSON object"},
		{"trailing garbage", hook, ok + `x`, env, "the hook input has data after its JSON object"},
		{"trailing brace", hook, ok + `}`, env, "the hook input has data after its JSON object"},
		{"trailing bracket", hook, ok + `]`, env, "the hook input has data after its JSON object"},

		// Missing or wrong fields.
		{"missing tool_input", hook, `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"` + clean + `"}`, env, `the hook input has no "tool_input" field`},
		{"tool_input a string", hook, `{"tool_name":"Bash","tool_input":"git status","cwd":"` + clean + `"}`, env, "the hook input's tool_input is not a JSON object"},
		{"tool_input null", hook, `{"tool_name":"Bash","tool_input":null,"cwd":"` + clean + `"}`, env, "the hook input's tool_input is not a JSON object"},
		{"tool_input an array", hook, `{"tool_name":"Bash","tool_input":["git","status"],"cwd":"` + clean + `"}`, env, "the hook input's tool_input is not a JSON object"},
		{"missing tool_name", hook, `{"tool_input":{"command":"git status"},"cwd":"` + clean + `"}`, env, `the hook input has no "tool_name" field`},
		{"empty tool_name", hook, `{"tool_name":"","tool_input":{"command":"git status"},"cwd":"` + clean + `"}`, env, "the hook input's tool_name is empty"},
		{"tool_name not a string", hook, `{"tool_name":["Bash"],"tool_input":{"command":"git status"},"cwd":"` + clean + `"}`, env, `the hook input's "tool_name" field is not a string`},
		{"missing cwd", hook, `{"tool_name":"Bash","tool_input":{"command":"git status"}}`, env, `the hook input has no "cwd" field`},
		{"relative cwd", hook, `{"tool_name":"Bash","tool_input":{"command":"git status"},"cwd":"project"}`, env, `the hook input's cwd "project" is not an absolute path`},
		{"empty cwd", hook, `{"tool_name":"Bash","tool_input":{"command":"git status"},"cwd":""}`, env, `the hook input's cwd "" is not an absolute path`},
		{"UserPromptSubmit", hook, `{"hook_event_name":"UserPromptSubmit","tool_name":"Bash","tool_input":{"command":"git status"},"cwd":"` + clean + `"}`, env, `guard hook decides Claude Code's tool calls; it does not take its "UserPromptSubmit" event`},
		{"Bash without command", hook, `{"tool_name":"Bash","tool_input":{"cmd":"git status"},"cwd":"` + clean + `"}`, env, "Bash call has no command string in its input"},
		{"Bash with a command that is not a string", hook, `{"tool_name":"Bash","tool_input":{"command":["rm","-rf","/"]},"cwd":"` + clean + `"}`, env, `the Bash call's "command" field is not a string guard can judge`},
		{"Grep with an empty path", hook, `{"tool_name":"Grep","tool_input":{"pattern":"x","path":""},"cwd":"` + clean + `"}`, env, `the Grep call's "path" field is not a string guard can judge`},

		// Over a bound: each refused for its bound, not for the deadline,
		// which a loaded machine can pass while reading 4 MiB.
		{"stdin over 4 MiB", hookSlow, big, env, "the hook input is larger than 4194304 bytes"},
		{"command over 64 KiB", hookSlow, call("echo " + strings.Repeat("a", 64<<10)), env, "over the limit of 65536 bytes"},
		{"300 nested parentheses", hookSlow, call(strings.Repeat("(", 300) + "true" + strings.Repeat(")", 300)), env, "brackets nest 300 deep, over the limit of 256"},
		{"100 nested substitutions", hookSlow, call("echo " + strings.Repeat("$(", 100) + "true" + strings.Repeat(")", 100)), env, "nest more than 64 deep"},
		{"9000 words", hookSlow, call(words), env, "more than 8192 words"},
		{"9000 words in 60 KiB", hookSlow, call(wordsLong), env, "more than 8192 words"},

		// Characters the parser and the shell read differently.
		{"NUL", hook, call("echo a\x00b"), env, "NUL byte (U+0000) is not allowed in a command at 1:7"},
		{"CR", hook, call("echo a\rb"), env, "carriage return (U+000D) is not allowed in a command at 1:7"},
		{"RLO", hook, call("echo a\u202eb"), env, "bidirectional control character (U+202E) is not allowed in a command at 1:7"},
		{"ZWSP", hook, call("echo a\u200bb"), env, "invisible character (U+200B) is not allowed in a command at 1:7"},

		// The policy.
		{"broken policy", hook, hookTestCall(broken, "git status"), env, `the policy does not load, so every call is denied: ` + filepath.Join(broken, ".claude", "guard.toml") + `:3:1: unknown key "defualt"`},
		{"broken policy via CLAUDE_PROJECT_DIR", hook, ok, envProject(broken), `the policy does not load, so every call is denied: ` + filepath.Join(broken, ".claude", "guard.toml") + `:3:1: unknown key "defualt"`},
		{"policy is a directory", hook, hookTestCall(unreadable, "git status"), env, "is a directory"},
		{"policy is a dangling symlink", hook, hookTestCall(dangling, "git status"), env, "no such file or directory"},
		{"missing --config", []string{"hook", "--config", filepath.Join(dir, "missing.toml")}, ok, env, "no such file or directory"},

		// The command line.
		{"--deadline 1ns", []string{"hook", "--deadline", "1ns"}, ok, env, "the decision took longer than the 1ns deadline"},
		{"--deadline 0", []string{"hook", "--deadline", "0"}, ok, env, "--deadline must be positive"},
		{"unknown flag", []string{"hook", "--frobnicate"}, ok, env, "flag provided but not defined: -frobnicate"},
		// -h and --help deny with the help after the deny line: TestHelpEveryVerb.
		{"extra argument", []string{"hook", "extra"}, ok, env, `guard hook takes no arguments, got "extra"`},
		{"--shell fish", []string{"hook", "--shell", "fish"}, ok, env, `--shell "fish": want bash, zsh or auto`},
		{"--shell empty", []string{"hook", "--shell="}, ok, env, `--shell "": want bash, zsh or auto`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Logf("args: %q, stdin: %.200q", tc.args, tc.stdin)
			code, stdout, stderr := hookTestRun(t, tc.args, tc.stdin, tc.env)
			if code != 2 {
				t.Errorf("exit code %d, want 2", code)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want empty", stdout)
			}
			if !strings.HasPrefix(stderr, "guard: denied: ") {
				t.Errorf("stderr does not start with %q:\n%s", "guard: denied: ", stderr)
			}
			hookTestCheckDenyLines(t, stderr)
			first, _, _ := strings.Cut(stderr, "\n")
			if !strings.Contains(first, tc.want) {
				t.Errorf("deny line does not say %q:\n%s", tc.want, stderr)
			}
		})
	}
}

// hookTestCheckDenyLines checks the shape of stderr on a deny: one
// "guard: denied: " line, then only "guard: hint: " lines.
func hookTestCheckDenyLines(t *testing.T, stderr string) {
	t.Helper()
	if !strings.HasSuffix(stderr, "\n") {
		t.Errorf("stderr does not end with a newline: %q", stderr)
	}
	for i, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		switch {
		case i == 0 && strings.HasPrefix(line, "guard: denied: ") && len(line) > len("guard: denied: "):
		case i > 0 && strings.HasPrefix(line, "guard: hint: "):
		default:
			t.Errorf("stderr line %d is not a deny or hint line: %q", i+1, line)
		}
	}
}

// TestHookAnswers checks that allow and ask are one JSON line on stdout,
// with exit 0 and nothing on stderr.
func TestHookAnswers(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"HOME": filepath.Join(dir, "home")}
	tests := []struct {
		name     string
		stdin    string
		decision string
		reason   string
	}{
		{"allow", hookTestCall(dir, "git status"), "allow", "guard (policy default): allowed: git status is allowed"},
		{"allow pipeline", hookTestCall(dir, "git log --oneline | head -5"), "allow", "guard (policy default): allowed: every part is allowed: git log --oneline; head -5"},
		{"ask", hookTestCall(dir, "gradle test"), "ask", "guard (policy default): needs approval: no rule for gradle; hint: no rule of the policy names gradle: ask the user to approve it, or to add a rule for it"},
		{"allow Read", `{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/x"},"cwd":"` + dir + `"}`, "allow", "guard (policy default): allowed: Read: reading /x"},
		{"no hook_event_name", `{"tool_name":"Bash","tool_input":{"command":"git status"},"cwd":"` + dir + `"}`, "allow", "guard (policy default): allowed: git status is allowed"},
		{"trailing whitespace", hookTestCall(dir, "git status") + "\n\n  \t", "allow", "guard (policy default): allowed: git status is allowed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Logf("stdin: %q", tc.stdin)
			code, stdout, stderr := hookTestRun(t, []string{"hook"}, tc.stdin, env)
			if code != 0 {
				t.Errorf("exit code %d, want 0", code)
			}
			if stderr != "" {
				t.Errorf("stderr %q, want empty", stderr)
			}
			want := hookOutput{hookDecision{HookEventName: "PreToolUse", PermissionDecision: tc.decision, PermissionDecisionReason: tc.reason}}
			if err := hookTestCheckAnswer(stdout, want.HookSpecificOutput.PermissionDecision); err != "" {
				t.Fatal(err)
			}
			var got hookOutput
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

// hookTestCheckAnswer checks that stdout is exactly one line holding one
// JSON object of Claude Code's PreToolUse shape, with no other keys, and
// returns what is wrong with it, or "". If decision is "", allow and ask
// are both accepted.
func hookTestCheckAnswer(stdout, decision string) string {
	line, ok := strings.CutSuffix(stdout, "\n")
	if !ok || strings.Contains(line, "\n") {
		return "stdout is not exactly one line: " + hookTestQuote(stdout)
	}
	dec := json.NewDecoder(strings.NewReader(line))
	var top map[string]json.RawMessage
	if err := dec.Decode(&top); err != nil {
		return "stdout is not a JSON object: " + err.Error() + ": " + hookTestQuote(stdout)
	}
	if dec.More() || dec.InputOffset() != int64(len(line)) {
		return "stdout has more than one JSON value: " + hookTestQuote(stdout)
	}
	if len(top) != 1 || top["hookSpecificOutput"] == nil {
		return "stdout has keys other than hookSpecificOutput: " + hookTestQuote(stdout)
	}
	var inner map[string]any
	if err := json.Unmarshal(top["hookSpecificOutput"], &inner); err != nil {
		return "hookSpecificOutput is not an object: " + hookTestQuote(stdout)
	}
	if up, ok := inner["updatedInput"]; ok {
		m, _ := up.(map[string]any)
		if glob, isGlob := m["glob"].(string); isGlob && m["command"] == nil {
			// A search's rewrite: its globs end with exclusions.
			words := strings.Fields(glob)
			if len(words) == 0 || !strings.HasPrefix(words[len(words)-1], "!**/") {
				return "updatedInput's glob does not end with an exclusion: " + hookTestQuote(stdout)
			}
		} else {
			// A rewrite: an allow, to run the command under guard run.
			cmd, _ := m["command"].(string)
			if inner["permissionDecision"] != "allow" || !strings.Contains(cmd, "' 'run' ") || !strings.Contains(cmd, " -- bash --noprofile --norc -c '") {
				return "updatedInput is not an allowed command run under guard run: " + hookTestQuote(stdout)
			}
		}
		delete(inner, "updatedInput")
	}
	if len(inner) != 3 {
		return "hookSpecificOutput does not have exactly hookEventName, permissionDecision and permissionDecisionReason (and updatedInput for a rewrite): " + hookTestQuote(stdout)
	}
	if inner["hookEventName"] != "PreToolUse" {
		return "hookEventName is not PreToolUse: " + hookTestQuote(stdout)
	}
	switch d := inner["permissionDecision"]; {
	case decision != "" && d != decision:
		return "permissionDecision is not " + decision + ": " + hookTestQuote(stdout)
	case d != "allow" && d != "ask":
		return "permissionDecision is neither allow nor ask: " + hookTestQuote(stdout)
	}
	if r, ok := inner["permissionDecisionReason"].(string); !ok || r == "" {
		return "permissionDecisionReason is not a non-empty string: " + hookTestQuote(stdout)
	}
	return ""
}

func hookTestQuote(s string) string {
	if len(s) > 500 {
		s = s[:500] + "..."
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// panicReader panics when guard reads the call.
type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("reading stdin") }

// panicWriter panics when guard writes its answer.
type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("writing stdout") }

// TestHookPanics checks that a panic while deciding is a deny, however far
// the decision got: reading the call, inside decideHook, or writing the
// answer of a call that would be allowed.
func TestHookPanics(t *testing.T) {
	dir := t.TempDir()
	call := hookTestCall(dir, "git status") // allowed by the default policy
	panicEnv := func(k string) string { panic("reading $" + k) }
	noEnv := func(string) string { return "" }
	tests := []struct {
		name string
		args []string
		in   io.Reader
		out  io.Writer
		env  getenv
		want string
	}{
		{"reading stdin", []string{"hook"}, panicReader{}, &bytes.Buffer{}, noEnv, "guard: denied: internal error: reading stdin\n"},
		{"reading the environment", []string{"hook", "--shell", "bash"}, strings.NewReader(call), &bytes.Buffer{}, panicEnv, "guard: denied: internal error: reading $XDG_STATE_HOME\n"},
		{"writing the answer", []string{"hook"}, strings.NewReader(call), panicWriter{}, noEnv, "guard: denied: internal error: writing stdout\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var errb bytes.Buffer
			err := run(context.Background(), tc.args, stdio{in: tc.in, out: tc.out, err: &errb, start: time.Now()}, tc.env)
			if code := exitCode(err); code != 2 {
				t.Errorf("exit code %d, want 2 (error %v)", code, err)
			}
			if errb.String() != tc.want {
				t.Errorf("stderr %q, want %q", errb.String(), tc.want)
			}
			if b, ok := tc.out.(*bytes.Buffer); ok && b.Len() != 0 {
				t.Errorf("stdout %q, want empty", b.String())
			}
		})
	}
}

// blockedReader is stdin that never ends until the test does.
type blockedReader struct{ done chan struct{} }

func (r blockedReader) Read([]byte) (int, error) {
	<-r.done
	return 0, io.EOF
}

// TestHookWatchdog checks the denies that guard hook's watchdog writes
// while the decision is still running, and that the run ends the process
// through its exit function with the code it returns.
func TestHookWatchdog(t *testing.T) {
	dir := t.TempDir()
	call := hookTestCall(dir, "git status") // allowed by the default policy
	blocked := blockedReader{make(chan struct{})}
	t.Cleanup(func() { close(blocked.done) })
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name  string
		ctx   context.Context
		args  []string
		in    io.Reader
		start time.Time
		want  string
	}{
		// The deadline runs from the start of the process, not of the hook.
		{"started an hour ago", context.Background(), []string{"hook"}, strings.NewReader(call), time.Now().Add(-time.Hour),
			"guard: denied: the decision took longer than the " + defaultDeadline.String() + " deadline\nguard: hint: " + engine.DeadlineHint + "\n"},
		{"stdin never ends", context.Background(), []string{"hook", "--deadline", "50ms"}, blocked, time.Now(),
			"guard: denied: the decision took longer than the 50ms deadline\nguard: hint: " + engine.DeadlineHint + "\n"},
		{"cancelled", cancelled, []string{"hook"}, blocked, time.Now(),
			"guard: denied: cancelled: context canceled\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The decision may never return: stdin stays blocked until the
			// test ends. The run ends at its first exit.
			var out, errb syncBuffer
			exits := make(chan int, 2)
			s := stdio{in: tc.in, out: &out, err: &errb, start: tc.start, exit: func(code int) { exits <- code }}
			returned := make(chan error, 1)
			go func() { returned <- run(tc.ctx, tc.args, s, func(string) string { return "" }) }()
			if code := <-exits; code != 2 {
				t.Errorf("exit code %d, want 2", code)
			}
			if errb.String() != tc.want {
				t.Errorf("stderr %q, want %q", errb.String(), tc.want)
			}
			if out.String() != "" {
				t.Errorf("stdout %q, want empty", out.String())
			}
			if tc.in != blocked {
				if err := <-returned; exitCode(err) != 2 {
					t.Errorf("run returned %v, want exit code 2", err)
				}
				if len(exits) > 0 {
					t.Errorf("exit called again with %d", <-exits)
				}
			}
		})
	}
}

// syncBuffer is a bytes.Buffer that the watchdog and the test may use at
// once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestHookExits checks that guard hook ends the process itself, with 0
// after an answer and 2 after a deny.
func TestHookExits(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		command string
		want    int
	}{
		{"git status", 0},
		{"gradle test", 0}, // ask
		{"rm -rf /", 2},
	} {
		var out, errb bytes.Buffer
		exits := []int{}
		s := stdio{in: strings.NewReader(hookTestCall(dir, tc.command)), out: &out, err: &errb, start: time.Now(), exit: func(code int) { exits = append(exits, code) }}
		err := run(context.Background(), []string{"hook"}, s, func(string) string { return "" })
		if !slices.Equal(exits, []int{tc.want}) || exitCode(err) != tc.want {
			t.Errorf("%q: exit called with %v and run returned %v, want exit %d", tc.command, exits, err, tc.want)
		}
	}
}

// TestHookLateAnswer checks that the decision itself denies an answer found
// after the deadline, before the watchdog wakes: nothing reaches stdout.
func TestHookLateAnswer(t *testing.T) {
	var out, errb bytes.Buffer
	h := &hookRun{s: stdio{out: &out, err: &errb}, deadline: time.Now().Add(-time.Millisecond), result: make(chan error, 1),
		late: deny("the decision took longer than the 1ms deadline")}
	err, owner := h.decide(func() ([]byte, error) {
		return []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"git status is allowed"}}` + "\n"), nil
	})
	if code := exitCode(err); code != 2 || !owner {
		t.Errorf("exit code %d, owner %v; want 2 and the decision's to end", code, owner)
	}
	if want := "guard: denied: the decision took longer than the 1ms deadline\n"; errb.String() != want {
		t.Errorf("stderr %q, want %q", errb.String(), want)
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q, want empty", out.String())
	}
}

// hookOutput is Claude Code's answer, as the tests read it: apart from the
// adapter's own encoding.
type hookOutput struct {
	HookSpecificOutput hookDecision `json:"hookSpecificOutput"`
}

type hookDecision struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}
