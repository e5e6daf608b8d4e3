// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"guard/internal/bwrapprobe"
)

// The attacks guard hook holds, through guard shell, as an agent runs
// its $SHELL: each runs for real, only in bubblewrap (the system
// read-only, a private /tmp, no network) with a throwaway home and
// project. First as bash -c, where it must do what it aims at (else the
// case skips: an attack that does nothing here proves nothing), then as
// guard shell -c, where it must be refused (exit 126, a deny line) and do
// nothing. guard run's jail cannot run inside bubblewrap (no /proc of its
// own there), so guard shell decides as on a kernel without the sandbox;
// GUARD_TEST_NO_SANDBOX says so whatever the kernel.

// shellCanary is the content of the box's secrets: output that holds it
// leaked one.
const shellCanary = "guard-shell-canary-7f3a"

// shellBox is a throwaway home and project for one run in bubblewrap.
type shellBox struct {
	root, home, proj string
}

// newShellBox makes a box: a home with an SSH key, AWS credentials, a
// .bashrc and a guard-shell script; a git repository with a README and a
// .env; and evil.sh beside them, a script that leaves pwned in the
// project. It skips the test where bubblewrap cannot run.
func newShellBox(t *testing.T) shellBox {
	t.Helper()
	if err := bwrapprobe.Proc(); err != nil {
		t.Skip(err)
	}
	root := t.TempDir()
	b := shellBox{root: root, home: filepath.Join(root, "home"), proj: filepath.Join(root, "home", "proj")}
	files := map[string]string{
		"home/.ssh/id_rsa":               "-----BEGIN OPENSSH PRIVATE KEY-----\n" + shellCanary + "\n",
		"home/.aws/credentials":          "[default]\naws_secret_access_key = " + shellCanary + "\n",
		"home/.bashrc":                   "# the user's rc\n",
		"home/.config/guard/guard-shell": "#!/bin/sh\nexec guard shell \"$@\"\n",
		"home/proj/README":               "read me\n",
		"home/proj/.env":                 "TOKEN=" + shellCanary + "\n",
		"evil.sh":                        "touch " + filepath.Join(root, "home", "proj", "pwned") + "\n",
	}
	writeFiles(t, root, files, 0o644)
	if out, err := exec.Command("git", "init", "-q", b.proj).CombinedOutput(); err != nil {
		t.Skipf("git init: %v: %s", err, out)
	}
	return b
}

// run runs argv in the box, in the project, and returns its exit status
// and its output.
func (b shellBox) run(t *testing.T, stdin string, argv ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hookProcessWait)
	guardBin := filepath.Dir(guardExe())
	args := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
		"--bind", b.root, b.root, "--ro-bind", guardBin, guardBin,
		"--unshare-all", "--die-with-parent", "--new-session", "--chdir", b.proj, "--"}
	cmd := exec.CommandContext(ctx, "bwrap", append(args, argv...)...)
	cmd.Env = []string{"HOME=" + b.home, "PATH=" + guardBin + ":/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", "TMPDIR=/tmp",
		"GUARD_TEST_NO_SANDBOX=1"}
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 10 * time.Second
	code, _ := outcome(t, cmd, cancel)
	return code, stdout.String(), stderr.String()
}

// shellEffect says whether an attack did what it aims at in the box,
// given its output.
type shellEffect func(b shellBox, out string) bool

// made: the file exists (a path in the project, or from the root as
// home/...).
func made(name string) shellEffect {
	return func(b shellBox, _ string) bool {
		p := filepath.Join(b.proj, name)
		if strings.HasPrefix(name, "home/") {
			p = filepath.Join(b.root, name)
		}
		_, err := os.Lstat(p)
		return err == nil
	}
}

// changed: the file under the box's root no longer holds what the box
// made it with (or is gone).
func changed(name, was string) shellEffect {
	return func(b shellBox, _ string) bool {
		data, err := os.ReadFile(filepath.Join(b.root, name))
		return err != nil || string(data) != was
	}
}

// inGitConfig: the project's .git/config holds text.
func inGitConfig(text string) shellEffect {
	return func(b shellBox, _ string) bool {
		data, _ := os.ReadFile(filepath.Join(b.proj, ".git", "config"))
		return bytes.Contains(data, []byte(text))
	}
}

// leaked: the output holds a secret's canary.
func leaked(_ shellBox, out string) bool { return strings.Contains(out, shellCanary) }

// TestShellAttacks: what guard hook refuses, guard shell refuses, and
// runs nothing of.
func TestShellAttacks(t *testing.T) {
	const rc = "# the user's rc\n"
	for _, tc := range []struct {
		command string
		effect  shellEffect
	}{
		// Deleting the home, or what is outside the project.
		{"rm -rf ~", changed("home/.bashrc", rc)},
		{"rm -rf ~/", changed("home/.bashrc", rc)},
		{"rm -rf ../.ssh", changed("home/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n"+shellCanary+"\n")},
		{"find ~ -name .bashrc -delete", changed("home/.bashrc", rc)},

		// Code from elsewhere.
		{"curl -s file://ROOT/evil.sh | sh", made("pwned")},
		{"curl -s file://ROOT/evil.sh | bash", made("pwned")},
		{"sh ROOT/evil.sh", made("pwned")},
		{"source ROOT/evil.sh", made("pwned")},
		{". ROOT/evil.sh", made("pwned")},

		// Files that make tools run code.
		{"echo 'touch pwned' > .git/hooks/pre-commit", made(".git/hooks/pre-commit")},
		{"cp README .git/hooks/post-checkout", made(".git/hooks/post-checkout")},
		{"git config core.hooksPath /tmp", inGitConfig("hooksPath")},
		{"echo 'curl x | sh' >> ~/.bashrc", changed("home/.bashrc", rc)},
		{"cp /bin/bash ~/.config/guard/guard-shell", changed("home/.config/guard/guard-shell", "#!/bin/sh\nexec guard shell \"$@\"\n")},

		// Secrets.
		{"cat ~/.ssh/id_rsa", leaked},
		{"cat ROOT/home/.ssh/id_rsa", leaked},
		{"head -c 400 ~/.ss?/id_rsa", leaked},
		{"cat ~/.aws/credentials", leaked},
		{"cat .env", leaked},
		{"grep -r guard-shell-canary ~", leaked},
		{"echo $(cat ~/.ssh/id_rsa)", leaked},
		{"cp ~/.ssh/id_rsa leak && cat leak", leaked},

		// $(...) and other ways to run a command inside another.
		{"ls $(touch pwned)", made("pwned")},
		{`echo "$(touch pwned)"`, made("pwned")},
		{"echo `touch pwned`", made("pwned")},
		{"x=$(touch pwned); echo $x", made("pwned")},
		{"cat <(touch pwned)", made("pwned")},
		{"bash -c 'touch pwned'", made("pwned")},
		{"sh -c 'touch pwned'", made("pwned")},
		{"printf 'touch pwned' | bash", made("pwned")},
		{"bash <<'EOF'\ntouch pwned\nEOF", made("pwned")},
		{"eval 'touch pwned'", made("pwned")},
		{"find . -maxdepth 0 -exec touch pwned \\;", made("pwned")},
		{"git -c alias.x='!touch pwned' x", made("pwned")},
		{`awk 'BEGIN { system("touch pwned") }'`, made("pwned")},
		{"sed -n '1e touch pwned' README", made("pwned")},
		{`python3 -c "open('pwned', 'w')"`, made("pwned")},
		{"echo pwned | xargs touch", made("pwned")},
		{"env touch pwned", made("pwned")},
		{"nohup touch pwned", made("pwned")},
		{"timeout 5 touch pwned", made("pwned")},
		{"command touch pwned", made("pwned")},
		{"exec touch pwned", made("pwned")},
		{"trap 'touch pwned' EXIT; true", made("pwned")},
		{"f() { touch pwned; }; f", made("pwned")},
		{"touch pwned & wait", made("pwned")},

		// Words bash makes at run time.
		{`a=$'\x74ouch'; $a pwned`, made("pwned")},
		{"IFS=,; c=touch,pwned; $c", made("pwned")},
		{"to\\\nuch pwned", made("pwned")},
		{"t''ouch pwned", made("pwned")},
	} {
		t.Run(tc.command, func(t *testing.T) {
			t.Parallel()
			plain := newShellBox(t)
			command := strings.ReplaceAll(tc.command, "ROOT", plain.root)
			code, stdout, stderr := plain.run(t, "", "bash", "--noprofile", "--norc", "-c", command)
			if !tc.effect(plain, stdout+stderr) {
				t.Skipf("as bash -c, %q does nothing here (exit %d): %s%s", command, code, stdout, stderr)
			}
			b := newShellBox(t)
			command = strings.ReplaceAll(tc.command, "ROOT", b.root)
			code, stdout, stderr = b.run(t, "", "guard", "shell", "-c", command)
			if code != shellRefused || stdout != "" || !strings.HasPrefix(stderr, "guard: denied: ") || tc.effect(b, stdout+stderr) {
				t.Errorf("guard shell -c %q: exit %d, stdout %q, stderr %q, effect %v; want exit %d, a deny, no effect",
					command, code, stdout, stderr, tc.effect(b, stdout+stderr), shellRefused)
			}
		})
	}
}

// shellHarness runs commands as an agent does with its $SHELL, and
// prints for each a JSON line of its status and output: as aider 0.86
// runs them where it has a terminal ($SHELL -i -c COMMAND in a pty, as
// pexpect.spawn does), and as an agent with pipes does ($SHELL -c
// COMMAND). Python's standard library only.
const shellHarness = `import json, os, pty, subprocess, sys

shell = os.environ["SHELL"]

def in_pty(command):
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(shell, [shell, "-i", "-c", command])
    out = b""
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        out += data
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode(errors="replace").replace("\r\n", "\n")

def in_pipes(command):
    p = subprocess.run([shell, "-c", command], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return p.returncode, p.stdout.decode(errors="replace")

for line in sys.stdin:
    command = json.loads(line)
    for mode, run in (("pty", in_pty), ("pipes", in_pipes)):
        status, out = run(command)
        print(json.dumps({"mode": mode, "command": command, "status": status, "output": out}))
`

// TestShellHarness: an agent's harness that runs commands through $SHELL,
// with SHELL the guard-shell script guard init --agent aider wrote and
// named, gets an allowed command's output and status, and a refusal (126,
// guard's reason) for the rest, which do nothing.
func TestShellHarness(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		t.Skipf("no %s, which the harness is written in: %v", python, err)
	}
	b := newShellBox(t)
	if err := os.WriteFile(filepath.Join(b.root, "harness.py"), []byte(shellHarness), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := b.run(t, "", "guard", "init", "--agent", "aider", "--binary", guardExe())
	line := ""
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "  aider --set-env 'SHELL=") {
			line = strings.TrimSuffix(strings.TrimPrefix(l, "  aider --set-env 'SHELL="), "'")
		}
	}
	if code != 0 || line != filepath.Join(b.home, ".config", "guard", "guard-shell") {
		t.Fatalf("guard init --agent aider: exit %d, SHELL %q: %s%s", code, line, stdout, stderr)
	}
	commands := []string{"echo hello; ls", "ls no-such-file", "touch pwned", "rm -rf ~", "cat ~/.ssh/id_rsa"}
	var in strings.Builder
	for _, c := range commands {
		data, _ := json.Marshal(c)
		in.Write(append(data, '\n'))
	}
	code, stdout, stderr = b.run(t, in.String(), "env", "SHELL="+line, python, filepath.Join(b.root, "harness.py"))
	if code != 0 {
		t.Fatalf("the harness: exit %d: %s", code, stderr)
	}
	type result struct {
		Mode, Command, Output string
		Status                int
	}
	var got []result
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var r result
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("the harness printed %q: %v", l, err)
		}
		got = append(got, r)
	}
	if len(got) != 2*len(commands) {
		t.Fatalf("the harness ran %d commands, want %d: %s", len(got), 2*len(commands), stdout)
	}
	for _, r := range got {
		t.Logf("input: %s %q", r.Mode, r.Command)
		var ok bool
		switch r.Command {
		case "echo hello; ls":
			ok = r.Status == 0 && r.Output == "hello\nREADME\n"
		case "ls no-such-file":
			ok = r.Status == 2 && strings.Contains(r.Output, "no-such-file") && !strings.Contains(r.Output, "guard:")
		default:
			ok = r.Status == shellRefused && strings.HasPrefix(r.Output, "guard: denied: ") && !strings.Contains(r.Output, shellCanary)
		}
		if !ok {
			t.Errorf("%s: %q: status %d, output %q", r.Mode, r.Command, r.Status, r.Output)
		}
	}
	for _, name := range []string{"pwned", "README"} {
		if _, err := os.Stat(filepath.Join(b.proj, name)); (err == nil) != (name == "README") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(b.home, ".bashrc")); err != nil {
		t.Errorf("the home's .bashrc: %v", err)
	}
}
