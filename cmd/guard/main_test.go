// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"guard/sandbox"
)

var scriptUpdate = flag.Bool("update", false, "update the golden output in testdata/script/*.txtar from the actual output")

func TestMain(m *testing.M) {
	testscript.Main(cleanupM{m}, map[string]func(){
		"guard": main,
	})
}

// TestScript runs the CLI tests in testdata/script. Every script asserts
// the exit code with status, and both streams.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		UpdateScripts:       *scriptUpdate,
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			// Every allowed shell command runs under guard run where the
			// kernel can confine it: the scripts see a kernel that cannot,
			// so that their answers do not depend on the machine. A script
			// about the sandbox sets the variable empty ([sandbox]).
			env.Setenv("GUARD_TEST_NO_SANDBOX", "1")
			// exec guard runs guardExe's guard, built without -race,
			// before testscript's copy of the test binary.
			if dir := guardDir(); dir != "" {
				env.Setenv("PATH", dir+string(filepath.ListSeparator)+env.Getenv("PATH"))
			}
			return os.MkdirAll(home, 0o755)
		},
		Condition: func(cond string) (bool, error) {
			if cond == "sandbox" {
				return sandbox.Available() == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status":   scriptStatus,
			"envsubst": scriptEnvsubst,
			"hookin":   scriptHookIn,
		},
	})
}

// scriptStatus runs "status N prog args..." and fails unless prog exits
// with exactly N. testscript's own exec only tells zero from non-zero, and
// for guard hook the difference between 1 and 2 is the difference between
// a call that runs and one that is blocked.
func scriptStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! status")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: status N prog args...")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: bad exit code %q: %v", args[0], err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("status: running %s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// scriptEnvsubst runs "envsubst SRC DST": it writes SRC to DST with $VAR and
// ${VAR} replaced from the script's environment, so that hook input can
// name $WORK as its cwd.
func scriptEnvsubst(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! envsubst")
	}
	if len(args) != 2 {
		ts.Fatalf("usage: envsubst SRC DST")
	}
	out := os.Expand(ts.ReadFile(args[0]), ts.Getenv)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(out), 0o644))
}

// scriptHookIn runs "hookin EVENT NAME": it writes hook.json, Claude Code's
// hook input for the call NAME of calls.txt (lines of a name and the JSON
// of tool_name and tool_input, with session_id to change the session) as
// EVENT sends it: pre (PreToolUse), post (PostToolUse, which says the call
// ran) or end (SessionEnd). The session is session-1 and the cwd $WORK.
func scriptHookIn(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: hookin pre|post|end NAME")
	}
	event := map[string]string{"pre": "PreToolUse", "post": "PostToolUse", "end": "SessionEnd"}[args[0]]
	if event == "" {
		ts.Fatalf("hookin: unknown event %q", args[0])
	}
	var call map[string]any
	for _, line := range strings.Split(ts.ReadFile("calls.txt"), "\n") {
		if name, data, ok := strings.Cut(line, " "); ok && name == args[1] {
			ts.Check(json.Unmarshal([]byte(data), &call))
		}
	}
	if call == nil {
		ts.Fatalf("hookin: no call %q in calls.txt", args[1])
	}
	in := map[string]any{"session_id": "session-1", "hook_event_name": event, "cwd": ts.Getenv("WORK")}
	for k, v := range call {
		in[k] = v
	}
	if event == "PostToolUse" {
		in["tool_response"] = map[string]any{"ok": true}
	}
	if event == "SessionEnd" {
		delete(in, "tool_name")
		delete(in, "tool_input")
		in["reason"] = "exit"
	}
	data, err := json.Marshal(in)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs("hook.json"), data, 0o644))
}
