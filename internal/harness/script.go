// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package harness

import (
	"context"
	"errors"
	"slices"
)

// Script is a [Model] for tests: it answers each request with its next
// step, and records every request it gets. It is not safe for concurrent
// use.
type Script struct {
	Steps    []Step
	Requests []Request // the requests so far, in order
}

// Step is one scripted answer: a reply, or an error.
type Step struct {
	Reply Reply
	Err   error
}

// ErrNoStep is the answer to a request after the last step.
var ErrNoStep = errors.New("script: no step left")

func (s *Script) Complete(_ context.Context, req Request) (Reply, error) {
	req.Messages, req.Tools = slices.Clone(req.Messages), slices.Clone(req.Tools)
	s.Requests = append(s.Requests, req)
	if len(s.Requests) > len(s.Steps) {
		return Reply{}, ErrNoStep
	}
	st := s.Steps[len(s.Requests)-1]
	return st.Reply, st.Err
}
