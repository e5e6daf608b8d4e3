// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package oracle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Paths inside the sandbox. HOME, the work tree in it and /tmp are the
// writable trees: fresh for every run, and compared before and after it.
// The work tree is in HOME, as a project is, so that a write that leaves
// it by .. lands where it is seen.
const (
	HomeDir = "/run/home"         // HOME: a fresh copy of the fake home for every run
	WorkDir = "/run/home/project" // the work tree: a fresh copy of the fixture for every run
	TmpDir  = "/tmp"              // private to each run
	goCache = "/tmp/cache/go-build"
)

// DefaultTimeout bounds one run when the Sandbox sets no Timeout.
const DefaultTimeout = 60 * time.Second

// maxOutput bounds the standard output and error a Trace keeps.
const maxOutput = 64 << 10 // 64 KiB

// ErrUnavailable is returned by NewSandbox when bwrap or strace is missing
// or cannot run here (no user namespaces, ptrace not allowed).
var ErrUnavailable = errors.New("the oracle's sandbox is unavailable")

// A Sandbox runs commands in bubblewrap under strace. Its fields must not
// change once it runs commands; Run may be called concurrently.
type Sandbox struct {
	// Fixture is the host directory copied as the work tree of each run.
	Fixture string
	// Home, if set, is the host directory copied as HOME of each run;
	// otherwise HOME is an empty directory.
	Home string
	// Writes makes strace show the calls that write files too, so that
	// Check also sees the attempts to write outside the writable trees,
	// which the read-only root makes fail and so the trees cannot show.
	// Without it, the trees alone show what was written. Those calls are
	// most of what strace stops at (every open is one): a run takes about
	// twice as long with them.
	Writes bool
	// Dir is the host directory where each run gets a directory of its
	// own, for its copies of the trees and its trace; "" means
	// os.TempDir(). A run creates, compares and removes every file of
	// its trees, so a tmpfs makes it several times faster than a disk.
	Dir string
	// Timeout bounds each run; 0 means DefaultTimeout. A run that takes
	// longer is killed, and its trace is what it did until then.
	Timeout time.Duration
	// GoCache, if set, is a host directory mounted as GOCACHE in every
	// run, so that go builds do not start cold each time. Runs share it:
	// a command can leave objects there for a later one. It is under
	// /tmp, but it is not compared before and after a run.
	GoCache string

	bwrap, strace, bash string
	zsh                 string // "" when zsh is not installed
	path                string // PATH, the host's
	env                 []string
}

// The shells a command can run in: Claude Code runs it in the user's
// shell, bash or zsh.
const (
	Bash = "bash"
	Zsh  = "zsh"
)

// HasZsh reports whether the sandbox can run commands in zsh.
func (s *Sandbox) HasZsh() bool { return s.zsh != "" }

// shellArgv is how a shell runs a command: with no start-up file of the
// user's. bash -c reads none but $BASH_ENV, which the environment does
// not set; --norc and --noprofile say so. zsh -f reads only /etc/zshenv,
// which no option can skip (Debian's sets PATH if it is empty, and the
// environment's is not).
func (s *Sandbox) shellArgv(shell, command string) ([]string, error) {
	switch shell {
	case "", Bash:
		return []string{s.bash, "--norc", "--noprofile", "-c", command}, nil
	case Zsh:
		if s.zsh == "" {
			return nil, fmt.Errorf("%w: zsh is not installed (the Debian package is zsh)", ErrUnavailable)
		}
		return []string{s.zsh, "-f", "-c", command}, nil
	}
	return nil, fmt.Errorf("unknown shell %q: want %s or %s", shell, Bash, Zsh)
}

// NewSandbox finds bwrap, strace, bash and zsh (which may be missing:
// see HasZsh), and checks that a command can
// run in the sandbox. Env is the host's environment (os.Environ()): the
// sandbox gets its PATH, and the tools are found in it. The error wraps
// ErrUnavailable when the sandbox cannot run here.
func NewSandbox(fixture string, env []string) (*Sandbox, error) {
	s := &Sandbox{Fixture: fixture, path: getenv(env, "PATH")}
	for _, t := range []struct {
		name, pkg string
		dst       *string
	}{{"bwrap", "bubblewrap", &s.bwrap}, {"strace", "strace", &s.strace}, {"bash", "bash", &s.bash}} {
		if *t.dst = findProgram(s.path, t.name); *t.dst == "" {
			return nil, fmt.Errorf("%w: %s is not installed (the Debian package is %s)", ErrUnavailable, t.name, t.pkg)
		}
	}
	s.zsh = findProgram(s.path, "zsh")
	s.env = s.environ(env)
	tr, err := s.Run(context.Background(), "true")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	defer tr.Close()
	if tr.Exit != 0 {
		return nil, fmt.Errorf("%w: true exited %d in the sandbox: %s", ErrUnavailable, tr.Exit, tr.Stderr)
	}
	return s, nil
}

// getenv returns the value of a variable in env, or "".
func getenv(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val // the last one counts, as in exec
		}
	}
	return v
}

// findProgram returns the absolute path of the first executable file
// named name in the directories of pathList, or "".
func findProgram(pathList, name string) string {
	for _, dir := range filepath.SplitList(pathList) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// environ is the environment of every run: the host's PATH, and homes
// and caches in the private /tmp.
func (s *Sandbox) environ(host []string) []string {
	env := []string{
		"PATH=" + s.path,
		"HOME=" + HomeDir,
		"LANG=C.UTF-8",
		"TERM=dumb",
		"TMPDIR=" + TmpDir,
		"XDG_CACHE_HOME=/tmp/cache",
		"XDG_CONFIG_HOME=" + HomeDir + "/.config",
		"GOCACHE=" + goCache,
		"GOPATH=/tmp/gopath",
		"GOMODCACHE=/tmp/gopath/pkg/mod",
		"GOTOOLCHAIN=local",
		"GOPROXY=off",
		"GOSUMDB=off",
		"CARGO_HOME=/tmp/cargo",
		"CARGO_NET_OFFLINE=true",
	}
	// rustup's proxies (cargo, rustc) find their tool chains here; it is
	// read-only in the sandbox.
	rustup := getenv(host, "RUSTUP_HOME")
	if home := getenv(host, "HOME"); rustup == "" && home != "" {
		rustup = filepath.Join(home, ".rustup")
	}
	if fi, err := os.Stat(rustup); rustup != "" && err == nil && fi.IsDir() {
		env = append(env, "RUSTUP_HOME="+rustup)
	}
	return env
}

// Trace is what a command did in the sandbox.
type Trace struct {
	Command  string
	Shell    string   // the shell that ran it: Bash or Zsh
	Events   []Event  // the system calls strace showed
	Changes  []Change // what changed in the writable trees, by path
	Exit     int      // the exit status of the shell; -1 when it was killed
	TimedOut bool     // the run was killed at the timeout
	Stdout   string
	Stderr   string // bwrap's and strace's own messages come here too

	path   []string // PATH, split
	mounts []mount  // where sandbox paths are on the host
	trees  []tree   // the writable trees
	dir    string   // the run's host directory
}

// mount maps a directory of the sandbox to the host; host is "" for the
// file systems that exist only in the sandbox (/dev, /proc, /run).
type mount struct{ sandbox, host string }

// Close removes the run's directory: its work tree, HOME and /tmp.
func (t *Trace) Close() error {
	if t.dir == "" {
		return nil
	}
	err := os.RemoveAll(t.dir)
	if err != nil {
		// A command may leave directories without write permission
		// (go's module cache does): give it back, and try again.
		filepath.WalkDir(t.dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o700)
			}
			return nil
		})
		err = os.RemoveAll(t.dir)
	}
	t.dir = ""
	return err
}

// Run runs bash -c command in a fresh sandbox and returns its trace: the
// calls strace showed, and the changes in the writable trees. An error
// means the oracle could not run, trace or compare the command; what the
// command itself did, failing or not, is in the Trace. The caller closes
// the Trace.
func (s *Sandbox) Run(ctx context.Context, command string) (*Trace, error) {
	return s.RunShell(ctx, Bash, command)
}

// RunShell is Run with the command run by shell, Bash or Zsh; the error
// wraps ErrUnavailable when the sandbox has no such shell.
func (s *Sandbox) RunShell(ctx context.Context, shell, command string) (*Trace, error) {
	argv, err := s.shellArgv(shell, command)
	if err != nil {
		return nil, err
	}
	if shell == "" {
		shell = Bash
	}
	dir, err := os.MkdirTemp(s.Dir, "guard-oracle-")
	if err != nil {
		return nil, err
	}
	t := &Trace{Command: command, Shell: shell, dir: dir, path: filepath.SplitList(s.path)}
	ok := false
	defer func() {
		if !ok {
			t.Close()
		}
	}()
	bwrap, err := s.setup(t)
	if err != nil {
		return nil, err
	}
	sort.Slice(t.mounts, func(i, j int) bool { return len(t.mounts[i].sandbox) > len(t.mounts[j].sandbox) })
	before, err := snapshot(t.trees, true)
	if err != nil {
		return nil, err
	}
	bwrap = append(bwrap,
		"--chdir", WorkDir,
		"--unshare-all", "--unshare-net",
		"--cap-drop", "ALL",
		"--die-with-parent", "--new-session",
		"--hostname", "oracle",
		"--")
	bwrap = append(bwrap, argv...)
	traceFile := filepath.Join(dir, "strace.out")
	args := append([]string{
		"-f", "-qq", "-y", "--pidns-translation", "--seccomp-bpf",
		"-e", "signal=none", "-e", traceExpr(s.Writes),
		"-s", "4096", "-o", traceFile,
		"--", s.bwrap}, bwrap...)

	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.strace, args...)
	cmd.Env = s.env
	cmd.Dir = dir
	var stdout, stderr limitedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	// At the timeout strace is asked to detach and exit, and killed a
	// second later if it has not; bwrap takes the sandbox down with it
	// (--die-with-parent), and what is left of the process group is
	// killed after. strace writes its trace a line at a time.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = time.Second
	runErr := cmd.Run()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	t.Stdout, t.Stderr = stdout.String(), stderr.String()
	t.TimedOut = ctx.Err() == context.DeadlineExceeded
	t.Exit = cmd.ProcessState.ExitCode()
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) && !t.TimedOut {
		return nil, fmt.Errorf("running strace: %v", runErr)
	}
	data, err := os.ReadFile(traceFile)
	if err != nil {
		return nil, fmt.Errorf("reading the trace: %v; stderr: %s", err, t.Stderr)
	}
	t.Events, err = parseTrace(data, argv[0], WorkDir)
	if err != nil {
		return nil, fmt.Errorf("%v; stderr: %s", err, t.Stderr)
	}
	after, err := snapshot(t.trees, false)
	if err != nil {
		return nil, err
	}
	t.Changes = diff(before, after, t.hostPath)
	ok = true
	return t, nil
}

// setup makes the run's trees in t.dir, fresh copies of the fixture and
// the home, and returns the arguments of bwrap that mount them.
func (s *Sandbox) setup(t *Trace) ([]string, error) {
	dir := t.dir
	work, home, tmp := filepath.Join(dir, "work"), filepath.Join(dir, "home"), filepath.Join(dir, "tmp")
	if err := copyTree(s.Fixture, work); err != nil {
		return nil, fmt.Errorf("copying the fixture: %v", err)
	}
	if s.Home != "" {
		if err := copyTree(s.Home, home); err != nil {
			return nil, fmt.Errorf("copying the home directory: %v", err)
		}
	} else if err := os.Mkdir(home, 0o700); err != nil {
		return nil, err
	}
	project := filepath.Join(home, filepath.FromSlash(strings.TrimPrefix(WorkDir, HomeDir)))
	if err := os.MkdirAll(project, 0o755); err != nil {
		return nil, err
	}
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return nil, err
	}
	// /run is the sandbox's own, so HOME can be mounted there without
	// hiding a host directory.
	t.mounts = []mount{{"/dev", ""}, {"/proc", ""}, {"/run", ""}, {"/var/run", ""}, {HomeDir, home}, {TmpDir, tmp}, {WorkDir, work}}
	t.trees = []tree{{sandbox: WorkDir, host: work}, {sandbox: HomeDir, host: home, skip: project}, {sandbox: TmpDir, host: tmp}}
	bwrap := []string{
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
		"--tmpfs", "/run",
		"--bind", home, HomeDir,
		"--bind", tmp, TmpDir,
		"--bind", work, WorkDir,
	}
	if s.GoCache != "" {
		point := filepath.Join(tmp, filepath.FromSlash(strings.TrimPrefix(goCache, TmpDir)))
		if err := os.MkdirAll(point, 0o700); err != nil {
			return nil, err
		}
		bwrap = append(bwrap, "--bind", s.GoCache, goCache)
		t.mounts = append(t.mounts, mount{goCache, s.GoCache})
		t.trees[2].skip = point
	}
	return bwrap, nil
}

// Exec runs argv in a fresh sandbox like Run's, without strace, and
// returns its standard output; stdin is its
// standard input. binds are host files mounted read-only in the sandbox,
// each at the sandbox path its value names: the private /tmp hides a
// program built there. The tests decide guard's calls this way, so that
// guard sees the trees the commands run in, links and repositories
// included. A command that exits with a status other than 0 is an error.
func (s *Sandbox) Exec(ctx context.Context, argv []string, stdin []byte, binds map[string]string) ([]byte, error) {
	dir, err := os.MkdirTemp(s.Dir, "guard-oracle-exec-")
	if err != nil {
		return nil, err
	}
	t := &Trace{dir: dir}
	defer t.Close()
	bwrap, err := s.setup(t)
	if err != nil {
		return nil, err
	}
	for host, at := range binds {
		bwrap = append(bwrap, "--ro-bind", host, at)
	}
	bwrap = append(bwrap, "--chdir", WorkDir, "--unshare-all", "--unshare-net", "--cap-drop", "ALL",
		"--die-with-parent", "--new-session", "--")
	cmd := exec.CommandContext(ctx, s.bwrap, append(bwrap, argv...)...)
	cmd.Env = s.env
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout bytes.Buffer
	var stderr limitedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%v: %v: %s", argv, err, stderr.String())
	}
	return stdout.Bytes(), nil
}

// hostPath returns where a sandbox path is on the host, or "" when it is
// on a file system that exists only in the sandbox.
func (t *Trace) hostPath(p string) string {
	for _, m := range t.mounts {
		if p == m.sandbox || strings.HasPrefix(p, m.sandbox+"/") {
			if m.host == "" {
				return ""
			}
			return filepath.Join(m.host, filepath.FromSlash(strings.TrimPrefix(p, m.sandbox)))
		}
	}
	return filepath.FromSlash(p) // the root is the host's, read-only
}

// lookPath finds a program name in PATH as bash does inside the sandbox:
// it returns the index of the PATH entry and the program's path, or
// len(PATH) and "" when no entry has it.
func (t *Trace) lookPath(name string) (int, string) {
	for i, dir := range t.path {
		if !path.IsAbs(dir) {
			continue // bash would look in the working directory; guard's PATH has no such entry
		}
		p := path.Join(dir, name)
		h := t.hostPath(p)
		if h == "" {
			continue
		}
		if fi, err := os.Stat(h); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return i, p
		}
	}
	return len(t.path), ""
}

// sameFile reports whether two sandbox paths are the same file: equal, or
// the same file through symbolic links (/bin/ls and /usr/bin/ls).
func (t *Trace) sameFile(a, b string) bool {
	if a == b {
		return true
	}
	ha, hb := t.hostPath(a), t.hostPath(b)
	if ha == "" || hb == "" {
		return false
	}
	fa, err := os.Stat(ha)
	if err != nil {
		return false
	}
	fb, err := os.Stat(hb)
	return err == nil && os.SameFile(fa, fb)
}

// limitedBuffer keeps the first maxOutput bytes written to it.
type limitedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := maxOutput - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *limitedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// copyTree copies the directory src to dst: directories, regular files
// with their modes, and symbolic links.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(target, info.Mode().Perm()|0o700)
		case info.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case info.Mode().IsRegular():
			return copyFile(p, target, info.Mode().Perm())
		}
		return fmt.Errorf("%s: not a file, directory or symbolic link", p)
	})
}

// copyFile copies a file of the fixture or the home directory, which are
// small: whole, without a buffer to allocate for each.
func copyFile(src, dst string, perm fs.FileMode) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := out.Write(data); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// watched reports whether a sandbox path is in one of the writable trees,
// where the comparison before and after the run sees what was written.
func (t *Trace) watched(p string) bool {
	for _, tr := range t.trees {
		if p == tr.sandbox || strings.HasPrefix(p, tr.sandbox+"/") {
			return true
		}
	}
	return false
}
