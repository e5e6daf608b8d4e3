// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// exposedMutable are the structs a method of Policy, or of a struct it
// hands out, hands out by pointer that still have exported fields, each
// with the reason. Shrink it; never
// grow it.
var exposedMutable = map[string]string{
	"wrapFile": "Rule.Wrap hands out a copy; the TOML decoder needs its fields exported",
}

// TestPolicyImmutable: a compiled Policy has no exported field, nor has a
// struct it hands out by pointer, so that no importer can loosen a policy
// by assignment (p.Default = Allow once made every unknown command allowed
// for the whole process); and a slice of its own a method returns is
// clipped, so that an append to it cannot write into the policy.
func TestPolicyImmutable(t *testing.T) {
	pt := reflect.TypeFor[Policy]()
	for i := range pt.NumField() {
		if f := pt.Field(i); f.IsExported() {
			t.Errorf("Policy.%s is exported: give it a read method", f.Name)
		}
	}

	// The structs a method hands out by pointer, and theirs in turn.
	mt := reflect.TypeFor[*Policy]()
	seen := map[reflect.Type]bool{mt: true}
	var walk func(reflect.Type)
	walk = func(rt reflect.Type) {
		for i := range rt.NumMethod() {
			m := rt.Method(i)
			for j := range m.Type.NumOut() {
				out := m.Type.Out(j)
				for out.Kind() == reflect.Slice || out.Kind() == reflect.Map || out.Kind() == reflect.Array {
					out = out.Elem()
				}
				if out.Kind() != reflect.Pointer || out.Elem().Kind() != reflect.Struct || seen[out] {
					continue
				}
				seen[out] = true
				st := out.Elem()
				if _, ok := exposedMutable[st.Name()]; !ok {
					for k := range st.NumField() {
						if f := st.Field(k); f.IsExported() {
							t.Errorf("(%s).%s hands out *%s, whose field %s is exported and writable", rt, m.Name, st.Name(), f.Name)
						}
					}
				}
				walk(out)
			}
		}
	}
	walk(mt)

	p, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	pv := reflect.ValueOf(p)
	for i := range mt.NumMethod() {
		m := mt.Method(i)
		if m.Type.NumIn() != 1 || m.Type.NumOut() != 1 || m.Type.Out(0).Kind() != reflect.Slice {
			continue
		}
		s, again := pv.Method(i).Call(nil)[0], pv.Method(i).Call(nil)[0]
		shared := s.Len() > 0 && s.Index(0).Addr().Pointer() == again.Index(0).Addr().Pointer()
		if shared && s.Len() != s.Cap() {
			t.Errorf("(*Policy).%s returns the policy's own slice, of length %d and capacity %d: an append would write into the policy; clip it", m.Name, s.Len(), s.Cap())
		}
	}

	// A copy of a profile is the caller's.
	p, err = LoadUnchecked("p.toml", strings.NewReader("version = 1\ndefault = \"ask\"\n[sandbox.net]\nread = [\"/a\"]\nenv = { MODE = \"ci\" }\n"))
	if err != nil {
		t.Fatal(err)
	}
	pr, _ := p.SandboxProfile("net")
	pr.Read[0], pr.Env["MODE"] = "/", "x"
	if pr, _ := p.SandboxProfile("net"); !slices.Equal(pr.Read, []string{"/a"}) || pr.Env["MODE"] != "ci" {
		t.Errorf("a write to a SandboxProfile copy changed the policy's: %+v", pr)
	}

	// So is a copy of a wrapper.
	p, err = Default()
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Command("timeout")
	if err != nil || r == nil || r.Wrap() == nil {
		t.Fatalf("timeout: %v, %v: want a wrapper", r, err)
	}
	r.Wrap().Skip = 99
	if r.Wrap().Skip == 99 {
		t.Error("a write to a Wrap copy changed the policy's")
	}
}
