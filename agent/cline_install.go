// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// clineHookMarker is the line that marks the hook file guard init writes
// for Cline.
const clineHookMarker = "# guard's PreToolUse hook for Cline, written by guard init --agent cline."

// clineHookTimeout is how long Cline waits for a hook file, in seconds
// (3.0.65's source: 120000 ms, not run): past it the call runs. A hook
// file has no setting of its own for it.
const clineHookTimeout = 120

// clineHookScript is the hook file that runs guard hook for Cline. Cline
// runs the call when a hook exits non-zero with no answer on stdout, so
// the script passes on guard's answer (exit 0 or 2) and answers with
// cancel, which stops the task, when guard gives none: guard missing, a
// crash, a signal.
func clineHookScript(guard string) []byte {
	return []byte(`#!/bin/sh
` + clineHookMarker + `
# Cline runs a call whose hook gives no JSON answer, whatever its exit
# code: when guard hook gives none, this script refuses the call.
out=$(` + quote(guard) + ` hook --agent cline)
code=$?
case $code in
0 | 2)
	if [ -n "$out" ]; then
		printf '%s\n' "$out"
		exit "$code"
	fi
	;;
esac
printf '%s\n' '{"cancel":true,"errorMessage":"guard: denied: guard hook gave no answer (exit '"$code"'); the task is stopped"}'
exit 2
`)
}

// clineHookFile is where guard init writes guard's hook file for Cline:
// the project's .clinerules/hooks/, or the user's ~/.cline/hooks/.
func clineHookFile(dir string, project bool) string {
	if project {
		return filepath.Join(dir, ".clinerules", "hooks", "PreToolUse")
	}
	return filepath.Join(dir, ".cline", "hooks", "PreToolUse")
}

// Install writes guard's hook file for Cline, executable, in the
// project's .clinerules/hooks/ or the user's ~/.cline/hooks/ (Cline reads
// $CLINE_DIR/hooks instead where that is set). A PreToolUse file there
// that is not guard's is left as it is, and init stops: Cline runs every
// PreToolUse file, and one that rewrites the input after guard's would
// undo guard's answer.
func (Cline) Install(dir string, project bool, guard string) ([]FileChange, error) {
	name := clineHookFile(dir, project)
	old, err := os.ReadFile(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	case err != nil:
		return nil, err
	case !bytes.Contains(old, []byte(clineHookMarker)):
		return nil, fmt.Errorf("%s is a PreToolUse hook that is not guard's; move it aside (Cline runs every PreToolUse hook, and one that rewrites the call after guard's undoes guard's answer)", name)
	}
	return []FileChange{{Path: name, Old: old, New: clineHookScript(guard), Mode: 0o755}}, nil
}

// clineHookExts are the extensions of the hook files Cline 3.0.65 runs
// (its source): PreToolUse.sh runs as PreToolUse does.
var clineHookExts = []string{"", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py", ".ps1"}

// clineHookDirs are the directories Cline 3.0.65 runs hooks from, for the
// project dir and the home (and $CLINE_DIR, which takes ~/.cline's place).
func clineHookDirs(env func(string) string, dir string) []string {
	home := env("HOME")
	clineDir := filepath.Join(home, ".cline")
	if v := env("CLINE_DIR"); filepath.IsAbs(v) {
		clineDir = v
	}
	return []string{filepath.Join(home, "Documents", "Cline", "Hooks"), filepath.Join(clineDir, "hooks"),
		filepath.Join(dir, ".clinerules", "hooks"), filepath.Join(dir, ".cline", "hooks")}
}

// clineFindHooks finds guard's hook files for Cline: a PreToolUse file
// guard init wrote, with the guard hook command it runs; and, as
// problems, a PreToolUse hook of another that could undo guard's answer,
// and a guard hook file that is not as guard init writes it.
func clineFindHooks(env func(string) string, dir string) (map[string][]FoundHook, []Check) {
	found := map[string][]FoundHook{}
	var checks []Check
	for _, d := range clineHookDirs(env, dir) {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			ext := strings.ToLower(filepath.Ext(e.Name()))
			base := strings.TrimSuffix(e.Name(), filepath.Ext(e.Name()))
			if !strings.EqualFold(base, "PreToolUse") || !slices.Contains(clineHookExts, ext) || !e.Type().IsRegular() {
				continue
			}
			name := filepath.Join(d, e.Name())
			data, err := os.ReadFile(name)
			if err != nil || !bytes.Contains(data, []byte(clineHookMarker)) {
				checks = append(checks, Check{What: fmt.Sprintf("%s is a PreToolUse hook that is not guard's: Cline runs it too, and a rewrite of the call it answers after guard's undoes guard's answer", name),
					Fix: "move it aside, or make it give no answer"})
				continue
			}
			command := ""
			for _, line := range strings.Split(string(data), "\n") {
				if c, ok := strings.CutPrefix(line, "out=$("); ok {
					command = strings.TrimSuffix(c, ")")
				}
			}
			fi, _ := e.Info()
			intact := IsGuardHook(command) && fi != nil && fi.Mode().Perm()&0o111 != 0 &&
				bytes.Equal(data, clineHookScript(strings.Trim(strings.Fields(command)[0], `'`)))
			checks = append(checks, Check{OK: intact, What: fmt.Sprintf("%s is guard's hook file as guard init writes it, executable", name),
				Fix: "guard init --agent cline: it refuses the call where guard gives no answer, which Cline would run"})
			if IsGuardHook(command) {
				found["PreToolUse"] = append(found["PreToolUse"], FoundHook{File: name,
					H: map[string]any{"command": command, "timeout": json.Number(fmt.Sprint(clineHookTimeout))}})
			}
		}
	}
	return found, checks
}

// Doctor is what guard doctor checks of Cline's installation: its hook
// files, in the project dir and the user's directories.
func (Cline) Doctor(env func(string) string, dir string) DoctorSpec {
	return DoctorSpec{Agent: "cline", Pre: "PreToolUse", AllTools: []string{""},
		Find: func() (map[string][]FoundHook, []Check) { return clineFindHooks(env, dir) },
		Input: func(command, dir string) []byte {
			in, _ := json.Marshal(map[string]any{"clineVersion": "", "hookName": "tool_call", "taskId": "guard-doctor", "workspaceRoots": []string{dir},
				"tool_call": map[string]any{"id": "guard-doctor", "name": "run_commands", "input": map[string]any{"commands": []string{command}}}})
			return in
		},
		Allowed: func(code int, stdout string) bool {
			return code == 0 && strings.HasPrefix(stdout, `{"cancel":false`)
		},
		Denied: func(code int, stdout, _ string) bool {
			return code == 2 && strings.HasPrefix(stdout, `{"cancel":false,"overrideInput":null,"errorMessage":"guard: denied: `)
		}}
}
