// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"guard/policy"
)

// fixture is an FS of a map: a call decided on it touches no real tree.
type fixture struct{ m fstest.MapFS }

func rel(name string) string {
	if name == "/" {
		return "."
	}
	return strings.TrimPrefix(name, "/")
}

func (f fixture) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(f.m, rel(name)) }
func (f fixture) Lstat(name string) (fs.FileInfo, error)     { return fs.Lstat(f.m, rel(name)) }
func (f fixture) Readlink(name string) (string, error)       { return fs.ReadLink(f.m, rel(name)) }
func (f fixture) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(f.m, rel(name)) }
func (f fixture) Open(name string) (fs.File, error)          { return f.m.Open(rel(name)) }

// fixtureWorld is the default policy and a tree that exists only in the
// calls' FS: a project with a link into the home's secrets and a .env, a
// home with a project of its own, and a /proc.
func fixtureWorld(t *testing.T) (*policy.Policy, FS) {
	t.Helper()
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	return p, fixture{fstest.MapFS{
		"proj/main.go":                 {Data: []byte("package main\n")},
		"proj/keys":                    {Mode: fs.ModeSymlink, Data: []byte("/fixture-home/.ssh")},
		"proj/notes":                   {Mode: fs.ModeSymlink, Data: []byte("docs")},
		"proj/docs/a.md":               {Data: []byte("a\n")},
		"proj/web/.env":                {Data: []byte("TOKEN=x\n")},
		"proj/web/index.js":            {Data: []byte("x\n")},
		"fixture-home/.ssh/id_ed":      {Data: []byte("secret\n")},
		"fixture-home/.bash_history":   {Data: []byte("export TOKEN=x\n")},
		"fixture-home/code/x.go":       {Data: []byte("package x\n")},
		"fixture-home/code/web/.env.a": {Data: []byte("TOKEN=x\n")},
		"proc/self/environ":            {Data: []byte("TOKEN=x\x00")},
		"proc/self/status":             {Data: []byte("Name: x\n")},
	}}
}

// TestFixtureFS decides calls on a tree that exists only in the call's FS:
// links into the home's secrets are followed there, and nowhere else.
func TestFixtureFS(t *testing.T) {
	p, tree := fixtureWorld(t)
	call := func(tool string, in Input) Call {
		return Call{Tool: tool, Input: in, Cwd: "/proj", Project: "/proj", Home: "/fixture-home", Temp: "/tmp", FS: tree}
	}
	for _, tc := range []struct {
		tool string
		in   Input
		want Verdict
	}{
		{"Read", Input{Path: "/proj/main.go"}, Allow},
		{"Read", Input{Path: "/proj/keys/id_ed"}, Deny},
		{"Bash", Input{Command: "cat keys/id_ed"}, Deny},
		{"Bash", Input{Command: "cat notes/a.md"}, Allow},
		{"Bash", Input{Command: "grep -r secret ."}, Ask}, // the walk meets the link to ~/.ssh: the secret is under it
		// A search tool reads every file under its path, hidden ones too,
		// as grep -r does: a tree with a secret under it is not allowed.
		{"Grep", Input{Path: "/proj", Pattern: "."}, Ask},   // the link to ~/.ssh, and web/.env
		{"Grep", Input{Pattern: "."}, Ask},                  // the working directory
		{"Grep", Input{Path: "web", Pattern: "."}, Ask},     // web/.env
		{"Grep", Input{Path: "keys", Pattern: "."}, Deny},   // the link to ~/.ssh itself
		{"Grep", Input{Path: "docs", Pattern: "."}, Allow},  // no secret under it
		{"Grep", Input{Path: "notes", Pattern: "."}, Allow}, // a link to docs
		{"Grep", Input{Path: "main.go", Pattern: "."}, Allow},
		{"Glob", Input{Path: "/proj", Pattern: "**/*"}, Allow}, // names only
	} {
		d := Decide(p, call(tc.tool, tc.in))
		if d.Verdict != tc.want {
			t.Errorf("%s %+v: %s: %s; want %s", tc.tool, tc.in, d.Verdict, d.Reason(), tc.want)
		}
		// On the real file system none of these paths exist, and the
		// link is not there to follow.
		if tc.in.Path == "/proj/keys/id_ed" {
			real := call(tc.tool, tc.in)
			real.FS = nil
			if d := Decide(p, real); d.Verdict != Allow {
				t.Errorf("on the OS: %s: %s; there /proj/keys is no link, and reading it is allowed", d.Verdict, d.Reason())
			}
		}
	}
}

// TestSearchGlobs: a search tool that reads as ripgrep with --hidden
// --no-follow does and takes its -g globs (Claude Code's Grep) is allowed
// over a tree that holds a .env, with globs that leave it out after its
// own; a secret of another shape under the tree still asks.
func TestSearchGlobs(t *testing.T) {
	p, tree := fixtureWorld(t)
	const out = "!**/.env !**/.env.*"
	for _, tc := range []struct {
		in       Input
		want     Verdict
		wantGlob string // the rewritten glob field; "" for no rewrite
	}{
		{Input{Pattern: "."}, Allow, out},                                        // web/.env left out; the link is not followed
		{Input{Path: "web", Pattern: "."}, Allow, out},                           // the same
		{Input{Path: "/proj", Pattern: ".", Glob: "*.js"}, Allow, "*.js " + out}, // the call's globs first: the later decides
		{Input{Path: "/proj", Pattern: ".", Glob: "**/.env"}, Allow, "**/.env " + out},
		{Input{Path: "main.go", Pattern: "."}, Allow, ""},     // a file: judged as that file
		{Input{Path: "keys", Pattern: "."}, Deny, ""},         // the link to ~/.ssh itself
		{Input{Path: "/fixture-home", Pattern: "."}, Ask, ""}, // ~/.ssh is under it: no name glob leaves it out
		{Input{Path: "/fixture-home/code", Pattern: "."}, Allow, out},
		{Input{Path: "/proc/self", Pattern: "."}, Ask, ""}, // /proc/**/environ reaches into it from above
		{Input{Path: "/proc", Pattern: "."}, Ask, ""},
	} {
		c := Call{Tool: "Grep", Input: tc.in, Cwd: "/proj", Project: "/proj", Home: "/fixture-home", Temp: "/tmp", FS: tree, SearchGlobs: true}
		d := Decide(p, c)
		got := ""
		if d.Rewrite != nil {
			got = d.Rewrite.Glob
			if want := (Input{Path: tc.in.Path, Pattern: tc.in.Pattern, Glob: got}); *d.Rewrite != want {
				t.Errorf("%+v: the rewrite changes more than the glob: %+v", tc.in, *d.Rewrite)
			}
		}
		if d.Verdict != tc.want || got != tc.wantGlob {
			t.Errorf("%+v: %s (glob %q): %s; want %s (glob %q)", tc.in, d.Verdict, got, d.Reason(), tc.want, tc.wantGlob)
		}
		// Without SearchGlobs the same call walks and asks where a secret is under it.
		c.SearchGlobs = false
		if d := Decide(p, c); d.Rewrite != nil || tc.wantGlob != "" && d.Verdict != Ask {
			t.Errorf("%+v without SearchGlobs: %s, rewrite %+v; want an ask and no rewrite", tc.in, d.Verdict, d.Rewrite)
		}
	}
	// Where the file system ignores case, so do the globs.
	saved := foldCase
	foldCase = true
	got := foldGlob(".env.*")
	foldCase = saved
	if got != ".[eE][nN][vV].*" {
		t.Errorf("foldGlob(.env.*) with case folded = %q", got)
	}
	// Two layers leave out both's secrets.
	a := &Input{Pattern: "x", Glob: "*.go !**/.env"}
	b := &Input{Pattern: "x", Glob: "*.go !**/.env !**/secret.txt"}
	if got := searchRewrite(a, b); got.Glob != "*.go !**/.env !**/secret.txt" || got.Pattern != "x" {
		t.Errorf("searchRewrite = %+v", got)
	}
	if searchRewrite(nil, b) != b || searchRewrite(a, nil) != a || searchRewrite(nil, nil) != nil {
		t.Errorf("searchRewrite of one rewrite is not that rewrite")
	}
}

// TestZeroEngine checks that a zero Engine denies.
func TestZeroEngine(t *testing.T) {
	var zero Engine
	if d := zero.Decide(Call{Tool: "Bash", Input: Input{Command: "true"}, Cwd: "/"}); d.Verdict != Deny {
		t.Errorf("zero engine: %s", d.Verdict)
	}
	e := Engine{Layers: &policy.Layers{}}
	if d := e.Decide(Call{Tool: "Bash", Input: Input{Command: "git status"}, Cwd: "/project", Project: "/project"}); d.Verdict != Allow {
		t.Errorf("an engine of empty layers (the default policy): git status is %s", d.Verdict)
	}
}

// TestListPattern judges where a list call's glob pattern reaches, not
// only its path: an absolute pattern, a .. out of the path, ~, and braces
// around paths.
func TestListPattern(t *testing.T) {
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, pattern string
		want          Verdict
	}{
		{"", "**/*.go", Allow},
		{"/proj", "src/*.{ts,tsx}", Allow},
		{"/proj", "{src,test}/**/*.go", Allow},
		{"", "/fixture-home/.ssh/*", Deny},
		{"", "../fixture-home/.ssh/*", Deny},
		{"/proj/src", "../../fixture-home/.ssh/**", Deny},
		{"", "~/.ssh/*", Deny},
		{"", "*/../../fixture-home/.ssh/*", Deny},
		{"", "{/fixture-home/.ssh,src}/*", Deny},
		{"", "{..,src}/*", Deny},
		{"", "{src/*", Deny},
		{"", "/usr/include/*.h", Allow},
	} {
		c := Call{Tool: "Glob", Input: Input{Path: tc.path, Pattern: tc.pattern}, Cwd: "/proj", Project: "/proj", Home: "/fixture-home", Temp: "/tmp"}
		if d := Decide(p, c); d.Verdict != tc.want {
			t.Errorf("Glob path %q pattern %q: %s: %s; want %s", tc.path, tc.pattern, d.Verdict, d.Reason(), tc.want)
		}
	}
}

// TestFetch judges URLs by the [fetch] table: allow patterns match the URL
// without its query, user info is refused, and anything unlisted gets the
// unlisted verdict, deny unless the policy says.
func TestFetch(t *testing.T) {
	p, err := policy.LoadUnchecked("fetch.toml", strings.NewReader(`
version = 1
default = "deny"
[tools]
WebFetch = "fetch"
[fetch]
allow = ["https://go.dev/**", "https://pkg.go.dev/github.com/*"]
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		url  string
		want Verdict
	}{
		{"https://go.dev/doc/", Allow},
		{"https://go.dev/doc/?q=x#y", Allow},
		{"https://pkg.go.dev/github.com/x", Allow},
		{"https://pkg.go.dev/github.com/x/y", Deny},
		{"https://go.dev.example.com/", Deny},
		{"https://user@go.dev/", Deny},
		{"http://go.dev/", Deny},
		{"ftp://go.dev/", Deny},
		{"go.dev/doc", Deny},
		{"", Deny},
	} {
		d := Decide(p, Call{Tool: "WebFetch", Input: Input{URL: tc.url}, Cwd: "/project"})
		if d.Verdict != tc.want {
			t.Errorf("%q: %s: %s; want %s", tc.url, d.Verdict, d.Reason(), tc.want)
		}
	}
	if _, err := policy.LoadUnchecked("bad.toml", strings.NewReader("version = 1\ndefault = \"deny\"\n[fetch]\nallow = [\"go.dev/**\"]\n")); err == nil {
		t.Error("a fetch pattern without a scheme loads")
	}
	ask, err := policy.LoadUnchecked("ask.toml", strings.NewReader("version = 1\ndefault = \"deny\"\n[fetch]\nunlisted = \"ask\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := Decide(ask, Call{Kind: KindFetch, Input: Input{URL: "https://example.com/"}, Cwd: "/project"}); d.Verdict != Ask {
		t.Errorf("unlisted = ask: %s: %s", d.Verdict, d.Reason())
	}
}

// TestKindAndTool checks that a call naming both its kind and its tool
// (as a harness's call may) is held to what the policy says of the tool.
func TestKindAndTool(t *testing.T) {
	p, err := policy.LoadUnchecked("tools.toml", strings.NewReader(`
version = 1
default = "deny"
[tools]
Bash = "shell"
Peek = "read"
Banned = "deny"
Asked = "ask"
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kind Kind
		tool string
		in   Input
		want Verdict
	}{
		{KindRead, "Peek", Input{Path: "/project/a"}, Allow},
		{KindRead, "", Input{Path: "/project/a"}, Allow},
		{KindRead, "Banned", Input{Path: "/project/a"}, Deny},
		{KindRead, "Asked", Input{Path: "/project/a"}, Ask},
		{KindRead, "Bash", Input{Path: "/project/a"}, Deny},
		{KindRead, "Unlisted", Input{Path: "/project/a"}, Allow},
		{KindTool, "Peek", Input{}, Deny},
		{"bogus", "Peek", Input{Path: "/project/a"}, Deny},
	} {
		d := Decide(p, Call{Kind: tc.kind, Tool: tc.tool, Input: tc.in, Cwd: "/project", Project: "/project"})
		if d.Verdict != tc.want {
			t.Errorf("%s %q: %s: %s; want %s", tc.kind, tc.tool, d.Verdict, d.Reason(), tc.want)
		}
	}
}

// TestDeadline: a decision past its deadline denies instead of going on
// through the commands of the script; before it, the deadline changes
// nothing.
func TestDeadline(t *testing.T) {
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	call := Call{Kind: KindShell, Tool: "Bash", Input: Input{Command: "git status && ls"}, Cwd: "/project", Project: "/project", Home: "/home/u"}
	call.Deadline = time.Now().Add(-time.Millisecond)
	d := Decide(p, call)
	if d.Verdict != Deny || len(d.Leaves) != 1 || d.Leaves[0].Rule != "deadline" {
		t.Errorf("past the deadline: %s with leaves %+v, want one deadline deny", d.Verdict, d.Leaves)
	}
	call.Deadline = time.Now().Add(time.Hour)
	if d := Decide(p, call); d.Verdict != Allow {
		t.Errorf("before the deadline: %s, want allow: %s", d.Verdict, d.Reason())
	}
}

// TestReadOnlySandbox: in read-only mode the read-only shell commands are
// allowed where the sandbox runs, rewritten to run in its read-only form;
// where it cannot, the shell is denied unless the policy says
// read_only_shell; what writes is denied either way.
func TestReadOnlySandbox(t *testing.T) {
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	layers := &policy.Layers{User: p}
	call := func(command string, run []string) Call {
		c := ExampleCall(command)
		c.Tool, c.Kind, c.ReadOnly, c.Run, c.NoRun = "Bash", "", true, run, "no Landlock here"
		return c
	}
	run := []string{"/usr/local/bin/guard", "run", "--read-only"}
	d := DecideLayers(layers, call("git status", run))
	if d.Verdict != Allow || d.Rewrite == nil || !strings.Contains(d.Rewrite.Command, "'--read-only' -- bash") {
		t.Errorf("with the sandbox: %s, rewrite %+v; want allow in the read-only sandbox", d.Verdict, d.Rewrite)
	}
	if d := DecideLayers(layers, call("touch x", run)); d.Verdict != Deny {
		t.Errorf("touch with the sandbox: %s, want deny", d.Verdict)
	}
	d = DecideLayers(layers, call("git status", nil))
	if d.Verdict != Deny || d.Rewrite != nil || !strings.Contains(d.Reason(), "no Landlock here") {
		t.Errorf("without the sandbox: %s, %s; want deny, saying why", d.Verdict, d.Reason())
	}
	review, err := policy.Builtin("review") // read_only_shell
	if err != nil {
		t.Fatal(err)
	}
	if d := DecideLayers(&policy.Layers{User: review}, call("git status", nil)); d.Verdict != Allow || d.Rewrite != nil {
		t.Errorf("review without the sandbox: %s, rewrite %+v; want allow as judged", d.Verdict, d.Rewrite)
	}
}

// TestAnchorReachesInto: whether a secret pattern that starts above a
// directory may match a path under it.
func TestAnchorReachesInto(t *testing.T) {
	for _, tc := range []struct {
		lit, pattern, root string
		want               bool
	}{
		{"/proc", "/proc/**/environ", "/proc/self", true},
		{"/proc", "/proc/**/environ", "/proc/1/task", true},
		{"/h", "/h/.*_history", "/h/code", false},       // one level under the home: not under its directories
		{"/h", "/h/.*_history", "/h/.x_history", false}, // the secret itself: the path check's
		{"/h", "/h/.*/token", "/h/.cfg", true},          // /h/.cfg/token
		{"/h", "/h/.*/token", "/h/code", false},         // code is no .*
		{"/h", "/h/.*/token", "/h/.cfg/sub", false},     // below the pattern's depth
		{"/h/.ssh", "/h/.ssh/**", "/h/.ssh/keys", true},
		{"/", "/*/secret", "/srv", true},
		{"/", "/*/secret", "/srv/x", false},
		{"/etc/shadow", "/etc/shadow", "/etc/shadow/x", true}, // a secret file with a tree under it
		{"/proc", "/proc/**/environ", "/srv", false},
		{"/proc", "/proc/**/environ", "/proc", false}, // the anchor itself: the callers' own case
		{"/h", "/h/[/token", "/h/x", true},            // a bad pattern may match anything
	} {
		if got := (anchor{tc.lit, tc.pattern}).reachesInto(tc.root); got != tc.want {
			t.Errorf("anchor %s (%s) reaches into %s = %v, want %v", tc.lit, tc.pattern, tc.root, got, tc.want)
		}
	}
}
