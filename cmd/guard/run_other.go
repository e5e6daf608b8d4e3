// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build !linux

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"guard/engine"
	"guard/internal/setup"
	"guard/policy"
	"guard/sandbox"
)

// systemRoots are read and executed whole: the programs, libraries and
// system configuration a command needs. The homes, /root, /run, /var, /mnt
// and /media are not among them, nor /proc: there every process's
// environment and command line may be read by the same user. Of /proc the
// command gets the system's figures, and its own directory (/proc/self as
// guard run resolves it, which the program keeps: exec keeps the process).
var systemRoots = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/sys",
	"/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/loadavg", "/proc/uptime", "/proc/version",
	"/proc/filesystems", "/proc/mounts", "/proc/sys", "/proc/self"}

// devices are the device files a command may read and write.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// runConfined confines itself with the sandbox the policy gives the
// project and executes the program: every process it starts is bound by
// the same rules.
func runConfined(ctx context.Context, s stdio, env getenv, o runOpts) error {
	args, argv, dir, profiles := o.args, o.argv, o.dir, o.profiles
	readOnly, explain, isolated, config := &o.readOnly, &o.explain, &o.isolated, &o.config
	call := setup.Context(setup.Getenv(env), dir, "bash", *readOnly)
	layers, err := setup.LoadLayers(*config, call.Project, setup.Getenv(env))
	if err != nil {
		return runError(s, "the policy does not load, so nothing runs: %v", err)
	}
	// A profile's ports are on other hosts; without any, the program gets
	// a network namespace of its own where the kernel lets guard make one,
	// and guard run's Landlock and seccomp rules of the network otherwise.
	// guard run starts again in the namespace, and works out the rules
	// there.
	ports, err := profilePorts(layers, profiles)
	if err != nil {
		return runError(s, "%v", err)
	}
	if !*isolated && !*explain && len(ports) == 0 {
		if exe, err := os.Executable(); err == nil {
			code, err := sandbox.RunIsolated(exe, append([]string{"guard", "run", "--isolated"}, args...), os.Environ())
			if err == nil {
				return &exitError{code: code}
			}
			if !errors.Is(err, sandbox.ErrNoIsolation) {
				return runError(s, "%v", err)
			}
		}
	}
	if *isolated {
		// In the namespace guard run made: its loopback, and nothing else.
		// --isolated given anywhere else would leave the network open.
		if own, err := sandbox.InOwnNamespace(); !own {
			return runError(s, "--isolated outside guard run's own network namespace (%v): nothing runs", err)
		}
	}
	var extraEnv []string
	rules, tmp, err := sandboxRules(layers, call, env, !*explain)
	if err != nil {
		return runError(s, "%v", err)
	}
	if tmp != "" {
		extraEnv = append(extraEnv, "TMPDIR="+tmp)
	}
	profileEnv, err := addProfiles(s, layers, call, &rules, profiles)
	extraEnv = append(extraEnv, profileEnv...)
	if err != nil {
		return runError(s, "%v", err)
	}
	if *explain {
		explainRules(s.out, rules, tmp)
		return nil
	}
	prog, err := exec.LookPath(argv[0])
	if err != nil {
		return runError(s, "%v", err)
	}
	if prog, err = filepath.Abs(prog); err != nil {
		return runError(s, "%v", err)
	}
	if err := os.Chdir(dir); err != nil {
		return runError(s, "%v", err)
	}
	if *isolated {
		if err := sandbox.LoopbackUp(); err != nil {
			fmt.Fprintf(s.err, "guard run: warning: the loopback device: %v\n", err)
		}
		rules.Isolated = true
	}
	err = sandbox.Exec(rules, prog, argv, withEnv(runEnv(os.Environ()), extraEnv))
	if errors.Is(err, sandbox.ErrUnsupported) {
		return runError(s, "the command does not run unconfined: %v", err)
	}
	return runError(s, "executing %s: %v", prog, err)
}

// sandboxRules derives the sandbox of a call's context from every layer of
// the policy: a path is granted only when each layer lets it be read, or
// written. The project and the temp dir are granted piece by piece around
// what is secret (for reading) and protected (for writing), and around the
// protected paths that are not there yet, so that they cannot be made; the
// homes give only the toolchains' caches. Of the temp dir, the program gets
// a directory of its own (see privateTemp), returned for $TMPDIR. With prepare, what the
// rules name and the program needs made first is made (the build cache,
// the temp dir, the build outputs); without, nothing is.
func sandboxRules(l *policy.Layers, call engine.Call, env getenv, prepare bool) (sandbox.Rules, string, error) {
	var confs []*engine.Confinement
	for _, p := range l.Policies() {
		confs = append(confs, engine.NewConfinement(p, call))
	}
	readable := func(p string) bool {
		return !slices.ContainsFunc(confs, func(c *engine.Confinement) bool { return !c.Read(p) })
	}
	writable := func(p string) bool {
		return !slices.ContainsFunc(confs, func(c *engine.Confinement) bool { return !c.Write(p) })
	}
	cache := func(p string) bool {
		return !slices.ContainsFunc(confs, func(c *engine.Confinement) bool { return !c.Cache(p) })
	}
	kept := func(root string) []string {
		var out []string
		for _, c := range confs {
			out = append(out, c.Kept(root)...)
		}
		return out
	}
	r := sandbox.Rules{Read: slices.Clone(systemRoots), Devices: devices}
	if runtime.GOOS == "darwin" {
		// Where macOS keeps what /lib and /etc hold elsewhere (untested).
		r.Read = append(r.Read, "/System", "/Library", "/private/etc", "/private/var/db/dyld", "/Applications/Xcode.app")
	}
	caches := toolCaches(env, call.Home)
	grants, lists, err := sandbox.Plan(call.Project, readable, nil)
	if err != nil {
		return r, "", err
	}
	r.Read = append(r.Read, grants...)
	r.List = append(r.List, lists...)
	// A toolchain or a cache is granted whole when its directory is
	// neither secret nor protected: what is in it, builds and downloads put
	// there, and walking a module or build cache of a hundred thousand
	// files to look would cost more than the command.
	for _, dir := range caches.read {
		if readable(dir) {
			r.Read = append(r.Read, dir)
		}
	}
	// A cache the tool would make on first use cannot be made from inside:
	// its parent is not granted. Go's is made here, since go test is what
	// runs most; the others are granted where they are already.
	if len(caches.write) > 0 && prepare {
		if err := os.MkdirAll(caches.write[0], 0o755); err != nil {
			return r, "", fmt.Errorf("the build cache %s: %v", caches.write[0], err)
		}
	}
	for _, dir := range caches.write {
		if cache(dir) && readable(dir) {
			r.Write = append(r.Write, dir)
		}
	}
	allowed := writable // what is secret is not written either
	tmp := ""
	if t := privateTempDir(call.Temp); t != "" && allowed(t) {
		if prepare {
			if err := privateTemp(t); err != nil {
				return r, "", err
			}
		}
		tmp = t
		r.Write = append(r.Write, t)
	}
	// The project is written as the policy lets a call write it; the
	// temp dir is not granted, only the program's own in it: walking the
	// temp dir to find what is kept in it (another project's .git, a
	// .env) would cost more than most commands.
	if call.Project != "" && !call.ReadOnly && !l.ReadOnly() {
		if prepare {
			makeOutputs(call.Project, allowed)
		}
		grants, lists, err := sandbox.Plan(call.Project, allowed, kept(call.Project))
		if err != nil {
			return r, "", err
		}
		r.Write = append(r.Write, grants...)
		r.List = append(r.List, lists...)
	}
	slices.Sort(r.Write)
	r.Write = slices.Compact(r.Write)
	slices.Sort(r.List)
	r.List = slices.Compact(r.List)
	return r, tmp, nil
}

// privateTempDir is the program's temp dir: one for each user, in the
// temp dir. The temp dir itself is not granted: a .git made there would be
// taken by git for the repository of every directory under it, and what
// others leave there may be secret.
func privateTempDir(temp string) string {
	if temp == "" {
		return ""
	}
	return filepath.Join(temp, "guard-run-"+strconv.Itoa(os.Getuid()))
}

// privateTemp makes the program's temp dir dir, or checks the one there:
// a directory, not a link, of this user's, that no one else may open.
// Anything else was put there by someone else, and nothing runs.
func privateTemp(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("the program's temp dir: %v", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("the program's temp dir: %v", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() || fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("the program's temp dir %s is not a directory of this user's that only it may open (%v), so nothing runs", dir, fi.Mode())
	}
	return nil
}

// outputs are the directories and files the build tools make at the top
// of a project that has their file, which a confined program cannot make
// there: the project's top directory holds what the policy keeps, and so
// takes nothing new. guard run makes the ones missing, empty, before the
// program starts, as the tool would have. Cargo reads an empty Cargo.lock
// as none and writes it.
var outputs = []struct {
	marker []string // any of these at the top
	make   []string // made there; a trailing / makes a directory
}{
	{[]string{"Cargo.toml"}, []string{"target/", "Cargo.lock"}},
	{[]string{"package.json"}, []string{"dist/", "coverage/"}},
	{[]string{"pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini"}, []string{".pytest_cache/", ".mypy_cache/", ".ruff_cache/"}},
}

// makeOutputs makes the build outputs the project's files call for (see
// outputs), where allowed lets them be written. It makes what it can: a
// failure leaves the program to fail as it would have.
func makeOutputs(project string, allowed func(string) bool) {
	for _, o := range outputs {
		if !slices.ContainsFunc(o.marker, func(m string) bool {
			_, err := os.Lstat(filepath.Join(project, m))
			return err == nil
		}) {
			continue
		}
		for _, m := range o.make {
			p := filepath.Join(project, m)
			if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) || !allowed(p) {
				continue
			}
			if strings.HasSuffix(m, "/") {
				_ = os.Mkdir(p, 0o755)
			} else if f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
				f.Close()
			}
		}
	}
}

// addProfiles grants the policy's own sandbox profiles (profileGrants),
// and returns their variables.
func addProfiles(s stdio, l *policy.Layers, call engine.Call, r *sandbox.Rules, names []string) ([]string, error) {
	g, err := profileGrants(s, l, call, names)
	r.Read = append(r.Read, g.read...)
	r.Write = append(r.Write, g.write...)
	r.Connect = append(r.Connect, g.ports...)
	return g.env, err
}

// explainRules prints the sandbox's rules, and the program's temp dir.
func explainRules(w io.Writer, r sandbox.Rules, tmp string) {
	fmt.Fprintf(w, "landlock ABI %d (guard run needs %d)\n", sandbox.ABI(), sandbox.MinABI)
	if tmp != "" {
		fmt.Fprintf(w, "TMPDIR %q (the program's own; the temp dir it is in is not granted)\n", tmp)
	}
	for _, p := range r.Read {
		fmt.Fprintf(w, "read %q\n", p)
	}
	for _, p := range r.Write {
		fmt.Fprintf(w, "write %q\n", p)
	}
	for _, p := range r.List {
		fmt.Fprintf(w, "list %q\n", p)
	}
	for _, p := range r.Devices {
		fmt.Fprintf(w, "device %q\n", p)
	}
	for _, p := range r.Connect {
		fmt.Fprintf(w, "connect tcp %d\n", p)
	}
	if len(r.Connect) == 0 {
		fmt.Fprintln(w, "network: a namespace of its own, with its own loopback only, where the kernel lets guard make one; else as below")
	}
	fmt.Fprintln(w, "tcp: no bind, no connect but to the ports above (landlock)")
	fmt.Fprintln(w, "other internet sockets (udp, so dns; raw; sctp; mptcp) and io_uring: refused (seccomp)")
}

// profilePorts returns the TCP ports the profiles named grant.
func profilePorts(l *policy.Layers, names []string) ([]uint16, error) {
	var ports []uint16
	for _, name := range names {
		prof, _, err := findProfile(l, name)
		if err != nil {
			return nil, err
		}
		ports = append(ports, prof.Ports...)
	}
	return ports, nil
}
