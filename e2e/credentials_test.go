// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// otherAgents are credential files of other agents, as they keep them in
// the home (policy/secrets.toml has each with its documentation page).
var otherAgents = []struct{ agent, file string }{
	{"Codex CLI", ".codex/auth.json"},
	{"Gemini CLI", ".gemini/oauth_creds.json"},
	{"Qwen Code", ".qwen/oauth_creds.json"},
	{"OpenCode", ".local/share/opencode/auth.json"},
	{"goose", ".config/goose/secrets.yaml"},
	{"Hugging Face Hub", ".cache/huggingface/token"},
}

// TestOtherAgentsCredentials: in a home that holds other agents' and
// tools' credentials, the real Claude Code's Read and cat of each are
// refused by guard, naming the tool, and the credential never reaches the
// model; without guard the Read prints it.
func TestOtherAgentsCredentials(t *testing.T) {
	t.Parallel()
	for _, a := range otherAgents {
		secret := "e2e-credential-" + strings.NewReplacer("/", "-", ".", "").Replace(a.file)
		setup := func(t *testing.T, tool string, input func(path string) map[string]any) (*project, map[string]any) {
			p := newProject(t)
			p.writeHome(a.file, `{"token":"`+secret+`"}`+"\n")
			in := input(filepath.Join(p.home, a.file))
			p.script(tool, in)
			return p, in
		}
		read := func(path string) map[string]any { return map[string]any{"file_path": path} }
		cat := func(path string) map[string]any { return map[string]any{"command": "cat " + path} }
		t.Run(a.agent+"/control without guard", func(t *testing.T) {
			t.Parallel()
			p, _ := setup(t, "Read", read)
			p.write(".claude/settings.json", "{}\n")
			if r := p.oneToolResult(p.run("Read")); !strings.Contains(r.Text, secret) {
				t.Errorf("without guard the Read did not print %s, so this test shows nothing: %q", a.file, r.Text)
			}
		})
		for _, tc := range []struct {
			tool  string
			input func(string) map[string]any
		}{{"Read", read}, {"Bash", cat}} {
			t.Run(a.agent+"/"+tc.tool, func(t *testing.T) {
				t.Parallel()
				p, in := setup(t, tc.tool, tc.input)
				o := p.run(tc.tool)
				p.oneHookCall(tc.tool, in)
				r := p.oneToolResult(o)
				if strings.Contains(r.Text, secret) {
					t.Errorf("%s of %s: the credential reached the model: %q", tc.tool, a.file, r.Text)
				}
				if !strings.Contains(r.Text, "guard: denied") || !strings.Contains(r.Text, "secret file") || !strings.Contains(r.Text, a.agent) {
					t.Errorf("%s of %s: guard's refusal, naming %s, did not reach the model: %q", tc.tool, a.file, a.agent, r.Text)
				}
				t.Logf("%s %s: tool result: %s", tc.tool, a.file, r.Text)
			})
		}
	}
}
