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
func loadLayers(config, projectDir string, env getenv) (*policy.Layers, error) {
	if config != "" {
		p, _, err := loadFile(config)
		if err != nil {
			return nil, err
		}
		return &policy.Layers{User: p}, nil
	}
	l := &policy.Layers{}
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
	return call
}
