// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDrill plays a session through the real Claude Code against the
// scripted model, with guard registered for PreToolUse, PostToolUse and
// SessionEnd as the README says: an allowed read, a session-tier edit, a
// command of the never tier, a tool the project's policy does not
// classify, and an allowed command. claude -p cannot ask anyone, so what
// guard asks does not run (the grant that follows an approval is played
// through the real binary in cmd/guard/testdata/script/drill.txtar). Then
// guard log must tell that story, in order, from the lines the real client
// made guard write, and guard log verify must find the chain whole.
func TestDrill(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.write("notes.txt", "drill notes\n")
	// The project's policy leaves Glob out of [tools]: for that layer it is
	// a tool no one classified.
	p.write(".claude/guard.toml", `version = 1
default = "ask"
[tools]
Bash = "shell"
Read = "read"
Edit = "edit"
[paths]
write = "session"
[command.ls]
verdict = "allow"
`)
	settings := map[string]any{"hooks": map[string]any{
		"PreToolUse":  []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": p.hook, "timeout": hookTimeout, "onFailure": "block"}}}},
		"PostToolUse": []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": p.hook, "timeout": hookTimeout}}}},
		"SessionEnd":  []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": p.hook, "timeout": hookTimeout}}}},
	}}
	data, _ := json.MarshalIndent(settings, "", "  ")
	p.write(".claude/settings.json", string(data)+"\n")
	notes := filepath.Join(p.dir, "notes.txt")
	p.api = newFakeAPISeq(t,
		"Read", map[string]any{"file_path": notes},
		"Edit", map[string]any{"file_path": notes, "old_string": "drill", "new_string": "edited"},
		"Bash", map[string]any{"command": "git push --force origin main"},
		"Glob", map[string]any{"pattern": "*.txt"},
		"Bash", map[string]any{"command": "ls"},
	)
	o := p.run("Read", "Edit", "Bash", "Glob")
	if o.exit != 0 {
		t.Fatalf("claude exit %d: %s", o.exit, o.stderr)
	}
	events := map[string]int{}
	session := ""
	for _, c := range p.hookCalls() {
		events[c.event]++
		if c.event == "SessionEnd" {
			json.Unmarshal(c.fields["session_id"], &session)
		}
	}
	if events["PreToolUse"] != 5 || events["PostToolUse"] != 2 || events["SessionEnd"] != 1 {
		t.Fatalf("hook calls %v, want 5 PreToolUse, 2 PostToolUse (the calls that ran) and 1 SessionEnd", events)
	}

	guard := buildGuard(t)
	logCmd := func(args ...string) (string, error) {
		cmd := exec.Command(guard, append([]string{"log"}, args...)...)
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + p.home}
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if errb.Len() > 0 {
			t.Errorf("guard log %v: stderr %s", args, errb.String())
		}
		return out.String(), err
	}
	out, err := logCmd("--session", session, "--json")
	if err != nil {
		t.Fatalf("guard log: %v", err)
	}
	type line struct {
		Event, Tool, Decision, Tier, Authority, Call, Reason, Outcome string
		Review                                                        bool
	}
	var got []line
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("guard log --json: %v: %s", err, sc.Text())
		}
		got = append(got, l)
	}
	want := []line{
		{Event: "PreToolUse", Tool: "Read", Decision: "allowed", Tier: "allow", Authority: "policy", Outcome: "ran"},
		{Event: "PostToolUse", Tool: "Read", Decision: "allowed", Authority: "policy"},
		{Event: "PreToolUse", Tool: "Edit", Decision: "asked", Tier: "session", Authority: "policy", Outcome: "not run (not approved, or not reported)"},
		{Event: "PreToolUse", Tool: "Bash", Decision: "denied", Tier: "deny", Authority: "policy", Outcome: "blocked", Call: "git push --force origin main"},
		{Event: "PreToolUse", Tool: "Glob", Decision: "asked", Tier: "ask", Authority: "policy", Outcome: "not run (not approved, or not reported)", Review: true},
		{Event: "PreToolUse", Tool: "Bash", Decision: "allowed", Tier: "allow", Authority: "policy", Outcome: "ran", Call: "ls"},
		{Event: "PostToolUse", Tool: "Bash", Decision: "allowed", Authority: "policy", Call: "ls"},
		{Event: "SessionEnd", Authority: "guard"},
	}
	if len(got) != len(want) {
		t.Fatalf("guard log tells %d steps, want %d:\n%s", len(got), len(want), out)
	}
	for i, w := range want {
		g := got[i]
		if g.Event != w.Event || g.Tool != w.Tool || g.Decision != w.Decision || g.Authority != w.Authority || g.Outcome != w.Outcome ||
			w.Tier != "" && g.Tier != w.Tier || w.Call != "" && g.Call != w.Call || g.Review != w.Review {
			t.Errorf("step %d: got %+v, want %+v", i+1, g, w)
		}
	}
	if !strings.Contains(got[3].Reason, "rewrites or deletes history") {
		t.Errorf("the never-tier deny does not say why: %q", got[3].Reason)
	}
	if out, err := logCmd("verify"); err != nil || !strings.Contains(out, "every chain is whole") {
		t.Errorf("guard log verify: %v: %s", err, out)
	}
}
