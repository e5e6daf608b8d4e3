// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package main

import (
	"bufio"
	"guard/engine"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// A tool of session tier is asked for once per agent session. Claude Code
// runs guard hook for PostToolUse too, after a tool has run: guard then
// writes the tool's name to a file named by the session, and later calls
// of that tool in the session are allowed. A tool that was refused never
// runs, so it is never recorded. The state directory is protected.

// maxSessionFile bounds a session file: a few tool names.
const maxSessionFile = 64 << 10

// sessionFile returns the file that records a session's tools, or "" when
// the session id is missing or not a plain name.
func sessionFile(env getenv, session string) string {
	if session == "" || len(session) > 128 || strings.Trim(session, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != "" {
		return ""
	}
	dir := ""
	switch {
	case filepath.IsAbs(env("XDG_STATE_HOME")):
		dir = filepath.Join(env("XDG_STATE_HOME"), "guard")
	case filepath.IsAbs(env("HOME")):
		dir = filepath.Join(env("HOME"), ".local", "state", "guard")
	default:
		return ""
	}
	return filepath.Join(dir, "sessions", session)
}

// sessionApproved returns the tools recorded for a session.
func sessionApproved(name string) map[string]bool {
	if name == "" {
		return nil
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for n := 0; sc.Scan() && n < maxSessionFile; n += len(sc.Bytes()) + 1 {
		if t := strings.TrimSpace(sc.Text()); t != "" {
			out[t] = true
		}
	}
	return out
}

// sessionGrants are the grants of guard's session file: a tool of session
// tier that ran in the session is granted for the rest of it.
type sessionGrants struct {
	file  string
	tools map[string]bool // read on first use
	read  bool
}

// Granted reports whether the tool of a session-tier leaf ran earlier in
// the session.
func (g *sessionGrants) Granted(session string, l engine.Leaf) bool {
	if l.Kind != "tool" {
		return false
	}
	if !g.read {
		g.tools, g.read = sessionApproved(g.file), true
	}
	return g.tools[l.Text]
}

// recordSession adds a tool to a session's record. A failure only means
// the tool is asked for again.
func recordSession(name, tool string) {
	if sessionApproved(name)[tool] || strings.ContainsAny(tool, "\n\r") {
		return
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return
	}
	// The sessions directory and the file are never followed through a
	// link: a link planted there would make guard append elsewhere.
	if fi, err := os.Lstat(filepath.Dir(name)); err != nil || !fi.IsDir() {
		return
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() > maxSessionFile {
		return
	}
	f.WriteString(tool + "\n")
}
