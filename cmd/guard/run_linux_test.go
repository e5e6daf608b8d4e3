// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"guard/sandbox"
)

// runWorld is a project and a home on disk for guard run, with what the
// policy keeps from a command: a key in the home, a .env in the project,
// git's configuration and hooks, and a directory outside every writable
// root.
type runWorld struct {
	proj, home, tmp, outside string
}

func newRunWorld(t *testing.T) runWorld {
	t.Helper()
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

// run runs guard run with args in the world's project, with its home and
// temp dir, and returns its exit code and output. The programs it starts
// touch only the world's files.
func (w runWorld) run(t *testing.T, extraEnv []string, args ...string) (int, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hookProcessWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, append([]string{"run", "--cwd", w.proj}, args...)...)
	cmd.Args[0] = "guard"
	cmd.Env = append([]string{"HOME=" + w.home, "TMPDIR=" + w.tmp, "PATH=/usr/local/bin:/usr/bin:/bin"}, extraEnv...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	}
	if err != nil {
		t.Fatalf("guard run: %v", err)
	}
	return 0, out.String()
}

// TestRunConfines runs each attack twice: as a plain process, where it
// succeeds (so the fixture would let it), and under guard run, where the
// kernel refuses it; and the everyday work beside it, which runs in both.
func TestRunConfines(t *testing.T) {
	if abi := sandbox.ABI(); abi < sandbox.MinABI {
		t.Skipf("Landlock ABI %d here; guard run needs %d", abi, sandbox.MinABI)
	}
	w := newRunWorld(t)
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	for _, tc := range []struct {
		name   string
		script string
		denied bool // under guard run
	}{
		{"read a key in the home", "cat " + w.home + "/.ssh/id_rsa", true},
		{"list the home", "ls " + w.home, true},
		{"read the project's .env", "cat .env", true},
		{"write outside the writable roots", "echo x > " + w.outside + "/notes", true},
		{"write git's configuration", "echo '[core] fsmonitor = x' >> .git/config", true},
		{"plant a git hook", "echo x > .git/hooks/pre-commit", true},
		{"change the agent's settings", "echo x > .claude/settings.json", true},
		{"connect to a TCP port", "exec 3<>/dev/tcp/127.0.0.1/" + port, true},
		{"read the project", "cat go.mod src/main.go", false},
		{"write in the project", "echo x > src/new.go && cat src/new.go", false},
		{"write in the temp dir", "echo x > " + w.tmp + "/scratch && rm " + w.tmp + "/scratch", false},
		{"write to /dev/null", "echo x > /dev/null", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plain := exec.Command("bash", "--noprofile", "--norc", "-c", tc.script)
			plain.Dir = w.proj
			if out, err := plain.CombinedOutput(); err != nil {
				t.Fatalf("unconfined, the fixture does not allow it either: %v: %s", err, out)
			}
			code, out := w.run(t, nil, "--", "bash", "--noprofile", "--norc", "-c", tc.script)
			switch {
			case tc.denied && code == 0:
				t.Errorf("guard run let it through: %s", out)
			case tc.denied && !strings.Contains(out, "ermission denied"):
				t.Errorf("exit %d, want a permission error: %s", code, out)
			case !tc.denied && code != 0:
				t.Errorf("exit %d: %s", code, out)
			}
		})
	}
}

// TestRunReadOnly: in read-only mode nothing in the project is written;
// the temp dir still is.
func TestRunReadOnly(t *testing.T) {
	if abi := sandbox.ABI(); abi < sandbox.MinABI {
		t.Skipf("Landlock ABI %d here; guard run needs %d", abi, sandbox.MinABI)
	}
	w := newRunWorld(t)
	if code, out := w.run(t, nil, "--read-only", "--", "bash", "--noprofile", "--norc", "-c", "echo x > src/new.go"); code == 0 || !strings.Contains(out, "ermission denied") {
		t.Errorf("read-only write in the project: exit %d: %s", code, out)
	}
	if code, out := w.run(t, nil, "--read-only", "--", "bash", "--noprofile", "--norc", "-c", "cat go.mod && echo x > "+w.tmp+"/x"); code != 0 {
		t.Errorf("read-only read and temp write: exit %d: %s", code, out)
	}
}

// TestRunRefuses: guard run never runs a program unconfined. A kernel
// whose Landlock is too old (stood in for by $GUARD_TEST_LANDLOCK_ABI), a
// policy that does not load and a missing program are each its own
// failure, exit 125, and the program does not run.
func TestRunRefuses(t *testing.T) {
	w := newRunWorld(t)
	stamp := filepath.Join(w.tmp, "ran")
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
		{"no Landlock", []string{"GUARD_TEST_LANDLOCK_ABI=0"}, touch, "Landlock ABI 0, and guard run needs 4"},
		{"Landlock without TCP rules", []string{"GUARD_TEST_LANDLOCK_ABI=3"}, touch, "Landlock ABI 3, and guard run needs 4"},
		{"a policy that does not load", nil, append([]string{"--config", bad}, touch...), "the policy does not load"},
		{"no program", nil, []string{"--"}, "needs a program"},
		{"a program that is not there", nil, []string{"--", "no-such-program-here"}, "executable file not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := w.run(t, tc.env, tc.args...)
			if code != runFailed || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, output %q; want %d and %q", code, out, runFailed, tc.want)
			}
			if _, err := os.Stat(stamp); err == nil {
				t.Errorf("the program ran")
			}
		})
	}
}
