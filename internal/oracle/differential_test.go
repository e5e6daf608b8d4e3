// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

package oracle

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"guard/engine"
	"guard/policy"
)

var (
	oracleSeed     = flag.Uint64("oracle.seed", 1, "seed of the differential test's command generator")
	oracleN        = flag.Int("oracle.n", 400, "commands the differential test generates")
	oracleDuration = flag.Duration("oracle.duration", 0, "stop the differential test after this long; 0: no limit")
	oracleCmd      = flag.String("oracle.cmd", "", "decide and run this one command instead of generated ones")
)

// TestOracleDifferential composes commands from the default policy's own
// programs, subcommands and options, and from material that has fooled
// command checkers before (wrappers, option spellings, quoting, globs that
// expand to trap file names, redirections, environment prefixes,
// substitutions), asks guard about each, and runs every command guard
// allows in the oracle; without -oracle.full, not those that build with go
// or cargo.
func TestOracleDifferential(t *testing.T) {
	sb := sandbox(t)
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	g := newGenerator(p, *oracleSeed) // the policy's programs and options; the sandbox decides
	if len(g.allowed) == 0 {
		t.Fatal("the default policy allows no command: nothing to generate from")
	}

	type job struct {
		n     int
		cmd   string
		d     engine.Decision
		shell string
	}
	var (
		mu                             sync.Mutex
		run, convicted, timedOut, errs int
		known                          int
		wg                             sync.WaitGroup
		work                           = make(chan job)
		runs                           = map[string]int{}
	)
	for range max(*oracleWorkers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				v := runOracle(context.Background(), sb, j.shell, j.cmd, j.d)
				mu.Lock()
				switch {
				case v.err != nil:
					errs++
					t.Errorf("seed %d, command %d: %s: %q: the oracle could not run it: %v", *oracleSeed, j.n, j.shell, j.cmd, v.err)
				case len(v.violations) > 0 && knownConvictions[j.shell+"\x00"+j.cmd] != "":
					known++
					t.Logf("seed %d, command %d: %s: %q: a known guard bug (%s), convicted:%s", *oracleSeed, j.n, j.shell, j.cmd, knownConvictions[j.shell+"\x00"+j.cmd], formatViolations(v.violations))
				case len(v.violations) > 0:
					convicted++
					t.Errorf("seed %d, command %d: %s: %q: allowed, but it escaped its decision:%s", *oracleSeed, j.n, j.shell, j.cmd, formatViolations(v.violations))
				case knownConvictions[j.shell+"\x00"+j.cmd] != "":
					t.Errorf("seed %d, command %d: %s: %q: listed as a known guard bug (%s), but it passed: take it off knownConvictions", *oracleSeed, j.n, j.shell, j.cmd, knownConvictions[j.shell+"\x00"+j.cmd])
				}
				if v.err == nil {
					run++
					runs[j.shell]++
				}
				if v.timedOut {
					timedOut++
					t.Logf("command %d: %s: %q: killed at the timeout", j.n, j.shell, j.cmd)
				}
				mu.Unlock()
			}
		}()
	}

	start := time.Now()
	generated, distinct, allowed, leftOut, sandboxed := 0, 0, 0, 0, 0
	allowedIn := map[string]int{} // by guard with the call's shell stated
	seen := map[string]bool{}
	var cmds []string
	var reqs []request
	for i := 0; i < *oracleN; i++ {
		cmd := *oracleCmd
		if cmd == "" {
			cmd = g.script(0)
		} else if i > 0 {
			break
		}
		generated++
		if seen[cmd] {
			continue
		}
		seen[cmd] = true
		distinct++
		cmds = append(cmds, cmd)
		for _, sh := range []string{"", Bash, Zsh} {
			call := oracleCall(cmd, WorkDir)
			call.Shell = sh
			reqs = append(reqs, request{Call: call})
		}
	}
	// guard decides in a sandbox with the trees the commands run in.
	ds, err := decideInSandbox(sb, reqs)
	if err != nil {
		t.Fatal(err)
	}
	decideTime := time.Since(start)
	for i, cmd := range cmds {
		if *oracleDuration > 0 && time.Since(start) > *oracleDuration {
			break
		}
		d := ds[3*i]
		for k, sh := range []string{Bash, Zsh} {
			if ds[3*i+1+k].Verdict == engine.Allow {
				allowedIn[sh]++
			}
		}
		if testing.Verbose() && *oracleCmd != "" {
			t.Logf("%q: %s: %s", cmd, d.Verdict, d.Reason())
		}
		if d.Verdict != engine.Allow {
			continue
		}
		if sandboxedOnly(d) {
			sandboxed++
			continue
		}
		allowed++
		if !*oracleFull && buildsWithToolchain(d) && *oracleCmd == "" {
			leftOut++
			continue
		}
		for _, sh := range shellsFor(t, sb, "", cmd) {
			work <- job{i, cmd, d, sh}
		}
	}
	close(work)
	wg.Wait()
	elapsed := time.Since(start)
	t.Logf("oracle: seed %d: %d commands generated (%d distinct), %d allowed for bash and zsh (%.0f%% of distinct), %d more allowed only in guard run's sandbox (not run here), %s%d runs (%d in bash, %d in zsh), %d convicted, %d known bugs convicted, %d timed out (at %s), %d not run",
		*oracleSeed, generated, distinct, allowed, 100*float64(allowed)/float64(max(distinct, 1)), sandboxed, leftOutNote(leftOut), run, runs[Bash], runs[Zsh], convicted, known, timedOut, sb.Timeout, errs)
	t.Logf("oracle: seed %d: with the shell stated, guard allowed %d in bash and %d in zsh", *oracleSeed, allowedIn[Bash], allowedIn[Zsh])
	t.Logf("oracle: throughput: %.0f commands/s generated and decided (three calls each, in one sandbox); %.2f allowed commands/s run in the sandbox under strace (%d workers); %s in all",
		float64(generated)/max(decideTime.Seconds(), 1e-9), float64(run)/max(elapsed.Seconds(), 1e-9), max(*oracleWorkers, 1), elapsed.Round(time.Second))
}

// knownConvictions are the generated commands, by shell and command, that
// the oracle convicts for a bug of guard's that is reported and not fixed
// yet: they are logged instead of failing the test, and one that passes
// fails it, so that the list shrinks as the bugs are fixed. Each names
// the bug.
var knownConvictions = map[string]string{}

// generator composes commands. It reads the programs, subcommands and
// options from the policy, so that most commands it makes are ones the
// policy means to allow, spelled in ways that may fool guard.
type generator struct {
	r        *rand.Rand
	allowed  []policy.CommandInfo // rules that allow, to run on their own
	others   []policy.CommandInfo // rules that ask or deny
	byName   map[string]policy.CommandInfo
	wrappers []policy.CommandInfo
}

func newGenerator(p *policy.Policy, seed uint64) *generator {
	g := &generator{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), byName: map[string]policy.CommandInfo{}}
	for _, c := range p.Commands() {
		g.byName[c.Name] = c
		switch {
		case strings.HasSuffix(c.Name, " --") || strings.ContainsAny(c.Name, "*["):
			// what follows --, and patterns: not commands of their own
		case c.Wrapper:
			g.wrappers = append(g.wrappers, c)
		case c.Shell:
			// bash -c is composed around whole scripts
		case c.Verdict == engine.Allow:
			g.allowed = append(g.allowed, c)
		default:
			g.others = append(g.others, c)
		}
	}
	return g
}

func (g *generator) chance(p float64) bool { return g.r.Float64() < p }

func pick[T any](g *generator, list []T) T { return list[g.r.IntN(len(list))] }

// script is one or more pipelines joined by ; && || or a newline.
func (g *generator) script(depth int) string {
	s := g.pipeline(depth)
	for n := g.r.IntN(3); n > 0 && depth < 2; n-- {
		s += pick(g, []string{"; ", " && ", " || ", "\n", " ; "}) + g.pipeline(depth)
	}
	return s
}

// pipeline is one or more commands joined by |.
func (g *generator) pipeline(depth int) string {
	s := g.command(depth)
	if g.chance(0.25) {
		// time after a pipe is a program in bash, not its keyword.
		s += pick(g, []string{" | ", " |& ", " | ", " | time "}) + g.command(depth)
	}
	if g.chance(0.05) {
		s = pick(g, []string{"time ", "time -p ", "! ", "! time "}) + s
	}
	return s
}

// command is a simple command with what may surround it, or a compound
// command around a script, or an attack on the classes of issues 7 and 8,
// maybe with line continuations in it.
func (g *generator) command(depth int) string {
	if g.chance(0.25) {
		c := g.attack()
		if g.chance(0.3) {
			c = g.continuations(c)
		}
		return c
	}
	if depth < 2 && g.chance(0.15) {
		inner := g.script(depth + 1)
		switch g.r.IntN(6) {
		case 0:
			return "(" + inner + ")"
		case 1:
			return "{ " + inner + "; }"
		case 2:
			return "if " + g.simple(depth+1) + "; then " + inner + "; fi"
		case 3:
			return g.shell() + " " + sq(inner)
		case 4:
			return "find . -name " + sq(pick(g, []string{"*.go", "*.rs", "*.md", "*"})) + " -exec " + g.shell() + " " + sq(inner) + " " + pick(g, []string{`\;`, `';'`})
		default:
			return inner + " &"
		}
	}
	return g.simple(depth)
}

// shell is bash or sh with the options that come before -c.
func (g *generator) shell() string {
	name := pick(g, []string{"bash", "bash", "sh", "dash"})
	var opts []string
	for _, o := range []string{"-e", "-u", "-x", "--norc", "--noprofile", "-o pipefail", "--posix", "-l", "-i"} {
		if g.chance(0.08) {
			opts = append(opts, o)
		}
	}
	c := "-c"
	if len(opts) > 0 && g.chance(0.3) && !strings.Contains(opts[len(opts)-1], " ") {
		opts[len(opts)-1] += "c" // -ec
		c = ""
	}
	return strings.TrimSpace(g.word(name) + " " + strings.Join(opts, " ") + " " + c)
}

// simple is [assignments] [wrappers] program arguments [redirections].
func (g *generator) simple(depth int) string {
	var parts []string
	if g.chance(0.12) {
		parts = append(parts, g.assignment())
	}
	feed := ""
	for n := 0; n < 2 && g.chance(0.25); n++ {
		w, stdin := g.wrapper()
		parts = append(parts, w)
		if stdin && feed == "" {
			feed = pick(g, []string{"printf '%s\\n' README.md main.go | ", "ls | ", "git ls-files | ", "find . -name '*.go' | ", "echo src/main.rs | ", "ls -1 * | "})
		}
	}
	parts = append(parts, g.core(depth))
	for n := 0; n < 2 && g.chance(0.2); n++ {
		parts = append(parts, g.redirect())
	}
	return feed + strings.Join(parts, " ")
}

func (g *generator) assignment() string {
	if g.chance(0.1) {
		return pick(g, []string{"LC_ALL=zh_CN.GBK", "LANG=C.UTF-8", "LC_CTYPE=ja_JP.SJIS", "LC_ALL=C", "LANG=zh_TW.Big5"})
	}
	if g.chance(0.8) {
		return pick(g, []string{"RUST_LOG=debug", "LC_ALL=C", "NO_COLOR=1", "TERM=dumb", "CI=true", "RUST_BACKTRACE=1", "GOMAXPROCS=1", "CGO_ENABLED=0", "COLUMNS=80"})
	}
	return pick(g, []string{"PATH=/tmp", "GIT_DIR=/tmp", "LD_PRELOAD=/tmp/x.so", "HOME=/tmp", "BASH_ENV=/tmp/x", "GOFLAGS=-toolexec=/tmp/x", "GIT_EXTERNAL_DIFF=/tmp/x", "PAGER=/tmp/x", "RUSTC_WRAPPER=/tmp/x", "IFS=/"})
}

// wrapper is a wrapper command with its options, and whether the command
// it wraps reads its arguments from standard input (xargs).
func (g *generator) wrapper() (string, bool) {
	w := pick(g, g.wrappers)
	words := []string{g.word(w.Name)}
	for n := g.r.IntN(3); n > 0; n-- {
		words = append(words, g.option(w, w.Options)...)
	}
	switch w.Name {
	case "timeout":
		words = append(words, pick(g, []string{"5", "1m", "0.5", "10s"}))
	case "env":
		for n := g.r.IntN(2); n > 0; n-- {
			words = append(words, g.assignment())
		}
	}
	return strings.Join(words, " "), w.Name == "xargs"
}

// core is a program, its subcommands and its arguments.
func (g *generator) core(depth int) string {
	var c policy.CommandInfo
	if g.chance(0.9) || len(g.others) == 0 {
		c = pick(g, g.allowed)
	} else {
		c = pick(g, g.others)
	}
	names := strings.Fields(c.Name)
	words := []string{g.word(names[0])}
	if len(names) > 1 && g.chance(0.2) {
		// An option of the program before its subcommand: git -C sub log.
		if parent, ok := g.byName[names[0]]; ok && len(parent.Options) > 0 {
			words = append(words, g.option(parent, parent.Options)...)
		}
	}
	for _, n := range names[1:] {
		words = append(words, g.word(n))
	}
	if c.Style == "find" {
		return strings.Join(append(words, g.findArgs(c, depth)...), " ")
	}
	for n := g.r.IntN(4); n > 0; n-- {
		if len(c.Options) > 0 && c.Style != "none" && g.chance(0.6) {
			words = append(words, g.option(c, c.Options)...)
		} else {
			words = append(words, g.operand())
		}
	}
	if c.Digits && g.chance(0.2) {
		words = append(words, pick(g, []string{"-5", "-1", "-20"}))
	}
	if rest, ok := g.byName[c.Name+" --"]; ok && g.chance(0.3) {
		words = append(words, "--")
		for n := 1 + g.r.IntN(2); n > 0; n-- {
			words = append(words, g.option(rest, rest.Options)...)
		}
	} else if g.chance(0.08) {
		words = append(words, "--", g.operand())
	}
	return strings.Join(words, " ")
}

// findArgs is what follows find: start points and an expression, maybe
// with an -exec command.
func (g *generator) findArgs(c policy.CommandInfo, depth int) []string {
	words := []string{pick(g, []string{".", "src", ".", "./src", "*", "/etc", "-L ."})}
	for n := g.r.IntN(3); n > 0; n-- {
		words = append(words, g.option(c, c.Options)...)
	}
	if len(c.Exec) > 0 && depth < 2 && g.chance(0.4) {
		inner := g.core(depth + 1)
		switch g.r.IntN(3) {
		case 0:
			words = append(words, pick(g, c.Exec), inner, "{}", "+")
		case 1:
			words = append(words, pick(g, c.Exec), inner, "{}", `\;`)
		default:
			words = append(words, pick(g, c.Exec), inner, `';'`)
		}
	}
	return words
}

// option spells an option of c, with a value if it takes one, in one of
// the ways its style allows: bundles, glued values, --opt=value, unique
// prefixes of long options.
func (g *generator) option(c policy.CommandInfo, opts []policy.OptionInfo) []string {
	if len(opts) == 0 {
		return nil
	}
	var accepted, named []policy.OptionInfo
	for _, o := range opts {
		if o.Accepted {
			accepted = append(accepted, o)
		} else {
			named = append(named, o)
		}
	}
	o := policy.OptionInfo{}
	switch {
	case len(named) > 0 && (len(accepted) == 0 || g.chance(0.1)):
		o = pick(g, named)
	case len(accepted) > 0:
		o = pick(g, accepted)
	default:
		return nil
	}
	if o.Name == "+" {
		return []string{"+" + pick(g, []string{"nightly", "stable", "/tmp/tc"})}
	}
	name := o.Name
	long := strings.HasPrefix(name, "--")
	if long && len(name) > 5 && g.chance(0.12) {
		name = name[:3+g.r.IntN(len(name)-4)] // an abbreviation
	}
	switch c.Style {
	case "go":
		if g.chance(0.15) {
			name = "-" + name
		}
		switch {
		case o.Value == "":
			if g.chance(0.1) {
				return []string{g.word(name + "=" + pick(g, []string{"true", "false"}))}
			}
			return []string{g.word(name)}
		case g.chance(0.5):
			return []string{g.word(name + "=" + g.value(o))}
		}
		return []string{g.word(name), g.word(g.value(o))}
	case "find":
		if o.Value == "" {
			return []string{g.word(name)}
		}
		return []string{g.word(name), g.word(g.value(o))}
	}
	short := !long && len(name) == 2
	switch {
	case o.Value == "" && short && g.chance(0.3):
		// A bundle of short flags, maybe ending in an option with a value.
		b := name
		for n := 1 + g.r.IntN(2); n > 0; n-- {
			if f := pick(g, opts); len(f.Name) == 2 && f.Name[0] == '-' && f.Name != "--" {
				b += f.Name[1:]
				if f.Value == "required" {
					b += g.value(f)
					break
				}
			}
		}
		return []string{g.word(b)}
	case o.Value == "":
		return []string{g.word(name)}
	case o.Value == "optional":
		if g.chance(0.5) {
			return []string{g.word(name)}
		}
		if short {
			return []string{g.word(name + g.value(o))}
		}
		return []string{g.word(name + "=" + g.value(o))}
	case short && g.chance(0.4):
		return []string{g.word(name + g.value(o))} // glued: -n5
	case long && g.chance(0.5):
		return []string{g.word(name + "=" + g.value(o))}
	}
	return []string{g.word(name), g.word(g.value(o))}
}

// value is a value for an option, mostly of its type.
func (g *generator) value(o policy.OptionInfo) string {
	if len(o.Values) > 0 && g.chance(0.9) {
		return pick(g, o.Values)
	}
	switch o.Type {
	case "int":
		return pick(g, []string{"1", "3", "0", "10", "-1"})
	case "dir", "path":
		return pick(g, []string{"src", ".", "go.mod", "sub", "out.txt", "/tmp/x", "/etc", "../x", "~/x", "-rf"})
	}
	return pick(g, []string{"foo", "TODO", "main", "HEAD", "%h %s", "*.go", "--output=x", "x", "auto", "never", "1", "KILL", "a|b", "README.md"})
}

// operand is an argument that is not an option: a file of the fixture, a
// glob that may expand to a trap name, a path outside the project, or a
// substitution.
func (g *generator) operand() string {
	switch n := g.r.Float64(); {
	case n < 0.45:
		return g.word(pick(g, []string{"README.md", "main.go", "src", "src/main.rs", ".", "./...", "file.txt", "names.txt", "data.csv", "go.mod", "Cargo.toml", "HEAD", "main", "TODO", "foo", "sub", "v0.1.0", "HEAD~1", "a b.txt", "new\nline.txt"}))
	case n < 0.7:
		return pick(g, []string{"*", "*.go", "*.md", "src/*", "./*", "*.txt", "-*", "[a-z]*", "?", "*/", "s*/*", "**"})
	case n < 0.85:
		return pick(g, []string{"'a b.txt'", "$'new\\nline.txt'", "./-rf", "-rf", "--output=x", "./--output=x", "'*'", `\*`, "--", "'--output=x'", "-"})
	case n < 0.95:
		return g.word(pick(g, []string{"/etc/passwd", "/tmp", "/etc", "..", "/", "/dev/null", "/proc/self/environ", "../.."})) + pick(g, []string{"", "", "~", "~/x"})
	}
	return pick(g, []string{"$(echo README.md)", "`echo x`", "$HOME", "${PWD}", "<(ls)", "$((1))", "\"$(id)\"", "${X:-README.md}"})
}

func (g *generator) redirect() string {
	return pick(g, []string{"> /dev/null", "2>&1", "2>/dev/null", "< README.md", "&> /dev/null", ">&2", "<<< 'x'",
		"> out.txt", ">> /tmp/log", "> /etc/x", "2> err.txt", ">| /dev/null", "> /dev/stderr", "1>/dev/fd/2", "< /etc/passwd",
		"<> README.md", "3>&1", "1>&-", "2>&-", "0<&-", "&>> /dev/null", "> /dev/tcp/127.0.0.1/9", "< /dev/udp/127.0.0.1/53", ">& /dev/null"})
}

// word spells a literal word so that bash reads it back as it is, in one
// of the ways that hide it from a naive reader: quotes, an empty pair of
// quotes inside the word, a backslash before a letter, ANSI-C quoting with
// hex escapes.
func (g *generator) word(w string) string {
	plain := w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,+%@^-") == ""
	switch n := g.r.Float64(); {
	case n < 0.6 && plain:
		return w
	case n < 0.7:
		return sq(w)
	case n < 0.8:
		r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
		return `"` + r.Replace(w) + `"`
	case n < 0.87 && plain && len(w) > 1:
		i := 1 + g.r.IntN(len(w)-1)
		return w[:i] + pick(g, []string{"''", `""`}) + w[i:]
	case n < 0.93 && plain && len(w) > 1:
		i := g.r.IntN(len(w))
		if c := w[i]; c >= 'a' && c <= 'z' {
			return w[:i] + `\` + w[i:]
		}
		return w
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case g.chance(0.4), c == '\'', c == '\\', c < ' ', c >= 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString("'")
	return b.String()
}

// attacks are commands of the classes of issues 7 and 8: heredocs,
// comments, descriptor redirections, what zsh reads differently, and
// paths that reach a secret or a repository by a glob, standard input, a
// tree walk, an option or a link of the fixture.
var attacks = []string{
	// heredocs and comments
	"cat <<EOF\nx\nEOF", "cat <<'EOF'\n$(id)\nEOF", "cat <<-EOF\n\tx\n\tEOF", "cat <<ÉOF\nx\nÉOF", "cat <<\"E O\"\nx\nE O",
	"cat <<EOF > /tmp/h\n$HOME\nEOF", "cat << EOF | wc -l\na\nEOF", "wc -l <<EOF\n`id`\nEOF", "echo x # > ~/.bashrc", "echo x #\\\ntouch ~/x",
	"cat <<EOF\nx\\\nEOF\nEOF", "cat <<E\\\nOF\nx\nEOF",
	// descriptor redirections
	"cat 1<.git/config >>/dev/stdout", "cat /dev/fd/0 < README.md", "cat /proc/self/fd/0 < README.md", "ls 2>&1 1>&2 | wc -l",
	"ls 3>&1 1>&2 2>&3", "echo x >&-x", "echo x 3>/tmp/y >&3", "cat 0<~/.ssh/id_rsa", "cat < /proc/self/fd/3 3<.env",
	// zsh
	"echo {-..-}", "echo {a..c}", "echo =ls", "ls =cat", "echo $'\\-'", "printf %d PATH=0", "printf '%d\\n' 'x[$(id)]'", "< README.md",
	"echo x >! /tmp/z", "ls <1-10>", "{a} > /tmp/y", "for path in /tmp/x; do ls; done", "echo } ; ls", "cd +1", "echo x > ~/.bashrc(N)",
	// globs in directory components
	"cat ~/.ss?/id_rsa", "cat /etc/shad*", "cat ~/.[s]sh/id_rsa", "head -1 ~/.aw*/credentials", "cat l?k/id_rsa", "cat aws?/credentials", "cat */.env", "cat s*/.e*",
	// standard input and find
	"echo ~/.ssh/id_rsa | xargs cat", "echo lnk/id_rsa | xargs head", "printf '%s\\n' .env | xargs cat", "find ~/.ssh -exec cat {} +",
	"find lnk/ -type f -exec cat {} +", "find -L . -name id_rsa -exec cat {} ';'", "find . -name .env -exec cat {} +", "find awsx -type f",
	// recursive readers
	"grep -r x .", "grep -r CANARY .", "grep -rL x .", "grep -R API .", "rg --hidden x", "rg -uu CANARY", "tree -a", "ls -Ra", "ls -la lnk/", "du -a .", "cat -- lnk/*",
	// options that name files
	"diff --from-file=.env README.md", "diff --from-file=lnk/id_rsa README.md", "grep -f .env README.md", "grep -f lnk/id_rsa -v README.md",
	"grep --file=awsx/credentials README.md", "sort --files0-from=/dev/null", "wc --files0-from=list.txt",
	// -C and cd through links and repositories
	"cd lnk/.. && cat id_rsa", "cd -P lnk/.. && cat id_rsa", "cd lnk && cat id_rsa", "env -C lnk/.. cat id_rsa", "env -C lnk cat id_rsa",
	"git -C sub status", "git -C emb status", "git -C gf status", "cd gf && git status", "cd emb && git log", "git -C emb log --oneline",
	"git show HEAD:.env", "git show HEAD:README.md", "git --git-dir=emb status", "git -C gomod status", "go -C gomod version", "go -C gomod env GOVERSION",
	"cd gomod && go list", "cat awsx/credentials", "cat lnk/id_rsa", "cat .env", "cat sub/.env", "cat lnk/../.ssh/id_rsa",
}

func (g *generator) attack() string { return pick(g, attacks) }

// continuations puts backslash-newlines in a command: between words, inside
// one, after $, inside && || << >> ((, and at the end.
func (g *generator) continuations(c string) string {
	const bn = "\\\n"
	switch g.r.IntN(6) {
	case 0:
		if i := strings.IndexByte(c, ' '); i > 0 {
			return c[:i] + " " + bn + c[i:]
		}
	case 1:
		if i := strings.IndexAny(c, "abcdefghijklmnopqrstuvwxyz"); i >= 0 && i+1 < len(c) {
			return c[:i+1] + bn + c[i+1:]
		}
	case 2:
		for _, op := range []string{"&&", "||", "<<", ">>", "((", "$"} {
			if i := strings.Index(c, op); i >= 0 {
				return c[:i+1] + bn + c[i+1:]
			}
		}
	case 3:
		return c + " " + bn
	case 4:
		return "echo x &" + bn + "& " + c
	}
	return c + bn
}

// sq quotes s in single quotes.
func sq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
