// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"guard/internal/setup"
	"guard/state"
)

// runGrants lists and revokes the session tier's grants.
func runGrants(_ context.Context, s stdio, env getenv, args []string) error {
	if len(args) == 0 {
		return usageError(s, "grants", "want list or revoke")
	}
	if args[0] == "--help" || args[0] == "-h" || args[0] == "-help" {
		fmt.Fprintf(s.out, "usage: guard grants list [--session ID] [--json]\n       guard grants revoke ID | --session ID | --all\n\nlist and revoke the session tier's grants: guard grants list --help and guard grants revoke --help say more.\n")
		return nil
	}
	switch args[0] {
	case "list":
		return listGrants(s, env, args[1:])
	case "revoke":
		return revokeGrants(s, env, args[1:])
	}
	if typo := verbTypo(args[0], "guard grants ", []string{"list", "revoke"}); typo != "" {
		return usageError(s, "grants", "unknown command %q: %s", args[0], typo)
	}
	return usageError(s, "grants", "unknown command %q: want list or revoke", args[0])
}

// grantStore returns the session grants' store, or the error that ends
// the verb: there is no state directory.
func grantStore(s stdio, env getenv) (*state.Store, error) {
	store := setup.GrantStore(setup.Getenv(env), nil)
	if store == nil {
		fmt.Fprintln(s.err, "guard grants: no state directory: set HOME or XDG_STATE_HOME")
		return nil, &exitError{code: 1}
	}
	return store, nil
}

func listGrants(s stdio, env getenv, args []string) error {
	fs := newFlagSet("grants list", s)
	session := fs.String("session", "", "only the grants of this `session`")
	asJSON := fs.Bool("json", false, "print the grants as JSON")
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil || fs.NArg() > 0 {
		return argsError(s, "grants", err, "list: want no arguments, got %q", fs.Arg(0))
	}
	store, err := grantStore(s, env)
	if err != nil {
		return err
	}
	gs, err := store.List(*session)
	if err != nil {
		fmt.Fprintf(s.err, "guard grants: %v\n", err)
		return &exitError{code: 1}
	}
	if *asJSON {
		if gs == nil {
			gs = []state.Grant{}
		}
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(gs)
	}
	if len(gs) == 0 {
		fmt.Fprintln(s.out, "no grants")
		return nil
	}
	tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSESSION\tSCOPE\tGRANTED\tEXPIRES\tAPPROVED")
	for _, g := range gs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", g.ID, g.Session, g.Scope.String(), g.GrantedAt.Local().Format(time.DateTime),
			g.Expires.Local().Format(time.DateTime), approved(g))
	}
	return tw.Flush()
}

// approved is what the user approved for a grant: the part, after its
// tool unless the part names it.
func approved(g state.Grant) string {
	if g.Tool == "" || strings.HasPrefix(g.Text, g.Tool+" ") {
		return oneLine(g.Text)
	}
	return g.Tool + ": " + oneLine(g.Text)
}

func revokeGrants(s stdio, env getenv, args []string) error {
	fs := newFlagSet("grants revoke", s)
	session := fs.String("session", "", "revoke every grant of this `session`")
	all := fs.Bool("all", false, "revoke every grant of every session")
	if helped, err := parseFlags(fs, s, args); helped {
		return nil
	} else if err != nil {
		return usageError(s, "grants", "")
	}
	every, one := *all && *session == "" && fs.NArg() == 0, fs.NArg() == 1 && !*all && *session == ""
	if !every && !one && (*session == "" || *all || fs.NArg() > 0) {
		return usageError(s, "grants", "revoke: want a grant's ID, --session ID or --all")
	}
	store, err := grantStore(s, env)
	if err != nil {
		return err
	}
	var revoked []state.Grant
	switch {
	case every:
		var gs []state.Grant
		if gs, err = store.List(""); err == nil {
			sessions := map[string]bool{}
			for _, g := range gs {
				sessions[g.Session] = true
			}
			for id := range sessions {
				ended, e := store.EndSession(id)
				revoked, err = append(revoked, ended...), errors.Join(err, e)
			}
		}
	case one:
		g, ok, e := store.Revoke(fs.Arg(0))
		if e == nil && !ok {
			fmt.Fprintf(s.err, "guard grants: no grant %s\n", fs.Arg(0))
			return &exitError{code: 1}
		}
		revoked, err = []state.Grant{g}, e
	default: // --session ID
		revoked, err = store.EndSession(*session)
	}
	if err != nil {
		fmt.Fprintf(s.err, "guard grants: %v\n", err)
		return &exitError{code: 1}
	}
	for _, g := range revoked {
		fmt.Fprintf(s.out, "revoked %s (%s, session %s)\n", g.ID, g.Scope.String(), g.Session)
		if dlog := setup.DecisionLog(setup.Getenv(env)); dlog != nil {
			for _, e := range setup.GrantEntries("revoke", g.Session, setup.ByUser, []state.Grant{g}) {
				if err := dlog.Append(e); err != nil {
					fmt.Fprintf(s.err, "guard grants: warning: the revoke was not logged: %v\n", err)
				}
			}
		}
	}
	if len(revoked) == 0 {
		fmt.Fprintln(s.out, "no grants to revoke")
	}
	return nil
}
