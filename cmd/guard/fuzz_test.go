// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"guard/rules"
)

// hookFuzzCall wraps a tool call in Claude Code's PreToolUse JSON.
func hookFuzzCall(f *testing.F, cwd, tool string, input map[string]any) []byte {
	f.Helper()
	data, err := json.Marshal(map[string]any{
		"session_id":      "fuzz",
		"hook_event_name": "PreToolUse",
		"tool_name":       tool,
		"tool_input":      input,
		"cwd":             cwd,
	})
	if err != nil {
		f.Fatal(err)
	}
	return data
}

// FuzzHook runs guard hook in-process on arbitrary stdin under the embedded
// default policy, and checks its promises: exit 0 or 2 and nothing else;
// 0 is one JSON answer and nothing on stderr; 2 is nothing on stdout and a
// deny on stderr; and an allow is a positive match of a rule for every part
// of the call.
func FuzzHook(f *testing.F) {
	cwd := f.TempDir() // no .claude/guard.toml: the default policy decides
	bash := func(command string) []byte {
		return hookFuzzCall(f, cwd, "Bash", map[string]any{"command": command})
	}
	for _, s := range []string{
		`{"session_id":"s","transcript_path":"/tmp/t.jsonl","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status","description":"status"},"cwd":"` + cwd + `"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm test"},"cwd":"` + cwd + `"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"cwd":"` + cwd + `"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la | wc -l && git log --oneline -5"},"cwd":"` + cwd + `"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo $(id) > /etc/passwd"},"cwd":"` + cwd + `"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd sub && go test ./... 2>/dev/null"},"cwd":"` + cwd + `"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"timeout 5 bash -c 'git push --force'"},"cwd":"` + cwd + `"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"` + cwd + `/main.go"},"cwd":"` + cwd + `"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"` + cwd + `/x.go","content":"package x\n"},"cwd":"` + cwd + `"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"https://example.com/","prompt":"p"},"cwd":"` + cwd + `"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"mcp__github__get_issue","tool_input":{"issue":1},"cwd":"` + cwd + `"}`,
		`{"tool_name":"Bash","tool_input":{"command":"find . -name '*.go' -exec grep -l TODO {} +"},"cwd":"` + cwd + `","extra":[1,{"a":null}]}`,
		`{"tool_name":"Bash","tool_input":{"command":"FOO=1 env LANG=C sort -u <<EOF\nb\na\nEOF"},"cwd":"` + cwd + `"}`,
		`{"tool_name":"Bash","tool_input":{"command":"echo \u0000"},"cwd":"` + cwd + `"}`,
		`{"tool_name":"Bash","tool_input":{},"cwd":"` + cwd + `"}`,
		`{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"relative"}`,
		`[]`,
		``,
	} {
		f.Add([]byte(s))
	}
	p, err := rules.Default()
	if err != nil {
		f.Fatal(err)
	}
	for _, ex := range p.Examples() {
		f.Add(bash(ex.Command))
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "testcases", "*.toml"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		cases, err := rules.LoadCases(name, src)
		if err != nil {
			f.Fatal(err)
		}
		for _, c := range cases {
			if c.Tool != "" && c.Tool != "Bash" {
				input := c.Input
				if input == nil {
					input = map[string]any{}
				}
				f.Add(hookFuzzCall(f, cwd, c.Tool, input))
				continue
			}
			f.Add(bash(c.Command))
		}
	}

	getenv := func(string) string { return "" }
	f.Fuzz(func(t *testing.T, stdin []byte) {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{"hook"}, stdio{in: bytes.NewReader(stdin), out: &stdout, err: &stderr, start: time.Now()}, getenv)
		code := exitCode(err)
		switch code {
		case 0:
			if stderr.Len() != 0 {
				t.Fatalf("exit 0 with stderr %q", stderr.String())
			}
			if msg := hookTestCheckAnswer(stdout.String(), ""); msg != "" {
				t.Fatalf("exit 0: %s", msg)
			}
			if !json.Valid(stdin) {
				t.Fatalf("exit 0 on stdin that is not one JSON value: %q", stdin)
			}
			hookFuzzRedecide(t, stdin, stdout.Bytes(), getenv)
		case 2:
			if stdout.Len() != 0 {
				t.Fatalf("exit 2 with stdout %q", stdout.String())
			}
			if !strings.HasPrefix(stderr.String(), "guard: denied: ") {
				t.Fatalf("exit 2 with stderr not starting with %q: %q", "guard: denied: ", stderr.String())
			}
			if strings.HasPrefix(stderr.String(), "guard: denied: internal error") {
				t.Fatalf("a panic, recovered into a deny: %q", stderr.String())
			}
		default:
			t.Fatalf("exit code %d (error %v): guard hook may exit only 0 or 2; stdout %q, stderr %q", code, err, stdout.String(), stderr.String())
		}
	})
}

// hookFuzzRedecide decides an answered call again, decoded as the hook
// decodes it, under the default policy: an allow must be a positive match
// of a rule for every leaf, and an ask must be the policy's verdict.
func hookFuzzRedecide(t *testing.T, stdin, stdout []byte, getenv getenv) {
	var out hookOutput
	if err := json.Unmarshal(stdout, &out); err != nil {
		t.Fatalf("answer does not decode: %v", err)
	}
	in, err := decodeHookInput(bytes.NewReader(stdin))
	if err != nil {
		t.Fatalf("exit 0, but the input does not decode: %v", err)
	}
	project := projectDir(getenv, in.cwd)
	if _, err := os.Lstat(filepath.Join(project, filepath.FromSlash(policyFile))); !errors.Is(err, fs.ErrNotExist) {
		t.Skipf("cwd %q names a project with a policy of its own", in.cwd)
	}
	p, err := rules.Default()
	if err != nil {
		t.Fatal(err)
	}
	d := p.Decide(rules.Call{Tool: in.toolName, Input: in.toolInput, Cwd: in.cwd, Project: project, Home: getenv("HOME"), Temp: os.TempDir(), Guard: guardBinary()})
	switch out.HookSpecificOutput.PermissionDecision {
	case "allow":
		if d.Verdict != rules.Allow {
			t.Fatalf("hook allowed, but the default policy decides %s: %s", d.Verdict, d.Reason())
		}
		if len(d.Leaves) == 0 {
			t.Fatalf("hook allowed a call with no parts")
		}
		for _, l := range d.Leaves {
			if l.Verdict != rules.Allow || l.Rule == "" {
				t.Fatalf("hook allowed, but leaf %q (%s) is %s by rule %q: an allow needs a rule that allows every part", l.Text, l.Kind, l.Verdict, l.Rule)
			}
		}
	case "ask":
		if d.Verdict != rules.Ask {
			t.Fatalf("hook asked, but the default policy decides %s: %s", d.Verdict, d.Reason())
		}
	}
}
