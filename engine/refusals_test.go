// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"os"
	"path/filepath"
	"testing"

	"guard/policy"
)

// maxHint bounds a hint: a hint names the alternative, never a list.
const maxHint = 200

// TestRefusalsSayWhatToDo: every command of the NL2Bash corpus that the
// default policy asks about or denies gets a hint, and a short one.
func TestRefusalsSayWhatToDo(t *testing.T) {
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	refused, bad := 0, 0
	for _, cmd := range explainCommands(t) {
		d := Decide(p, Call{Kind: KindShell, Input: Input{Command: cmd}, Cwd: dir, Home: filepath.Join(dir, "home"), Shell: "bash"})
		if d.Verdict == Allow {
			continue
		}
		refused++
		l := d.Deciding()
		switch h := d.Hint(); {
		case h == "":
			t.Errorf("%q: %s (%s: %s) without a hint", cmd, d.Verdict, l.Rule, l.Why)
			bad++
		case len(h) > maxHint:
			t.Errorf("%q: the hint has %d bytes, more than %d: %s", cmd, len(h), maxHint, h)
			bad++
		}
		if bad > 30 {
			t.Fatal("too many failures")
		}
	}
	if refused < 1000 {
		t.Fatalf("only %d commands refused: the test reads too little", refused)
	}
}
