// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"guard/policy"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadValid(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*.toml")
	if len(files) == 0 {
		t.Fatal("no valid policies in testdata/valid")
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Load(name, f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if p.Name() != name {
			t.Errorf("%s: Name() = %q", name, p.Name())
		}
	}
}

// TestLoadInvalid loads every policy in testdata/invalid; the first line of
// each says "# error: TEXT" and the error must contain TEXT.
func TestLoadInvalid(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.toml")
	if len(files) < 20 {
		t.Fatalf("only %d invalid policies in testdata/invalid", len(files))
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(data), "\n")
		want, ok := strings.CutPrefix(first, "# error: ")
		if !ok {
			t.Fatalf("%s: the first line must be # error: TEXT", name)
		}
		p, err := Load(filepath.Base(name), strings.NewReader(string(data)))
		if err == nil {
			t.Errorf("%s: loaded; want an error containing %q", name, want)
			continue
		}
		if p != nil {
			t.Errorf("%s: an error came with a policy", name)
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s:\n got error %q\nwant it to contain %q", name, err, want)
		}
		if !strings.HasPrefix(err.Error(), filepath.Base(name)+":") {
			t.Errorf("%s: error %q does not start with the file name", name, err)
		}
	}
}

func TestZeroPolicy(t *testing.T) {
	for _, p := range []*policy.Policy{nil, {}} {
		d := Decide(p, ExampleCall("true"))
		if d.Verdict != Deny {
			t.Errorf("%#v: verdict %s, want deny", p, d.Verdict)
		}
	}
	var d Decision
	if d.Verdict != Deny {
		t.Errorf("the zero Decision is %s, want deny", d.Verdict)
	}
}

// testPolicy exercises the option parser and the wrappers.
const testPolicy = `
version = 1
default = "ask"

[tools]
Bash = "shell"
Read = "allow"
WebFetch = "deny"
"mcp__*" = "ask"
"mcp__gh__get_*" = "allow"
"mcp__gh__*" = "deny"

[shell]
subshell = "allow"
group = "allow"
control-flow = "allow"
command-substitution = "deny"
parameter-expansion = "ask"

[env]
allow = ["OK", "LC_*"]
deny = [{ names = ["BAD", "GIT_*"], reason = "bad variable" }]

[redirect]
allow = ["/dev/null"]
read = "allow"
write = "ask"
write_outside = "deny"

[command.git]
verdict = "allow"
flags = ["--no-pager"]
options = { "-C" = "dir" }
deny = [{ flags = ["-c"], reason = "config" }]

[command.git.sub.log]
verdict = "allow"
flags = ["-#", "--oneline", "-p", "--stat-graph"]
options = { "-n" = "int", "--format" = "any", "--color" = "any?", "-U" = "int?", "--output-indicator-new" = "any" }
deny = [
  { flags = ["--output"], reason = "writes a file" },
  { flags = ["--format"], values = ["*%G*"], reason = "runs gpg" },
]

[command.git.sub.push]
verdict = "ask"
deny = [{ flags = ["--force", "-f"], reason = "force" }, { args = ["+*"], reason = "force refspec" }]

[command.cargo]
verdict = "allow"
deny = [{ flags = ["+"], reason = "toolchain" }]

[command.cargo.sub.test]
verdict = "allow"
flags = ["--release"]
options = { "-p" = "any" }

[command.cargo.sub.test.rest]
flags = ["--nocapture"]
options = { "--test-threads" = "int" }
deny = [{ flags = ["--logfile"], reason = "writes a file" }]

[command.cargo.sub.fmt]
verdict = "allow"
flags = ["--check"]
require = ["--check"]

[command.cargo.sub.fmt.rest]
flags = ["--check"]

[command.go.sub.test]
verdict = "allow"
style = "go"
flags = ["-v", "-race"]
options = { "-run" = "any", "-count" = "int" }
deny = [{ flags = ["-exec"], reason = "runs a program" }]

[command.find]
verdict = "allow"
style = "find"
flags = ["-print"]
options = { "-name" = "any", "-maxdepth" = "int" }
exec = ["-exec"]
deny = [{ flags = ["-delete"], reason = "deletes" }]

[command.echo]
verdict = "allow"
style = "none"

[command.ls]
verdict = "allow"
globs = true
flags = ["-l", "-a"]

[command.wc]
verdict = "allow"
flags = ["-l"]

[command.uniq]
verdict = "allow"
max_args = 1

[command.pwd]
verdict = "allow"
args = "none"

[command.cd]
verdict = "allow"
args = "path"
max_args = 1

[command.sort]
verdict = "allow"
flags = ["-u", "-n"]
options = { "-k" = "any" }
deny = [{ flags = ["-o", "--output"], reason = "writes a file" }]

[command.head]
verdict = "allow"
options = { "-n" = "int" }

[command.rm]
verdict = "ask"
deny = [{ flags = ["-r"], reason = "recursive" }]

[command.timeout]
verdict = "allow"
options = { "-s" = "any" }
wrap = { skip = 1 }

[command.env]
verdict = "allow"
options = { "-C" = "dir" }
wrap = { env = true }

[command.xargs]
verdict = "allow"
options = { "-I" = "any" }
wrap = { stdin = true, replace = ["-I"] }

[command.command]
verdict = "allow"
flags = ["-v"]
wrap = { lookup = ["-v"] }

[command.sudo]
verdict = "deny"
reason = "root"

[command."mkfs.*"]
verdict = "deny"
reason = "erases"

[command.py]
verdict = "ask"
interpreter = true
options = { "-m" = "any" }
deny = [{ flags = ["-c"], reason = "code" }]

[command.branch]
verdict = "allow"
flags = ["--list", "-a"]
args_with = ["--list"]

[command.bash]
verdict = "allow"
flags = ["-c", "-e"]
shell = "bash"

[command.sh]
verdict = "allow"
flags = ["-c"]
shell = "sh"
`

var decideTests = []struct {
	cmd  string
	want Verdict
	why  string // a substring of the decision's reason
}{
	// Plain commands, subcommands and the default.
	{"git --no-pager log", Allow, ""},
	{"git", Allow, ""},
	{"git status", Ask, "no rule for git status"},
	{"gradle test", Ask, "no rule for gradle"},
	{"pwd", Allow, ""},
	{"pwd x", Ask, "takes no operands"},
	{"uniq a", Allow, ""},
	{"uniq a b", Ask, "at most 1 operands"},
	{"sudo ls", Deny, "sudo: root"},

	// Option spellings: glued, bundled, --opt=value, --opt value, digits.
	{"git log -n 5", Allow, ""},
	{"git log -n5", Allow, ""},
	{"git log -5", Allow, ""},
	{"git log -pn5", Allow, ""},
	{"git log -n x", Ask, "must be a number"},
	{"git log -n", Ask, "needs a value"},
	{"git log --format=%h", Allow, ""},
	{"git log --format %h", Allow, ""},
	{"git log --format -x", Ask, "starts with -"},
	{"git log --format=-x", Allow, ""},
	{"git log --color", Allow, ""},
	{"git log --color=always", Allow, ""},
	{"git log -U", Allow, ""},
	{"git log -U3", Allow, ""},
	{"git log --oneline=x", Ask, "takes no value"},
	{"git log -q", Ask, "-q is not in the accept-list"},
	{"git log --frob", Ask, "--frob is not in the accept-list"},
	{"sort -un", Allow, ""},
	{"sort -uo x", Deny, "sort -o: writes a file"},
	{"sort -uox", Deny, "sort -o"},
	{"sort -zo x", Deny, "sort -o"},
	{"sort --output=x", Deny, "sort --output"},
	{"sort -k1,2 -n", Allow, ""},
	{"head -n -5", Allow, ""},

	// Unique prefixes: never allowed; a prefix of a denied option is denied.
	{"git log --onel", Ask, "abbreviation of --oneline"},
	{"git log --out=x", Deny, "git log --output: writes a file"},
	{"git log --output-indicator-new=x", Allow, ""},
	{"git log --o", Deny, "--output"},
	{"sort --out=x", Deny, "writes a file"},

	// -- ends options; rest rules take what follows.
	{"git log -- --output", Allow, ""},
	{"cargo test -- --nocapture", Allow, ""},
	{"cargo test -p x --release -- --test-threads=2", Allow, ""},
	{"cargo test -- --logfile x", Deny, "writes a file"},
	{"cargo test -- --frob", Ask, "cargo test --: option --frob"},

	// Escalations on values and operands.
	{"git log --format=%G?", Ask, "glob"},
	{"git log '--format=%G?'", Deny, "runs gpg"},
	{"git push origin main", Ask, "git push needs approval"},
	{"git push origin +main", Deny, "force refspec"},
	{"git push --force", Deny, "git push --force: force"},
	{"git -c x=y log", Deny, "git -c: config"},
	{"git -cx=y log", Deny, "config"},
	{"rm x", Ask, ""},
	{"rm -fr x", Deny, "recursive"}, // -f is unknown, so the rest of the bundle may hold -r
	{"rm -r x", Deny, "recursive"},

	// cargo +toolchain and require.
	{"cargo +nightly test", Deny, "toolchain"},
	{"cargo fmt --check", Allow, ""},
	{"cargo fmt", Ask, "allowed only with --check"},

	// Go-style and find-style options.
	{"go test -v -run TestX ./...", Allow, ""},
	{"go test -run=TestX -count=1 ./...", Allow, ""},
	{"go test --run TestX", Allow, ""},
	{"go test -race=true ./...", Allow, ""},
	{"go test -exec=/bin/sh ./...", Deny, "runs a program"},
	{"go test -vrace", Ask, "not in the accept-list"},
	{"find . -name x -print", Allow, ""},
	{"find . -maxdepth 2", Allow, ""},
	{"find . -delete", Deny, "deletes"},
	{"find . -exec wc -l {} +", Allow, ""},
	{"find . -exec wc -l {} ;", Ask, "no ; or +"},
	{`find . -exec rm -r {} \;`, Deny, "recursive"},
	{`find . -exec sh -c 'cat {}' \;`, Deny, "not known until run time"},
	{`find . -exec wc -l x{}y \;`, Ask, "find puts a file name inside it"},

	// style none: every word is an operand.
	{"echo -n --output=x", Allow, ""},

	// Globs: only where a matched file name cannot act as an option.
	{"ls *", Allow, ""},
	{"wc -l *.go", Ask, "glob"},
	{"wc -l src/*.go", Allow, ""},
	{"wc -l ./*", Allow, ""},

	// Wrappers check the command they run.
	{"timeout 5 ls", Allow, ""},
	{"timeout -s KILL 5 ls -l", Allow, ""},
	{"timeout 5 rm -r x", Deny, "recursive"},
	{"timeout 5", Ask, "without a command"},
	{"env OK=1 ls", Allow, ""},
	{"env BAD=1 ls", Deny, "bad variable"},
	{"env GIT_DIR=x git log", Deny, "bad variable"},
	{"env OTHER=1 ls", Ask, "not in the policy's [env] allow list"},
	{"env -C sub ls", Allow, ""},
	{"env -C /etc ls", Ask, "outside the project"},
	{"xargs wc -l", Ask, "glob"},
	{"xargs ls -l", Allow, ""},
	{"xargs -I{} ls {}", Allow, ""},
	{"xargs -I{} sh -c 'echo {}'", Deny, "not known until run time"},
	{"command -v rm", Allow, ""},
	{"command rm -r x", Deny, "recursive"},
	{"bash -c 'ls -l | wc -l'", Allow, ""},
	{"bash -ec 'ls'", Allow, ""},
	{"bash -c 'rm -r x'", Deny, "rm -r: recursive"},
	{"bash -c 'rm x'", Ask, "rm needs approval"},
	{"bash -c 'echo $(id)'", Deny, "command substitution"},
	{`bash -c "bash -c 'bash -c \"bash -c ls\"'"`, Deny, "shells nest more than 3 deep"},
	{"bash script.sh", Ask, "runs the script file"},
	{"bash", Deny, "reads commands from standard input"},
	{"ls | bash", Deny, "reads commands from standard input"},
	{"LS -l", Allow, ""}, // on macOS, LS runs ls
	{"RM -r x", Deny, "recursive"},
	{"git LOG -n 1", Allow, ""},
	{"sh -c 'echo A &> /dev/null ls'", Deny, "parse error"},

	// Programs named by a path are never allowed, and denied as their name would be.
	{"/bin/ls -l", Ask, "no rule for /bin/ls"},
	{"/bin/rm -r x", Deny, "/bin/rm is rm by its path: rm -r: recursive"},
	{"./sudo ls", Deny, "sudo: root"},
	{"mkfs.ext4 /dev/x", Deny, "erases"},
	{"MKFS.EXT4 /dev/x", Deny, "erases"},

	// Interpreters: code on the command line or on stdin is denied.
	{"py x.py", Ask, "py needs approval"},
	{"py -m pytest", Ask, "py needs approval"},
	{"py", Deny, "reads code from standard input"},
	{"py - < x.py", Deny, "reads code from standard input"},
	{"py -c x", Deny, "code"},

	// Operands only with some options; require after --.
	{"branch", Allow, ""},
	{"branch -a", Allow, ""},
	{"branch --list 'f*'", Allow, ""},
	{"branch new", Ask, "takes operands only with --list"},
	{"cargo fmt -- --check", Allow, ""},

	// xargs -I replaces the command name too; env takes any NAME=VALUE.
	{"xargs -I{} {}", Deny, "glob"},
	{"env 'BAD=() { id; }' ls", Deny, "bad variable"},
	{"env 'x%%=1' ls", Ask, "x%% is not in the policy's [env] allow list"},

	// Directories: git -C and cd stay inside the project.
	{"git -C sub log", Allow, ""},
	{"git -C /project/sub log", Allow, ""},
	{"git -C /etc log", Ask, "outside the project"},
	{"git -C .. log", Ask, "outside the project"},
	{"cd sub", Allow, ""},
	{"cd /tmp", Ask, "outside the project"},
	{"cd sub && git -C .. log", Allow, ""},
	{"cd .. && git -C project log", Ask, "cd: .. is outside the project"},
	{"cd sub/.. && git -C sub log", Allow, ""},
	{"cd $x && git -C sub log", Ask, "parameter expansion"},

	// Redirections.
	{"ls > /dev/null 2>&1", Allow, ""},
	{"ls > out.txt", Ask, "redirection: writing out.txt: needs approval"},
	{"ls >> /etc/x", Deny, "outside the writable roots"},
	{"ls > ~/x", Deny, "outside the writable roots"},
	{"cd /usr && ls > x", Deny, "outside the writable roots"},
	{"ls > .git/config", Deny, "protected"},
	{"ls > .claude/settings.json", Deny, "protected"},
	{"ls > sub/.env", Deny, "secret"},
	{"ls < ~/.ssh/id_rsa", Deny, "secret"},
	{"ls < in.txt", Allow, ""},
	{"ls > /dev/tcp/1.2.3.4/80", Deny, "network"},
	{"ls < /dev/tcp/1.2.3.4/80", Deny, "network"},
	{"ls >& out", Ask, "redirection: writing out"},
	{"ls 2>&-", Allow, ""},
	{"> out", Deny, "a redirection without a command runs cat or a pager in zsh"},
	{"ls > $f", Deny, "not known until run time"},
	{"cat <<'EOF'\nx\nEOF", Ask, "no rule for cat"},
	{"echo <<EOF\nx\nEOF", Allow, ""},

	// Assignments and constructs.
	{"OK=1 ls", Allow, ""},
	{"LC_ALL=C ls", Allow, ""},
	{"BAD=1 ls", Deny, "bad variable"},
	{"X=1", Ask, "not in the policy's [env] allow list"},
	{"export OK=1; ls", Allow, ""},
	{"export GIT_DIR=x", Deny, "bad variable"},
	{"for GIT_DIR in x; do ls; done", Deny, "bad variable"},
	{"(ls)", Allow, ""},
	{"{ ls; }", Allow, ""},
	{"if ls; then pwd; fi", Allow, ""},
	{"echo $(ls)", Deny, "command substitution at 1:6 is not allowed by policy"},
	{"echo $HOME", Ask, "parameter expansion at 1:6 needs approval"},
	{"ls &", Ask, "a background job"},
	{"eval ls", Deny, "eval at 1:1 is never allowed"},
	{"f() { ls; }", Deny, "function"},
	{"$x", Deny, "a command name known only at run time at 1:1 is never allowed"},
	{"(( 1 ))", Deny, "arithmetic"},
	{"ls; rm -r x; ls", Deny, "recursive"},
	{"echo 'unclosed", Deny, "parse error"},
	{"ls \x00", Deny, "NUL"},
}

func testPolicyCompiled(t testing.TB) *policy.Policy {
	p, err := Load("test.toml", strings.NewReader(testPolicy))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDecide(t *testing.T) {
	p := testPolicyCompiled(t)
	seen := map[string]bool{}
	for _, tc := range decideTests {
		if seen[tc.cmd] {
			t.Fatalf("duplicate test %q", tc.cmd)
		}
		seen[tc.cmd] = true
		// An agent adapter protects its configuration, whatever the policy.
		d := Decide(p, Call{Tool: "Bash", Input: Input{Command: tc.cmd}, Cwd: "/project", Project: "/project", Home: "/home/u", AgentPaths: []string{"{project}/.claude/**"}})
		if d.Verdict != tc.want || !strings.Contains(d.Reason(), tc.why) {
			t.Errorf("input: %q\n got %s: %s\nwant %s: ...%s...", tc.cmd, d.Verdict, d.Reason(), tc.want, tc.why)
		}
		if d.Verdict == Allow {
			for _, l := range d.Leaves {
				if l.Verdict != Allow || l.Rule == "" {
					t.Errorf("input: %q: allowed, but leaf %+v is not a positive match", tc.cmd, l)
				}
			}
		}
	}
}

func TestTools(t *testing.T) {
	p := testPolicyCompiled(t)
	for _, tc := range []struct {
		tool  string
		input map[string]any
		cwd   string
		want  Verdict
		why   string
	}{
		{"Read", map[string]any{"file_path": "/x"}, "/project", Allow, "tool Read is allowed"},
		{"WebFetch", nil, "/project", Deny, "not allowed"},
		{"Teleport", nil, "/project", Ask, "not in the policy's [tools] table"},
		{"mcp__gh__get_issue", nil, "/project", Deny, "tools.mcp__gh__*"},
		{"mcp__other__x", nil, "/project", Ask, "needs approval"},
		{"Bash", map[string]any{"description": "no command"}, "/project", Deny, "no command string"},
		{"Bash", map[string]any{"command": 5}, "/project", Deny, "no command string"},
		{"Bash", map[string]any{"command": "ls"}, "relative", Deny, "not an absolute path"},
	} {
		d := Decide(p, Call{Tool: tc.tool, Input: testInput(tc.input), Cwd: tc.cwd, Project: "/project"})
		reason := d.Reason() + " " + d.Deciding().Rule
		if d.Verdict != tc.want || !strings.Contains(reason, tc.why) {
			t.Errorf("tool %s: got %s: %s; want %s: ...%s...", tc.tool, d.Verdict, reason, tc.want, tc.why)
		}
	}
	// With default = "deny", an unknown tool is denied.
	strict, err := Load("strict.toml", strings.NewReader("version = 1\ndefault = \"deny\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := Decide(strict, Call{Tool: "Teleport", Cwd: "/p"}); d.Verdict != Deny {
		t.Errorf("strict policy, unknown tool: %s", d.Verdict)
	}
}

func TestWildcard(t *testing.T) {
	for _, tc := range []struct {
		pattern, s string
		want       bool
	}{
		{"*", "", true},
		{"*", "abc", true},
		{"+*", "+main", true},
		{"+*", "main", false},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"*%G*", "%h %G?", true},
		{"*%G*", "%h", false},
		{"/", "/", true},
		{"/", "/x", false},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "aXbY", false},
		{strings.Repeat("*a", 20) + "b", strings.Repeat("a", 5000), false},
		// A backslash makes the byte after it stand for itself.
		{`\*`, "*", true},
		{`\*`, "README.md", false},
		{`:/\*`, ":/*", true},
		{`:/\*`, ":/src", false},
		{`a\?`, "a?", true},
		{`a\?`, "ab", false},
		{`*\*`, "x*", true},
		{`*\*`, "xy", false},
	} {
		if got := policy.Wildcard(tc.pattern, tc.s); got != tc.want {
			t.Errorf("wildcard(%q, %q) = %v, want %v", tc.pattern, tc.s, got, tc.want)
		}
	}
}
