// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"guard/engine"
	"guard/internal/setup"
	"guard/policy"
	"guard/sandbox"
)

// runWorld is a project and a home on disk for guard run, with what the
// policy keeps from a command: a key in the home, a .env in the project,
// git's configuration and hooks, and a directory outside the project and
// every cache.
type runWorld struct {
	proj, home, tmp, outside string
}

// newRunWorld makes a world. It skips the test where guard run refuses to
// start any program (see jailProbe).
func newRunWorld(t *testing.T) runWorld {
	t.Helper()
	if why := jailProbe(); why != "" {
		t.Skip(why)
	}
	root := t.TempDir()
	w := runWorld{proj: filepath.Join(root, "proj"), home: filepath.Join(root, "home"), tmp: filepath.Join(root, "tmp"),
		outside: filepath.Join(root, "home", "other")}
	files := map[string]string{
		"home/.ssh/id_rsa":           "PRIVATE KEY\n",
		"home/other/notes":           "notes\n",
		"proj/.env":                  "TOKEN=1\n",
		"proj/go.mod":                "module fixture\n",
		"proj/src/main.go":           "package main\n",
		"proj/.git/config":           "[core]\n",
		"proj/.git/HEAD":             "ref: refs/heads/main\n",
		"proj/.git/hooks/.keep":      "",
		"proj/.claude/settings.json": "{}\n",
		"tmp/.keep":                  "",
	}
	for name, data := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// tree describes the fixture's paths, with a file's content: the project
// but its src, the temp dir, the home's keys and the directory outside;
// not what guard run keeps of its own in the home (the build cache it
// makes, its state).
func (w runWorld) tree(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, dir := range []string{w.proj, w.tmp, filepath.Join(w.home, ".ssh"), w.outside} {
		b.WriteString(dir + ":\n" + treeOutsideSrc(t, dir))
	}
	return b.String()
}

// run runs guard run with args in the world's project, with its home and
// temp dir, and returns its exit code and output. The programs it starts
// touch only the world's files.
func (w runWorld) run(t *testing.T, extraEnv []string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hookProcessWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, guardExe(), append([]string{"run", "--cwd", w.proj}, args...)...)
	cmd.Args[0] = "guard"
	cmd.Env = append([]string{"HOME=" + w.home, "TMPDIR=" + w.tmp, "PATH=/usr/local/bin:/usr/bin:/bin"}, extraEnv...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	}
	if err != nil {
		t.Fatalf("guard run: %v", err)
	}
	return 0, out.String()
}

// refusals are the messages of the jail's refusals: a path it does not
// show, a process outside its process namespace, the project's read-only
// mount, a write guard's supervisor refuses (or a secret's empty mode-000
// stand-in), a call the filter refuses, and a port of its own loopback,
// where nothing listens.
var refusals = []string{"No such file or directory", "No such process", "Read-only file system", "Permission denied",
	"not permitted", "Connection refused"}

// refused reports whether out holds one of the jail's refusals.
func refused(out string) bool {
	return slices.ContainsFunc(refusals, func(r string) bool { return strings.Contains(out, r) })
}

// TestRunConfines runs each attack twice: as a plain process, where it
// succeeds (so the fixture would let it), and under guard run, where the
// jail refuses it, prints nothing it keeps, and leaves the fixture's files
// as they were; and the everyday work beside it, which runs in both.
func TestRunConfines(t *testing.T) {
	t.Parallel() // independent of the other tests: its own temp dirs and processes
	w := newRunWorld(t)
	port := tcpLoopback(t)
	const mark = "guard-run-sleeper" // in the environment of a process outside
	// The sleeper is killed at the end of the test, however long it takes.
	sleeper := exec.Command("sleep", "3600")
	sleeper.Env = []string{"GUARD_SLEEPER=" + mark}
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sleeper.Process.Kill(); sleeper.Wait() })
	// strace attached until timeout stops it (124) has traced the sleeper.
	pid := strconv.Itoa(sleeper.Process.Pid)
	trace := "timeout 1 strace -qq -e trace=none -o /dev/null -p " + pid + "; [ $? = 124 ]"
	// A project with a .github, where a workflow is the kept part.
	if err := os.Mkdir(filepath.Join(w.proj, ".github"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		script string
		leak   string // printed by the plain run; not under guard run
		denied bool   // under guard run: exit non-zero, a refusal, the fixture as it was
	}{
		{"read a key in the home", "cat " + w.home + "/.ssh/id_rsa", "PRIVATE KEY", true},
		{"list the home", "ls -A " + w.home, ".ssh", false},       // the jail's home is empty
		{"read the project's .env", "cat .env", "TOKEN=1", false}, // shown empty: the secret is not printed
		{"write outside the writable roots", "echo x > " + w.outside + "/notes", "", true},
		{"write git's configuration", "echo '[core] fsmonitor = x' >> .git/config", "", true},
		{"plant a git hook", "echo x > .git/hooks/pre-commit", "", true},
		{"change the agent's settings", "echo x > .claude/settings.json", "", true},
		{"connect to a TCP port", "exec 3<>/dev/tcp/127.0.0.1/" + port, "", true},
		{"read the environment of a process outside", "cat /proc/" + pid + "/environ", mark, true},
		{"signal a process outside", "kill -0 " + pid, "", true},
		{"trace a process outside", trace, "", true},
		{"read the project", "cat go.mod src/main.go", "", false},
		{"write in the project", "echo x > src/new.go && cat src/new.go", "", false},
		{"make a git directory in the temp dir", "mkdir " + w.tmp + "/.git", "", true},
		{"make a workflow", "mkdir -p .github/workflows && echo x > .github/workflows/ci.yml", "", true},
		{"make an agent's MCP servers", "echo '{}' > .mcp.json", "", true},
		{"make a direnv file", "echo x > .envrc", "", true},
		{"write in the program's temp dir", "echo x > \"$TMPDIR\"/scratch && rm \"$TMPDIR\"/scratch", "", false},
		{"make a directory in the project", "mkdir -p src/gen/deep && echo x > src/gen/deep/a.go", "", false},
		{"write to /dev/null", "echo x > /dev/null", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := exec.LookPath("strace"); err != nil && tc.script == trace {
				t.Skip("no strace")
			}
			plain := exec.Command("bash", "--noprofile", "--norc", "-c", tc.script)
			plain.Dir, plain.Env = w.proj, []string{"TMPDIR=" + w.tmp, "PATH=/usr/bin:/bin"}
			if out, err := plain.CombinedOutput(); err != nil || !strings.Contains(string(out), tc.leak) {
				t.Fatalf("unconfined, the fixture does not allow it either: %v: %s", err, out)
			}
			// What the plain run made, the confined one must make again.
			for _, p := range []string{w.tmp + "/.git", ".github/workflows", ".mcp.json", ".envrc", "src/gen"} {
				if !filepath.IsAbs(p) {
					p = filepath.Join(w.proj, p)
				}
				if err := os.RemoveAll(p); err != nil {
					t.Fatal(err)
				}
			}
			before := w.tree(t)
			code, out := w.run(t, nil, "--", "bash", "--noprofile", "--norc", "-c", tc.script)
			after := w.tree(t)
			switch {
			case tc.leak != "" && strings.Contains(out, tc.leak):
				t.Errorf("guard run printed %q: exit %d: %s", tc.leak, code, out)
			case tc.denied && code == 0:
				t.Errorf("guard run let it through: %s", out)
			case tc.denied && !refused(out):
				t.Errorf("exit %d, want one of the jail's refusals %q: %s", code, refusals, out)
			case tc.denied && after != before:
				t.Errorf("guard run changed the fixture: %s\nbefore:\n%s\nafter:\n%s", out, before, after)
			case !tc.denied && code != 0:
				t.Errorf("exit %d: %s", code, out)
			}
		})
	}
}

// TestRunKeepsWhatIsNotThere: in a project that holds nothing the policy
// keeps (no .git, no .env, no .claude), the paths it would keep are still
// kept: what the plain run makes, the confined one cannot. A project
// writable whole would let a command plant the agent's settings, a
// repository with its own configuration, or a workflow.
func TestRunKeepsWhatIsNotThere(t *testing.T) {
	w := newRunWorld(t)
	for _, p := range []string{".git", ".env", ".claude"} {
		if err := os.RemoveAll(filepath.Join(w.proj, p)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(w.proj, ".github"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, script, made string
		denied             bool
	}{
		{"the agent's settings", "mkdir .claude && echo '{}' > .claude/settings.json", ".claude", true},
		{"a repository", "mkdir -p .git/hooks && echo x > .git/hooks/pre-commit", ".git", true},
		{"MCP servers", "echo '{}' > .mcp.json", ".mcp.json", true},
		{"a workflow in .github", "mkdir .github/workflows && echo x > .github/workflows/ci.yml", ".github/workflows", true},
		{"editor tasks", "mkdir .vscode && echo '{}' > .vscode/tasks.json", ".vscode", true},
		{"a toolchain file", "echo x > rust-toolchain.toml", "rust-toolchain.toml", true},
		{"a directory under src", "mkdir -p src/gen && echo x > src/gen/a.go", "src/gen", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			made := filepath.Join(w.proj, tc.made)
			plain := exec.Command("bash", "--noprofile", "--norc", "-c", tc.script)
			plain.Dir, plain.Env = w.proj, []string{"PATH=/usr/bin:/bin"}
			if out, err := plain.CombinedOutput(); err != nil {
				t.Fatalf("unconfined, the fixture does not allow it either: %v: %s", err, out)
			}
			if err := os.RemoveAll(made); err != nil {
				t.Fatal(err)
			}
			code, out := w.run(t, nil, "--", "bash", "--noprofile", "--norc", "-c", tc.script)
			_, err := os.Lstat(made)
			// What one case made must not change the project for the next.
			if err := os.RemoveAll(made); err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.denied && (code == 0 || err == nil):
				t.Errorf("guard run let it make %s: exit %d: %s", tc.made, code, out)
			case tc.denied && !strings.Contains(out, "Permission denied"):
				t.Errorf("exit %d, want a permission error: %s", code, out)
			case !tc.denied && (code != 0 || err != nil):
				t.Errorf("exit %d, %v: %s", code, err, out)
			}
		})
	}
}

// TestRunTCP: a profile of the policy's that grants a TCP port shares the
// host's network, and then that port only: a connect to it on the host's
// loopback works, and one to another port that listens there is refused
// (Landlock's TCP rules).
func TestRunTCP(t *testing.T) {
	if abi := sandbox.ABI(); abi < 6 {
		t.Skipf("Landlock ABI %d here: a profile with ports needs 6, for its TCP rules and its scope", abi)
	}
	w := newRunWorld(t)
	granted, other := tcpLoopback(t), tcpLoopback(t)
	pol := w.portPolicy(t, granted)
	connect := func(port string) []string {
		return []string{"bash", "--noprofile", "--norc", "-c", "exec 3<>/dev/tcp/127.0.0.1/" + port + " && echo connected"}
	}
	for _, port := range []string{granted, other} {
		argv := connect(port)
		if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("unconfined, a connect to port %s fails too: %v: %s", port, err, out)
		}
	}
	if code, out := w.run(t, nil, append([]string{"--config", pol, "--profile", "net", "--"}, connect(granted)...)...); code != 0 || !strings.Contains(out, "connected") {
		t.Errorf("a connect to the granted port %s: exit %d: %s", granted, code, out)
	}
	if code, out := w.run(t, nil, append([]string{"--config", pol, "--profile", "net", "--"}, connect(other)...)...); code == 0 || strings.Contains(out, "connected") || !strings.Contains(out, "Permission denied") {
		t.Errorf("a connect to port %s, which the profile does not grant: exit %d: %s", other, code, out)
	}
}

// portPolicy writes a policy, the default with a sandbox profile "net"
// that grants the TCP port, and returns its path.
func (w runWorld) portPolicy(t *testing.T, port string) string {
	t.Helper()
	pol := filepath.Join(w.tmp, "policy.toml")
	src := "version = 1\nextends = \"default\"\n\n[sandbox.net]\nports = [" + port + "]\n"
	if err := os.WriteFile(pol, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return pol
}

// tcpLoopback listens on a port of the host's loopback and accepts and
// closes connections until the test ends; it returns the port.
func tcpLoopback(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// TestRunReadOnly: in read-only mode nothing in the project is written,
// the program finds it a read-only file system; the temp dir still is.
func TestRunReadOnly(t *testing.T) {
	w := newRunWorld(t)
	code, out := w.run(t, nil, "--read-only", "--", "bash", "--noprofile", "--norc", "-c", "echo x > src/new.go")
	if _, err := os.Lstat(filepath.Join(w.proj, "src", "new.go")); err == nil || code == 0 || !strings.Contains(out, "Read-only file system") {
		t.Errorf("read-only write in the project: exit %d, src/new.go made (%v): %s", code, err == nil, out)
	}
	if code, out := w.run(t, nil, "--read-only", "--", "bash", "--noprofile", "--norc", "-c", "cat go.mod && echo x > \"$TMPDIR\"/x"); code != 0 {
		t.Errorf("read-only read and temp write: exit %d: %s", code, out)
	}
}

// TestRunRefuses: guard run never runs a program unconfined. A kernel
// that cannot make the jail (stood in for by $GUARD_TEST_NO_SANDBOX), the
// jail's own first step started by hand, a policy that does not load and
// a missing program are each its own failure, exit 125, and the program
// does not run.
func TestRunRefuses(t *testing.T) {
	w := newRunWorld(t)
	stamp := filepath.Join(w.proj, "src", "ran") // where the program could write, confined or not
	touch := []string{"--", "bash", "--noprofile", "--norc", "-c", "echo ran > " + stamp}
	bad := filepath.Join(w.tmp, "bad.toml")
	if err := os.WriteFile(bad, []byte("version = 1\nnope = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"no jail", []string{"GUARD_TEST_NO_SANDBOX=1"}, touch, "GUARD_TEST_NO_SANDBOX is 1"},
		{"--jail-init outside the jail", nil, append([]string{"--jail-init"}, touch...), "--jail-init outside guard run's jail"},
		{"a policy that does not load", nil, append([]string{"--config", bad}, touch...), "the policy does not load"},
		{"no program", nil, []string{"--"}, "want a program to run"},
		{"a program that is not there", nil, []string{"--", "no-such-program-here"}, "no-such-program-here: not found in the jail's search path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := w.run(t, tc.env, tc.args...)
			if code != runFailed || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, output %q; want %d and %q", code, out, runFailed, tc.want)
			}
			if _, err := os.Stat(stamp); err == nil {
				os.Remove(stamp)
				t.Errorf("the program ran")
			}
		})
	}
}

// TestRunRewrite decides calls with a policy whose [sandbox] says run,
// and runs what the hook answers, in bash and in zsh: an allowed command
// runs confined, in the form guard parsed, with the agent's cd kept in
// the agent's shell. The allowed make test target reads a key the hook
// never saw named; the jail does not have it.
func TestRunRewrite(t *testing.T) {
	w := newRunWorld(t)
	exe := guardExe()
	guard := filepath.Join(w.tmp, "bin", "guard") // guardExe's guard
	if err := os.MkdirAll(filepath.Dir(guard), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, guard); err != nil {
		t.Fatal(err)
	}
	pol := filepath.Join(w.tmp, "policy.toml")
	if err := os.WriteFile(pol, []byte("version = 1\nextends = \"default\"\n\n[sandbox]\nrun = true\nrequire = true\n\n[command.make]\nverdict = \"allow\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	makefile := "ok:\n\techo built > src/out.txt\nkey:\n\tcat " + w.home + "/.ssh/id_rsa\n"
	if err := os.WriteFile(filepath.Join(w.proj, "Makefile"), []byte(makefile), 0o600); err != nil {
		t.Fatal(err)
	}
	l, _, err := setup.LoadFile(pol)
	if err != nil {
		t.Fatal(err)
	}
	layers := &policy.Layers{User: l}
	env := func(name string) string {
		return map[string]string{"HOME": w.home, "TMPDIR": w.tmp, "PATH": "/usr/local/bin:/usr/bin:/bin"}[name]
	}
	decide := func(t *testing.T, command string, run []string) engine.Decision {
		t.Helper()
		call := setup.Context(setup.Getenv(env), w.proj, "", false)
		call.Tool, call.Input, call.Run = "Bash", engine.Input{Command: command}, run
		call.Guard = guard
		return (&engine.Engine{Layers: layers}).Decide(call)
	}
	run := []string{guard, "run", "--config", pol}

	d := decide(t, "cd "+w.proj+" && make ok", run)
	want := "cd " + w.proj + " && '" + guard + "' 'run' '--config' '" + pol + "' -- bash --noprofile --norc -c 'make ok'"
	if d.Verdict != engine.Allow || d.Rewrite == nil || d.Rewrite.Command != want {
		t.Fatalf("decision %s, rewrite %+v; want allow and %q", d.Verdict, d.Rewrite, want)
	}
	for _, shell := range []string{"bash", "zsh"} {
		if _, err := exec.LookPath(shell); err != nil {
			continue
		}
		t.Run(shell, func(t *testing.T) {
			for _, tc := range []struct {
				command string
				ok      bool
			}{
				{"make ok && cat src/out.txt", true},
				{"make key", false},
				{"cd " + w.proj + " && make key", false},
			} {
				d := decide(t, tc.command, run)
				if d.Rewrite == nil {
					t.Fatalf("%q: %s, no rewrite: %s", tc.command, d.Verdict, d.Reason())
				}
				cmd := exec.Command(shell, "-c", d.Rewrite.Command)
				cmd.Dir = w.proj
				cmd.Env = []string{"HOME=" + w.home, "TMPDIR=" + w.tmp, "PATH=/usr/local/bin:/usr/bin:/bin"}
				out, err := cmd.CombinedOutput()
				switch {
				case tc.ok && err != nil:
					t.Errorf("%q rewritten as %q: %v: %s", tc.command, d.Rewrite.Command, err, out)
				case !tc.ok && (err == nil || !refused(string(out)) || strings.Contains(string(out), "PRIVATE KEY")):
					t.Errorf("%q rewritten as %q: want one of the jail's refusals %q, got %v: %s", tc.command, d.Rewrite.Command, refusals, err, out)
				}
			}
		})
	}

	// The rewrite runs the command in the agent's shell, so that it means
	// what the agent wrote: zsh's **/ is recursive, bash's is not.
	for _, dir := range []string{"a/b", "c"} {
		if err := os.MkdirAll(filepath.Join(w.proj, "glob", dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(w.proj, "glob", dir, "f.txt"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	outputs := map[string]string{}
	for _, shell := range []string{"bash", "zsh"} {
		if _, err := exec.LookPath(shell); err != nil {
			t.Logf("no %s: its rewrite is not run", shell)
			continue
		}
		const command = "cd glob && ls -d **/*.txt"
		call := setup.Context(setup.Getenv(env), w.proj, shell, false)
		call.Tool, call.Input, call.Run, call.Guard = "Bash", engine.Input{Command: command}, run, guard
		d := (&engine.Engine{Layers: layers}).Decide(call)
		if d.Rewrite == nil || !strings.Contains(d.Rewrite.Command, "-- "+shell+" ") {
			t.Errorf("%s: %q: %s, rewrite %+v; want it run by %s", shell, command, d.Verdict, d.Rewrite, shell)
			continue
		}
		var got [2]string
		for i, line := range []string{command, d.Rewrite.Command} {
			cmd := exec.Command(shell, "-c", line)
			cmd.Dir = w.proj
			cmd.Env = []string{"HOME=" + w.home, "TMPDIR=" + w.tmp, "PATH=/usr/local/bin:/usr/bin:/bin"}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s -c %q: %v: %s", shell, line, err, out)
			}
			got[i] = string(out)
		}
		if got[0] != got[1] {
			t.Errorf("%s: %q prints %q, its rewrite %q prints %q", shell, command, got[0], d.Rewrite.Command, got[1])
		}
		outputs[shell] = got[0]
	}
	if outputs["zsh"] != "" && outputs["zsh"] == outputs["bash"] {
		t.Errorf("bash and zsh print the same for **/*.txt (%q): the test shows nothing", outputs["zsh"])
	}

	// Where the kernel cannot confine it, a policy that requires the
	// sandbox asks.
	if d := decide(t, "make ok", nil); d.Verdict != engine.Ask || d.Rewrite != nil || d.Leaves[0].Rule != "sandbox.require" {
		t.Errorf("no guard run: %s, rewrite %+v, leaves %+v; want an ask for the sandbox", d.Verdict, d.Rewrite, d.Leaves)
	}
	// guard never lets a command start guard itself.
	for _, c := range []string{"guard run -- cat " + w.home + "/.ssh/id_rsa", guard + " run --config /dev/null -- true", "timeout 5 guard check ls"} {
		if d := decide(t, c, run); d.Verdict != engine.Deny {
			t.Errorf("%q: %s, want deny", c, d.Verdict)
		}
	}
}

// TestRunGoTest runs go test of a fixture module under guard run: the
// build works (toolchain, module and build caches), a test server on the
// loopback works, and the test code, which the hook never sees, cannot
// read a key in the home.
func TestRunGoTest(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cache, err := exec.Command(gobin, "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	w := newRunWorld(t)
	files := map[string]string{
		"go.mod": "module fixture\n\ngo 1.26\n",
		"pkg/pkg_test.go": `package pkg

import (
	"os"
	"testing"
)

func TestSum(t *testing.T) {
	if 1+1 != 2 {
		t.Fatal("sum")
	}
}

func TestKeyOutOfReach(t *testing.T) {
	if _, err := os.ReadFile(os.Getenv("HOME") + "/.ssh/id_rsa"); err == nil {
		t.Fatal("the test read a key in the home")
	}
}
`,
		"pkg/server_test.go": `package pkg

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// A test server on the loopback, as many test suites start one.
func TestServer(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer s.Close()
	resp, err := http.Get(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}
`,
	}
	for name, data := range files {
		p := filepath.Join(w.proj, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=" + filepath.Dir(gobin) + ":/usr/bin:/bin", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod",
		"GOCACHE=" + strings.TrimSpace(string(cache))}
	plain := exec.Command(gobin, "test", "-count=1", "-run", "TestKeyOutOfReach", "./pkg")
	plain.Dir, plain.Env = w.proj, append([]string{"HOME=" + w.home, "TMPDIR=" + w.tmp}, env...)
	if out, err := plain.CombinedOutput(); err == nil {
		t.Fatalf("unconfined, the test reads the key, so it must fail: %s", out)
	}
	if code, out := w.run(t, env, "--", "go", "test", "-count=1", "./pkg"); code != 0 || !strings.Contains(out, "ok  \tfixture/pkg") {
		t.Errorf("go test under guard run: exit %d: %s", code, out)
	}
}

// TestRunCacheFromEnv: a build cache named by the environment is written
// only where nothing secret or protected is: $GOCACHE set to the
// project's .git opens no write to git's hooks (which a granted commit
// cannot write either), nor set to ~/.ssh one to
// the home's keys; set to a directory of the home's own, it is the build
// cache, written where it is.
func TestRunCacheFromEnv(t *testing.T) {
	w := newRunWorld(t)
	for _, tc := range []struct {
		dir    string
		denied bool
	}{
		{filepath.Join(w.proj, ".git"), true},
		{filepath.Join(w.home, ".ssh"), true},
		{filepath.Join(w.home, "gocache"), false},
	} {
		planted := filepath.Join(tc.dir, "planted")
		if filepath.Base(tc.dir) == ".git" {
			planted = filepath.Join(tc.dir, "hooks", "pre-commit") // git's directory is a granted commit's to write, its hooks are not
		}
		code, out := w.run(t, []string{"GOCACHE=" + tc.dir}, "--", "bash", "--noprofile", "--norc", "-c", "echo x > "+planted)
		_, err := os.Lstat(planted)
		switch {
		case tc.denied && (code == 0 || err == nil || !refused(out)):
			t.Errorf("GOCACHE=%s: a write there: exit %d, made %v: %s", tc.dir, code, err == nil, out)
		case !tc.denied && (code != 0 || err != nil):
			t.Errorf("GOCACHE=%s: a write there: exit %d, %v: %s", tc.dir, code, err, out)
		}
	}
}

// TestRunEnv: the confined program's environment.
func TestRunEnv(t *testing.T) {
	got := runEnv([]string{"PATH=/bin", "BASH_ENV=/x", "ENV=/y", "CDPATH=/elsewhere", "SHELLOPTS=xtrace", "PS4=$(touch /x)", "BASHOPTS=failglob",
		"GLOBIGNORE=*", "BASH_FUNC_make%%=() {  rm -rf ~\n}", "LANG=zh_CN.GBK", "GOTOOLCHAIN=go1.99.0", "GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=me"})
	want := []string{"PATH=/bin", "GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=me", "LC_ALL=C.UTF-8", "GOTOOLCHAIN=local",
		"GIT_CONFIG_KEY_1=core.fsmonitor", "GIT_CONFIG_VALUE_1=false", "GIT_CONFIG_KEY_2=core.hooksPath", "GIT_CONFIG_VALUE_2=/dev/null",
		"GIT_CONFIG_KEY_3=safe.bareRepository", "GIT_CONFIG_VALUE_3=explicit", "GIT_CONFIG_COUNT=4"}
	if !slices.Equal(got, want) {
		t.Errorf("runEnv:\n%q\nwant\n%q", got, want)
	}
}

// TestRunGitConfig: a repository whose configuration runs code (an
// fsmonitor that git status starts) runs none under guard run, while the
// same git status outside does.
func TestRunGitConfig(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	w := newRunWorld(t)
	if err := os.RemoveAll(filepath.Join(w.proj, ".git")); err != nil {
		t.Fatal(err)
	}
	stamp := filepath.Join(w.proj, "src", "fsmonitor-ran") // where guard run lets it write
	for _, args := range [][]string{{"init", "-q"}, {"config", "core.fsmonitor", "touch " + stamp + "; false"}} {
		c := exec.Command("git", args...)
		c.Dir, c.Env = w.proj, []string{"HOME=" + w.home, "PATH=/usr/bin:/bin"}
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	plain := exec.Command("git", "status", "--short")
	plain.Dir, plain.Env = w.proj, []string{"HOME=" + w.home, "PATH=/usr/bin:/bin"}
	plain.CombinedOutput()
	if _, err := os.Stat(stamp); err != nil {
		t.Fatalf("unconfined, git status did not run the fsmonitor: the fixture shows nothing")
	}
	os.Remove(stamp)
	if code, out := w.run(t, nil, "--", "git", "status", "--short"); code != 0 {
		t.Errorf("git status under guard run: exit %d: %s", code, out)
	}
	if _, err := os.Stat(stamp); err == nil {
		t.Errorf("git status under guard run ran the repository's fsmonitor")
	}
}

// TestRunNetwork: the confined program reaches nothing on the network but
// a loopback of its own. In its own network namespace, where it runs
// unless a profile grants it ports, a UDP datagram sent to a listener of
// the host's loopback never arrives, and a test server of its own works.
// With a profile's port, on the host's network: besides TCP to other
// ports, which Landlock refuses (TestRunTCP), a seccomp filter refuses UDP
// (so DNS), MPTCP and SCTP, which Landlock's TCP rules do not see, and raw
// sockets, while Unix and plain TCP sockets are still made.
func TestRunNetwork(t *testing.T) {
	w := newRunWorld(t)
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	port := strconv.Itoa(udp.LocalAddr().(*net.UDPAddr).Port)
	received := func() bool {
		udp.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
		buf := make([]byte, 64)
		_, _, err := udp.ReadFrom(buf)
		return err == nil
	}
	send := []string{"--", "bash", "--noprofile", "--norc", "-c", "echo x > /dev/udp/127.0.0.1/" + port}
	plain := exec.Command(send[1], send[2:]...)
	if out, err := plain.CombinedOutput(); err != nil || !received() {
		t.Fatalf("unconfined, the datagram does not arrive either: %v: %s", err, out)
	}
	py := "/usr/bin/python3" // the system's: a home's shims are not shown
	t.Run("its own namespace", func(t *testing.T) {
		if code, out := w.run(t, nil, send...); received() {
			t.Errorf("a UDP datagram from under guard run reached the host (exit %d: %s)", code, out)
		}
		if _, err := os.Stat(py); err != nil {
			t.Skipf("no %s: a test server is not tried", py)
		}
		server := "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(1); c = socket.create_connection(s.getsockname()); c.close()"
		if code, out := w.run(t, nil, "--", py, "-c", server); code != 0 {
			t.Errorf("a test server on its own loopback: exit %d: %s", code, out)
		}
	})
	t.Run("a profile's port", func(t *testing.T) {
		if abi := sandbox.ABI(); abi < 6 {
			t.Skipf("Landlock ABI %d here: a profile with ports needs 6, for its TCP rules and its scope", abi)
		}
		profile := []string{"--config", w.portPolicy(t, tcpLoopback(t)), "--profile", "net"}
		code, out := w.run(t, nil, append(profile, send...)...)
		if received() {
			t.Errorf("a UDP datagram from under guard run reached the host (exit %d: %s)", code, out)
		}
		if code == 0 || !strings.Contains(out, "not permitted") {
			t.Errorf("a UDP send: exit %d, want a refused socket: %s", code, out)
		}
		if _, err := os.Stat(py); err != nil {
			t.Skipf("no %s: the other socket kinds are not tried", py)
		}
		for _, tc := range []struct {
			name, code string
			denied     bool
		}{
			{"MPTCP", "socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262)", true},
			{"SCTP", "socket.socket(socket.AF_INET, socket.SOCK_STREAM, 132)", true},
			{"raw", "socket.socket(socket.AF_INET, socket.SOCK_RAW, 1)", true},
			{"UDP over IPv6", "socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)", true},
			{"nonblocking UDP", "socket.socket(socket.AF_INET, socket.SOCK_DGRAM | socket.SOCK_NONBLOCK)", true},
			{"Unix", "socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)", false},
			{"plain TCP", "socket.socket(socket.AF_INET, socket.SOCK_STREAM)", false},
		} {
			code, out := w.run(t, nil, append(profile, "--", py, "-c", "import socket; "+tc.code)...)
			switch {
			case tc.denied && (code == 0 || !strings.Contains(out, "PermissionError")):
				t.Errorf("%s socket under guard run: exit %d: %s", tc.name, code, out)
			case !tc.denied && code != 0:
				t.Errorf("%s socket under guard run: exit %d: %s", tc.name, code, out)
			}
		}
	})
}

// TestRunCargoTest runs cargo test of a fixture crate under guard run: the
// toolchain (rustup's, read-only) builds it, and the test, which the hook
// never sees, cannot read a key in the home.
func TestRunCargoTest(t *testing.T) {
	cargo, err := exec.LookPath("cargo")
	if err != nil {
		t.Skip("no cargo")
	}
	home, _ := os.UserHomeDir()
	rustup, cargoHome := os.Getenv("RUSTUP_HOME"), os.Getenv("CARGO_HOME")
	if rustup == "" {
		rustup = filepath.Join(home, ".rustup")
	}
	if cargoHome == "" {
		cargoHome = filepath.Join(home, ".cargo")
	}
	w := newRunWorld(t)
	files := map[string]string{
		"Cargo.toml": "[package]\nname = \"fixture\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"src/lib.rs": `pub fn sum(a: i32, b: i32) -> i32 { a + b }

#[cfg(test)]
mod tests {
    #[test]
    fn sum() { assert_eq!(super::sum(1, 2), 3); }

    #[test]
    fn key_out_of_reach() {
        let home = std::env::var("HOME").unwrap();
        assert!(std::fs::read(format!("{home}/.ssh/id_rsa")).is_err(), "the test read a key in the home");
    }
}
`,
	}
	for name, data := range files {
		p := filepath.Join(w.proj, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// A fresh project: no target/ and no Cargo.lock, which cargo makes
	// itself, at the top of the project.
	env := []string{"PATH=" + filepath.Dir(cargo) + ":/usr/bin:/bin", "RUSTUP_HOME=" + rustup, "CARGO_HOME=" + cargoHome}
	if code, out := w.run(t, env, "--", "cargo", "test", "--offline", "-q"); code != 0 || !strings.Contains(out, "2 passed") {
		t.Errorf("cargo test under guard run: exit %d: %s", code, out)
	}
	if lock, err := os.ReadFile(filepath.Join(w.proj, "Cargo.lock")); err != nil || !strings.Contains(string(lock), "fixture") {
		t.Errorf("Cargo.lock after cargo test: %v: %q", err, lock)
	}
	plain := exec.Command(cargo, "test", "--offline", "-q", "key_out_of_reach")
	plain.Dir, plain.Env = w.proj, append([]string{"HOME=" + w.home, "TMPDIR=" + w.tmp}, env...)
	if out, err := plain.CombinedOutput(); err == nil {
		t.Fatalf("unconfined, the test reads the key, so it must fail: %s", out)
	}
}

// TestRunOutputs: a build or a test run makes its outputs at the top of
// the project itself, directories (target/, dist/, .pytest_cache/) and
// files (coverage.out), and removes them again (cargo clean); guard run
// makes none of its own, and in read-only mode the program makes none.
func TestRunOutputs(t *testing.T) {
	w := newRunWorld(t)
	outputs := []string{"target/debug/app", "dist/app.js", ".pytest_cache/v", "coverage.out"}
	made := func() []string {
		var out []string
		for _, p := range append(slices.Clone(outputs), "target", "dist", ".pytest_cache") {
			if _, err := os.Lstat(filepath.Join(w.proj, p)); err == nil {
				out = append(out, p)
			}
		}
		return out
	}
	script := "mkdir -p target/debug dist .pytest_cache"
	for _, p := range outputs {
		script += " && echo x > " + p
	}
	if code, out := w.run(t, nil, "--", "true"); code != 0 || len(made()) > 0 {
		t.Fatalf("guard run -- true: exit %d, made %q: %s", code, made(), out)
	}
	if code, out := w.run(t, nil, "--read-only", "--", "bash", "--noprofile", "--norc", "-c", script); code == 0 || len(made()) > 0 || !strings.Contains(out, "Read-only file system") {
		t.Errorf("read-only: exit %d, made %q: %s", code, made(), out)
	}
	if code, out := w.run(t, nil, "--", "bash", "--noprofile", "--norc", "-c", script); code != 0 || len(made()) != len(outputs)+3 {
		t.Errorf("making the outputs: exit %d, made %q: %s", code, made(), out)
	}
	if code, out := w.run(t, nil, "--", "bash", "--noprofile", "--norc", "-c", "rm -r target dist .pytest_cache coverage.out"); code != 0 || len(made()) > 0 {
		t.Errorf("removing the outputs: exit %d, left %q: %s", code, made(), out)
	}
}

// TestRunProfile: a rule allowed in a profile of the policy's own
// ([sandbox.NAME]) runs with what the profile grants beyond the build
// profile, and nothing else: a port to connect to, a directory of the home
// to read and one to write, a variable; the key stays out of reach. A path
// of the profile that does not exist is skipped with a warning, and a
// profile the policy does not have is refused.
func TestRunProfile(t *testing.T) {
	if abi := sandbox.ABI(); abi < 6 {
		t.Skipf("Landlock ABI %d here: a profile with ports needs 6, for its TCP rules and its scope", abi)
	}
	w := newRunWorld(t)
	port := tcpLoopback(t)
	for _, d := range []string{"shared", "out"} {
		if err := os.MkdirAll(filepath.Join(w.home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(w.home, "shared", "data"), []byte("shared-data\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pol := filepath.Join(w.tmp, "policy.toml")
	src := "version = 1\nextends = \"default\"\n\n[sandbox.net]\nread = [\"~/shared\", \"~/missing\"]\nwrite = [\"~/out\"]\nports = [" + port + "]\nenv = { FIXTURE = \"set\" }\n\n" +
		"[command.make]\n\n[command.make.sub.net]\nverdict = \"allow\"\nsandbox = \"net\"\n"
	if err := os.WriteFile(pol, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	makefile := "SHELL := /bin/bash\nnet:\n\texec 3<>/dev/tcp/127.0.0.1/" + port + "\n\tcat $(HOME)/shared/data\n\techo x > $(HOME)/out/x\n\ttest \"$$FIXTURE\" = set\n\t! cat $(HOME)/.ssh/id_rsa\n"
	if err := os.WriteFile(filepath.Join(w.proj, "Makefile"), []byte(makefile), 0o600); err != nil {
		t.Fatal(err)
	}
	l, _, err := setup.LoadFile(pol)
	if err != nil {
		t.Fatal(err)
	}
	env := func(name string) string {
		return map[string]string{"HOME": w.home, "TMPDIR": w.tmp, "PATH": "/usr/local/bin:/usr/bin:/bin"}[name]
	}
	call := setup.Context(setup.Getenv(env), w.proj, "bash", false)
	call.Tool, call.Input, call.Run = "Bash", engine.Input{Command: "make net"}, []string{"guard", "run", "--config", pol}
	d := (&engine.Engine{Layers: &policy.Layers{User: l}}).Decide(call)
	if d.Verdict != engine.Allow || d.Rewrite == nil || !strings.Contains(d.Rewrite.Command, "'--profile' 'net' -- bash") {
		t.Fatalf("make net: %s, rewrite %+v; want allow under guard run --profile net", d.Verdict, d.Rewrite)
	}
	code, out := w.run(t, nil, "--config", pol, "--profile", "net", "--", "make", "net")
	if code != 0 || !strings.Contains(out, "shared-data") || !strings.Contains(out, "~/missing does not exist; skipped") {
		t.Errorf("make net under guard run --profile net: exit %d: %s", code, out)
	}
	if code, out := w.run(t, nil, "--config", pol, "--", "make", "net"); code == 0 {
		t.Errorf("make net without the profile: exit 0: %s", out)
	}
	if code, out := w.run(t, nil, "--config", pol, "--profile", "nope", "--", "true"); code != runFailed || !strings.Contains(out, `no sandbox profile "nope"`) {
		t.Errorf("an unknown profile: exit %d: %s", code, out)
	}
}

// TestRunPathTools: a toolchain on the search path inside the home runs
// under guard run, with its root when its directory is a bin (node under
// ~/.nvm finds its libraries in ../lib), while a bin directly under the
// home is shown alone: the rest of ~/.local stays out of reach.
func TestRunPathTools(t *testing.T) {
	w := newRunWorld(t)
	nvm := filepath.Join(w.home, ".nvm/versions/node/v22")
	files := map[string]string{
		nvm + "/bin/tool":                   "#!/bin/sh\ncat \"$(dirname \"$0\")/../lib/data\"\n",
		nvm + "/lib/data":                   "tool-data\n",
		w.home + "/.local/bin/tool2":        "#!/bin/sh\necho tool2-ran\n",
		w.home + "/.local/share/notes/keep": "private\n",
		// A version manager's shim runs the manager, which runs the version
		// it picks (pyenv, rbenv, asdf).
		w.home + "/.mgr/shims/tool3":          "#!/bin/sh\nexec \"$(dirname \"$0\")/../libexec/mgr\"\n",
		w.home + "/.mgr/libexec/mgr":          "#!/bin/sh\nexec \"$(dirname \"$0\")/../versions/1/bin/tool3\"\n",
		w.home + "/.mgr/versions/1/bin/tool3": "#!/bin/sh\necho tool3-ran\n",
	}
	for p, data := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := []string{"PATH=" + nvm + "/bin:" + w.home + "/.local/bin:" + w.home + "/.mgr/shims:/usr/bin:/bin"}
	if code, out := w.run(t, path, "--", "tool3"); code != 0 || !strings.Contains(out, "tool3-ran") {
		t.Errorf("a version manager's shim: exit %d: %s", code, out)
	}
	if code, out := w.run(t, path, "--", "tool"); code != 0 || !strings.Contains(out, "tool-data") {
		t.Errorf("a toolchain under ~/.nvm: exit %d: %s", code, out)
	}
	if code, out := w.run(t, path, "--", "tool2"); code != 0 || !strings.Contains(out, "tool2-ran") {
		t.Errorf("a program in ~/.local/bin: exit %d: %s", code, out)
	}
	if code, out := w.run(t, path, "--", "cat", w.home+"/.local/share/notes/keep"); code == 0 || !refused(out) || strings.Contains(out, "private") {
		t.Errorf("the rest of ~/.local: exit %d: %s", code, out)
	}
}
