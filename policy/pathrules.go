// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// pathPolicy is the [paths] table: one engine for every way a call touches a
// path, file tools and shell alike.
type pathPolicy struct {
	Writable  []string          // writes may go here
	Protected []string          // no write may touch these, even where writable
	Secret    []string          // no read may touch these
	Write     Verdict           // a file tool's write to a writable path
	Read      Verdict           // a file tool's read of a path that is not secret
	Grant     string            // what a grant of a session-tier file call covers: GrantDir or GrantFile
	literals  map[string]string // LiteralRun of each pattern above
}

// Literal returns LiteralRun of one of the policy's path patterns, found
// when the policy was compiled; false for a pattern the policy does not
// have.
func (pp *pathPolicy) Literal(pat string) (string, bool) {
	lit, ok := pp.literals[pat]
	return lit, ok
}

// Where a policy does not set them, writes may go to the project and the
// temp directory. The protected and secret paths below always apply, with
// the policy's own added to them: a policy can protect more, never less.
var (
	defaultWritable = []string{"{project}/**", "{tmp}/**"}

	defaultProtected = []string{
		// The agent cannot loosen its own guard.
		// The agents' own configuration is protected too: the agent
		// adapters name it (engine.Call.AgentPaths).
		"{policy}", "{guard}", "~/.config/guard/**", "~/.local/state/guard/**",
		// Configuration that makes git, the tool chain, the editor or the
		// shell run code.
		// Any file named .git (a .git file points git at another
		// repository), and what is in a git directory.
		"{project}/.git/**", "**/.git", "**/.git/config", "**/.git/hooks/**", "**/.git/info/**", "**/.gitattributes",
		"**/.gitmodules", "**/.husky/**", "**/.pre-commit-config.yaml", "**/.cargo/config", "**/.cargo/config.toml",
		"**/rust-toolchain", "**/rust-toolchain.toml", "**/.github/workflows/**", "**/.envrc", "**/.vscode/**",
		"~/.bashrc", "~/.bash_profile", "~/.bash_login", "~/.bash_logout", "~/.profile", "~/.zshrc", "~/.zshenv",
		"~/.zprofile", "~/.zlogin", "~/.inputrc", "~/.config/fish/**", "~/.gitconfig", "~/.config/git/**",
	}

	defaultSecret = []string{
		"~/.ssh/**", "~/.aws/**", "~/.gnupg/**", "~/.config/gcloud/**", "~/.azure/**", "~/.kube/**",
		"~/.docker/config.json", "~/.netrc", "~/.git-credentials", "~/.config/gh/hosts.yml", "~/.npmrc",
		"~/.pypirc", "~/.cargo/credentials", "~/.cargo/credentials.toml", "~/.gem/credentials",
		"~/.password-store/**", "~/.claude/.credentials.json", "~/.claude.json", "~/.pgpass", "~/.my.cnf",
		"~/.vault-token", "~/.boto", "~/.s3cfg", "~/.terraform.d/credentials.tfrc.json", "~/.config/hub",
		"~/.config/op/**", "~/.local/share/keyrings/**", "~/.oci/**", "~/.config/doctl/**",
		// Histories keep what was typed: tokens exported, passwords given
		// on a command line.
		// (bash, sh, python, node, psql, mysql, sqlite3, redis-cli: ~/.NAME_history).
		"~/.*_history", "~/.zhistory", "~/.histfile", "~/.local/share/fish/fish_history",
		"**/.env", "**/.env.*",
		// A process's environment, and its memory, which holds the
		// environment too (at the offsets its stat file prints), its
		// arguments and whatever it read: the process's own, another's,
		// the kernel's.
		"/proc/**/environ", "/proc/**/mem", "/proc/kcore", "/dev/mem", "/dev/kmem", "/dev/port",
		"/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d/**",
	}
)

// Placeholders in path patterns, replaced per call.
const (
	PhProject = "{project}" // the project root
	PhTmp     = "{tmp}"     // the system temp directory
	PhHome    = "{home}"    // the home directory; a leading ~ means the same
	PhPolicy  = "{policy}"  // the policy file in use
	PhGuard   = "{guard}"   // the guard binary
)

// placeholderPaths stands an absolute directory in for each placeholder,
// to check a pattern's syntax.
var placeholderPaths = strings.NewReplacer(PhProject, "/p", PhTmp, "/t", PhHome, "/h", PhPolicy, "/f", PhGuard, "/g")

func validPathPattern(p string) bool {
	if p == "" {
		return false
	}
	e := placeholderPaths.Replace(p)
	if strings.HasPrefix(e, "~") {
		e = "/h" + e[1:]
	}
	if !strings.HasPrefix(e, "/") && !strings.HasPrefix(e, "**/") {
		return false // a relative pattern would depend on the working directory
	}
	return doublestar.ValidatePattern(e)
}

func (c *compiler) compilePaths(p *Policy, pf *pathsFile) error {
	for _, l := range []struct {
		key  string
		list []string
	}{{"writable", pf.Writable}, {"protected", pf.Protected}, {"secret", pf.Secret}} {
		for _, pat := range l.list {
			if !validPathPattern(pat) {
				return c.errorf([]string{"paths", l.key}, "paths %s: %q is not an absolute pattern (start it with /, ~, **/ or a placeholder such as {project})", l.key, pat)
			}
		}
	}
	p.Paths = pathPolicy{
		Writable:  defaultWritable,
		Protected: append(slices.Clone(defaultProtected), pf.Protected...),
		Secret:    append(slices.Clone(defaultSecret), pf.Secret...),
		Write:     p.Default,
		Read:      Allow,
	}
	if pf.Writable != nil {
		p.Paths.Writable = slices.Clone(pf.Writable)
	}
	p.Paths.literals = map[string]string{}
	for _, list := range [][]string{p.Paths.Writable, p.Paths.Protected, p.Paths.Secret} {
		for _, pat := range list {
			p.Paths.literals[pat] = LiteralRun(pat)
		}
	}
	switch pf.Grant {
	case "", GrantDir:
		p.Paths.Grant = GrantDir
	case GrantFile:
		p.Paths.Grant = GrantFile
	default:
		return c.errorf([]string{"paths", "grant"}, "paths grant = %q: want dir or file", pf.Grant)
	}
	for _, v := range []struct {
		key string
		s   string
		dst *Verdict
	}{{"write", pf.Write, &p.Paths.Write}, {"read", pf.Read, &p.Paths.Read}} {
		if v.s == "" {
			continue
		}
		verdict, err := ParseVerdict(v.s)
		if err != nil {
			return c.errorf([]string{"paths", v.key}, "paths %s: %v", v.key, err)
		}
		*v.dst = verdict
	}
	return nil
}

// LiteralRun returns the longest run of literal characters of a pattern
// before its first class, alternative or escape, with its placeholders (and
// a leading ~) read as wildcards and without the slashes at its ends (a **
// next to them may stand for no directory at all). Every path the pattern
// matches contains it, whatever the placeholders stand for, so a path
// without it needs no match: most paths are judged by strings.Contains, not
// by doublestar, and most patterns are not expanded.
func LiteralRun(pat string) string {
	best, start := "", 0
	end := func(i int) {
		if run := strings.Trim(pat[start:i], "/"); len(run) > len(best) {
			best = run
		}
	}
	if strings.HasPrefix(pat, "~") {
		start = 1
	}
	for i := start; i < len(pat); i++ {
		switch pat[i] {
		case '*', '?':
			end(i)
			start = i + 1
		case '{':
			end(i)
			ph := placeholderAt(pat[i:])
			if ph == "" {
				return best
			}
			i += len(ph) - 1
			start = i + 1
		case '[', '\\':
			end(i)
			return best
		}
	}
	end(len(pat))
	return best
}

// placeholderAt returns the placeholder s starts with, or "".
func placeholderAt(s string) string {
	for _, ph := range []string{PhProject, PhTmp, PhHome, PhPolicy, PhGuard} {
		if strings.HasPrefix(s, ph) {
			return ph
		}
	}
	return ""
}
