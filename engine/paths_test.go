// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"

	"guard/policy"
)

// pathWorld is a project and a home directory on disk, with links that
// lead out of the project, onto a protected file, onto a secret, and to
// nowhere.
type pathWorld struct {
	proj, home, tmp, guard string
}

func newPathWorld(t *testing.T) pathWorld {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := pathWorld{
		proj:  filepath.Join(root, "proj"),
		home:  filepath.Join(root, "home"),
		tmp:   filepath.Join(root, "tmp"),
		guard: filepath.Join(root, "bin", "guard"),
	}
	for _, d := range []string{"proj/src", "proj/.git", "home/.ssh/keys", "tmp", "bin", "outside/deep"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"proj/src/main.go", "proj/.git/config", "home/.ssh/id_rsa", "proj/.env", "bin/guard", "outside/file"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"proj/out":      filepath.Join(root, "outside"),       // a directory outside the project
		"proj/cfg":      filepath.Join(w.proj, ".git/config"), // a protected file
		"proj/key":      filepath.Join(w.home, ".ssh/id_rsa"), // a secret
		"proj/dangling": filepath.Join(w.proj, "missing"),     // nothing
		"proj/up":       "..",                                 // the parent, relatively
		"proj/keys":     filepath.Join(w.home, ".ssh/keys"),   // a directory in a secret one
		"proj/deep":     filepath.Join(root, "outside/deep"),  // a directory outside, one level down
	}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(root, l)); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w pathWorld) call(tool string, input map[string]any) Call {
	return Call{Tool: tool, Input: testInput(input), Cwd: w.proj, Project: w.proj, Home: w.home, Temp: w.tmp, Guard: w.guard}
}

func TestPathRules(t *testing.T) {
	w := newPathWorld(t)
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	P := func(s string) string {
		return strings.NewReplacer("PROJ", w.proj, "HOME", w.home, "TMP", w.tmp, "GUARD", w.guard).Replace(s)
	}
	for _, tc := range []struct {
		tool  string
		field string
		path  string
		want  Verdict
		why   string
	}{
		// Writes: inside the project ask (the default policy's [paths] write).
		{"Write", "file_path", "PROJ/src/new.go", Ask, "writing"},
		{"Edit", "file_path", "PROJ/src/main.go", Ask, "writing"},
		{"MultiEdit", "file_path", "PROJ/src/main.go", Ask, "writing"},
		{"NotebookEdit", "notebook_path", "PROJ/n.ipynb", Ask, "writing"},
		{"Write", "file_path", "TMP/scratch.txt", Ask, "writing"},
		{"Write", "file_path", "src/relative.go", Ask, "writing"},
		// ... and never outside the writable roots, through .., ~ or a link.
		{"Write", "file_path", "PROJ/src/../../x", Deny, "outside the writable roots"},
		{"Write", "file_path", "PROJ/up/x", Deny, "outside the writable roots"},
		{"Write", "file_path", "PROJ/out/file", Deny, "outside the writable roots"},
		{"Write", "file_path", "~/x", Deny, "outside the writable roots"},
		{"Write", "file_path", "/etc/passwd", Deny, "outside the writable roots"},
		{"Write", "file_path", "PROJ/dangling", Deny, "dangling link"},
		// Protected paths, also reached through a link.
		{"Write", "file_path", "PROJ/.git/config", Deny, "protected"},
		{"Edit", "file_path", "PROJ/cfg", Deny, "protected"},
		{"Write", "file_path", "PROJ/.claude/settings.json", Deny, "protected"},
		{"Write", "file_path", "PROJ/.claude/settings.local.json", Deny, "protected"},
		{"Write", "file_path", "PROJ/.claude/guard.toml", Deny, "protected"},
		{"Write", "file_path", "PROJ/.claude/hooks/check.sh", Deny, "protected"},
		{"Write", "file_path", "PROJ/.github/workflows/ci.yml", Deny, "protected"},
		{"Write", "file_path", "PROJ/sub/.gitattributes", Deny, "protected"},
		{"Write", "file_path", "PROJ/.cargo/config.toml", Deny, "protected"},
		{"Write", "file_path", "PROJ/rust-toolchain.toml", Deny, "protected"},
		{"Write", "file_path", "PROJ/.mcp.json", Deny, "protected"},
		{"Write", "file_path", "GUARD", Deny, "protected"},
		{"Edit", "file_path", "HOME/.bashrc", Deny, "protected"},
		// Reads: anything but the secrets, also reached through a link.
		{"Read", "file_path", "PROJ/src/main.go", Allow, "reading"},
		{"Read", "file_path", "/etc/hostname", Allow, "reading"},
		{"Read", "file_path", "PROJ/.env", Deny, "secret"},
		{"Read", "file_path", "PROJ/config/.env.production", Deny, "secret"},
		{"Read", "file_path", "HOME/.ssh/id_rsa", Deny, "secret"},
		{"Read", "file_path", "~/.aws/credentials", Deny, "secret"},
		{"Read", "file_path", "PROJ/key", Deny, "secret"},
		{"Read", "file_path", "/proc/self/environ", Deny, "secret"},
		{"Grep", "path", "HOME/.ssh", Deny, "secret"},
		{"Glob", "path", "PROJ/src", Allow, "reading"},
		{"LS", "path", "PROJ", Allow, "reading"},
		{"NotebookRead", "notebook_path", "PROJ/n.ipynb", Allow, "reading"},
	} {
		call := w.call(tc.tool, map[string]any{tc.field: P(tc.path)})
		d := Decide(p, call)
		if d.Verdict != tc.want || !strings.Contains(d.Reason(), tc.why) {
			t.Errorf("%s %s: got %s: %s; want %s: ...%s...", tc.tool, tc.path, d.Verdict, d.Reason(), tc.want, tc.why)
		}
	}
	// A file tool without its path field is denied; Grep without a path
	// searches the cwd, which holds .env and a link to ~/.ssh/id_rsa: it
	// would print their lines, so it asks, as grep -r does.
	if d := Decide(p, w.call("Write", map[string]any{"content": "x"})); d.Verdict != Deny {
		t.Errorf("Write without file_path: %s", d.Verdict)
	}
	if d := Decide(p, w.call("Grep", map[string]any{"pattern": "x"})); d.Verdict != Ask || !strings.Contains(d.Reason(), "holds the secret") {
		t.Errorf("Grep without path: %s: %s", d.Verdict, d.Reason())
	}
	if d := Decide(p, w.call("Grep", map[string]any{"pattern": "x", "path": "src"})); d.Verdict != Allow {
		t.Errorf("Grep of src: %s: %s", d.Verdict, d.Reason())
	}
}

func TestShellPaths(t *testing.T) {
	w := newPathWorld(t)
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	bash := func(cmd string) Call { return w.call("Bash", map[string]any{"command": cmd}) }
	decideTable(t, p, bash, []decideCase{
		{"echo x > src/out.txt", Ask, "writing src/out.txt"},
		{"echo x > out/file", Deny, "outside the writable roots"},
		{"echo x > cfg", Deny, "protected"},
		{"echo x > dangling", Deny, "dangling link"},
		{"cd / && echo x > etc/passwd", Deny, "outside the writable roots"},
		{"cd src && echo x > ../../x", Deny, "outside the writable roots"},
		{"cd $D && echo x > y", Deny, "cannot be resolved"},
		{"cat < key", Deny, "secret"},
		{"cat key", Deny, "secret"},
		{"head -n 3 .env", Deny, "secret"},
		{"cd / && cat etc/shadow", Deny, "secret"},
		{"cat ~/.ssh/*", Deny, "secret"},
		{"cat src/*.go", Allow, ""},
		{"cat .e*", Ask, "could match a secret path"},
		{"cat ~/.ss?/id_rsa", Ask, "could match a secret path"},
		{"cat ~/.ss*/*", Ask, "could match a secret path"},
		{"cat /etc/shad*", Ask, "could match a secret path"},
		{"cat k*", Deny, "secret"},
		{"cat o*/f*", Allow, ""},
		{"rm src/main.go", Ask, "rm needs approval"},
		{"rm cfg", Deny, "protected"},
		{"rm ~/.bashrc", Deny, "protected"},
		{"touch out/x", Deny, "outside the writable roots"},
		{"cp key stolen", Deny, "secret"},
		{"cp src/main.go .git/hooks/pre-commit", Deny, "protected"},
		{"mv src/main.go -t /etc", Deny, "outside the writable roots"},
		{"ln -s ~/.ssh/id_rsa k", Deny, "secret"},
		{"tee -a ~/.profile", Deny, "protected"},
		{"sort -o /etc/x f", Deny, "writes to a file"},
		{"git -C out status", Ask, "outside the project"},
		// cd -P, and cd -L when the lexical directory does not exist, go
		// to the parent of where a link points.
		{"cd -P keys/.. && cat id_rsa", Deny, "secret"},
		{"cd keys/../keys && cat ../id_rsa", Deny, "secret"},
		{"cd keys/.. && ls", Deny, "a secret directory"},
		{"cd keys && ls", Deny, "a secret directory"},
		{"cd src/.. && cat src/main.go", Allow, ""},
		{"env -C keys/.. cat id_rsa", Deny, "secret"},
		{"go build -C deep/.. ./...", Ask, "outside the project"},
		{"git -C deep/.. status", Ask, "outside the project"},
		{"go build -C src/.. ./...", Allow, ""},
		// Options and outputs that name files.
		{"cd .git && go build ../src", Deny, "protected"},
		{"go build ./...", Allow, ""},
		{"go test -coverprofile=.claude/settings.json ./...", Deny, "protected"},
		{"diff --from-file key src/main.go", Deny, "secret"},
		{"column key", Deny, "secret"},
		{"gofmt -l ~/.ssh", Deny, "secret"},
		{"tree --fromfile key", Deny, "secret"},
		{"file -z src/main.go", Deny, "decompressors"},
		{"git diff --no-index key src/main.go", Deny, "secret"},
		{"git diff --no-index src/main.go src/x.go", Ask, "secret ones too"},
		// Recursive readers over a tree that holds a secret (.env, the link key).
		{"grep -r TODO .", Ask, "holds the secret"},
		{"grep -rn TODO src", Allow, ""},
		{"grep --directories=recurse TODO .", Ask, "holds the secret"},
		{"rg TODO", Ask, "holds the secret"}, // the links key and keys reach ~/.ssh
		{"rg TODO src", Allow, ""},
		{"tree", Ask, "holds the secret"},
		{"ls -R", Ask, "holds the secret"},
		{"ls -R src", Allow, ""},
		{"diff -r src out", Allow, ""},
		{"diff -r src .", Ask, "holds the secret"},
		{"grep TODO src/main.go", Allow, ""},
		// What xargs and find -exec pass is judged too.
		{"echo key | xargs cat", Ask, "named on standard input"},
		{"find . -name '*.go' -exec cat {} +", Ask, "holds the secret"},
		{"find src -exec cat {} +", Allow, ""},
		{"find keys -exec cat {} +", Deny, "secret"},
		{"find ~/.ssh -name id_rsa", Deny, "secret"},
		{"find out -exec cat {} \\;", Allow, ""},
	})
}

// TestEveryTool decides a call of every tool the default policy names, and
// of an invented one, in normal and in read-only mode.
func TestEveryTool(t *testing.T) {
	w := newPathWorld(t)
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string]map[string]any{
		"Bash": {"command": "git status"}, "Monitor": {"command": "git status"},
		"Read": {"file_path": w.proj + "/src/main.go"}, "NotebookRead": {"notebook_path": w.proj + "/n.ipynb"},
		"Grep": {"pattern": "x", "path": w.proj + "/src"}, "Glob": {"pattern": "*.go"}, "LS": {"path": w.proj},
		"Write": {"file_path": w.proj + "/x", "content": ""}, "Edit": {"file_path": w.proj + "/x"},
		"MultiEdit": {"file_path": w.proj + "/x"}, "NotebookEdit": {"notebook_path": w.proj + "/n.ipynb"},
	}
	readOnlyAllowed := map[string]bool{"Read": true, "NotebookRead": true, "Grep": true, "Glob": true, "LS": true,
		"TodoWrite": true, "AskUserQuestion": true, "ExitPlanMode": true, "EnterPlanMode": true, "ToolSearch": true,
		"update_todo": true, "ask_user": true, "report_intent": true, "write_todos": true, "todo_write": true, "todowrite": true}
	tools := append((&policy.Layers{User: p}).ToolNames(), "Teleport", "mcp__github__create_issue")
	if len(tools) < 45 {
		t.Fatalf("the default policy names only %d tools", len(tools))
	}
	for _, tool := range tools {
		in := inputs[tool]
		if in == nil {
			in = map[string]any{}
		}
		want, _ := p.ToolTier(tool)
		d := Decide(p, w.call(tool, in))
		switch want {
		case policy.TierAllow:
			if d.Verdict != Allow {
				t.Errorf("%s: %s: %s; its tier allows it", tool, d.Verdict, d.Reason())
			}
		case policy.TierDeny:
			if d.Verdict == Allow {
				t.Errorf("%s: allowed; its tier denies it", tool)
			}
		case policy.TierAsk, policy.TierSession:
			if d.Verdict != Ask {
				t.Errorf("%s: %s: %s; its tier asks", tool, d.Verdict, d.Reason())
			}
		}
		ro := w.call(tool, in)
		ro.ReadOnly = true
		d = Decide(p, ro)
		switch {
		case readOnlyAllowed[tool] && want != policy.TierDeny && d.Verdict != Allow:
			t.Errorf("read-only mode: %s: %s: %s; want allow", tool, d.Verdict, d.Reason())
		case !readOnlyAllowed[tool] && d.Verdict != Deny:
			t.Errorf("read-only mode: %s: %s: %s; want deny", tool, d.Verdict, d.Reason())
		case !d.ReadOnly:
			t.Errorf("read-only mode: %s: the decision does not say read-only", tool)
		}
	}
}

func TestReadOnlyShell(t *testing.T) {
	w := newPathWorld(t)
	review, err := policy.Builtin("review")
	if err != nil {
		t.Fatal(err)
	}
	readonly, err := policy.Builtin("readonly")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd            string
		review, readon Verdict
	}{
		{"git status", Allow, Deny},
		{"git log --oneline | head -5", Allow, Deny},
		{"rg TODO src | wc -l", Allow, Deny},
		{"find src -name '*.go' -exec grep -l x {} +", Allow, Deny},
		{"timeout 5 git diff", Allow, Deny},
		{"bash -c 'ls -la'", Allow, Deny},
		{"go test ./...", Deny, Deny},
		{"cargo build", Deny, Deny},
		{"git commit -m x", Deny, Deny},
		{"gradle test", Deny, Deny},
		{"ls > out.txt", Deny, Deny},
		{"find . -exec rm {} +", Deny, Deny},
		{"touch x", Deny, Deny},
		{"echo $HOME", Allow, Deny}, // a read-only variable, an operand of echo
		{"echo $SECRET_TOKEN", Deny, Deny},
	} {
		for _, pc := range []struct {
			p    *policy.Policy
			want Verdict
		}{{review, tc.review}, {readonly, tc.readon}} {
			d := Decide(pc.p, w.call("Bash", map[string]any{"command": tc.cmd}))
			if d.Verdict != pc.want || !d.ReadOnly {
				t.Errorf("%s: %q: got %s (read-only %v): %s; want %s", pc.p.Name(), tc.cmd, d.Verdict, d.ReadOnly, d.Reason(), pc.want)
			}
		}
	}
	// The review profile as a project's policy, over a user's policy that
	// says nothing of read-only mode: its read_only_shell holds for both
	// layers, with no sandbox, as where it stands alone. A user's policy
	// that is read-only itself keeps its own word.
	def, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	strict, err := Load("strict.toml", strings.NewReader("version = 1\nextends = \"default\"\nread_only = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		user *policy.Policy
		cmd  string
		want Verdict
	}{
		{def, "git status", Allow},
		{def, "rg TODO src | wc -l", Allow},
		{def, "touch x", Deny},
		{strict, "git status", Deny},
	} {
		call := w.call("Bash", map[string]any{"command": tc.cmd})
		if d := DecideLayers(&policy.Layers{User: tc.user, Project: review}, call); d.Verdict != tc.want || !d.ReadOnly {
			t.Errorf("user %s, project review: %q: %s (read-only %v): %s; want %s", tc.user.Name(), tc.cmd, d.Verdict, d.ReadOnly, d.Reason(), tc.want)
		}
	}
	// The refactor profile lets edits in the project run without asking.
	refactor, err := policy.Builtin("refactor")
	if err != nil {
		t.Fatal(err)
	}
	if d := Decide(refactor, w.call("Edit", map[string]any{"file_path": w.proj + "/src/main.go"})); d.Verdict != Allow {
		t.Errorf("refactor: Edit in the project: %s: %s", d.Verdict, d.Reason())
	}
	if d := Decide(refactor, w.call("Edit", map[string]any{"file_path": w.proj + "/.git/config"})); d.Verdict != Deny {
		t.Errorf("refactor: Edit of .git/config: %s: %s", d.Verdict, d.Reason())
	}
}

func TestLayers(t *testing.T) {
	w := newPathWorld(t)
	project, err := Load("project.toml", strings.NewReader(`
version = 1
default = "ask"
[tools]
Bash = "shell"
WebFetch = "allow"
[command.gradle]
verdict = "allow"
[command.git]
verdict = "deny"
reason = "not here"
`))
	if err != nil {
		t.Fatal(err)
	}
	user, err := Load("user.toml", strings.NewReader("version = 1\nextends = \"default\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	const sum = "0123456789012345678901234567890123456789012345678901234567890123"
	trusting, err := Load("trusting.toml", strings.NewReader("version = 1\nextends = \"default\"\ntrust = [\"sha256:"+sum+"\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	readonly, err := policy.Builtin("readonly")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		layers policy.Layers
		tool   string
		input  map[string]any
		want   Verdict
	}{
		{"project alone cannot allow gradle", policy.Layers{Project: project, ProjectSum: sum}, "Bash", map[string]any{"command": "gradle test"}, Ask},
		{"project cannot allow WebFetch", policy.Layers{User: user, Project: project, ProjectSum: sum}, "WebFetch", map[string]any{"url": "x"}, Deny},
		{"project can deny git", policy.Layers{User: user, Project: project, ProjectSum: sum}, "Bash", map[string]any{"command": "git status"}, Deny},
		{"a trusted project allows gradle", policy.Layers{User: trusting, Project: project, ProjectSum: sum}, "Bash", map[string]any{"command": "gradle test"}, Allow},
		{"trust is by digest", policy.Layers{User: trusting, Project: project, ProjectSum: strings.Repeat("f", 64)}, "Bash", map[string]any{"command": "gradle test"}, Ask},
		{"a read-only user policy holds for the project", policy.Layers{User: readonly, Project: project, ProjectSum: sum}, "Bash", map[string]any{"command": "gradle test"}, Deny},
		{"no project: the user policy", policy.Layers{User: user}, "Bash", map[string]any{"command": "git status"}, Allow},
	} {
		d := DecideLayers(&tc.layers, w.call(tc.tool, tc.input))
		if d.Verdict != tc.want {
			t.Errorf("%s: got %s: %s; want %s", tc.name, d.Verdict, d.Reason(), tc.want)
		}
	}
}

func TestRealPath(t *testing.T) {
	w := newPathWorld(t)
	loop := filepath.Join(w.proj, "loop")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in, want, err string
	}{
		{w.proj + "/src/main.go", w.proj + "/src/main.go", ""},
		{w.proj + "/src/new/file", w.proj + "/src/new/file", ""},
		{w.proj + "/out/file", filepath.Dir(w.proj) + "/outside/file", ""},
		{w.proj + "/up/home", filepath.Dir(w.proj) + "/home", ""},
		{w.proj + "/out/../proj/x", filepath.Dir(w.proj) + "/proj/x", ""}, // .. after a link: the target's parent
		{w.proj + "/src/main.go/x", w.proj + "/src/main.go/x", ""},
		{w.proj + "/dangling", "", "dangling link"},
		{loop + "/x", "", "too many levels of symbolic links"},
	} {
		got, err := realPath(OS, tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("realPath(%q): error %v, want %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("realPath(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestLiteralRun checks the filter in front of doublestar: a path that a
// pattern matches always contains its literal run and lies in its literal
// directory. The patterns are the default policy's, expanded for a call,
// and tricky forms; the paths include a match of each.
func TestLiteralRun(t *testing.T) {
	for _, tc := range []struct{ pattern, want string }{
		{"**/.env", ".env"},
		{"**/.env.*", ".env."},
		{"/home/u/.ssh/**", "home/u/.ssh"},
		{"a/**/b", "a"},
		{"**/*.pem", ".pem"},
		{"**/id_{rsa,ed25519}*", "id_"},
		{"**/[.]git/config", ""},
		{`**/\*x`, ""},
		{"*", ""},
		{"{home}/.ssh/**", ".ssh"},
		{"~/.config/gh/hosts.yml", ".config/gh/hosts.yml"},
		{"{project}/.git/hooks/**", ".git/hooks"},
		{"{home}x/{unknown}/abc", "x"},
	} {
		if got := policy.LiteralRun(tc.pattern); got != tc.want {
			t.Errorf("LiteralRun(%q) = %q, want %q", tc.pattern, got, tc.want)
		}
	}
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	d := &decider{p: p, fsys: OS, call: Call{Cwd: "/project", Project: "/project", Home: "/home/u", Temp: "/tmp"}}
	paths := []string{"/project/.env", ".env", "/home/u/.ssh", "/home/u/.ssh/id_rsa", "/project/a/b/c.pem",
		"/home/u/.aws/credentials", "/project/.git/config", "/project/.git", "/project", "/tmp/x",
		"/home/u/.config/gcloud/application_default_credentials.json", "/home/u/.netrc", "/home/u/.docker/config.json",
		"/project/.claude/settings.json", "/home/u/.claude/settings.json", "/home/u/.bashrc", "/home/u/.zshenv",
		"/project/src/.env.local", "/home/u/.gnupg/private-keys-v1.d/x.key", "/project/secrets/id_ed25519"}
	patterns := append(append(append([]string{}, p.SecretPaths()...), p.ProtectedPaths()...), p.WritablePaths()...)
	patterns = append(patterns, "a/**/b", "**/id_{rsa,ed25519}*", "**/[.]git/config", `**/\*x`)
	paths = append(paths, "a/b", "/project/a/b", "/x/id_ed25519.pub", "/r/.git/config", "/r/*x")
	matched := 0
	for _, pat := range patterns {
		lit := d.literal(pat, false)
		for _, e := range d.expand(pat) {
			for _, path := range paths {
				m, _ := doublestar.Match(e.pattern, path)
				if !m {
					continue
				}
				matched++
				if !strings.Contains(path, e.literal) || !strings.Contains(path, lit) || e.prefix != "" && !inDir(path, e.prefix) {
					t.Errorf("%q matches %q, but the filter (literals %q and %q, directory %q) passes it over", e.pattern, path, lit, e.literal, e.prefix)
				}
			}
		}
	}
	if matched < 20 {
		t.Errorf("only %d pattern and path pairs match: the test checks too little", matched)
	}
}
