// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// pathPolicy is the [paths] table: one engine for every way a call touches a
// path, file tools and shell alike.
type pathPolicy struct {
	Writable  []string       // writes may go here
	Protected []string       // no write may touch these, even where writable
	Secret    []string       // no read may touch these
	Write     Verdict        // a file tool's write to a writable path
	Read      Verdict        // a file tool's read of a path that is not secret
	Grant     string         // what a grant of a session-tier file call covers: GrantDir or GrantFile
	secrets   []Secret       // the catalogue of secrets, whose paths are in Secret
	secretOf  map[string]int // the entry of secrets each pattern of the policy's own entries is of, the first
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

	// The secrets are the catalogue's (secrets.toml, builtinSecrets),
	// with the policy's own added.
)

// Placeholders in path patterns, replaced per call.
const (
	PhProject = "{project}" // the project root
	PhTmp     = "{tmp}"     // the system temp directory
	PhHome    = "{home}"    // the home directory; a leading ~ means the same
	PhPolicy  = "{policy}"  // the policy file in use
	PhGuard   = "{guard}"   // the guard binary
	// {$NAME} stands for the value of the environment variable NAME, when
	// it is an absolute path: {$CODEX_HOME}/auth.json. Unset, the pattern
	// matches nothing.
)

// envPlaceholderAt returns the name of the {$NAME} placeholder that s
// starts with and the placeholder's length, or "" and 0.
func envPlaceholderAt(s string) (name string, n int) {
	if !strings.HasPrefix(s, "{$") {
		return "", 0
	}
	for i := 2; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '}' && i > 2:
			return s[2:i], i + 1
		case c == '_' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || i > 2 && '0' <= c && c <= '9':
		default:
			return "", 0
		}
	}
	return "", 0
}

// PatternEnv returns the names of the environment variables a path
// pattern's {$NAME} placeholders name, in order.
func PatternEnv(pat string) []string {
	var names []string
	for i := strings.Index(pat, "{$"); i >= 0; {
		name, n := envPlaceholderAt(pat[i:])
		if n == 0 {
			n = 2
		} else if !slices.Contains(names, name) {
			names = append(names, name)
		}
		j := strings.Index(pat[i+n:], "{$")
		if j < 0 {
			break
		}
		i += n + j
	}
	return names
}

// EnvPlaceholder returns the placeholder of an environment variable.
func EnvPlaceholder(name string) string { return "{$" + name + "}" }

// placeholderPaths stands an absolute directory in for each placeholder,
// to check a pattern's syntax.
var placeholderPaths = strings.NewReplacer(PhProject, "/p", PhTmp, "/t", PhHome, "/h", PhPolicy, "/f", PhGuard, "/g")

func validPathPattern(p string) bool {
	if p == "" {
		return false
	}
	e := placeholderPaths.Replace(p)
	for _, name := range PatternEnv(e) {
		e = strings.ReplaceAll(e, EnvPlaceholder(name), "/e")
	}
	if strings.HasPrefix(e, "~") {
		e = "/h" + e[1:]
	}
	if !strings.HasPrefix(e, "/") && !strings.HasPrefix(e, "**/") {
		return false // a relative pattern would depend on the working directory
	}
	return doublestar.ValidatePattern(e)
}

// A Secret is an entry of the catalogue of secrets: where a tool keeps
// credentials, and the page of its documentation that says so.
type Secret struct {
	Name  string   // a short id, such as "codex"
	Tool  string   // the tool: "Codex CLI"
	Docs  string   // the page of the tool's documentation; "" for a policy's entry without one
	Holds string   // what the files hold: "the OpenAI API key and ChatGPT sign-in tokens"
	Paths []string // the path patterns, each one of the policy's secret paths
}

// Secrets returns the catalogue of secrets: the built-in entries, then
// the policy's own.
func (p *Policy) Secrets() []Secret {
	out := make([]Secret, len(p.paths.secrets))
	for i, s := range p.paths.secrets {
		s.Paths = slices.Clone(s.Paths)
		out[i] = s
	}
	return out
}

// SecretOf returns the entry of the catalogue that a secret path pattern
// is of; false for a pattern of [paths] secret, which is of none.
func (p *Policy) SecretOf(pattern string) (Secret, bool) {
	if i, _, ok := builtinSecretOf(pattern); ok {
		return p.paths.secrets[i], true // the built-in entries come first
	}
	i, ok := p.paths.secretOf[pattern]
	if !ok {
		return Secret{}, false
	}
	return p.paths.secrets[i], true
}

func validSecretName(name string) bool {
	return name != "" && strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789-") == "" && name[0] != '-'
}

// checkSecret returns what is wrong with an entry of the catalogue, or
// "". A built-in entry gives its docs and what it holds.
func checkSecret(sf secretFile, builtin bool) string {
	switch {
	case !validSecretName(sf.Name):
		return fmt.Sprintf("name = %q: want a short id of lower-case letters, digits and '-'", sf.Name)
	case sf.Tool == "" || len(sf.Paths) == 0:
		return "give the tool and its paths"
	case builtin && (sf.Docs == "" || sf.Holds == ""):
		return "a built-in entry gives its docs and what it holds"
	case sf.Docs != "" && !strings.HasPrefix(sf.Docs, "https://"):
		return fmt.Sprintf("docs = %q: want the https:// address of the tool's documentation", sf.Docs)
	}
	for _, pat := range sf.Paths {
		if !validPathPattern(pat) {
			return fmt.Sprintf("%q is not an absolute pattern (start it with /, ~, **/ or a placeholder such as {$XDG_CONFIG_HOME})", pat)
		}
	}
	return ""
}

// compileSecrets adds the catalogue's entries to the policy: the built-in
// ones first, checked when secrets.toml was decoded (decodeSecrets), then
// the policy's own, checked here.
func (c *compiler) compileSecrets(p *Policy, own []secretFile) ([]string, error) {
	// The built-in entries were checked when secrets.toml was decoded, and
	// builtinSecretOf, a switch the generator writes, finds the entry and
	// literal run of each of their patterns: none is checked, indexed or
	// scanned again at start-up.
	pats := slices.Clone(builtinSecretPaths)
	p.paths.secrets = make([]Secret, 0, len(builtinSecrets)+len(own))
	for _, sf := range builtinSecrets {
		// Secrets clones what it returns: the paths are shared, never changed.
		p.paths.secrets = append(p.paths.secrets, Secret(sf))
	}
	names := map[string]bool{}
	for i, sf := range own {
		if why := checkSecret(sf, false); why != "" {
			return nil, c.errorf([]string{"secret"}, "secret %d (%s): %s", i+1, sf.Name, why)
		}
		if names[sf.Name] {
			return nil, c.errorf([]string{"secret"}, "secret %s: two entries of that name", sf.Name)
		}
		names[sf.Name] = true
		for _, pat := range sf.Paths {
			if _, ok := p.paths.secretOf[pat]; !ok {
				if p.paths.secretOf == nil {
					p.paths.secretOf = map[string]int{}
				}
				p.paths.secretOf[pat] = len(p.paths.secrets)
			}
			pats = append(pats, pat)
		}
		sf.Paths = slices.Clone(sf.Paths)
		p.paths.secrets = append(p.paths.secrets, Secret(sf))
	}
	return pats, nil
}

func (c *compiler) compilePaths(p *Policy, pf *pathsFile, secrets []secretFile) error {
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
	p.paths = pathPolicy{
		Writable:  defaultWritable,
		Protected: append(slices.Clone(defaultProtected), pf.Protected...),
		Write:     p.fallback,
		Read:      Allow,
	}
	catalogue, err := c.compileSecrets(p, secrets)
	if err != nil {
		return err
	}
	p.paths.Secret = append(catalogue, pf.Secret...)
	if pf.Writable != nil {
		p.paths.Writable = slices.Clone(pf.Writable)
	}
	switch pf.Grant {
	case "", GrantDir:
		p.paths.Grant = GrantDir
	case GrantFile:
		p.paths.Grant = GrantFile
	default:
		return c.errorf([]string{"paths", "grant"}, "paths grant = %q: want dir or file", pf.Grant)
	}
	for _, v := range []struct {
		key string
		s   string
		dst *Verdict
	}{{"write", pf.Write, &p.paths.Write}, {"read", pf.Read, &p.paths.Read}} {
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
			if _, n := envPlaceholderAt(pat[i:]); n > 0 {
				ph = pat[i : i+n]
			}
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
