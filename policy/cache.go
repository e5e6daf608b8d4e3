// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
)

// A policy file's cache form is its decoded form as JSON: the file without
// its command rules on the first line, then each rule apart. A hook that
// loads a large policy from it decodes no TOML and only the rules its call
// names; encoding/json is linked already, so the form costs no package
// initialisation. The form carries no trust of its own: whoever keeps it
// must keep it where no call can write and check that it is the form of
// the same source, made by the same build (internal/setup does).

// cacheHeader is the first line of a cache form.
type cacheHeader struct {
	File  policyFile // the file, its command rules left out
	Names []string   // the command rules' names, sorted
	Ends  []int      // where each rule's JSON ends in the rest of the form
}

// CacheForm decodes a policy file's source and returns its cache form. It
// fails when the form would not decode back to exactly the file.
func CacheForm(name string, src []byte) ([]byte, error) {
	pf, err := decodeFile(name, src)
	if err != nil {
		return nil, err
	}
	return encodeForm(pf)
}

// encodeForm returns the cache form of a decoded file, checked to decode
// back to it.
func encodeForm(pf *policyFile) ([]byte, error) {
	h := cacheHeader{File: *pf, Names: sortedKeys(pf.Command)}
	h.File.Command = nil
	var body bytes.Buffer
	for _, n := range h.Names {
		b, err := json.Marshal(pf.Command[n])
		if err != nil {
			return nil, err
		}
		body.Write(b)
		h.Ends = append(h.Ends, body.Len())
	}
	head, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	form := append(append(head, '\n'), body.Bytes()...)

	// JSON and TOML do not hold quite the same values (a string that is
	// not UTF-8, say): the form must give back the file it came from.
	back, names, rules, err := decodeForm(form)
	if err != nil {
		return nil, err
	}
	if len(names) > 0 {
		back.Command = make(map[string]ruleFile, len(names))
	}
	for _, n := range names {
		rf, err := rules(n)
		if err != nil {
			return nil, err
		}
		back.Command[n] = rf
	}
	if len(pf.Command) == 0 {
		back.Command = pf.Command
	}
	if !reflect.DeepEqual(back, pf) {
		return nil, errors.New("the policy's cache form does not decode to the policy")
	}
	return form, nil
}

// LoadCacheForm builds the policy of src from its cache form, as
// LoadUnchecked does from src, but for one thing: the file's own command
// rules are compiled when a call first names them, not at load. So the
// caller vouches that src loaded, with its examples passing, in this
// build, and that form is CacheForm(src) of this build. A rule whose
// JSON does not decode does not compile: a call that names it fails
// closed.
func LoadCacheForm(name string, src, form []byte) (*Policy, error) {
	pf, names, rules, err := decodeForm(form)
	if err != nil {
		return nil, err
	}
	own := ruleSource{
		names: names,
		rule: func(name string) (ruleFile, bool) {
			if _, ok := slices.BinarySearch(names, name); !ok {
				return ruleFile{}, false
			}
			rf, err := rules(name)
			if err != nil {
				// An impossible verdict: the rule fails to compile.
				return ruleFile{Verdict: "(damaged cache form: " + err.Error() + ")"}, true
			}
			return rf, true
		},
		eager: func(string) bool { return false },
	}
	return load(name, src, pf, own)
}

// decodeForm decodes a cache form's first line. It returns the file
// without its command rules, their names, and a function that decodes a
// rule by name.
func decodeForm(form []byte) (*policyFile, []string, func(name string) (ruleFile, error), error) {
	i := bytes.IndexByte(form, '\n')
	if i < 0 {
		return nil, nil, nil, errors.New("a cache form has no first line")
	}
	var h cacheHeader
	if err := json.Unmarshal(form[:i], &h); err != nil {
		return nil, nil, nil, fmt.Errorf("cache form: %v", err)
	}
	body := form[i+1:]
	if len(h.Ends) != len(h.Names) || !slices.IsSorted(h.Names) || len(slices.Compact(slices.Clone(h.Names))) != len(h.Names) {
		return nil, nil, nil, errors.New("cache form: its rules' names and ends do not match")
	}
	start := 0
	for _, end := range h.Ends {
		if end < start || end > len(body) {
			return nil, nil, nil, errors.New("cache form: a rule's end is out of place")
		}
		start = end
	}
	if start != len(body) {
		return nil, nil, nil, errors.New("cache form: bytes after the last rule")
	}
	rules := func(name string) (ruleFile, error) {
		k, ok := slices.BinarySearch(h.Names, name)
		if !ok {
			return ruleFile{}, fmt.Errorf("no rule %q", name)
		}
		start := 0
		if k > 0 {
			start = h.Ends[k-1]
		}
		var rf ruleFile
		if err := json.Unmarshal(body[start:h.Ends[k]], &rf); err != nil {
			return ruleFile{}, fmt.Errorf("rule %s: %v", name, err)
		}
		return rf, nil
	}
	return &h.File, h.Names, rules, nil
}
