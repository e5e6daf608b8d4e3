// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Aider has no hook: guard reaches its shell commands through guard
// shell, as its $SHELL. What aider 0.86 (Aider-AI/aider at 5dc9490,
// aider/run_cmd.py and aider/main.py) does with it:
//
//   - the shell commands its model suggests (once its user says yes),
//     /run and /test run as $SHELL -i -c COMMAND where aider's standard
//     input is a terminal (pexpect.spawn), in the repository's root; where
//     it is not a terminal, as /bin/sh -c COMMAND (subprocess with
//     shell=True), and $SHELL is not read. Its lint commands always run in
//     /bin/sh.
//   - where the path $SHELL names does not exist, the command runs without
//     a shell, as a program and its arguments.
//   - SHELL comes from its environment, then from the .env files it loads
//     (~/.env, the git root's, the current directory's, --env-file), each
//     overriding the one before, then from --set-env, applied after them.
//   - its own edits to files are no shell command: guard does not see them.

// ShellWrapperName is the file name of the script guard init writes for
// an agent's $SHELL.
const ShellWrapperName = "guard-shell"

// ShellWrapper is the script guard init writes for an agent's $SHELL: a
// program path that runs guard shell with the shell's arguments. A script,
// not a link to guard: where guard is gone it fails (exit 127), where a
// dangling link would be a path that does not exist, which aider takes as
// no shell at all.
func ShellWrapper(dir, guard string) (FileChange, error) {
	name := filepath.Join(dir, ShellWrapperName)
	old, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return FileChange{}, err
	}
	text := "#!/bin/sh\n# guard shell, for an agent that runs its commands as $SHELL -c COMMAND (written by guard init)\nexec " +
		quote(guard) + " shell \"$@\"\n"
	return FileChange{Path: name, Old: old, New: []byte(text), Mode: 0o755}, nil
}

// AiderCommand is the command line that runs aider with guard shell as
// its $SHELL: --set-env, which no .env file aider loads overrides.
func AiderCommand(wrapper string) string {
	return "aider --set-env " + quote("SHELL="+wrapper)
}

// AiderNotes are what guard init says of aider after the command line:
// what guard shell does not reach.
func AiderNotes() []string {
	return []string{
		"aider runs $SHELL only where its input is a terminal: run headless, its commands run in /bin/sh, and guard does not see them; its lint commands always do",
		"aider's own edits to files are not shell commands: guard does not judge them",
		fmt.Sprintf("keep %s where it is: where $SHELL names no file, aider runs commands without a shell, and without guard", ShellWrapperName),
	}
}

// ShellCommandLine is the generic recipe: any agent that runs its
// commands as $SHELL -c COMMAND, started with SHELL naming the wrapper.
func ShellCommandLine(wrapper string) string {
	return "SHELL=" + quote(wrapper) + " AGENT"
}
