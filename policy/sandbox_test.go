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
