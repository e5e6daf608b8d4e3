// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"errors"
	"fmt"
	"path"

	"guard/policy"
)

// rustup's proxies (cargo, rustc, rustdoc, rustfmt, and rustup itself,
// which runs the active rustc for --version) run the toolchain that the
// directory they start in picks: after a +toolchain word and
// RUSTUP_TOOLCHAIN, rustup walks from the working directory up to the
// root, and in each directory takes the override the user set there with
// rustup override set (in its settings.toml), else a rust-toolchain or
// rust-toolchain.toml file, rust-toolchain first when both are there. A
// toolchain file is the project's choice of program: [toolchain] path =
// "/any/dir" runs /any/dir/bin/cargo (cargo version ran the repository's
// own program), and channel = "1.80" (or components, targets) makes rustup
// download and run that toolchain. The proxy passes its choice on to the
// programs it starts, so what cargo runs follows the directory cargo
// started in, whatever --manifest-path names.
//
// For a rule with config = "rust", guard looks for those files from each
// directory the command runs in. Where there is one, or guard cannot look
// (a file rustup may read), the command runs the project's choice: it is
// allowed only in the sandbox, as a build is (the rule's own profile, else
// build), and asks where the sandbox cannot run. guard does not read
// rustup's settings or the agent's environment: an override there that
// wins over the file only makes guard stricter than rustup, never looser.
// Nor does it ask whether the program on the search path is a rustup
// proxy: a cargo of the system's own reads no toolchain file, and is
// bounded all the same.

// rustToolchainFiles are the files rustup reads in each directory, in the
// order it prefers them.
var rustToolchainFiles = []string{"rust-toolchain", "rust-toolchain.toml"}

// rustToolchain returns why a rustup proxy started in dir would run a
// toolchain the project's files name: the toolchain file rustup reads
// there or in a directory above, or one guard cannot look at. It returns
// "" when there is none.
func (d *decider) rustToolchain(dir string) string {
	if why, ok := d.rustChecked[dir]; ok {
		return why
	}
	why := d.rustToolchainUncached(dir)
	if d.rustChecked == nil {
		d.rustChecked = map[string]string{}
	}
	d.rustChecked[dir] = why
	return why
}

func (d *decider) rustToolchainUncached(dir string) string {
	real, err := realPath(d.fsys, dir)
	if err != nil {
		return fmt.Sprintf("it runs in %s, which guard cannot resolve to look for the toolchain file rustup reads (%v)", dir, err)
	}
	for dir := real; ; dir = path.Dir(dir) {
		for _, name := range rustToolchainFiles {
			file := path.Join(dir, name)
			fi, err := d.fsys.Stat(file)
			switch {
			case err == nil && fi.IsDir():
				// rustup cannot read a directory, and looks on.
			case err == nil:
				return fmt.Sprintf("%s picks the toolchain rustup runs, a program of the project's choosing or one it downloads", file)
			case !absent(err):
				return fmt.Sprintf("guard cannot look at %s, a toolchain file rustup would read: %v", file, errors.Unwrap(err))
			}
		}
		if dir == "/" {
			return ""
		}
	}
}

// rustRunner bounds a command that runs the toolchain a project's file
// picks (why, from rustToolchain): it runs only in the sandbox, in its
// rule's profile or else build's, and where the sandbox cannot run, it
// asks with why.
func (m *matcher) rustRunner(n *policy.Rule, why string, r *result) {
	if len(r.sandbox) == 0 {
		r.sandbox = []string{"build"}
	}
	if len(m.d.call.Run) == 0 {
		r.add(policy.Ask, "rust.toolchain", fmt.Sprintf("%s: %s; it runs only in the sandbox, and the sandbox cannot run here: %s", n.ID(), why, cmpOr(m.d.call.NoRun, "guard run is not available")),
			"run it where guard run can confine it, or ask the user to run it")
		return
	}
	if m.d.tr != nil {
		m.d.tr.note(policy.Allow, "rust.toolchain", fmt.Sprintf("%s: %s: it runs only in the sandbox", n.ID(), why))
	}
}
