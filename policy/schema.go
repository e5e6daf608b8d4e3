// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// Schema returns a JSON Schema (draft 2020-12) of the policy file format,
// built from the Go types Load decodes into, so that it cannot drift from
// them: editors that read a "#:schema" line (Taplo, Even Better TOML)
// complete and check guard.toml with it. go generate ./policy writes it to
// guard.schema.json, which TestSchemaGenerated keeps current.
func Schema() []byte {
	g := &schemaGen{defs: map[string]any{}}
	root := g.object(reflect.TypeFor[policyFile]())
	// [shell]: the dialect guard parses, and a verdict for each construct.
	root["properties"].(map[string]any)["shell"] = map[string]any{"type": "object",
		"properties":           map[string]any{"dialect": map[string]any{"type": "string", "enum": []string{"bash", "sh"}}},
		"additionalProperties": map[string]any{"type": "string", "enum": schemaEnums["verdict"]}}
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["title"] = "guard policy (guard.toml)"
	root["$defs"] = g.defs
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(root); err != nil {
		panic(err) // the schema is maps, slices and strings
	}
	return b.Bytes()
}

// schemaEnums are the values a string key may take, by key name.
var schemaEnums = map[string][]string{
	"default":  {"ask", "deny"},
	"verdict":  {"allow", "session", "ask", "deny"},
	"unknown":  {"ask", "deny"},
	"style":    {"gnu", "go", "find", "none"},
	"args":     {"any", "none", "path"},
	"paths":    {"read", "write", "copy"},
	"script":   {"sed", "awk"},
	"shell":    {"bash", "sh"},
	"config":   {"git", "go", "rust"},
	"grant":    {"rule", "call", "dir", "file"},
	"write":    {"allow", "session", "ask", "deny"},
	"read":     {"allow", "session", "ask", "deny"},
	"unlisted": {"allow", "session", "ask", "deny"},
	"tools[]":  {"allow", "session", "ask", "deny", "internal", "shell", "read", "write", "edit", "list", "search", "fetch"},
}

type schemaGen struct {
	defs map[string]any
}

// of returns the schema of a type.
func (g *schemaGen) of(t reflect.Type, key string) any {
	switch t {
	case reflect.TypeFor[valueSpec]():
		// An option's value: a type name (any, int, dir, path, write, env,
		// a trailing ? for optional), or the list of values allowed.
		return map[string]any{"oneOf": []any{
			map[string]any{"type": "string"},
			map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "minItems": 1},
		}}
	case reflect.TypeFor[sandboxFile]():
		// run and require, and a table for each profile of the policy's own.
		return map[string]any{"type": "object",
			"properties":           map[string]any{"run": map[string]any{"type": "boolean"}, "require": map[string]any{"type": "boolean"}},
			"additionalProperties": g.ref(reflect.TypeFor[sandboxProfileFile]())}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.of(t.Elem(), key)
	case reflect.String:
		s := map[string]any{"type": "string"}
		if e, ok := schemaEnums[key]; ok {
			s["enum"] = e
		}
		return s
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64:
		return map[string]any{"type": "integer"}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": g.of(t.Elem(), "")}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.of(t.Elem(), key+"[]")}
	case reflect.Struct:
		return g.ref(t)
	case reflect.Interface:
		return map[string]any{}
	}
	panic("schema: no schema for " + t.String())
}

// ref returns a reference to a struct's definition, made once.
func (g *schemaGen) ref(t reflect.Type) any {
	name := t.Name()
	if _, ok := g.defs[name]; !ok {
		g.defs[name] = nil // a struct that refers to itself (a rule's sub) is being made
		g.defs[name] = g.object(t)
	}
	return map[string]any{"$ref": "#/$defs/" + name}
}

// object returns the schema of a struct: its keys, and no others.
func (g *schemaGen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "" {
			name = strings.ToLower(f.Name) // the decoder matches keys to field names without case
		}
		if name == "-" {
			continue
		}
		props[name] = g.of(f.Type, name)
	}
	return map[string]any{"type": "object", "properties": props, "additionalProperties": false}
}
