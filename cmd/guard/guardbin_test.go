// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"guard/internal/testnote"
)

// The tests that start guard as a process (guard run in the jail tests,
// guard hook in the signal and log tests) start a guard built once per
// test binary, without the race detector: under -race every start of the
// test binary as guard paid the detector's start-up and a two- to
// ten-fold slower run, hundreds of times (cmd/guard took 440 s of go test
// -race ./... on two cores). What those processes do is tested in process,
// under the detector, by the rest of the package; a process test asks what
// the kernel and the exit code say, which the detector does not change.

// guardBuild is the directory of the guard that guardExe builds.
var guardBuild struct {
	once sync.Once
	dir  string
	exe  string
}

// guardExe returns the path of a guard binary built from this package with
// go build, without -race, building it the first time. Where go build
// fails, it returns the test binary itself, which TestMain turns into guard
// when its argv[0] is "guard": slower, the same answers.
func guardExe() string {
	guardBuild.once.Do(func() {
		self, err := os.Executable()
		if err != nil {
			panic(err)
		}
		guardBuild.exe = self
		dir, err := os.MkdirTemp("", "guard-test-bin-")
		if err != nil {
			testnote.Print("guard/cmd/guard: process tests run the test binary as guard: " + err.Error())
			return
		}
		guardBuild.dir = dir
		// go test puts its own GOROOT/bin first on the test's PATH.
		gobin, err := exec.LookPath("go")
		if err != nil {
			testnote.Print("guard/cmd/guard: process tests run the test binary as guard (slower): no go command: " + err.Error())
			return
		}
		exe := filepath.Join(dir, "guard")
		cmd := exec.Command(gobin, "build", "-o", exe, ".")
		if out, err := cmd.CombinedOutput(); err != nil {
			testnote.Print("guard/cmd/guard: process tests run the test binary as guard (slower): go build: " + err.Error() + ": " + string(out))
			return
		}
		guardBuild.exe = exe
	})
	return guardBuild.exe
}

// guardDir returns the directory of the guard that guardExe built, or ""
// where it runs the test binary as guard.
func guardDir() string {
	if exe := guardExe(); filepath.Base(exe) == "guard" {
		return filepath.Dir(exe)
	}
	return ""
}

// removeGuardBuild removes what guardExe built.
func removeGuardBuild() {
	if guardBuild.dir != "" {
		os.RemoveAll(guardBuild.dir)
	}
}

// cleanupM runs the tests, then removes what guardExe built.
type cleanupM struct{ m *testing.M }

func (c cleanupM) Run() int {
	defer removeGuardBuild()
	return c.m.Run()
}
