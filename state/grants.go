// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package state keeps what guard remembers between hook calls: the grants
// of the session tier. A grant is kept in a directory of the user's (the
// state directory, which guard protects from every tool), one file for
// each agent session, and every change is made under a lock and written
// whole to a new file that replaces the old one, so that hooks running at
// once lose no grant and never read half of one.
//
// A grant lasts until it has gone unused for the idle limit, until it is
// revoked, or until its session ends; it never outlives its session. A
// store that cannot be read grants nothing: the calls ask again.
//
// This package has no API stability promise outside this module: the
// API is package guard.
package state

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"guard/engine"
)

// DefaultIdle is how long a grant lasts unused when the policy says not.
const DefaultIdle = time.Hour

// touchEvery bounds how often a grant's use is written down: at most once
// a minute, so that a session of many calls does not rewrite its file on
// each.
const touchEvery = time.Minute

// maxFile bounds a session's grants file.
const maxFile = 1 << 20

// A Grant is one approval of a session-tier part of a call, and what it
// covers from then on.
type Grant struct {
	ID        string       `json:"id"`
	Session   string       `json:"session"`
	Scope     engine.Scope `json:"scope"`
	Tool      string       `json:"tool,omitempty"`
	Text      string       `json:"text,omitempty"` // the part approved, as written
	GrantedAt time.Time    `json:"granted_at"`
	LastUsed  time.Time    `json:"last_used"`
	Expires   time.Time    `json:"expires"` // when it lapses unused: LastUsed and the idle limit
}

// sessionFile is the content of a session's grants file.
type sessionFile struct {
	Version int     `json:"version"`
	Grants  []Grant `json:"grants"`
}

// Store is the grants of every session, in Dir. Its zero Idle means
// DefaultIdle, and its nil Now means time.Now.
type Store struct {
	Dir  string
	Idle time.Duration
	Now  func() time.Time

	read map[string][]Grant // a session's grants, as this process read them
}

// ValidSession reports whether a session id can name a file: 1 to 128
// letters, digits, dots, dashes and underscores, not starting with a dot.
func ValidSession(id string) bool {
	return id != "" && len(id) <= 128 && id[0] != '.' &&
		strings.Trim(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == ""
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Store) idle() time.Duration {
	if s.Idle > 0 {
		return s.Idle
	}
	return DefaultIdle
}

// Granted returns the id of a live grant of the session that covers the
// scope, or "": it is the engine's view of the store. A use is written
// down at most once a minute, and a failure to write it only makes the
// grant lapse sooner.
func (s *Store) Granted(session string, sc engine.Scope) string {
	if s == nil || !ValidSession(session) {
		return ""
	}
	if s.read == nil {
		s.read = map[string][]Grant{}
	}
	gs, ok := s.read[session]
	if !ok {
		var err error
		if gs, err = s.load(session); err != nil {
			gs = nil // unreadable: nothing is granted
		}
		s.read[session] = gs
	}
	now := s.now()
	for _, g := range gs {
		if now.Before(g.Expires) && g.Scope.Covers(sc) {
			if now.Sub(g.LastUsed) >= touchEvery {
				_ = s.update(session, func(list []Grant) []Grant {
					for i := range list {
						if list[i].ID == g.ID {
							list[i].LastUsed, list[i].Expires = now, now.Add(s.idle())
						}
					}
					return list
				})
			}
			return g.ID
		}
	}
	return ""
}

// Add records a grant of each scope for the session, approved for the call
// of tool and part text, and returns the grants. A scope a live grant
// covers already is not granted again.
func (s *Store) Add(session, tool string, parts map[engine.Scope]string) ([]Grant, error) {
	if !ValidSession(session) {
		return nil, fmt.Errorf("session id %q cannot name a grant", session)
	}
	var added []Grant
	err := s.update(session, func(list []Grant) []Grant {
		now := s.now()
		scopes := make([]engine.Scope, 0, len(parts))
		for sc := range parts {
			scopes = append(scopes, sc)
		}
		slices.SortFunc(scopes, func(a, b engine.Scope) int { return strings.Compare(a.String(), b.String()) })
		for _, sc := range scopes {
			if slices.ContainsFunc(list, func(g Grant) bool { return g.Scope.Covers(sc) }) {
				continue
			}
			g := Grant{ID: newID(), Session: session, Scope: sc, Tool: tool, Text: parts[sc],
				GrantedAt: now, LastUsed: now, Expires: now.Add(s.idle())}
			list = append(list, g)
			added = append(added, g)
		}
		return list
	})
	if err != nil {
		return nil, err
	}
	delete(s.read, session)
	return added, nil
}

// List returns the live grants of the session, or of every session when
// session is "", oldest first.
func (s *Store) List(session string) ([]Grant, error) {
	sessions := []string{session}
	if session == "" {
		var err error
		if sessions, err = s.sessions(); err != nil {
			return nil, err
		}
	}
	var out []Grant
	for _, id := range sessions {
		gs, err := s.load(id)
		if err != nil {
			return nil, err
		}
		out = append(out, gs...)
	}
	slices.SortStableFunc(out, func(a, b Grant) int { return a.GrantedAt.Compare(b.GrantedAt) })
	return out, nil
}

// Revoke removes the grant id, wherever it is, and returns it; false when
// no live grant has that id.
func (s *Store) Revoke(id string) (Grant, bool, error) {
	sessions, err := s.sessions()
	if err != nil {
		return Grant{}, false, err
	}
	for _, session := range sessions {
		var found *Grant
		err := s.update(session, func(list []Grant) []Grant {
			return slices.DeleteFunc(list, func(g Grant) bool {
				if g.ID == id {
					found = &g
				}
				return g.ID == id
			})
		})
		if err != nil {
			return Grant{}, false, err
		}
		if found != nil {
			delete(s.read, session)
			return *found, true, nil
		}
	}
	return Grant{}, false, nil
}

// EndSession removes every grant of the session (SessionEnd, or a revoke
// of the whole session) and returns them.
func (s *Store) EndSession(session string) ([]Grant, error) {
	if !ValidSession(session) {
		return nil, fmt.Errorf("session id %q cannot name a grant", session)
	}
	var ended []Grant
	err := s.update(session, func(list []Grant) []Grant {
		ended = list
		return nil
	})
	delete(s.read, session)
	return ended, err
}

// sessions returns the sessions that have a grants file.
func (s *Store) sessions() ([]string, error) {
	ents, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if id, ok := strings.CutSuffix(e.Name(), ".json"); ok && ValidSession(id) && e.Type().IsRegular() {
			out = append(out, id)
		}
	}
	return out, nil
}

// load reads the live grants of a session; none when it has no file.
func (s *Store) load(session string) ([]Grant, error) {
	if !ValidSession(session) {
		return nil, fmt.Errorf("session id %q cannot name a grant", session)
	}
	data, err := readFile(filepath.Join(s.Dir, session+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f sessionFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("the grants of session %s: %v", session, err)
	}
	if f.Version != 1 {
		return nil, fmt.Errorf("the grants of session %s: version %d, want 1", session, f.Version)
	}
	now := s.now()
	live := slices.DeleteFunc(f.Grants, func(g Grant) bool { return !now.Before(g.Expires) || g.Session != session })
	return live, nil
}

// update changes a session's grants under the store's lock and writes them
// back whole, replacing the file; no grant left removes it. A file that
// cannot be read is replaced: what it held is granted no longer.
func (s *Store) update(session string, change func([]Grant) []Grant) error {
	if err := ensureDir(s.Dir); err != nil {
		return err
	}
	unlock, err := lock(filepath.Join(s.Dir, "lock"))
	if err != nil {
		return err
	}
	defer unlock()
	list, _ := s.load(session)
	list = change(list)
	name := filepath.Join(s.Dir, session+".json")
	if len(list) == 0 {
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	data, err := json.MarshalIndent(sessionFile{Version: 1, Grants: list}, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(name, append(data, '\n'))
}

// newID returns a grant id: g- and 12 random hex digits.
func newID() string {
	b := make([]byte, 6)
	rand.Read(b)
	return "g-" + hex.EncodeToString(b)
}

// ensureDir makes dir, mode 0700, and checks that it is a directory and
// not a link: the state directory must be where guard put it.
func ensureDir(dir string) error {
	if dir == "" || !filepath.IsAbs(dir) {
		return fmt.Errorf("the state directory %q is not an absolute path", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("the state directory %s is not a directory", dir)
	}
	return nil
}

// readFile reads a regular file, not through a link, up to maxFile.
func readFile(name string) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxFile {
		return nil, fmt.Errorf("%s is not a regular file of at most %d bytes", name, maxFile)
	}
	buf := make([]byte, fi.Size())
	n, err := f.ReadAt(buf, 0)
	if err != nil && n < len(buf) {
		return nil, err
	}
	return buf[:n], nil
}

// writeFile writes data to a new file beside name, mode 0600, and renames
// it over name: a reader sees the old file or the new one, whole.
func writeFile(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// lock takes the exclusive lock of the file name, made if missing, and
// returns its release.
func lock(name string) (func(), error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
