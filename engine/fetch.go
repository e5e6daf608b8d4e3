// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"fmt"
	"net/url"

	"github.com/bmatcuk/doublestar/v4"
)

// fetch decides a call that fetches a URL, by the policy's [fetch] table.
// Only http and https URLs with a host and no user are judged; their query
// and fragment do not count.
func (d *decider) fetch(name string) {
	raw := d.call.Input.URL
	u, err := url.Parse(raw)
	if raw == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		d.add(Leaf{Verdict: Deny, Kind: "input", Text: name + " " + raw, Rule: "fetch",
			Why: fmt.Sprintf("%s: %q is not an http or https URL guard can judge", name, raw)})
		return
	}
	bare := u.Scheme + "://" + u.Host + u.EscapedPath()
	for _, pat := range d.p.FetchAllow() {
		if ok, _ := doublestar.Match(pat, bare); ok {
			d.add(Leaf{Verdict: Allow, Kind: "fetch", Text: name + " " + raw, Rule: "fetch.allow " + pat,
				Why: fmt.Sprintf("%s: %s is allowed", name, bare)})
			return
		}
	}
	d.add(Leaf{Verdict: d.p.FetchUnlisted(), Kind: "fetch", Text: name + " " + raw, Rule: "fetch.unlisted",
		Why:  fmt.Sprintf("%s: no [fetch] pattern allows %s", name, bare),
		Hint: "fetch only what the policy's [fetch] allow list names"})
}
