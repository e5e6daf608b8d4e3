// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"guard/engine"
	"guard/internal/setup"
	"guard/policy"
)

// The verbs load policies and fill in calls through package setup, which
// the Go API shares: what guard test and guard check show is what the
// hook and guard serve enforce.

func loadFile(name string) (*policy.Policy, string, error) { return setup.LoadFile(name) }

func userPolicyFile(env getenv) string { return setup.UserPolicyFile(setup.Getenv(env)) }

func loadLayers(config, projectDir string, env getenv) (*policy.Layers, error) {
	return setup.LoadLayers(config, projectDir, setup.Getenv(env))
}

func projectDir(env getenv, cwd string) string { return setup.ProjectDir(setup.Getenv(env), cwd) }

func callContext(env getenv, cwd, shell string, readOnly bool) engine.Call {
	return setup.Context(setup.Getenv(env), cwd, shell, readOnly)
}

func guardBinary() string { return setup.GuardBinary() }
