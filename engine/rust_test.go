// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"guard/internal/testnote"
	"guard/policy"
)

// rustPolicy is the default policy with the rust pack, which has the
// rules for rustc, rustfmt, rustdoc and rustup.
func rustPolicy(t *testing.T) *policy.Policy {
	t.Helper()
	p, err := Load("rust.toml", strings.NewReader("version = 1\nextends = \"default\"\ninclude = [\"rust\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// rustCall is a Bash call in dir of the project /proj, where the sandbox
// runs (run) or cannot.
func rustCall(command, dir string, fsys FS, run bool) Call {
	c := Call{Tool: "Bash", Input: Input{Command: command}, Cwd: dir, Project: "/proj", Home: "/home/user", Temp: "/tmp", Shell: "bash", FS: fsys,
		NoRun: "no user namespaces here"}
	if run {
		c.Run = []string{"/usr/local/bin/guard", "run"}
	}
	return c
}

// TestRustToolchain: a rust-toolchain or rust-toolchain.toml file in the
// directory a rustup proxy starts in, or any directory above it, picks the
// program that runs: the command runs only in the sandbox (in the build
// profile, or its rule's own), and where the sandbox cannot run it asks,
// naming the file. Without one, what only reads runs as it did.
func TestRustToolchain(t *testing.T) {
	tree := fixture{fstest.MapFS{
		"proj/plain/Cargo.toml":                {Data: []byte("[package]\nname = \"plain\"\n")},
		"proj/plain/src/main.rs":               {Data: []byte("fn main() {}\n")},
		"proj/pinned/rust-toolchain.toml":      {Data: []byte("[toolchain]\npath = \"/opt/evil\"\n")},
		"proj/pinned/crate/src/main.rs":        {Data: []byte("fn main() {}\n")},
		"proj/channel/rust-toolchain":          {Data: []byte("1.80\n")},
		"proj/both/rust-toolchain":             {Data: []byte("stable\n")},
		"proj/both/rust-toolchain.toml":        {Data: []byte("[toolchain]\nchannel = \"nightly\"\n")},
		"proj/dir/rust-toolchain/x":            {Data: []byte("a directory, which rustup cannot read\n")},
		"proj/dir/rust-toolchain.toml/x":       {Data: []byte("a directory too\n")},
		"proj/linked/rust-toolchain.toml":      {Mode: fs.ModeSymlink, Data: []byte("../pinned/rust-toolchain.toml")},
		"proj/viaLink":                         {Mode: fs.ModeSymlink, Data: []byte("pinned/crate")},
		"proj/components/rust-toolchain.toml":  {Data: []byte("[toolchain]\ncomponents = [\"rustfmt\"]\n")},
		"proj/pinned/crate/sub/rust-toolchain": {Mode: fs.ModeDir},
	}}
	p := rustPolicy(t)
	for _, tc := range []struct {
		dir, cmd string
		// The verdict where the sandbox runs, the profile it runs in
		// (guard run's flag), and the verdict where it cannot.
		run     Verdict
		profile string
		noRun   Verdict
		file    string // the file the ask names; "" when it asks for no file
	}{
		// No toolchain file: cargo --version only reads.
		{"plain", "cargo --version", Allow, "--read-only", Allow, ""},
		{"plain", "cargo", Allow, "--read-only", Allow, ""},
		{"plain", "cargo build", Allow, "build", Ask, ""},
		{"plain", "rustc --version", Allow, "build", Ask, ""},
		{"plain", "rustfmt --check src/main.rs", Allow, "--read-only", Ask, ""},
		{"plain", "rustup --version", Allow, "--read-only", Allow, ""},
		{"plain", "rustdoc --version", Allow, "--read-only", Allow, ""},
		// A path toolchain, found from the directory and above.
		{"pinned", "cargo --version", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		{"pinned/crate", "cargo --version", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		{"pinned/crate", "cargo version", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		{"pinned/crate", "cargo --list", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		{"pinned/crate", "cargo build", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		{"pinned/crate", "cargo test", Allow, "test", Ask, "/proj/pinned/rust-toolchain.toml"},
		{"pinned/crate", "cargo fmt --check", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		{"pinned/crate", "rustc -V", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		{"pinned/crate", "rustc --print sysroot", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		{"pinned/crate", "rustdoc --version", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		{"pinned/crate", "rustup --version", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		{"pinned/crate", "rustup show", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		{"pinned/crate", "rustfmt --check src/main.rs", Allow, "--read-only", Ask, "/proj/pinned/rust-toolchain.toml"}, // its own profile
		{"pinned/crate/sub", "cargo --version", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},               // a directory named rust-toolchain is passed over
		{"pinned/crate", "env RUST_BACKTRACE=1 cargo --version", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		{"pinned/crate", "nice cargo --version", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		// Where it runs is where cd and a link take it.
		{"plain", "cd ../pinned && cargo --version", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		{"pinned", "cd ../plain && cargo --version", Allow, "--read-only", Allow, ""},
		{"viaLink", "cargo --version", Allow, "build", Ask, "/proj/pinned/rust-toolchain.toml"},
		// A channel, components, both files (rustup reads rust-toolchain),
		// a link to a file: rustup downloads or runs what they name.
		{"channel", "cargo --version", Allow, "build", Ask, "/proj/channel/rust-toolchain"},
		{"components", "cargo --version", Allow, "build", Ask, "/proj/components/rust-toolchain.toml"},
		{"both", "cargo --version", Allow, "build", Ask, "/proj/both/rust-toolchain"},
		{"linked", "cargo --version", Allow, "build", Ask, "/proj/linked/rust-toolchain.toml"},
		// Directories by those names are no toolchain files.
		{"dir", "cargo --version", Allow, "--read-only", Allow, ""},
		// +TOOLCHAIN names one in any directory.
		{"plain", "cargo +/opt/evil --version", Deny, "", Deny, ""},
		{"plain", "rustc +/opt/evil -V", Deny, "", Deny, ""},
		{"plain", "rustfmt +nightly --check src/main.rs", Deny, "", Deny, ""},
		{"plain", "rustup +/opt/evil show", Deny, "", Deny, ""},
		// What writes still asks.
		{"plain", "rustfmt src/main.rs", Ask, "", Ask, ""},
		{"pinned", "rustfmt src/main.rs", Ask, "", Ask, "/proj/pinned/rust-toolchain.toml"},
	} {
		t.Logf("input: %q in %s", tc.cmd, tc.dir)
		layers := &policy.Layers{User: p}
		d := DecideLayers(layers, rustCall(tc.cmd, "/proj/"+tc.dir, tree, true))
		switch {
		case d.Verdict != tc.run:
			t.Errorf("%s: %q with the sandbox: got %s: %s; want %s", tc.dir, tc.cmd, d.Verdict, d.Reason(), tc.run)
		case tc.run == Allow && (d.Rewrite == nil || !strings.Contains(d.Rewrite.Command, "'"+tc.profile+"' -- bash")):
			t.Errorf("%s: %q with the sandbox: rewrite %+v; want it in %s", tc.dir, tc.cmd, d.Rewrite, tc.profile)
		}
		d = DecideLayers(layers, rustCall(tc.cmd, "/proj/"+tc.dir, tree, false))
		switch {
		case d.Verdict != tc.noRun:
			t.Errorf("%s: %q without the sandbox: got %s: %s; want %s", tc.dir, tc.cmd, d.Verdict, d.Reason(), tc.noRun)
		case d.Rewrite != nil:
			t.Errorf("%s: %q without the sandbox: rewritten to %q", tc.dir, tc.cmd, d.Rewrite.Command)
		case tc.file != "" && (!strings.Contains(d.Reason(), tc.file) || !strings.Contains(d.Reason(), "no user namespaces here")):
			t.Errorf("%s: %q without the sandbox: %s; want the reason to name %s and why the sandbox cannot run", tc.dir, tc.cmd, d.Reason(), tc.file)
		case tc.file == "" && strings.Contains(d.Reason(), "rust-toolchain"):
			t.Errorf("%s: %q without the sandbox: %s; want no toolchain file named", tc.dir, tc.cmd, d.Reason())
		}
	}
}

// TestRustToolchainIOErrors: a toolchain file guard cannot look at, for
// any reason but its absence, is taken for one that picks the program.
func TestRustToolchainIOErrors(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(root, "proj")
	write(t, filepath.Join(proj, "src/main.rs"), "fn main() {}\n")
	p := rustPolicy(t)
	call := Call{Tool: "Bash", Input: Input{Command: "cargo --version"}, Cwd: proj, Project: proj, Temp: filepath.Join(root, "tmp"), NoRun: "no sandbox"}
	layers := &policy.Layers{User: p}
	if d := DecideLayers(layers, call); d.Verdict != Allow {
		t.Fatalf("cargo --version with nothing failing: got %s: %s", d.Verdict, d.Reason())
	}
	for _, tc := range []struct {
		name string
		stat map[string]error
	}{
		{"rust-toolchain cannot be stat'd", map[string]error{filepath.Join(proj, "rust-toolchain"): syscall.EIO}},
		{"rust-toolchain.toml unreadable", map[string]error{filepath.Join(proj, "rust-toolchain.toml"): syscall.EACCES}},
		{"a file above cannot be stat'd", map[string]error{filepath.Join(root, "rust-toolchain.toml"): syscall.EIO}},
	} {
		c := call
		c.FS = faultyFS{stat: tc.stat}
		if d := DecideLayers(layers, c); d.Verdict != Ask || !strings.Contains(d.Reason(), "guard cannot look at") {
			t.Errorf("%s: cargo --version: got %s: %s; want ask, saying guard cannot look", tc.name, d.Verdict, d.Reason())
		}
	}
}

// rustWorld finds rustup's proxies for the tests that run them (in
// bubblewrap, with a home of their own), else skips: CI has bubblewrap
// but no rustup. It returns the directory of the proxies and rustup's
// home, which holds the installed toolchains.
func rustWorld(t *testing.T) (bin, rustupHome string) {
	t.Helper()
	home, _ := os.UserHomeDir()
	bin = os.Getenv("CARGO_HOME")
	if bin == "" && home != "" {
		bin = filepath.Join(home, ".cargo")
	}
	bin = filepath.Join(bin, "bin")
	if p, err := exec.LookPath("rustup"); err == nil {
		bin = filepath.Dir(p)
	}
	rustupHome = os.Getenv("RUSTUP_HOME")
	if rustupHome == "" && home != "" {
		rustupHome = filepath.Join(home, ".rustup")
	}
	for _, f := range []string{filepath.Join(bin, "rustup"), filepath.Join(bin, "cargo"), filepath.Join(bin, "rustfmt"), filepath.Join(rustupHome, "toolchains")} {
		if _, err := os.Stat(f); err != nil {
			// Not a failure under GUARD_ORACLE=require: rustup is no
			// tool the oracle installs.
			msg := "guard/engine: SKIPPED " + t.Name() + ": no rustup here: " + err.Error()
			testnote.Print(msg)
			t.Skip(msg)
		}
	}
	scratchWorld(t, "bwrap", "", "") // skips where bubblewrap cannot run
	return bin, rustupHome
}

// bwrapRun runs a program for real in bubblewrap: the system read-only,
// root writable, its own /tmp, no network, and HOME in root.
func bwrapRun(t *testing.T, root, dir string, env []string, argv ...string) string {
	t.Helper()
	args := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
		"--bind", root, root, "--unshare-all", "--die-with-parent", "--chdir", dir, "--clearenv",
		"--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", filepath.Join(root, "home")}
	for _, e := range env {
		name, val, _ := strings.Cut(e, "=")
		args = append(args, "--setenv", name, val)
	}
	out, _ := exec.Command("bwrap", append(append(args, "--"), argv...)...).CombinedOutput()
	return string(out)
}

// TestRustToolchainReal: a rust-toolchain.toml whose [toolchain] path
// names a directory makes the real cargo proxy run that directory's
// bin/cargo, for cargo --version; guard runs the call only in the
// sandbox, and asks where the sandbox cannot run.
func TestRustToolchainReal(t *testing.T) {
	bin, _ := rustWorld(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj, evil, marker := filepath.Join(root, "proj"), filepath.Join(root, "evil"), filepath.Join(root, "marker")
	write(t, filepath.Join(root, "home/.keep"), "")
	write(t, filepath.Join(proj, "Cargo.toml"), "[package]\nname = \"x\"\nversion = \"0.1.0\"\n")
	write(t, filepath.Join(proj, "src/main.rs"), "fn main() {}\n")
	write(t, filepath.Join(evil, "bin/cargo"), "#!/bin/sh\necho \"the project's cargo ran: $*\" > '"+marker+"'\necho cargo 9.9.9\n")
	if err := os.Chmod(filepath.Join(evil, "bin/cargo"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	layers := &policy.Layers{User: p}
	call := func(run bool) Call {
		c := Call{Tool: "Bash", Input: Input{Command: "cargo --version"}, Cwd: proj, Project: proj, Home: filepath.Join(root, "home"),
			Temp: filepath.Join(root, "tmp"), Shell: "bash", NoRun: "no user namespaces here"}
		if run {
			c.Run = []string{"/usr/local/bin/guard", "run"}
		}
		return c
	}
	// Without the file, the proxy runs rustup's own toolchain (none in
	// this home), and guard runs cargo --version as it would anywhere.
	out := bwrapRun(t, root, proj, nil, filepath.Join(bin, "cargo"), "--version")
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("without a toolchain file the project's cargo ran: %s", out)
	}
	if d := DecideLayers(layers, call(false)); d.Verdict != Allow {
		t.Errorf("no toolchain file, no sandbox: got %s: %s; want allow", d.Verdict, d.Reason())
	}
	write(t, filepath.Join(proj, "rust-toolchain.toml"), "[toolchain]\npath = \""+evil+"\"\n")
	out = bwrapRun(t, root, proj, nil, filepath.Join(bin, "cargo"), "--version")
	data, err := os.ReadFile(marker)
	if err != nil || !strings.Contains(string(data), "the project's cargo ran: --version") {
		t.Fatalf("unconfined, cargo --version did not run the toolchain the file names (the attack did not work): %v %s", err, out)
	}
	t.Logf("unconfined: %s", strings.TrimSpace(out))
	d := DecideLayers(layers, call(true))
	if d.Verdict != Allow || d.Rewrite == nil || !strings.Contains(d.Rewrite.Command, "'--profile' 'build' -- bash") {
		t.Errorf("with the sandbox: got %s, rewrite %+v; want allow, in the build profile", d.Verdict, d.Rewrite)
	}
	d = DecideLayers(layers, call(false))
	if d.Verdict != Ask || !strings.Contains(d.Reason(), filepath.Join(proj, "rust-toolchain.toml")) {
		t.Errorf("without the sandbox: got %s: %s; want ask, naming the file", d.Verdict, d.Reason())
	}
	t.Logf("without the sandbox: %s: %s", d.Verdict, d.Reason())
}

// TestRustfmtPathReal: a #[path] attribute makes the real rustfmt --check
// open a file anywhere on disk and quote its first line in its parse
// error; guard runs rustfmt only in the read-only sandbox, and asks where
// the sandbox cannot run.
func TestRustfmtPathReal(t *testing.T) {
	bin, rustupHome := rustWorld(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj, outside := filepath.Join(root, "proj"), filepath.Join(root, "outside/notes.txt")
	const line = "the-outside-line-7f3a is no rust"
	write(t, filepath.Join(root, "home/.keep"), "")
	write(t, outside, line+"\nsecond line\n")
	write(t, filepath.Join(proj, "src/main.rs"), "#[path = \""+outside+"\"]\nmod x;\n\nfn main() {}\n")
	env := []string{"RUSTUP_HOME=" + rustupHome}
	if out := bwrapRun(t, root, proj, env, filepath.Join(bin, "rustfmt"), "--version"); !strings.HasPrefix(out, "rustfmt ") {
		msg := "guard/engine: SKIPPED " + t.Name() + ": rustfmt does not run here: " + out
		testnote.Print(msg)
		t.Skip(msg)
	}
	out := bwrapRun(t, root, proj, env, filepath.Join(bin, "rustfmt"), "--check", "src/main.rs")
	if !strings.Contains(out, line) {
		t.Fatalf("unconfined, rustfmt --check did not quote the outside file (the attack did not work): %s", out)
	}
	t.Logf("unconfined: %s", strings.TrimSpace(out))
	p := rustPolicy(t)
	layers := &policy.Layers{User: p}
	call := Call{Tool: "Bash", Input: Input{Command: "rustfmt --check src/main.rs"}, Cwd: proj, Project: proj, Home: filepath.Join(root, "home"),
		Temp: filepath.Join(root, "tmp"), Shell: "bash", Run: []string{"/usr/local/bin/guard", "run"}}
	d := DecideLayers(layers, call)
	if d.Verdict != Allow || d.Rewrite == nil || !strings.Contains(d.Rewrite.Command, "'--read-only' -- bash") {
		t.Errorf("with the sandbox: got %s, rewrite %+v; want allow, in the read-only sandbox", d.Verdict, d.Rewrite)
	}
	call.Run, call.NoRun = nil, "no user namespaces here"
	d = DecideLayers(layers, call)
	if d.Verdict != Ask || !slices.ContainsFunc(d.Leaves, func(l Leaf) bool { return l.Kind == "sandbox" }) {
		t.Errorf("without the sandbox: got %s: %s; want ask, for the sandbox", d.Verdict, d.Reason())
	}
	t.Logf("without the sandbox: %s: %s", d.Verdict, d.Reason())
}
