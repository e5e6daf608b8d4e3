// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"reflect"
	"strings"
	"testing"

	"guard/policy"
)

// TestLayersSayOnce: a project policy that adds nothing to the user's
// (guard init writes one: extends = "default") decides every call as the
// user's alone does, each part listed and its reason said once.
func TestLayersSayOnce(t *testing.T) {
	w := newPathWorld(t)
	user, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	project, err := Load("project.toml", strings.NewReader("version = 1\nextends = \"default\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	one := &policy.Layers{User: user}
	two := &policy.Layers{User: user, Project: project, ProjectSum: policy.Digest([]byte("x"))}
	for _, tc := range []struct {
		tool  string
		input map[string]any
		run   bool // guard run can run: an allowed shell call is rewritten
	}{
		{"Bash", map[string]any{"command": "go test ./..."}, true},
		{"Bash", map[string]any{"command": "go test ./..."}, false},
		{"Bash", map[string]any{"command": "git status && ls | head"}, true},
		{"Bash", map[string]any{"command": "git push --force"}, true}, // deny
		{"Bash", map[string]any{"command": "curl https://example.com"}, true},
		{"Bash", map[string]any{"command": "rm -rf /"}, true},
		{"Read", map[string]any{"file_path": w.proj + "/src/main.go"}, false},
		{"Read", map[string]any{"file_path": w.home + "/.ssh/id_rsa"}, false},
		{"Grep", map[string]any{"pattern": "x", "path": w.proj}, false},
		{"Write", map[string]any{"file_path": w.proj + "/src/new.go", "content": "x"}, false},
	} {
		t.Logf("input: %s %v", tc.tool, tc.input)
		call := w.call(tc.tool, tc.input)
		if tc.run {
			call.Run = []string{w.guard, "run"}
		}
		want, got := DecideLayers(one, call), DecideLayers(two, call)
		if got.Verdict != want.Verdict || got.Reason() != want.Reason() || !reflect.DeepEqual(got.Leaves, want.Leaves) {
			t.Errorf("two layers: %s: %s, %d parts; one layer: %s: %s, %d parts",
				got.Verdict, got.Reason(), len(got.Leaves), want.Verdict, want.Reason(), len(want.Leaves))
		}
	}
}

// TestAllowReasonOnce: an allowed call's reason names each part, and gives
// each why, once.
func TestAllowReasonOnce(t *testing.T) {
	cmd := func(text string) Leaf {
		return Leaf{Verdict: Allow, Kind: "command", Text: text, Why: text + " is allowed"}
	}
	path := func(why string) Leaf { return Leaf{Verdict: Allow, Kind: "path", Text: "/p/x", Why: why} }
	for _, tc := range []struct {
		leaves []Leaf
		want   string
	}{
		{[]Leaf{cmd("ls")}, "ls is allowed"},
		{[]Leaf{cmd("ls"), cmd("wc -l")}, "every part is allowed: ls; wc -l"},
		{[]Leaf{cmd("ls"), cmd("ls")}, "every part is allowed: ls"},
		{[]Leaf{cmd("go test ./..."), cmd("ls"), cmd("go test ./...")}, "every part is allowed: go test ./...; ls"},
		{[]Leaf{path("it is in the project"), path("it reads no secret")}, "it is in the project; it reads no secret"},
		{[]Leaf{path("it is in the project"), path("it is in the project")}, "it is in the project"},
	} {
		d := Decision{Verdict: Allow, Leaves: tc.leaves}
		if got := d.Reason(); got != tc.want {
			t.Errorf("%v: reason %q, want %q", tc.leaves, got, tc.want)
		}
	}
}
