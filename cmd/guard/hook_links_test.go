// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookAgentLinks: OpenCode's, Cline's and Droid's calls that reach an
// agent's configuration or a secret through a link in the project, or
// run a command in a secret directory by the bash tool's workdir, are
// denied, by the rule that keeps what the link leads to.
func TestHookAgentLinks(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	for _, d := range []string{filepath.Join(home, ".cline", "hooks"), filepath.Join(proj, ".factory"), filepath.Join(proj, ".opencode", "plugins"), filepath.Join(home, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{"hooks-link": filepath.Join(home, ".cline", "hooks"), "factory-link": filepath.Join(proj, ".factory"),
		"plugins-link": filepath.Join(proj, ".opencode", "plugins"), "ssh-link": filepath.Join(home, ".ssh")} {
		if err := os.Symlink(to, filepath.Join(proj, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home}
	r := strings.NewReplacer("PROJ", proj, "HOME", home)
	for _, tc := range []struct{ agent, in, why string }{
		{"cline", `{"hookName":"tool_call","workspaceRoots":["PROJ"],"tool_call":{"name":"editor","input":{"path":"PROJ/hooks-link/PreToolUse","new_text":"x"}}}`, "(rule paths.protected ~/.cline/**"},
		{"cline", `{"hookName":"tool_call","workspaceRoots":["PROJ"],"tool_call":{"name":"read_files","input":{"files":[{"path":"PROJ/ssh-link/id_rsa"}]}}}`, "(rule paths.secret ~/.ssh/**"},
		{"droid", `{"hook_event_name":"PreToolUse","cwd":"PROJ","tool_name":"Create","tool_input":{"file_path":"factory-link/settings.json","content":"x"}}`, "(rule paths.protected {project}/.factory/**"},
		{"droid", `{"hook_event_name":"PreToolUse","cwd":"PROJ","tool_name":"Read","tool_input":{"file_path":"ssh-link/id_rsa"}}`, "(rule paths.secret ~/.ssh/**"},
		{"opencode", `{"guard_opencode":1,"hook":"tool.execute.before","tool":"write","directory":"PROJ","args":{"filePath":"plugins-link/x.js","content":"x"}}`, "(rule paths.protected **/.opencode/**"},
		{"opencode", `{"guard_opencode":1,"hook":"tool.execute.before","tool":"grep","directory":"PROJ","args":{"pattern":"x","path":"ssh-link"}}`, "(rule paths.secret ~/.ssh/**"},
		{"opencode", `{"guard_opencode":1,"hook":"tool.execute.before","tool":"bash","directory":"PROJ","args":{"command":"cat id_rsa","workdir":"ssh-link"}}`, "a secret directory"},
		{"opencode", `{"guard_opencode":1,"hook":"tool.execute.before","tool":"bash","directory":"PROJ","args":{"command":"ls","workdir":"HOME/.ssh"}}`, "a secret directory"},
	} {
		in := r.Replace(tc.in)
		code, _, stderr := hookTestRun(t, []string{"hook", "--agent", tc.agent}, in, env)
		if code != 2 || !strings.Contains(stderr, tc.why) {
			t.Errorf("%s %s: exit %d, stderr %q; want exit 2 with %q", tc.agent, in, code, stderr, tc.why)
		}
	}
}
