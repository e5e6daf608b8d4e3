// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"maps"
	"slices"
	"time"

	"guard/shellparse"
)

// The read methods of a compiled Policy. A Policy has no exported fields,
// so that no importer can loosen it by accident: one assignment to a
// shared policy would change the decisions of the whole process. Maps are
// reached through lookups; a slice a method returns is the policy's own,
// to be read and never written, and is clipped so that an append to it
// copies instead of writing into the policy (TestPolicyImmutable).

// DefaultVerdict returns the verdict of what no rule of the policy
// decides: an unknown command, a variable not in [env], a path that
// cannot be checked.
func (p *Policy) DefaultVerdict() Verdict { return p.fallback }

// ShellVerdict returns the verdict the [shell] table gives a shell
// construct of kind k, and false when the table does not name it.
func (p *Policy) ShellVerdict(k shellparse.Kind) (Verdict, bool) {
	v, ok := p.shell[k]
	return v, ok
}

// Dialect returns the shell language the policy parses commands in.
func (p *Policy) Dialect() shellparse.Dialect { return p.dialect }

// EnvAllow returns the names and path.Match patterns of the variables a
// command may set. The slice is read-only.
func (p *Policy) EnvAllow() []string { return slices.Clip(p.env.Allow) }

// RedirectAllow returns the redirection targets always allowed
// (/dev/null). The slice is read-only.
func (p *Policy) RedirectAllow() []string { return slices.Clip(p.redirect.Allow) }

// RedirectRead returns the verdict of a redirection from a file (<).
func (p *Policy) RedirectRead() Verdict { return p.redirect.Read }

// RedirectWrite returns the verdict of a redirection to a file in the
// project (>).
func (p *Policy) RedirectWrite() Verdict { return p.redirect.Write }

// RedirectWriteOutside returns the verdict of a redirection to a file
// outside the project.
func (p *Policy) RedirectWriteOutside() Verdict { return p.redirect.WriteOutside }

// FetchAllow returns the doublestar patterns of the URLs a fetch may
// fetch. The slice is read-only.
func (p *Policy) FetchAllow() []string { return slices.Clip(p.fetch.Allow) }

// FetchUnlisted returns the verdict of a fetch of a URL no pattern of
// FetchAllow matches.
func (p *Policy) FetchUnlisted() Verdict { return p.fetch.Unlisted }

// WritablePaths returns the path patterns writes may go to. The slice is
// read-only.
func (p *Policy) WritablePaths() []string { return slices.Clip(p.paths.Writable) }

// ProtectedPaths returns the path patterns no write may touch, even where
// writable. The slice is read-only.
func (p *Policy) ProtectedPaths() []string { return slices.Clip(p.paths.Protected) }

// SecretPaths returns the path patterns no read may touch: the catalogue's
// and the policy's own. The slice is read-only.
func (p *Policy) SecretPaths() []string { return slices.Clip(p.paths.Secret) }

// FileReadVerdict returns the verdict of a file tool's read of a path
// that is not secret.
func (p *Policy) FileReadVerdict() Verdict { return p.paths.Read }

// FileWriteVerdict returns the verdict of a file tool's write to a
// writable path.
func (p *Policy) FileWriteVerdict() Verdict { return p.paths.Write }

// PathGrant returns what a grant of a session-tier file call covers:
// [GrantDir] or [GrantFile].
func (p *Policy) PathGrant() string { return p.paths.Grant }

// PathLiteral returns [LiteralRun] of a pattern of the built-in catalogue
// of secrets, found when the catalogue was generated; false for any other
// pattern, whose literal run the caller finds itself.
func (p *Policy) PathLiteral(pat string) (string, bool) {
	_, lit, ok := builtinSecretOf(pat)
	return lit, ok
}

// SandboxRequired reports whether an allowed shell command is asked
// instead where the kernel cannot confine it.
func (p *Policy) SandboxRequired() bool { return p.sandbox.Require }

// SandboxProfile returns a copy of the policy's own sandbox profile name
// ([sandbox.NAME]), and false when the policy does not define it.
func (p *Policy) SandboxProfile(name string) (SandboxProfile, bool) {
	pr, ok := p.sandbox.Profiles[name]
	if !ok {
		return SandboxProfile{}, false
	}
	pr.Read, pr.Write, pr.Ports = slices.Clone(pr.Read), slices.Clone(pr.Write), slices.Clone(pr.Ports)
	pr.Env = maps.Clone(pr.Env)
	return pr, true
}

// GrantIdle returns how long a grant of the session tier lasts unused; 0
// leaves it to guard (an hour).
func (p *Policy) GrantIdle() time.Duration { return p.grantIdle }

// ReadOnlyShell reports whether, in read-only mode, read-only shell
// commands may run.
func (p *Policy) ReadOnlyShell() bool { return p.readOnlyShell }

// LogRequired reports whether a call whose decision cannot be logged is
// denied.
func (p *Policy) LogRequired() bool { return p.logRequired }
