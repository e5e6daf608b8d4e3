// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"guard"
	"guard/agent"
	"guard/internal/setup"
)

// guard doctor proves an installation works, not only that its files
// exist: the agent's settings register guard for the right events and
// every tool, so that a failing hook blocks; the binary they name runs;
// the policy loads; and a canary call, sent to the registered command as
// the agent would send it, is denied and an everyday one allowed, through
// the agent's protocol.

func runDoctor(ctx context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("doctor", s)
	agentName := fs.String("agent", "claude", "the `agent` whose installation to check")
	cwd := fs.String("cwd", "", "the project `directory` (default: $CLAUDE_PROJECT_DIR, else the current one)")
	beat := fs.Bool("heartbeat", false, "run the agent headless once, asking its model to run "+heartbeatCommand+", and check that guard decided it (one model call on the user's account)")
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil || fs.NArg() > 0 {
		return argsError(s, "doctor", err, "want no arguments, got %q", fs.Arg(0))
	}
	if agent.Adapters()[*agentName] == nil {
		return usageError(s, "doctor", "--agent %q: guard checks installations for %s", *agentName, strings.Join(guard.AgentNames(), ", "))
	}
	dir, err := initDir(env, "project", *cwd)
	if err != nil {
		fmt.Fprintf(s.err, "guard doctor: %v\n", err)
		return &exitError{code: 1}
	}
	checks := doctorAgent(ctx, env, dir, agent.Adapters()[*agentName].Doctor(env, dir))
	checks = append(checks, doctorSandbox(ctx))
	if *beat {
		checks = append(checks, heartbeat(ctx, env, dir, *agentName))
	}
	problems := 0
	for _, c := range checks {
		switch {
		case c.OK:
			fmt.Fprintf(s.out, "ok    %s\n", c.What)
		case c.Warn:
			fmt.Fprintf(s.out, "warn  %s\n      fix: %s\n", c.What, c.Fix)
		default:
			problems++
			fmt.Fprintf(s.out, "FAIL  %s\n      fix: %s\n", c.What, c.Fix)
		}
	}
	if problems > 0 {
		fmt.Fprintf(s.out, "%d problems: guard does not guard this project as it should\n", problems)
		return &exitError{code: 1}
	}
	fmt.Fprintln(s.out, "guard is installed, runs, and blocks what it denies")
	return nil
}

// doctorAgent checks guard's installation for an agent in the project dir
// and the user's settings.
func doctorAgent(ctx context.Context, env getenv, dir string, spec agent.DoctorSpec) []agent.Check {
	found := map[string][]agent.FoundHook{}
	var checks []agent.Check
	if spec.Find != nil {
		found, checks = spec.Find()
	}
	for _, f := range spec.Files {
		if !filepath.IsAbs(f) {
			continue
		}
		_, root, err := agent.ReadJSONObject(f)
		if err != nil {
			checks = append(checks, agent.Check{What: err.Error(), Fix: "fix the file's JSON: the agent may not read it either"})
			continue
		}
		if spec.FindIn != nil {
			for event, hs := range spec.FindIn(f, root) {
				found[event] = append(found[event], hs...)
			}
			continue
		}
		hooks, _ := root["hooks"].(map[string]any)
		for event, v := range hooks {
			list, _ := v.([]any)
			for gi, g := range list {
				group, _ := g.(map[string]any)
				if spec.Flat {
					if agent.IsGuardHook(group[cmp.Or(spec.CommandKey, "command")]) {
						found[event] = append(found[event], agent.FoundHook{File: f, Group: gi, H: group})
					}
					continue
				}
				matcher, _ := group["matcher"].(string)
				handlers, _ := group["hooks"].([]any)
				for hi, h := range handlers {
					if hm, ok := h.(map[string]any); ok && agent.IsGuardHook(hm["command"]) {
						found[event] = append(found[event], agent.FoundHook{File: f, Group: gi, Handler: hi, Matcher: matcher, H: hm})
					}
				}
			}
		}
	}
	fix := "guard init --agent " + spec.Agent
	pre := found[spec.Pre]
	if len(pre) == 0 {
		return append(checks, agent.Check{What: fmt.Sprintf("no %s hook of the agent's settings runs guard hook", spec.Pre), Fix: fix})
	}
	all := slices.ContainsFunc(pre, func(h agent.FoundHook) bool { return slices.Contains(spec.AllTools, h.Matcher) })
	checks = append(checks, agent.Check{OK: all, What: fmt.Sprintf("guard hook runs before every tool (%s)", pre[0].File),
		Fix: "give guard's " + spec.Pre + " group a matcher of every tool: another lets other tools run unchecked"})
	h := pre[0].H
	if spec.Blocks != nil {
		checks = append(checks, agent.Check{OK: spec.Blocks(h), What: "a hook that fails blocks the call", Fix: spec.BlockFix})
	}
	timeout := numberOf(h[cmp.Or(spec.TimeoutKey, "timeout")])
	if spec.TimeoutMs {
		timeout /= 1000
	}
	if !spec.NoTimeout {
		checks = append(checks, agent.Check{OK: timeout == 0 || timeout > defaultDeadline.Seconds(),
			What: fmt.Sprintf("the hook's timeout (%gs) is above guard's own deadline (%s)", timeout, defaultDeadline),
			Fix:  fmt.Sprintf("set the timeout to %d s: the agent must not stop guard before guard's own deadline denies", agent.HookTimeout)})
	}
	for _, ev := range spec.After {
		checks = append(checks, agent.Check{OK: len(found[ev]) > 0, Warn: true, What: "guard hook runs on " + ev + " (the session tier's grants)",
			Fix: fix + ": without it the session tier asks every time, or grants end only when idle"})
	}
	if spec.Approval != "" {
		checks = append(checks, agent.Check{OK: len(found[spec.Approval]) > 0, Warn: true, What: "guard hook runs on " + spec.Approval + " (where the agent would ask its user)",
			Fix: fix + ": without it the agent's own prompts are not guard's to answer"})
	}
	if spec.Extra != nil {
		checks = append(checks, spec.Extra(found)...)
	}
	command, _ := h[cmp.Or(spec.CommandKey, "command")].(string)
	bin, _ := agent.HookBinary(command)
	path, err := exec.LookPath(bin)
	if err == nil {
		var out []byte
		out, err = exec.CommandContext(ctx, path, "version").Output()
		if err == nil && !bytes.HasPrefix(out, []byte("guard ")) {
			err = fmt.Errorf("it printed %q", out)
		}
	}
	checks = append(checks, agent.Check{OK: err == nil, What: fmt.Sprintf("the hook's binary %s runs (%v)", bin, cmpOrErr(err)),
		Fix: "install guard there, or " + fix + " to register this one by its path"})
	layers, err := setup.LoadLayers("", dir, setup.Getenv(env))
	if err != nil {
		checks = append(checks, agent.Check{What: "the policy loads: " + err.Error(), Fix: "fix the policy file; guard check --config FILE shows where"})
	} else {
		checks = append(checks, agent.Check{OK: true, What: "the policy loads"}, logWritable(env, layers.LogRequired()))
	}
	return append(checks, canaries(ctx, command, dir, spec)...)
}

// logWritable checks that guard hook can write the decision log, which
// the canaries, logging elsewhere, do not show: a problem, where the
// policy requires the log and every call is then denied, else a warning.
func logWritable(env getenv, required bool) agent.Check {
	c := agent.Check{OK: true, Warn: !required, Fix: "make guard's state directory writable ($XDG_STATE_HOME/guard, else ~/.local/state/guard)"}
	dlog := setup.DecisionLog(setup.Getenv(env))
	err := setup.ErrNoLog
	if dlog != nil {
		err = dlog.Writable()
	}
	if err != nil {
		c.OK, c.What = false, "guard's decision log: "+err.Error()
		if required {
			c.What += "; the policy requires it (log_required), so every call is denied"
		}
		return c
	}
	c.What = "guard's decision log can be written (" + dlog.Dir + ")"
	return c
}

// canaries sends the registered hook command two calls as the agent
// would, through sh: rm -rf / must be denied (exit 2, the reason on
// stderr) and git status allowed. The hook runs with a state directory of
// its own, removed after: the canaries are doctor's calls, not the
// agent's, and stay out of the user's decision log and grants.
func canaries(ctx context.Context, command, dir string, spec agent.DoctorSpec) []agent.Check {
	state, err := os.MkdirTemp("", "guard-doctor-")
	if err != nil {
		return []agent.Check{{What: "the canaries: a state directory of their own: " + err.Error(), Fix: "make $TMPDIR writable"}}
	}
	defer os.RemoveAll(state)
	run := func(cmd string) (int, string, string) {
		ctx, cancel := context.WithTimeout(ctx, agent.HookTimeout*time.Second)
		defer cancel()
		c := exec.CommandContext(ctx, "sh", "-c", command)
		c.Dir, c.Stdin = dir, bytes.NewReader(spec.Input(cmd, dir))
		c.Env = append(append(os.Environ(), spec.Env...), "XDG_STATE_HOME="+state)
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		err := c.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			code = -1
		}
		return code, out.String(), errb.String()
	}
	code, stdout, stderr := run("rm -rf /")
	denied := spec.Denied
	if denied == nil {
		denied = func(code int, _, stderr string) bool {
			return code == 2 && strings.HasPrefix(stderr, "guard: denied: ")
		}
	}
	deny := agent.Check{OK: denied(code, stdout, stderr),
		What: fmt.Sprintf("a canary rm -rf / is blocked through the hook (exit %d)", code),
		Fix:  "the registered command must be guard hook itself; run it by hand with the agent's input to see what it prints"}
	allowed := cmp.Or(spec.AllowCanary, "git status")
	code, stdout, _ = run(allowed)
	allow := agent.Check{OK: spec.Allowed(code, stdout),
		What: fmt.Sprintf("a canary %s is allowed through the hook (exit %d)", allowed, code),
		Fix:  fmt.Sprintf("the policy must allow %s; guard check '%s' says why it does not", allowed, allowed)}
	return []agent.Check{deny, allow}
}

func numberOf(v any) float64 {
	switch n := v.(type) {
	case json.Number:
		f, _ := n.Float64()
		return f
	case float64:
		return n
	}
	return 0
}

func cmpOrErr(err error) string {
	if err != nil {
		return err.Error()
	}
	return "guard version"
}
