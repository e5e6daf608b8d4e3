// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"guard/corpus"
	"guard/policy"
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
// 0 is one JSON answer (none for PostToolUse) and nothing on stderr; 2 is
// nothing on stdout and a deny on stderr, never from a panic; guard check,
// given the call on its command line, agrees with an allow or an ask; and
// an allow is a positive match of a rule for every part of the call.
func FuzzHook(f *testing.F) {
	cwd := f.TempDir() // no .claude/guard.toml: the default policy decides
	bash := func(command string) []byte {
		return hookFuzzCall(f, cwd, "Bash", map[string]any{"command": command})
	}
	for _, s := range []string{
		`{"session_id":"s","transcript_path":"/tmp/t.jsonl","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status","description":"status"},"cwd":"` + cwd + `"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"gradle test"},"cwd":"` + cwd + `"}`,
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
	p, err := policy.Default()
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
		cases, err := corpus.LoadCases(name, src)
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

	// Only guard's state directory: the decision log and the grants.
	stateHome := f.TempDir()
	getenv := func(name string) string {
		if name == "XDG_STATE_HOME" {
			return stateHome
		}
		return ""
	}
	f.Fuzz(func(t *testing.T, stdin []byte) {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{"hook"}, stdio{in: bytes.NewReader(stdin), out: &stdout, err: &stderr, start: time.Now()}, getenv)
		code := exitCode(err)
		switch code {
		case 0:
			if stderr.Len() != 0 {
				t.Fatalf("exit 0 with stderr %q", stderr.String())
			}
			if !json.Valid(stdin) {
				t.Fatalf("exit 0 on stdin that is not one JSON value: %q", stdin)
			}
			var raw map[string]json.RawMessage // exact keys, as the hook reads them
			var event string
			if json.Unmarshal(stdin, &raw) == nil && json.Unmarshal(raw["hook_event_name"], &event) == nil && event == "PostToolUse" {
				if stdout.Len() != 0 {
					t.Fatalf("exit 0 for PostToolUse with stdout %q, want none", stdout.String())
				}
				return
			}
			if msg := hookTestCheckAnswer(stdout.String(), ""); msg != "" {
				t.Fatalf("exit 0: %s", msg)
			}
			if msg := hookFuzzSearchRewrite(stdin, stdout.Bytes()); msg != "" {
				t.Fatalf("exit 0: %s", msg)
			}
			hookFuzzCheck(t, stdin, stdout.Bytes(), getenv)
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

// hookFuzzCheck asks guard check, through its own command line, about a
// call the hook answered: --tool, --input and --cwd carry the call, decoded
// from stdin here apart from the hook's decoder. The two front ends must
// agree: an allow exits 0 with verdict allow, and every part allowed by a
// rule; an ask exits 1.
func hookFuzzCheck(t *testing.T, stdin, stdout []byte, getenv getenv) {
	var out hookOutput
	if err := json.Unmarshal(stdout, &out); err != nil {
		t.Fatalf("answer does not decode: %v", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(stdin, &raw); err != nil {
		t.Fatalf("exit 0, but stdin is not a JSON object: %v", err)
	}
	var tool, cwd string
	if json.Unmarshal(raw["tool_name"], &tool) != nil || json.Unmarshal(raw["cwd"], &cwd) != nil {
		t.Fatalf("exit 0, but tool_name or cwd is not a string: %q", stdin)
	}
	args := []string{"check", "--json", "--tool=" + tool, "--input=" + string(raw["tool_input"]), "--cwd=" + cwd}
	var checkOut, checkErr bytes.Buffer
	err := run(context.Background(), args, stdio{in: strings.NewReader(""), out: &checkOut, err: &checkErr, start: time.Now()}, getenv)
	code := exitCode(err)
	var d jsonDecision
	if err := json.Unmarshal(checkOut.Bytes(), &d); err != nil {
		t.Fatalf("guard check %q: exit %d, output is not a decision (%v): %q, stderr %q", args, code, err, checkOut.String(), checkErr.String())
	}
	switch answer := out.HookSpecificOutput.PermissionDecision; answer {
	case "allow":
		if code != 0 || d.Verdict != "allow" {
			t.Fatalf("hook allowed, but guard check %q exits %d with %s: %s", args, code, d.Verdict, d.Reason)
		}
		if len(d.Leaves) == 0 {
			t.Fatalf("hook allowed a call with no parts")
		}
		for _, l := range d.Leaves {
			if l.Verdict != "allow" || l.Rule == "" {
				t.Fatalf("hook allowed, but leaf %q (%s) is %s by rule %q: an allow needs a rule that allows every part", l.Text, l.Kind, l.Verdict, l.Rule)
			}
		}
	case "ask":
		if code != 1 || d.Verdict != "ask" {
			t.Fatalf("hook asked, but guard check %q exits %d with %s: %s", args, code, d.Verdict, d.Reason)
		}
	default:
		t.Fatalf("hook answered %q", answer)
	}
}

// hookFuzzSearchRewrite checks a search's rewrite against its call: the
// same input but its glob field, which keeps the call's globs, in order,
// and adds exclusions after them. It returns what is wrong, or "".
func hookFuzzSearchRewrite(stdin, stdout []byte) string {
	var in struct {
		Input map[string]any `json:"tool_input"`
	}
	var out struct {
		H struct {
			Updated map[string]any `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal(stdout, &out) != nil || out.H.Updated == nil || out.H.Updated["command"] != nil {
		return ""
	}
	if json.Unmarshal(stdin, &in) != nil {
		return "a search rewritten for input that is not a call"
	}
	glob, _ := out.H.Updated["glob"].(string)
	own, _ := in.Input["glob"].(string)
	added, ok := strings.CutPrefix(strings.Join(strings.Fields(glob), " "), strings.Join(strings.Fields(own), " "))
	if !ok || strings.TrimSpace(added) == "" {
		return fmt.Sprintf("the rewritten glob %q does not start with the call's %q and add to it", glob, own)
	}
	for _, w := range strings.Fields(added) {
		if !strings.HasPrefix(w, "!") {
			return fmt.Sprintf("the rewritten glob %q adds %q, which is no exclusion", glob, w)
		}
	}
	for k, v := range in.Input {
		if k != "glob" && !reflect.DeepEqual(out.H.Updated[k], v) {
			return fmt.Sprintf("the rewrite changes the input's %q: %v to %v", k, v, out.H.Updated[k])
		}
	}
	if len(out.H.Updated) > len(in.Input)+1 {
		return fmt.Sprintf("the rewrite adds fields: %v", out.H.Updated)
	}
	return ""
}
