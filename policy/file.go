// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// The file format: these types mirror the TOML policy exactly. Load decodes
// into them, then compile checks them and builds the immutable Policy. The
// embedded default policy is decoded at build time into Go source of these
// types (see gen_test.go), so that a hook never pays for TOML decoding.

type policyFile struct {
	Version       int                 `toml:"version"`
	Extends       string              `toml:"extends"`
	Default       string              `toml:"default"`
	ReadOnly      bool                `toml:"read_only"`
	ReadOnlyShell bool                `toml:"read_only_shell"`
	Trust         []string            `toml:"trust"`
	Tools         map[string]string   `toml:"tools"`
	Shell         map[string]string   `toml:"shell"`
	Env           envFile             `toml:"env"`
	Redirect      redirectFile        `toml:"redirect"`
	Fetch         fetchFile           `toml:"fetch"`
	Paths         pathsFile           `toml:"paths"`
	Command       map[string]ruleFile `toml:"command"`
}

type pathsFile struct {
	Writable  []string `toml:"writable"`
	Protected []string `toml:"protected"`
	Secret    []string `toml:"secret"`
	Write     string   `toml:"write"`
	Read      string   `toml:"read"`
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
	ID          string               `toml:"id"`
	Like        string               `toml:"like"`
	Verdict     string               `toml:"verdict"`
	Reason      string               `toml:"reason"`
	Hint        string               `toml:"hint"`
	Style       string               `toml:"style"`
	Flags       []string             `toml:"flags"`
	Options     map[string]valueSpec `toml:"options"`
	Args        string               `toml:"args"`
	ArgsWith    []string             `toml:"args_with"`
	MaxArgs     int                  `toml:"max_args"`
	Globs       bool                 `toml:"globs"`
	Unknown     string               `toml:"unknown"`
	Require     []string             `toml:"require"`
	Deny        []escalationFile     `toml:"deny"`
	Ask         []escalationFile     `toml:"ask"`
	Sub         map[string]ruleFile  `toml:"sub"`
	Rest        *ruleFile            `toml:"rest"`
	Wrap        *wrapFile            `toml:"wrap"`
	Exec        []string             `toml:"exec"`
	Shell       string               `toml:"shell"`
	Interpreter bool                 `toml:"interpreter"`
	ReadOnly    bool                 `toml:"read_only"`
	Paths       string               `toml:"paths"`
	WritesCwd   bool                 `toml:"writes_cwd"`
	Config      string               `toml:"config"`
	RevPaths    bool                 `toml:"revpaths"`
	// Recursive readers: the command reads every file under its directory
	// operands, or under its working directory without one.
	Recursive     bool         `toml:"recursive"`      // always
	RecursiveWith []string     `toml:"recursive_with"` // with one of these options (-r; -d=recurse for a value)
	HiddenWith    []string     `toml:"hidden_with"`    // it skips hidden files unless one of these is present
	PatternFirst  bool         `toml:"pattern_first"`  // its first operand is a pattern, unless -e, -f or --files name it
	OptionsFirst  bool         `toml:"options_first"`  // options end at the first operand: later words are operands, however they look
	Children      []string     `toml:"children"`
	Examples      examplesFile `toml:"examples"`
}

type escalationFile struct {
	ID     string   `toml:"id"`
	Flags  []string `toml:"flags"`
	Args   []string `toml:"args"`
	Values []string `toml:"values"`
	Reason string   `toml:"reason"`
	Hint   string   `toml:"hint"`
}

type wrapFile struct {
	Skip  int  `toml:"skip"`  // operands of the wrapper itself before the command (timeout DURATION)
	Env   bool `toml:"env"`   // NAME=VALUE operands before the command are environment assignments
	Stdin bool `toml:"stdin"` // the command gets more operands from standard input (xargs)
	// Replace names the options whose value (or "{}" when they have none)
	// is replaced in the command by words from standard input (xargs -I).
	Replace []string `toml:"replace"`
	// Lookup names the options that make the wrapper look its operands up
	// instead of running them (command -v).
	Lookup []string `toml:"lookup"`
}

type examplesFile struct {
	Allow []string `toml:"allow"`
	Ask   []string `toml:"ask"`
	Deny  []string `toml:"deny"`
}

// valueSpec is what an option's value may be: a type name ("any", "int",
// "dir", "path", "write", "env" (the name of a variable the program sets for
// the commands it runs); a trailing "?" makes the value optional and
// attached only)
// or a list of the values allowed.
type valueSpec struct {
	Type   string
	Values []string
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
func decodeFile(name string, src []byte) (*policyFile, error) {
	var pf policyFile
	md, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&pf)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %s", name, pe.Position.Line, pe.Message)
		}
		// Type errors read "toml: line N (last key "k"): message".
		msg := strings.TrimPrefix(err.Error(), "toml: ")
		if rest, ok := strings.CutPrefix(msg, "line "); ok {
			if num, after, ok := strings.Cut(rest, " "); ok {
				if _, text, ok := strings.Cut(after, "): "); ok && strings.HasPrefix(after, "(last key") {
					return nil, fmt.Errorf("%s:%s: %s", name, num, text)
				}
			}
		}
		return nil, fmt.Errorf("%s: %s", name, msg)
	}
	if un := md.Undecoded(); len(un) > 0 {
		k := un[0]
		return nil, fmt.Errorf("%s:%d: unknown key %q", name, keyLine(src, k), k.String())
	}
	return &pf, nil
}

// keyLine finds the line where a key is set, for error messages. The TOML
// decoder keeps key positions to itself, so this looks for the key's last
// part, as a key or a table name, after the line of its parent. It returns
// 0 when it cannot tell.
func keyLine(src []byte, key []string) int {
	lines := strings.Split(string(src), "\n")
	from := 0
	for depth := range key {
		part := key[depth]
		found := -1
		for i := from; i < len(lines) && found < 0; i++ {
			if lineSetsKey(lines[i], part) {
				found = i
			}
		}
		if found < 0 {
			return from
		}
		from = found
		if depth == len(key)-1 {
			return found + 1
		}
	}
	return 0
}

// lineSetsKey reports whether a line names part as a key or table part.
func lineSetsKey(line, part string) bool {
	for _, form := range []string{part, `"` + part + `"`, `'` + part + `'`} {
		if form == "" {
			continue // an empty key is written quoted
		}
		i := strings.Index(line, form)
		for i >= 0 {
			before := strings.TrimRight(line[:i], " \t")
			after := strings.TrimLeft(line[i+len(form):], " \t")
			okBefore := before == "" || strings.HasSuffix(before, "[") || strings.HasSuffix(before, ".") ||
				strings.HasSuffix(before, "{") || strings.HasSuffix(before, ",")
			okAfter := strings.HasPrefix(after, "=") || strings.HasPrefix(after, "]") || strings.HasPrefix(after, ".")
			if okBefore && okAfter {
				return true
			}
			next := strings.Index(line[i+1:], form)
			if next < 0 {
				break
			}
			i += 1 + next
		}
	}
	return false
}
