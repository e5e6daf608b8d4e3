// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// The file format: these types mirror the TOML policy exactly. Load decodes
// into them, then compile checks them and builds the immutable Policy. The
// embedded default policy is decoded at build time into Go source of these
// types (see generate.go), so that a hook never pays for TOML decoding.

type policyFile struct {
	Version       int                 `toml:"version"`
	Extends       string              `toml:"extends"`
	Include       []string            `toml:"include"` // packs of command rules laid over the base policy (policy/packs)
	Default       string              `toml:"default"`
	ReadOnly      bool                `toml:"read_only"`
	ReadOnlyShell bool                `toml:"read_only_shell"`
	LogRequired   bool                `toml:"log_required"`
	Trust         []string            `toml:"trust"`
	Tools         map[string]string   `toml:"tools"`
	Shell         map[string]string   `toml:"shell"`
	Env           envFile             `toml:"env"`
	Redirect      redirectFile        `toml:"redirect"`
	Fetch         fetchFile           `toml:"fetch"`
	Paths         pathsFile           `toml:"paths"`
	Secret        []secretFile        `toml:"secret"`
	Sandbox       sandboxFile         `toml:"sandbox"`
	Grants        grantsFile          `toml:"grants"`
	Command       map[string]ruleFile `toml:"command"`
}

// grantsFile is the [grants] table: how long a grant of the session tier
// lasts unused.
type grantsFile struct {
	Idle string `toml:"idle"`
}

// sandboxFile is the [sandbox] table: whether an allowed shell command
// runs under guard run, whether it may run without it, and the policy's
// own profiles, [sandbox.NAME], beside the built-in read-only, build and
// test.
type sandboxFile struct {
	Run      bool
	Require  bool
	Profiles map[string]sandboxProfileFile
}

// sandboxProfileFile is a [sandbox.NAME] table: what a command allowed in that
// profile may reach beyond the build profile's grants.
type sandboxProfileFile struct {
	Read  []string          // paths it may also read: absolute, ~/..., or {project}, {tmp}, {home} and a path under it
	Write []string          // paths it may also write
	Ports []int             // TCP ports it may connect to
	Env   map[string]string // variables set for it
}

// UnmarshalTOML decodes [sandbox]: run and require, and a table for each
// profile. The table's keys are checked here, for the decoder cannot see
// into it.
func (sf *sandboxFile) UnmarshalTOML(data any) error {
	m, ok := data.(map[string]any)
	if !ok {
		return fmt.Errorf("[sandbox] must be a table, not %T", data)
	}
	for k, v := range m {
		switch k {
		case "run", "require":
			b, ok := v.(bool)
			if !ok {
				return fmt.Errorf("sandbox %s must be true or false, not %T", k, v)
			}
			if k == "run" {
				sf.Run = b
			} else {
				sf.Require = b
			}
			continue
		}
		t, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("sandbox %s: want run, require, or a profile's table", k)
		}
		var pf sandboxProfileFile
		for pk, pv := range t {
			var err error
			switch pk {
			case "read":
				pf.Read, err = stringList(pv)
			case "write":
				pf.Write, err = stringList(pv)
			case "ports":
				list, ok := pv.([]any)
				if !ok {
					err = fmt.Errorf("a list of port numbers, not %T", pv)
				}
				for _, e := range list {
					n, ok := e.(int64)
					if !ok || n < 1 || n > 65535 {
						err = fmt.Errorf("a port is a number from 1 to 65535, not %v", e)
						break
					}
					pf.Ports = append(pf.Ports, int(n))
				}
			case "env":
				em, ok := pv.(map[string]any)
				if !ok {
					err = fmt.Errorf("a table of variables, not %T", pv)
				}
				pf.Env = map[string]string{}
				for ek, ev := range em {
					s, ok := ev.(string)
					if !ok {
						err = fmt.Errorf("variable %s: a string, not %T", ek, ev)
						break
					}
					pf.Env[ek] = s
				}
			default:
				err = fmt.Errorf("unknown key %q: want read, write, ports or env", pk)
			}
			if err != nil {
				return fmt.Errorf("sandbox profile %s: %s: %v", k, pk, err)
			}
		}
		if sf.Profiles == nil {
			sf.Profiles = map[string]sandboxProfileFile{}
		}
		sf.Profiles[k] = pf
	}
	return nil
}

// stringList decodes a TOML list of strings.
func stringList(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("a list of strings, not %T", v)
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("a list of strings, not a %T in it", e)
		}
		out = append(out, s)
	}
	return out, nil
}

type pathsFile struct {
	Writable  []string `toml:"writable"`
	Protected []string `toml:"protected"`
	Secret    []string `toml:"secret"`
	Write     string   `toml:"write"`
	Read      string   `toml:"read"`
	Grant     string   `toml:"grant"` // what a grant of a session-tier file call covers: dir (the default) or file
}

// secretFile is a [[secret]] entry of the catalogue of secrets: where one
// tool keeps credentials. The built-in catalogue is secrets.toml; a policy
// adds entries of its own.
type secretFile struct {
	Name  string   `toml:"name"`  // a short id: lower-case letters, digits and '-'
	Tool  string   `toml:"tool"`  // the tool, as its makers write its name
	Docs  string   `toml:"docs"`  // the page of the tool's documentation that says where it keeps them
	Holds string   `toml:"holds"` // what the files hold: "the OpenAI API key"
	Paths []string `toml:"paths"` // path patterns, as [paths] secret takes them
}

type envFile struct {
	Allow []string      `toml:"allow"`
	Deny  []envDenyFile `toml:"deny"`
}

type envDenyFile struct {
	Names  []string `toml:"names"`
	Reason string   `toml:"reason"`
}

type fetchFile struct {
	Allow    []string `toml:"allow"`
	Unlisted string   `toml:"unlisted"`
}

type redirectFile struct {
	Allow        []string `toml:"allow"`
	Read         string   `toml:"read"`
	Write        string   `toml:"write"`
	WriteOutside string   `toml:"write_outside"`
}

type ruleFile struct {
	ID          string               `toml:"id" json:",omitzero"`
	Like        string               `toml:"like" json:",omitzero"`
	Verdict     string               `toml:"verdict" json:",omitzero"`
	Reason      string               `toml:"reason" json:",omitzero"`
	Hint        string               `toml:"hint" json:",omitzero"`
	Style       string               `toml:"style" json:",omitzero"`
	Flags       []string             `toml:"flags" json:",omitzero"`
	Options     map[string]valueSpec `toml:"options" json:",omitzero"`
	Args        string               `toml:"args" json:",omitzero"`
	ArgsWith    []string             `toml:"args_with" json:",omitzero"`
	MaxArgs     int                  `toml:"max_args" json:",omitzero"`
	Globs       bool                 `toml:"globs" json:",omitzero"`
	Unknown     string               `toml:"unknown" json:",omitzero"`
	Require     []string             `toml:"require" json:",omitzero"`
	Deny        []escalationFile     `toml:"deny" json:",omitzero"`
	Ask         []escalationFile     `toml:"ask" json:",omitzero"`
	Session     []escalationFile     `toml:"session" json:",omitzero"`
	Grant       string               `toml:"grant" json:",omitzero"` // what a grant of its session tier covers: rule (the default) or call
	Sub         map[string]ruleFile  `toml:"sub" json:",omitzero"`
	Rest        *ruleFile            `toml:"rest" json:",omitzero"`
	Wrap        *wrapFile            `toml:"wrap" json:",omitzero"`
	Exec        []string             `toml:"exec" json:",omitzero"`
	Shell       string               `toml:"shell" json:",omitzero"`
	Interpreter bool                 `toml:"interpreter" json:",omitzero"`
	ReadOnly    bool                 `toml:"read_only" json:",omitzero"`
	Paths       string               `toml:"paths" json:",omitzero"`
	WritesCwd   bool                 `toml:"writes_cwd" json:",omitzero"`
	Config      string               `toml:"config" json:",omitzero"`
	RevPaths    bool                 `toml:"revpaths" json:",omitzero"`
	// AnyValue says that any value of its operands is harmless to it (echo,
	// wc): an operand known only at run time, the output of an allowed
	// command or a read-only variable such as $HOME, is allowed there.
	AnyValue bool `toml:"any_value" json:",omitzero"`
	// Script names the language of the program the command runs, which
	// guard reads itself: "sed" (its -e scripts, else its first operand)
	// or "awk" (its first operand).
	Script string `toml:"script" json:",omitzero"`
	// Recursive readers: the command reads every file under its directory
	// operands, or under its working directory without one.
	Recursive     bool     `toml:"recursive" json:",omitzero"`      // always
	RecursiveWith []string `toml:"recursive_with" json:",omitzero"` // with one of these options (-r; -d=recurse for a value)
	HiddenWith    []string `toml:"hidden_with" json:",omitzero"`    // it skips hidden files unless one of these is present
	PatternFirst  bool     `toml:"pattern_first" json:",omitzero"`  // its first operand is a pattern, unless -e, -f or --files name it
	OptionsFirst  bool     `toml:"options_first" json:",omitzero"`  // options end at the first operand: later words are operands, however they look
	Children      []string `toml:"children" json:",omitzero"`
	Sandbox       string   `toml:"sandbox" json:",omitzero"` // the sandbox profile it is allowed in: read-only, build or test
	// Unbound says why the command, allowed, runs outside guard run's
	// sandbox: what it needs that the sandbox withholds (the network, the
	// user's credentials, a daemon's socket).
	Unbound  string       `toml:"unbound" json:",omitzero"`
	Examples examplesFile `toml:"examples" json:",omitzero"`
	// lazy, in the generated default policy, stands for Sub: it builds a
	// subcommand's rule only when a call names it.
	lazy *subSource
	// origin is the file of a rule a pack gave (packs/go.toml), for the
	// lines of its examples; "" for the policy's own and a built-in's.
	origin string
}

// subSource gives the subcommand rules of a rule by name.
type subSource struct {
	names []string // sorted
	get   func(name string) (ruleFile, bool)
}

// subs returns the subcommand rules of rf.
func (rf *ruleFile) subs() subSource {
	if rf.lazy != nil {
		return *rf.lazy
	}
	m := rf.Sub
	return subSource{names: sortedKeys(m), get: func(name string) (ruleFile, bool) {
		sub, ok := m[name]
		return sub, ok
	}}
}

// hasSubs reports whether rf has subcommand rules.
func (rf *ruleFile) hasSubs() bool {
	return len(rf.Sub) > 0 || rf.lazy != nil && len(rf.lazy.names) > 0
}

type escalationFile struct {
	ID     string   `toml:"id" json:",omitzero"`
	Flags  []string `toml:"flags" json:",omitzero"`
	Args   []string `toml:"args" json:",omitzero"`
	Values []string `toml:"values" json:",omitzero"`
	Reason string   `toml:"reason" json:",omitzero"`
	Hint   string   `toml:"hint" json:",omitzero"`
}

type wrapFile struct {
	Skip  int  `toml:"skip" json:",omitzero"`  // operands of the wrapper itself before the command (timeout DURATION)
	Env   bool `toml:"env" json:",omitzero"`   // NAME=VALUE operands before the command are environment assignments
	Stdin bool `toml:"stdin" json:",omitzero"` // the command gets more operands from standard input (xargs)
	// Replace names the options whose value (or "{}" when they have none)
	// is replaced in the command by words from standard input (xargs -I).
	Replace []string `toml:"replace" json:",omitzero"`
	// Lookup names the options that make the wrapper look its operands up
	// instead of running them (command -v).
	Lookup []string `toml:"lookup" json:",omitzero"`
}

type examplesFile struct {
	Allow []string `toml:"allow" json:",omitzero"`
	Ask   []string `toml:"ask" json:",omitzero"`
	Deny  []string `toml:"deny" json:",omitzero"`
}

// valueSpec is what an option's value may be: a type name ("any", "int",
// "dir", "path", "write", "env" (the name of a variable the program sets for
// the commands it runs); a trailing "?" makes the value optional and
// attached only)
// or a list of the values allowed.
type valueSpec struct {
	Type   string   `json:",omitzero"`
	Values []string `json:",omitzero"`
}

func (v *valueSpec) UnmarshalTOML(data any) error {
	switch d := data.(type) {
	case string:
		v.Type = d
		return nil
	case []any:
		for _, e := range d {
			s, ok := e.(string)
			if !ok {
				return fmt.Errorf("option values must be strings, not %T", e)
			}
			v.Values = append(v.Values, s)
		}
		if len(v.Values) == 0 {
			return errors.New("an empty list of option values matches nothing")
		}
		return nil
	}
	return fmt.Errorf("an option's value must be a type name or a list of strings, not %T", data)
}

// decodeFile decodes TOML into the file format. Unknown keys are errors.
// Every error is an *Error.
func decodeFile(name string, src []byte) (*policyFile, error) {
	var pf policyFile
	md, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&pf)
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return nil, parseError(name, src, md, pe)
	}
	if err != nil {
		// The decoder's text has the line, which is not parsed: typeError finds it.
		return nil, typeError(name, src, &Error{File: name, Msg: err.Error()})
	}
	if k := ignoredTable(md); k != nil {
		return nil, typeError(name, src, keyErrorf(name, indexKeys(src), k, "%s must be a table", k))
	}
	if un := md.Undecoded(); len(un) > 0 {
		k := un[0]
		msg := fmt.Sprintf("unknown key %q", k.String())
		if near := nearKey(k[len(k)-1]); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		return nil, keyErrorf(name, indexKeys(src), k, "%s", msg)
	}
	return &pf, nil
}

// parseError turns a decoder's ParseError into an *Error at its position.
// The decoder (BurntSushi/toml v1.6.0) returns one for a syntax error and
// a duplicate key or table, found as it parses, and for the error of an
// UnmarshalTOML method (valueSpec), found as it decodes into the file
// format. Only the second kind is about one key, the one named by LastKey;
// the first fails before any key is known, with an empty MetaData.
func parseError(name string, src []byte, md toml.MetaData, pe toml.ParseError) *Error {
	e := &Error{File: name, Line: pe.Position.Line, Col: pe.Position.Col, Msg: pe.Message}
	// Position.Col is off for an error at the start of a line: v1.6.0
	// counts it from the line before (version = 2 on line 2 has column 13).
	// Start, the byte offset, is right; the column comes from it.
	data := strings.TrimPrefix(string(src), "\ufeff") // as the decoder reads it
	if ls := lineStarts(data); e.Line > 0 && e.Line <= len(ls) {
		start := pe.Position.Start
		if start >= ls[e.Line-1] && (e.Line == len(ls) || start < ls[e.Line]) {
			e.Col = start - ls[e.Line-1] + 1
		}
	}
	for _, k := range md.Keys() {
		if k.String() == pe.LastKey {
			e.Key = slices.Clone(k)
			break
		}
	}
	return e
}

// typeError finds a value of the wrong type for the file format. The
// decoder (v1.6.0) reports one without a position: its "incompatible
// types" and "type mismatch" errors are plain errors, with the line only in
// their text. So this decodes the source again into plain values, which
// cannot fail on types, and checks them against the file format as the
// decoder does, to find the key; its line comes from the source, as for
// the compiler's errors. It runs only for a policy that does not load. If
// it finds no such value, it returns the error it was given.
func typeError(name string, src []byte, fallback *Error) *Error {
	var data map[string]any
	if _, err := toml.Decode(string(src), &data); err != nil {
		return fallback
	}
	ix := indexKeys(src)
	var first *Error // the first in the source; one without a line last
	for _, b := range typeMismatches(data, reflect.TypeFor[policyFile](), nil, nil) {
		e := keyErrorf(name, ix, b.key, "%s", b.msg)
		if first == nil || first.Line == 0 && e.Line > 0 ||
			e.Line > 0 && (e.Line < first.Line || e.Line == first.Line && e.Col < first.Col) {
			first = e
		}
	}
	if first == nil {
		return fallback
	}
	return first
}

// typeMismatch is a value of the wrong type, and the decoder's message for it.
type typeMismatch struct {
	key []string
	msg string
}

// typeMismatches walks a plain decoded value against a type of the file
// format as the decoder does (v1.6.0 MetaData.unify), for the kinds the
// format uses, and appends the values of the wrong type to out, with the
// decoder's message for each; and a value that is not a table where a map
// is wanted, which the decoder drops without an error.
func typeMismatches(data any, t reflect.Type, key []string, out []typeMismatch) []typeMismatch {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if data == nil || reflect.PointerTo(t).Implements(unmarshalerType) {
		return out // missing, or its UnmarshalTOML reports its own errors, with a position
	}
	bad := func(format string, a ...any) []typeMismatch {
		return append(out, typeMismatch{slices.Clone(key), fmt.Sprintf(format, a...)})
	}
	incompatible := func(want string) []typeMismatch {
		return bad("incompatible types: TOML value has type %s; destination has type %s", fmtType(data), want)
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		m, ok := data.(map[string]any)
		if !ok && t.Kind() == reflect.Struct {
			return bad("type mismatch for %s: expected table but found %s", t, fmtType(data))
		}
		if !ok {
			return incompatible("map")
		}
		for _, k := range sortedKeys(m) {
			ft := t
			if t.Kind() == reflect.Map {
				ft = t.Elem()
			} else if f, ok := formatField(t, k); ok {
				ft = f.Type
			} else {
				continue // an unknown key: MetaData.Undecoded has it
			}
			out = typeMismatches(m[k], ft, append(key, k), out)
		}
	case reflect.Slice:
		v := reflect.ValueOf(data)
		if v.Kind() != reflect.Slice {
			return incompatible("slice")
		}
		for i := range v.Len() {
			out = typeMismatches(v.Index(i).Interface(), t.Elem(), key, out)
		}
	case reflect.String:
		if _, ok := data.(string); !ok {
			return incompatible("string")
		}
	case reflect.Bool:
		if _, ok := data.(bool); !ok {
			return incompatible("boolean")
		}
	case reflect.Int:
		if _, ok := data.(int64); !ok {
			return incompatible("integer")
		}
	}
	return out
}

// fmtType names the type of a plain decoded value as the decoder's messages do.
func fmtType(v any) string { return strings.ReplaceAll(fmt.Sprintf("%T", v), "interface {}", "any") }

var unmarshalerType = reflect.TypeFor[toml.Unmarshaler]()

// formatField finds the field of a file-format struct that a key decodes
// into as the decoder finds it: by its toml tag (or name), else in any case.
func formatField(t reflect.Type, key string) (reflect.StructField, bool) {
	fields := formatFields()[t]
	if f, ok := fields[key]; ok {
		return f, true
	}
	for name, f := range fields {
		if strings.EqualFold(name, key) { // no two fields differ only in case
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// nearKey returns the key of the file format nearest to key, at most two
// edits away, for an unknown key's error; "" when none is.
func nearKey(key string) string {
	best, dist := "", 3
	for _, fields := range formatFields() {
		for name := range fields {
			if d := editDistance(key, name); d < dist || d == dist && name < best {
				best, dist = name, d
			}
		}
	}
	if best == key {
		return ""
	}
	return best
}

// editDistance is the edit distance of a and b, in bytes, counting a
// swap of neighbours as one edit (optimal string alignment).
func editDistance(a, b string) int {
	// Three rows: a swap of neighbours (gti, git) needs the row before
	// the previous one.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// formatFields is the fields of each struct of the file format, by the
// name a key gives them, read from the struct tags once.
var formatFields = sync.OnceValue(func() map[reflect.Type]map[string]reflect.StructField {
	structs := map[reflect.Type]map[string]reflect.StructField{}
	var add func(t reflect.Type)
	add = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || structs[t] != nil {
			return
		}
		fields := map[string]reflect.StructField{}
		structs[t] = fields
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue // lazy, origin: never a key
			}
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if name == "" {
				name = f.Name
			}
			fields[name] = f
			add(f.Type)
		}
	}
	add(reflect.TypeFor[policyFile]())
	return structs
})

// ignoredTable returns the first key, in the source's order, that gives a
// map of the file format ([tools], [shell], [command], options, sub) a
// value that is not a table. The decoder (v1.6.0 unifyMap) drops such a
// value without an error, which would make tools = "deny" a silent no-op.
// It reads only the decoder's metadata, so a policy that loads pays
// little for it.
func ignoredTable(md toml.MetaData) toml.Key {
	for _, k := range md.Keys() {
		t := reflect.TypeFor[policyFile]()
		for _, part := range k {
			for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
				t = t.Elem()
			}
			if reflect.PointerTo(t).Implements(unmarshalerType) {
				t = nil
				break
			}
			if t.Kind() == reflect.Map {
				t = t.Elem()
				continue
			}
			if t.Kind() != reflect.Struct {
				t = nil
				break
			}
			f, ok := formatField(t, part)
			if !ok {
				t = nil
				break
			}
			t = f.Type
		}
		if t != nil && t.Kind() == reflect.Map && md.Type(k...) != "Hash" {
			return k
		}
	}
	return nil
}
