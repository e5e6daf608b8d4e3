// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"errors"
	"strings"
	"testing"
)

// TestSandboxTable: [sandbox] compiles to Policy.Sandbox; require needs
// run; a policy that extends another keeps the sandbox the base turns on.
func TestSandboxTable(t *testing.T) {
	p, err := LoadUnchecked("p.toml", strings.NewReader("version = 1\ndefault = \"ask\"\n[sandbox]\nrun = true\nrequire = true\n"))
	if err != nil || !p.Sandbox.Run || !p.Sandbox.Require {
		t.Fatalf("run and require: %+v, %v", p.Sandbox, err)
	}
	_, err = LoadUnchecked("p.toml", strings.NewReader("version = 1\ndefault = \"ask\"\n\n[sandbox]\nrequire = true\n"))
	var pe *Error
	if !errors.As(err, &pe) || pe.Line != 5 || !strings.Contains(pe.Msg, "needs run = true") {
		t.Errorf("require without run: %v, want an error at line 5", err)
	}
	top, err := LoadUnchecked("p.toml", strings.NewReader("version = 1\nextends = \"default\"\n[sandbox]\nrun = true\n"))
	if err != nil || !top.Sandbox.Run || top.Sandbox.Require {
		t.Errorf("extends with run: %+v, %v", top.Sandbox, err)
	}
	d, err := Default()
	if err != nil || d.Sandbox.Run {
		t.Errorf("the default policy: %+v, %v; the sandbox is off until a policy turns it on", d.Sandbox, err)
	}
}
