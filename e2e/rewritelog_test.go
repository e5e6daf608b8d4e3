// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	guardsandbox "guard/sandbox"
)

// writeRewriteProject writes the user's policy of the tests of guard's
// rewrites in the log (every allowed shell command runs under guard run;
// make integration in the policy's profile net) into home, and a Makefile
// whose targets print notes.txt into the project dir.
func writeRewriteProject(t *testing.T, home, dir string) {
	t.Helper()
	if err := guardsandbox.Available(); err != nil {
		t.Skipf("guard run cannot run here: %v", err)
	}
	policy, err := os.ReadFile("../engine/testdata/valid/sandboxed.toml")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, home, ".config/guard/guard.toml", string(policy))
	writeFile(t, dir, "notes.txt", "notes\n")
	writeFile(t, dir, "Makefile", "show:\n\tcat notes.txt\nintegration:\n\tcat notes.txt\n")
}

// checkRewriteLogged checks that the agent reported guard's rewrite of
// command (reported, from the hook's input after the call ran), and that
// guard log, for the home's state, tells the call as guard allowed it and
// its report as that call having run in profile: two lines, with the same
// rewrite digest, and no deny of guard's own command line.
func checkRewriteLogged(t *testing.T, home, command, reported, profile string) {
	t.Helper()
	if !strings.Contains(reported, "' 'run' ") || !strings.HasSuffix(reported, " -- bash --noprofile --norc -c '"+command+"'") {
		t.Fatalf("the agent reported %q after the call ran: want guard's rewrite of %q", reported, command)
	}
	t.Logf("reported after the call ran: %s", reported)
	logOf := func(args ...string) string {
		cmd := exec.Command(buildGuard(t), append([]string{"log"}, args...)...)
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home}
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil || errb.Len() > 0 {
			t.Fatalf("guard log %v: %v: %s", args, err, errb.String())
		}
		return out.String()
	}
	t.Logf("guard log:\n%s", logOf())
	type line struct {
		Event, Decision, Call, Profile, Outcome string
		Digest                                  string `json:"digest"`
		RewriteDigest                           string `json:"rewrite_digest"`
		Ran                                     *bool
	}
	var got []line
	sc := bufio.NewScanner(strings.NewReader(logOf("--json")))
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("guard log --json: %v: %s", err, sc.Text())
		}
		got = append(got, l)
	}
	if len(got) != 2 {
		t.Fatalf("guard log tells %d steps, want 2 (the call and its report): %+v", len(got), got)
	}
	g, r := got[0], got[1]
	if g.Event != "PreToolUse" || g.Decision != "allowed" || g.Call != command || g.Profile != profile || g.Outcome != "ran" || g.RewriteDigest == "" {
		t.Errorf("the call: %+v; want %q allowed in profile %s, ran", g, command, profile)
	}
	if r.Event != "PostToolUse" || r.Decision != "allowed" || r.Call != command || r.Profile != profile || r.Ran == nil || !*r.Ran ||
		r.RewriteDigest != g.RewriteDigest || r.Digest == g.Digest {
		t.Errorf("the report: %+v; want %q allowed, ran in profile %s, with the call's rewrite digest", r, command, profile)
	}
}

// TestRewriteLogged plays sessions through the real Claude Code with
// guard registered for PreToolUse and PostToolUse: each allowed Bash call
// is answered with its command rewritten to run under guard run, Claude
// Code runs the rewrite and reports it in PostToolUse, and guard log
// tells it as the allowed call that ran, in its sandbox's profile.
func TestRewriteLogged(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		readOnly bool   // guard hook --read-only
		command  string // the model's Bash call
		profile  string
	}{
		{"write", false, "make show", "write"},
		{"own-profile", false, "make integration", "net"},
		{"read-only", true, "cat notes.txt", "read-only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newProject(t)
			writeRewriteProject(t, p.home, p.dir)
			hook := p.hook
			if tc.readOnly {
				hook += " --read-only"
			}
			settings := map[string]any{"hooks": map[string]any{
				"PreToolUse":  []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": hook, "timeout": hookTimeout, "onFailure": "block"}}}},
				"PostToolUse": []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": hook, "timeout": hookTimeout}}}},
			}}
			data, _ := json.MarshalIndent(settings, "", "  ")
			p.write(".claude/settings.json", string(data)+"\n")
			p.script("Bash", map[string]any{"command": tc.command})
			o := p.run("Bash")
			if r := p.oneToolResult(o); r.IsError || !strings.Contains(r.Text, "notes") {
				t.Fatalf("the rewritten command did not run (is_error=%v): %q", r.IsError, r.Text)
			}
			var reported string
			for _, c := range p.hookCalls() {
				if c.event == "PostToolUse" {
					reported, _ = c.input["command"].(string)
				}
			}
			checkRewriteLogged(t, p.home, tc.command, reported, tc.profile)
		})
	}
}

// TestCodexRewriteLogged: as TestRewriteLogged, with the real Codex and
// its PostToolUse.
func TestCodexRewriteLogged(t *testing.T) {
	t.Parallel()
	const cmd = "make show"
	p := newCodexProject(t)
	p.hooks["PostToolUse"] = p.hook
	writeRewriteProject(t, p.home, p.dir)
	p.script("exec_command", map[string]any{"cmd": cmd})
	o := p.run()
	if text := p.oneOutput(o); !strings.Contains(text, "notes") {
		t.Fatalf("the rewritten command did not run: %q", text)
	}
	posts := hookCallsOf(p.hookCalls(), "PostToolUse")
	if len(posts) != 1 {
		t.Fatalf("%d PostToolUse calls, want 1", len(posts))
	}
	reported, _ := posts[0].input["command"].(string)
	checkRewriteLogged(t, p.home, cmd, reported, "write")
}

// TestGeminiRewriteLogged: as TestRewriteLogged, with the real Gemini CLI
// and its AfterTool.
func TestGeminiRewriteLogged(t *testing.T) {
	t.Parallel()
	const cmd = "make integration"
	p := newGeminiProject(t)
	p.register(map[string]string{"BeforeTool": p.hook, "AfterTool": p.hook})
	writeRewriteProject(t, p.home, p.dir)
	p.script("run_shell_command", map[string]any{"command": cmd})
	o := p.run()
	if text, _ := p.oneFunctionResponse(o, "run_shell_command"); !strings.Contains(text, "notes") {
		t.Fatalf("the rewritten command did not run: %q", text)
	}
	afters := hookCallsOf(p.hookCalls(), "AfterTool")
	if len(afters) != 1 {
		t.Fatalf("%d AfterTool calls, want 1", len(afters))
	}
	reported, _ := afters[0].input["command"].(string)
	checkRewriteLogged(t, p.home, cmd, reported, "net")
}
