// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package credential

import (
	"bytes"
	_ "embed"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

//go:embed rules.toml
var rulesTOML []byte

// ruleFile is the format of rules.toml.
type ruleFile struct {
	Rule []ruleEntry `toml:"rule"`
}

// ruleEntry is one [[rule]] of rules.toml.
type ruleEntry struct {
	ID       string   `toml:"id"`
	Kind     string   `toml:"kind"`
	Keywords []string `toml:"keywords"`
	Fold     bool     `toml:"fold"`
	Regex    string   `toml:"regex"`
	Entropy  float64  `toml:"entropy"`
	Allow    []string `toml:"allow"`
}

// A rule is one compiled credential shape.
type rule struct {
	id, kind string
	// re matches the rule's regexp R at the start of the text, after one
	// rune of context: ^(?s:.)(R). atStart is ^(R), for a match at 0.
	// Group 1 is R's match; R's own groups follow. They are compiled when
	// first used, as most content needs few of them.
	re, atStart func() *regexp.Regexp
	// maxLen bounds R's match in bytes, or is -1.
	maxLen int
	// before bounds, in bytes, how far into a match its first keyword
	// begins: 0 when every match begins with a keyword.
	before int
	// heads, when not nil, are literals one of which begins every match.
	heads   []literal
	entropy float64          // a secret's entropy must exceed it
	allow   []*regexp.Regexp // a secret any of these match is not one
}

// scanner is the compiled rule set.
type scanner struct {
	rules     []*rule
	keywords  []keyword
	users     [][]int // users[k]: the indexes of the rules that have keywords[k]
	anchors   []*anchor
	maxBefore int
}

var compiled = sync.OnceValue(func() *scanner {
	s, err := compile(rulesTOML)
	if err != nil {
		panic("credential: rules.toml: " + err.Error()) // TestRules fails first
	}
	return s
})

// compile decodes and checks a rule file.
func compile(src []byte) (*scanner, error) {
	var f ruleFile
	md, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&f)
	if err != nil {
		return nil, err
	}
	if un := md.Undecoded(); len(un) > 0 {
		return nil, fmt.Errorf("unknown key %q", un[0].String())
	}
	s := &scanner{}
	kwIndex := map[keyword]int{}
	ids := map[string]bool{}
	for _, fr := range f.Rule {
		r, kws, err := compileRule(fr)
		if err != nil {
			return nil, fmt.Errorf("rule %q: %v", fr.ID, err)
		}
		if ids[r.id] {
			return nil, fmt.Errorf("rule %q: a second rule has this id", r.id)
		}
		ids[r.id] = true
		for _, k := range kws {
			i, ok := kwIndex[k]
			if !ok {
				i = len(s.keywords)
				kwIndex[k] = i
				s.keywords = append(s.keywords, k)
				s.users = append(s.users, nil)
			}
			s.users[i] = append(s.users[i], len(s.rules))
		}
		s.rules = append(s.rules, r)
		s.maxBefore = max(s.maxBefore, r.before)
	}
	if len(s.rules) == 0 {
		return nil, fmt.Errorf("no rules")
	}
	s.anchors, err = buildAnchors(s.keywords)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// compileRule checks and compiles one rule, and returns its keywords.
func compileRule(e ruleEntry) (*rule, []keyword, error) {
	switch {
	case e.ID == "" || strings.ContainsAny(e.ID, " \t\n"):
		return nil, nil, fmt.Errorf("empty id, or an id with white space")
	case e.Kind == "":
		return nil, nil, fmt.Errorf("no kind")
	case len(e.Keywords) == 0:
		return nil, nil, fmt.Errorf("no keywords")
	case !(e.Entropy >= 0):
		return nil, nil, fmt.Errorf("entropy %v is not a number of bits", e.Entropy)
	}
	var kws []keyword
	for _, w := range e.Keywords {
		if len(w) < 2 {
			return nil, nil, fmt.Errorf("keyword %q: shorter than 2 bytes", w)
		}
		for i := 0; i < len(w); i++ {
			if w[i] < ' ' || w[i] > '~' {
				return nil, nil, fmt.Errorf("keyword %q: not printable ASCII", w)
			}
		}
		if slices.Contains(kws, keyword{w, e.Fold}) {
			return nil, nil, fmt.Errorf("keyword %q: listed twice", w)
		}
		kws = append(kws, keyword{w, e.Fold})
	}
	tree, err := syntax.Parse(e.Regex, syntax.Perl)
	if err != nil {
		return nil, nil, err
	}
	before, ok := reach(tree, kws)
	if !ok {
		return nil, nil, fmt.Errorf("a match need not hold a keyword within a bounded distance of its start")
	}
	r := &rule{id: e.ID, kind: e.Kind, before: before, entropy: e.Entropy, maxLen: -1}
	if n, ok := maxLen(tree); ok {
		r.maxLen = n
	}
	if hs, _ := headsOf(tree); before > 0 && !slices.ContainsFunc(hs, func(h literal) bool { return len(h) == 0 }) {
		r.heads = hs
	}
	r.re = lazyRegexp(`^(?s:.)(` + e.Regex + `)`)
	r.atStart = lazyRegexp(`^(` + e.Regex + `)`)
	for _, a := range e.Allow {
		re, err := regexp.Compile(a)
		if err != nil {
			return nil, nil, fmt.Errorf("allow: %v", err)
		}
		r.allow = append(r.allow, re)
	}
	return r, kws, nil
}

// lazyRegexp compiles expr when first called. expr has been parsed: it
// compiles (TestRules compiles them all).
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp {
		re, err := regexp.Compile(expr)
		if err != nil {
			panic("credential: " + err.Error())
		}
		return re
	})
}

// accepts reports whether secret passes the rule's entropy and allow list.
func (r *rule) accepts(secret []byte) bool {
	if r.entropy > 0 && entropy(secret) <= r.entropy {
		return false
	}
	for _, a := range r.allow {
		if a.Match(secret) {
			return false
		}
	}
	return true
}

// entropy returns the Shannon entropy of b's bytes, in bits.
func entropy(b []byte) float64 {
	var counts [256]int
	for _, c := range b {
		counts[c]++
	}
	h := 0.0
	for _, n := range counts {
		if n > 0 {
			p := float64(n) / float64(len(b))
			h -= p * math.Log2(p)
		}
	}
	return h
}
