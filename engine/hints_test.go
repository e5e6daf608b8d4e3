// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"testing"

	"guard/policy"
)

// hintAlternatives are the hints of the default policy's rules, each with
// the command it tells the agent to run instead, "" for a hint that names
// no command (ask the user, let the output come back). A hint not listed
// here fails TestHintsAreAllowed: say what it suggests.
var hintAlternatives = map[string]string{
	"let the output come back on standard output":                                 "",
	"push without force or delete options, or ask the user to do it":              "git push origin main",
	"write the code to a file with the edit tools and ask to run it":              "",
	"use the project's default toolchain":                                         "cargo build",
	"use tail -n N to read the end of the file":                                   "tail -n 20 log.txt",
	"use gofmt -l or -d to see what would change":                                 "gofmt -l .",
	"use git stash to keep the changes, or ask the user":                          "git stash",
	"use cargo fmt --check to see what would change":                              "cargo fmt --check",
	"use -print or -printf and let the output come back":                          "find . -name '*.tmp' -print",
	"run git without -c":                                                          "git status",
	"run cargo clippy without --fix and apply the changes with the edit tools":    "cargo clippy",
	"list untracked files with git status --short, or ask the user":               "git status --short",
	"list the files with -print first, or ask the user":                           "find . -name '*.tmp' -print",
	"delete single files, or ask the user":                                        "rm notes.txt",
	"ask the user to run it":                                                      "",
	"ask the user to fetch it":                                                    "",
	"use cut, grep, sort, uniq, tr or jq":                                         "cut -d: -f1 data.txt",
	"print to standard output, and write files with the edit tools":               "",
	"write the argument out literally":                                            "",
	"give the script with -e":                                                     "sed -e 's/a/b/' f.txt",
	"give the program on the command line":                                        "awk '{print $1}' f.txt",
	"print to standard output; use cut, grep or jq where awk would reach further": "",
	"git checkout -b NAME makes a branch; git switch BRANCH changes to one; git checkout FILE discards the file's changes: ask the user": "git switch main",
	"git restore --staged FILE unstages it; without --staged, git restore discards the file's changes: ask the user":                     "git restore --staged a.go",
	// The rules of the tools a pack allows say which pack; the user
	// includes it, the agent cannot.
	"the docker pack (include = [\"docker\"]) allows docker ps, images and logs":                                                                           "",
	"the kubernetes pack (include = [\"kubernetes\"]) allows kubectl get and describe, secrets not":                                                        "",
	"the github pack (include = [\"github\"]) allows gh pr view|list|diff and gh issue view|list":                                                          "",
	"the terraform pack (include = [\"terraform\"]) allows terraform validate in the sandbox and fmt -check":                                               "",
	"the aws pack (include = [\"aws\"]) allows read-only describe, list and get calls, those that print secrets not":                                       "",
	"env without a command prints every environment variable, tokens and keys too: printenv NAME prints one that holds no secret (HOME, PATH, SHELL, ...)": "printenv HOME",
	"printenv NAME prints one variable, for the names that hold no secret: HOME, PATH, SHELL, USER, PWD, LANG, TERM, GOPATH, ...":                          "printenv PATH",
}

// TestHintsAreAllowed: every hint of the default policy is known, and the
// command it suggests is not denied by that policy: a guard that denies
// what it suggests teaches the agent to give up. A suggestion of the
// session tier (git stash, rm of a file) may ask.
func TestHintsAreAllowed(t *testing.T) {
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range p.Commands() {
		for _, h := range c.Hints {
			alt, ok := hintAlternatives[h]
			switch {
			case !ok:
				t.Errorf("rule %s: hint %q: add it to hintAlternatives, with the command it suggests", c.Name, h)
			case alt != "" && !seen[h]:
				if d := Decide(p, ExampleCall(alt)); d.Verdict == Deny {
					t.Errorf("rule %s: hint %q suggests %q, which the policy denies: %s", c.Name, h, alt, d.Reason())
				}
			}
			seen[h] = true
		}
	}
	if len(seen) < 10 {
		t.Fatalf("only %d hints found: the test reads no hints", len(seen))
	}
}
