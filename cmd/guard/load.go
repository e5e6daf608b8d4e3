// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"errors"
	"fmt"
	"guard/agent"
	"guard/engine"
	"guard/policy"
	"io"
	"os"
	"path/filepath"
)

// One loader for every verb: guard hook, check, test and flags load the
// same layers, so that what guard test and guard check show is what the
// hook enforces.

// policyFile is where a project keeps its policy.
const policyFile = ".claude/guard.toml"

// managedPolicyFile is where an administrator puts the managed policy,
// which every call is decided by too, whatever the user's and the
// project's policies say. $GUARD_MANAGED_POLICY names another file: set it
// where only the administrator sets the environment (a system profile, the
// agent's managed settings), since a user who can change it can move the
// policy. A file named there must exist.
const managedPolicyFile = "/etc/guard/guard.toml"

// loadManaged returns the managed policy, nil when there is none.
func loadManaged(env getenv) (*policy.Policy, error) {
	name := managedPolicyFile
	if v := env("GUARD_MANAGED_POLICY"); v != "" {
		if !filepath.IsAbs(v) {
			return nil, fmt.Errorf("GUARD_MANAGED_POLICY=%q is not an absolute path", v)
		}
		name = v
	} else if _, err := os.Lstat(name); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	p, _, err := loadFile(name)
	return p, err
}

// loadFile loads a policy file and returns it with the sha256 of its bytes.
func loadFile(name string) (*policy.Policy, string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, "", fmt.Errorf("policy %s: %v", name, err)
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, 1<<20+1))
	if err != nil {
		return nil, "", fmt.Errorf("policy %s: %v", name, err)
	}
	p, err := engine.Load(name, bytes.NewReader(src))
	return p, policy.Digest(src), err
}

// userPolicyFile returns where the user's own policy lives:
// $XDG_CONFIG_HOME/guard/guard.toml, else ~/.config/guard/guard.toml.
func userPolicyFile(env getenv) string {
	if d := env("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "guard", "guard.toml")
	}
	if h := env("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".config", "guard", "guard.toml")
	}
	return ""
}

// loadLayers returns the policies for a call. With --config, that file
// alone decides. Otherwise the user's policy (or the embedded default) and
// the project's .claude/guard.toml, if there is one, decide together: the
// project can only restrict what the user allows, unless the user policy
// trusts it by its sha256. Any policy file that exists but does not load
// is an error.
//
// The managed policy (see managedPolicyFile) decides beside them in either
// case.
func loadLayers(config, projectDir string, env getenv) (*policy.Layers, error) {
	managed, err := loadManaged(env)
	if err != nil {
		return nil, fmt.Errorf("the managed policy: %v", err)
	}
	if config != "" {
		p, _, err := loadFile(config)
		if err != nil {
			return nil, err
		}
		return &policy.Layers{Managed: managed, User: p}, nil
	}
	l := &policy.Layers{Managed: managed}
	if name := userPolicyFile(env); name != "" {
		if _, err := os.Lstat(name); !errors.Is(err, os.ErrNotExist) {
			p, _, err := loadFile(name)
			if err != nil {
				return nil, err
			}
			l.User = p
		}
	}
	if projectDir != "" {
		name := filepath.Join(projectDir, filepath.FromSlash(policyFile))
		if _, err := os.Lstat(name); !errors.Is(err, os.ErrNotExist) {
			p, sum, err := loadFile(name)
			if err != nil {
				return nil, err
			}
			l.Project, l.ProjectSum = p, sum
		}
	}
	return l, nil
}

// projectDir returns the project root for a call: $CLAUDE_PROJECT_DIR, else
// the call's working directory.
func projectDir(env getenv, cwd string) string {
	if d := env("CLAUDE_PROJECT_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	return cwd
}

// callContext returns a call of the agent at cwd with guard's context
// filled in: the project, the homes, the search path, guard's own
// directories and binary, the temp dir, the shell and locale, and the
// configuration paths of every agent.
func callContext(env getenv, cwd, shell string, readOnly bool) engine.Call {
	call := engine.Call{
		Cwd:        cwd,
		Project:    projectDir(env, cwd),
		Home:       env("HOME"),
		ExecPath:   env("PATH"),
		Temp:       os.TempDir(),
		Guard:      guardBinary(),
		Shell:      shell,
		Locale:     agentLocale(env),
		ReadOnly:   readOnly,
		AgentPaths: agent.ConfigPaths(),
	}
	if h := passwdHome(); h != "" {
		call.Homes = []string{h}
	}
	call.Protect = ownDirs(env, append([]string{call.Home}, call.Homes...))
	// The managed policy, wherever it is: no call may change it.
	call.Protect = append(call.Protect, filepath.Dir(managedPolicyFile))
	if v := env("GUARD_MANAGED_POLICY"); filepath.IsAbs(v) {
		call.Protect = append(call.Protect, filepath.Clean(v))
	}
	return call
}
