// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

// The built-in policies are TOML files (default.toml, profiles/*.toml,
// and the packs a policy includes, packs/*.toml),
// checked by the tests and compiled into default_policy.go by
// go generate ./policy: Go literals of the file format, one switch case
// per program, so that a hook builds only the rules its call names and
// decodes no TOML. The generator runs with the guardgen build tag, under
// which default_guardgen.go decodes the TOML instead: it never needs the
// file it writes, which may be stale or no longer compile.
//
// The literals hold only the fields a rule sets, so a field added to the
// file format changes nothing until default.toml uses it. An encoded form
// decoded on first use was measured against them for git's rule, the
// largest: gob took 312 µs and JSON 1 ms, against 39 µs for the literal.

//go:generate go run -tags guardgen ./internal/generate

import (
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Generate returns the source of default_policy.go for the built-in
// policies in fsys: default.toml, profiles/NAME.toml for each profile and
// packs/NAME.toml for each pack. The source is not gofmt'ed: its callers,
// the generator and the test that checks default_policy.go, format it with
// go/format, which guard's binary then does not link.
func Generate(fsys fs.FS) ([]byte, error) {
	b, err := builtinFiles(fsys)
	if err != nil {
		return nil, err
	}
	src, err := fs.ReadFile(fsys, "default.toml")
	if err != nil {
		return nil, err
	}
	return generate(b, exampleLines(b.pf, indexKeys(src)))
}

// exampleLines returns the line of each rule's examples in the default
// policy, by the rule's key joined with pathSep: the binary does not carry
// the TOML to find them in.
func exampleLines(pf *policyFile, ix *keyIndex) map[string]int {
	out := map[string]int{}
	var walk func(key []string, rf *ruleFile)
	walk = func(key []string, rf *ruleFile) {
		ex := rf.Examples
		if len(ex.Allow)+len(ex.Ask)+len(ex.Deny) > 0 {
			k := append(slices.Clone(key), "examples")
			out[strings.Join(k, pathSep)], _ = ix.pos(k)
		}
		for name, sub := range rf.Sub {
			walk(append(slices.Clone(key), "sub", name), &sub)
		}
		if rf.Rest != nil {
			walk(append(slices.Clone(key), "rest"), rf.Rest)
		}
	}
	for name, rf := range pf.Command {
		walk([]string{"command", name}, &rf)
	}
	return out
}

// builtins is the built-in policies, decoded.
type builtins struct {
	pf       *policyFile            // default.toml
	profiles map[string]*policyFile // profiles/NAME.toml
	packs    map[string]*policyFile // packs/NAME.toml
	secrets  []secretFile           // secrets.toml: the catalogue of secrets
}

// builtinFiles decodes the built-in policies. A profile has no command
// rules of its own; a pack has nothing else.
func builtinFiles(fsys fs.FS) (*builtins, error) {
	read := func(file string, decode func(string, []byte) (*policyFile, error)) (*policyFile, error) {
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			return nil, err
		}
		return decode(file, data)
	}
	pf, err := read("default.toml", decodeFile)
	if err != nil {
		return nil, err
	}
	b := &builtins{pf: pf, profiles: map[string]*policyFile{}, packs: map[string]*policyFile{}}
	for _, name := range Profiles()[1:] {
		if b.profiles[name], err = read("profiles/"+name+".toml", decodeProfile); err != nil {
			return nil, err
		}
	}
	for _, name := range Packs() {
		if b.packs[name], err = read(packFileName(name), decodePack); err != nil {
			return nil, err
		}
	}
	data, err := fs.ReadFile(fsys, "secrets.toml")
	if err != nil {
		return nil, err
	}
	if b.secrets, err = decodeSecrets("secrets.toml", data); err != nil {
		return nil, err
	}
	return b, nil
}

// writeSecretIndex writes builtinSecretPaths, every path of the
// catalogue in order, and builtinSecretOf, which finds the entry and the
// literal run of each: a switch, which costs nothing at start-up.
func writeSecretIndex(b *strings.Builder, secrets []secretFile) {
	b.WriteString("// builtinSecretPaths are the paths of builtinSecrets, in order.\nvar builtinSecretPaths = []string{")
	seen := map[string]bool{}
	var cases strings.Builder
	for i, sf := range secrets {
		for _, pat := range sf.Paths {
			b.WriteString(strconv.Quote(pat) + ", ")
			if !seen[pat] {
				seen[pat] = true
				fmt.Fprintf(&cases, "case %s:\nreturn %d, %s, true\n", strconv.Quote(pat), i, strconv.Quote(LiteralRun(pat)))
			}
		}
	}
	b.WriteString("}\n\n// builtinSecretOf returns the entry of builtinSecrets a path pattern is\n// first of, and the pattern's LiteralRun.\n")
	b.WriteString("func builtinSecretOf(pat string) (entry int, literal string, ok bool) {\nswitch pat {\n" + cases.String() + "}\nreturn 0, \"\", false\n}\n")
}

// decodeSecrets decodes the catalogue of secrets: [[secret]] entries and
// nothing else.
func decodeSecrets(file string, src []byte) ([]secretFile, error) {
	pf, err := decodeFile(file, src)
	if err != nil {
		return nil, err
	}
	if !reflect.DeepEqual(*pf, policyFile{Secret: pf.Secret}) {
		return nil, fmt.Errorf("%s: the catalogue holds [[secret]] entries and nothing else", file)
	}
	names := map[string]bool{}
	for i, sf := range pf.Secret {
		if why := checkSecret(sf, true); why != "" {
			return nil, fmt.Errorf("%s: secret %d (%s): %s", file, i+1, sf.Name, why)
		}
		if names[sf.Name] {
			return nil, fmt.Errorf("%s: secret %s: two entries of that name", file, sf.Name)
		}
		names[sf.Name] = true
	}
	return pf.Secret, nil
}

// decodeProfile decodes a profile: settings over the default policy, and
// no command rules.
func decodeProfile(file string, src []byte) (*policyFile, error) {
	pf, err := decodeFile(file, src)
	if err == nil && len(pf.Command) > 0 {
		return nil, fmt.Errorf("%s: a profile has no command rules of its own; put them in default.toml", file)
	}
	if err == nil && len(pf.Include) > 0 {
		return nil, fmt.Errorf("%s: a profile includes no pack; a policy that extends it does", file)
	}
	return pf, err
}

func generate(bf *builtins, lines map[string]int) ([]byte, error) {
	pf, profiles := bf.pf, bf.profiles
	g := &generator{}
	var b strings.Builder
	b.WriteString("// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT\n\n")
	b.WriteString("// Code generated by go generate ./policy; DO NOT EDIT.\n\n")
	b.WriteString("//go:build !guardgen\n\n")
	b.WriteString("package policy\n\n")
	b.WriteString("import \"embed\"\n\n")
	b.WriteString("//go:embed profiles/*.toml\nvar profileSources embed.FS\n\n")
	b.WriteString("// profileSource returns the TOML of a profile, for error messages.\n")
	b.WriteString("func profileSource(name string) string {\ndata, _ := profileSources.ReadFile(\"profiles/\" + name + \".toml\")\nreturn string(data)\n}\n\n")
	b.WriteString("// profileFile returns a built-in profile.\nfunc profileFile(name string) (policyFile, bool) {\nswitch name {\n")
	pnames := make([]string, 0, len(profiles))
	for n := range profiles {
		pnames = append(pnames, n)
	}
	sort.Strings(pnames)
	for _, n := range pnames {
		b.WriteString("case " + strconv.Quote(n) + ":\nreturn ")
		g.literal(&b, reflect.ValueOf(*profiles[n]))
		b.WriteString(", true\n")
	}
	b.WriteString("}\nreturn policyFile{}, false\n}\n\n")
	b.WriteString("//go:embed packs/*.toml\nvar packSources embed.FS\n\n")
	b.WriteString("// packSource returns the TOML of a pack, for the lines of its examples.\n")
	b.WriteString("func packSource(name string) []byte {\ndata, _ := packSources.ReadFile(packFileName(name))\nreturn data\n}\n\n")
	b.WriteString("// packFile returns a pack: its command rules.\nfunc packFile(name string) (policyFile, bool) {\nswitch name {\n")
	for _, n := range sortedKeys(bf.packs) {
		b.WriteString("case " + strconv.Quote(n) + ":\nreturn ")
		g.literal(&b, reflect.ValueOf(*bf.packs[n]))
		b.WriteString(", true\n")
	}
	b.WriteString("}\nreturn policyFile{}, false\n}\n\n")
	// The command rules are built only when a call names them: a switch
	// costs nothing at start-up, where a map literal would be built whole.
	commands := pf.Command
	top := *pf
	top.Command = nil
	b.WriteString("// builtinSecrets is the catalogue of secrets, secrets.toml.\nvar builtinSecrets = ")
	g.literal(&b, reflect.ValueOf(bf.secrets))
	b.WriteString("\n\n")
	writeSecretIndex(&b, bf.secrets)
	b.WriteString("\nvar defaultPolicyFile = ")
	g.literal(&b, reflect.ValueOf(top))
	b.WriteString("\n\n// defaultCommandNames lists the programs that have rules, sorted.\n")
	b.WriteString("var defaultCommandNames = []string{")
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		b.WriteString(strconv.Quote(name) + ", ")
	}
	b.WriteString("}\n\n// defaultCommand returns the rule for a program.\n")
	b.WriteString("func defaultCommand(name string) (ruleFile, bool) {\nswitch name {\n")
	for _, name := range names {
		b.WriteString("case " + strconv.Quote(name) + ":\nreturn ")
		g.literal(&b, reflect.ValueOf(commands[name]))
		b.WriteString(", true\n")
	}
	b.WriteString("}\nreturn ruleFile{}, false\n}\n")
	b.WriteString("\n// defaultExampleLine returns the line of default.toml that holds the\n// examples of the rule at key, its parts joined by pathSep.\n")
	b.WriteString("func defaultExampleLine(key string) int {\nswitch key {\n")
	for _, k := range sortedKeys(lines) {
		b.WriteString("case " + strconv.Quote(k) + ":\nreturn " + strconv.Itoa(lines[k]) + "\n")
	}
	b.WriteString("}\nreturn 0\n}\n")
	b.WriteString("\n// The subcommand rules, by rule.\n\n")
	for _, src := range g.queue {
		b.WriteString(src)
	}
	return []byte(b.String()), nil
}

// generator writes the literals of default_policy.go, and the functions
// that build subcommand rules, which it queues as it meets them.
type generator struct {
	queue []string // the source of each subcommand function, in order
}

// subs queues the function and the subSource for a rule's subcommands and
// returns the subSource's name.
func (g *generator) subs(m map[string]ruleFile) string {
	n := len(g.queue)
	g.queue = append(g.queue, "") // taken before the subcommands queue their own
	name := fmt.Sprintf("defaultSubs%d", n)
	names := sortedKeys(m)
	var b strings.Builder
	b.WriteString("var " + name + " = subSource{names: []string{")
	for _, k := range names {
		b.WriteString(strconv.Quote(k) + ", ")
	}
	b.WriteString("}, get: " + name + "Rule}\n\n")
	b.WriteString("func " + name + "Rule(name string) (ruleFile, bool) {\nswitch name {\n")
	for _, k := range names {
		b.WriteString("case " + strconv.Quote(k) + ":\nreturn ")
		g.literal(&b, reflect.ValueOf(m[k]))
		b.WriteString(", true\n")
	}
	b.WriteString("}\nreturn ruleFile{}, false\n}\n\n")
	g.queue[n] = b.String()
	return name
}

// literal writes v as a Go composite literal of the file-format types.
func (g *generator) literal(b *strings.Builder, v reflect.Value) {
	typeName := func(t reflect.Type) string { return strings.ReplaceAll(t.String(), "policy.", "") }
	switch v.Kind() {
	case reflect.Struct:
		b.WriteString(typeName(v.Type()) + "{")
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			if f.IsZero() {
				continue
			}
			name := v.Type().Field(i).Name
			if v.Type() == reflect.TypeFor[ruleFile]() && name == "Sub" {
				// A rule's subcommands are built when a call names one.
				b.WriteString("\nlazy: &" + g.subs(f.Interface().(map[string]ruleFile)) + ",")
				continue
			}
			b.WriteString("\n" + name + ": ")
			g.literal(b, f)
			b.WriteString(",")
		}
		b.WriteString("\n}")
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString("&")
		g.literal(b, v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString(typeName(v.Type()) + "{")
		for i := 0; i < v.Len(); i++ {
			g.literal(b, v.Index(i))
			b.WriteString(", ")
		}
		b.WriteString("}")
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString(typeName(v.Type()) + "{")
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			b.WriteString("\n" + strconv.Quote(k.String()) + ": ")
			g.literal(b, v.MapIndex(k))
			b.WriteString(",")
		}
		b.WriteString("\n}")
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Int:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	default:
		panic(fmt.Sprintf("literal: unsupported kind %s", v.Kind()))
	}
}
