// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"guard/engine"
)

// The golden inputs under testdata/goose are goose's documented payload
// (block/goose documentation/docs/guides/context-engineering/hooks.md,
// "Hook Payload": its example of a tool event, as PreToolUse, with the
// tool_call_id it documents for that event) for its developer tools, with
// the tool_input keys of "Tool Input Keys". goose is not on npm; no real
// client sent them.

// gooseInput is a PreToolUse payload in /p for tool with input.
func gooseInput(tool, input string) string {
	return `{"event":"PreToolUse","session_id":"s","matcher_context":"` + tool + `","tool_call_id":"c","tool_name":"` + tool +
		`","tool_input":` + input + `,"working_dir":"/p"}`
}

// TestGooseDecode: each developer tool's input becomes the call guard
// judges, and what guard cannot judge is denied.
func TestGooseDecode(t *testing.T) {
	const proj = "/Users/you/project"
	for _, tc := range []struct {
		in   string
		call engine.Call // Session is "s", or the golden file's
		id   string      // the call's id
		err  string      // a substring of the denial
	}{
		{"@goose/pretooluse-developer__shell.json", engine.Call{Kind: engine.KindShell, Tool: "developer__shell", Input: engine.Input{Command: "rg TODO"}, Cwd: proj}, "call-1", ""},
		{"@goose/pretooluse-developer__write.json", engine.Call{Kind: engine.KindWrite, Tool: "developer__write", Input: engine.Input{Path: proj + "/notes.md"}, Cwd: proj}, "call-2", ""},
		{"@goose/pretooluse-developer__edit.json", engine.Call{Kind: engine.KindEdit, Tool: "developer__edit", Input: engine.Input{Path: proj + "/notes.md"}, Cwd: proj}, "call-3", ""},
		{"@goose/pretooluse-developer__tree.json", engine.Call{Kind: engine.KindList, Tool: "developer__tree", Input: engine.Input{Path: proj}, Cwd: proj}, "call-4", ""},
		{gooseInput("developer__shell", `{"command":"cargo test","timeout_secs":600}`), engine.Call{Kind: engine.KindShell, Tool: "developer__shell", Input: engine.Input{Command: "cargo test"}, Cwd: "/p"}, "c", ""},
		{gooseInput("developer__tree", `{"depth":1}`), engine.Call{Kind: engine.KindList, Tool: "developer__tree", Cwd: "/p"}, "c", ""}, // the working directory
		{gooseInput("developer__read_image", `{"source":"/h/.ssh/id_rsa"}`), engine.Call{Kind: engine.KindTool, Tool: "developer__read_image", Cwd: "/p"}, "c", ""},
		{gooseInput("github__get_issue", `{"number":1}`), engine.Call{Kind: engine.KindTool, Tool: "github__get_issue", Cwd: "/p"}, "c", ""},
		// A path that is not absolute, or starts with ~: guard cannot tell
		// which file goose takes it for.
		{gooseInput("developer__write", `{"path":"notes.md","content":""}`), engine.Call{}, "", `path "notes.md" is not absolute`},
		{gooseInput("developer__edit", `{"path":"~/.bashrc","before":"a","after":"b"}`), engine.Call{}, "", `path "~/.bashrc" is not absolute`},
		{gooseInput("developer__write", `{"path":["/p/a"]}`), engine.Call{}, "", "not a string guard can judge"},
		{gooseInput("developer__shell", `"ls"`), engine.Call{}, "", "tool_input is not a JSON object"},
		{strings.Replace(gooseInput("developer__shell", `{"command":"ls"}`), `"working_dir":"/p"`, `"working_dir":"p"`, 1), engine.Call{}, "", "not an absolute path"},
		{strings.Replace(gooseInput("developer__shell", `{"command":"ls"}`), `"PreToolUse"`, `"PostToolUse"`, 1), engine.Call{}, "", `does not take its "PostToolUse" event`},
		{strings.Replace(gooseInput("developer__shell", `{"command":"ls"}`), `"PreToolUse"`, `"BeforeShellExecution"`, 1), engine.Call{}, "", `does not take its "BeforeShellExecution" event`},
		{`{"event":"PreToolUse","session_id":"s","matcher_context":"x","tool_input":{},"working_dir":"/p"}`, engine.Call{}, "", `no "tool_name" field`},
	} {
		want := tc.call
		want.Session = "s"
		if strings.HasPrefix(tc.in, "@") {
			want.Session = "abc-123"
		}
		if ev, ok := decoded(t, Goose{}, "goose", tc.in, tc.err); ok && (ev.Name != "PreToolUse" || ev.CallID != tc.id || !sameCall(ev.Call, want)) {
			t.Errorf("%s: decoded %s %q %+v, want %q %+v", tc.in, ev.Name, ev.CallID, ev.Call, tc.id, want)
		}
	}
}

// TestGooseDefaultPolicy decides goose's payloads with the default
// policy, as guard hook would, and checks the exact answers.
func TestGooseDefaultPolicy(t *testing.T) {
	const refuse = "; goose has no ask for a hook, so guard refuses what it would ask"
	checkAnswers(t, Goose{}, []answerCase{
		{"@goose/pretooluse-developer__shell.json", false, "exit 0, silent"},
		{"@goose/pretooluse-developer__shell.json", true, "exit 2: guard (policy default): allowed: rg is allowed; it must run in guard's sandbox, " +
			"and goose's hook cannot rewrite a command to run there, so guard refuses it"},
		{"@goose/pretooluse-developer__tree.json", true, "exit 0, silent"},
		{"@goose/pretooluse-developer__write.json", false, "exit 2: guard (policy default): needs approval: developer__write: writing /Users/you/project/notes.md: " +
			"needs approval once in this session; once approved, the session is granted dir /Users/you/project (rule paths.write)" + refuse},
		{gooseInput("developer__shell", `{"command":"cat ~/.ssh/id_rsa"}`), true, "exit 2: cat: ~/.ssh/id_rsa is a secret file (~/.ssh/**; OpenSSH: private keys " +
			"and the per-user client configuration): guard does not let it be read or written (rule paths.secret ~/.ssh/**, policy default)"},
		{gooseInput("developer__write", `{"path":"/p/.agents/plugins/guard/hooks/hooks.json","content":"{}"}`), false, "exit 2: developer__write: " +
			"/p/.agents/plugins/guard/hooks/hooks.json is protected: it configures a coding agent ({project}/.agents/**), and no tool may change it " +
			"(rule paths.protected {project}/.agents/**, policy default)"},
		{gooseInput("developer__write", `{"path":"/p/.config/goose/settings.json","content":"{\"disabledPlugins\":[\"guard\"]}"}`), false, "exit 2: developer__write: " +
			"/p/.config/goose/settings.json is protected: it configures a coding agent ({project}/.config/goose/**), and no tool may change it " +
			"(rule paths.protected {project}/.config/goose/**, policy default)"},
	})
}

// TestGooseChecks: guard doctor fails a guard plugin that a settings file
// disables, or that a project's plugin of the same name hides.
func TestGooseChecks(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	user := FoundHook{File: filepath.Join(goosePluginDir(home), "hooks", "hooks.json")}
	project := FoundHook{File: filepath.Join(goosePluginDir(dir), "hooks", "hooks.json")}
	write := func(name, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	failed := func(found FoundHook) []string {
		var out []string
		for _, c := range gooseChecks(home, dir, map[string][]FoundHook{"PreToolUse": {found}}) {
			if !c.OK {
				out = append(out, c.What)
			}
		}
		return out
	}
	if f := failed(user); len(f) != 0 {
		t.Errorf("a clean installation: failed %q", f)
	}
	write(filepath.Join(dir, ".config", "goose", "settings.json"), `{"disabledPlugins":["other"]}`)
	write(filepath.Join(dir, ".agents", "plugins", "guard", "plugin.json"), `{}`)
	if f := failed(user); len(f) != 1 || !strings.Contains(f[0], "no plugin of the project is named guard") {
		t.Errorf("the user's plugin hidden by the project's: failed %q", f)
	}
	if f := failed(project); len(f) != 0 {
		t.Errorf("the project's plugin: failed %q", f)
	}
	write(filepath.Join(dir, ".config", "goose", "settings.local.json"), `{"disabledPlugins":["guard"]}`)
	if f := failed(project); len(f) != 1 || !strings.Contains(f[0], "settings.local.json") {
		t.Errorf("disabled in settings.local.json: failed %q", f)
	}
}
