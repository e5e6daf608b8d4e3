// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package setup loads guard's policies and fills in the context of a call
// the same way for every front door: guard hook, check, test and serve,
// and the Go API. What one of them enforces is what the others show.
package setup

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"guard/agent"
	"guard/engine"
	"guard/policy"
)

// Getenv reads the environment of the agent whose calls are decided.
type Getenv func(string) string

// PolicyFile is where a project keeps its policy, whatever its agent.
// ClaudePolicyFile is where it kept it before, and still may: guard reads
// either, for every agent, and refuses a project that has both, since it
// cannot tell which the project means.
const (
	PolicyFile       = ".guard/guard.toml"
	ClaudePolicyFile = ".claude/guard.toml"
)

// ProjectPolicyFile returns the project's policy file, "" when it has
// none.
func ProjectPolicyFile(projectDir string) (string, error) {
	var found []string
	for _, name := range []string{PolicyFile, ClaudePolicyFile} {
		p := filepath.Join(projectDir, filepath.FromSlash(name))
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 0:
		return "", nil
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("the project has two policies, %s and %s: keep one", found[0], found[1])
}

// ManagedPolicyFile is where an administrator puts the managed policy,
// which every call is decided by too, whatever the user's and the
// project's policies say. $GUARD_MANAGED_POLICY names another file: set it
// where only the administrator sets the environment (a system profile, the
// agent's managed settings), since a user who can change it can move the
// policy. A file named there must exist.
const ManagedPolicyFile = "/etc/guard/guard.toml"

// LoadManaged returns the managed policy, nil when there is none.
func LoadManaged(env Getenv) (*policy.Policy, error) {
	name := ManagedPolicyFile
	if v := env("GUARD_MANAGED_POLICY"); v != "" {
		if !filepath.IsAbs(v) {
			return nil, fmt.Errorf("GUARD_MANAGED_POLICY=%q is not an absolute path", v)
		}
		name = v
	} else if _, err := os.Lstat(name); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	p, _, err := LoadFileCached(name, PolicyCacheDir(env))
	return p, err
}

// LoadFile loads a policy file and returns it with the sha256 of its bytes.
func LoadFile(name string) (*policy.Policy, string, error) {
	return LoadFileCached(name, "")
}

// readPolicy reads a policy file, up to one byte past the largest a
// policy may be (the loader says it is too large).
func readPolicy(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("policy %s: %v", name, err)
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, 1<<20+1))
	if err != nil {
		return nil, fmt.Errorf("policy %s: %v", name, err)
	}
	return src, nil
}

// UserPolicyFile returns where the user's own policy lives:
// $XDG_CONFIG_HOME/guard/guard.toml, else ~/.config/guard/guard.toml.
func UserPolicyFile(env Getenv) string {
	if d := env("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "guard", "guard.toml")
	}
	if h := env("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".config", "guard", "guard.toml")
	}
	return ""
}

// LoadLayers returns the policies for a call. With --config, that file
// alone decides. Otherwise the user's policy (or the embedded default) and
// the project's .claude/guard.toml, if there is one, decide together: the
// project can only restrict what the user allows, unless the user policy
// trusts it by its sha256. Any policy file that exists but does not load
// is an error.
//
// The managed policy (see ManagedPolicyFile) decides beside them in either
// case.
func LoadLayers(config, ProjectDir string, env Getenv) (*policy.Layers, error) {
	managed, err := LoadManaged(env)
	if err != nil {
		return nil, fmt.Errorf("the managed policy: %v", err)
	}
	cache := PolicyCacheDir(env)
	if config != "" {
		p, _, err := LoadFileCached(config, cache)
		if err != nil {
			return nil, err
		}
		return &policy.Layers{Managed: managed, User: p}, nil
	}
	l := &policy.Layers{Managed: managed}
	if name := UserPolicyFile(env); name != "" {
		if _, err := os.Lstat(name); !errors.Is(err, os.ErrNotExist) {
			p, _, err := LoadFileCached(name, cache)
			if err != nil {
				return nil, err
			}
			l.User = p
		}
	}
	if ProjectDir != "" {
		name, err := ProjectPolicyFile(ProjectDir)
		if err != nil {
			return nil, err
		}
		if name != "" {
			p, sum, err := LoadFileCached(name, cache)
			if err != nil {
				return nil, err
			}
			l.Project, l.ProjectSum = p, sum
		}
	}
	return l, nil
}

// ProjectDir returns the project root for a call: $CLAUDE_PROJECT_DIR, else
// the call's working directory.
func ProjectDir(env Getenv, cwd string) string {
	if d := env("CLAUDE_PROJECT_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	return cwd
}

// Context returns a call of the agent at cwd with guard's context
// filled in: the project, the homes, the search path, guard's own
// directories and binary, the temp dir, the shell and locale, and the
// configuration paths of every agent.
func Context(env Getenv, cwd, shell string, readOnly bool) engine.Call {
	call := engine.Call{
		Cwd:        cwd,
		Project:    ProjectDir(env, cwd),
		Home:       env("HOME"),
		ExecPath:   env("PATH"),
		Temp:       os.TempDir(),
		Guard:      GuardBinary(),
		Shell:      shell,
		Locale:     Locale(env),
		ReadOnly:   readOnly,
		AgentPaths: agent.ConfigPaths(),
		Getenv:     env,
	}
	if h := passwdHome(); h != "" {
		call.Homes = []string{h}
	}
	call.Protect = OwnDirs(env, append([]string{call.Home}, call.Homes...))
	// The project's policy directory, where a project keeps its policy
	// whatever its agent (.claude/guard.toml is in an agent's
	// configuration, kept as such).
	if filepath.IsAbs(call.Project) {
		call.Protect = append(call.Protect, filepath.Join(call.Project, filepath.Dir(filepath.FromSlash(PolicyFile))))
	}
	// The managed policy, wherever it is: no call may change it.
	call.Protect = append(call.Protect, filepath.Dir(ManagedPolicyFile))
	if v := env("GUARD_MANAGED_POLICY"); filepath.IsAbs(v) {
		call.Protect = append(call.Protect, filepath.Clean(v))
	}
	return call
}

// GuardBinary returns the path of the running guard binary, a protected
// path, or "".
func GuardBinary() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return exe
}

// passwdHome returns the home directory of the user in /etc/passwd, or
// "": ~ means it too when $HOME is unset, relative, or another directory.
// The file is read directly: a name service lookup would cost a socket
// and more than the rest of the decision.
func passwdHome() string {
	data, err := os.ReadFile("/etc/passwd")
	if err != nil {
		return ""
	}
	return passwdEntryHome(string(data), strconv.Itoa(os.Getuid()))
}

// passwdEntryHome returns the home field of the first passwd line whose
// uid is uid, or "" when there is none or it is not absolute.
func passwdEntryHome(passwd, uid string) string {
	for _, line := range strings.Split(passwd, "\n") {
		f := strings.Split(line, ":")
		if len(f) >= 7 && f[2] == uid && filepath.IsAbs(f[5]) {
			return f[5]
		}
	}
	return ""
}

// OwnDirs returns guard's own directories, which no write may touch:
// the state directory and the user's policy directory, wherever the
// environment puts them, and where they would be without it.
func OwnDirs(env Getenv, homes []string) []string {
	var out []string
	if d := env("XDG_STATE_HOME"); filepath.IsAbs(d) {
		out = append(out, filepath.Join(d, "guard"))
	}
	if d := env("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		out = append(out, filepath.Join(d, "guard"))
	}
	for _, h := range homes {
		if filepath.IsAbs(h) {
			out = append(out, filepath.Join(h, ".local", "state", "guard"), filepath.Join(h, ".config", "guard"))
		}
	}
	return out
}

// Locale returns the locale the agent runs commands in, as the C
// library finds the character set: $LC_ALL, else $LC_CTYPE, else $LANG;
// "" when none is set.
func Locale(env Getenv) string {
	for _, name := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := env(name); v != "" {
			return v
		}
	}
	return ""
}
