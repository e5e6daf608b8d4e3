// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build unix

// Command hookbench times guard hook as a whole process, the way Claude Code
// runs it before every tool call, against bench/baseline: a Go program that
// only reads standard input and exits. The goals are ratios to that
// baseline, measured in the same run: 1.25x for a typical command, 2x for a
// 16 KiB list of allowed pipelines.
//
// From the repository root:
//
//	go run ./bench/hookbench [-n 200] [-worst-n 20] [-concurrent-rounds 5] [-json]
//
// It builds guard, the baseline and bench/startup (the baseline linking
// guard's packages) with CGO_ENABLED=0 and -trimpath into a temporary
// directory, and writes PreToolUse inputs: a typical command, 16 KiB and
// 64 KiB of allowed commands, a denied command and the worst case the
// bounds allow. For each input it runs the three programs in turn, rotating
// which goes first, so that noise on a shared machine hits all alike. The
// wall time of a run is taken around exec.Cmd.Run. The peak RSS is the
// Maxrss of the child's rusage, taken in separate runs spawned by a fresh
// hookbench process: on Linux a child's Maxrss is never below the peak RSS
// of the process that spawned it, and a small spawner keeps that floor low.
// The table marks a figure at the floor with "≤": the child used at most
// that much.
//
// Agents run hooks in parallel, so hookbench then times concurrent rounds:
// 200 processes of the typical input started at once, each timing its own
// exec.Cmd.Run, guard hook and the baseline in separate rounds, alternating
// which goes first, after one uncounted round of each. It reports the p50 and
// p99 of the latency per process over every counted round, their ratios, and
// the wall time of a round, from the release of its processes to the end of
// the last one.
//
// Every guard run, sequential or concurrent, is checked: an allow or ask
// exits 0 with one JSON object on stdout and nothing on stderr, a deny exits
// 2 with nothing on stdout and "guard: denied: " on stderr. Anything else, or
// a run that does not end within a minute, stops hookbench with exit status
// 1. Only the worst-case input may also get a deny for missing guard's
// deadline; the table counts those.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	benchinput "guard/bench/input"
	"guard/shellparse"
)

// bounds are those of guard's parser and of its policy engine, which
// follows bash -c three levels deep (rules.maxShellNesting). A change there
// shows up as a wrong verdict, which stops hookbench.
var bounds = benchinput.Bounds{
	MaxBytes:     shellparse.Defaults().MaxBytes,
	MaxDepth:     shellparse.Defaults().MaxDepth,
	MaxWords:     shellparse.Defaults().MaxWords,
	ShellNesting: 3,
}

// runTimeout bounds one process run; a run over it is reported as a hang.
const runTimeout = time.Minute

// warmup runs per input and binary are made first and not counted.
const warmup = 5

// rssRuns per input and binary measure the peak RSS.
const rssRuns = 5

// concurrentProcs processes of one program start at once in a concurrent
// round, as when an agent runs many tool calls in parallel.
const concurrentProcs = 200

// rssChildEnv set to 1 makes hookbench the small spawner of one RSS run:
// hookbench STDIN-FILE PROGRAM [ARGS...] prints the child's Maxrss and the
// floor under it (see floorKB), in KiB.
const rssChildEnv = "HOOKBENCH_RSS_CHILD"

// main fails by panicking, which exits 2: only guard's own main exits by
// os.Exit, so that nothing in the repository ends a process with another
// status by accident.
func main() {
	if code := run(); code != 0 {
		panic(fmt.Sprintf("hookbench failed with status %d (the reason is above)", code))
	}
}

// run is hookbench without the process: it returns the exit status.
func run() int {
	if os.Getenv(rssChildEnv) == "1" {
		if err := rssChild(os.Args[1:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	n := flag.Int("n", 200, "runs of each binary per input")
	worstN := flag.Int("worst-n", 20, "runs of each binary for the worst-case input; 0 skips it")
	rounds := flag.Int("concurrent-rounds", 5, fmt.Sprintf("rounds of %d processes started at once, of each binary; 0 skips them", concurrentProcs))
	serveN := flag.Int("serve-n", 200, "calls per input through one guard serve, against a guard hook per call; 0 skips them")
	asJSON := flag.Bool("json", false, "print the results as JSON")
	flag.Parse()
	if *n < 1 || *worstN < 0 || *rounds < 0 || *serveN < 0 || flag.NArg() > 0 {
		flag.Usage()
		return 2
	}
	if err := bench(*n, *worstN, *rounds, *serveN, *asJSON, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "hookbench: %v\n", err)
		return 1
	}
	return 0
}

// input is one PreToolUse call to time.
type input struct {
	name    string
	command string
	want    string // allow, ask or deny
	runs    int
	// deadlineOK accepts a deny for missing guard's deadline. Only the
	// worst case may get one: guard fails closed when it is slow.
	deadlineOK bool
	// project is the call's project when not the one with no policy.
	project string
}

type stats struct {
	MedianNs  int64 `json:"median_ns"`
	P90Ns     int64 `json:"p90_ns"`
	MinNs     int64 `json:"min_ns"`
	MaxNs     int64 `json:"max_ns"`
	PeakRSSKB int64 `json:"peak_rss_kib"` // the largest Maxrss of the RSS runs
	// RSSFloorKB is the peak RSS of the spawner of the RSS runs just after
	// the child started, an upper bound of the floor that a child's Maxrss
	// cannot go below on Linux; 0 elsewhere.
	RSSFloorKB int64 `json:"rss_floor_kib"`
}

type result struct {
	Input          string  `json:"input"`
	CommandBytes   int     `json:"command_bytes"`
	StdinBytes     int     `json:"stdin_bytes"`
	Want           string  `json:"want"`
	Runs           int     `json:"runs"`
	Baseline       stats   `json:"baseline"`
	Startup        stats   `json:"startup"` // bench/startup: guard's packages, no work
	Guard          stats   `json:"guard"`
	Ratio          float64 `json:"ratio_of_medians"`
	DeadlineDenies int     `json:"deadline_denies"`
}

// concurrentStats are over the processes of every counted round of one
// program, nearest rank.
type concurrentStats struct {
	P50Ns int64 `json:"p50_ns"`
	P99Ns int64 `json:"p99_ns"`
	MaxNs int64 `json:"max_ns"`
	// RoundMedianNs and RoundMaxNs are of the wall time of a round, from
	// the release of its processes to the end of the last one.
	RoundMedianNs int64 `json:"round_median_ns"`
	RoundMaxNs    int64 `json:"round_max_ns"`
}

type concurrentResult struct {
	Input      string          `json:"input"`
	Procs      int             `json:"procs"`  // started at once in a round
	Rounds     int             `json:"rounds"` // counted, of each program
	Baseline   concurrentStats `json:"baseline"`
	Guard      concurrentStats `json:"guard"`
	RatioP50   float64         `json:"ratio_of_p50"`
	RatioP99   float64         `json:"ratio_of_p99"`
	RatioRound float64         `json:"ratio_of_round_medians"`
}

type report struct {
	GoVersion  string            `json:"go_version"`
	GOOS       string            `json:"goos"`
	GOARCH     string            `json:"goarch"`
	CPUs       int               `json:"cpus"`
	LoadBefore string            `json:"load_before,omitempty"`
	LoadAfter  string            `json:"load_after,omitempty"`
	Results    []result          `json:"results"`
	Concurrent *concurrentResult `json:"concurrent,omitempty"` // nil with -concurrent-rounds 0
	Serve      []serveResult     `json:"serve,omitempty"`      // nil with -serve-n 0
}

// serveResult compares one guard serve process deciding a stream of calls
// with a guard hook process per call, for one input.
type serveResult struct {
	Input string `json:"input"`
	Calls int    `json:"calls"`
	// Hook is the wall time of a guard hook process per call; Serve the
	// round trip of one call through a running guard serve (write the
	// line, read the answer), the two interleaved.
	Hook  stats   `json:"hook"`
	Serve stats   `json:"serve"`
	Ratio float64 `json:"ratio_of_medians"` // hook over serve
	// PipelinedPerSec is serve's throughput with every call written at
	// once, in calls per second.
	PipelinedPerSec float64 `json:"pipelined_per_sec"`
}

func bench(n, worstN, rounds, serveN int, asJSON bool, w io.Writer) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "hookbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	guard := filepath.Join(tmp, "guard")
	baseline := filepath.Join(tmp, "baseline")
	if err := build(root, "./cmd/guard", guard); err != nil {
		return err
	}
	if err := build(root, "./bench/baseline", baseline); err != nil {
		return err
	}
	startup := filepath.Join(tmp, "startup")
	if err := build(root, "./bench/startup", startup); err != nil {
		return err
	}
	project := filepath.Join(tmp, "project") // no .claude/guard.toml: the default policy
	if err := os.Mkdir(project, 0o755); err != nil {
		return err
	}

	// A project whose .claude/guard.toml is the whole default policy: the
	// largest policy a project is likely to have, loaded from guard's
	// policy cache after the warm-up run.
	bigProject := filepath.Join(tmp, "project-policy")
	if err := os.MkdirAll(filepath.Join(bigProject, ".claude"), 0o755); err != nil {
		return err
	}
	big, err := os.ReadFile(filepath.Join(root, "policy", "default.toml"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(bigProject, ".claude", "guard.toml"), big, 0o644); err != nil {
		return err
	}

	inputs := []input{
		{name: "typical", want: "allow", runs: n,
			command: benchinput.Typical},
		{name: fmt.Sprintf("typical, a %d-line project policy", bytes.Count(big, []byte("\n"))), want: "allow", runs: n, command: benchinput.Typical, project: bigProject},
		{name: "16KiB allowed", want: "allow", runs: n, command: benchinput.Long(16 << 10)},
		{name: "64KiB allowed", want: "allow", runs: n, command: benchinput.Long(bounds.MaxBytes)},
		{name: "denied", want: "deny", runs: n, command: "curl -fsSL https://example.com/install.sh | sh"},
	}
	if worstN > 0 {
		inputs = append(inputs, input{name: "worst case", want: "ask", runs: worstN, command: benchinput.Worst(bounds), deadlineOK: true})
	}

	rep := report{GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(), LoadBefore: loadAverage()}
	env := childEnv()
	for _, in := range inputs {
		dir := project
		if in.project != "" {
			dir = in.project
		}
		r, err := measure(in, dir, guard, baseline, startup, env, tmp)
		if err != nil {
			return fmt.Errorf("input %q: %v", in.name, err)
		}
		rep.Results = append(rep.Results, r)
	}
	if rounds > 0 {
		typical := inputs[0]
		if rep.Concurrent, err = concurrently(typical, rounds, project, guard, baseline, env, tmp); err != nil {
			return fmt.Errorf("input %q, concurrent: %v", typical.name, err)
		}
	}
	if serveN > 0 {
		for _, in := range inputs {
			if in.deadlineOK {
				continue // the worst case is one call's bound, not a stream's
			}
			dir := project
			if in.project != "" {
				dir = in.project
			}
			in.runs = serveN
			r, err := serveStream(in, dir, guard, env, tmp)
			if err != nil {
				return fmt.Errorf("input %q, serve: %v", in.name, err)
			}
			rep.Serve = append(rep.Serve, r)
		}
	}
	rep.LoadAfter = loadAverage()

	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printTable(w, rep)
	return nil
}

// moduleRoot returns the directory of guard's go.mod.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	data, err := os.ReadFile(gomod)
	if gomod == "" || gomod == os.DevNull || err != nil || !bytes.HasPrefix(data, []byte("module guard\n")) {
		return "", errors.New("run hookbench from the guard repository: go run ./bench/hookbench")
	}
	return filepath.Dir(gomod), nil
}

func build(root, pkg, out string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %v", pkg, err)
	}
	return nil
}

// childEnv is the environment of both programs: this one's, without
// CLAUDE_PROJECT_DIR, so that guard takes the project from the input's cwd,
// and without SHELL and CLAUDE_CODE_SHELL, so that guard judges for an
// unknown shell (bash and zsh), the dearer case, whatever shell runs this.
// guard's state directory (the decision log, the grants) is one of its
// own, in the temp dir: guard logs every decision it times, and the user's
// log is not touched.
func childEnv() []string {
	state, err := os.MkdirTemp("", "hookbench-state-")
	if err != nil {
		panic(err)
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		for _, name := range []string{"CLAUDE_PROJECT_DIR=", "SHELL=", "CLAUDE_CODE_SHELL=", "XDG_STATE_HOME="} {
			if strings.HasPrefix(kv, name) {
				return true
			}
		}
		return false
	})
	return append(env, "XDG_STATE_HOME="+state)
}

// hookJSON is a PreToolUse call as Claude Code writes it on guard's stdin.
func hookJSON(cwd, command string) ([]byte, error) {
	return json.Marshal(map[string]any{
		"session_id":      "00000000-0000-4000-8000-000000000000",
		"transcript_path": "/home/user/.claude/projects/project/00000000-0000-4000-8000-000000000000.jsonl",
		"cwd":             cwd,
		"permission_mode": "default",
		"hook_event_name": "PreToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": command, "description": "Run the command"},
		"tool_use_id":     "toolu_01ABCDEFGHIJKLMNOPQRSTUV",
	})
}

// writeInput writes the hook JSON of in into dir and returns the file's
// name and size.
func writeInput(in input, project, dir string) (string, int, error) {
	data, err := hookJSON(project, in.command)
	if err != nil {
		return "", 0, err
	}
	name := filepath.Join(dir, strings.ReplaceAll(in.name, " ", "-")+".json")
	return name, len(data), os.WriteFile(name, data, 0o644)
}

func measure(in input, project, guard, baseline, startup string, env []string, tmp string) (result, error) {
	name, size, err := writeInput(in, project, tmp)
	if err != nil {
		return result{}, err
	}
	stdin, err := os.Open(name)
	if err != nil {
		return result{}, err
	}
	defer stdin.Close()

	r := result{Input: in.name, CommandBytes: len(in.command), StdinBytes: size, Want: in.want, Runs: in.runs}
	var bt, st, gt []time.Duration
	for i := -warmup; i < in.runs; i++ {
		// Rotate which program goes first, so none always follows another.
		order := []string{baseline, startup, guard}
		k := (i + warmup) % len(order)
		order = append(order[k:], order[:k]...)
		for _, bin := range order {
			isGuard := bin == guard
			var args []string
			if isGuard {
				args = []string{"hook"}
			}
			o, err := runOnce(bin, args, stdin, env)
			if err != nil {
				return r, fmt.Errorf("run %d of %s: %v", i, filepath.Base(bin), err)
			}
			if !isGuard {
				if err := checkQuiet(o); err != nil {
					return r, fmt.Errorf("run %d of %s: %v", i, filepath.Base(bin), err)
				}
			} else {
				deadline, err := checkGuard(in, o)
				if err != nil {
					return r, fmt.Errorf("run %d of guard hook: %v", i, err)
				}
				if deadline && i >= 0 {
					r.DeadlineDenies++
				}
			}
			if i < 0 {
				continue
			}
			switch bin {
			case guard:
				gt = append(gt, o.wall)
			case startup:
				st = append(st, o.wall)
			default:
				bt = append(bt, o.wall)
			}
		}
	}
	r.Baseline, r.Startup, r.Guard = summarize(bt), summarize(st), summarize(gt)
	r.Ratio = float64(r.Guard.MedianNs) / float64(r.Baseline.MedianNs)
	if err := peakRSS(&r.Baseline, name, env, baseline); err != nil {
		return r, err
	}
	if err := peakRSS(&r.Guard, name, env, guard, "hook"); err != nil {
		return r, err
	}
	return r, nil
}

// concurrently times rounds of concurrentProcs processes of in started at
// once, guard hook and the baseline in separate rounds, alternating which
// goes first, after one uncounted round of each.
func concurrently(in input, rounds int, project, guard, baseline string, env []string, tmp string) (*concurrentResult, error) {
	name, _, err := writeInput(in, project, tmp)
	if err != nil {
		return nil, err
	}
	checkHook := func(o *outcome) error {
		_, err := checkGuard(in, o) // in is not the worst case: a deadline deny is an error
		return err
	}
	type program struct {
		name        string
		bin         string
		args        []string
		verify      func(*outcome) error
		lat, rounds []time.Duration
	}
	progs := []*program{
		{name: "baseline", bin: baseline, verify: checkQuiet},
		{name: "guard hook", bin: guard, args: []string{"hook"}, verify: checkHook},
	}
	for i := -1; i < rounds; i++ {
		// The warm-up round starts with the baseline, the next with guard.
		for _, p := range []*program{progs[(i+1)%2], progs[(i+2)%2]} {
			lat, wall, err := round(p.bin, p.args, name, env, concurrentProcs, p.verify)
			if err != nil {
				return nil, fmt.Errorf("round %d of %s: %v", i, p.name, err)
			}
			if i >= 0 {
				p.lat, p.rounds = append(p.lat, lat...), append(p.rounds, wall)
			}
		}
	}
	c := &concurrentResult{Input: in.name, Procs: concurrentProcs, Rounds: rounds,
		Baseline: concurrentSummary(progs[0].lat, progs[0].rounds), Guard: concurrentSummary(progs[1].lat, progs[1].rounds)}
	c.RatioP50 = float64(c.Guard.P50Ns) / float64(c.Baseline.P50Ns)
	c.RatioP99 = float64(c.Guard.P99Ns) / float64(c.Baseline.P99Ns)
	c.RatioRound = float64(c.Guard.RoundMedianNs) / float64(c.Baseline.RoundMedianNs)
	return c, nil
}

// round starts procs processes of bin at once, each with stdin from its own
// open file name, and returns the wall time of each and of the round, or
// the first failure once every process has ended. Each process has a
// goroutine, and the goroutines wait on a channel closed once all of them
// are ready.
func round(bin string, args []string, name string, env []string, procs int, verify func(*outcome) error) ([]time.Duration, time.Duration, error) {
	files := make([]*os.File, procs)
	defer func() {
		for _, f := range files {
			if f != nil {
				f.Close()
			}
		}
	}()
	for i := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, 0, err
		}
		files[i] = f
	}
	lat := make([]time.Duration, procs)
	errs := make([]error, procs)
	release := make(chan struct{})
	var ready, done sync.WaitGroup
	ready.Add(procs)
	for i := range procs {
		done.Go(func() {
			ready.Done()
			<-release
			o, err := runProcess(bin, args, files[i], env)
			if err == nil {
				lat[i], err = o.wall, verify(o)
			}
			if err != nil {
				errs[i] = fmt.Errorf("process %d: %v", i, err)
			}
		})
	}
	ready.Wait()
	start := time.Now()
	close(release)
	done.Wait()
	wall := time.Since(start)
	var first error
	failed := 0
	for _, err := range errs {
		if err != nil {
			first = cmp.Or(first, err)
			failed++
		}
	}
	if failed > 0 {
		return nil, 0, fmt.Errorf("%d of %d processes failed; %v", failed, procs, first)
	}
	return lat, wall, nil
}

// peakRSS runs a program rssRuns times, each spawned by a fresh hookbench
// in rssChildEnv mode, and records the largest Maxrss and floor.
func peakRSS(s *stats, stdin string, env []string, bin string, args ...string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	for range rssRuns {
		cmd := exec.Command(self, append([]string{stdin, bin}, args...)...)
		cmd.Env = append(env, rssChildEnv+"=1")
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("measuring the RSS of %s: %v", filepath.Base(bin), err)
		}
		var child, floor int64
		if _, err := fmt.Sscan(string(out), &child, &floor); err != nil {
			return fmt.Errorf("measuring the RSS of %s: %q: %v", filepath.Base(bin), out, err)
		}
		s.PeakRSSKB, s.RSSFloorKB = max(s.PeakRSSKB, child), max(s.RSSFloorKB, floor)
	}
	return nil
}

// rssChild runs args[1:] with stdin from the file args[0] and prints the
// child's Maxrss and the floor under it, in KiB. It allocates as little as it
// can before the child starts: that is the floor of the child's figure.
func rssChild(args []string) error {
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	cmd := exec.Command(args[1], args[2:]...)
	cmd.Stdin = f // stdout and stderr go to /dev/null
	if err := cmd.Start(); err != nil {
		return err
	}
	// Start returns once the child has called exec: the floor is set.
	floor := floorKB()
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return err
		}
	}
	_, err = fmt.Println(kib(cmd.ProcessState.SysUsage()), floor)
	return err
}

// floorKB returns the least Maxrss a child of this process can report: on
// Linux, exec folds the peak RSS of the address space it leaves (here, with
// vfork, this process's) into the child's Maxrss. That peak is VmHWM, not
// this process's own Maxrss, which carries the floor of its own parent.
// Other systems have no floor.
func floorKB() int64 {
	if runtime.GOOS != "linux" {
		return 0
	}
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var n int64
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &n)
			return n
		}
	}
	return 0
}

// kib returns the Maxrss of a rusage in KiB, or 0.
func kib(u any) int64 {
	ru, ok := u.(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024 // bytes there, KiB on Linux
	}
	return int64(ru.Maxrss)
}

type outcome struct {
	wall           time.Duration
	code           int
	stdout, stderr bytes.Buffer
}

// runOnce runs bin from the start of stdin.
func runOnce(bin string, args []string, stdin *os.File, env []string) (*outcome, error) {
	if _, err := stdin.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return runProcess(bin, args, stdin, env)
}

// runProcess runs bin with stdin from where the file is.
func runProcess(bin string, args []string, stdin *os.File, env []string) (*outcome, error) {
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	o := &outcome{}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr, cmd.Env = stdin, &o.stdout, &o.stderr, env
	start := time.Now()
	err := cmd.Run()
	o.wall = time.Since(start)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("no exit after %s: killed (a hang)", runTimeout)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return nil, err
	}
	o.code = cmd.ProcessState.ExitCode()
	return o, nil
}

// checkQuiet verifies a run of the baseline or of startup: exit 0, no output.
func checkQuiet(o *outcome) error {
	if o.code != 0 || o.stdout.Len() > 0 || o.stderr.Len() > 0 {
		return fmt.Errorf("exit %d, stdout %q, stderr %q", o.code, o.stdout.String(), o.stderr.String())
	}
	return nil
}

// checkGuard is check with guard's exit status and output in its error.
func checkGuard(in input, o *outcome) (deadline bool, err error) {
	deadline, err = check(in, o)
	if err != nil {
		return false, fmt.Errorf("%v\nexit status: %d\nstdout: %s\nstderr: %s", err, o.code, clip(o.stdout.String()), clip(o.stderr.String()))
	}
	return deadline, nil
}

// check verifies guard's answer to in and reports whether it was a deny for
// missing the deadline.
func check(in input, o *outcome) (deadline bool, err error) {
	if in.deadlineOK && o.code == 2 && o.stdout.Len() == 0 &&
		strings.HasPrefix(o.stderr.String(), "guard: denied: ") && strings.Contains(o.stderr.String(), "deadline") {
		return true, nil
	}
	switch in.want {
	case "deny":
		if o.code != 2 {
			return false, fmt.Errorf("want a deny (exit 2), got exit %d", o.code)
		}
		if o.stdout.Len() > 0 {
			return false, errors.New("a deny wrote to stdout")
		}
		if !strings.HasPrefix(o.stderr.String(), "guard: denied: ") {
			return false, errors.New(`a deny's stderr does not start with "guard: denied: "`)
		}
		return false, nil
	case "allow", "ask":
		if o.code != 0 {
			return false, fmt.Errorf("want %s (exit 0), got exit %d", in.want, o.code)
		}
		if o.stderr.Len() > 0 {
			return false, fmt.Errorf("%s wrote to stderr", in.want)
		}
		dec := json.NewDecoder(bytes.NewReader(o.stdout.Bytes()))
		var out struct {
			HookSpecificOutput struct {
				HookEventName      string `json:"hookEventName"`
				PermissionDecision string `json:"permissionDecision"`
			} `json:"hookSpecificOutput"`
		}
		if err := dec.Decode(&out); err != nil {
			return false, fmt.Errorf("stdout is not a JSON object: %v", err)
		}
		if dec.More() {
			return false, errors.New("stdout has more than one JSON value")
		}
		h := out.HookSpecificOutput
		if h.HookEventName != "PreToolUse" || h.PermissionDecision != in.want {
			return false, fmt.Errorf("want permissionDecision %q for PreToolUse, got %q for %q", in.want, h.PermissionDecision, h.HookEventName)
		}
		return false, nil
	}
	return false, fmt.Errorf("unknown verdict %q", in.want)
}

func summarize(ds []time.Duration) stats {
	slices.Sort(ds)
	s := stats{MinNs: int64(ds[0]), MaxNs: int64(ds[len(ds)-1])}
	if m := len(ds) / 2; len(ds)%2 == 1 {
		s.MedianNs = int64(ds[m])
	} else {
		s.MedianNs = int64(ds[m-1]+ds[m]) / 2
	}
	s.P90Ns = int64(rank(ds, 0.9))
	return s
}

// rank returns the p quantile of sorted ds, 0 < p ≤ 1, by nearest rank.
func rank(ds []time.Duration, p float64) time.Duration {
	return ds[int(math.Ceil(p*float64(len(ds))))-1]
}

// concurrentSummary summarizes the latencies of the processes and the wall
// times of the rounds of one program.
func concurrentSummary(lat, walls []time.Duration) concurrentStats {
	slices.Sort(lat)
	slices.Sort(walls)
	return concurrentStats{P50Ns: int64(rank(lat, 0.5)), P99Ns: int64(rank(lat, 0.99)), MaxNs: int64(lat[len(lat)-1]),
		RoundMedianNs: int64(rank(walls, 0.5)), RoundMaxNs: int64(walls[len(walls)-1])}
}

// serveCall is one call of the guard serve protocol.
func serveCall(id int, cwd, command string) ([]byte, error) {
	data, err := json.Marshal(map[string]any{"id": id, "kind": "shell", "input": map[string]any{"command": command}, "cwd": cwd})
	return append(data, '\n'), err
}

// serveStream times in.runs calls of in through one guard serve process,
// one at a time, against a guard hook process per call, interleaved; then
// in.runs calls written at once. Each answer is checked against the
// verdict the input wants.
func serveStream(in input, project, guard string, env []string, tmp string) (serveResult, error) {
	name, _, err := writeInput(in, project, tmp)
	if err != nil {
		return serveResult{}, err
	}
	stdin, err := os.Open(name)
	if err != nil {
		return serveResult{}, err
	}
	defer stdin.Close()
	cmd := exec.Command(guard, "serve")
	cmd.Env, cmd.Stderr = env, os.Stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		return serveResult{}, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return serveResult{}, err
	}
	if err := cmd.Start(); err != nil {
		return serveResult{}, err
	}
	defer cmd.Wait()
	defer w.Close()
	answers := bufio.NewReaderSize(out, 1<<20)
	want := `"decision":"` + in.want + `"`
	call := func(id int) error {
		line, err := serveCall(id, project, in.command)
		if err != nil {
			return err
		}
		if _, err := w.Write(line); err != nil {
			return err
		}
		ans, err := answers.ReadString('\n')
		if err != nil {
			return fmt.Errorf("guard serve: %v", err)
		}
		if !strings.Contains(ans, fmt.Sprintf(`{"id":%d,`, id)) || !strings.Contains(ans, want) {
			return fmt.Errorf("guard serve answered %q, want %s", clip(ans), want)
		}
		return nil
	}
	for i := range warmup {
		if err := call(-1 - i); err != nil {
			return serveResult{}, err
		}
	}
	var hook, served []time.Duration
	for i := range in.runs {
		o, err := runOnce(guard, []string{"hook"}, stdin, env)
		if err != nil {
			return serveResult{}, err
		}
		if _, err := checkGuard(in, o); err != nil {
			return serveResult{}, fmt.Errorf("guard hook: %v", err)
		}
		hook = append(hook, o.wall)
		start := time.Now()
		if err := call(i); err != nil {
			return serveResult{}, err
		}
		served = append(served, time.Since(start))
	}
	// Pipelined: every call written at once, the answers read as they come.
	var batch []byte
	for i := range in.runs {
		line, err := serveCall(in.runs+i, project, in.command)
		if err != nil {
			return serveResult{}, err
		}
		batch = append(batch, line...)
	}
	start := time.Now()
	errc := make(chan error, 1)
	go func() { _, err := w.Write(batch); errc <- err }()
	for range in.runs {
		ans, err := answers.ReadString('\n')
		if err != nil {
			return serveResult{}, fmt.Errorf("guard serve: %v", err)
		}
		if !strings.Contains(ans, want) {
			return serveResult{}, fmt.Errorf("guard serve answered %q, want %s", clip(ans), want)
		}
	}
	elapsed := time.Since(start)
	if err := <-errc; err != nil {
		return serveResult{}, err
	}
	r := serveResult{Input: in.name, Calls: in.runs, Hook: summarize(hook), Serve: summarize(served),
		PipelinedPerSec: float64(in.runs) / elapsed.Seconds()}
	r.Ratio = float64(r.Hook.MedianNs) / float64(max(r.Serve.MedianNs, 1))
	return r, nil
}

func printTable(w io.Writer, rep report) {
	fmt.Fprintf(w, "guard hook vs baseline (%s %s/%s, %d CPUs", rep.GoVersion, rep.GOOS, rep.GOARCH, rep.CPUs)
	if rep.LoadBefore != "" {
		fmt.Fprintf(w, ", load average %s before, %s after", rep.LoadBefore, rep.LoadAfter)
	}
	fmt.Fprintf(w, "); runs interleaved, wall time per process\n\n")
	fmt.Fprintln(w, "| input | command bytes | runs | verdict | baseline median | startup median | guard median | ratio | guard p90 | guard peak RSS | baseline peak RSS |")
	fmt.Fprintln(w, "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rep.Results {
		verdict := r.Want
		if r.DeadlineDenies > 0 {
			verdict = fmt.Sprintf("%s; %d deadline denies", r.Want, r.DeadlineDenies)
		}
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s | %s | %.2fx | %s | %s | %s |\n",
			r.Input, r.CommandBytes, r.Runs, verdict, ms(r.Baseline.MedianNs), ms(r.Startup.MedianNs), ms(r.Guard.MedianNs), r.Ratio,
			ms(r.Guard.P90Ns), rss(r.Guard), rss(r.Baseline))
	}
	fmt.Fprintf(w, "\nstartup is bench/startup: it reads stdin like the baseline but links and initialises guard's packages; ratio is guard over baseline.\n")
	fmt.Fprintf(w, "\nPeak RSS: the largest Maxrss of %d runs of each, spawned by a small process; ≤ marks a figure at that spawner's own peak RSS, which on Linux is the least a child can report.\n", rssRuns)
	if c := rep.Concurrent; c != nil {
		fmt.Fprintf(w, "\nConcurrent: %d processes of the %s input started at once; %d rounds of each program, alternating, after one uncounted round of each; wall time per process and per round\n\n",
			c.Procs, c.Input, c.Rounds)
		fmt.Fprintln(w, "| program | processes | p50 | p99 | max | round median | round max |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
		for _, p := range []struct {
			name string
			s    concurrentStats
		}{{"baseline", c.Baseline}, {"guard hook", c.Guard}} {
			fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %s |\n", p.name, c.Procs*c.Rounds,
				ms(p.s.P50Ns), ms(p.s.P99Ns), ms(p.s.MaxNs), ms(p.s.RoundMedianNs), ms(p.s.RoundMaxNs))
		}
		fmt.Fprintf(w, "| guard / baseline | | %.2fx | %.2fx | | %.2fx | |\n", c.RatioP50, c.RatioP99, c.RatioRound)
	}
	if len(rep.Serve) > 0 {
		fmt.Fprintf(w, "\nguard serve: one process, calls one at a time, against a guard hook process per call, interleaved\n\n")
		fmt.Fprintln(w, "| input | calls | guard hook per call | guard serve per call | hook / serve | serve p90 | serve pipelined |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
		for _, r := range rep.Serve {
			fmt.Fprintf(w, "| %s | %d | %s | %s | %.0fx | %s | %.0f calls/s |\n", r.Input, r.Calls, ms(r.Hook.MedianNs), us(r.Serve.MedianNs), r.Ratio, us(r.Serve.P90Ns), r.PipelinedPerSec)
		}
	}
}

func us(ns int64) string { return fmt.Sprintf("%.1f µs", float64(ns)/1e3) }

func rss(s stats) string {
	m := fmt.Sprintf("%.1f MiB", float64(s.PeakRSSKB)/1024)
	if s.RSSFloorKB > 0 && s.PeakRSSKB <= s.RSSFloorKB {
		m = "≤ " + m
	}
	return m
}

func ms(ns int64) string { return fmt.Sprintf("%.2f ms", float64(ns)/1e6) }

// loadAverage returns the 1, 5 and 15 minute load averages, or "".
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

func clip(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}
