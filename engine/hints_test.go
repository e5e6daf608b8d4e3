// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"guard/policy"
)

// hintAlternatives are the hints of the default policy's rules, each with
// the command it tells the agent to run instead, "" for a hint that names
// no command (ask the user, let the output come back). A hint not listed
// here fails TestHintsAreAllowed: say what it suggests.
var hintAlternatives = map[string]string{
	"let the output come back on standard output":                                 "",
	"copy the files without -s or -l, or ask the user to make the links":          "cp a.go b.go",
	"date +FORMAT prints the time; date -d DATE +FORMAT prints another":           "date -d yesterday +%F",
	"push without force or delete options, or ask the user to do it":              "git push origin main",
	"write the code to a file with the edit tools and ask to run it":              "",
	"give the code with -c, or in a file":                                         "python3 -c 'print(1)'",
	"give the code with -e, or in a file":                                         "node -e 'console.log(1)'",
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
	"the kubernetes pack (include = [\"kubernetes\"]) allows kubectl get, describe and logs, secrets not":                                                  "",
	"the github pack (include = [\"github\"]) allows gh pr view|list|diff and gh issue view|list":                                                          "",
	"the terraform pack (include = [\"terraform\"]) allows terraform validate in the sandbox and fmt -check":                                               "",
	"the aws pack (include = [\"aws\"]) allows read-only describe, list and get calls, those that print secrets not":                                       "",
	"env without a command prints every environment variable, tokens and keys too: printenv NAME prints one that holds no secret (HOME, PATH, SHELL, ...)": "printenv HOME",
	"printenv NAME prints one variable, for the names that hold no secret: HOME, PATH, SHELL, USER, PWD, LANG, TERM, GOPATH, ...":                          "printenv PATH",
	// What to do instead of what the default policy refuses: the call
	// without the option, the nearest form it accepts, or who can do it.
	"run git without the option; git -C DIR runs it in another directory of the project": "git -C sub status",
	"run git without -p": "git status",
	"run it without --ext-diff or --textconv: git's own diff is allowed":                              "git log -p",
	"leave out --show-signature, or ask the user to check the signatures":                             "git log",
	"leave out the %G signature placeholders: %h, %s, %an, %ad and --oneline are allowed":             "git log --format='%h %an %ad %s'",
	"leave out the %G signature placeholders, or group by author or committer":                        "git shortlog -sn --group=author HEAD",
	"compare the files with diff -u FILE1 FILE2":                                                      "diff -u old.txt new.txt",
	"run git blame without --contents: it blames the file in the working tree":                        "git blame README.md",
	"run git blame without -S or --ignore-revs-file":                                                  "git blame README.md",
	"leave out the signature atoms: %(refname:short), %(objectname) and the others are allowed":       "git branch --format='%(refname:short)'",
	"run git grep without -O: -l lists the files that match":                                          "git grep -l TODO",
	"run git grep without --textconv":                                                                 "git grep -n TODO",
	"search with rg, which skips hidden files such as .env":                                           "rg TODO",
	"git cat-file -p REV:FILE prints the file as committed":                                           "git cat-file -p HEAD:README.md",
	"commit the work with git commit and leave the push to the user":                                  "git commit -m wip",
	"git restore --staged FILE unstages a file, asked once a session":                                 "git restore --staged a.go",
	"make a new commit instead: git commit -m MESSAGE":                                                "git commit -m fix",
	"commit without -n, so that the repository's hooks run":                                           "git commit -m fix",
	"the user approves it once; then it runs without asking for the rest of the session":              "",
	"name the files to stage, or stage the tracked ones with git add -u":                              "git add -u",
	"git stash list and git stash show -p read the stashes without asking":                            "git stash show -p",
	"drop single stashes with git stash drop, or ask the user":                                        "git stash drop",
	"run git gc without --prune, or ask the user":                                                     "git gc",
	"run go without -toolexec or -exec":                                                               "go test ./...",
	"run go without -overlay, -modfile or -pkgdir":                                                    "go build ./...",
	"run go test without -o":                                                                          "go test ./...",
	"run go vet without -vettool, -toolexec or -exec":                                                 "go vet ./...",
	"set the variable for one command (GOOS=linux go build ./...), or ask the user":                   "GOOS=linux go build ./...",
	"run go list without -toolexec, -exec, -modfile or -overlay":                                      "go list ./...",
	"go list -m all lists the modules in use; ask the user to look up newer versions":                 "go list -m all",
	"run go list without -export or -compiled; go build builds the packages":                          "go list ./...",
	"run cargo without --config":                                                                      "cargo build",
	"run cargo without -Z":                                                                            "cargo build",
	"run cargo in that directory, or give --manifest-path DIR/Cargo.toml":                             "cargo build --manifest-path sub/Cargo.toml",
	"cargo test --benches runs the benchmarks once, as tests":                                         "cargo test --benches",
	"pass only lint options after --: -D, -W, -A, -F":                                                 "cargo clippy -- -D warnings",
	"give the lint options on the command line, not in an @FILE":                                      "cargo clippy -- -D warnings",
	"run cargo doc without --open; the docs are in target/doc":                                        "cargo doc",
	"read Cargo.toml and Cargo.lock: they name the packages and every resolved dependency":            "cat Cargo.lock",
	"run the commands directly, or with bash -c 'COMMANDS'":                                           "bash -c 'ls -la'",
	"run the command once, without watch":                                                             "git status",
	"bash FILE runs a script without the execute bit; for other modes, ask the user":                  "bash build.sh",
	"name the files instead of -c, and compare the sums with the list":                                "sha256sum go.sum",
	"the edit tools write and create files, asked once a directory; this command asks once a session": "",
	"sed without -i prints the changed text (sed 's/OLD/NEW/' FILE); the edit tools change the file, asked once a directory; sed -i asks once a session":                           "sed 's/a/b/' f.txt",
	"git show HEAD:FILE prints a file as last committed, so a backup copy is seldom needed; the edit tools write and create files, asked once a directory; cp asks once a session": "git show HEAD:README.md",
	"copy the directories it needs, not the root or the home directory":                                                                                                            "cp -r src backup",
	"cp copies within the project; ask the user to run it for other hosts":                                                                                                         "cp a.go b.go",
	"give each date with -d, one a call":                                               "date -d 2024-01-01",
	"read bytes with head -c N or xxd -s OFFSET -l LEN; ask the user to write devices": "head -c 100 go.sum",
	"sha256sum prints digests and base64 encodes; ask the user for the rest":           "sha256sum go.sum",
	"name the files on the command line":                                               "wc -l README.md",
	"name the files on the command line, without --files0-from or --random-source":     "sort -u names.txt",
	"run sort without -T or --compress-program":                                        "sort -u names.txt",
	"run rg without --pre, -z or --hostname-bin":                                       "rg TODO",
	"file -m MAGIC reads a magic file without compiling it":                            "file -m magic.txt README.md",
	"run file without -z or -Z":                                                        "file README.md",
	"name one magic file with -m, not a colon-separated list":                          "file -m magic.txt README.md",
	"run file without -p":                                                              "file README.md",
	"pass the values in with --arg NAME VALUE":                                         "jq -n --arg name x '$name'",
	"give the data with --slurpfile NAME FILE, and the filter on the command line":     "jq -n --slurpfile d data.json '$d'",
	"run printf without -v: it prints the value":                                       "printf '%s\\n' x",
	"leave out the environ column: pid, ppid, etime, args and the others are allowed":  "ps -e -o pid,ppid,etime,args",
	"run the tests with pytest, which runs in the sandbox without asking":              "pytest",
	"run the tests with npm test, which runs in the sandbox without asking":            "npm test",
	"run just with the project's justfile, without -f, -d or --set":                    "just test",
	"run make with the project's Makefile, without -f, -C, -I or --eval":               "make test",
	// The packs' hints, decided with every pack included.
	"use docker logs --tail N": "docker logs --tail 100 web",
	"use kubectl logs --tail N or --since DURATION: they print what is there and end":                                                         "kubectl logs --tail 100 web",
	"docker ps -a --filter name=NAME --format '{{.Status}} {{.Ports}}' shows a container's state and ports, docker logs NAME what it printed": "docker ps -a --filter name=web --format '{{.Status}} {{.Ports}}'",
	"docker images REPOSITORY lists an image's tags, ids and sizes":                                                                           "docker images alpine",
	"terraform validate checks the configuration in the sandbox; ask the user to run terraform plan":                                          "terraform validate",
	"use terraform fmt -check -diff to see what would change":                                                                                 "terraform fmt -check -diff",
	"read it here, without --web": "gh pr view 12",
	"ask the user for what the program needs, or use secretsmanager describe-secret":             "aws secretsmanager describe-secret --secret-id app",
	"add --offline: without it cargo may fetch the registry index":                               "cargo tree --offline",
	"cargo doc builds the documentation, and cargo test --doc runs the doctests, in the sandbox": "cargo doc",
	"compile with cargo build, or without -C and -Z":                                             "cargo build",
	"give the options on the command line":                                                       "",
	"rustup toolchain list lists them":                                                           "rustup toolchain list",
	"use goimports -l or -d to see what would change":                                            "goimports -l .",
	"use rustfmt --check to see what would change":                                               "rustfmt --check src/main.rs",
}

// TestHintsAreAllowed: every hint of the default policy, and of the
// default with every pack included, is known, and the command it
// suggests is not denied by that policy: a guard that denies what it
// suggests teaches the agent to give up. A suggestion of the session tier
// (git stash, rm of a file) may ask.
func TestHintsAreAllowed(t *testing.T) {
	def, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	packs, err := policy.LoadUnchecked("packs.toml", strings.NewReader(`version = 1
extends = "default"
include = ["`+strings.Join(policy.Packs(), `", "`)+`"]
`))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range []*policy.Policy{def, packs} {
		hintsAllowed(t, p, seen)
	}
	if len(seen) < 10 {
		t.Fatalf("only %d hints found: the test reads no hints", len(seen))
	}
}

// hintsAllowed checks the hints of p's rules (see TestHintsAreAllowed).
func hintsAllowed(t *testing.T, p *policy.Policy, seen map[string]bool) {
	t.Helper()
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
}

// TestRefusalsHint: every rule of the default policy that asks or denies,
// and every deny, ask and session rule in it, says what to do instead, so
// that a refusal never leaves the agent to guess.
func TestRefusalsHint(t *testing.T) {
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, c := range p.Commands() {
		missing = append(missing, c.Unhinted...)
	}
	if len(missing) > 0 {
		t.Errorf("%d rules refuse without a hint:\n%s", len(missing), strings.Join(missing, "\n"))
	}
}

// TestRefusalHintsApply: the refusals agents meet most often in a day's
// work (a file written by a redirection, a script written to be run,
// files handed to a program by xargs, sed -i, a backup copy) name in their
// hint a command that does what was asked and that guard allows: the
// command is in the hint, and deciding it in the same project allows it.
func TestRefusalHintsApply(t *testing.T) {
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range []string{"src/a.py", "tests/test_a.py", ".env"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	call := func(cmd string) Call {
		c := ExampleCall(cmd)
		c.Cwd, c.Project, c.Temp = dir, dir, t.TempDir()
		return c
	}
	for _, tc := range []struct {
		refused string
		inHint  string // the alternative as the hint says it
		apply   string // the alternative for this call
	}{
		{"git diff -- src/a.py > patch.txt", "leave out the redirection", "git diff -- src/a.py"},
		{"cat > reproduce.py <<'EOF'\nprint(1)\nEOF\npython3 reproduce.py", "python3 - <<'EOF'", "python3 - <<'EOF'\nprint(1)\nEOF"},
		{"find tests -name '*.py' | xargs grep -l validates", "find DIR -name '*.py' -exec grep ... {} +", "find tests -name '*.py' -exec grep -l validates {} +"},
		{"find . -name '*.py' | xargs wc -l", "find DIR -name '*.py' -exec wc ... {} +", "find . -name '*.py' -exec wc -l {} +"},
		{"sed -i 's/x/y/' src/a.py", "sed 's/OLD/NEW/' FILE", "sed 's/x/y/' src/a.py"},
		{"cp src/a.py src/a.py.backup", "git show HEAD:FILE", "git show HEAD:src/a.py"},
	} {
		d := Decide(p, call(tc.refused))
		if d.Verdict == Allow {
			t.Errorf("%q is allowed: the test has nothing to check", tc.refused)
			continue
		}
		if !strings.Contains(d.Hint(), tc.inHint) {
			t.Errorf("%q: hint %q, want one that names %q", tc.refused, d.Hint(), tc.inHint)
		}
		if a := Decide(p, call(tc.apply)); a.Verdict != Allow {
			t.Errorf("%q: the hint's alternative %q is not allowed: %s", tc.refused, tc.apply, a.Reason())
		}
	}
	// A file no tool may write: the hint sends the agent to no tool.
	for _, cmd := range []string{"echo x > ~/.bashrc", "echo x > .git/hooks/pre-commit", "echo x >> /etc/passwd"} {
		d := Decide(p, call(cmd))
		if d.Verdict != Deny || strings.Contains(d.Hint(), "edit tools") || !strings.Contains(d.Hint(), "leave out the redirection") {
			t.Errorf("%q: %s, hint %q: want a deny whose hint names no edit tool", cmd, d.Verdict, d.Hint())
		}
	}
}
