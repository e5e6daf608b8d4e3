// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package oracle

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"guard/engine"
	"guard/policy"
)

// guard decides a call by the file system it sees: the links, the
// repositories and the go.mod files of the paths the call names. The
// oracle's paths (/run/home/project) exist only in the sandbox, so the
// tests decide there, in a sandbox with the same trees as the runs: the
// test binary, run with deciderArg, reads the requests on its standard
// input and writes the decisions on its standard output.

const deciderArg = "-oracle.decider"

// deciderPath is where the test binary is in the deciding sandbox: the
// private /tmp hides the go build directory it is in.
const deciderPath = "/run/oracle-decider"

// request is a call to decide, by the default policy or a profile.
type request struct {
	Call    engine.Call
	Profile string
}

// runDecider is the deciding process: it answers each request, in order.
func runDecider(r io.Reader, w io.Writer) error {
	var reqs []request
	if err := json.NewDecoder(r).Decode(&reqs); err != nil {
		return err
	}
	policies := map[string]*policy.Policy{}
	out := make([]engine.Decision, len(reqs))
	for i, q := range reqs {
		p := policies[q.Profile]
		if p == nil {
			var err error
			if q.Profile == "" {
				p, err = policy.Default()
			} else {
				p, err = policy.Builtin(q.Profile)
			}
			if err != nil {
				return err
			}
			policies[q.Profile] = p
		}
		out[i] = engine.Decide(p, q.Call)
	}
	return json.NewEncoder(w).Encode(out)
}

// decideInSandbox decides the requests in a sandbox with the trees of the
// runs.
func decideInSandbox(sb *Sandbox, reqs []request) ([]engine.Decision, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	in, err := json.Marshal(reqs)
	if err != nil {
		return nil, err
	}
	out, err := sb.Exec(context.Background(), []string{deciderPath, deciderArg}, in, map[string]string{exe: deciderPath})
	if err != nil {
		return nil, fmt.Errorf("deciding in the sandbox: %v", err)
	}
	var ds []engine.Decision
	if err := json.Unmarshal(out, &ds); err != nil {
		return nil, fmt.Errorf("deciding in the sandbox: %v", err)
	}
	if len(ds) != len(reqs) {
		return nil, fmt.Errorf("deciding in the sandbox: %d decisions for %d calls", len(ds), len(reqs))
	}
	return ds, nil
}
