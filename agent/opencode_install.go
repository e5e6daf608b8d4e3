// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// openCodePluginSource is guard's plugin for OpenCode, with the command
// and the timeout left to fill in.
//
//go:embed opencode_plugin.js
var openCodePluginSource string

// openCodePluginHeader starts guard's plugin: a file there that does not
// start with it is not guard's, and guard init leaves it alone.
const openCodePluginHeader = "// guard's plugin for OpenCode, written by guard init --agent opencode"

// openCodeCommandLine starts the plugin's line that holds guard hook's
// command, its words as a JSON list.
const openCodeCommandLine = "const command = "

// openCodePlugin returns guard's plugin for OpenCode that runs guard
// hook --agent opencode with the binary guard, HookTimeout seconds at most.
func openCodePlugin(guard string) ([]byte, error) {
	argv, err := json.Marshal([]string{guard, "hook", "--agent", "opencode"})
	if err != nil {
		return nil, err
	}
	src := strings.Replace(openCodePluginSource, "/*COMMAND*/", string(argv), 1)
	src = strings.Replace(src, "/*TIMEOUT*/", strconv.Itoa(HookTimeout*1000), 1)
	return []byte(src), nil
}

// openCodePluginFile is where guard's plugin goes: the project's
// .opencode/plugins/, or the home's ~/.opencode/plugins/, which OpenCode
// 1.18 loads in every project whatever XDG_CONFIG_HOME says.
func openCodePluginFile(dir string) string {
	return filepath.Join(dir, ".opencode", "plugins", "guard.js")
}

// Install writes guard's plugin for OpenCode, a file of its own that
// OpenCode loads with every other file of its plugin directory: in the
// project's .opencode/plugins/, or the home's ~/.opencode/plugins/. A
// file of that name that is not guard's plugin is left alone, and init
// stops.
func (OpenCode) Install(dir string, project bool, guard string) ([]FileChange, error) {
	name := openCodePluginFile(dir)
	old, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if old != nil && !bytes.HasPrefix(old, []byte(openCodePluginHeader)) {
		return nil, fmt.Errorf("%s is there and is not guard's plugin; move it aside", name)
	}
	src, err := openCodePlugin(guard)
	if err != nil {
		return nil, err
	}
	return []FileChange{{Path: name, Old: old, New: src}}, nil
}

// openCodeFind finds guard's plugin in the files OpenCode loads it from:
// its command as a hook of the event "tool.execute.before", for every
// tool, and whether the file is the plugin this guard writes for that
// command ("current").
func openCodeFind(files []string) (map[string][]FoundHook, []Check) {
	found := map[string][]FoundHook{}
	var checks []Check
	for _, f := range files {
		data, err := os.ReadFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil || !bytes.HasPrefix(data, []byte(openCodePluginHeader)) {
			checks = append(checks, Check{What: fmt.Sprintf("%s is not guard's plugin (%v)", f, err), Fix: "move it aside, and run guard init --agent opencode"})
			continue
		}
		var argv []string
		for line := range strings.Lines(string(data)) {
			if rest, ok := strings.CutPrefix(line, openCodeCommandLine); ok {
				json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimSpace(rest), ";")), &argv)
			}
		}
		if len(argv) == 0 || argv[0] == "" {
			checks = append(checks, Check{What: f + " names no guard binary", Fix: "guard init --agent opencode"})
			continue
		}
		words := make([]string, len(argv))
		for i, a := range argv {
			words[i] = a
			if i == 0 || strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./") != "" {
				words[i] = quote(a)
			}
		}
		want, _ := openCodePlugin(argv[0])
		found["tool.execute.before"] = append(found["tool.execute.before"], FoundHook{File: f, Matcher: "*",
			H: map[string]any{"command": strings.Join(words, " "), "timeout": float64(HookTimeout), "current": bytes.Equal(data, want)}})
	}
	return found, checks
}

// Doctor is what guard doctor checks of OpenCode's installation: guard's
// plugin in the project's .opencode/plugins/ or the home's
// ~/.opencode/plugins/ (or in the plugin/ directories beside them, or
// OpenCode's config directory), as this guard writes it.
func (OpenCode) Doctor(env func(string) string, dir string) DoctorSpec {
	home := env("HOME")
	config := filepath.Join(home, ".config")
	if x := env("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		config = x
	}
	var files []string
	for _, d := range []string{filepath.Join(dir, ".opencode"), filepath.Join(home, ".opencode"), filepath.Join(config, "opencode")} {
		files = append(files, filepath.Join(d, "plugins", "guard.js"), filepath.Join(d, "plugin", "guard.js"))
	}
	return DoctorSpec{Agent: "opencode", Pre: "tool.execute.before", AllTools: []string{"*"},
		Find:     func() (map[string][]FoundHook, []Check) { return openCodeFind(files) },
		Blocks:   func(h map[string]any) bool { return h["current"] == true },
		BlockFix: "guard init --agent opencode: the plugin is not the one this guard writes, which blocks every call guard does not allow",
		Input: func(command, dir string) []byte {
			in, _ := json.Marshal(map[string]any{"guard_opencode": openCodeProtocol, "hook": "tool.execute.before", "tool": "bash",
				"sessionID": "guard-doctor", "callID": "guard-doctor", "directory": dir, "worktree": dir,
				"args": map[string]any{"command": command, "description": "guard doctor's canary"}})
			return in
		},
		Allowed: func(code int, stdout string) bool {
			return code == 0 && strings.HasPrefix(stdout, `{"guard_opencode":1,"decision":"allow"`)
		}}
}
