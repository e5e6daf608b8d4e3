// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package guard_test

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"guard"
	"guard/engine"
	"guard/internal/cmdtsv"
)

// agentCmdsFile is the corpus of a coding agent's real shell commands,
// task by task in the order the agent ran them (testcases/data/README.md
// says where they come from and how the file is made).
var agentCmdsFile = filepath.Join("testcases", "data", "agentcmds.tsv")

// agentCmdsHeader is the first line of agentCmdsFile.
const agentCmdsHeader = "task\tstep\tcommand"

// agentCmd is one command of the corpus: the task it was run for, its
// step in the task (from 1), and the command.
type agentCmd struct {
	line    int
	task    string
	step    int
	command string
}

// readAgentCmds returns the commands of agentCmdsFile, in its order. A
// checkout without the file skips the test: the file is made from a copy
// of another repository, and is not kept in this one.
func readAgentCmds(t *testing.T) []agentCmd {
	t.Helper()
	data, err := os.ReadFile(agentCmdsFile)
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("%s is not here: go run ./bench/agentcmds makes it (testcases/data/README.md)", agentCmdsFile)
	}
	if err != nil {
		t.Fatal(err)
	}
	var cmds []agentCmd
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 {
			if line != agentCmdsHeader {
				t.Fatalf("%s:1: header is %q, want %q", agentCmdsFile, line, agentCmdsHeader)
			}
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("%s:%d: %d columns, want 3", agentCmdsFile, n, len(f))
		}
		step, err := strconv.Atoi(f[1])
		// A task's steps count from 1 in order, and its lines are
		// together: a replay runs them so.
		want := 1
		if k := len(cmds); k > 0 && cmds[k-1].task == f[0] {
			want = cmds[k-1].step + 1
		} else if slices.ContainsFunc(cmds, func(c agentCmd) bool { return c.task == f[0] }) {
			t.Fatalf("%s:%d: task %s comes back after another", agentCmdsFile, n, f[0])
		}
		if err != nil || step != want {
			t.Fatalf("%s:%d: step %q, want %d", agentCmdsFile, n, f[1], want)
		}
		cmds = append(cmds, agentCmd{line: n, task: f[0], step: step, command: cmdtsv.Unescape(f[2])})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cmds) == 0 {
		t.Fatalf("%s has no commands", agentCmdsFile)
	}
	return cmds
}

// agentPaths finds the absolute paths of the agent's container that
// agentWorld stands in for: the task's repository, the directory every
// command ran in (each in a new shell), and the temp directory.
var agentPaths = regexp.MustCompile(`(^|[^\w./-])/(testbed|tmp)\b`)

// agentWorld is the agent's container as guard hook sees it here: a
// project stands for /testbed and a temp directory for /tmp, beside a
// home and guard's state directory of their own, with no policy but the
// default. The project is not under the temp directory, as /testbed is
// not under /tmp: a grant of the one would cover the other.
type agentWorld struct {
	proj, tmp string
	env       map[string]string
	run       []string // guard run's command line in the rewrites
}

// newAgentWorld makes the world, and makes it the temp directory of the
// test's process (os.TempDir, which guard hook takes for the call's).
func newAgentWorld(t *testing.T) *agentWorld {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &agentWorld{proj: filepath.Join(root, "testbed"), tmp: filepath.Join(root, "tmp"), run: []string{"/opt/guard/bin/guard", "run"}}
	home := filepath.Join(root, "home")
	for _, d := range []string{w.proj, w.tmp, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("TMPDIR", w.tmp)
	if os.TempDir() != w.tmp {
		t.Fatalf("the temp directory is %s, want %s", os.TempDir(), w.tmp)
	}
	w.env = map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(root, "state"), "PATH": "/usr/bin:/bin",
		"LANG": "C.UTF-8", "CLAUDE_PROJECT_DIR": w.proj}
	return w
}

// command is c as it runs in the world: the world's paths in place of
// the container's.
func (w *agentWorld) command(c string) string {
	return agentPaths.ReplaceAllStringFunc(c, func(m string) string {
		before, dir, _ := strings.Cut(m, "/")
		if dir == "testbed" {
			return before + w.proj
		}
		return before + w.tmp
	})
}

// agentAnswer is guard hook's answer to one event: allow, ask or deny
// with its reason, and the command it rewrote the call to, if any. An
// event after PreToolUse has the verdict "" where guard leaves it to the
// agent and its user.
type agentAnswer struct {
	verdict, reason, rewrite string
}

// hook runs guard hook's door on one of Claude Code's events for a Bash
// call of command in the project, in session, and reads the answer. An
// error says that the answer is not a clean one: not the JSON Claude Code
// reads, a deny that is no decision (an internal error, a policy that
// does not load), or a warning (a decision log that cannot be written).
func (w *agentWorld) hook(session, event, command string) (agentAnswer, error) {
	ev := map[string]any{"session_id": session, "transcript_path": filepath.Join(w.env["HOME"], ".claude", session+".jsonl"),
		"cwd": w.proj, "permission_mode": "default", "hook_event_name": event, "tool_name": "Bash",
		"tool_input": map[string]any{"command": command}}
	if event == "PostToolUse" {
		ev["tool_response"] = map[string]any{"stdout": "", "stderr": "", "interrupted": false, "isImage": false}
	}
	in, err := json.Marshal(ev)
	if err != nil {
		return agentAnswer{}, err
	}
	var warn bytes.Buffer
	out, err := guard.Hook(bytes.NewReader(in), guard.HookOptions{Agent: "claude", Shell: "bash", Run: w.run,
		Env: func(k string) string { return w.env[k] }, Warn: &warn})
	if warn.Len() > 0 {
		// The decision log is in the world's state directory, and must
		// be written.
		return agentAnswer{}, fmt.Errorf("%s: guard hook warned: %s", event, warn.Bytes())
	}
	if err != nil {
		var d *guard.Denial
		switch {
		case !errors.As(err, &d) || d.Why == "":
			return agentAnswer{}, fmt.Errorf("%s: an error that is no deny: %v", event, err)
		case len(out) > 0:
			return agentAnswer{}, fmt.Errorf("%s: a deny with stdout %q", event, out)
		case strings.Contains(d.Why, "internal error") || strings.Contains(d.Why, "does not load") || strings.Contains(d.Why, "deadline"):
			return agentAnswer{}, fmt.Errorf("%s: a failed decision: %s", event, d.Why)
		}
		return agentAnswer{verdict: "deny", reason: d.Why}, nil
	}
	if event == "PostToolUse" || len(out) == 0 && event == "PermissionRequest" {
		if len(out) > 0 {
			return agentAnswer{}, fmt.Errorf("%s: answered %q, want nothing", event, out)
		}
		return agentAnswer{}, nil
	}
	var a struct {
		Out struct {
			Event        string `json:"hookEventName"`
			Decision     string `json:"permissionDecision"`
			Reason       string `json:"permissionDecisionReason"`
			UpdatedInput *struct {
				Command string `json:"command"`
			} `json:"updatedInput"`
			PermissionDecision *struct {
				Behavior string `json:"behavior"`
				Message  string `json:"message"`
			} `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	if err := dec.Decode(&a); err != nil || dec.More() {
		return agentAnswer{}, fmt.Errorf("%s: the answer is not one JSON object (%v): %q", event, err, out)
	}
	switch {
	case a.Out.Event != event:
		return agentAnswer{}, fmt.Errorf("%s: the answer is for %q: %q", event, a.Out.Event, out)
	case event == "PermissionRequest":
		// guard answers a PermissionRequest only to refuse it: what it
		// asks about is the user's to approve.
		if a.Out.PermissionDecision == nil || a.Out.PermissionDecision.Behavior != "deny" {
			return agentAnswer{}, fmt.Errorf("%s: answered %q; want a deny or nothing", event, out)
		}
		return agentAnswer{verdict: "deny", reason: a.Out.PermissionDecision.Message}, nil
	case a.Out.Decision != "allow" && a.Out.Decision != "ask":
		return agentAnswer{}, fmt.Errorf("%s: decision %q, want allow or ask: %q", event, a.Out.Decision, out)
	}
	ans := agentAnswer{verdict: a.Out.Decision, reason: a.Out.Reason}
	if a.Out.UpdatedInput != nil {
		ans.rewrite = a.Out.UpdatedInput.Command
	}
	return ans, nil
}

// agentRule finds the rule a reason names: "(rule git push)", "(rule
// git push, policy default)".
var agentRule = regexp.MustCompile(`\(rule ([^,)]+)`)

// agentCount is what TestAgentCommands counts: the commands and their
// verdicts, and the distinct commands and theirs.
type agentCount struct {
	Commands, Allow, Ask, Deny           int
	Distinct, DistinctAllow, DistinctAsk int
}

func (c agentCount) literal() string {
	return fmt.Sprintf("agentCount{Commands: %d, Allow: %d, Ask: %d, Deny: %d, Distinct: %d, DistinctAllow: %d, DistinctAsk: %d}",
		c.Commands, c.Allow, c.Ask, c.Deny, c.Distinct, c.DistinctAllow, c.DistinctAsk)
}

// TestAgentCommands decides every command of a coding agent's recorded
// runs with the default policy, each on its own (no grant of the session
// tier), as Claude Code's Bash tool in bash, in a project that stands for
// the one the agent worked in. Each must get a clean verdict, and the
// counts of each verdict are pinned: a change of policy or engine that
// moves them must say so here. With -v it logs the shares, the sandboxes
// the allowed commands run in, and the rules that refused most.
func TestAgentCommands(t *testing.T) {
	cmds := readAgentCmds(t)
	w := newAgentWorld(t)
	var got agentCount
	verdictOf := map[string]string{}
	refusedBy, sandboxes := map[string]int{}, map[string]int{}
	failures := 0
	for _, c := range cmds {
		a, err := w.hook("agentcmds", "PreToolUse", w.command(c.command))
		if err != nil {
			if failures++; failures <= 20 {
				t.Errorf("%s:%d: %q: %v", agentCmdsFile, c.line, c.command, err)
			}
			continue
		}
		got.Commands++
		switch a.verdict {
		case "allow":
			got.Allow++
			sandboxes[cmp.Or(engine.RunProfile(w.run, a.rewrite), "none")]++
		case "ask":
			got.Ask++
		case "deny":
			got.Deny++
		}
		if a.verdict != "allow" {
			rule := "(no rule)"
			if m := agentRule.FindStringSubmatch(a.reason); m != nil {
				rule = m[1]
			}
			refusedBy[a.verdict+" "+rule]++
		}
		if _, seen := verdictOf[c.command]; !seen {
			verdictOf[c.command] = a.verdict
			got.Distinct++
			switch a.verdict {
			case "allow":
				got.DistinctAllow++
			case "ask":
				got.DistinctAsk++
			}
		}
	}
	if failures > 0 {
		t.Fatalf("%d commands got no clean verdict", failures)
	}
	t.Logf("%d commands: allow %s, ask %s, deny %s", got.Commands, share(got.Allow, got.Commands), share(got.Ask, got.Commands), share(got.Deny, got.Commands))
	t.Logf("%d distinct commands: allow %s, ask %s, deny %s", got.Distinct, share(got.DistinctAllow, got.Distinct),
		share(got.DistinctAsk, got.Distinct), share(got.Distinct-got.DistinctAllow-got.DistinctAsk, got.Distinct))
	for _, s := range byCount(sandboxes) {
		t.Logf("allowed to run in sandbox %-10s %5d", s, sandboxes[s])
	}
	for _, r := range byCount(refusedBy) {
		t.Logf("refused: %-40s %5d", r, refusedBy[r])
	}
	want := agentCount{Commands: 14250, Allow: 9901, Ask: 4314, Deny: 35, Distinct: 11705, DistinctAllow: 7921, DistinctAsk: 3750}
	if got != want {
		t.Errorf("the corpus's verdicts are %+v, want %+v: if the policy or the engine changed them on purpose, put in TestAgentCommands\n\twant := %s",
			got, want, got.literal())
	}
}

// share is n of all, and its percentage.
func share(n, all int) string {
	return fmt.Sprintf("%d (%.1f%%)", n, 100*float64(n)/float64(all))
}

// byCount returns the keys of m, the largest count first.
func byCount(m map[string]int) []string {
	return slices.SortedFunc(maps.Keys(m), func(a, b string) int { return cmp.Or(m[b]-m[a], strings.Compare(a, b)) })
}

// agentReplay is what TestAgentReplay counts in a task: its commands, the
// asks among them decided each on its own, the prompts the user sees when
// every ask is approved and the approvals grant what they can for the
// session, and the denials.
type agentReplay struct {
	Commands, Asks, Prompts, Denials int
}

// agentReplays are the tasks TestAgentReplay replays, each from its first
// command to its last, and what it must count.
var agentReplays = []struct {
	task string
	want agentReplay
}{
	{"deepseek_chat_dev/marshmallow-code__marshmallow-1343", agentReplay{Commands: 104, Asks: 30, Prompts: 9, Denials: 0}},
	{"deepseek_chat_dev/pvlib__pvlib-python-1072", agentReplay{Commands: 74, Asks: 26, Prompts: 8, Denials: 0}},
	{"deepseek_chat_dev_rerun/sqlfluff__sqlfluff-2419", agentReplay{Commands: 43, Asks: 16, Prompts: 14, Denials: 0}},
	{"deepseek_chat_test_1-100/django__django-13033", agentReplay{Commands: 100, Asks: 35, Prompts: 14, Denials: 1}},
	{"deepseek_lite_dev_noparallel/pylint-dev__astroid-1333", agentReplay{Commands: 113, Asks: 24, Prompts: 23, Denials: 0}},
}

// agentReplayAll replays every task of the corpus, not only agentReplays,
// and logs what they count.
var agentReplayAll = flag.Bool("agentreplay.all", false, "TestAgentReplay: replay every task of testcases/data/agentcmds.tsv")

// TestAgentReplay replays whole tasks of the corpus through guard hook, as
// Claude Code runs them in one session with a user who approves every
// ask: the call asks (PreToolUse), guard leaves the prompt to the user
// (PermissionRequest), the call runs and is reported (PostToolUse), and
// the session is granted what the approval covers, so that a later call
// of the same scope does not ask. A denied call does not run. It counts
// the prompts and the denials of each task, and the asks the same
// commands get each on its own, in a session that approves nothing.
func TestAgentReplay(t *testing.T) {
	cmds := readAgentCmds(t)
	w := newAgentWorld(t)
	tasks := map[string][]agentCmd{}
	var order []string
	for _, c := range cmds {
		if tasks[c.task] == nil {
			order = append(order, c.task)
		}
		tasks[c.task] = append(tasks[c.task], c)
	}
	want := map[string]agentReplay{}
	for _, r := range agentReplays {
		want[r.task] = r.want
		if tasks[r.task] == nil {
			t.Errorf("task %s is not in %s", r.task, agentCmdsFile)
		}
	}
	var total agentReplay
	var prompts []int
	for i, task := range order {
		r, pinned := want[task]
		if !pinned && !*agentReplayAll {
			continue
		}
		got := replayTask(t, w, fmt.Sprint(i), tasks[task])
		total.Commands, total.Asks, total.Prompts, total.Denials = total.Commands+got.Commands, total.Asks+got.Asks,
			total.Prompts+got.Prompts, total.Denials+got.Denials
		prompts = append(prompts, got.Prompts)
		if pinned {
			t.Logf("%s: %d commands, %d ask on their own; replayed, %d prompts, %d denials", task, got.Commands, got.Asks, got.Prompts, got.Denials)
			if got != r {
				t.Errorf("%s: %+v, want %+v: if the policy or the engine changed them on purpose, put in agentReplays\n\t%#v", task, got, r, got)
			}
		}
	}
	slices.Sort(prompts)
	t.Logf("%d tasks, %d commands: %s ask on their own; replayed, %s prompt and %s are denied; prompts per task: median %d, 90th percentile %d, most %d",
		len(prompts), total.Commands, share(total.Asks, total.Commands), share(total.Prompts, total.Commands), share(total.Denials, total.Commands),
		prompts[len(prompts)/2], prompts[len(prompts)*9/10], prompts[len(prompts)-1])
}

// replayTask replays the commands of one task in order, in a session of
// its own, and counts them.
func replayTask(t *testing.T, w *agentWorld, id string, cmds []agentCmd) agentReplay {
	t.Helper()
	var got agentReplay
	session, alone := "replay-"+id, "alone-"+id
	for _, c := range cmds {
		cmd := w.command(c.command)
		got.Commands++
		a, err := w.hook(session, "PreToolUse", cmd)
		if err != nil {
			t.Fatalf("%s:%d: %v", agentCmdsFile, c.line, err)
		}
		first, err := w.hook(alone, "PreToolUse", cmd)
		if err != nil {
			t.Fatalf("%s:%d: %v", agentCmdsFile, c.line, err)
		}
		if first.verdict == "ask" {
			got.Asks++
		}
		switch a.verdict {
		case "deny":
			got.Denials++
			continue
		case "ask":
			got.Prompts++
			if p, err := w.hook(session, "PermissionRequest", cmd); err != nil || p.verdict != "" {
				t.Fatalf("%s:%d: PermissionRequest of a call guard asks about: %+v, %v; want it left to the user", agentCmdsFile, c.line, p, err)
			}
		}
		// Claude Code reports the call as it ran: rewritten, where
		// guard's answer rewrote it.
		if _, err := w.hook(session, "PostToolUse", cmp.Or(a.rewrite, cmd)); err != nil {
			t.Fatalf("%s:%d: %v", agentCmdsFile, c.line, err)
		}
	}
	return got
}
