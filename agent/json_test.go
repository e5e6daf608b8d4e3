// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package agent

import (
	"encoding/json"
	"testing"
)

// FuzzJSONString checks appendJSONString against encoding/json, which
// writes the same answers by reflection.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "git status is allowed", `a "quoted" \ path`, "tab\tnew\nline\r\b\f\x00\x1f\x7f",
		"<script>&amp;</script>", "caf\u00e9 \u2028\u2029 \U0001F600", "bad \xff\xfe utf-8 \xe2\x82", "\xed\xa0\x80 surrogate"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}
