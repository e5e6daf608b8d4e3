// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"guard/policy"
)

// wildcards are what a path pattern's globs are, for catalogueFiles to
// make a plain name of.
var wildcards = regexp.MustCompile(`\*\*|\*|\?|\[[^]]*\]`)

// catalogueFiles returns a file for each path of the catalogue of secrets
// that is in the home or in a directory an environment variable names
// ({$CODEX_HOME}), relative to the jail's root, each holding a line of its
// own; and the variables, each naming a directory of the home or outside.
func catalogueFiles(t *testing.T, j jail) (files map[string]string, env []string) {
	t.Helper()
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	files = map[string]string{}
	vars := map[string]string{}
	for _, s := range p.Secrets() {
		for i, pat := range s.Paths {
			rel, ok := strings.CutPrefix(pat, "~/")
			if ok {
				rel = "home/" + rel
			} else if names := policy.PatternEnv(pat); len(names) == 1 && strings.HasPrefix(pat, policy.EnvPlaceholder(names[0])+"/") {
				// XDG's in the home, a tool's own outside it.
				dir := "outside/" + names[0]
				if strings.HasPrefix(names[0], "XDG_") {
					dir = "home/xdg/" + names[0]
				}
				vars[names[0]] = dir
				rel = dir + strings.TrimPrefix(pat, policy.EnvPlaceholder(names[0]))
			} else {
				continue
			}
			rel = wildcards.ReplaceAllStringFunc(rel, func(g string) string {
				if strings.HasPrefix(g, "[") && len(g) > 2 && g[1] != '!' && g[1] != '^' {
					return g[1:2]
				}
				return "x"
			})
			files[rel] = fmt.Sprintf("guard-secret-%s-%d\n", s.Name, i)
		}
	}
	root := filepath.Dir(j.home)
	for name, dir := range vars {
		env = append(env, name+"="+filepath.Join(root, dir))
	}
	return files, env
}

// TestJailCatalogue: no file of the catalogue of secrets in the home, or
// where a tool's variable points, can be read inside guard run, in any
// built-in profile: unconfined, the same script prints them.
func TestJailCatalogue(t *testing.T) {
	t.Parallel() // independent of the other tests: its own temp dirs and processes
	j := newJail(t, nil)
	files, env := catalogueFiles(t, j)
	if len(files) < 100 {
		t.Fatalf("the catalogue gives %d files in a home", len(files))
	}
	root := filepath.Dir(j.home)
	var script strings.Builder
	for rel, data := range files {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&script, "cat %q 2>/dev/null\n", p)
	}
	script.WriteString("grep -rh guard-secret- ~ 2>/dev/null\ntrue\n")
	_, out := j.bashPlain(t, env, script.String())
	if n := strings.Count(out, "guard-secret-"); n < len(files) {
		t.Fatalf("unconfined, the script printed %d of the %d files: %s", n, len(files), out)
	}
	for _, args := range [][]string{nil, {"--read-only"}, {"--profile", "build"}, {"--profile", "test"}} {
		code, out := j.bashJailed(t, env, script.String(), args...)
		if strings.Contains(out, "guard-secret-") {
			t.Errorf("guard run %v: a secret of the catalogue was read (exit %d):\n%s", args, code, out)
		}
	}
}
