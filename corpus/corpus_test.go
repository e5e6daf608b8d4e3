// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package corpus

import (
	"fmt"
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
	byVerdict := map[policy.Verdict]int{}
	for _, c := range cases {
		total++
		byVerdict[c.Want]++
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
	// The counts are pinned, not floored: a case that goes missing (a file
	// renamed out of the glob, a table that stops parsing) fails here as
	// surely as a case that is added. After adding or removing cases on
	// purpose, put the counts this test reports into want.
	want := corpusCount{Files: 39, Total: 2241, Allow: 723, Session: 0, Ask: 486, Deny: 1032, EverydayAllow: 211}
	got := corpusCount{Files: len(files), Total: total, Allow: byVerdict[policy.Allow], Session: byVerdict[policy.Session],
		Ask: byVerdict[policy.Ask], Deny: byVerdict[policy.Deny], EverydayAllow: everydayAllow}
	if got != want {
		t.Errorf("the corpus has %+v, want %+v: if testcases/ changed on purpose, put in TestCorpus (corpus/corpus_test.go)\n\twant := %s", got, want, got.literal())
	}
	t.Logf("%d cases in %d files, %d everyday commands allowed", total, len(files), everydayAllow)
}

// corpusCount is what TestCorpus counts in testcases/: its files, its
// cases, the cases of each verdict they want, and the allowed commands of
// everyday.toml.
type corpusCount struct {
	Files, Total, Allow, Session, Ask, Deny, EverydayAllow int
}

// literal is c as Go source, for TestCorpus's message.
func (c corpusCount) literal() string {
	return fmt.Sprintf("corpusCount{Files: %d, Total: %d, Allow: %d, Session: %d, Ask: %d, Deny: %d, EverydayAllow: %d}",
		c.Files, c.Total, c.Allow, c.Session, c.Ask, c.Deny, c.EverydayAllow)
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
