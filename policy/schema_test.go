// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestSchemaGenerated: guard.schema.json is what Schema makes of the file
// format's types now (go generate ./policy writes it).
func TestSchemaGenerated(t *testing.T) {
	file, err := os.ReadFile("guard.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(file) != string(Schema()) {
		t.Error("guard.schema.json is stale: run go generate ./policy")
	}
}

// TestSchemaValidates: the built-in policies and every valid test policy
// validate against the schema, and policies with an unknown key, or a
// value the format does not take, do not.
func TestSchemaValidates(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(Schema(), &schema); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("profiles/*.toml")
	valid, _ := filepath.Glob("../engine/testdata/valid/*.toml")
	files = append(append([]string{"default.toml"}, files...), valid...)
	if len(files) < 5 {
		t.Fatalf("only %d policies to validate", len(files))
	}
	for _, name := range files {
		var doc map[string]any
		if _, err := toml.DecodeFile(name, &doc); err != nil {
			t.Fatal(err)
		}
		if err := validate(schema, schema, doc, ""); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, src := range []string{
		"version = 1\ndefualt = \"ask\"\n",
		"version = 1\ndefault = \"allow\"\n",
		"version = \"1\"\n",
		"version = 1\n[command.ls]\nflagz = [\"-l\"]\n",
		"version = 1\n[command.ls]\nverdict = \"maybe\"\n",
		"version = 1\n[command.ls]\noptions = { \"--color\" = 1 }\n",
		"version = 1\n[command.git.sub.log]\nstyle = \"dos\"\n",
		"version = 1\n[tools]\nBash = \"run\"\n",
		"version = 1\n[sandbox]\nrun = \"yes\"\n",
		"version = 1\n[sandbox.net]\nports = \"443\"\n",
	} {
		var doc map[string]any
		if _, err := toml.Decode(src, &doc); err != nil {
			t.Fatal(err)
		}
		if err := validate(schema, schema, doc, ""); err == nil {
			t.Errorf("%q validates", src)
		}
	}
}

// validate checks v against the subset of JSON Schema that Schema writes.
func validate(root, s map[string]any, v any, at string) error {
	if ref, ok := s["$ref"].(string); ok {
		name := filepath.Base(ref)
		def, ok := root["$defs"].(map[string]any)[name].(map[string]any)
		if !ok {
			return fmt.Errorf("%s: no definition %s", at, ref)
		}
		return validate(root, def, v, at)
	}
	if alts, ok := s["oneOf"].([]any); ok {
		n := 0
		for _, a := range alts {
			if validate(root, a.(map[string]any), v, at) == nil {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("%s: %v matches %d of oneOf", at, v, n)
		}
		return nil
	}
	switch s["type"] {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: %v is not a table", at, v)
		}
		props, _ := s["properties"].(map[string]any)
		for k, x := range m {
			sub, ok := props[k].(map[string]any)
			if !ok {
				add, ok := s["additionalProperties"].(map[string]any)
				if !ok {
					return fmt.Errorf("%s: unknown key %q", at, k)
				}
				sub = add
			}
			if err := validate(root, sub, x, at+"."+k); err != nil {
				return err
			}
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: %v is not an array", at, v)
		}
		if min, ok := s["minItems"].(float64); ok && len(a) < int(min) {
			return fmt.Errorf("%s: fewer than %v items", at, min)
		}
		for i, x := range a {
			if err := validate(root, s["items"].(map[string]any), x, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s: %v is not a string", at, v)
		}
		if e, ok := s["enum"].([]any); ok && !slices.Contains(e, any(str)) {
			return fmt.Errorf("%s: %q is not one of %v", at, str, e)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: %v is not a boolean", at, v)
		}
	case "integer":
		if _, ok := v.(int64); !ok {
			return fmt.Errorf("%s: %v is not an integer", at, v)
		}
	}
	return nil
}
