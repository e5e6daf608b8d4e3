// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package audit

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// maxCall is the length of the longest call Redact returns, in bytes.
const maxCall = 1000

// maxRedactInput is how much of a call Redact reads, in bytes: enough for
// maxCall bytes of output unless the secrets in it shrink by more than
// 1 KiB (a private key), and little enough to keep the cost of a call that
// writes a large file to about 3 ms (the patterns take up to 1.5 µs a
// byte).
const maxRedactInput = 2 << 10 // 2 KiB

// Redact returns a call's text as one line with its secrets masked, for
// the decision log. A secret is replaced by "***", and what names it (the
// variable, option, header, URL user or token prefix) is kept, so that the
// line still reads as the call: GITHUB_TOKEN=ghp_… gh pr list becomes
// GITHUB_TOKEN=*** gh pr list.
//
// It masks AWS access key ids and secret keys, GitHub, GitLab, Slack,
// OpenAI, Anthropic, Stripe, npm and Google API tokens, JSON web tokens,
// Authorization, Cookie and API-key headers, the password of a URL and of
// curl -u, URL query parameters such as token, key, secret, password and
// sig, shell assignments to variables whose names hold TOKEN, SECRET,
// PASSWORD, PASSWD, PASSPHRASE, KEY, CREDENTIAL or AUTH, options such as
// --password, --token, --secret and --api-key, mysql's -pPASSWORD,
// quoted values of keys named like secrets (as in JSON), and private key
// blocks. It finds secrets by their shape and their names, so it masks
// some values that are not secrets, and misses a secret that has neither.
//
// Newlines become \n, carriage returns \r and other control characters
// \xHH. The result is at most 1,000 bytes: a longer one is cut at a
// character boundary and ends in "…". Redact reads only the first 2 KiB
// of a longer call, cut after a space so that no secret is cut in two,
// and its result ends in "…" too.
func Redact(s string) string {
	clipped := false
	if len(s) > maxRedactInput {
		s, clipped = cutInput(s), true
	}
	lower := strings.ToLower(s)
	for _, r := range redactions {
		if r.applies(lower) {
			s = r.re.compiled().ReplaceAllString(s, r.with)
		}
	}
	s = oneLine(s)
	if clipped || len(s) > maxCall {
		s = clip(s)
	}
	return s
}

// cutInput returns the part of a long call that Redact reads: up to
// maxRedactInput bytes, cut after a space where there is one, so that no
// secret is cut in two and left unrecognized.
func cutInput(s string) string {
	s = s[:maxRedactInput]
	if i := strings.LastIndexAny(s, " \t\n"); i > 0 {
		s = s[:i]
	}
	return s
}

// oneLine escapes the line breaks and other control characters of s.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case isControl(r):
			b.WriteString(`\x`)
			if r < 0x10 {
				b.WriteByte('0')
			}
			b.WriteString(strconv.FormatInt(int64(r), 16))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isControl reports whether r is a control character other than a tab.
func isControl(r rune) bool {
	return r < 0x20 && r != '\t' || r == 0x7f
}

// clip cuts s to maxCall bytes at a character boundary, "…" included.
func clip(s string) string {
	const ellipsis = "…"
	n := min(len(s), maxCall-len(ellipsis))
	for i := 0; i < utf8.UTFMax && n > 0 && n < len(s) && !utf8.RuneStart(s[n]); i++ {
		n--
	}
	return s[:n] + ellipsis
}

// redaction masks one kind of secret: each match of re is replaced by
// with. Redact tries re only on a call that holds one of the hints in
// lower case, which most calls do not.
type redaction struct {
	hints []string
	re    *lazyRegexp
	with  string
}

// lazyRegexp is a regular expression compiled when it is first used:
// compiling them all costs a millisecond, which every guard process would
// pay at its start, and most calls need none of them.
type lazyRegexp struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
}

func lazy(pattern string) *lazyRegexp { return &lazyRegexp{pattern: pattern} }

func (l *lazyRegexp) compiled() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.pattern) })
	return l.re
}

// applies reports whether a call, in lower case, holds one of the hints.
func (r redaction) applies(lower string) bool {
	for _, h := range r.hints {
		if strings.Contains(lower, h) {
			return true
		}
	}
	return false
}

// Parts of the patterns below.
const (
	// word is a shell word: quoted parts and plain characters, which are
	// not spaces, quotes or operators. A quote that the word starts with
	// and that is not closed runs to the end of the text (a call cut
	// short); a quote not closed later in the word is not part of it, as
	// in echo "X=$Y" > f, where the word is inside a quoted string.
	quoted     = `'[^']*'|"(?:[^"\\]|\\[\s\S])*"`
	quotedOpen = `'[^']*(?:'|$)|"(?:[^"\\]|\\[\s\S])*(?:"|$)`
	plain      = `[^\s'";&|()<>` + "`" + `]`
	word       = `(?:` + quotedOpen + `|` + plain + `)(?:` + quoted + `|` + plain + `)*`
	// dashless is a word that does not start with "-": an option's value
	// given as the next word, not another option.
	dashless = `(?:` + quotedOpen + `|[^-\s'";&|()<>` + "`" + `])(?:` + quoted + `|` + plain + `)*`

	// secretVar is a shell variable named like a secret.
	secretVar = `[A-Za-z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|KEY|CREDENTIAL|AUTH)[A-Za-z0-9_]*|` +
		`(?:[a-z0-9_]*_)?(?:token|secret|password|passwd|passphrase|key|apikey|credentials?|auth)(?:_[a-z0-9_]*)?`
	// secretOption is the name of a long option whose value is a secret,
	// after its "--".
	secretOption = `(?:[a-z0-9]+-)*(?:password|passwd|passphrase|token|secret|api-?key|access-key|secret-key|private-key|auth|credentials?)`
	// secretKey is the end of a key of JSON, YAML or code named like a
	// secret.
	secretKey = `(?i:token|secret|password|passwd|passphrase|api[_-]?key|access[_-]?key|private[_-]?key|credentials?|authorization)`
	// header is an HTTP header whose value is a secret, and scheme an
	// authentication scheme kept in front of it.
	header = `(?i:(?:proxy-)?authorization|cookie|x-api-key|api-key|apikey|x-auth-token|private-token|x-[a-z0-9-]*(?:token|secret|key))`
	scheme = `(?i:(?:bearer|basic|token|digest|negotiate|ntlm|aws4-hmac-sha256)(?:\s|\\ )+)?`
)

// The hints of the redactions that look for names: of headers, and of
// variables, options and keys.
var (
	headerWords = []string{"auth", "cookie", "key", "token", "secret"}
	secretWords = []string{"token", "secret", "passw", "passphrase", "key", "credential", "auth"}
)

// redactions are the secrets Redact masks, in the order it masks them.
var redactions = []redaction{
	// Private key blocks, the only secret that spans lines.
	{[]string{"private key"}, lazy(`(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)`), `${1}***${2}`},

	// Tokens known by their shape.
	{[]string{"akia", "asia"}, lazy(`\b(AKIA|ASIA)[A-Z0-9]{16}\b`), `${1}***`},
	{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, lazy(`\b(gh[pousr]_)[A-Za-z0-9]{30,}`), `${1}***`},
	{[]string{"github_pat_"}, lazy(`\b(github_pat_)[A-Za-z0-9_]{30,}`), `${1}***`},
	{[]string{"glpat-"}, lazy(`\b(glpat-)[A-Za-z0-9_-]{20,}`), `${1}***`},
	{[]string{"xox"}, lazy(`\b(xox[abposr]-)[A-Za-z0-9-]{8,}`), `${1}***`},
	{[]string{"sk-"}, lazy(`\b(sk-(?:ant-[a-z]+[0-9]*-|proj-)?)[A-Za-z0-9_-]{20,}`), `${1}***`},
	{[]string{"k_live_", "k_test_"}, lazy(`\b([rs]k_(?:live|test)_)[A-Za-z0-9]{16,}`), `${1}***`},
	{[]string{"npm_"}, lazy(`\b(npm_)[A-Za-z0-9]{36}\b`), `${1}***`},
	{[]string{"aiza"}, lazy(`\b(AIza)[A-Za-z0-9_-]{35}`), `${1}***`},
	{[]string{"eyj"}, lazy(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`), `eyJ***`},
	{[]string{"hooks.slack.com"}, lazy(`(hooks\.slack\.com/services/)[A-Za-z0-9/]+`), `${1}***`},

	// Passwords in URLs and in curl's -u user:password.
	{[]string{"://"}, lazy(`(\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:'"]*:)[^\s/?#@'"]+@`), `${1}***@`},
	{[]string{"curl"}, lazy(`(\bcurl\b[^|;&\n]*?\s(?:-u\s*|--user[=\s]\s*)['"]?[^\s:'"]+:)[^\s'"]+`), `${1}***`},

	// Headers: to the end of a quoted argument, else the next word.
	{headerWords, lazy(`(['"])(` + header + `\s*:\s*` + scheme + `)[^'"\s][^'"\n]*`), `${1}${2}***`},
	{headerWords, lazy(`\b(` + header + `\s*:\s*` + scheme + `)[^\s'"]+`), `${1}***`},

	// Query parameters named like secrets.
	{[]string{"token=", "key=", "secret=", "password=", "passwd=", "pwd=", "sig=", "signature=", "credential=", "auth="},
		lazy(`(?i)([?&](?:[a-z0-9_.-]*[_.-])?(?:token|key|apikey|secret|password|passwd|pwd|sig|signature|credential|auth)=)[^&#\s'"]+`), `${1}***`},

	// Options and shell assignments.
	{secretWords, lazy(`(--` + secretOption + `=)` + word), `${1}***`},
	{secretWords, lazy(`(--` + secretOption + `\s+)` + dashless), `${1}***`},
	{[]string{"mysql", "mariadb"}, lazy(`(\b(?:mysql|mysqldump|mysqladmin|mysqlsh|mariadb|mariadb-dump)\b[^|;&\n]*?\s-p)` + word), `${1}***`},
	{[]string{"sshpass"}, lazy(`(\bsshpass\s+-p\s*)` + word), `${1}***`},
	{secretWords, lazy(`(^|[\s;&|(=` + "`" + `])(` + secretVar + `)=` + word), `${1}${2}=***`},
	{secretWords, lazy(`(['"])(` + secretVar + `)=[^\s'"]+`), `${1}${2}=***`},
	{[]string{"secret"}, lazy(`(?i)(aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key)(["']?\s*[:=]\s*["']?|\s+)[A-Za-z0-9/+=]+`), `${1}${2}***`},

	// Values of keys named like secrets: quoted (JSON, code), or at the
	// start of a line (YAML).
	{secretWords, lazy(`(` + secretKey + `["']?\s*[:=]\s*)(["'])[^"'\n]+(["'])`), `${1}${2}***${3}`},
	{secretWords, lazy(`(?m)^(\s*[A-Za-z0-9_.-]*` + secretKey + `\s*:[ \t]+)[^\s"'#][^\n]*`), `${1}***`},
}
