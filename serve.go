// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package guard

// The line protocol of guard serve, for a harness in any language: one
// JSON object a line on stdin, one answer a line on stdout, in order, each
// flushed as it is decided. One process serves one agent session; the
// policy is loaded once and again when its file changes.
//
//	in:  {"id": "7", "kind": "shell", "input": {"command": "go test ./..."}, "cwd": "/abs/dir"}
//	out: {"id": "7", "decision": "allow", "reason": "...", "hint": "...", "rule": "..."}
//
// An answer may carry "rewrite", the command to run instead, and, for a
// search, "glob", the glob field to run it with instead of the call's
// ([Options.SearchGlobs]).
//
// A line that is not a call guard can judge (not JSON, an unknown kind or
// field, a missing field, a relative cwd, a line over MaxInput) gets a
// deny that says why, with the line's id where it has one, and the next
// line is decided all the same.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// serveKinds are the kinds of call guard serve takes, with the fields of
// each one's input and whether each is required.
var serveKinds = map[string]map[string]bool{
	Shell:  {"command": true},
	Read:   {"path": true},
	List:   {"path": false, "pattern": false},
	Search: {"path": false, "pattern": false, "glob": false},
	Write:  {"path": true, "content": false},
	Edit:   {"path": true, "old": false, "new": false},
	Fetch:  {"url": true},
	Tool:   {"name": true, "input": false},
}

// serveCall is one line of guard serve's input.
type serveCall struct {
	ID      json.RawMessage            `json:"id"`
	Kind    string                     `json:"kind"`
	Input   map[string]json.RawMessage `json:"input"`
	Cwd     string                     `json:"cwd"`
	Session string                     `json:"session"`
}

// serveAnswer is one line of guard serve's output.
type serveAnswer struct {
	ID       json.RawMessage `json:"id"`
	Decision Verdict         `json:"decision"`
	Reason   string          `json:"reason"`
	Hint     string          `json:"hint,omitempty"`
	Rule     string          `json:"rule,omitempty"`
	Rewrite  string          `json:"rewrite,omitempty"`
	Glob     string          `json:"glob,omitempty"`
}

// Serve answers each line of in on out until in ends, as guard serve
// does: one call a line, one answer a line, in order, each flushed as it
// is decided (see the protocol above). e decides, and its policy file is
// loaded again before each line when it changed; e is nil while the
// policy does not load, and opts is then tried again before each line,
// every call denied until it loads.
func Serve(ctx context.Context, in io.Reader, out io.Writer, e *Engine, opts Options) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	var loadErr error
	for ctx.Err() == nil {
		line, tooLong, err := readLine(r, MaxInput)
		if len(line) == 0 && !tooLong && err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("guard serve: reading: %v", err)
		}
		var a serveAnswer
		switch {
		case e == nil:
			if e, loadErr = Load(opts); loadErr != nil {
				e = nil
				a = serveAnswer{Decision: Deny, Reason: "the policy does not load, so every call is denied: " + loadErr.Error(), Hint: "fix the policy file"}
				a.ID = lineID(line)
				break
			}
			a = answer(e, line, tooLong)
		default:
			e.Reload()
			a = answer(e, line, tooLong)
		}
		if a.ID == nil {
			a.ID = json.RawMessage("null")
		}
		data, err := json.Marshal(a)
		if err != nil {
			return err
		}
		w.Write(append(data, '\n'))
		if err := w.Flush(); err != nil {
			return fmt.Errorf("guard serve: writing: %v", err)
		}
	}
	return ctx.Err()
}

// readLine reads one line without its newline. A line longer than max is
// read to its end and reported too long, with its first max bytes.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 {
			tooLong = true
			if room := max - len(line); room > 0 {
				line = append(line, chunk[:room]...)
			}
		} else {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		return bytes.TrimSuffix(line, []byte("\r")), tooLong, err
	}
}

// lineID returns the id of a line that may not be a valid call, or nil.
func lineID(line []byte) json.RawMessage {
	var c struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &c) != nil || !validID(c.ID) {
		return nil
	}
	return c.ID
}

// validID reports whether an id is one guard serve echoes: a string or a
// number.
func validID(id json.RawMessage) bool {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return false
	}
	var v any
	if json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

// answer decides one line.
func answer(e *Engine, line []byte, tooLong bool) serveAnswer {
	refuse := func(id json.RawMessage, format string, a ...any) serveAnswer {
		return serveAnswer{ID: id, Decision: Deny, Reason: fmt.Sprintf(format, a...),
			Hint: `send one JSON object a line: {"id": "1", "kind": "shell", "input": {"command": "..."}, "cwd": "/abs/dir"}`}
	}
	id := lineID(line)
	if tooLong {
		return refuse(id, "the line is longer than %d bytes", MaxInput)
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return refuse(nil, "the line is empty")
	}
	var c serveCall
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return refuse(id, "the line is not a call guard can read: %v", err)
	}
	if dec.More() {
		return refuse(id, "the line has more after its JSON object")
	}
	if !validID(c.ID) {
		return refuse(nil, "the call has no id (a string or a number)")
	}
	fields, ok := serveKinds[c.Kind]
	if !ok {
		return refuse(c.ID, "unknown kind %q: want one of %s", c.Kind, strings.Join(slices.Sorted(maps.Keys(serveKinds)), ", "))
	}
	str := map[string]string{}
	for k, v := range c.Input {
		if _, ok := fields[k]; !ok {
			return refuse(c.ID, "a %s call's input has no field %q: it has %s", c.Kind, k, strings.Join(slices.Sorted(maps.Keys(fields)), ", "))
		}
		if k == "input" || k == "content" || k == "old" || k == "new" {
			continue // not judged
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			return refuse(c.ID, "the %s call's %q is not a string", c.Kind, k)
		}
		str[k] = s
	}
	for k, required := range fields {
		if _, ok := c.Input[k]; required && !ok {
			return refuse(c.ID, "the %s call's input has no %q", c.Kind, k)
		}
	}
	call := Call{Kind: c.Kind, Cwd: c.Cwd, Session: c.Session, Command: str["command"], Path: str["path"], Pattern: str["pattern"], Glob: str["glob"], URL: str["url"]}
	if c.Kind == Tool {
		call.Tool = str["name"]
	}
	d := e.Decide(call)
	return serveAnswer{ID: c.ID, Decision: d.Verdict, Reason: d.Reason, Hint: d.Hint, Rule: d.Rule, Rewrite: d.Rewrite, Glob: d.Glob}
}

// globLeavesPath reports whether a search's glob may name files outside
// the search's path, as the harness's glob may read it: an absolute or ~
// pattern, a .. anywhere (a brace alternative, {..,x}/.env, is ../.env
// once expanded), a brace alternative that starts at / or ~
// ({x,/etc}/*), or a backslash, which escapes a character guard then
// reads otherwise than the glob does.
func globLeavesPath(g string) bool {
	return strings.HasPrefix(g, "/") || strings.HasPrefix(g, "~") || strings.Contains(g, "..") ||
		strings.ContainsRune(g, '\\') ||
		strings.Contains(g, "{/") || strings.Contains(g, ",/") || strings.Contains(g, "{~") || strings.Contains(g, ",~")
}
