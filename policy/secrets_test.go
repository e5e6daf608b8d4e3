// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"os"
	"strings"
	"testing"
)

// TestSecretsCatalogue: the built-in catalogue decodes and every entry
// passes the checks a policy's own entries get, and more; a catalogue or a
// policy with a broken entry is refused, saying which.
func TestSecretsCatalogue(t *testing.T) {
	data, err := os.ReadFile("secrets.toml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeSecrets("secrets.toml", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(builtinSecrets) {
		t.Errorf("secrets.toml has %d entries, default_policy.go %d: go generate ./policy", len(got), len(builtinSecrets))
	}
	entry := func(fields string) string {
		return "[[secret]]\nname = \"x\"\ntool = \"X\"\n" + fields + "\n"
	}
	for _, tc := range []struct{ src, want string }{
		{entry(`docs = "https://x.example/"`+"\nholds = \"its token\"\npaths = [\"~/.x/token\"]\n") + entry(`docs = "https://x.example/"`+"\nholds = \"its token\"\npaths = [\"~/.y\"]"), "two entries"},
		{entry(`holds = "its token"` + "\npaths = [\"~/.x/token\"]"), "gives its docs"},
		{entry(`docs = "http://x.example/"` + "\nholds = \"t\"\npaths = [\"~/.x/token\"]"), `docs = "http://x.example/"`},
		{entry(`docs = "https://x.example/"` + "\nholds = \"t\"\npaths = [\"x/token\"]"), "not an absolute pattern"},
		{entry(`docs = "https://x.example/"` + "\nholds = \"t\"\npaths = [\"{$1X}/token\"]"), "not an absolute pattern"},
		{entry(`docs = "https://x.example/"` + "\nholds = \"t\"\npaths = []"), "give the tool and its paths"},
		{"[[secret]]\nname = \"X Y\"\ntool = \"X\"\ndocs = \"https://x.example/\"\nholds = \"t\"\npaths = [\"~/.x\"]\n", "short id"},
		{"default = \"ask\"\n" + entry(`docs = "https://x.example/"`+"\nholds = \"t\"\npaths = [\"~/.x\"]"), "nothing else"},
	} {
		if _, err := decodeSecrets("s.toml", []byte(tc.src)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one saying %q", tc.src, err, tc.want)
		}
	}
	// A policy's own entry needs no docs, and is checked otherwise.
	for _, tc := range []struct {
		src  string
		fail string
	}{
		{"[[secret]]\nname = \"deploy\"\ntool = \"Deploy\"\npaths = [\"~/.deploy/token\", \"{$DEPLOY_HOME}/token\"]\n", ""},
		{"[[secret]]\nname = \"deploy\"\ntool = \"Deploy\"\npaths = [\"token\"]\n", "not an absolute pattern"},
		{"[[secret]]\nname = \"d\"\ntool = \"D\"\npaths = [\"~/.d\"]\n[[secret]]\nname = \"d\"\ntool = \"D\"\npaths = [\"~/.e\"]\n", "two entries"},
	} {
		p, err := LoadUnchecked("p.toml", strings.NewReader("version = 1\nextends = \"default\"\n"+tc.src))
		switch {
		case tc.fail == "" && err != nil:
			t.Errorf("%q: %v", tc.src, err)
		case tc.fail != "" && (err == nil || !strings.Contains(err.Error(), tc.fail)):
			t.Errorf("%q: error %v, want one saying %q", tc.src, err, tc.fail)
		case tc.fail == "":
			if s, ok := p.SecretOf("{$DEPLOY_HOME}/token"); !ok || s.Name != "deploy" {
				t.Errorf("%q: SecretOf gives %+v, %v", tc.src, s, ok)
			}
			if n := len(p.Secrets()); n != len(builtinSecrets)+1 {
				t.Errorf("%q: %d entries, want the %d built-in ones and the policy's", tc.src, n, len(builtinSecrets))
			}
		}
	}
}

// TestPathLiteral: the literal run the generated catalogue gives each of
// its patterns is the one LiteralRun finds, and no other pattern has one.
func TestPathLiteral(t *testing.T) {
	p, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, pat := range p.SecretPaths() {
		lit, ok := p.PathLiteral(pat)
		if !ok {
			continue
		}
		n++
		if want := LiteralRun(pat); lit != want {
			t.Errorf("%s: PathLiteral %q, LiteralRun %q", pat, lit, want)
		}
	}
	if n < 300 {
		t.Errorf("only %d of the default policy's secret patterns have a generated literal run", n)
	}
	if lit, ok := p.PathLiteral("~/not/a/catalogue/pattern"); ok {
		t.Errorf("a pattern outside the catalogue has the literal run %q", lit)
	}
}
