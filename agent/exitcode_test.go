// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"guard/engine"
)

// TestExitAnswer: the agents that speak by exit code alone are answered
// exit 0 and nothing for an allow, and exit 2 for everything else: a
// deny, an ask they cannot put to their user, and an allow that must run
// rewritten, which they cannot be told to do.
func TestExitAnswer(t *testing.T) {
	leaves := []engine.Leaf{{Verdict: engine.Allow, Kind: "command", Text: "ls", Why: "ls is allowed"}}
	allow := &engine.Decision{Verdict: engine.Allow, Leaves: leaves}
	rewrite := &engine.Decision{Verdict: engine.Allow, Leaves: leaves, Rewrite: &engine.Input{Command: "'/g' 'run' -- bash -c 'ls'"}}
	ask := &engine.Decision{Verdict: engine.Ask, Leaves: []engine.Leaf{{Verdict: engine.Ask, Kind: "command", Text: "make", Rule: "make", Why: "make needs approval"}}}
	deny := &engine.Decision{Verdict: engine.Deny, Leaves: []engine.Leaf{{Verdict: engine.Deny, Kind: "command", Text: "rm -rf /", Rule: "rm", Why: "rm -rf deletes directories", Hint: "delete single files"}}}
	ev := &Event{Name: "PreToolUse", Call: engine.Call{Kind: engine.KindShell, Tool: "shell", Input: engine.Input{Command: "ls"}}, Raw: map[string]any{"command": "ls"}}
	for _, ad := range []struct {
		name string
		a    Adapter
	}{{"Kiro CLI", Kiro{}}, {"Windsurf", Windsurf{}}, {"goose", Goose{}}} {
		for _, tc := range []struct {
			d     *engine.Decision
			want  string
			hints []string
		}{
			{allow, "exit 0, silent", nil},
			{rewrite, "exit 2: guard (p): allowed: ls is allowed; it must run in guard's sandbox, and " + ad.name + "'s hook cannot rewrite a command to run there, so guard refuses it", []string{"to run it in guard's sandbox, run exactly this command instead, which guard allows as it is: '/g' 'run' -- bash -c 'ls'"}},
			{ask, "exit 2: guard (p): needs approval: make needs approval (rule make); " + ad.name + " has no ask for a hook, so guard refuses what it would ask", []string{""}},
			{deny, "exit 2: rm -rf deletes directories (rule rm, p)", []string{"delete single files"}},
		} {
			a := ad.a.Answer(ev, tc.d, "p")
			var hints []string
			if a.Deny != nil {
				hints = a.Deny.Hints
			}
			if got := answerString(a); got != tc.want || !slices.Equal(hints, tc.hints) {
				t.Errorf("%s, %s: %s %q\nwant %s %q", ad.name, tc.d.Verdict, got, hints, tc.want, tc.hints)
			}
		}
	}
}

// TestInstallExitAgents: guard init's files for Kiro CLI, Windsurf and
// goose, in either scope, merged into what is there, the same when
// planned again, and where guard doctor looks.
func TestInstallExitAgents(t *testing.T) {
	const guard = "/opt/guard bin/guard"
	for _, tc := range []struct {
		name    string
		ad      Adapter
		project bool
		file    string // the hooks file, under the dir
		old     string // what is there before
		want    []string
	}{
		{"kiro", Kiro{}, true, ".kiro/agents/guard.json", ``, []string{`"name": "guard"`, `"tools": [` + "\n" + `    "*"`, `"preToolUse": [`,
			`"command": "'/opt/guard bin/guard' hook --agent kiro"`, `"timeout_ms": 30000`, `"cache_ttl_seconds": 0`}},
		{"kiro", Kiro{}, false, ".kiro/agents/guard.json",
			`{"name": "guard", "tools": ["fs_read", "execute_bash"], "resources": ["file://README.md"], "hooks": {"preToolUse": [{"command": "/old/guard hook --agent kiro", "matcher": "fs_*"}], "stop": [{"command": "npm test"}]}}`,
			[]string{`"fs_read"`, `"file://README.md"`, `"npm test"`, `"command": "'/opt/guard bin/guard' hook --agent kiro"`}},
		{"windsurf", Windsurf{}, true, ".windsurf/hooks.json",
			`{"hooks": {"post_write_code": [{"command": "./lint.sh", "show_output": true}], "pre_run_command": [{"command": "./audit.sh"}]}}`,
			[]string{`"./lint.sh"`, `"./audit.sh"`, `"pre_mcp_tool_use"`, `"pre_read_code"`, `"pre_write_code"`, `"show_output": true`}},
		{"windsurf", Windsurf{}, false, ".codeium/windsurf/hooks.json", ``, []string{`"pre_run_command"`}},
		{"goose", Goose{}, true, ".agents/plugins/guard/hooks/hooks.json",
			`{"hooks": {"PostToolUse": [{"matcher": "developer__shell", "hooks": [{"type": "command", "command": "./log.sh"}]}]}}`,
			[]string{`"./log.sh"`, `"PreToolUse"`, `"on_failure": "block"`, `"timeout": 30`, `"type": "command"`}},
		{"goose", Goose{}, false, ".agents/plugins/guard/hooks/hooks.json", ``, []string{`"on_failure": "block"`}},
	} {
		dir := t.TempDir()
		name := filepath.Join(dir, filepath.FromSlash(tc.file))
		if tc.old != "" {
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, []byte(tc.old), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		changes, err := tc.ad.Install(dir, tc.project, guard)
		if err != nil {
			t.Fatalf("%s (project %v): %v", tc.name, tc.project, err)
		}
		var hooks []byte
		for _, c := range changes {
			if err := os.MkdirAll(filepath.Dir(c.Path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(c.Path, c.New, 0o644); err != nil {
				t.Fatal(err)
			}
			if c.Path == name {
				hooks = c.New
			}
		}
		text := string(hooks)
		for _, w := range append(tc.want, "hook --agent "+tc.name) {
			if !strings.Contains(text, w) {
				t.Errorf("%s (project %v): %s has no %s:\n%s", tc.name, tc.project, tc.file, w, text)
			}
		}
		// One guard hook an event: the old one replaced, not doubled.
		if n, events := strings.Count(text, "hook --agent "+tc.name), strings.Count(text, guard); n != events || strings.Contains(text, "/old/guard") {
			t.Errorf("%s (project %v): %d guard hooks, %d of this guard:\n%s", tc.name, tc.project, n, events, text)
		}
		again, err := tc.ad.Install(dir, tc.project, guard)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range again {
			if !bytes.Equal(c.Old, c.New) {
				t.Errorf("%s (project %v): planned again, %s changes:\n%s", tc.name, tc.project, c.Path, c.New)
			}
		}
		home, project := "/nonexistent", dir
		if !tc.project {
			home, project = dir, "/nonexistent"
		}
		spec := tc.ad.Doctor(func(k string) string { return map[string]string{"HOME": home}[k] }, project)
		if !slices.Contains(spec.Files, name) || spec.Agent != tc.name {
			t.Errorf("%s (project %v): guard doctor reads %q, not %s", tc.name, tc.project, spec.Files, name)
		}
	}
}

// TestExitAgentsCanaries: guard doctor's canaries for Kiro CLI, Windsurf
// and goose, decided with the default policy where guard run works: the
// one to deny is a shell command, and denied; the one to allow is a read,
// which these agents can be allowed (a shell command they cannot).
func TestExitAgentsCanaries(t *testing.T) {
	inWorkspace(t, "/p")
	for _, ad := range []Adapter{Kiro{}, Windsurf{}, Goose{}} {
		spec := ad.Doctor(func(string) string { return "/tmp/e2e/home" }, "/p")
		ev, a := decideDefault(t, ad, spec.Input(doctorDenyCanary, "/p"), true)
		if ev.Call.Kind != engine.KindShell || a.Deny == nil || !strings.HasPrefix(a.Deny.Why, "rm -r") {
			t.Errorf("%s: the deny canary is %s %+v, answered %s", spec.Agent, ev.Call.Kind, ev.Call.Input, answerString(a))
		}
		ev, a = decideDefault(t, ad, spec.Input("git status", "/p"), true)
		if ev.Call.Kind == engine.KindShell || !spec.Allowed(0, string(a.Stdout)) || a.Deny != nil || !a.Silent {
			t.Errorf("%s: the allow canary is %s %+v, answered %s", spec.Agent, ev.Call.Kind, ev.Call.Input, answerString(a))
		}
	}
}

// inputOf is a test's hook input: in, or for "@NAME" the golden input
// testdata/NAME.
func inputOf(t *testing.T, in string) []byte {
	t.Helper()
	if name, ok := strings.CutPrefix(in, "@"); ok {
		return readGolden(t, name)
	}
	return []byte(in)
}

// decoded decodes a test's hook input with ad, the adapter of agent, and
// reports whether it decoded, to be compared: a denial must hold wantErr
// ("": none is wanted), and Detect must name agent for what decodes.
func decoded(t *testing.T, ad Adapter, agent, in, wantErr string) (*Event, bool) {
	t.Helper()
	data := inputOf(t, in)
	ev, err := ad.Decode(data)
	if got := Detect(data); err == nil && got != agent {
		t.Errorf("Detect(%s) = %q, want %s", in, got, agent)
	}
	switch {
	case wantErr != "":
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: error %v, want %q", in, err, wantErr)
		}
		return nil, false
	case err != nil:
		t.Errorf("%s: %v", in, err)
		return nil, false
	}
	return ev, true
}

// answerCase is a hook input (as inputOf reads it) and guard hook's answer
// to it with the default policy, where guard run works (sandbox) or not.
type answerCase struct {
	in      string
	sandbox bool
	want    string
}

// checkAnswers decides each case's input with ad and the default policy,
// as guard hook would, and checks the exact answer.
func checkAnswers(t *testing.T, ad Adapter, cases []answerCase) {
	t.Helper()
	for _, tc := range cases {
		_, a := decideDefault(t, ad, inputOf(t, tc.in), tc.sandbox)
		if got := answerString(a); got != tc.want {
			t.Errorf("%s (sandbox %v): answer\n%s\nwant\n%s", tc.in, tc.sandbox, got, tc.want)
		}
	}
}
