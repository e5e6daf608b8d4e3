// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package corpus

import (
	"guard/engine"
	"guard/policy"
	"os"
	"path/filepath"
	"testing"
)

// TestCorpus decides every case of the behaviour corpus in testcases/ with
// the embedded default policy. Every deny case names the rule that must
// decide it.
func TestCorpus(t *testing.T) {
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	files, cases := corpusCases(t)
	total, everydayAllow := 0, 0
	for _, c := range cases {
		total++
		if filepath.Base(c.File) == "everyday.toml" && c.Want == engine.Allow {
			everydayAllow++
		}
		if c.Want == engine.Deny && c.Rule == "" {
			// A deny that no rule is pinned to passes whatever denies it,
			// a parse error included.
			t.Errorf("%s:%d: a deny case must name the rule that decides it (rule = \"...\", or \"default\")", c.File, c.Line)
		}
		if _, err := Check(&policy.Layers{User: p}, c); err != nil {
			t.Error(err)
		}
	}
	if total < 400 {
		t.Errorf("the corpus has %d cases; it should have at least 400", total)
	}
	if everydayAllow < 120 {
		t.Errorf("everyday.toml has %d allowed commands; it should have at least 120", everydayAllow)
	}
	t.Logf("%d cases in %d files, %d everyday commands allowed", total, len(files), everydayAllow)
}

// corpusCases reads the case files of testcases/ and returns their names
// and their cases.
func corpusCases(t *testing.T) ([]string, []Case) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "testcases", "*.toml"))
	var all []Case
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := LoadCases(name, src)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, cases...)
	}
	return files, all
}
