// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"guard/engine"
)

// The golden input under testdata/amp/delegate is what Amp
// 0.0.1790142911-g7618fb gave its delegate on stdin in the e2e runs (amp
// permissions test shell_command), with the test's temporary directory
// renamed /tmp/e2e: the tool's arguments alone, which Detect cannot tell
// from any agent's, and so is not in TestDetectGolden's testdata/*/ files.

// ampEnv is a delegate's environment naming tool.
func ampEnv(tool string) func(string) string {
	return func(k string) string {
		switch k {
		case "AGENT_TOOL_NAME":
			return tool
		case "AGENT":
			return "amp"
		}
		return ""
	}
}

// TestAmpDecode: each tool's arguments, with the tool's name from the
// environment and the delegate's working directory, are the call the
// engine judges; what guard cannot read is denied.
func TestAmpDecode(t *testing.T) {
	patch := func(files ...string) string {
		p := "*** Begin Patch\n"
		for _, f := range files {
			p += "*** Update File: " + f + "\n@@\n-a\n+b\n"
		}
		b, _ := json.Marshal(map[string]string{"patchText": p + "*** End Patch"})
		return string(b)
	}
	for _, tc := range []struct {
		tool, in, cwd string // in "@FILE" for a golden input
		call          engine.Call
		err           string
	}{
		{"shell_command", "@amp/delegate/shell_command.json", "/tmp/e2e", engine.Call{Kind: engine.KindShell, Tool: "shell_command", Input: engine.Input{Command: "cat hello.txt"}, Cwd: "/tmp/e2e/proj"}, ""},
		{"shell_command", `{"command":"ls"}`, "/p", engine.Call{Kind: engine.KindShell, Tool: "shell_command", Input: engine.Input{Command: "ls"}, Cwd: "/p"}, ""},
		{"shell_command", `{"command":"ls","workdir":"/p/sub/../src"}`, "/p", engine.Call{Kind: engine.KindShell, Tool: "shell_command", Input: engine.Input{Command: "ls"}, Cwd: "/p/src"}, ""},
		// Bash, of Amp's older documentation, is no tool guard reads: the
		// default policy denies it so (TestAmpAnswer).
		{"Bash", `{"cmd":"ls","cwd":"/q"}`, "/p", engine.Call{Kind: engine.KindTool, Tool: "Bash", Cwd: "/p"}, ""},
		{"create_file", `{"path":"/p/n.txt","content":"x"}`, "/p", engine.Call{Kind: engine.KindWrite, Tool: "create_file", Input: engine.Input{Path: "/p/n.txt"}, Cwd: "/p"}, ""},
		{"edit_file", `{"path":"/p/a.go","old_str":"a","new_str":"b"}`, "/p", engine.Call{Kind: engine.KindEdit, Tool: "edit_file", Input: engine.Input{Path: "/p/a.go"}, Cwd: "/p"}, ""},
		{"apply_patch", patch("src/a.go"), "/p", engine.Call{Kind: engine.KindWrite, Tool: "apply_patch", Input: engine.Input{Path: "/p/src/a.go"}, Cwd: "/p"}, ""},
		{"read_web_page", `{"url":"https://example.com","objective":"o"}`, "/p", engine.Call{Kind: engine.KindFetch, Tool: "read_web_page", Input: engine.Input{URL: "https://example.com"}, Cwd: "/p"}, ""},
		{"web_search", `{"objective":"o"}`, "/p", engine.Call{Kind: engine.KindFetch, Tool: "web_search", Cwd: "/p"}, ""},
		{"skill", `{"name":"x"}`, "/p", engine.Call{Kind: engine.KindTool, Tool: "skill", Cwd: "/p"}, ""},
		// What guard cannot read.
		{"", `{"command":"ls"}`, "/p", engine.Call{}, "AGENT_TOOL_NAME is not set: guard hook --agent amp runs as Amp's delegate, which names the tool there"},
		{"shell_command", `{"command":"ls"}`, "", engine.Call{}, "the working directory of Amp's delegate is not known, and the call's is taken from it"},
		{"shell_command", `{"command":"ls","workdir":"src"}`, "/p", engine.Call{}, `the shell_command call's workdir "src" is not an absolute path, and guard cannot tell what Amp joins it to`},
		{"shell_command", `{"command":"ls","workdir":7}`, "/p", engine.Call{}, `the shell_command call's "workdir" field is not a string guard can judge`},
		// A workdir outside the delegate's directory would be the
		// project guard judges the command in: another tree of the user's.
		{"shell_command", `{"command":"make test","workdir":"/q"}`, "/p", engine.Call{}, `the shell_command call's workdir /q is not in Amp's working directory /p, the project guard judges its commands in`},
		{"shell_command", `{"command":"make test","workdir":"/p/../q"}`, "/p", engine.Call{}, `the shell_command call's workdir /q is not in Amp's working directory /p, the project guard judges its commands in`},
		{"shell_command", `{"command":"make test","workdir":"/pq"}`, "/p", engine.Call{}, `the shell_command call's workdir /pq is not in Amp's working directory /p, the project guard judges its commands in`},
		{"shell_command", `{"command":""}`, "/p", engine.Call{}, `the shell_command call's "command" field is not a string guard can judge`},
		{"apply_patch", patch("a.go", "b.go"), "/p", engine.Call{}, "apply_patch: the patch names 2 files (/p/a.go, /p/b.go); guard judges one file per call"},
		{"apply_patch", `{}`, "/p", engine.Call{}, "the apply_patch call has no patchText"},
		{"create_file", `{"path":["/p/a"]}`, "/p", engine.Call{}, `the create_file call's "path" field is not a path guard can judge`},
		{"shell_command", `["ls"]`, "/p", engine.Call{}, "the hook input is not a JSON object: json: cannot unmarshal array into Go value of type map[string]interface {}"},
	} {
		data := []byte(tc.in)
		if name, ok := strings.CutPrefix(tc.in, "@"); ok {
			data = readGolden(t, name)
		}
		ev, err := Amp{}.DecodeEnv(data, ampEnv(tc.tool), tc.cwd)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s %s: error %v, want %q", tc.tool, tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s %s: %v", tc.tool, tc.in, err)
		case ev.Name != "PreToolUse" || !sameCall(ev.Call, tc.call):
			t.Errorf("%s %s: decoded %s %+v, want PreToolUse %+v", tc.tool, tc.in, ev.Name, ev.Call, tc.call)
		}
	}
	if _, err := (Amp{}).Decode([]byte(`{"command":"ls"}`)); err == nil {
		t.Error("Amp's Decode, without the environment, did not deny")
	}
}

// TestAmpWorkdirLink: a workdir in the project that is a symbolic link
// to another tree is where Amp runs the command, and guard run would take
// that tree for the project: it is refused.
func TestAmpWorkdirLink(t *testing.T) {
	root := t.TempDir()
	proj, other := filepath.Join(root, "proj"), filepath.Join(root, "other")
	for _, d := range []string{filepath.Join(proj, "sub"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(other, filepath.Join(proj, "link")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		workdir string
		ok      bool
	}{
		{proj, true},
		{filepath.Join(proj, "sub"), true},
		{filepath.Join(proj, "link"), false},
		{filepath.Join(proj, "link", "new"), false},
		{filepath.Join(proj, "sub", "new"), true},
		{other, false},
	} {
		in, _ := json.Marshal(map[string]any{"command": "make test", "workdir": tc.workdir})
		ev, err := Amp{}.DecodeEnv(in, ampEnv("shell_command"), proj)
		if (err == nil) != tc.ok {
			t.Errorf("workdir %s: %+v, %v; want it taken: %v", tc.workdir, ev, err, tc.ok)
		}
	}
}

// TestAmpAnswer: an allow is exit 0 with nothing on stdout; an allow
// that needs guard run's rewrite, an ask and a deny are exit 2.
func TestAmpAnswer(t *testing.T) {
	for _, tc := range []struct {
		tool, in string
		sandbox  bool
		want     string
	}{
		{"shell_command", `{"command":"cat hello.txt"}`, false, "exit 0, silent"},
		{"shell_command", `{"command":"cat hello.txt"}`, true, "exit 2: guard (policy default): allowed: cat is allowed; it must run in guard's sandbox (guard run), and Amp's delegate cannot change a call, so guard refuses it rather than let it run unbounded"},
		{"shell_command", `{"command":"rm -rf /"}`, true, "exit 2: rm -r: it deletes directories recursively (rule rm -r, policy default)"},
		{"shell_command", `{"command":"touch x"}`, false, "exit 2: guard (policy default): needs approval: touch needs approval once in this session; once approved, the session is granted rule touch (rule touch); guard hook answers allow or deny only (Amp's ask is exit 1, which guard never gives), so guard refuses what it would ask"},
		{"read_web_page", `{"url":"https://example.com"}`, true, "exit 2: read_web_page: no [fetch] pattern allows https://example.com (rule fetch.unlisted, policy default)"},
		{"Bash", `{"cmd":"ls"}`, true, "exit 2: the policy judges Bash as a shell call, and the call came as an other tool (rule tools.Bash, policy default)"},
	} {
		ev, err := Amp{}.DecodeEnv([]byte(tc.in), ampEnv(tc.tool), "/p")
		if err != nil {
			t.Fatal(err)
		}
		if got := answerString(answerDefault(t, Amp{}, ev, tc.sandbox)); got != tc.want {
			t.Errorf("%s %s (sandbox %v):\n got %s\nwant %s", tc.tool, tc.in, tc.sandbox, got, tc.want)
		}
	}
}

// TestAmpInstall: the delegate script runs guard hook --agent amp, and
// its rule goes first in amp.permissions, the rules there were kept after
// it and a guard rule there was replaced; a second install changes
// nothing; amp.permissions that is not a list is an error.
func TestAmpInstall(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, ".amp", "settings.json")
	script := filepath.Join(dir, ".amp", AmpDelegateName)
	writeTestFile(t, name, `{"amp.dangerouslyAllowAll":false,"amp.permissions":[{"tool":"Bash","action":"allow"},{"tool":"*","action":"delegate","to":"/old/guard-delegate"}]}`)
	changes, err := Amp{}.Install(dir, true, "/opt/guard")
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 2 || changes[0].Path != script || changes[1].Path != name {
		t.Fatalf("changes %+v, want the script and the settings", changes)
	}
	if got, want := string(changes[0].New), "#!/bin/sh\n# guard hook, as Amp's delegate (written by guard init)\nexec '/opt/guard' hook --agent amp\n"; got != want || changes[0].Mode != 0o755 {
		t.Errorf("script (mode %o):\n%s\nwant (0755):\n%s", changes[0].Mode, got, want)
	}
	var got map[string]any
	if err := json.Unmarshal(changes[1].New, &got); err != nil {
		t.Fatal(err)
	}
	want := `{"amp.dangerouslyAllowAll":false,"amp.permissions":[{"action":"delegate","to":` + jsonString(script) + `,"tool":"*"},{"action":"allow","tool":"Bash"}]}`
	if b, _ := json.Marshal(got); string(b) != want {
		t.Errorf("settings:\n got %s\nwant %s", b, want)
	}
	for _, c := range changes {
		writeTestFile(t, c.Path, string(c.New))
	}
	again, err := Amp{}.Install(dir, true, "/opt/guard")
	if err != nil || string(again[1].New) != string(again[1].Old) || string(again[0].New) != string(again[0].Old) {
		t.Errorf("a second install changed the files (%v):\n%s", err, again[1].New)
	}
	user, _ := Amp{}.Install(dir, false, "/opt/guard")
	if want := filepath.Join(dir, ".config", "amp", "settings.json"); user[1].Path != want {
		t.Errorf("the user's settings: %s, want %s", user[1].Path, want)
	}
	writeTestFile(t, name, `{"amp.permissions":{"tool":"*"}}`)
	if _, err := (Amp{}).Install(dir, true, "/opt/guard"); err == nil {
		t.Error("amp.permissions that is not a list: no error")
	}
}

// TestAmpDoctorFind: guard doctor finds guard's delegate rule only where
// it is the first rule and its script runs guard hook.
func TestAmpDoctorFind(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, AmpDelegateName)
	rule := map[string]any{"tool": "*", "action": "delegate", "to": script}
	other := map[string]any{"tool": "Bash", "action": "allow"}
	find := Amp{}.Doctor(func(string) string { return dir }, dir).FindIn
	for _, tc := range []struct {
		script string // "" for none
		rules  []any
		want   string // the command found, or ""
	}{
		{"#!/bin/sh\nexec '/opt/guard' hook --agent amp\n", []any{rule, other}, "'/opt/guard' hook --agent amp"},
		{"#!/bin/sh\nexec '/opt/guard' hook --agent amp\n", []any{other, rule}, ""},
		{"#!/bin/sh\nexec /bin/true\n", []any{rule}, ""},
		{"", []any{rule}, ""},
	} {
		os.Remove(script)
		if tc.script != "" {
			writeTestFile(t, script, tc.script)
		}
		found := find("settings.json", map[string]any{"amp.permissions": tc.rules})
		got := ""
		if hs := found["amp.permissions"]; len(hs) == 1 {
			got, _ = hs[0].H["command"].(string)
		}
		if got != tc.want {
			t.Errorf("script %q, rules %v: found %q, want %q", tc.script, tc.rules, got, tc.want)
		}
	}
}

// TestAmpSkillsProtected: every directory Amp 0.0.1790142911-g7618fb
// loads skills from (amp skill list, with a skill in each) is a
// configuration no call may write, whichever agent makes it.
func TestAmpSkillsProtected(t *testing.T) {
	for _, p := range []string{
		"/tmp/e2e/home/.config/agents/skills/x/SKILL.md",
		"/tmp/e2e/home/.config/amp/skills/x/SKILL.md",
		"/tmp/e2e/home/.agents/skills/x/SKILL.md",
		"/tmp/e2e/home/.claude/skills/x/SKILL.md",
		"/tmp/e2e/proj/.agents/skills/x/SKILL.md",
		"/tmp/e2e/proj/.claude/skills/x/SKILL.md",
		"/tmp/e2e/proj/.amp/plugins/x.ts",
		"/tmp/e2e/home/.config/amp/plugins/x.ts",
	} {
		in, _ := json.Marshal(map[string]any{"path": p, "content": "x"})
		ev, err := Amp{}.DecodeEnv(in, ampEnv("create_file"), "/tmp/e2e/proj")
		if err != nil {
			t.Fatal(err)
		}
		a := answerDefault(t, Amp{}, ev, false)
		if a.Deny == nil || !strings.Contains(a.Deny.Why, "protected") {
			t.Errorf("create_file %s: %s; want it denied as an agent's configuration", p, answerString(a))
		}
	}
}
