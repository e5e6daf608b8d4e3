// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// loadPacks loads a policy that includes packs, over base ("" for none).
func loadPacks(t *testing.T, base string, packs ...string) *Policy {
	t.Helper()
	src := "version = 1\n"
	if base != "" {
		src += fmt.Sprintf("extends = %q\n", base)
	} else {
		src += "default = \"ask\"\n"
	}
	src += "include = [\"" + strings.Join(packs, "\", \"") + "\"]\n"
	p, err := LoadUnchecked("p.toml", strings.NewReader(src))
	if err != nil {
		t.Fatalf("%v:\n%s", err, src)
	}
	return p
}

// TestPacksCompile: every pack compiles over the default policy, over each
// profile, and on its own (a pack refers to no rule of the default), and
// all of them together; each carries examples, at their lines in the
// pack's file.
func TestPacksCompile(t *testing.T) {
	for _, name := range Packs() {
		for _, base := range append([]string{"", "default"}, Profiles()[1:]...) {
			p := loadPacks(t, base, name)
			for _, err := range p.CompileAll() {
				t.Errorf("pack %s over %q: %v", name, base, err)
			}
		}
		p := loadPacks(t, "default", name)
		if got := p.Included(); len(got) != 1 || got[0] != name {
			t.Errorf("pack %s: Included() = %v", name, got)
		}
		var desc strings.Builder
		p.Describe(&desc)
		if !strings.Contains(desc.String(), "\n  packs: "+name+"\n") {
			t.Errorf("pack %s: Describe does not name it:\n%s", name, desc.String())
		}
		file := packFileName(name)
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		ix := indexKeys(src)
		n := 0
		for _, ex := range p.Examples() {
			if ex.File != file {
				t.Errorf("pack %s: example %q of %s is from %q, want %s: the default's examples are dropped", name, ex.Command, ex.Rule, ex.File, file)
				continue
			}
			n++
			if want, _ := ix.pos(ex.key); ex.Line != want || want == 0 {
				t.Errorf("pack %s: example %q of %s: line %d, want %d", name, ex.Command, ex.Rule, ex.Line, want)
			}
		}
		if n < 3 {
			t.Errorf("pack %s has %d examples; every pack says what it allows and what not", name, n)
		}
	}
	all := loadPacks(t, "default", Packs()...)
	for _, err := range all.CompileAll() {
		t.Errorf("every pack: %v", err)
	}
}

// TestIncludeErrors: an unknown pack, or one named twice, is an error at
// the include key's line; a pack is named with the nearest if one is close.
func TestIncludeErrors(t *testing.T) {
	for _, tc := range []struct{ src, msg string }{
		{"version = 1\nextends = \"default\"\ninclude = [\"dockr\"]\n", `p.toml:3:1: include: there is no pack "dockr" (want one of go, rust, node, python, docker, kubernetes, github, terraform, aws); did you mean "docker"?`},
		{"version = 1\nextends = \"default\"\n\ninclude = [\"go\", \"go\"]\n", `p.toml:4:1: include: pack "go" is included twice`},
		{"version = 1\ninclude = [\"nonesuch\"]\ndefault = \"ask\"\n", `p.toml:2:1: include: there is no pack "nonesuch" (want one of go, rust, node, python, docker, kubernetes, github, terraform, aws)`},
		{"version = 1\nextends = \"default\"\ninclude = \"go\"\n", `p.toml:3:1: incompatible types: TOML value has type string; destination has type slice`},
	} {
		_, err := LoadUnchecked("p.toml", strings.NewReader(tc.src))
		var pe *Error
		if !errors.As(err, &pe) || err.Error() != tc.msg {
			t.Errorf("%q: error %v, want %s", tc.src, err, tc.msg)
		}
	}
}

// TestIncludeOwnRulesWin: the including file's rule for a program replaces
// the pack's whole, and the pack's examples for it go with it.
func TestIncludeOwnRulesWin(t *testing.T) {
	src := "version = 1\nextends = \"default\"\ninclude = [\"docker\"]\n[command.docker]\nverdict = \"deny\"\nreason = \"not here\"\n"
	p, err := LoadUnchecked("p.toml", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Command("docker")
	if err != nil || r == nil || r.verdict != Deny || r.HasSubs() {
		t.Fatalf("docker: %+v, %v: want the file's own deny, without the pack's subcommands", r, err)
	}
	for _, ex := range p.Examples() {
		if strings.HasPrefix(ex.Rule, "docker") {
			t.Errorf("the pack's example %q of %s is kept, though the file replaces the rule", ex.Command, ex.Rule)
		}
	}
}

// TestMergeRule: a pack adds subcommands under a base rule, replaces a bare
// one, and may not change one that checks anything or denies, nor shadow
// a pattern rule.
func TestMergeRule(t *testing.T) {
	sub := func(names ...string) map[string]ruleFile {
		m := map[string]ruleFile{}
		for _, n := range names {
			m[n] = ruleFile{Verdict: "allow"}
		}
		return m
	}
	base := mapSource(map[string]ruleFile{
		"tool":    {Flags: []string{"-v"}, Deny: []escalationFile{{Flags: []string{"-x"}, Reason: "r"}}, Sub: map[string]ruleFile{"run": {Verdict: "ask"}, "rm": {Verdict: "deny"}, "ls": {Verdict: "allow", Flags: []string{"-l"}}}},
		"bare":    {Verdict: "ask", Reason: "why", Hint: "how"},
		"strict":  {Verdict: "ask", Deny: []escalationFile{{Flags: []string{"-f"}, Reason: "r"}}},
		"mkfs.*":  {Verdict: "deny"},
		"denied":  {Verdict: "deny"},
		"options": {Verdict: "ask", Options: map[string]valueSpec{"-o": {Type: "path"}}},
	}, false)
	for _, tc := range []struct {
		name string
		cmds map[string]ruleFile
		err  string
	}{
		{"a new program", map[string]ruleFile{"new": {Verdict: "allow"}}, ""},
		{"new subcommands", map[string]ruleFile{"tool": {Sub: sub("new", "other")}}, ""},
		{"a bare subcommand replaced", map[string]ruleFile{"tool": {Sub: sub("run")}}, ""},
		{"a bare program replaced", map[string]ruleFile{"bare": {Verdict: "allow", Flags: []string{"-q"}}}, ""},
		{"a denied subcommand", map[string]ruleFile{"tool": {Sub: sub("rm")}}, "tool rm would replace"},
		{"a subcommand with options", map[string]ruleFile{"tool": {Sub: sub("ls")}}, "tool ls would replace"},
		{"the program's own options", map[string]ruleFile{"tool": {Verdict: "allow", Sub: sub("new")}}, "tool would replace"},
		{"a deny escalation", map[string]ruleFile{"strict": {Verdict: "allow"}}, "strict would replace"},
		{"a denied program", map[string]ruleFile{"denied": {Verdict: "allow"}}, "denied would replace"},
		{"a path option", map[string]ruleFile{"options": {Verdict: "allow"}}, "options would replace"},
		{"a pattern shadowed", map[string]ruleFile{"mkfs.ext4": {Verdict: "allow"}}, "would shadow the base policy's rule mkfs.*"},
	} {
		rules, err := mergePack(base, "p", tc.cmds)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
		case err == nil:
			for name, prf := range tc.cmds {
				rf, ok := rules.rule(name)
				if !ok {
					t.Errorf("%s: no rule for %s", tc.name, name)
					continue
				}
				for _, s := range prf.subs().names {
					if got, ok := rf.subs().get(s); !ok || got.origin != "packs/p.toml" {
						t.Errorf("%s: %s %s: %+v, want the pack's", tc.name, name, s, got)
					}
				}
			}
		}
	}
	// What a pack adds under a rule leaves the base's other subcommands.
	rules, err := mergePack(base, "p", map[string]ruleFile{"tool": {Sub: sub("new")}})
	if err != nil {
		t.Fatal(err)
	}
	rf, _ := rules.rule("tool")
	if rm, ok := rf.subs().get("rm"); !ok || rm.Verdict != "deny" || len(rf.Deny) != 1 || strings.Join(rf.subs().names, " ") != "ls new rm run" {
		t.Errorf("tool after the pack: %+v, subcommands %v: want the base's kept", rf, rf.subs().names)
	}
}
