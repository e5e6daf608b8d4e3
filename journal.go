// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package guard

import (
	"errors"
	"fmt"
	"io"

	"guard/audit"
	"guard/internal/setup"
)

// journal is the decision log as the doors write it: guard hook's events
// and guard serve's and the API's calls, each entry built by
// setup.LogEntry and appended here.
type journal struct {
	log  *audit.Log // nil: guard has no state directory
	warn io.Writer  // where a failure to log is said; nil says nothing
}

func newJournal(env setup.Getenv, warn io.Writer) journal {
	return journal{log: setup.DecisionLog(env), warn: warn}
}

// write appends the entries, in order.
func (j journal) write(entries ...audit.Entry) error {
	if j.log == nil {
		return setup.ErrNoLog
	}
	for _, e := range entries {
		if err := j.log.Append(e); err != nil {
			return err
		}
	}
	return nil
}

// warnOf says err, unless it is nil or only that there is no log.
func (j journal) warnOf(err error) {
	if err == nil || errors.Is(err, setup.ErrNoLog) || j.warn == nil {
		return
	}
	fmt.Fprintf(j.warn, "guard: warning: %v\n", err)
}
