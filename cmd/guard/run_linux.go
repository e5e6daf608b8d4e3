// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"guard/engine"
	"guard/internal/setup"
	"guard/policy"
	"guard/sandbox"

	"golang.org/x/sys/unix"
)

// systemRoots are shown read-only whole: the programs, libraries and
// system configuration a command needs, and of /sys what tells a program
// how many processors it has. The homes, /root, /run, /var, /mnt and
// /media are not among them; /proc, /dev and /tmp are the jail's own.
var systemRoots = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
	"/sys/devices/system/cpu", "/sys/devices/system/node"}

// homeConfig are the files of the home a command reads to work as the
// user's: git's configuration (git status stops without it), cargo's, and
// the Python packages installed for the user. Each is shown read-only
// where the policy lets it be read.
var homeConfig = []string{".gitconfig", ".config/git", ".cargo/config.toml", ".cargo/config", ".local/lib"}

// runConfined runs the program in guard run's jail (see sandbox.Jail):
// guard starts itself again as the first process of new namespaces
// (--jail-init), which makes the jail from the policy and runs the program
// in it.
func runConfined(_ context.Context, s stdio, env getenv, o runOpts) error {
	if o.isolated {
		return runError(s, "--isolated is not guard run's on Linux, where the jail has a network of its own")
	}
	switch {
	case o.jailInit:
		return runJailInit(s, env, o)
	case o.explain:
		j, err := jailOf(s, env, o)
		if err != nil {
			return runError(s, "%v", err)
		}
		explainJail(s.out, j)
		return nil
	}
	// The jail is worked out while guard starts again in its namespaces,
	// and is sent there (sandbox.Enter); but a profile's ports, which
	// keep the host's network, are known first.
	var j *sandbox.Jail
	var err error
	network := false
	if len(o.profiles) > 0 {
		if j, err = jailOf(s, env, o); err != nil {
			return runError(s, "%v", err)
		}
		network = len(j.Connect) > 0
	}
	code, err := sandbox.Enter("/proc/self/exe", append([]string{"guard", "run", "--jail-init"}, o.args...), os.Environ(), network,
		func(w io.Writer) error {
			if j == nil {
				if j, err = jailOf(s, env, o); err != nil {
					return err
				}
			}
			return json.NewEncoder(w).Encode(jailSpec{Jail: j, Writable: j.Write != nil})
		})
	if err != nil {
		return runError(s, "%v", err)
	}
	return &exitError{code: code}
}

// jailSpec is what guard run sends to the jail's first process: the jail,
// and whether the project is writable, by the policy, which that process
// loads again (a function does not travel).
type jailSpec struct {
	Jail     *sandbox.Jail
	Writable bool
}

// runJailInit is guard run as the jail's first process: it takes the jail
// guard run sent, loads the policy for the project's changes while the
// mounts are made, and runs the program.
func runJailInit(s stdio, env getenv, o runOpts) error {
	// Only in the namespaces guard run made: anywhere else, guard would
	// run the program as it is.
	if err := sandbox.InJail(); err != nil {
		return runError(s, "--jail-init outside guard run's jail (%v): nothing runs", err)
	}
	var spec jailSpec
	if err := sandbox.Describe(&spec); err != nil || spec.Jail == nil {
		return &exitError{code: runFailed} // guard run said why
	}
	j := spec.Jail
	if spec.Writable {
		type loaded struct {
			write func() func(string) bool
			link  func(string) bool
			err   error
		}
		ch := make(chan loaded, 1)
		go func() {
			call := setup.Context(setup.Getenv(env), o.dir, "bash", o.readOnly)
			layers, err := setup.LoadLayers(o.config, call.Project, setup.Getenv(env))
			if err != nil {
				ch <- loaded{err: fmt.Errorf("the policy does not load, so nothing runs: %v", err)}
				return
			}
			ch <- loaded{write: writeCheck(layers.Policies(), call, gitWrites(o)), link: linkCheck(layers.Policies(), call)}
		}()
		j.Prepare = func() error {
			l := <-ch
			j.Write, j.Link = l.write, l.link
			return l.err
		}
		if j.Budget > 0 {
			j.Free = outputs(j.Project)
		}
		if gitWrites(o) {
			j.After = guardIndex(j.Project)
		}
	}
	code, err := j.Run()
	if err != nil {
		return runError(s, "%v", err)
	}
	return &exitError{code: code}
}

// writeCheck returns, for one call of the program's, whether every layer
// lets it change a path: what the policy sees of the project (its links,
// its files) is taken afresh for each call. With git, the project's git
// directory may be written too, where git add and commit write
// (gitWritable).
func writeCheck(policies []*policy.Policy, call engine.Call, git bool) func() func(string) bool {
	return func() func(string) bool {
		confs := make([]*engine.Confinement, len(policies))
		for i, p := range policies {
			confs[i] = engine.NewConfinement(p, call)
		}
		every := func(abs string, ok func(*engine.Confinement, string) bool) bool {
			return !slices.ContainsFunc(confs, func(c *engine.Confinement) bool { return !ok(c, abs) })
		}
		return func(abs string) bool {
			if every(abs, (*engine.Confinement).Write) {
				return true
			}
			return git && gitWritable(call.Project, abs) && every(abs, (*engine.Confinement).Read)
		}
	}
}

// linkCheck reports whether a symbolic link may be at a path of the
// project: not in its git directory, and not by a name that a protected
// pattern, or an agent's configuration, has for a directory (.github of
// **/.github/workflows/**, .cargo, .git, hooks, .claude): through such a
// link, what the pattern keeps would be made where the policy does not
// look, and read from there.
func linkCheck(policies []*policy.Policy, call engine.Call) func(string) bool {
	names := map[string]bool{}
	for _, p := range policies {
		for _, pat := range append(slices.Clone(p.ProtectedPaths()), call.AgentPaths...) {
			parts := strings.Split(pat, "/")
			for _, c := range parts[:len(parts)-1] {
				if c != "" && c != "~" && !strings.ContainsAny(c, "*?[]{}\\") {
					names[c] = true
				}
			}
		}
	}
	git := filepath.Clean(call.Project) + "/.git/"
	return func(abs string) bool { return !names[filepath.Base(abs)] && !strings.HasPrefix(abs, git) }
}

// guardIndex keeps the project's git index as it is now, and returns the
// check of it once the command ended: an index the command left with a
// path git must not write into the work tree (badIndexPath) is put back,
// and guard run fails saying so. git checks such paths in a tree, not in
// the index, and a checkout by the user's git would write them:
// .git/hooks/post-checkout, which git then runs.
func guardIndex(project string) func(root int) error {
	before, err := os.ReadFile(filepath.Join(project, ".git", "index"))
	had := err == nil
	beneath := func(root int, path string, flags int) (int, error) {
		how := &unix.OpenHow{Flags: uint64(flags | unix.O_CLOEXEC | unix.O_NOFOLLOW),
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV}
		if flags&unix.O_CREAT != 0 {
			how.Mode = 0o644
		}
		return unix.Openat2(root, path, how)
	}
	return func(root int) error {
		fd, err := beneath(root, ".git/index", unix.O_RDONLY)
		if err != nil {
			return nil // none: nothing for git to write
		}
		f := os.NewFile(uintptr(fd), "index")
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil || had && bytes.Equal(data, before) {
			return nil
		}
		bad := badIndexPath(data)
		if bad == "" {
			return nil
		}
		dir, err := beneath(root, ".git", unix.O_PATH|unix.O_DIRECTORY)
		if err != nil {
			return fmt.Errorf("the command left git's index with %q, which git must not write, and guard could not put it back: %v", bad, err)
		}
		defer unix.Close(dir)
		put := func() error {
			if !had {
				return unix.Unlinkat(dir, "index", 0)
			}
			unix.Unlinkat(dir, "index.guard", 0)
			w, err := beneath(dir, "index.guard", unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL)
			if err != nil {
				return err
			}
			f := os.NewFile(uintptr(w), "index.guard")
			_, werr := f.Write(before)
			if cerr := f.Close(); werr != nil || cerr != nil {
				return errors.Join(werr, cerr)
			}
			return unix.Renameat(dir, "index.guard", dir, "index")
		}
		if err := put(); err != nil {
			return fmt.Errorf("the command left git's index with %q, which git must not write, and guard could not put it back: %v", bad, err)
		}
		return fmt.Errorf("the command left git's index with %q, a path git must not write into the work tree: the index is as it was before the command", bad)
	}
}

// gitWrites reports whether a command's changes to the project's git
// directory are made: where it writes what the policy let it write (a
// granted git commit, git add, git stash), not where it runs the project's
// code (a build, a test) or only reads.
func gitWrites(o runOpts) bool { return !o.readOnly && len(o.profiles) == 0 }

// gitMade are what of a git directory git add, commit, stash, branch and
// tag write: objects, refs and their logs, the index, HEAD, and the files
// of a commit's message and of the heads it moves, with the locks they
// are written through. Nothing else: not its configuration, hooks or
// info (attributes, exclude), not what a rebase or a merge reads its
// steps from (rebase-merge/git-rebase-todo runs its exec lines), not a
// worktree's pointers, and nothing under objects/info (alternates).
var gitMade = []string{"objects", "refs", "logs", "index", "HEAD", "ORIG_HEAD", "COMMIT_EDITMSG", "packed-refs", "FETCH_HEAD", "AUTO_MERGE"}

// gitWritable reports whether abs is in the project's own git directory,
// under one of gitMade.
func gitWritable(project, abs string) bool {
	rel, ok := strings.CutPrefix(abs, filepath.Clean(project)+"/.git/")
	if !ok || rel == "" {
		return false
	}
	parts := strings.Split(rel, "/")
	if !slices.Contains(gitMade, strings.TrimSuffix(parts[0], ".lock")) {
		return false
	}
	return !slices.ContainsFunc(parts, func(c string) bool { return c == "info" || c == ".." || c == "." })
}

// outputs reports whether a path of project's is among a build's or a
// test's outputs: a path with a component of outputDirs.
func outputs(project string) func(string) bool {
	return func(abs string) bool {
		rel, ok := strings.CutPrefix(abs, project+"/")
		return ok && slices.ContainsFunc(strings.Split(rel, "/"), func(c string) bool { return slices.Contains(outputDirs, c) })
	}
}

// jailOf derives the jail of a call's context from every layer of the
// policy: a path is shown only when each layer lets it be read, and
// written only when each lets it be written.
func jailOf(s stdio, env getenv, o runOpts) (*sandbox.Jail, error) {
	// Root in the jail is still the owner of root's files: what of /etc
	// only root may read (shadow's backups, private keys) is hidden too,
	// where /etc is shown. The scan needs nothing of the policy, and runs
	// while the rest is worked out.
	type scanned struct {
		paths []string
		err   error
	}
	var etc chan scanned
	if os.Getuid() == 0 {
		etc = make(chan scanned, 1)
		go func() {
			paths, err := sandbox.Scan{
				Root:      "/etc",
				Candidate: func(string) bool { return true },
				Hidden: func(p string) bool {
					fi, err := os.Lstat(p)
					return err == nil && fi.Mode()&fs.ModeSymlink == 0 && fi.Mode().Perm()&0o004 == 0
				},
				Cache: scanCache(env, "/etc"),
				Key:   "not world-readable",
			}.Run()
			etc <- scanned{paths, err}
		}()
	}
	call := setup.Context(setup.Getenv(env), o.dir, "bash", o.readOnly)
	layers, err := setup.LoadLayers(o.config, call.Project, setup.Getenv(env))
	if err != nil {
		return nil, fmt.Errorf("the policy does not load, so nothing runs: %v", err)
	}
	project := filepath.Clean(call.Project)
	home := filepath.Clean(call.Home)
	if call.Project == "" || project == "/" || call.Home != "" && (project == home || strings.HasPrefix(home, project+"/")) {
		return nil, fmt.Errorf("guard run confines a command to a project, and %q is not one (the root, the home or a directory above it): run it in the project's directory", call.Project)
	}
	policies := layers.Policies()
	confs := func() []*engine.Confinement {
		var out []*engine.Confinement
		for _, p := range policies {
			out = append(out, engine.NewConfinement(p, call))
		}
		return out
	}
	all := confs()
	every := func(ok func(*engine.Confinement, string) bool) func(string) bool {
		return func(p string) bool {
			return !slices.ContainsFunc(all, func(c *engine.Confinement) bool { return !ok(c, p) })
		}
	}
	readable := every((*engine.Confinement).Read)
	cache := every((*engine.Confinement).Cache)
	inProject := func(p string) bool { return p == project || strings.HasPrefix(p, project+"/") }

	j := &sandbox.Jail{Project: project, Dir: o.dir, Argv: o.argv}
	if call.Home != "" && home != "/" {
		j.Home = home
	}
	bind := func(p string, write bool) {
		p = filepath.Clean(p)
		if !filepath.IsAbs(p) || p == "/" || inProject(p) || write && strings.HasPrefix(project, p+"/") || !readable(p) {
			return
		}
		if _, err := os.Lstat(p); err != nil {
			return
		}
		if slices.ContainsFunc(j.Binds, func(b sandbox.Bind) bool { return b.Write == write && within(p, b.Path) }) {
			return // shown already, as it would be: ~/.cargo/bin on the search path, GOROOT under /usr
		}
		j.Binds = append(j.Binds, sandbox.Bind{Path: p, Write: write})
	}
	for _, p := range systemRoots {
		bind(p, false)
	}
	caches := toolCaches(env, call.Home)
	for _, p := range caches.read {
		bind(p, false)
	}
	// Go's build cache is made here, since go test is what runs most; the
	// others are shown where they are already. One that cannot be made is
	// not shown: go then makes it in the jail's home, for the command.
	if len(caches.write) > 0 && !o.explain && cache(caches.write[0]) && !inProject(caches.write[0]) {
		_ = os.MkdirAll(caches.write[0], 0o755)
	}
	for _, p := range caches.write {
		if cache(p) {
			bind(p, true)
		}
	}
	if j.Home != "" {
		for _, p := range homeConfig {
			bind(filepath.Join(home, p), false)
		}
	}
	// The search path's directories outside the home (those in it are
	// toolCaches'), where no other bind shows them.
	for _, dir := range filepath.SplitList(env("PATH")) {
		if !filepath.IsAbs(dir) || j.Home != "" && strings.HasPrefix(filepath.Clean(dir), home+"/") || shown(j, dir) {
			continue
		}
		bind(dir, false)
	}
	g, err := profileGrants(s, layers, call, o.profiles)
	if err != nil {
		return nil, err
	}
	for _, p := range g.read {
		j.Binds = append(j.Binds, sandbox.Bind{Path: p})
	}
	for _, p := range g.write {
		j.Binds = append(j.Binds, sandbox.Bind{Path: p, Write: true})
	}
	j.Connect = g.ports
	// What is secret is hidden: the places the policy names (/etc/shadow),
	// where a bind shows them, and every path of the project's that a
	// secret pattern matches (.env).
	var runs []string
	for _, c := range all {
		places, r := c.SecretPlaces()
		runs = append(runs, r...)
		for _, p := range places {
			if !inProject(p) && shown(j, p) && !slices.ContainsFunc(j.Binds, func(b sandbox.Bind) bool { return b.Path == p }) {
				if _, err := os.Lstat(p); err == nil {
					j.Hide = append(j.Hide, p)
				}
			}
		}
	}
	slices.Sort(runs)
	runs = slices.Compact(runs)
	hidden, err := sandbox.Scan{
		Root: project,
		Candidate: func(rel string) bool {
			return slices.ContainsFunc(runs, func(r string) bool { return strings.Contains(rel, r) })
		},
		Hidden: func(p string) bool { return !readable(p) },
		Cache:  scanCache(env, project),
		Key:    scanKey(policies, call),
	}.Run()
	if err != nil {
		return nil, err
	}
	j.Hide = append(j.Hide, hidden...)
	if etc != nil {
		r := <-etc
		if shown(j, "/etc") {
			if r.err != nil {
				return nil, r.err
			}
			j.Hide = append(j.Hide, r.paths...)
		}
	}
	if !call.ReadOnly && !layers.ReadOnly() {
		j.Write, j.Link = writeCheck(policies, call, gitWrites(o)), linkCheck(policies, call)
	}
	if j.Write != nil && slices.ContainsFunc(o.profiles, func(p string) bool { return slices.Contains(builtinProfiles, p) }) {
		j.Budget, j.Free = codeBudget, outputs(project)
	}
	j.Env = withEnv(dropSecretEnv(runEnv(os.Environ())), append([]string{"TMPDIR=/tmp"}, g.env...))
	return j, nil
}

// shown reports whether a bind of j shows p.
func shown(j *sandbox.Jail, p string) bool {
	return slices.ContainsFunc(j.Binds, func(b sandbox.Bind) bool { return within(filepath.Clean(p), b.Path) })
}

// within reports whether p is dir or in it.
func within(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// codeBudget is how many of the project's files a build or a test may
// remove, overwrite or rename (see sandbox.Jail.Budget), outside the
// outputs: enough for a test that updates its fixtures, not for one that
// wipes the tree.
const codeBudget = 100

// outputDirs are the directories where builds and tests put what they
// make, and change freely: a path with one of these names in it.
var outputDirs = []string{"target", "node_modules", "dist", "build", "out", "coverage", "__pycache__", ".pytest_cache",
	".mypy_cache", ".ruff_cache", ".tox", ".nox", ".venv", "venv", ".next", ".nuxt", ".gradle", ".cache", ".turbo",
	"bin", "obj", "_build", "testdata"}

// scanCache is the file that keeps what guard run found of a project's
// secrets (see sandbox.Scan), in guard's state directory: "" without one.
func scanCache(env getenv, project string) string {
	dir := setup.StateDir(setup.Getenv(env))
	if dir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(project))
	return filepath.Join(dir, "scan", hex.EncodeToString(sum[:12]))
}

// scanKey is what the secrets found depend on besides the tree: every
// layer's secret patterns, and the places they name.
func scanKey(policies []*policy.Policy, call engine.Call) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q %q\n", call.Project, call.Home)
	for _, p := range policies {
		fmt.Fprintf(&b, "%q\n", p.SecretPaths())
	}
	return b.String()
}

// secretWords are the words of a variable's name (split at _) that make it
// one the jail's program does not get: a credential's.
var secretWords = []string{"TOKEN", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASS", "KEY", "APIKEY", "CREDENTIAL",
	"CREDENTIALS", "AUTH", "COOKIE", "SESSION", "PAT"}

// secretPrefixes are the prefixes of the cloud providers' variables.
var secretPrefixes = []string{"AWS_", "AZURE_", "GOOGLE_APPLICATION_CREDENTIALS", "GPG_AGENT", "DBUS_SESSION_BUS"}

// dropSecretEnv returns environ without the variables whose names are a
// credential's: GITHUB_TOKEN, ANTHROPIC_API_KEY, AWS_SECRET_ACCESS_KEY,
// SSH_AUTH_SOCK. A profile that needs one sets it (env).
func dropSecretEnv(environ []string) []string {
	return slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		if strings.HasPrefix(upper, "GIT_CONFIG_") {
			return false // git's configuration: its keys are not credentials
		}
		if slices.ContainsFunc(secretPrefixes, func(p string) bool { return strings.HasPrefix(upper, p) }) {
			return true
		}
		return slices.ContainsFunc(strings.Split(upper, "_"), func(w string) bool { return slices.Contains(secretWords, w) })
	})
}

// explainJail prints what the jail shows and how.
func explainJail(w io.Writer, j *sandbox.Jail) {
	fmt.Fprintf(w, "namespaces: user, mount, pid, ipc")
	if len(j.Connect) == 0 {
		fmt.Fprintf(w, ", network (its own loopback only)")
	}
	fmt.Fprintln(w)
	mode := "read-only"
	if j.Write != nil {
		mode = "read-only to the program; guard makes each change the policy allows (seccomp notification)"
	}
	fmt.Fprintf(w, "project %q: %s\n", j.Project, mode)
	if j.Budget > 0 {
		fmt.Fprintf(w, "of the project's files before the command, at most %d removed, overwritten or renamed, outside its outputs\n", j.Budget)
	}
	if j.Home != "" {
		fmt.Fprintf(w, "home %q: empty, throwaway\n", j.Home)
	}
	for _, b := range j.Binds {
		fmt.Fprintf(w, "%s %q\n", map[bool]string{false: "read", true: "write"}[b.Write], b.Path)
	}
	for _, p := range j.Hide {
		fmt.Fprintf(w, "hidden %q\n", p)
	}
	fmt.Fprintln(w, "/tmp, /dev/shm: empty, throwaway; /dev: null zero full random urandom tty; /proc: the jail's processes")
	for _, p := range j.Connect {
		fmt.Fprintf(w, "connect tcp %d\n", p)
	}
	fmt.Fprintf(w, "landlock ABI %d: scopes (abstract Unix sockets, signals) from 6, TCP rules from 4\n", sandbox.ABI())
	fmt.Fprintln(w, "seccomp: no io_uring, user namespace, openat2, clone3, TIOCSTI or TIOCLINUX; no capability, no new privileges")
	fmt.Fprintln(w, "environment: without variables named as credentials (TOKEN, SECRET, KEY, PASSWORD, AWS_, SSH_AUTH_SOCK)")
}
