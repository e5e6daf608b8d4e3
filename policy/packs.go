// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"fmt"
	"path"
	"reflect"
	"slices"
	"strings"
)

// Packs are embedded files of command rules for an ecosystem's everyday
// tools (packs/NAME.toml), which a policy takes with include = [...]. They
// are laid over the base policy (what the file extends) in the order the
// file names them, and the file's own rules over them:
//
//   - a pack's rule for a program the base has no rule for is added;
//   - where the base has a rule, a pack's rule that holds only subcommands
//     adds them under it (go mod beside the default's go build); a pack's
//     rule may replace the base's, at any level, only where the base's is
//     a bare tier (a verdict, a reason, a hint: cargo tree asks), so a
//     pack never drops a deny, an option's check or a path's;
//   - a pack never shadows a base rule that is a pattern (mkfs.*);
//   - a rule of the file itself replaces the program's rule whole, as it
//     does the base's.
//
// Two packs that give the same rule are an error, as is a pack that is
// unknown or named twice.

// Packs lists the packs a policy can include.
func Packs() []string {
	return []string{"go", "rust", "node", "python", "docker", "kubernetes", "github", "terraform", "aws"}
}

// packFileName is a pack's file, relative to the policy directory.
func packFileName(name string) string { return "packs/" + name + ".toml" }

// packName is the name of the pack whose file is file.
func packName(file string) string {
	return strings.TrimSuffix(strings.TrimPrefix(file, "packs/"), ".toml")
}

// decodePack decodes a pack: version = 1 and command rules, nothing else.
func decodePack(file string, src []byte) (*policyFile, error) {
	pf, err := decodeFile(file, src)
	if err != nil {
		return nil, err
	}
	if pf.Version != 1 {
		return nil, fmt.Errorf("%s: a pack has version = 1", file)
	}
	rest := *pf
	rest.Version, rest.Command = 0, nil
	if !reflect.ValueOf(rest).IsZero() || len(pf.Command) == 0 {
		return nil, fmt.Errorf("%s: a pack holds command rules and nothing else", file)
	}
	return pf, nil
}

// includePacks lays the named packs over the base policy's rules, in order.
func includePacks(base ruleSource, names []string) (ruleSource, error) {
	rules := base
	for i, name := range names {
		if slices.Contains(names[:i], name) {
			return ruleSource{}, fmt.Errorf("pack %q is included twice", name)
		}
		pf, ok := packFile(name)
		if !ok {
			msg := fmt.Sprintf("there is no pack %q (want one of %s)", name, strings.Join(Packs(), ", "))
			for _, p := range Packs() {
				if editDistance(name, p) <= 2 {
					msg += fmt.Sprintf("; did you mean %q?", p)
					break
				}
			}
			return ruleSource{}, fmt.Errorf("%s", msg)
		}
		var err error
		if rules, err = mergePack(rules, name, pf.Command); err != nil {
			return ruleSource{}, fmt.Errorf("pack %q: %v", name, err)
		}
	}
	return rules, nil
}

// mergePack lays a pack's command rules over base's.
func mergePack(base ruleSource, pack string, cmds map[string]ruleFile) (ruleSource, error) {
	origin := packFileName(pack)
	merged := make(map[string]ruleFile, len(cmds))
	var globs []string // the base's pattern rules (mkfs.*)
	for _, pat := range base.names {
		if strings.Contains(pat, "*") {
			globs = append(globs, pat)
		}
	}
	added := false
	for _, name := range sortedKeys(cmds) {
		prf := mapRule(cmds[name], func(rf ruleFile) ruleFile { rf.origin = origin; return rf })
		brf, ok := base.rule(name)
		if !ok {
			for _, pat := range globs {
				if m, _ := path.Match(pat, name); m {
					return ruleSource{}, fmt.Errorf("its rule for %s would shadow the base policy's rule %s", name, pat)
				}
			}
			merged[name], added = prf, true
			continue
		}
		rf, err := mergeRule(brf, prf, name)
		if err != nil {
			return ruleSource{}, err
		}
		merged[name] = rf
	}
	names := base.names
	if added {
		names = union(base.names, sortedKeys(cmds))
	}
	return ruleSource{
		names: names,
		rule: func(name string) (ruleFile, bool) {
			if rf, ok := merged[name]; ok {
				return rf, true
			}
			return base.rule(name)
		},
		// Built in as the default's are: compiled when a call names them.
		eager: func(string) bool { return false },
	}, nil
}

// mergeRule lays a pack's rule over the base's rule for the same command:
// a pack's rule of subcommands only adds them, and replaces a bare rule.
func mergeRule(base, pack ruleFile, id string) (ruleFile, error) {
	if subsOnly(pack) {
		bs, ps := base.subs(), pack.subs()
		subs := make(map[string]ruleFile, len(ps.names))
		for _, name := range ps.names {
			sub, _ := ps.get(name)
			if bsub, ok := bs.get(name); ok {
				m, err := mergeRule(bsub, sub, id+" "+name)
				if err != nil {
					return ruleFile{}, err
				}
				sub = m
			}
			subs[name] = sub
		}
		out := base
		out.Sub = nil
		out.lazy = &subSource{
			names: union(bs.names, ps.names),
			get: func(name string) (ruleFile, bool) {
				if sub, ok := subs[name]; ok {
					return sub, true
				}
				return bs.get(name)
			},
		}
		return out, nil
	}
	if bare(base) {
		return pack, nil
	}
	return ruleFile{}, fmt.Errorf("its rule for %s would replace the base policy's, which is more than a verdict: a pack may add subcommands under a rule, not change it", id)
}

// bare reports whether a rule is a tier and its words and nothing else
// (cargo tree: ask), which a pack may replace: it checks no option, path
// or operand, and denies nothing.
func bare(rf ruleFile) bool {
	if rf.Verdict == "deny" {
		return false
	}
	rf.Verdict, rf.Reason, rf.Hint, rf.ID, rf.Examples, rf.origin = "", "", "", "", examplesFile{}, ""
	return reflect.ValueOf(rf).IsZero()
}

// subsOnly reports whether a rule holds subcommands and nothing else.
func subsOnly(rf ruleFile) bool {
	if !rf.hasSubs() {
		return false
	}
	rf.Sub, rf.lazy, rf.origin = nil, nil, ""
	return reflect.ValueOf(rf).IsZero()
}

// mapRule returns f applied to a rule and, lazily or not as it holds them,
// to each of its subcommands and its rest, at every level.
func mapRule(rf ruleFile, f func(ruleFile) ruleFile) ruleFile {
	rf = f(rf)
	if rf.lazy != nil {
		src := *rf.lazy
		rf.lazy = &subSource{names: src.names, get: func(name string) (ruleFile, bool) {
			sub, ok := src.get(name)
			return mapRule(sub, f), ok
		}}
	}
	if rf.Sub != nil {
		subs := make(map[string]ruleFile, len(rf.Sub))
		for k, v := range rf.Sub {
			subs[k] = mapRule(v, f)
		}
		rf.Sub = subs
	}
	if rf.Rest != nil {
		rest := mapRule(*rf.Rest, f)
		rf.Rest = &rest
	}
	return rf
}

// union merges two sorted lists of names into one, each name once.
func union(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0] < b[0]:
			out, a = append(out, a[0]), a[1:]
		case len(a) == 0 || b[0] < a[0]:
			out, b = append(out, b[0]), b[1:]
		default:
			out, a, b = append(out, a[0]), a[1:], b[1:]
		}
	}
	return out
}
