// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"

	"guard/audit"
)

// TestToolSpanOf: a line that decided a tool call is an execute_tool
// span with the conventions' attributes and guard's, a deny's status an
// error; any other line is no span. want lists the attributes checked,
// with "" for one the span must not have.
func TestToolSpanOf(t *testing.T) {
	ran := true
	at := time.Date(2026, 12, 1, 15, 39, 22, 0, time.UTC)
	for _, tc := range []struct {
		e      audit.Entry
		name   string // "" for no span
		status codes.Code
		want   map[string]string
	}{
		// Claude Code's deny, with its call id.
		{audit.Entry{Time: at, Session: "s1", Seq: 4, Event: "PreToolUse", Agent: "claude", Tool: "Bash", ToolCallID: "toolu_01",
			Tier: "deny", Decision: "denied", Rules: []string{"git push -f"}, Authority: "policy", Policy: "default",
			PolicySHA256: "ab12", Reason: "it rewrites history"},
			"execute_tool Bash", codes.Error, map[string]string{
				"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "Bash", "gen_ai.tool.type": "function",
				"gen_ai.tool.call.id": "toolu_01", "gen_ai.conversation.id": "s1", "error.type": "denied",
				"guard.decision": "denied", "guard.rules": `["git push -f"]`, "guard.tier": "deny", "guard.policy": "default",
				"guard.policy_sha256": "ab12", "guard.session": "s1", "guard.seq": "4", "guard.agent": "claude",
				"guard.grant": "", "guard.profile": ""}},
		// An allow rewritten into the sandbox, by a grant: no status.
		{audit.Entry{Time: at, Session: "s1", Seq: 5, Event: "PreToolUse", Agent: "codex", Tool: "Bash", ToolCallID: "call_7",
			Tier: "session", Decision: "allowed", Grant: "g-1cda000761c9", Authority: "grant", Profile: "write", Policy: "default"},
			"execute_tool Bash", codes.Unset, map[string]string{
				"gen_ai.tool.call.id": "call_7", "guard.grant": "g-1cda000761c9", "guard.profile": "write", "guard.tier": "session",
				"guard.decision": "allowed", "guard.authority": "grant", "error.type": ""}},
		// An ask is no error: the user may run it.
		{audit.Entry{Time: at, Session: "s1", Seq: 6, Event: "PermissionRequest", Agent: "claude", Tool: "Edit", Tier: "ask",
			Decision: "asked", Review: true},
			"execute_tool Edit", codes.Unset, map[string]string{
				"gen_ai.tool.name": "Edit", "gen_ai.tool.call.id": "", "guard.decision": "asked", "guard.review": "true",
				"error.type": ""}},
		// guard could not judge the call: blocked, an error of its own.
		{audit.Entry{Time: at, Session: "g1", Seq: 1, Event: "PreToolUse", Agent: "gemini", Tool: "run_shell_command",
			Decision: "blocked-error", Authority: "guard", Reason: "the policy does not load"},
			"execute_tool run_shell_command", codes.Error, map[string]string{
				"error.type": "blocked-error", "gen_ai.conversation.id": "g1", "guard.authority": "guard"}},
		// A call without a usable session id: no conversation.
		{audit.Entry{Time: at, Session: "-", Seq: 9, Event: "PreToolUse", Tool: "Read", Decision: "allowed"},
			"execute_tool Read", codes.Unset, map[string]string{
				"gen_ai.conversation.id": "", "guard.session": "-"}},
		// The API's and guard serve's calls.
		{audit.Entry{Time: at, Session: "h1", Seq: 2, Event: "approve", Agent: "harness", Tool: "shell", Decision: "allowed",
			Authority: "user"},
			"execute_tool shell", codes.Unset, map[string]string{"guard.event": "approve", "gen_ai.conversation.id": "h1"}},
		// No decision on a tool call: no span.
		{audit.Entry{Time: at, Session: "s1", Seq: 7, Event: "PostToolUse", Tool: "Edit", Decision: "asked", Authority: "user", Ran: &ran},
			"", 0, nil},
		{audit.Entry{Time: at, Session: "s1", Seq: 8, Event: "grant", Tool: "Edit", Grant: "g-1", Authority: "user"}, "", 0, nil},
		{audit.Entry{Time: at, Session: "s1", Seq: 9, Event: "SessionEnd", Authority: "guard"}, "", 0, nil},
		{audit.Entry{Time: at, Event: "PreToolUse", Decision: "blocked-error", Reason: "the hook input is not JSON"}, "", 0, nil},
	} {
		t.Logf("input: %s %d %s", tc.e.Event, tc.e.Seq, tc.e.Decision)
		ts, ok := toolSpanOf(tc.e)
		if ok != (tc.name != "") {
			t.Errorf("%s %s: a span: %v, want %v", tc.e.Event, tc.e.Tool, ok, tc.name != "")
			continue
		}
		if !ok {
			continue
		}
		if ts.name != tc.name || ts.status != tc.status {
			t.Errorf("%s %s: span %q, status %v; want %q, %v", tc.e.Event, tc.e.Tool, ts.name, ts.status, tc.name, tc.status)
		}
		if ts.status == codes.Error && ts.description != tc.e.Reason {
			t.Errorf("%s %s: status description %q, want the reason %q", tc.e.Event, tc.e.Tool, ts.description, tc.e.Reason)
		}
		got := map[string]string{}
		for _, kv := range ts.attrs {
			if _, dup := got[string(kv.Key)]; dup {
				t.Errorf("%s %s: attribute %s twice", tc.e.Event, tc.e.Tool, kv.Key)
			}
			got[string(kv.Key)] = kv.Value.String()
		}
		for _, k := range slices.Sorted(maps.Keys(tc.want)) {
			if v, has := got[k]; v != tc.want[k] || has != (tc.want[k] != "") {
				t.Errorf("%s %s: %s = %q (set: %v), want %q", tc.e.Event, tc.e.Tool, k, v, has, tc.want[k])
			}
		}
	}
}

// TestSpanIDs: a line's span ids are its own, the same each time it is
// exported, and valid.
func TestSpanIDs(t *testing.T) {
	a, b := idsOf([]byte(`{"seq":1}`)), idsOf([]byte(`{"seq":2}`))
	if a != idsOf([]byte(`{"seq":1}`)) {
		t.Error("one line has two ids")
	}
	if a.trace == b.trace || a.span == b.span {
		t.Errorf("two lines share ids: %v %v", a, b)
	}
	if !a.trace.IsValid() || !a.span.IsValid() {
		t.Errorf("ids not valid: %v", a)
	}
}

// TestTracesURL: the traces endpoint is the flag, else the standard
// variables, else the logs endpoint's /v1/traces.
func TestTracesURL(t *testing.T) {
	for _, tc := range []struct {
		flag, logs string
		env        map[string]string
		want       string
	}{
		{"http://t:4318/x", "http://c:4318/v1/logs", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://e/v1/traces"}, "http://t:4318/x"},
		{"", "http://c:4318/v1/logs", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://e/t", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://b"}, "http://e/t"},
		{"", "http://c:4318/v1/logs", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://b:4318/"}, "http://b:4318/v1/traces"},
		{"", "http://c:4318/v1/logs", nil, "http://c:4318/v1/traces"},
		{"", "http://c:4318/ingest", nil, ""},
	} {
		if got := tracesURL(tc.flag, tc.logs, func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("tracesURL(%q, %q, %v) = %q, want %q", tc.flag, tc.logs, tc.env, got, tc.want)
		}
	}
	noEnv := func(string) string { return "" }
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--endpoint", "http://c/ingest", "--spans", "--state", t.TempDir()}, "no traces endpoint for --spans"},
		{[]string{"--endpoint", "http://c/v1/logs", "--traces-endpoint", "http://c/v1/traces", "--state", t.TempDir()}, "--traces-endpoint is for --spans"},
	} {
		if err := run(tc.args, noEnv); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("run %q: %v, want %q", tc.args, err, tc.want)
		}
	}
}
