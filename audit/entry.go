// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package audit

import (
	"strconv"
	"time"
)

// Entry is one line of the log: one decision, or one event of a session
// such as its end or a grant.
//
// The caller fills in everything but Seq and Prev, which [Log.Append] sets.
// A Session that is empty or not a plain name (1 to 128 bytes of
// A-Z a-z 0-9 . _ -, and neither "." nor "..") is logged as the session
// "-"; the original id is not kept.
type Entry struct {
	Time      time.Time `json:"time"`                // when, in UTC; Append sets the current time when it is zero
	Session   string    `json:"session"`             // the agent's session id
	Seq       int64     `json:"seq"`                 // 1, 2, 3, … within the session
	Event     string    `json:"event"`               // PreToolUse, PostToolUse, SessionEnd, grant, revoke, …
	Agent     string    `json:"agent,omitempty"`     // the agent that asked, such as claude
	Tool      string    `json:"tool,omitempty"`      // the tool called, such as Bash
	Digest    string    `json:"digest,omitempty"`    // the SHA-256 of the tool input, in hex
	Call      string    `json:"call,omitempty"`      // the call in one line, with its secrets masked by Redact
	Tier      string    `json:"tier,omitempty"`      // the tool's tier in the policy: shell, read, session, …
	Decision  string    `json:"decision,omitempty"`  // allowed, asked, denied or blocked-error
	Rules     []string  `json:"rules,omitempty"`     // the ids of the rules that decided
	Grant     string    `json:"grant,omitempty"`     // the grant that allowed the call, or the one granted or revoked
	Authority string    `json:"authority,omitempty"` // who decided: the policy, a grant, the user or guard itself
	Review    bool      `json:"review,omitempty"`    // the policy does not classify the call: flagged for review
	Policy    string    `json:"policy,omitempty"`    // the policy's name
	// PolicySHA256 is the SHA-256 of the policy's source, in hex.
	PolicySHA256 string `json:"policy_sha256,omitempty"`
	Version      string `json:"version,omitempty"` // guard's version
	Ran          *bool  `json:"ran,omitempty"`     // whether the call ran, when known (PostToolUse)
	Reason       string `json:"reason,omitempty"`  // why, in words, such as an error's text
	// Profile is the sandbox the call runs in where guard's answer
	// rewrote it to run under guard run: read-only, write, or the
	// policy's profiles it names (build, test, its own).
	Profile string `json:"profile,omitempty"`
	// RewriteDigest is the SHA-256, in hex, of the command guard's answer
	// rewrote the call to. The agent reports that command once it ran,
	// and the line of that report carries the same digest.
	RewriteDigest string `json:"rewrite_digest,omitempty"`
	// ToolCallID is the agent's id of the tool call, where its hook input
	// carries one (Claude Code's and Codex's tool_use_id): the id the
	// agent's own telemetry and transcript know the call by.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Prev is the SHA-256, in hex, of the session's previous line without
	// its newline; "" on the session's first line.
	Prev string `json:"prev"`
}

// Record is a line of the log as [Read] found it.
type Record struct {
	File  string // the file's name in the log directory, such as decisions.jsonl
	Line  int    // 1-based
	Entry Entry
	Raw   []byte // the line as written, without its newline
}

// Problem is something wrong in the log: a line that cannot be read, or
// one that breaks its session's chain.
type Problem struct {
	File string // the file's name in the log directory, or heads/SESSION for a head file
	Line int    // 1-based; 0 for a problem with the whole file
	Err  string // what is wrong, in plain words
}

// String returns "file:line: what", or "file: what" for a whole file.
func (p Problem) String() string {
	if p.Line == 0 {
		return p.File + ": " + p.Err
	}
	return p.File + ":" + strconv.Itoa(p.Line) + ": " + p.Err
}

// anonymous is the session of the entries whose session id is not a
// plain name.
const anonymous = "-"

// maxSession is the length of the longest session id kept, in bytes.
const maxSession = 128

// validSession reports whether a session id is a plain name, safe to use
// as a file name.
func validSession(s string) bool {
	if s == "" || len(s) > maxSession || s == "." || s == ".." {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// sessionName returns the name a session id is logged under.
func sessionName(s string) string {
	if validSession(s) {
		return s
	}
	return anonymous
}
