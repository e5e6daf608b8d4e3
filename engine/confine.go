// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"guard/policy"
)

// Confinement answers for the sandbox of guard run what the policy keeps
// from a process tree started by a call: the same path rules, with the
// same placeholders, links and git directories, as a decision applies to
// the paths it sees. A Confinement is for one moment, like a decision: it
// keeps what it has asked the file system.
type Confinement struct {
	d *decider
}

// NewConfinement returns the confinement of p for call's context (its
// project, homes, temp dir, guard's own paths and the agents' paths).
func NewConfinement(p *policy.Policy, call Call) *Confinement {
	fsys := call.FS
	if fsys == nil {
		fsys = OS
	}
	return &Confinement{d: &decider{p: p, call: call, fsys: newStatCache(fsys)}}
}

// Read reports whether the process tree may read abs, an absolute path:
// it is not secret.
func (c *Confinement) Read(abs string) bool {
	return c.d.checkPath(abs, false, nil, readAccess, policy.Allow).verdict != policy.Deny
}

// Write reports whether the process tree may write abs: it is in a
// writable root, and not secret, protected, an agent's configuration,
// guard's own or inside a git directory.
func (c *Confinement) Write(abs string) bool {
	return c.d.checkPath(abs, false, nil, writeAccess, policy.Allow).verdict != policy.Deny
}

// Cache reports whether the process tree may write abs, outside the
// writable roots, as a build cache: it is not secret, protected, an
// agent's configuration, guard's own, nor inside a git directory. A cache
// named by the environment ($GOCACHE) is held to this, so that it cannot
// open .git or ~/.ssh to writes.
func (c *Confinement) Cache(abs string) bool {
	pc := c.d.checkPath(abs, false, nil, writeAccess, policy.Allow)
	return pc.verdict != policy.Deny || pc.rule == "paths.writable"
}

// Kept returns the paths under root that the process tree must not be able
// to make, since the policy keeps them from writes: for each protected
// pattern, and each pattern of an agent's configuration, that could match
// there, its literal part (root/.claude of {project}/.claude/**, and of
// **/.claude/settings*.json). A pattern of any directory (**/.envrc) is
// taken at root only: kept in every directory, it would leave nothing to
// make anywhere. Some of the paths may be there; what is there is kept by
// Write.
func (c *Confinement) Kept(root string) []string {
	var out []string
	for _, list := range [][]string{c.d.p.ProtectedPaths(), c.d.call.AgentPaths} {
		for _, pat := range list {
			for _, e := range c.d.expand(pat) {
				p := e.pattern
				if rest, ok := strings.CutPrefix(p, "**/"); ok {
					p = root + "/" + rest
				} else if !strings.HasPrefix(p, root+"/") {
					continue
				}
				out = append(out, literalPart(root, p))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// matches returns the entries of dir that pattern matches.
func (c *Confinement) matches(dir, pattern string) []string {
	entries, err := c.d.fsys.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		p := path.Join(dir, e.Name())
		if ok, _ := doublestar.Match(pattern, p); ok {
			out = append(out, p)
		}
	}
	return out
}

// literalPart returns the components of the pattern p under root up to
// the first with a glob's characters in it, which stays as it is: a name
// that is not there, so that the directory before it is the one to keep
// from making things in.
func literalPart(root, p string) string {
	lit := root
	for _, c := range strings.Split(strings.TrimPrefix(p, root+"/"), "/") {
		if c == "" {
			break
		}
		lit += "/" + c
		if strings.ContainsAny(c, "*?[{\\") {
			break
		}
	}
	return lit
}

// SecretPlaces returns where the policy's secrets are: for each secret
// pattern of an absolute place (/etc/shadow, ~/.ssh/**; not **/.env, which
// is of any directory), the path it names, or the directory its first glob
// is in, or for a glob of names in one directory the files there it
// matches; and the literal run of every secret pattern (policy.LiteralRun),
// which a path must hold to be one, "" for a pattern that has none.
func (c *Confinement) SecretPlaces() (places, runs []string) {
	for _, pat := range c.d.p.SecretPaths() {
		for _, e := range c.d.expand(pat) {
			runs = append(runs, e.literal)
			if !strings.HasPrefix(e.pattern, "/") {
				continue
			}
			p := e.pattern
			if i := strings.IndexAny(p, "*?[{\\"); i >= 0 {
				dir := p[:strings.LastIndexByte(p[:i], '/')+1]
				if name := p[len(dir):]; !strings.Contains(name, "/") && !strings.Contains(name, "**") {
					// A glob of names in one directory (/etc/ssh/ssh_host_*_key):
					// the files it matches there, not the directory.
					places = append(places, c.matches(path.Clean(dir), p)...)
					continue
				}
				p = dir
			}
			if p = strings.TrimSuffix(p, "/"); p != "" {
				places = append(places, p)
			}
		}
	}
	slices.Sort(places)
	slices.Sort(runs)
	return slices.Compact(places), slices.Compact(runs)
}
