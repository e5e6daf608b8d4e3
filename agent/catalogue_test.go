// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"guard/policy"
)

// homeGlobs are a home path pattern's globs, which homePath makes plain
// names.
var homeGlobs = regexp.MustCompile(`\*\*|\*|\?|\[[^]]*\]`)

// homePath returns a path in the home of decideDefault that the pattern
// ~/REST matches, or false for a pattern of another place.
func homePath(pat string) (string, bool) {
	rest, ok := strings.CutPrefix(pat, "~/")
	if !ok {
		return "", false
	}
	return "/tmp/e2e/home/" + homeGlobs.ReplaceAllStringFunc(rest, func(g string) string {
		if strings.HasPrefix(g, "[") && len(g) > 2 && g[1] != '!' && g[1] != '^' {
			return g[1:2]
		}
		return "x"
	}), true
}

// TestCatalogueEveryAdapter: every reading tool of every agent, given a
// file of the catalogue of secrets in the home, is refused, in the
// agent's own protocol, and the refusal names the entry's tool; an agent
// whose reading tools guard does not model (Antigravity's) is not allowed
// the read.
func TestCatalogueEveryAdapter(t *testing.T) {
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	tools := []struct {
		name  string
		ad    Adapter
		input func(path string) string
	}{
		{"Claude Code Read", Claude{}, func(p string) string {
			return `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Read","tool_input":{"file_path":` + js(p) + `}}`
		}},
		{"Claude Code Grep", Claude{}, func(p string) string {
			return `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Grep","tool_input":{"pattern":"token","path":` + js(p) + `}}`
		}},
		{"Claude Code NotebookRead", Claude{}, func(p string) string {
			return `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"NotebookRead","tool_input":{"notebook_path":` + js(p) + `}}`
		}},
		{"Claude Code Bash", Claude{}, func(p string) string {
			return `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{"command":` + js("cat '"+p+"'") + `}}`
		}},
		{"Codex shell", Codex{}, func(p string) string { return codexInput("Bash", `{"command":`+js("cat '"+p+"'")+`}`) }},
		{"Gemini CLI read_file", Gemini{}, func(p string) string { return geminiInput("read_file", `{"file_path":`+js(p)+`}`) }},
		{"Gemini CLI grep_search", Gemini{}, func(p string) string {
			return geminiInput("grep_search", `{"pattern":"token","dir_path":`+js(p)+`}`)
		}},
		{"Gemini CLI run_shell_command", Gemini{}, func(p string) string {
			return geminiInput("run_shell_command", `{"command":`+js("cat '"+p+"'")+`}`)
		}},
		{"Copilot CLI view", Copilot{}, func(p string) string { return copilotCamel("view", `{"path":`+js(p)+`}`) }},
		{"Copilot CLI grep", Copilot{}, func(p string) string {
			return copilotCamel("grep", `{"pattern":"token","paths":[`+js(p)+`]}`)
		}},
		{"Copilot CLI bash", Copilot{}, func(p string) string { return copilotCamel("bash", `{"command":`+js("cat '"+p+"'")+`}`) }},
		{"Cursor beforeReadFile", Cursor{}, func(p string) string {
			return `{"hook_event_name":"beforeReadFile","conversation_id":"c","workspace_roots":["/p"],"file_path":` + js(p) + `}`
		}},
		{"Cursor Read", Cursor{}, func(p string) string {
			return `{"hook_event_name":"preToolUse","conversation_id":"c","cwd":"/p","tool_name":"Read","tool_input":{"file_path":` + js(p) + `}}`
		}},
		{"Cursor Grep", Cursor{}, func(p string) string {
			return `{"hook_event_name":"preToolUse","conversation_id":"c","cwd":"/p","tool_name":"Grep","tool_input":{"pattern":"token","path":` + js(p) + `}}`
		}},
		{"Cursor beforeShellExecution", Cursor{}, func(p string) string {
			return `{"hook_event_name":"beforeShellExecution","conversation_id":"c","workspace_roots":["/p"],"cwd":"/p","command":` + js("cat '"+p+"'") + `}`
		}},
		{"Qwen Code read_file", Qwen{}, func(p string) string { return qwenInput("read_file", `{"file_path":`+js(p)+`}`) }},
		{"Qwen Code grep_search", Qwen{}, func(p string) string {
			return qwenInput("grep_search", `{"pattern":"token","path":`+js(p)+`}`)
		}},
		{"Qwen Code run_shell_command", Qwen{}, func(p string) string {
			return qwenInput("run_shell_command", `{"command":`+js("cat '"+p+"'")+`}`)
		}},
		{"Antigravity run_command", Antigravity{}, func(p string) string {
			return `{"conversationId":"c","workspacePaths":["/p"],"toolCall":{"name":"run_command","args":{"CommandLine":` + js("cat '"+p+"'") + `,"Cwd":"/p"}}}`
		}},
		{"Kiro CLI fs_read", Kiro{}, func(p string) string {
			return kiroInput("fs_read", `{"operations":[{"mode":"Line","path":`+js(p)+`}]}`)
		}},
		{"Kiro CLI execute_bash", Kiro{}, func(p string) string { return kiroInput("execute_bash", `{"command":`+js("cat '"+p+"'")+`}`) }},
		{"Windsurf pre_read_code", Windsurf{}, func(p string) string { return windsurfInput("pre_read_code", `{"file_path":`+js(p)+`}`) }},
		{"Windsurf pre_run_command", Windsurf{}, func(p string) string {
			return windsurfInput("pre_run_command", `{"command_line":`+js("cat '"+p+"'")+`,"cwd":"/p"}`)
		}},
		{"goose developer__shell", Goose{}, func(p string) string { return gooseInput("developer__shell", `{"command":`+js("cat '"+p+"'")+`}`) }},
		{"Antigravity view_file", Antigravity{}, func(p string) string {
			return `{"conversationId":"c","workspacePaths":["/p"],"toolCall":{"name":"view_file","args":{"AbsolutePath":` + js(p) + `}}}`
		}},
	}
	inWorkspace(t, "/p")
	n := 0
	for _, s := range p.Secrets() {
		for _, pat := range s.Paths {
			path, ok := homePath(pat)
			if !ok {
				continue
			}
			n++
			for _, tool := range tools {
				for _, sandbox := range []bool{false, true} {
					ev, a := decideDefault(t, tool.ad, []byte(tool.input(path)), sandbox)
					got := answerString(a)
					switch {
					case ev.Call.Tool == "view_file":
						if strings.Contains(got, `allow`) && !strings.Contains(got, "ask") {
							t.Errorf("%s of %s (%s): %s; want it not allowed", tool.name, path, s.Name, got)
						}
					case a.Deny == nil && !strings.Contains(got, `"decision":"deny"`):
						t.Errorf("%s of %s (%s), sandbox %v: %s; want a refusal", tool.name, path, s.Name, sandbox, got)
					case !namesEntry(p, got):
						t.Errorf("%s of %s: the refusal names no entry of the catalogue: %s", tool.name, path, got)
					}
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("the catalogue has %d paths in the home", n)
	}
}

// namesEntry reports whether a refusal, as an agent gets it, names the
// entry of the catalogue whose pattern refused it (a broader entry's may
// come first).
func namesEntry(p *policy.Policy, answer string) bool {
	_, rest, ok := strings.Cut(answer, "(rule paths.secret ")
	if !ok {
		return false
	}
	pat, _, _ := strings.Cut(rest, ", policy")
	s, ok := p.SecretOf(pat)
	tool, _ := json.Marshal(s.Tool)
	return ok && (strings.Contains(answer, s.Tool) || strings.Contains(answer, strings.Trim(string(tool), `"`)))
}
