// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build guardgen

package policy

// With the guardgen tag, which go generate ./policy builds with, the
// built-in policies are decoded from their TOML at start-up rather than
// taken from default_policy.go, the file the generator writes.

import (
	"embed"
	"io/fs"
	"maps"
	"slices"
	"strings"
)

//go:embed default.toml
var defaultPolicySource []byte

//go:embed default.toml secrets.toml profiles/*.toml packs/*.toml
var profileSources embed.FS

// As in default_policy.go, the command rules are apart from the rest.
var defaultPolicyFile, defaultCommands, defaultProfiles, defaultPacks, builtinSecrets = func() (policyFile, map[string]ruleFile, map[string]*policyFile, map[string]*policyFile, []secretFile) {
	b, err := builtinFiles(profileSources)
	if err != nil {
		panic(err)
	}
	top := *b.pf
	top.Command = nil
	return top, b.pf.Command, b.profiles, b.packs, b.secrets
}()

var defaultCommandNames = slices.Sorted(maps.Keys(defaultCommands))

func profileSource(name string) string {
	data, _ := fs.ReadFile(profileSources, "profiles/"+name+".toml")
	return string(data)
}

func profileFile(name string) (policyFile, bool) {
	pf, ok := defaultProfiles[name]
	if !ok {
		return policyFile{}, false
	}
	return *pf, true
}

func packSource(name string) []byte {
	data, _ := fs.ReadFile(profileSources, packFileName(name))
	return data
}

func packFile(name string) (policyFile, bool) {
	pf, ok := defaultPacks[name]
	if !ok {
		return policyFile{}, false
	}
	return *pf, true
}

func defaultExampleLine(key string) int {
	line, _ := indexKeys(defaultPolicySource).pos(strings.Split(key, pathSep))
	return line
}

func defaultCommand(name string) (ruleFile, bool) {
	rf, ok := defaultCommands[name]
	return rf, ok
}

// builtinSecretPaths and builtinSecretOf are as default_policy.go has
// them, built from the decoded catalogue.
var builtinSecretPaths, builtinSecretIndex = func() ([]string, map[string]int) {
	var paths []string
	index := map[string]int{}
	for i, sf := range builtinSecrets {
		for _, pat := range sf.Paths {
			paths = append(paths, pat)
			if _, ok := index[pat]; !ok {
				index[pat] = i
			}
		}
	}
	return paths, index
}()

func builtinSecretOf(pat string) (entry int, literal string, ok bool) {
	entry, ok = builtinSecretIndex[pat]
	if !ok {
		return 0, "", false
	}
	return entry, LiteralRun(pat), true
}
