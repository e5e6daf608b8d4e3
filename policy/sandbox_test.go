// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"errors"
	"strings"
	"testing"
)

// TestSandboxTable: [sandbox] compiles to Policy.Sandbox; require needs
// no run, which every policy does now; a policy that extends another
// keeps what the base says.
func TestSandboxTable(t *testing.T) {
	p, err := LoadUnchecked("p.toml", strings.NewReader("version = 1\ndefault = \"ask\"\n[sandbox]\nrun = true\nrequire = true\n"))
	if err != nil || !p.sandbox.Run || !p.sandbox.Require {
		t.Fatalf("run and require: %+v, %v", p.sandbox, err)
	}
	p, err = LoadUnchecked("p.toml", strings.NewReader("version = 1\ndefault = \"ask\"\n\n[sandbox]\nrequire = true\n"))
	if err != nil || p.sandbox.Run || !p.sandbox.Require {
		t.Errorf("require without run: %+v, %v", p.sandbox, err)
	}
	top, err := LoadUnchecked("p.toml", strings.NewReader("version = 1\nextends = \"default\"\n[sandbox]\nrun = true\n"))
	if err != nil || !top.sandbox.Run || top.sandbox.Require {
		t.Errorf("extends with run: %+v, %v", top.sandbox, err)
	}
	d, err := Default()
	if err != nil || d.sandbox.Run || d.sandbox.Require {
		t.Errorf("the default policy: %+v, %v; it says nothing of the sandbox", d.sandbox, err)
	}
}

// TestSandboxProfiles: [sandbox.NAME] tables and the rules that name them.
func TestSandboxProfiles(t *testing.T) {
	p, err := LoadUnchecked("p.toml", strings.NewReader("version = 1\ndefault = \"ask\"\n[sandbox]\nrun = true\n[sandbox.net]\nread = [\"~/shared\"]\nwrite = [\"{project}/../out\"]\nports = [443, 8080]\nenv = { MODE = \"ci\" }\n[command.make]\nverdict = \"allow\"\nsandbox = \"net\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	net := p.sandbox.Profiles["net"]
	if !p.sandbox.Run || len(net.Read) != 1 || net.Write[0] != "{project}/../out" || len(net.Ports) != 2 || net.Ports[1] != 8080 || net.Env["MODE"] != "ci" {
		t.Errorf("profile net: %+v", p.sandbox)
	}
	if r, err := p.Command("make"); err != nil || r.sandbox != "net" {
		t.Errorf("make: %+v, %v", r, err)
	}
	for _, tc := range []struct{ src, want string }{
		{"[sandbox.net]\nread = [\"x\"]\n", "a path is absolute"},
		{"[sandbox.test]\nports = [1]\n", "a built-in profile"},
		{"[sandbox.net]\nports = [70000]\n", "a port is a number from 1 to 65535"},
		{"[sandbox.net]\nreed = []\n", `unknown key "reed"`},
		{"[sandbox.net]\nenv = { BASH_ENV = \"/x\" }\n", "BASH_ENV would undo"},
		{"[sandbox]\nrun = \"yes\"\n", "must be true or false"},
		{"[command.make]\nverdict = \"allow\"\nsandbox = \"nope\"\n", `sandbox = "nope": want read-only, build, test or a profile`},
	} {
		p, err := LoadUnchecked("p.toml", strings.NewReader("version = 1\ndefault = \"ask\"\n"+tc.src))
		if err == nil {
			_, err = p.Command("make") // a rule of its own compiles at load; this only makes sure
		}
		var pe *Error
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want a *policy.Error with %q", tc.src, err, tc.want)
		}
	}
}

// TestUnbound: unbound says why a rule's calls run outside the sandbox;
// its subcommands have it unless they name a profile, and a rule cannot
// be unbound and in a profile, or unbound and read-only.
func TestUnbound(t *testing.T) {
	p, err := LoadUnchecked("p.toml", strings.NewReader(`version = 1
default = "ask"
[command.kubectl]
unbound = "it reaches the cluster"
[command.kubectl.sub.get]
verdict = "allow"
[command.kubectl.sub.get.sub.pods]
verdict = "allow"
[command.kubectl.sub.kustomize]
verdict = "allow"
sandbox = "read-only"
[command.kubectl.sub.kustomize.sub.cfg]
verdict = "allow"
[command.make]
verdict = "allow"
sandbox = "build"
[command.make.sub.remote]
verdict = "allow"
unbound = "it uploads"
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rule             []string
		unbound, sandbox string
	}{
		{[]string{"kubectl"}, "it reaches the cluster", ""},
		{[]string{"kubectl", "get"}, "it reaches the cluster", ""},
		{[]string{"kubectl", "get", "pods"}, "it reaches the cluster", ""},
		{[]string{"kubectl", "kustomize"}, "", "read-only"},
		{[]string{"kubectl", "kustomize", "cfg"}, "", "read-only"},
		{[]string{"make"}, "", "build"},
		{[]string{"make", "remote"}, "it uploads", ""},
	} {
		r, err := p.Command(tc.rule[0])
		for _, w := range tc.rule[1:] {
			if err == nil {
				r, err = p.Sub(r, w)
			}
		}
		if err != nil || r == nil {
			t.Fatalf("%v: %v, %v", tc.rule, r, err)
		}
		if r.Unbound() != tc.unbound || r.Sandbox() != tc.sandbox {
			t.Errorf("%v: unbound %q, sandbox %q; want %q, %q", tc.rule, r.Unbound(), r.Sandbox(), tc.unbound, tc.sandbox)
		}
	}
	for _, tc := range []struct{ src, want string }{
		{"[command.make]\nverdict = \"allow\"\nunbound = \"x\"\nsandbox = \"build\"\n", `unbound with sandbox = "build": a command runs in the sandbox or outside it`},
		{"[command.make]\nverdict = \"allow\"\nunbound = \"x\"\nread_only = true\n", "read_only, and it runs outside the sandbox (unbound)"},
		{"[command.make]\nunbound = \"x\"\n[command.make.sub.show]\nverdict = \"allow\"\nread_only = true\n", "read_only, and it runs outside the sandbox (unbound)"},
	} {
		p, err := LoadUnchecked("p.toml", strings.NewReader("version = 1\ndefault = \"ask\"\n"+tc.src))
		if err == nil {
			for _, err = range p.CompileAll() {
				break
			}
		}
		var pe *Error
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want a *policy.Error with %q", tc.src, err, tc.want)
		}
	}
}
