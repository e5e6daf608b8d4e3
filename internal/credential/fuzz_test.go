// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package credential

import (
	"math"
	"regexp"
	"sync"
	"testing"

	"github.com/BurntSushi/toml"
)

// oracleRule is a rule read from rules.toml by the test alone.
type oracleRule struct {
	id      string
	re      *regexp.Regexp
	entropy float64
	allow   []*regexp.Regexp
}

var oracleRules = sync.OnceValues(func() ([]oracleRule, error) {
	var f struct {
		Rule []struct {
			ID      string
			Regex   string
			Entropy float64
			Allow   []string
		}
	}
	if _, err := toml.Decode(string(rulesTOML), &f); err != nil {
		return nil, err
	}
	var out []oracleRule
	for _, r := range f.Rule {
		o := oracleRule{id: r.ID, entropy: r.Entropy}
		var err error
		if o.re, err = regexp.Compile(r.Regex); err != nil {
			return nil, err
		}
		for _, a := range r.Allow {
			re, err := regexp.Compile(a)
			if err != nil {
				return nil, err
			}
			o.allow = append(o.allow, re)
		}
		out = append(out, o)
	}
	return out, nil
})

// oracle is Find done the slow way: every rule's regexp over all of data,
// each match's secret (its first non-empty group, or all of it) checked
// for entropy and against the allow list, the first one kept.
func oracle(t *testing.T, data []byte) (Match, bool) {
	rules, err := oracleRules()
	if err != nil {
		t.Fatal(err)
	}
	best, found := Match{}, false
	for _, r := range rules {
		for _, loc := range r.re.FindAllSubmatchIndex(data, -1) {
			start, end := loc[0], loc[1]
			for i := 2; i < len(loc); i += 2 {
				if loc[i] >= 0 && loc[i+1] > loc[i] {
					start, end = loc[i], loc[i+1]
					break
				}
			}
			secret := data[start:end]
			if r.entropy > 0 && shannon(secret) <= r.entropy || anyMatch(r.allow, secret) {
				continue
			}
			if !found || start < best.Offset {
				best, found = Match{Rule: r.id, Offset: start}, true
			}
			break
		}
	}
	return best, found
}

func shannon(b []byte) float64 {
	counts := map[byte]float64{}
	for _, c := range b {
		counts[c]++
	}
	h := 0.0
	for _, n := range counts {
		p := n / float64(len(b))
		h -= p * math.Log2(p)
	}
	return h
}

func anyMatch(res []*regexp.Regexp, b []byte) bool {
	for _, re := range res {
		if re.Match(b) {
			return true
		}
	}
	return false
}

// insertable are tokens whose rules need no context around them, so that
// they are found wherever they are put.
func insertable() []string {
	c := newChars(6)
	return []string{
		"ghp_" + c.of(alnum, 36),
		"glpat-" + c.of(alnum, 20),
		"AGE-SECRET-KEY-1" + c.of("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
		"shpat_" + c.of(hexd, 32),
		"-----BEGIN " + "EC PRIVATE" + " KEY-----",
	}
}

// FuzzFind (go test -fuzz FuzzFind ./internal/credential) checks Find
// against the oracle, and that a token put into the text anywhere is
// found there or before.
func FuzzFind(f *testing.F) {
	for i, e := range examples() {
		data, _ := embed(e)
		f.Add(data, uint(i), uint8(i))
		f.Add([]byte(e.tok), uint(i*7), uint8(i))
	}
	f.Add([]byte("prose about ghp_ and AKIA, x.eyJhbGciOiJIUzI1NiJ9"), uint(3), uint8(1))
	f.Add([]byte("héllo wörld ſ K"), uint(2), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, where uint, which uint8) {
		m, ok := Find(data)
		want, wantOK := oracle(t, data)
		if ok != wantOK || ok && (m.Rule != want.Rule || m.Offset != want.Offset) {
			t.Fatalf("input: %q\nFind = %+v, %v; the regexps find %+v, %v", data, m, ok, want, wantOK)
		}
		if ok && m.Kind == "" {
			t.Fatalf("input: %q\nFind = %+v: no kind", data, m)
		}

		toks := insertable()
		tok := toks[int(which)%len(toks)]
		at := int(where % uint(len(data)+1))
		in := append(append(append([]byte(nil), data[:at]...), tok...), data[at:]...)
		m, ok = Find(in)
		if !ok || m.Offset > at {
			t.Fatalf("input: %q\nFind = %+v, %v; want a credential at or before %d", in, m, ok, at)
		}
		if want, _ := oracle(t, in); m.Rule != want.Rule || m.Offset != want.Offset {
			t.Fatalf("input: %q\nFind = %+v; the regexps find %+v", in, m, want)
		}
	})
}

// TestFindAgrees checks Find against the oracle on text made of pieces
// of the examples, cut and joined at random, with some bytes changed:
// tokens that touch, overlap, end early or hold a wrong byte.
func TestFindAgrees(t *testing.T) {
	ex := examples()
	c := newChars(7)
	pieces := []string{" ", "\n", "x", "_", "-", ".", "\"", "\u017f", "\u212a", "é", "\xff", "ey", "AA", "xxxxxxxxxxxxxxxxxxxx"}
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		var b []byte
		for range 1 + c.r.IntN(4) {
			if c.r.IntN(3) == 0 {
				b = append(b, pieces[c.r.IntN(len(pieces))]...)
				continue
			}
			tok := ex[c.r.IntN(len(ex))].tok
			i, j := c.r.IntN(len(tok)/4+1), len(tok)-c.r.IntN(len(tok)/4+1)
			b = append(b, tok[i:j]...)
		}
		for range c.r.IntN(3) {
			if len(b) > 0 {
				b[c.r.IntN(len(b))] = pieces[c.r.IntN(len(pieces))][0]
			}
		}
		m, ok := Find(b)
		want, wantOK := oracle(t, b)
		if ok != wantOK || ok && (m.Rule != want.Rule || m.Offset != want.Offset) {
			t.Fatalf("input: %q\nFind = %+v, %v; the regexps find %+v, %v", b, m, ok, want, wantOK)
		}
	}
}
