// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package shellparse

// The parser differential compares guard's reading of a command with the
// reading of the shells that run it, without running it.
//
// A shell that defines a function keeps its own parse of the body and prints
// it back in a canonical form: bash with declare -f, zsh with functions.
// Comments are gone, continuations joined, heredoc bodies written out, and
// quotes and redirections spelled one way. So for an input CMD the shell
// evaluates
//
//	guard_fn() {
//	: guard_begin_NONCE
//	CMD
//
//	: guard_end_NONCE
//	}
//
// and prints the function; guard parses the body it printed as well as CMD,
// and its two readings must agree on everything a policy judges: each simple
// command's words (value, dynamic or not, glob and tilde), its assignments
// and redirections, the heredoc bodies, and the number of findings of each
// kind. For an input:
//
//   - guard refuses it (a parse error, or a finding no policy may allow):
//     passes, whatever the shell reads;
//   - the shell rejects it (the function is not defined), or dies of a
//     signal reading it (bash 5.2.15 aborts on heap corruption for some
//     heredocs in $(...) in a function): skipped, the crash logged;
//   - the shell's function lost a sentinel (the input closed the body early,
//     and the shell would run what follows as top-level code), or the input
//     stopped the shell: guard must refuse it;
//   - guard refuses the shell's canonical form, or reads it differently from
//     the input: fails.
//
// A dynamic word in guard's reading of the input matches any word of the
// shell's: guard does not claim to know its value, so it has refused that
// word, not misread it.
//
// Where the shells print what they read alike in another spelling, both
// readings are normalised: bash prints a |& b as a 2>&1 | b and elif as an
// if in an else (so control-flow findings count only as present); zsh
// prints 1>f as >f and <<- as << with the tabs stripped (so heredoc bodies
// are compared with tabs stripped). bash prints $'\e' as the character
// itself in single quotes, which guard refuses in a command; such
// characters become printable marks on both sides (see visible). Where a
// shell's printer loses something, the canonical form is not what the shell
// read, so every canonical form goes through the shell again and must come
// back the same (see judge). Two blind spots remain, and have their own
// checks: guard could misread a canonical form exactly as it misreads the
// input (so a canonical form that keeps a backslash-newline is checked
// against mvdan/sh's own tree, see compare); and an input that ends in a
// backslash means something else in a function, so it is not compared.
//
// shellparse does not expose heredoc bodies. The test reads them from
// mvdan/sh's tree of the same source, which is the tree Parse walks only
// where the source holds no backslash-newline, and compares them only then.
//
// Defining a function runs nothing, but an input that closes the function
// early runs code. The shells therefore run only in bubblewrap: the host's
// root read-only, an empty tmpfs on /tmp and on the home directory, a
// cleared environment, every namespace unshared (no network), no
// capabilities, and nothing of the host writable. Many inputs share one
// shell process (one script that defines and prints a function per input,
// with marker lines between them); an input that leaves the function or
// stops the shell ends its process, and the inputs after it go to a new
// one.
//
// Without bwrap or a shell the tests skip and say so, unless
// GUARD_ORACLE=require (CI), which makes that a failure. The generated run
// is bounded by -differential.n; make parse-diff runs it at length.

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

var (
	diffN         = flag.Int("differential.n", 2500, "inputs the parser differential generates")
	diffSeed      = flag.Uint64("differential.seed", 1, "seed of the parser differential's generator")
	diffShrink    = flag.Duration("differential.shrink", 3*time.Second, "time the parser differential spends shrinking its reproducers")
	diffShowInput = flag.Bool("differential.v", false, "log every generated input and its verdict")
)

// Bounds of the oracle's shell processes.
const (
	diffBatch = 500              // inputs per shell process
	diffStall = 30 * time.Second // longest wait for the next marker line before the process is taken for hung
)

// TestDifferentialKnown checks inputs where bash and mvdan/sh are known to
// disagree: guard must refuse each, or read it as the shell does.
func TestDifferentialKnown(t *testing.T) {
	forEachShell(t, func(t *testing.T, o *oracle, sh *shell) {
		srcs := append(slices.Clone(knownDifferential), regressionInputs(t)...)
		vs, err := o.judge(sh, srcs)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vs {
			switch v.state {
			case shellRejects, shellCrashes:
				t.Logf("input: %q: %s", srcs[i], v.state)
			case disagree:
				t.Errorf("input: %q: %s\n%s", srcs[i], v.key, v.detail)
			}
		}
	})
}

// knownDifferential: inputs on which the shells' tokenising and mvdan/sh's
// have differed. Backslash-newline is the usual cause: bash removes it
// before it tokenises (not in single quotes or the body of a heredoc with a
// quoted delimiter), and a comment ends at the newline even after a
// backslash; mvdan/sh handles it per lexer state.
var knownDifferential = []string{
	// A comment ends at the newline: the next line runs.
	"echo hi #\\\ntouch ~/x",
	"echo hi # a \\\ntouch ~/x",
	"echo $(echo a #\\\ntouch ~/x\n)",
	"echo a\\\n#b",
	// A heredoc's delimiter line reached through a joined line.
	"cat <<E\nx\n\\\nE\ntouch ~/x\nE",
	"cat <<E\nx\\\n\nE\ntouch ~/x\nE",
	"cat <<E\nx\nE\\\n\ntouch ~/x\nE",
	"cat <<-E\n\tx\n\t\\\nE\ntouch ~/x\nE",
	"cat <<'E'\nx\n\\\nE\ntouch ~/x\nE",
	"cat <<E\nE\\\nE\ntouch ~/x\nEE\nE",
	// Continuations inside the delimiter word and the operator.
	"cat <<\\\n-EOF\n\tx\n\tEOF\ntouch ~/x\n-EOF",
	"cat <\\\n<E\nx\nE\ntouch ~/x",
	"cat <<E\\\nF\nx\nEF\ntouch ~/x\nE",
	"cat <<\\\nE\nx\nE\ntouch ~/x",
	// After $: bash reads the expansion.
	"echo $\\\n{HOME}",
	"echo $\\\n(touch ~/x)",
	"echo $\\\nHOME",
	"echo \"$\\\n{HOME}\"",
	"echo $\\\n'a\\tb'",
	// Two-character operators.
	"(\\\n(x))",
	"(\\\n(touch ~/x))",
	"ls &\\\n& touch ~/x",
	"ls |\\\n| touch ~/x",
	"echo a >\\\n> f",
	"echo a 2>\\\n&1",
	"case a in a) ls ;\\\n; esac",
	"echo a &\\\n> f",
	// bash reads >&- as a whole: the rest of the word is the next argument.
	"echo a 2>&-x",
	"git log >&-\"--output=/tmp/x\"",
	"ls 2>&-\\\n-all",
	// Inside quotes: joined in double quotes, kept in single quotes.
	"echo \"a\\\nb\" 'a\\\nb'",
	"echo $'a\\\nb'",
	// Multibyte text around a continuation.
	"echo é\\\n日本",

	// Backquotes: bash removes a backslash-newline inside them before it
	// reads the command, single quotes or not.
	"echo `echo 'a\\\nb'`",
	"echo `rm '-\\\nrf' x`",
	// A continuation in the body of a heredoc with a quoted delimiter is
	// text; the delimiter line must match as it stands.
	"cat <<-'EOF'\nE\\\nOF\nEOF",
	"cat <<'EOF'\nE\\\nOF\ntouch ~/x\nEOF",
	"cat <<'E'\na\\\nE\ntouch ~/x\nE",
	"echo $(cat <<\\E\nE\\\n\nE\n)",
	"cat <\\\n<'E'\na\\\nE\ntouch ~/x\nE",
	"cat <\\\n<'E' &\nE\\\n\ntouch ~/x\nE",
	// A heredoc delimiter that is not ASCII, on the first line of the body.
	"cat <<é\né\ntouch ~/x\né",
	"cat <<'é'\né\ntouch ~/x\né",
	// bash 5.2: in $(...), a ; after a heredoc is lost: { a;b } runs a b.
	"echo $(cat <<E\nE\n{ echo a;touch ~/x\n})",

	// zsh: a continuation after a file descriptor number ends the word, and a
	// {name} word before a redirection names a file descriptor even with a
	// space between them.
	"echo 1\\\n>x",
	"echo {a} >x",
	"echo {a}\\\n>x",
}

// TestDifferentialGenerated checks inputs from a small grammar of the
// shell: quoting, continuations, comments, heredocs, operators, expansions,
// braces, $'...' and multibyte text. All disagreements are reported at once,
// one per class, each with the shortest reproducer found.
func TestDifferentialGenerated(t *testing.T) {
	g := newGenerator(*diffSeed)
	srcs := make([]string, *diffN)
	for i := range srcs {
		srcs[i] = g.input()
	}
	forEachShell(t, func(t *testing.T, o *oracle, sh *shell) {
		start := time.Now()
		vs, err := o.judge(sh, srcs)
		if err != nil {
			t.Fatal(err)
		}
		var counts [disagree + 1]int
		classes := map[string]*diffClass{}
		for i, v := range vs {
			counts[v.state]++
			if *diffShowInput || v.state == shellCrashes {
				t.Logf("input %d: %q: %s %s %s", i, srcs[i], v.state, v.key, v.detail)
			}
			if v.state != disagree {
				continue
			}
			c := classes[v.key]
			if c == nil {
				c = &diffClass{key: v.key}
				classes[v.key] = c
			}
			c.count++
			if c.src == "" || len(srcs[i]) < len(c.src) {
				c.src, c.v = srcs[i], v
			}
		}
		t.Logf("%s, seed %d: %d inputs in %v: %d refused by guard, %d rejected by %s, %d crashed it, %d printed lossily, %d ending in a backslash, %d read alike, %d disagreements in %d classes",
			sh.name, *diffSeed, len(srcs), time.Since(start).Round(time.Millisecond),
			counts[guardRefuses], counts[shellRejects], sh.name, counts[shellCrashes], counts[shellLossy], counts[untestable], counts[agree], counts[disagree], len(classes))
		if len(classes) == 0 {
			return
		}
		list := make([]*diffClass, 0, len(classes))
		for _, c := range classes {
			list = append(list, c)
		}
		sort.Slice(list, func(i, j int) bool { return list[i].key < list[j].key })
		if list, err = o.shrink(sh, list, *diffShrink); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "guard and %s disagree on %d of %d inputs, in %d classes (seed %d):\n", sh.name, counts[disagree], len(srcs), len(list), *diffSeed)
		for _, c := range list {
			fmt.Fprintf(&b, "\n%s: %d inputs\n  input: %q\n%s\n", c.key, c.count, c.src, indent(c.v.detail, "  "))
		}
		t.Error(b.String())
	})
}

// diffClass is one kind of disagreement and its shortest input.
type diffClass struct {
	key   string
	count int
	src   string
	v     verdict
}

// regressionInputs reads testdata/differential/*.txt: inputs that long runs
// found, one Go-quoted string per line; lines starting with # are comments.
func regressionInputs(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "differential", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			s, err := strconv.Unquote(line)
			if err != nil {
				t.Fatalf("%s:%d: %v", name, i+1, err)
			}
			out = append(out, s)
		}
	}
	return out
}

// The oracle.

// oracle runs shells in bubblewrap.
type oracle struct {
	bwrap   string
	hide    []string // host directories covered with an empty tmpfs
	shells  map[string]*shell
	missing map[string]error // why a shell cannot run
}

// shellNames are the shells the differential asks, in order.
var shellNames = []string{"bash", "zsh"}

// shell is one shell the oracle asks.
type shell struct {
	name  string // bash or zsh
	path  string
	args  []string // before the script's path
	zsh   bool     // guard reads the input with Options.Zsh
	nonce string
	// define returns the script lines that evaluate the wrapped input
	// and print the function.
	define func(wrapped string) string
	// body cuts the input's canonical form out of the printed function,
	// or reports false when a sentinel is missing.
	body func(printed string) (string, bool)
}

var (
	oracleOnce sync.Once
	oracleVal  *oracle
	oracleErr  error
)

// forEachShell runs f in a subtest per shell. Where bubblewrap or the
// shell cannot run, the test skips and says why, or fails with
// GUARD_ORACLE=require.
func forEachShell(t *testing.T, f func(t *testing.T, o *oracle, sh *shell)) {
	unavailable := func(t *testing.T, err error) {
		t.Helper()
		if os.Getenv("GUARD_ORACLE") == "require" {
			t.Fatalf("parser differential: %v", err)
		}
		t.Skipf("parser differential: SKIPPED (set GUARD_ORACLE=require to make this fail): %v", err)
	}
	oracleOnce.Do(func() { oracleVal, oracleErr = newOracle() })
	if oracleErr != nil {
		unavailable(t, oracleErr)
	}
	for _, name := range shellNames {
		t.Run(name, func(t *testing.T) {
			sh := oracleVal.shells[name]
			if sh == nil {
				unavailable(t, oracleVal.missing[name])
			}
			f(t, oracleVal, sh)
		})
	}
}

// newOracle finds bwrap and the shells, and checks that each shell reads a
// command in the sandbox. The error is about bwrap; a shell that cannot
// run is in missing.
func newOracle() (*oracle, error) {
	o := &oracle{shells: map[string]*shell{}, missing: map[string]error{}}
	var err error
	if o.bwrap, err = exec.LookPath("bwrap"); err != nil {
		return nil, fmt.Errorf("bwrap is not installed (the Debian package is bubblewrap): %v", err)
	}
	if home, err := os.UserHomeDir(); err == nil && filepath.IsAbs(home) && home != "/" && !strings.HasPrefix(home, "/tmp") {
		if fi, err := os.Stat(home); err == nil && fi.IsDir() {
			o.hide = append(o.hide, filepath.Clean(home))
		}
	}
	nonce := fmt.Sprintf("%016x", rand.Uint64())
	for _, name := range shellNames {
		p, err := exec.LookPath(name)
		if err == nil {
			p, err = filepath.EvalSymlinks(p)
		}
		if err != nil {
			o.missing[name] = fmt.Errorf("%s is not installed (the Debian package is %s): %v", name, name, err)
			continue
		}
		sh := &shell{name: name, path: p, nonce: nonce}
		if name == "bash" {
			sh.args = []string{"--norc", "--noprofile"}
			sh.define = func(w string) string {
				return "unset -f guard_fn\neval " + singleQuote(w) + " </dev/null >/dev/null 2>&1\n" +
					"printf '@@%s f\\n' " + nonce + "\ndeclare -f guard_fn 2>/dev/null\n"
			}
			sh.body = sh.bashBody
		} else {
			sh.args = []string{"-f"}
			sh.zsh = true
			sh.define = func(w string) string {
				return "unfunction guard_fn 2>/dev/null\neval " + singleQuote(w) + " </dev/null >/dev/null 2>&1\n" +
					"printf '@@%s f\\n' " + nonce + "\nfunctions guard_fn 2>/dev/null\n"
			}
			sh.body = sh.zshBody
		}
		vs, err := o.judge(sh, []string{"echo ok"})
		switch {
		case err != nil && name == "bash":
			return nil, fmt.Errorf("bash in bubblewrap: %v", err)
		case err != nil:
			o.missing[name] = fmt.Errorf("%s in bubblewrap: %v", name, err)
		case vs[0].state != agree:
			o.missing[name] = fmt.Errorf("%s in bubblewrap: echo ok: %s %s%s", name, vs[0].state, vs[0].key, vs[0].detail)
		default:
			o.shells[name] = sh
		}
	}
	return o, nil
}

func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// wrap puts an input into the function the shell defines.
func (sh *shell) wrap(src string) string {
	return "guard_fn() {\n: guard_begin_" + sh.nonce + "\n" + src + "\n\n: guard_end_" + sh.nonce + "\n}"
}

// bashBody cuts the body out of declare -f's output:
//
//	guard_fn ()
//	{
//	    : guard_begin_NONCE;
//	    BODY
//	    : guard_end_NONCE
//	}
func (sh *shell) bashBody(printed string) (string, bool) {
	lines := strings.Split(printed, "\n")
	if len(lines) < 5 || lines[0] != "guard_fn () " || lines[1] != "{ " || lines[len(lines)-1] != "}" {
		return "", false
	}
	if strings.TrimSpace(lines[2]) != ": guard_begin_"+sh.nonce+";" {
		return "", false
	}
	end := ": guard_end_" + sh.nonce
	last := strings.TrimRight(lines[len(lines)-2], " ")
	body := lines[3 : len(lines)-2]
	switch {
	case strings.TrimSpace(last) == end:
	case strings.HasSuffix(last, " & "+end):
		// The input ended in &: bash goes on on the same line.
		body = append(slices.Clone(body), strings.TrimSuffix(last, " "+end))
	default:
		return "", false
	}
	return strings.Join(body, "\n"), !strings.Contains(strings.Join(body, "\n"), "guard_begin_"+sh.nonce)
}

// zshBody cuts the body out of functions' output:
//
//	guard_fn () {
//		: guard_begin_NONCE
//		BODY
//		: guard_end_NONCE
//	}
func (sh *shell) zshBody(printed string) (string, bool) {
	lines := strings.Split(printed, "\n")
	if len(lines) < 4 || lines[0] != "guard_fn () {" || lines[len(lines)-1] != "}" {
		return "", false
	}
	if strings.TrimSpace(lines[1]) != ": guard_begin_"+sh.nonce {
		return "", false
	}
	end := ": guard_end_" + sh.nonce
	last := strings.TrimSpace(lines[len(lines)-2])
	body := lines[2 : len(lines)-2]
	switch {
	case last == end:
	case strings.HasSuffix(last, "& "+end):
		body = append(slices.Clone(body), strings.TrimSuffix(lines[len(lines)-2], " "+end))
	default:
		return "", false
	}
	return strings.Join(body, "\n"), !strings.Contains(strings.Join(body, "\n"), "guard_begin_"+sh.nonce)
}

// readState is what the shell made of an input.
type readState int

const (
	shellRejected readState = iota // a syntax error: the function was not defined
	shellEscaped                   // the input left the function, or stopped the shell
	shellCrashed                   // the shell died of a signal reading the input (bash 5.2 has aborted on heap corruption)
	shellRead                      // body holds the shell's canonical form
)

type shellReading struct {
	state   readState
	body    string // the canonical form of the input
	printed string // the function as the shell printed it
}

// read asks the shell about each input.
func (o *oracle) read(sh *shell, srcs []string) ([]shellReading, error) {
	out := make([]shellReading, len(srcs))
	for next := 0; next < len(srcs); {
		end := min(next+diffBatch, len(srcs))
		n, err := o.batch(sh, srcs[next:end], out[next:end])
		if err != nil {
			return nil, err
		}
		next += n
	}
	return out, nil
}

// batch runs one shell process on srcs and fills out. It returns how many
// inputs it read: all of them, or up to and including the one that left
// the function or stopped the shell, after which the shell's state is not
// to be trusted.
func (o *oracle) batch(sh *shell, srcs []string, out []shellReading) (int, error) {
	var script strings.Builder
	for i, src := range srcs {
		fmt.Fprintf(&script, "printf '@@%s s %d\\n'\n", sh.nonce, i)
		script.WriteString(sh.define(sh.wrap(src)))
		fmt.Fprintf(&script, "printf '\\n@@%s e %d\\n'\n", sh.nonce, i)
	}
	fmt.Fprintf(&script, "printf '@@%s done\\n'\n", sh.nonce)

	pr, pw, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	const scriptPath = "/tmp/guard-differential.sh"
	args := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--tmpfs", "/tmp"}
	for _, d := range o.hide {
		args = append(args, "--tmpfs", d)
	}
	args = append(args,
		"--dir", "/tmp/home",
		"--ro-bind-data", "3", scriptPath,
		"--chdir", "/tmp/home",
		"--unshare-all", "--cap-drop", "ALL",
		"--die-with-parent", "--new-session",
		"--clearenv",
		"--setenv", "HOME", "/tmp/home",
		"--setenv", "PATH", "/usr/bin:/bin",
		"--setenv", "LC_ALL", "C.UTF-8",
		"--setenv", "TMPDIR", "/tmp",
		"--", sh.path)
	args = append(append(args, sh.args...), scriptPath)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, o.bwrap, args...)
	cmd.ExtraFiles = []*os.File{pr}
	var stderr strings.Builder
	cmd.Stderr = &limitWriter{w: &stderr, n: 4096}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		pr.Close()
		pw.Close()
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return 0, err
	}
	pr.Close()
	go func() {
		io.WriteString(pw, script.String())
		pw.Close()
	}()
	lines := make(chan string)
	go func() {
		defer close(lines)
		r := bufio.NewReaderSize(stdout, 64<<10)
		for {
			line, err := r.ReadString('\n')
			if line != "" || err == nil {
				lines <- strings.TrimSuffix(line, "\n")
			}
			if err != nil {
				return
			}
		}
	}()
	stop := func() {
		cancel()
		for range lines {
		}
		cmd.Wait()
	}

	marker := "@@" + sh.nonce + " "
	cur, inFn := -1, false
	var printed []string
	timer := time.NewTimer(diffStall)
	defer timer.Stop()
	for {
		var line string
		var ok, timedOut bool
		select {
		case line, ok = <-lines:
		case <-timer.C:
			timedOut = true
		}
		if !ok {
			// The shell stopped (or hung) before the end of the script.
			crashed := false
			if timedOut {
				stop()
			} else {
				// Killed by a signal: bwrap exits with 128 and its number.
				cmd.Wait()
				crashed = cmd.ProcessState != nil && cmd.ProcessState.ExitCode() >= 128
			}
			if cur < 0 {
				return 0, fmt.Errorf("%s printed nothing: %s", sh.name, stderr.String())
			}
			if cur > 0 {
				// Something before it may have left the shell in a state
				// that stopped it: it goes first in the next process.
				return cur, nil
			}
			why, state := "stopped", shellEscaped
			switch {
			case timedOut:
				why = fmt.Sprintf("printed nothing for %v", diffStall)
			case crashed:
				why, state = "crashed", shellCrashed
			}
			out[cur] = shellReading{state: state, printed: fmt.Sprintf("(the shell %s: %s)", why, strings.TrimSpace(stderr.String()))}
			return cur + 1, nil
		}
		rest, isMarker := strings.CutPrefix(line, marker)
		if !isMarker {
			if inFn {
				printed = append(printed, line)
			}
			continue
		}
		timer.Reset(diffStall)
		switch {
		case rest == "done":
			for range lines {
			}
			err := cmd.Wait()
			if cur != len(srcs)-1 {
				return 0, fmt.Errorf("%s finished after input %d of %d: %v: %s", sh.name, cur+1, len(srcs), err, stderr.String())
			}
			return len(srcs), nil
		case rest == "f":
			inFn, printed = true, nil
		case strings.HasPrefix(rest, "s "):
			n, err := strconv.Atoi(rest[2:])
			if err != nil || n != cur+1 {
				stop()
				return 0, fmt.Errorf("%s: unexpected marker %q after input %d", sh.name, line, cur)
			}
			cur, inFn, printed = n, false, nil
		case strings.HasPrefix(rest, "e "):
			if !inFn {
				// The shell skipped the printing: the input left the function.
				stop()
				out[cur] = shellReading{state: shellEscaped}
				return cur + 1, nil
			}
			inFn = false
			// The e marker starts with a newline of its own.
			if len(printed) > 0 && printed[len(printed)-1] == "" {
				printed = printed[:len(printed)-1]
			}
			text := strings.Join(printed, "\n")
			if len(printed) == 0 {
				out[cur] = shellReading{state: shellRejected}
				continue
			}
			body, ok := sh.body(text)
			if !ok {
				stop()
				out[cur] = shellReading{state: shellEscaped, printed: text}
				return cur + 1, nil
			}
			out[cur] = shellReading{state: shellRead, body: body, printed: text}
		default:
			stop()
			return 0, fmt.Errorf("%s: unexpected marker %q", sh.name, line)
		}
	}
}

// limitWriter keeps the first n bytes written to it.
type limitWriter struct {
	w io.Writer
	n int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

// Verdicts.

// diffState is the outcome for one input.
type diffState int

const (
	unjudged     diffState = iota
	shellRejects           // the shell's syntax error: nothing to compare
	shellCrashes           // the shell crashed reading it: a bug of the shell, nothing to compare
	shellLossy             // the shell prints something else than it read: nothing to compare
	untestable             // ends in a backslash, which the function changes: nothing to compare
	guardRefuses           // guard refuses the input: nothing can go wrong
	agree                  // guard reads the input as the shell does
	disagree               // a guard bug
)

func (s diffState) String() string {
	return [...]string{"unjudged", "rejected by the shell", "crashed the shell", "printed lossily by the shell", "untestable", "refused by guard", "read alike", "disagreement"}[s]
}

type verdict struct {
	state  diffState
	kind   string   // what differs, for a disagreement
	where  []string // where the input's continuations stand (see continuationContexts)
	key    string   // the class of a disagreement: kind and where
	detail string   // both readings, for the report
}

// judge asks the shell about each input and compares.
//
// The shell's canonical form must read back as itself: where the shell's
// printer loses something, what it printed is not what it read, and there
// is nothing to compare. (bash prints 1<>f as <>f, which it reads back as
// 0<>f; it prints the && after a heredoc in a pipeline after the heredoc's
// body, where it cannot read it back; zsh prints a {a} argument before a
// redirection, where it reads back as a named descriptor.) So each
// canonical form goes through the shell once more, and must come back the
// same, or read the same by guard, exactly.
func (o *oracle) judge(sh *shell, srcs []string) ([]verdict, error) {
	opt := Options{Zsh: sh.zsh}
	out := make([]verdict, len(srcs))
	mine := make([]reading, len(srcs))
	// Only what guard accepts can be a disagreement: the shell reads that.
	var ask []string
	var at []int
	for i, src := range srcs {
		if mine[i] = readGuard(src, opt, false); mine[i].refusal != "" {
			out[i] = verdict{state: guardRefuses, detail: mine[i].refusal}
			continue
		}
		if strings.HasSuffix(src, `\`) {
			// In the function a blank line follows, which the backslash
			// joins; at the end of a bash -c script it is a literal one.
			out[i] = verdict{state: untestable}
			continue
		}
		ask = append(ask, src)
		at = append(at, i)
	}
	rs, err := o.read(sh, ask)
	if err != nil {
		return nil, err
	}
	var again []string
	var from []int
	for k, i := range at {
		switch rs[k].state {
		case shellRejected:
			out[i] = verdict{state: shellRejects}
		case shellCrashed:
			out[i] = verdict{state: shellCrashes, detail: rs[k].printed}
		case shellRead:
			again = append(again, rs[k].body)
			from = append(from, k)
		}
	}
	rs2, err := o.read(sh, again)
	if err != nil {
		return nil, err
	}
	for j, k := range from {
		switch {
		case rs2[j].state != shellRead:
		case rs2[j].body == rs[k].body:
			continue
		case readGuard(visible(rs2[j].body), opt, true).String() == readGuard(visible(rs[k].body), opt, true).String():
			continue // only spacing changed: zsh prints (x | y) as (x|y) the second time
		}
		out[at[k]] = verdict{state: shellLossy, detail: rs2[j].body}
	}
	for k, i := range at {
		if out[i].state == unjudged {
			out[i] = compare(sh, srcs[i], mine[i], rs[k])
		}
	}
	return out, nil
}

// compare judges guard's reading of src against the shell's reading r.
func compare(sh *shell, src string, mine reading, r shellReading) verdict {
	where := continuationContexts(src)
	disagreement := func(kind, detail string) verdict {
		return verdict{state: disagree, kind: kind, where: where, key: classKey(kind, where), detail: detail}
	}
	if r.state == shellEscaped {
		return disagreement(
			fmt.Sprintf("%s leaves the function, guard accepts", sh.name),
			fmt.Sprintf("guard reads:\n%s\n%s printed:\n%s", indent(mine.String(), "  "), sh.name, indent(r.printed, "  ")))
	}
	theirs := readGuard(visible(r.body), Options{Zsh: sh.zsh}, false)
	detail := fmt.Sprintf("guard reads:\n%s\n%s's canonical form:\n%s\nguard reads that as:\n%s",
		indent(mine.String(), "  "), sh.name, indent(r.body, "  "), indent(theirs.String(), "  "))
	if theirs.err != "" {
		return disagreement(fmt.Sprintf("guard refuses %s's canonical form (%s)", sh.name, theirs.err), detail)
	}
	if d := mine.diff(theirs); d != "" {
		return disagreement(d, detail)
	}
	// Where the canonical form holds a backslash-newline, the shell kept it
	// as literal text (in single quotes or the body of a quoted heredoc),
	// and the parser's own tree, which keeps it there too, is a reading
	// independent of guard's joining: the two must find the same commands.
	// Else guard could misread the input and its canonical form alike.
	// Not so in substitutions, which bash (backquotes) and zsh (both kinds)
	// print as they were written.
	raw := strings.Contains(r.body, "`") || sh.zsh && strings.Contains(r.body, "$(")
	if visible := visible(r.body); strings.Contains(visible, "\\\n") && !raw {
		if n, m := treeCommands(visible), theirs.commands(); n >= 0 && n != m {
			return disagreement(fmt.Sprintf("guard reads %s simple commands in %s's canonical form than the parser's tree", more(m, n), sh.name),
				fmt.Sprintf("%s\nthe parser's tree has %d simple commands", detail, n))
		}
	}
	return verdict{state: agree}
}

// treeCommands counts the simple commands in mvdan/sh's tree of src, as
// FuzzParse does, or returns -1 if it does not parse.
func treeCommands(src string) int {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		return -1
	}
	n := 0
	syntax.Walk(f, func(node syntax.Node) bool {
		switch x := node.(type) {
		case *syntax.CallExpr:
			if len(x.Args) > 0 {
				n++
			}
		case *syntax.BinaryCmd:
			// After a pipe, time is the program /usr/bin/time.
			if tc, ok := x.Y.Cmd.(*syntax.TimeClause); ok && (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) {
				if tc.Stmt == nil {
					n++
				} else if c, ok := tc.Stmt.Cmd.(*syntax.CallExpr); ok && len(c.Args) == 0 {
					n++
				}
			}
		}
		return true
	})
	return n
}

// A reading is what guard makes of some source, in the terms a policy
// judges.
type reading struct {
	refusal string // why guard refuses it: the parse error or the finding no policy may allow
	err     string // the parse error with positions and quotes removed, for class keys
	items   []item
	// The heredoc bodies, when the test can know them (see heredocBodies).
	bodies      []string
	bodiesKnown bool
}

// item is one thing a policy judges: a command's argv, an assignment, a
// redirection, a heredoc body, the count of a kind of finding.
type item struct {
	what  string
	words []sumWord
}

// sumWord is a word as the comparison sees it.
type sumWord struct {
	s     string // "value" (Go-quoted), <dynamic reason>, glob:"pattern", tilde:"~/x"
	dyn   bool
	class string // for class keys: constant, glob, tilde, or the dynamic reason
}

func summarise(w Word) sumWord {
	v := strconv.Quote(visible(w.Value))
	switch {
	case w.Dynamic != "":
		return sumWord{s: "<" + w.Dynamic + ">", dyn: true, class: w.Dynamic}
	case w.Glob && w.Tilde:
		return sumWord{s: "tilde+glob:" + v, class: "tilde glob"}
	case w.Glob:
		return sumWord{s: "glob:" + v, class: "glob"}
	case w.Tilde:
		return sumWord{s: "tilde:" + v, class: "tilde"}
	}
	return sumWord{s: v, class: "constant"}
}

// readGuard returns guard's reading of src. Unless exact, the reading is
// normalised for what the shells print differently from what they read
// alike.
func readGuard(src string, opt Options, exact bool) reading {
	s, err := Parse(src, opt)
	if err != nil {
		msg := err.Error()
		if e, ok := err.(*Error); ok {
			msg = e.Msg
		}
		return reading{refusal: err.Error(), err: errorClass(msg)}
	}
	var rd reading
	counts := map[Kind]int{}
	for _, f := range s.Findings {
		if f.Kind.Fixed() && rd.refusal == "" {
			rd.refusal = fmt.Sprintf("%s at %s (%s)", f.Kind, f.Pos, f.Kind.Describe())
		}
		counts[f.Kind]++
	}
	for _, c := range s.Commands {
		it := item{what: "command"}
		for _, a := range c.Args {
			it.words = append(it.words, summarise(a))
		}
		rd.items = append(rd.items, it)
		for _, a := range c.Assigns {
			rd.items = append(rd.items, item{what: "  assignment " + a.Name, words: []sumWord{summarise(a.Value)}})
		}
		redirs := c.Redirs
		if !exact && slices.ContainsFunc(c.Context, func(f Frame) bool { return f.Kind == FramePipeline }) {
			// bash prints a |& b as a 2>&1 | b.
			for n := len(redirs); n > 0; n-- {
				if r := redirs[n-1]; r.Fd != "2" || r.Op != ">&" || !r.Target.Constant() || r.Target.Value != "1" {
					break
				}
				redirs = redirs[:n-1]
			}
		}
		for _, r := range redirs {
			rd.items = append(rd.items, redirItem("  redirection", r, exact))
		}
	}
	for _, a := range s.Assigns {
		rd.items = append(rd.items, item{what: "assignment " + a.Scope.String() + " " + a.Name, words: []sumWord{summarise(a.Value)}})
	}
	for _, r := range s.Redirects {
		if !exact && r.Fd == "2" && r.Op == ">&" && r.Target.Constant() && r.Target.Value == "1" {
			// bash prints (a) |& b as ( a ) 2>&1 | b.
			continue
		}
		rd.items = append(rd.items, redirItem("redirection", r, exact))
	}
	rd.bodies, rd.bodiesKnown = heredocBodies(src, opt)
	for _, k := range AllKinds() {
		n := counts[k]
		if n == 0 {
			continue
		}
		count := strconv.Itoa(n)
		if k == KindControlFlow {
			// bash prints elif as an if in an else: only presence counts.
			count = "present"
		}
		rd.items = append(rd.items, item{what: "finding " + string(k), words: []sumWord{{s: count, class: "count"}}})
	}
	return rd
}

func redirItem(what string, r Redirect, exact bool) item {
	op, fd := r.Op, r.Fd
	switch {
	case exact:
	case op == "<>" && fd == "0":
		fd = ""
	case op == "<<-":
		// zsh prints <<- as << with the tabs stripped; bodies are compared
		// with the tabs stripped.
		op = "<<"
	case fd == "1" && strings.HasPrefix(op, ">"), fd == "0" && strings.HasPrefix(op, "<") && op != "<<<":
		// zsh prints 1>f as >f and 0<f as <f.
		fd = ""
	}
	return item{what: what + " " + fd + op, words: []sumWord{summarise(r.Target)}}
}

// heredocBodies returns the bodies of the heredocs in src, in the order of
// the syntax tree, as the command reads them: expansions shown by kind.
//
// shellparse does not expose heredoc bodies, so they are read from
// mvdan/sh's tree of the same source. That is the tree Parse walks only
// when the source has no backslash-newline (Parse joins continuations
// before it parses), so for sources with one it reports false, and the
// comparison skips the bodies.
func heredocBodies(src string, opt Options) ([]string, bool) {
	if strings.Contains(src, "\\\n") {
		return nil, false
	}
	f, err := syntax.NewParser(syntax.Variant(opt.Dialect.variant())).Parse(strings.NewReader(src), "")
	if err != nil {
		return []string{"<mvdan/sh rejects what Parse accepted: " + err.Error() + ">"}, true
	}
	out := []string{}
	syntax.Walk(f, func(n syntax.Node) bool {
		r, ok := n.(*syntax.Redirect)
		if !ok || (r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc) {
			return true
		}
		quoted := r.Word == nil || r.Word.Lit() == "" || strings.Contains(r.Word.Lit(), `\`)
		var b strings.Builder
		var parts []syntax.WordPart
		if r.Hdoc != nil {
			parts = r.Hdoc.Parts
		}
		for _, part := range parts {
			switch x := part.(type) {
			case *syntax.Lit:
				if quoted {
					b.WriteString(x.Value)
					continue
				}
				v := x.Value
				for i := 0; i < len(v); i++ {
					if v[i] == '\\' && i+1 < len(v) && strings.IndexByte("$`\\\n", v[i+1]) >= 0 {
						i++
						if v[i] != '\n' {
							b.WriteByte(v[i])
						}
						continue
					}
					b.WriteByte(v[i])
				}
			case *syntax.ParamExp:
				b.WriteString("<parameter expansion>")
			case *syntax.CmdSubst:
				b.WriteString("<command substitution>")
			case *syntax.ArithmExp:
				b.WriteString("<arithmetic>")
			default:
				fmt.Fprintf(&b, "<%T>", part)
			}
		}
		body := b.String()
		if r.Op == syntax.DashHdoc {
			lines := strings.Split(body, "\n")
			for i := range lines {
				lines[i] = strings.TrimLeft(lines[i], "\t")
			}
			body = strings.Join(lines, "\n")
		}
		out = append(out, visible(body))
		return true
	})
	return out, true
}

// commands counts the simple commands in the reading.
func (rd reading) commands() int {
	n := 0
	for _, it := range rd.items {
		if it.what == "command" {
			n++
		}
	}
	return n
}

func (rd reading) String() string {
	if rd.refusal != "" {
		return "refused: " + rd.refusal
	}
	var b strings.Builder
	for i, it := range rd.items {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(it.what)
		for _, w := range it.words {
			b.WriteByte(' ')
			b.WriteString(w.s)
		}
	}
	for _, body := range rd.bodies {
		fmt.Fprintf(&b, "\nheredoc body %q", body)
	}
	return b.String()
}

// diff compares guard's reading of the input with its reading of the
// shell's canonical form and names the first difference, in terms general
// enough to group inputs by it; "" if they agree.
func (rd reading) diff(theirs reading) string {
	a, b := rd.items, theirs.items
	for i := 0; i < len(a) || i < len(b); i++ {
		switch {
		case i >= len(a):
			return "guard misses " + article(label(b[i].what)) + " the shell reads"
		case i >= len(b):
			return "guard reads " + article(label(a[i].what)) + " the shell does not"
		case a[i].what != b[i].what:
			return fmt.Sprintf("guard reads %s where the shell reads %s", article(label(a[i].what)), article(label(b[i].what)))
		}
		x, y := a[i].words, b[i].words
		if len(x) != len(y) {
			return fmt.Sprintf("%s: guard reads %s words than the shell", label(a[i].what), more(len(x), len(y)))
		}
		for j := range x {
			if x[j].s == y[j].s || x[j].dyn {
				continue
			}
			if strings.HasPrefix(a[i].what, "finding ") {
				return fmt.Sprintf("guard finds %s %s than the shell", more(atoi(x[j].s), atoi(y[j].s)), strings.TrimPrefix(a[i].what, "finding "))
			}
			if x[j].class == y[j].class {
				return fmt.Sprintf("%s: guard reads a different %s word", label(a[i].what), x[j].class)
			}
			return fmt.Sprintf("%s: guard reads %s word where the shell reads %s word", label(a[i].what), article(x[j].class), article(y[j].class))
		}
	}
	if rd.bodiesKnown && theirs.bodiesKnown && !slices.Equal(rd.bodies, theirs.bodies) {
		if len(rd.bodies) != len(theirs.bodies) {
			return fmt.Sprintf("guard reads %s heredoc bodies than the shell", more(len(rd.bodies), len(theirs.bodies)))
		}
		return "guard reads a different heredoc body"
	}
	return ""
}

// label removes names from an item's description: what a class is keyed on.
func label(what string) string {
	what = strings.TrimSpace(what)
	switch {
	case strings.HasPrefix(what, "assignment "):
		f := strings.Fields(what)
		return strings.Join(f[:len(f)-1], " ")
	case strings.HasPrefix(what, "redirection "):
		return what
	}
	return what
}

// article puts the indefinite article before s.
func article(s string) string {
	if s != "" && strings.ContainsRune("aeiouAEIOU", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

func more(x, y int) string {
	if x < y {
		return "fewer"
	}
	return "more"
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// errorClass removes what varies from a parse error message.
func errorClass(msg string) string {
	var b strings.Builder
	inQuote := false
	for _, r := range msg {
		switch {
		case r == '"' || r == '`':
			if !inQuote {
				b.WriteString("…")
			}
			inQuote = !inQuote
		case inQuote:
		case unicode.IsDigit(r):
			if !strings.HasSuffix(b.String(), "N") {
				b.WriteByte('N')
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// visible replaces what guard refuses in a command (control characters,
// invalid UTF-8, invisible and bidi code points) with a printable mark.
// bash prints the value of $'\e' as the character itself inside single
// quotes; the mark lets guard read its canonical form, and guard's own
// values get the same marks for the comparison.
func visible(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, "⟪x%02X⟫", s[i])
		case forbiddenRune(r) != "":
			fmt.Fprintf(&b, "⟪U+%04X⟫", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func indent(s, prefix string) string {
	if s == "" {
		return prefix + "(nothing)"
	}
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// continuationContexts names where the input's backslash-newlines stand,
// as a rough lexer sees them: the part of a class key that says which
// continuation is read differently.
func continuationContexts(src string) []string {
	var where []string
	add := func(w string) {
		if !slices.Contains(where, w) {
			where = append(where, w)
		}
	}
	const (
		plain = iota
		single
		double
		ansi
		comment
	)
	type hdoc struct {
		delim  string
		dash   bool
		quoted bool
	}
	var pending, bodies []hdoc
	state := plain
	lineStart := true
	for i := 0; i < len(src); i++ {
		c := src[i]
		if len(bodies) > 0 && lineStart {
			// A heredoc body line: up to the newline.
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			line := src[i : i+end]
			h := bodies[0]
			cmp := line
			if h.dash {
				cmp = strings.TrimLeft(line, "\t")
			}
			if strings.HasSuffix(line, `\`) && i+end < len(src) {
				if h.quoted {
					add("in a quoted heredoc body")
				} else {
					add("in a heredoc body")
				}
			}
			if cmp == h.delim {
				bodies = bodies[1:]
			}
			i += end
			continue
		}
		lineStart = false
		if c == '\\' && i+1 < len(src) && src[i+1] == '\n' && state != single && state != ansi {
			prev, next := byte(0), byte(0)
			if i > 0 {
				prev = src[i-1]
			}
			if i+2 < len(src) {
				next = src[i+2]
			}
			switch {
			case state == comment:
				add("in a comment")
			case state == double:
				add("in double quotes")
			case prev == '$':
				add("after $")
			case strings.Contains("&|<>;(", string(prev)) && prev != 0 && next != 0 && strings.Contains("&|<>;(-", string(next)):
				add("inside an operator " + string(prev) + string(next))
			case prev == 0 || prev == ' ' || prev == '\t' || prev == '\n' || next == ' ' || next == '\n' || next == 0:
				add("between words")
			default:
				add("inside a word")
			}
			i++
			if state == comment {
				state = plain
			}
			lineStart = true
			if state == plain && len(pending) > 0 {
				// bash joins the lines; the heredoc starts at the next newline.
				lineStart = false
			}
			continue
		}
		switch state {
		case plain:
			switch {
			case c == '\\':
				i++
			case c == '\'':
				state = single
				if i > 0 && src[i-1] == '$' {
					state = ansi
				}
			case c == '"':
				state = double
			case c == '#' && (i == 0 || strings.IndexByte(" \t\n;&|()", src[i-1]) >= 0):
				state = comment
			case c == '<' && strings.HasPrefix(src[i:], "<<") && !strings.HasPrefix(src[i:], "<<<"):
				j := i + 2
				h := hdoc{}
				if j < len(src) && src[j] == '-' {
					h.dash = true
					j++
				}
				for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
					j++
				}
				k := j
				for k < len(src) && strings.IndexByte(" \t\n;&|<>()", src[k]) < 0 {
					k++
				}
				word := src[j:k]
				h.quoted = strings.ContainsAny(word, `'"\`)
				h.delim = strings.NewReplacer(`'`, "", `"`, "", `\`, "").Replace(word)
				pending = append(pending, h)
				i = k - 1
			case c == '\n':
				lineStart = true
				bodies = append(bodies, pending...)
				pending = nil
			}
		case single, ansi:
			if c == '\\' && state == ansi {
				i++
			} else if c == '\'' {
				state = plain
			}
		case double:
			if c == '\\' {
				i++
			} else if c == '"' {
				state = plain
			}
		case comment:
			if c == '\n' {
				state = plain
				lineStart = true
				bodies = append(bodies, pending...)
				pending = nil
			}
		}
	}
	sort.Strings(where)
	return where
}

// classKey is a disagreement's class: what differs, and where the input's
// continuations stand.
func classKey(kind string, where []string) string {
	if len(where) == 0 {
		return kind
	}
	return kind + " [continuation " + strings.Join(where, ", ") + "]"
}

// Shrinking.

// shrink replaces each class's input by a shorter one that differs in the
// same way, with continuations in some of the same places, deleting lines,
// words and characters for as long as that keeps the class, within the time
// budget. The candidates of all classes go to the shell in one batch per
// round. It returns the classes keyed anew by their shortest inputs, those
// with the same key merged.
func (o *oracle) shrink(sh *shell, classes []*diffClass, budget time.Duration) ([]*diffClass, error) {
	deadline := time.Now().Add(budget)
	active := slices.Clone(classes)
	fine := map[*diffClass]bool{} // deleting single characters, after the coarse deletions stopped helping
	for len(active) > 0 && time.Now().Before(deadline) {
		var srcs []string
		var owner []*diffClass
		for _, c := range active {
			for _, cand := range shrinkCandidates(c.src, fine[c]) {
				srcs = append(srcs, cand)
				owner = append(owner, c)
			}
		}
		vs, err := o.judge(sh, srcs)
		if err != nil {
			return nil, err
		}
		improved := map[*diffClass]bool{}
		for i, v := range vs {
			c := owner[i]
			if v.state == disagree && v.kind == c.v.kind && len(srcs[i]) < len(c.src) &&
				(len(v.where) == 0) == (len(c.v.where) == 0) &&
				!slices.ContainsFunc(v.where, func(w string) bool { return !slices.Contains(c.v.where, w) }) {
				c.src, c.v = srcs[i], v
				improved[c] = true
			}
		}
		active = slices.DeleteFunc(active, func(c *diffClass) bool {
			switch {
			case improved[c]:
				fine[c] = false
			case !fine[c]:
				fine[c] = true
			default:
				return true
			}
			return false
		})
	}
	merged := map[string]*diffClass{}
	var out []*diffClass
	for _, c := range classes {
		c.key = c.v.key
		if m := merged[c.key]; m != nil {
			m.count += c.count
			if len(c.src) < len(m.src) {
				m.src, m.v = c.src, c.v
			}
			continue
		}
		merged[c.key] = c
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out, nil
}

// shrinkCandidates returns src with parts deleted: single lines, runs of
// words (halves, quarters, ... down to one word), or, when fine, single
// characters.
func shrinkCandidates(src string, fine bool) []string {
	seen := map[string]bool{src: true}
	var out []string
	add := func(s string) {
		if !seen[s] && strings.TrimSpace(s) != "" {
			seen[s] = true
			out = append(out, s)
		}
	}
	if fine {
		for i, r := range src {
			add(src[:i] + src[i+utf8.RuneLen(r):])
		}
		return out
	}
	lines := strings.SplitAfter(src, "\n")
	for i := range lines {
		add(strings.Join(slices.Delete(slices.Clone(lines), i, i+1), ""))
	}
	// Words with the blanks after them.
	var words []string
	for rest := src; rest != ""; {
		i := strings.IndexAny(rest, " \t\n")
		if i < 0 {
			words = append(words, rest)
			break
		}
		j := i
		for j < len(rest) && strings.IndexByte(" \t\n", rest[j]) >= 0 {
			j++
		}
		words = append(words, rest[:j])
		rest = rest[j:]
	}
	for k := len(words) / 2; k >= 1; k /= 2 {
		for i := 0; i+k <= len(words); i += max(1, k/2) {
			add(strings.Join(slices.Delete(slices.Clone(words), i, i+k), ""))
		}
	}
	return out
}

// The generator.

// generator composes inputs from a small grammar of the shell.
type generator struct {
	r       *rand.Rand
	depth   int
	pending []string // heredoc bodies to write after the next newline
}

func newGenerator(seed uint64) *generator {
	return &generator{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
}

func (g *generator) pick(list ...string) string { return list[g.r.IntN(len(list))] }

func (g *generator) chance(percent int) bool { return g.r.IntN(100) < percent }

// input returns one command line, with backslash-newlines put in anywhere.
func (g *generator) input() string {
	g.depth, g.pending = 0, nil
	s := g.list(1 + g.r.IntN(3))
	if len(g.pending) > 0 {
		s += g.newline()
	}
	return g.continuations(s)
}

// newline ends a line and writes the heredoc bodies that wait for it.
func (g *generator) newline() string {
	s := "\n" + strings.Join(g.pending, "")
	g.pending = nil
	return s
}

// list returns n statements joined by operators and newlines.
func (g *generator) list(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		st, simple := g.stmt()
		b.WriteString(st)
		if i == n-1 {
			break
		}
		switch {
		case len(g.pending) > 0 || g.chance(25):
			if g.chance(25) {
				b.WriteString(g.comment())
			}
			b.WriteString(g.newline())
			if g.chance(10) {
				b.WriteString(strings.TrimPrefix(g.comment(), " ") + g.newline())
			}
		case simple && g.chance(10):
			b.WriteString(g.pick(" |& ", "|&"))
		default:
			b.WriteString(g.pick("; ", ";", " && ", "&&", " || ", " | ", "|", " & "))
		}
	}
	return b.String()
}

// stmt returns a statement, and whether it is a simple command.
func (g *generator) stmt() (string, bool) {
	deep := g.depth >= 2
	switch n := g.r.IntN(100); {
	case n < 55 || deep && n < 80:
		return g.simple(), true
	case n < 68 || deep:
		return g.heredoc(), false
	case n < 76:
		g.depth++
		defer func() { g.depth-- }()
		inner := g.list(1 + g.r.IntN(2))
		if len(g.pending) > 0 {
			inner += g.newline()
		}
		if g.chance(30) {
			// Nested subshells: bash reads (( as arithmetic when it can.
			return "(" + g.pick("", " ") + "(" + inner + ")" + g.pick("", " ") + ")", false
		}
		return "(" + g.pick("", " ") + inner + g.pick("", " ") + ")" + g.redirs(), false
	case n < 82:
		g.depth++
		defer func() { g.depth-- }()
		inner := g.list(1 + g.r.IntN(2))
		if len(g.pending) > 0 {
			return "{ " + inner + g.newline() + "}", false
		}
		return "{ " + inner + g.pick(";", "\n") + " }" + g.redirs(), false
	case n < 86:
		g.depth++
		defer func() { g.depth-- }()
		pats := g.pick("a", "x|y", "*", "'q'", "é", "[ab]")
		return "case " + g.word() + " in " + pats + ") " + g.simple() + g.pick(";;", " ;;", ";&") + " " + g.pick("*", "b") + ") " + g.simple() + ";; esac", false
	case n < 89:
		g.depth++
		defer func() { g.depth-- }()
		return "if " + g.simple() + "; then " + g.simple() + "; " + g.pick("", "else "+g.simple()+"; ", "elif "+g.simple()+"; then "+g.simple()+"; ") + "fi", false
	case n < 92:
		g.depth++
		defer func() { g.depth-- }()
		return "for i in " + g.word() + " " + g.word() + "; do " + g.simple() + "; done", false
	case n < 95:
		return g.assign(), false
	case n < 97:
		return "! " + g.simple(), false
	default:
		return g.simple() + g.pick(" &", "&"), false
	}
}

var (
	genNames = []string{"echo", "ls", "cat", "grep", "touch", "wc", "git", "printf", "rm", "sort", "head", "e\\cho", "'ls'", "\"cat\"", "/bin/ls"}
	genLits  = []string{"a", "b", "x", "-l", "--all", "-n", "foo.txt", "src/main.go", "/dev/null", "é", "日本", "naïve", "✓", "🙂",
		"a=b", "--out=x", "HEAD~1", "@{u}", "-", "--", "1", "2", "{}", "}", "{", "a#b", "=x", "%s", "a:b", "x,y", ".", "..", "-rf", "Ω"}
)

// simple returns a simple command: assignments, a name, words and
// redirections.
func (g *generator) simple() string {
	var parts []string
	for g.chance(15) {
		parts = append(parts, g.assign())
	}
	parts = append(parts, g.pick(genNames...))
	for n := g.r.IntN(4); n > 0; n-- {
		if g.chance(20) {
			parts = append(parts, g.redir())
		} else {
			parts = append(parts, g.word())
		}
	}
	if g.chance(20) {
		parts = append(parts, g.redir())
	}
	sep := " "
	if g.chance(5) {
		sep = "  "
	}
	return strings.Join(parts, sep)
}

func (g *generator) assign() string {
	return g.pick("LANG", "LC_ALL", "X", "a", "GIT_PAGER", "NO_COLOR") + "=" + g.pick("", g.word(), "C", "x", "en_US.UTF-8", "~/x", "a:~/b")
}

// word returns one word of one to three parts.
func (g *generator) word() string {
	var b strings.Builder
	n := 1 + g.r.IntN(3)
	if g.chance(60) {
		n = 1
	}
	if g.chance(8) {
		b.WriteString(g.pick("~", "~/x", "~/"))
		n--
	}
	for ; n > 0; n-- {
		b.WriteString(g.part())
	}
	if b.Len() == 0 {
		b.WriteString("a")
	}
	return b.String()
}

func (g *generator) part() string {
	switch n := g.r.IntN(100); {
	case n < 35:
		return g.pick(genLits...)
	case n < 45:
		return "'" + g.pick("a b", "it", "\"q\"", `a\b`, "$x", "é 日", "a\nb", "#c", "`x`", "") + "'"
	case n < 57:
		return "\"" + g.dq() + "\""
	case n < 65:
		var b strings.Builder
		b.WriteString("$'")
		for k := 1 + g.r.IntN(3); k > 0; k-- {
			b.WriteString(g.pick(`\n`, `\t`, `\\`, `\'`, `\"`, `\x41`, `\101`, `\u00e9`, `\e`, `\a`, `\cA`, `\x80`, `\0`, "a", "é", " ", `\E`, `\?`, `\z`, `\x2d`, `\u2028`))
		}
		return b.String() + "'"
	case n < 71:
		return `\` + g.pick(" ", "a", "$", "*", "'", "\"", "#", `\`, ";", "&", "|", "é", "~", "{")
	case n < 77:
		return g.pick("$x", "${x}", "${x:-y}", "$HOME", "$1", "${#x}", "$@", "$?")
	case n < 82 && g.depth < 2:
		g.depth++
		defer func() { g.depth-- }()
		save := g.pending
		g.pending = nil
		inner := g.list(1 + g.r.IntN(2))
		if len(g.pending) > 0 {
			inner += g.newline()
		}
		g.pending = save
		if g.chance(20) && !strings.ContainsAny(inner, "`\\\n") {
			return "`" + inner + "`"
		}
		return "$(" + inner + ")"
	case n < 90:
		return g.pick("{a,b}", "{1..3}", "{-..-}", "{a..c}", "x{a,b}y", "{,-l}", "{a}", "{a,b", "{é,ü}")
	case n < 96:
		return g.pick("*.go", "?", "[ab]", "src/*", "*", "[!x]*", "**")
	}
	return g.pick("é", "日本語", "🙂", "ß", "e\u0301", "Ωmega")
}

// dq returns the inside of a double-quoted part.
func (g *generator) dq() string {
	var b strings.Builder
	for k := g.r.IntN(3); k >= 0; k-- {
		b.WriteString(g.pick("a b", `\"`, `\\`, `\$`, `\a`, "$x", "${x}", "$(echo a)", "`echo b`", "'", "é", "#", "\n", "\\`", "~", "*", "$", "{a,b}"))
	}
	return b.String()
}

// redirs returns the redirections of a compound command, mostly none.
func (g *generator) redirs() string {
	if g.chance(80) {
		return ""
	}
	return " " + g.redir()
}

// redir returns one redirection.
func (g *generator) redir() string {
	switch n := g.r.IntN(100); {
	case n < 40:
		return g.pick("2>&1", ">&2", "1<file", ">>/dev/stdout", "2>/dev/null", ">/dev/null", "<&0", "3>&-", "&>/dev/null", "&>>log", "<>f", ">|f", "2>&1-")
	case n < 55:
		return "<<<" + g.word()
	}
	fd := g.pick("", "", "", "1", "2", "3")
	op := g.pick(">", ">>", "<", ">|", "<>")
	if fd == "" && g.chance(20) {
		op = g.pick("&>", "&>>")
	}
	return fd + op + g.pick("", " ") + g.pick("f", "out.txt", "/dev/null", "/dev/stdout", "~/x", "é.txt", "$x", "\"a b\"", "'q'", "*.log")
}

// heredoc returns a command with a heredoc, whose body waits for the next
// newline.
func (g *generator) heredoc() string {
	name := g.pick("E", "EOF", "END_1", "é", "X")
	delim := g.pick(name, name, "'"+name+"'", "\""+name+"\"", "\\"+name, name[:1]+"'"+name[1:]+"'")
	dash := g.chance(30)
	op := "<<"
	if dash {
		op = "<<-"
	}
	head := g.pick("cat", "wc -l", "grep a", "cat -") + " " + op + g.pick("", " ") + delim
	if g.chance(25) {
		head += g.pick(" | wc -l", " >f", " && echo ok", " 2>&1", " "+g.word())
	}
	var body strings.Builder
	for k := g.r.IntN(4); k > 0; k-- {
		if dash && g.chance(60) {
			body.WriteString(g.pick("\t", "\t\t"))
		}
		body.WriteString(g.pick("x", "hello world", "$x", "${x}", "$(echo a)", `\$x`, `a\`, `'q' "d"`, "# c", "é日本", name+"x", " "+name, "`echo b`", `\\`, "\t"+name, name+" ", "$"))
		body.WriteString("\n")
	}
	if g.chance(15) {
		// A line of one backslash: bash joins it to the delimiter line.
		body.WriteString("\\\n")
	}
	if dash && g.chance(70) {
		body.WriteString("\t")
	}
	body.WriteString(name + "\n")
	if g.chance(10) {
		// What follows the delimiter line, if the shell reads on.
		body.WriteString(g.simple() + "\n" + name + "\n")
	}
	g.pending = append(g.pending, body.String())
	return head
}

// comment returns a comment that ends a line (its leading space included).
func (g *generator) comment() string {
	return g.pick(" ", "\t") + "#" + g.pick(" c", " a\\", "\\", " 'x", " \"y", " $(x", " é", " a # b", " `x`", " cat <<E", "")
}

// continuations puts backslash-newlines into s: none, or up to three,
// anywhere, or where bash and a per-state lexer are most likely to part:
// inside two-character operators, after $, at the start and the end of a
// line.
func (g *generator) continuations(s string) string {
	n := 0
	switch k := g.r.IntN(100); {
	case k < 25:
	case k < 70:
		n = 1
	case k < 90:
		n = 2
	default:
		n = 3
	}
	for ; n > 0; n-- {
		if g.chance(15) {
			// Turn a newline into a continuation.
			var nl []int
			for i := 0; i < len(s); i++ {
				if s[i] == '\n' {
					nl = append(nl, i)
				}
			}
			if len(nl) > 0 {
				i := nl[g.r.IntN(len(nl))]
				s = s[:i] + "\\" + s[i:]
				continue
			}
		}
		var spots []int
		if g.chance(50) {
			for i := 1; i < len(s); i++ {
				pair := s[i-1 : i+1]
				switch {
				case slices.Contains([]string{"&&", "||", "((", "))", "<<", ">>", ";;", "$(", "${", "$'", "$\"", ">&", "<&", "&>", "|&", "<-", "<>"}, pair),
					s[i-1] == '$', s[i-1] == '\n', s[i] == '\n', s[i-1] == '#':
					spots = append(spots, i)
				}
			}
		}
		var at int
		if len(spots) > 0 {
			at = spots[g.r.IntN(len(spots))]
		} else {
			at = g.r.IntN(len(s) + 1)
			for at < len(s) && !utf8.RuneStart(s[at]) {
				at++
			}
		}
		s = s[:at] + "\\\n" + s[at:]
	}
	return s
}
