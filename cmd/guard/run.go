// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"guard/engine"
	"guard/policy"
)

// runFailed is guard run's exit status when it does not start the program:
// the policy does not load, the kernel cannot confine it, the program is
// not found. It is env's and timeout's status for their own failures.
const runFailed = 125

// runOpts are guard run's flags.
type runOpts struct {
	config   string
	readOnly bool
	dir      string // the working directory, absolute
	explain  bool
	profiles []string
	argv     []string
	args     []string // as given, for guard run to start itself again with
	isolated bool     // in guard run's own network namespace (not on Linux)
	jailInit bool     // the jail's first process (Linux)
}

// runSandboxed runs a program confined by the sandbox the policy gives the
// project (see runConfined): every process it starts is bound by the same
// rules.
func runSandboxed(ctx context.Context, s stdio, env getenv, args []string) error {
	fs := newFlagSet("run", s)
	var o runOpts
	fs.StringVar(&o.config, "config", "", "policy `file` (default: the user's and the project's, as guard hook loads them)")
	fs.BoolVar(&o.readOnly, "read-only", false, "read-only mode: nothing in the project may be written")
	cwd := fs.String("cwd", "", "the `directory` the program runs in (default: the current one)")
	fs.BoolVar(&o.explain, "explain", false, "print the sandbox's rules and the mechanisms in effect, and run nothing")
	fs.BoolVar(&o.isolated, "isolated", false, "(set by guard run itself)")
	fs.BoolVar(&o.jailInit, "jail-init", false, "(set by guard run itself)")
	fs.Func("profile", "a `profile` to grant as well: build, test, or one of the policy's [sandbox] (repeatable)", func(v string) error {
		o.profiles = append(o.profiles, v)
		return nil
	})
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil {
		return &exitError{code: runFailed}
	}
	o.args, o.argv = args, fs.Args()
	if len(o.argv) == 0 && !o.explain {
		return runError(s, "want a program to run\nusage: guard run [flags] -- PROGRAM ARGS...")
	}
	dir := *cwd
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return runError(s, "the working directory: %v", err)
		}
		dir = wd
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return runError(s, "%v", err)
	}
	o.dir = dir
	return runConfined(ctx, s, env, o)
}

// builtinProfiles are the profiles guard run knows without the policy: the
// build and test tools' (go build, go test, cargo, npm test, pytest), which
// run the project's code and write its outputs. They grant nothing the
// default does not: the jail writes the project as the policy lets it.
var builtinProfiles = []string{"build", "test"}

// runError writes guard run's own failure and returns its exit status.
func runError(s stdio, format string, a ...any) error {
	fmt.Fprintf(s.err, "guard run: "+format+"\n", a...)
	return &exitError{code: runFailed}
}

// grants are what the policy's own sandbox profiles grant: paths to
// read and to write, TCP ports, and variables.
type grants struct {
	read, write []string
	ports       []uint16
	env         []string
}

// profileGrants returns what the profiles named grant: the user's layer's
// definition of a name, else the project's. A path that does not exist,
// or that the policy keeps (secret to read; secret or protected to write),
// is skipped with a warning line. guard's own profiles (build, test) grant
// nothing more.
func profileGrants(s stdio, l *policy.Layers, call engine.Call, names []string) (grants, error) {
	var g grants
	for _, name := range names {
		prof, p, err := findProfile(l, name)
		if err != nil {
			return g, err
		}
		if p == nil {
			continue
		}
		conf := engine.NewConfinement(p, call)
		grant := func(paths []string, ok func(string) bool, dst *[]string) {
			for _, p := range paths {
				abs := expandProfilePath(p, call)
				if _, err := os.Stat(abs); abs == "" || err != nil {
					fmt.Fprintf(s.err, "guard run: warning: sandbox profile %s: %s does not exist; skipped\n", name, p)
					continue
				}
				if !ok(abs) {
					fmt.Fprintf(s.err, "guard run: warning: sandbox profile %s: %s is kept by the policy; skipped\n", name, p)
					continue
				}
				*dst = append(*dst, abs)
			}
		}
		grant(prof.Read, conf.Read, &g.read)
		grant(prof.Write, func(p string) bool { return conf.Read(p) && conf.Cache(p) }, &g.write)
		g.ports = append(g.ports, prof.Ports...)
		for _, k := range slices.Sorted(maps.Keys(prof.Env)) {
			g.env = append(g.env, k+"="+prof.Env[k])
		}
	}
	return g, nil
}

// findProfile returns the policy's sandbox profile name: the user's
// layer's definition, else the project's; and the layer it is in. A
// builtin profile the policy does not define is empty, of no layer.
func findProfile(l *policy.Layers, name string) (policy.SandboxProfile, *policy.Policy, error) {
	for _, p := range l.Policies() {
		if pr, ok := p.SandboxProfile(name); ok {
			return pr, p, nil
		}
	}
	if slices.Contains(builtinProfiles, name) {
		return policy.SandboxProfile{}, nil, nil
	}
	return policy.SandboxProfile{}, nil, fmt.Errorf("the policy has no sandbox profile %q", name)
}

// expandProfilePath makes a profile's path absolute for the call: ~/ and
// {home} are the home, {project} the project, {tmp} the temp dir; "" when
// the one it needs is not known.
func expandProfilePath(p string, call engine.Call) string {
	for _, ph := range []struct{ name, value string }{{"~/", call.Home + "/"}, {"{home}", call.Home}, {"{project}", call.Project}, {"{tmp}", call.Temp}} {
		if rest, ok := strings.CutPrefix(p, ph.name); ok {
			if ph.value == "" || ph.value == "/" {
				return ""
			}
			return filepath.Clean(ph.value + rest)
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return ""
}

// caches are the toolchains' directories outside the project: read (the
// toolchains themselves, the module and crate sources) and written (the
// build caches).
type caches struct{ read, write []string }

// toolCaches returns the toolchains' directories for the environment,
// where it names them, else where the tools put them under home.
func toolCaches(env getenv, home string) caches {
	or := func(name, def string) string {
		if v := env(name); filepath.IsAbs(v) {
			return v
		}
		if home == "" {
			return ""
		}
		return filepath.Join(home, def)
	}
	var c caches
	if goroot := goRoot(env); goroot != "" {
		c.read = append(c.read, goroot)
	}
	c.read = append(c.read, or("GOMODCACHE", "go/pkg/mod"), or("RUSTUP_HOME", ".rustup"),
		filepath.Join(or("CARGO_HOME", ".cargo"), "bin"), filepath.Join(or("CARGO_HOME", ".cargo"), "registry"),
		filepath.Join(or("CARGO_HOME", ".cargo"), "git"))
	c.write = append(c.write, or("GOCACHE", ".cache/go-build"), or("npm_config_cache", ".npm"),
		or("PIP_CACHE_DIR", ".cache/pip"), or("UV_CACHE_DIR", ".cache/uv"), or("YARN_CACHE_FOLDER", ".cache/yarn"),
		filepath.Join(home, ".cache/pnpm"), filepath.Join(home, ".local/share/pnpm/store"), filepath.Join(home, ".bun/install/cache"),
		filepath.Join(home, ".cache/node-gyp"))
	// The search path's directories in the home: the programs there, a
	// toolchain's root when the directory is its bin (~/.nvm/versions/node/
	// v22/bin: node finds npm in ../lib), and a version manager's root when
	// it is its shims (~/.pyenv/shims: a shim runs ~/.pyenv/libexec/pyenv,
	// which runs a Python of ~/.pyenv/versions). A bin directly under the
	// home (~/.local/bin, ~/bin) is granted alone, never its parent.
	for _, dir := range filepath.SplitList(env("PATH")) {
		dir = filepath.Clean(dir)
		if home == "" || !filepath.IsAbs(dir) || !strings.HasPrefix(dir, home+"/") {
			continue
		}
		root := filepath.Dir(dir)
		if filepath.Base(dir) == "bin" && root != home && filepath.Dir(root) != home ||
			filepath.Base(dir) == "shims" && root != home {
			c.read = append(c.read, root)
			continue
		}
		c.read = append(c.read, dir)
	}
	c.read = slices.DeleteFunc(c.read, func(s string) bool { return s == "" })
	c.write = slices.DeleteFunc(c.write, func(s string) bool { return s == "" })
	return c
}

// goRoot returns the root of the go found on the search path: the
// directory above the bin directory of its real path.
func goRoot(env getenv) string {
	for _, dir := range filepath.SplitList(env("PATH")) {
		if !filepath.IsAbs(dir) {
			continue
		}
		real, err := filepath.EvalSymlinks(filepath.Join(dir, "go"))
		if err != nil {
			continue
		}
		if root := filepath.Dir(filepath.Dir(real)); filepath.Base(filepath.Dir(real)) == "bin" {
			if _, err := os.Stat(filepath.Join(root, "src", "runtime")); err == nil {
				return root
			}
		}
	}
	return ""
}

// gitHardening is the configuration git gets under guard run, above the
// repository's own.
var gitHardening = [][2]string{{"core.fsmonitor", "false"}, {"core.hooksPath", "/dev/null"}, {"safe.bareRepository", "explicit"}}

// runEnv is the environment of the confined program: without what makes a
// shell run code of its own before the command (BASH_ENV, ENV), or read
// the command otherwise than guard judged it (the rest of shellDropEnv:
// CDPATH, SHELLOPTS, exported functions, ...), in a
// UTF-8 locale (the one guard judged the command in), with the toolchain
// go.mod names left alone (GOTOOLCHAIN=local), and with git told through
// its environment to run no fsmonitor and no hook and to open a bare
// repository only when named: a repository's own configuration runs no
// code. Git's entries follow those the environment has already.
func runEnv(environ []string) []string {
	drop := []string{"BASH_ENV", "ENV", "LC_ALL", "LC_CTYPE", "LANG", "GOTOOLCHAIN"}
	gitCount := 0
	out := slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		name, value, _ := strings.Cut(kv, "=")
		if name == "GIT_CONFIG_COUNT" {
			gitCount, _ = strconv.Atoi(value)
			return true
		}
		return slices.Contains(drop, name) || slices.Contains(shellDropEnv, name) || strings.HasPrefix(name, "BASH_FUNC_")
	})
	if gitCount < 0 {
		gitCount = 0
	}
	out = append(out, "LC_ALL=C.UTF-8", "GOTOOLCHAIN=local")
	for i, kv := range gitHardening {
		n := strconv.Itoa(gitCount + i)
		out = append(out, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
	}
	return append(out, "GIT_CONFIG_COUNT="+strconv.Itoa(gitCount+len(gitHardening)))
}

// withEnv returns environ with the variables of set in place of its own:
// a variable given twice is read as the first by some programs and as the
// last by others.
func withEnv(environ, set []string) []string {
	names := map[string]bool{}
	for _, kv := range set {
		name, _, _ := strings.Cut(kv, "=")
		names[name] = true
	}
	out := slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return names[name]
	})
	return append(out, set...)
}
