// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"guard/agent"
	"guard/audit"
	"guard/internal/setup"
)

// runLog reconstructs sessions from the decision log, or verifies it.
func runLog(_ context.Context, s stdio, env getenv, args []string) error {
	if len(args) > 0 && args[0] == "verify" {
		return verifyLog(s, env, args[1:])
	}
	fs := newFlagSet("log", s)
	session := fs.String("session", "", "only this `session`")
	tool := fs.String("tool", "", "only calls of this `tool`")
	decision := fs.String("decision", "", "only calls with this `decision`: allowed, asked, denied or blocked-error")
	asJSON := fs.Bool("json", false, "print the log's entries as JSON lines, with whether each call ran")
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil || fs.NArg() > 0 {
		if typo := verbTypo(fs.Arg(0), "guard log ", []string{"verify"}); err == nil && typo != "" {
			return usageError(s, "log", "unknown command %q: %s", fs.Arg(0), typo)
		}
		return argsError(s, "log", err, "want no arguments but verify, got %q", fs.Arg(0))
	}
	if d := *decision; d != "" && !slices.Contains([]string{"allowed", "asked", "denied", "blocked-error"}, d) {
		return usageError(s, "log", "--decision %q: want allowed, asked, denied or blocked-error", d)
	}
	dir, err := logDir(s, env)
	if err != nil {
		return err
	}
	recs, problems, err := audit.Read(dir)
	if err != nil {
		fmt.Fprintf(s.err, "guard log: %v\n", err)
		return &exitError{code: 1}
	}
	for _, p := range problems {
		fmt.Fprintf(s.err, "guard log: %s (left out)\n", p)
	}
	steps := reconstruct(recs)
	steps = slices.DeleteFunc(steps, func(st step) bool {
		e := st.rec.Entry
		return *session != "" && e.Session != *session ||
			*tool != "" && e.Tool != *tool ||
			*decision != "" && e.Decision != *decision
	})
	if *asJSON {
		enc := json.NewEncoder(s.out)
		for _, st := range steps {
			if err := enc.Encode(struct {
				audit.Entry
				Outcome string `json:"outcome"`
			}{st.rec.Entry, st.outcome}); err != nil {
				return err
			}
		}
		return nil
	}
	printSteps(s, steps)
	if len(problems) > 0 {
		return &exitError{code: 1}
	}
	return nil
}

// A step is one line of a session's story: a decision and what became of
// the call, or an event (a grant, the session's end).
type step struct {
	rec     audit.Record
	outcome string // what became of a decided call: ran, blocked, not run
}

// reconstruct orders the log by session and sequence and says of each
// decided call whether it ran: a PostToolUse line of the same session and
// input after it says it did, and so does one that reports the command
// guard rewrote the call to (the same rewrite digest); a denied call never
// runs. An agent that reports nothing after a call runs what guard allowed.
func reconstruct(recs []audit.Record) []step {
	first := map[string]time.Time{} // sessions in the order they began
	for _, r := range recs {
		if t, ok := first[r.Entry.Session]; !ok || r.Entry.Time.Before(t) {
			first[r.Entry.Session] = r.Entry.Time
		}
	}
	slices.SortStableFunc(recs, func(a, b audit.Record) int {
		if a.Entry.Session != b.Entry.Session {
			if c := first[a.Entry.Session].Compare(first[b.Entry.Session]); c != 0 {
				return c
			}
			return strings.Compare(a.Entry.Session, b.Entry.Session)
		}
		return int(a.Entry.Seq - b.Entry.Seq)
	})
	steps := make([]step, len(recs))
	for i, r := range recs {
		steps[i].rec = r
		e := r.Entry
		if e.Event != "PreToolUse" {
			continue
		}
		switch e.Decision {
		case "denied", "blocked-error":
			steps[i].outcome = "blocked"
			continue
		}
		steps[i].outcome = "not run"
		if e.Decision == "asked" {
			steps[i].outcome = "not run (not approved, or not reported)"
		}
		ad := agent.Adapters()[e.Agent]
		switch {
		case ad == nil:
			// guard serve and the API: the harness runs the call and
			// reports nothing after.
			steps[i].outcome = "not reported"
			continue
		case !ad.Reports() && e.Decision == "allowed":
			steps[i].outcome = "ran, not reported"
			continue
		case !ad.Reports():
			steps[i].outcome = "not reported"
			continue
		}
		for _, later := range recs[i+1:] {
			le := later.Entry
			if le.Session != e.Session {
				break
			}
			if le.Event == "PreToolUse" && le.Digest == e.Digest {
				break // asked again: that one is what ran, if anything
			}
			if le.Event != "PostToolUse" {
				continue
			}
			if e.RewriteDigest != "" && le.RewriteDigest == e.RewriteDigest {
				steps[i].outcome = "ran"
				break
			}
			if le.Digest == e.Digest {
				steps[i].outcome = "ran"
				if e.RewriteDigest != "" {
					steps[i].outcome = "ran (reported without guard's rewrite)"
				}
				break
			}
		}
	}
	return steps
}

// printSteps writes the steps of each session in order, with the
// authority of each decision.
func printSteps(s stdio, steps []step) {
	if len(steps) == 0 {
		fmt.Fprintln(s.out, "no entries")
		return
	}
	tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
	session := "\x00"
	for _, st := range steps {
		e := st.rec.Entry
		if e.Session != session {
			if session != "\x00" {
				fmt.Fprintln(tw)
			}
			session = e.Session
			fmt.Fprintf(tw, "session %s\n", e.Session)
			fmt.Fprintln(tw, "  SEQ\tTIME\tEVENT\tTOOL\tDECISION\tAUTHORITY\tOUTCOME\tCALL")
		}
		what := e.Decision
		if e.Tier != "" {
			what += " (" + e.Tier + ")"
		}
		if e.Review {
			what += " review"
		}
		if e.Profile != "" {
			what += ", sandbox " + e.Profile
		}
		auth := e.Authority
		if e.Grant != "" {
			auth += " " + e.Grant
		}
		if len(e.Rules) > 0 && e.Event == "PreToolUse" {
			auth += " [" + strings.Join(e.Rules, ", ") + "]"
		}
		call := e.Call
		if e.Event == "grant" || e.Event == "revoke" {
			call = e.Reason + ": " + e.Call
		} else if e.Event == "SessionEnd" {
			call = e.Reason
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Seq, e.Time.Local().Format(time.TimeOnly), e.Event, e.Tool,
			what, auth, st.outcome, call)
	}
	tw.Flush()
}

// logDir returns the decision log's directory, or the error that ends the
// verb: there is no state directory.
func logDir(s stdio, env getenv) (string, error) {
	dlog := setup.DecisionLog(setup.Getenv(env))
	if dlog == nil {
		fmt.Fprintln(s.err, "guard log: no state directory: set HOME or XDG_STATE_HOME")
		return "", &exitError{code: 1}
	}
	return dlog.Dir, nil
}

// verifyLog checks the log's chains: every line of every session in order,
// none edited, removed, inserted or moved.
func verifyLog(s stdio, env getenv, args []string) error {
	if helped, err := noArgs("log verify", s, args); helped || err != nil {
		return err
	}
	dir, err := logDir(s, env)
	if err != nil {
		return err
	}
	problems, err := audit.Verify(dir)
	if err != nil {
		fmt.Fprintf(s.err, "guard log verify: %v\n", err)
		return &exitError{code: 1}
	}
	for _, p := range problems {
		fmt.Fprintf(s.out, "%s\n", p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(s.out, "guard log verify: %d problems\n", len(problems))
		return &exitError{code: 1}
	}
	fmt.Fprintln(s.out, "guard log verify: every chain is whole")
	return nil
}
