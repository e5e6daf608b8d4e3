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

// catalogueHome is a home on disk for the catalogue's tests, and the
// environment its entries' {$NAME} placeholders read: each variable names
// a directory of its own in the home.
type catalogueHome struct {
	root, home, proj string
}

func newCatalogueHome(t *testing.T) catalogueHome {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := catalogueHome{root: root, home: filepath.Join(root, "home"), proj: filepath.Join(root, "proj")}
	for _, d := range []string{h.home, h.proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func (h catalogueHome) getenv(name string) string { return filepath.Join(h.home, "env", name) }

func (h catalogueHome) call(tool string, in Input) Call {
	return Call{Tool: tool, Input: in, Cwd: h.proj, Project: h.proj, Home: h.home, Temp: filepath.Join(h.root, "tmp"),
		Guard: filepath.Join(h.root, "bin", "guard"), Getenv: h.getenv}
}

// concrete returns a path the pattern matches in the home h, with its
// placeholders replaced and each wildcard made a plain name: a pattern of
// any directory (**/.env) in a directory of the home.
func (h catalogueHome) concrete(t *testing.T, pat string) (path, expanded string) {
	t.Helper()
	e := pat
	if rest, ok := strings.CutPrefix(e, "~/"); ok {
		e = h.home + "/" + rest
	}
	if rest, ok := strings.CutPrefix(e, "**/"); ok {
		e = h.home + "/any/" + rest
	}
	for _, name := range policy.PatternEnv(e) {
		e = strings.ReplaceAll(e, policy.EnvPlaceholder(name), h.getenv(name))
	}
	var b strings.Builder
	for i := 0; i < len(e); i++ {
		switch c := e[i]; c {
		case '*', '?':
			if strings.HasPrefix(e[i:], "**") {
				i++
			}
			b.WriteString("x")
		case '[':
			j := strings.IndexByte(e[i:], ']')
			if j < 0 {
				t.Fatalf("%s: an unclosed class", pat)
			}
			class := e[i+1 : i+j]
			if class == "" || class[0] == '!' || class[0] == '^' {
				t.Fatalf("%s: the test makes no name for the class [%s]", pat, class)
			}
			b.WriteByte(class[0])
			i += j
		case '\\':
			i++
			b.WriteByte(e[i])
		default:
			b.WriteByte(c)
		}
	}
	path = b.String()
	if ok, err := doublestar.Match(e, path); err != nil || !ok {
		t.Fatalf("%s: the test's path %s does not match %s (%v)", pat, path, e, err)
	}
	return path, e
}

// TestCatalogue: every path of every entry of the catalogue of secrets is
// refused to cat, the Read tool and the Grep tool, in the default mode
// and read-only mode, in every built-in profile, with or without the
// sandbox; the refusal names the entry's tool.
func TestCatalogue(t *testing.T) {
	t.Parallel() // the package's slowest under -race; pure, or in its own temp dir
	h := newCatalogueHome(t)
	def, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	entries := def.Secrets()
	if len(entries) < 100 {
		t.Fatalf("the catalogue has %d entries", len(entries))
	}
	type probe struct{ entry, pat, path string }
	var probes []probe
	for _, s := range entries {
		for _, pat := range s.Paths {
			p, _ := h.concrete(t, pat)
			if strings.HasPrefix(p, h.home+"/") {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			probes = append(probes, probe{s.Name, pat, p})
		}
	}
	for _, profile := range policy.Profiles() {
		p, err := policy.Builtin(profile)
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range probes {
			for _, c := range []Call{
				h.call("Bash", Input{Command: "cat " + shellQuote(pr.path)}),
				h.call("Read", Input{Path: pr.path}),
				h.call("Grep", Input{Pattern: "token", Path: pr.path}),
			} {
				for _, mode := range []struct {
					readOnly bool
					run      []string
				}{{false, nil}, {true, nil}, {false, []string{"/usr/local/bin/guard", "run"}}, {true, []string{"/usr/local/bin/guard", "run"}}} {
					c.ReadOnly, c.Run = mode.readOnly, mode.run
					d := Decide(p, c)
					if d.Verdict != Deny {
						t.Errorf("%s, read-only %v, sandbox %v: %s %s of %s (%s): %s: %s; want deny", profile, mode.readOnly, mode.run != nil, c.Tool, pr.path, pr.entry, pr.pat, d.Verdict, d.Reason())
						continue
					}
					if c.Tool == "Bash" && d.ReadOnly && c.Run == nil {
						continue // read-only mode without the sandbox refuses every shell call first
					}
					pat, _ := strings.CutPrefix(d.Deciding().Rule, "paths.secret ")
					if sec, ok := p.SecretOf(pat); !ok || !strings.Contains(d.Reason(), sec.Tool) {
						t.Errorf("%s: %s %s: the refusal does not name the entry %s: %s", profile, c.Tool, pr.path, pr.entry, d.Reason())
					}
				}
			}
		}
	}
}

// TestCatalogueLeavesEverydayFiles: what tools read to run, and what an
// agent reads to work, is in no entry of the catalogue.
func TestCatalogueLeavesEverydayFiles(t *testing.T) {
	h := newCatalogueHome(t)
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{
		".gitconfig", ".config/git/config", ".config/git/ignore", ".ssh.txt", ".docker/buildx/instances", ".npm/_cacache/index",
		".cargo/registry/index/x", "go/pkg/mod/cache/x", ".cache/go-build/x", ".claude/settings.json", ".codex/config.toml",
		".gemini/settings.json", ".config/gh/config.yml", ".kube.md", ".rustup/settings.toml", ".local/bin/tool",
		".config/nvim/init.lua", ".bashrc", "notes.txt", "env/XDG_CONFIG_HOME/nvim/init.lua",
	} {
		path := filepath.Join(h.home, rel)
		d := Decide(p, h.call("Read", Input{Path: path}))
		if d.Verdict != Allow {
			t.Errorf("Read %s: %s: %s; want allow", path, d.Verdict, d.Reason())
		}
	}
	for _, path := range []string{"/etc/ssh/ssh_config", "/etc/ssh/ssh_host_ed25519_key.pub", "/etc/passwd", "/usr/include/stdio.h"} {
		d := Decide(p, h.call("Read", Input{Path: path}))
		if d.Verdict != Allow {
			t.Errorf("Read %s: %s: %s; want allow", path, d.Verdict, d.Reason())
		}
	}
}

// TestCatalogueEnv: a {$NAME} path follows the variable where it points,
// and matches nothing where it is unset or relative.
func TestCatalogueEnv(t *testing.T) {
	h := newCatalogueHome(t)
	p, err := Load("p.toml", strings.NewReader(`version = 1
extends = "default"
[[secret]]
name = "tool"
tool = "Some Tool"
holds = "its token"
paths = ["{$TOOL_HOME}/token"]
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env, path string
		want      Verdict
	}{
		{"/opt/tool", "/opt/tool/token", Deny},
		{"/opt/tool/", "/opt/tool/token", Deny},
		{"/opt/tool", "/opt/other/token", Allow},
		{"", "/opt/tool/token", Allow},
		{"rel/tool", h.proj + "/rel/tool/token", Allow},
	} {
		c := h.call("Read", Input{Path: tc.path})
		c.Getenv = func(name string) string {
			if name == "TOOL_HOME" {
				return tc.env
			}
			return ""
		}
		if d := Decide(p, c); d.Verdict != tc.want {
			t.Errorf("TOOL_HOME=%q: Read %s: %s: %s; want %s", tc.env, tc.path, d.Verdict, d.Reason(), tc.want)
		} else if tc.want == Deny && !strings.Contains(d.Reason(), "Some Tool: its token") {
			t.Errorf("TOOL_HOME=%q: Read %s: the reason names no entry: %s", tc.env, tc.path, d.Reason())
		}
	}
}

// shellQuote quotes s for the shell as one word.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
