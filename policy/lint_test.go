// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package policy

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
)

// lintHead starts every policy of the lint tests.
const lintHead = "version = 1\ndefault = \"ask\"\n"

// lintCase is a policy and what one check finds in it: each entry is the
// rule of a finding, then "|" and a part of its message, in order.
type lintCase struct {
	name string
	toml string // after lintHead
	want []string
}

func testCheck(t *testing.T, check func(*linter) []hit, cases []lintCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := LoadUnchecked("p.toml", strings.NewReader(lintHead+tc.toml))
			if err != nil {
				t.Fatal(err)
			}
			hits := check(newLinter(p))
			var got []string
			for _, h := range hits {
				got = append(got, h.rule+"|"+h.msg)
			}
			ok := len(got) == len(tc.want)
			for i := 0; ok && i < len(got); i++ {
				rule, part, _ := strings.Cut(tc.want[i], "|")
				ok = strings.HasPrefix(got[i], rule+"|") && strings.Contains(got[i], part)
			}
			if !ok {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
			for _, h := range hits {
				if h.msg == "" || h.fix == "" || strings.Contains(h.msg+h.fix, "\n") {
					t.Errorf("%s: a finding needs a message and a fix of one line each: %q, %q", h.rule, h.msg, h.fix)
				}
			}
		})
	}
}

func TestLintShells(t *testing.T) {
	testCheck(t, checkShells, []lintCase{
		{"bash without shell", "[command.bash]\nverdict = \"allow\"\n", []string{`bash|without shell = "bash"`}},
		{"sh for the session", "[command.sh]\nverdict = \"session\"\nflags = [\"-c\"]\n", []string{`sh|allowed for the session once approved without shell = "sh"`}},
		{"dash by its path", "[command.\"/bin/dash\"]\nverdict = \"allow\"\n", []string{`/bin/dash|without shell = "sh"`}},
		{"zsh", "[command.zsh]\nverdict = \"allow\"\nflags = [\"-c\"]\nshell = \"bash\"\n", []string{"zsh|guard cannot read its scripts"}},
		{"pwsh", "[command.pwsh]\nverdict = \"allow\"\n", []string{"pwsh|guard cannot read its scripts"}},
		{"a subcommand", "[command.bash.sub.x]\nverdict = \"allow\"\n", []string{"bash x|without shell"}},
		{"bash with shell", "[command.bash]\nverdict = \"allow\"\nflags = [\"-c\"]\nshell = \"bash\"\n", nil},
		{"bash asked", "[command.bash]\nverdict = \"ask\"\n", nil},
		{"the arguments after -- of an asked rule", "[command.bash]\nverdict = \"ask\"\n[command.bash.rest]\nverdict = \"allow\"\n", nil},
		{"the arguments after -- of an allowed rule", "[command.sh]\nverdict = \"allow\"\n[command.sh.rest]\nverdict = \"allow\"\n", []string{"sh|without shell", "sh --|without shell"}},
		{"zsh denied", "[command.zsh]\nverdict = \"deny\"\n", nil},
		{"not a shell", "[command.bashful]\nverdict = \"allow\"\n", nil},
	})
}

func TestLintInterpreters(t *testing.T) {
	testCheck(t, checkInterpreters, []lintCase{
		{"python3 allowed", "[command.python3]\nverdict = \"allow\"\n", []string{
			"python3|outside the sandbox with any script", "python3|without interpreter = true"}},
		{"inline code in the sandbox", "[command.python]\nverdict = \"allow\"\nsandbox = \"test\"\ninterpreter = true\nflags = [\"-c\", \"-B\"]\n", []string{
			"python|accepts -c"}},
		{"node --eval", "[command.node]\nverdict = \"allow\"\nsandbox = \"test\"\ninterpreter = true\noptions = { \"--eval\" = \"any\" }\n", []string{
			"node|accepts --eval"}},
		{"only a session ask denies", "[command.ruby]\nverdict = \"allow\"\nsandbox = \"test\"\ninterpreter = true\nflags = [\"-e\"]\nsession = [{ flags = [\"-e\"], reason = \"x\" }]\n", []string{
			"ruby|accepts -e"}},
		{"style none reads -e as an operand", "[command.perl]\nverdict = \"allow\"\nsandbox = \"test\"\ninterpreter = true\nstyle = \"none\"\n", []string{
			"perl|accepts -e", "perl|accepts -E"}},
		{"a module outside the sandbox", "[command.node]\nverdict = \"allow\"\nargs = \"none\"\ninterpreter = true\nflags = [\"--version\"]\noptions = { \"-r\" = \"any\" }\n", []string{
			"node|accepts -r: it runs the module"}},
		{"deno eval", "[command.deno.sub.eval]\nverdict = \"allow\"\n[command.deno.sub.fmt]\nverdict = \"allow\"\n", []string{
			"deno eval|runs code from its command line"}},
		{"deno run", "[command.deno.sub.run]\nverdict = \"session\"\n", []string{
			"deno run|outside the sandbox with any script"}},
		{"interpreter = true on any program", "[command.myrepl]\nverdict = \"allow\"\ninterpreter = true\n", []string{
			"myrepl|outside the sandbox with any script"}},
		{"inline code denied", "[command.python]\nverdict = \"allow\"\nsandbox = \"test\"\ninterpreter = true\nflags = [\"-c\"]\ndeny = [{ flags = [\"-c\"], reason = \"x\" }]\n", nil},
		{"inline code asked", "[command.lua]\nverdict = \"allow\"\nsandbox = \"test\"\ninterpreter = true\noptions = { \"-e\" = \"any\" }\nask = [{ flags = [\"-e\"], reason = \"x\" }]\n", nil},
		{"python asked", "[command.python]\nverdict = \"ask\"\nflags = [\"-c\"]\n", nil},
		{"python --version", "[command.python]\nverdict = \"allow\"\nargs = \"none\"\ninterpreter = true\nflags = [\"--version\", \"-V\"]\n", nil},
		{"bun test", "[command.bun.sub.test]\nverdict = \"allow\"\nsandbox = \"test\"\n", nil},
		{"bun alone reads no code", "[command.bun]\nverdict = \"allow\"\nargs = \"none\"\nflags = [\"--version\"]\n", nil},
		{"a shell that says interpreter", "[command.bash]\nverdict = \"allow\"\ninterpreter = true\nflags = [\"-c\"]\nshell = \"bash\"\n", nil},
	})
}

func TestLintRunners(t *testing.T) {
	testCheck(t, checkRunners, []lintCase{
		{"timeout without wrap", "[command.timeout]\nverdict = \"allow\"\n", []string{"timeout|the rule has no wrap"}},
		{"xargs without stdin", "[command.xargs]\nverdict = \"allow\"\nwrap = {}\n", []string{"xargs|without stdin = true"}},
		{"xargs -I not replaced", "[command.xargs]\nverdict = \"allow\"\noptions = { \"-I\" = \"any\" }\nwrap = { stdin = true }\n", []string{"xargs|accepts -I"}},
		{"find -exec as a flag", "[command.find]\nverdict = \"allow\"\nstyle = \"find\"\nflags = [\"-exec\", \"-delete\"]\n", []string{
			"find|accepts -exec", "find|accepts -delete"}},
		{"git -c before an allowed subcommand", "[command.git]\noptions = { \"-c\" = \"any\" }\n[command.git.sub.status]\nverdict = \"allow\"\n", []string{
			"git|accepts -c"}},
		{"sudo, even wrapped", "[command.sudo]\nverdict = \"allow\"\nwrap = {}\n", []string{"sudo|another user's rights"}},
		{"watch", "[command.watch]\nverdict = \"allow\"\n", []string{"watch|a command line guard never sees"}},
		{"at reads standard input", "[command.at]\nverdict = \"allow\"\nargs = \"none\"\n", []string{"at|a command line guard never sees"}},
		{"make any target", "[command.make]\nverdict = \"allow\"\n", []string{"make|whatever targets"}},
		{"make test and more targets", "[command.make.sub.test]\nverdict = \"allow\"\n", []string{"make test|whatever targets"}},
		{"npm run any script", "[command.npm.sub.run]\nverdict = \"allow\"\n", []string{"npm run|whatever script"}},
		{"cargo run", "[command.cargo.sub.run]\nverdict = \"session\"\n", []string{"cargo run|outside the sandbox"}},
		{"tee without paths", "[command.tee]\nverdict = \"allow\"\n", []string{`tee|without paths = "write"`}},
		{"cp checked as reads", "[command.cp]\nverdict = \"session\"\npaths = \"read\"\n", []string{`cp|without paths = "copy"`}},
		{"dd", "[command.dd]\nverdict = \"allow\"\n", []string{"dd|no paths mode"}},
		{"timeout with wrap", "[command.timeout]\nverdict = \"allow\"\nwrap = { skip = 1 }\n", nil},
		{"env without operands", "[command.env]\nverdict = \"allow\"\nargs = \"none\"\n", nil},
		{"timeout asked", "[command.timeout]\nverdict = \"ask\"\n", nil},
		{"xargs as the default has it", "[command.xargs]\nverdict = \"allow\"\noptions = { \"-I\" = \"any\", \"--replace\" = \"any?\" }\nwrap = { stdin = true, replace = [\"-I\", \"--replace\"] }\n", nil},
		{"find with exec", "[command.find]\nverdict = \"allow\"\nstyle = \"find\"\nexec = [\"-exec\"]\nflags = [\"-print\"]\ndeny = [{ flags = [\"-delete\"], reason = \"x\" }]\n", nil},
		{"git -c denied", "[command.git]\nverdict = \"allow\"\noptions = { \"-c\" = \"any\" }\ndeny = [{ flags = [\"-c\"], reason = \"x\" }]\n[command.git.sub.status]\nverdict = \"allow\"\n", nil},
		{"git -c with nothing allowed", "[command.git]\nverdict = \"ask\"\noptions = { \"-c\" = \"any\" }\n", nil},
		{"git -c, and the arguments after -- allowed", "[command.git]\nverdict = \"ask\"\noptions = { \"-c\" = \"any\" }\n[command.git.rest]\nverdict = \"allow\"\n", nil},
		{"sudo denied", "[command.sudo]\nverdict = \"deny\"\n", nil},
		{"make targets in the sandbox", "[command.make]\nverdict = \"allow\"\nsandbox = \"test\"\n", nil},
		{"make test alone", "[command.make.sub.test]\nverdict = \"allow\"\nargs = \"none\"\n", nil},
		{"npm run lint", "[command.npm.sub.run.sub.lint]\nverdict = \"allow\"\n", nil},
		{"tee with paths", "[command.tee]\nverdict = \"allow\"\npaths = \"write\"\n", nil},
	})
}

func TestLintLanguages(t *testing.T) {
	jqAsk := `ask = [
  { args = ["*env*", "*ENV*", "*input_filename*", "*$__loc__*"], reason = "x" },
  { args = ["*import*\"*", "*include*\"*"], reason = "x" },
  { flags = ["-f"], reason = "x" },
]
`
	testCheck(t, checkLanguages, []lintCase{
		{"sed without script", "[command.sed]\nverdict = \"allow\"\n", []string{`sed|without script = "sed"`}},
		{"gawk read as sed", "[command.gawk]\nverdict = \"session\"\nscript = \"sed\"\n", []string{`gawk|without script = "awk"`}},
		{"jq with an env rule only", "[command.jq]\nverdict = \"allow\"\nask = [{ args = [\"*env*\", \"*ENV*\", \"*input_filename*\", \"*$__loc__*\"], reason = \"x\" }]\n", []string{
			`jq|catches the program "import`, `jq|catches the program "include`}},
		{"jq -f", "[command.jq]\nverdict = \"allow\"\noptions = { \"-f\" = \"path\" }\n" + strings.Replace(jqAsk, "  { flags = [\"-f\"], reason = \"x\" },\n", "", 1), []string{
			"jq|accepts -f"}},
		{"a deny rule that needs a flag catches no filter", "[command.jq]\nverdict = \"allow\"\nflags = [\"-n\"]\ndeny = [{ flags = [\"-n\"], args = [\"*\"], reason = \"x\" }]\n", []string{
			`jq|"env"`, `jq|"$ENV.HOME"`, `jq|"import`, `jq|"include`, `jq|"input_filename"`, `jq|"$__loc__"`}},
		{"m4", "[command.m4]\nverdict = \"allow\"\n", []string{"m4|a language guard does not read"}},
		{"sed with script", "[command.sed]\nverdict = \"allow\"\nscript = \"sed\"\n", nil},
		{"awk with script", "[command.awk]\nverdict = \"allow\"\nscript = \"awk\"\n", nil},
		{"sed asked", "[command.sed]\nverdict = \"ask\"\n", nil},
		{"jq as the default has it", "[command.jq]\nverdict = \"allow\"\noptions = { \"-f\" = \"path\" }\n" + jqAsk, nil},
		{"jq without operands", "[command.jq]\nverdict = \"allow\"\nargs = \"none\"\nflags = [\"--version\"]\n", nil},
		{"m4 asked", "[command.m4]\nverdict = \"ask\"\n", nil},
	})
}

func TestLintEnv(t *testing.T) {
	testCheck(t, checkEnv, []lintCase{
		{"GIT_*", "[env]\nallow = [\"NO_COLOR\", \"GIT_*\"]\n", []string{`env.allow GIT_*|lets a command set GIT_SSH_COMMAND, GIT_SSH, GIT_EXEC_PATH, GIT_CONFIG_COUNT and 9 more: git runs`}},
		{"two entries", "[env]\nallow = [\"LD_PRELOAD\", \"NODE_OPTIONS\", \"TERM\"]\n", []string{
			"env.allow LD_PRELOAD|set LD_PRELOAD: the dynamic linker", "env.allow NODE_OPTIONS|set NODE_OPTIONS: node loads"}},
		{"a deny wins", "[env]\nallow = [\"P*\"]\ndeny = [{ names = [\"PATH\", \"PYTHON*\"], reason = \"x\" }]\n", []string{
			"env.allow P*|set PROMPT_COMMAND, PS4, PERL5OPT, PERL5LIB and 3 more: the shell"}},
		{"harmless names", "[env]\nallow = [\"NO_COLOR\", \"LC_*\", \"RUST_BACKTRACE\", \"CARGO_TERM_*\"]\n", nil},
		{"the default's own allow list is its own", "extends = \"default\"\n[env]\nallow = [\"MY_FLAG\"]\n", nil},
		// A file that extends the default cannot allow what the default's
		// [env] denies (JAVA_TOOL_OPTIONS, GOFLAGS): it does not load.
		{"standalone, allowing what the default denies", "[env]\nallow = [\"JAVA_TOOL_OPTIONS\", \"TERM\"]\n", []string{
			"env.allow JAVA_TOOL_OPTIONS|the JVM"}},
	})
}

func TestLintProtection(t *testing.T) {
	testCheck(t, checkProtection, []lintCase{
		{"a redirect to a protected path", "[redirect]\nallow = [\"/dev/null\", \"/home/u/.bashrc\"]\n", []string{`redirect.allow|on the protected path "~/.bashrc"`}},
		{"a redirect to a secret path", "[redirect]\nallow = [\"/home/u/.ssh/id_rsa\", \"/work/p/.env\"]\n", []string{
			`redirect.allow|"/home/u/.ssh/id_rsa" is on the secret path "~/.ssh/**"`, `redirect.allow|"/work/p/.env" is on the secret path "**/.env"`}},
		{"a redirect to the policy's own protected path", "[paths]\nprotected = [\"/srv/keep/**\"]\n[redirect]\nallow = [\"/srv/keep/x\"]\n", []string{
			`redirect.allow|protected path "/srv/keep/**"`}},
		{"Read allowed", "[tools]\nRead = \"allow\"\nBash = \"shell\"\n", []string{`tools.Read|[tools] Read = "allow": its calls run without the secret path check that calls of kind "read" get`}},
		{"Bash for the session", "[tools]\nBash = \"session\"\n", []string{`tools.Bash|without the checks of its commands`}},
		{"a pattern", "[tools]\n\"Notebook*\" = \"internal\"\n", []string{
			`tools.Notebook*|[tools] "Notebook*" = "internal" covers NotebookEdit`, `tools.Notebook*|covers NotebookRead`}},
		{"file tools asked and denied", "[tools]\nRead = \"ask\"\nWrite = \"deny\"\n", nil},
		{"redirects to devices", "[redirect]\nallow = [\"/dev/null\", \"/dev/stderr\", \"/tmp/out.log\"]\n", nil},
		{"file tools by their input", "[tools]\nRead = \"read\"\nWrite = \"write\"\nBash = \"shell\"\nWebFetch = \"deny\"\n\"mcp__*\" = \"allow\"\n", nil},
		{"extending, a pattern the default's names win over", "extends = \"default\"\n[tools]\n\"*\" = \"allow\"\n", nil},
	})
}

func TestLintSandbox(t *testing.T) {
	testCheck(t, checkSandbox, []lintCase{
		{"npm test", "[command.npm.sub.test]\nverdict = \"allow\"\n", []string{"npm test|outside the sandbox"}},
		{"npm run lint", "[command.npm.sub.run.sub.lint]\nverdict = \"session\"\n", []string{"npm run lint|outside the sandbox"}},
		{"make test alone", "[command.make.sub.test]\nverdict = \"allow\"\nargs = \"none\"\n", []string{"make test|outside the sandbox"}},
		{"just alone", "[command.just]\nverdict = \"allow\"\nargs = \"none\"\n", []string{"just|outside the sandbox"}},
		{"npm test and its arguments", "[command.npm.sub.test]\nverdict = \"allow\"\n[command.npm.sub.test.rest]\nstyle = \"none\"\n", []string{"npm test|outside the sandbox"}},
		{"npm test in the sandbox", "[command.npm.sub.test]\nverdict = \"allow\"\nsandbox = \"test\"\n", nil},
		{"a parent's sandbox", "[command.make]\nsandbox = \"build\"\n[command.make.sub.all]\nverdict = \"allow\"\nargs = \"none\"\n", nil},
		{"make with any target is the runner check's", "[command.make]\nverdict = \"allow\"\n", nil},
		{"npm test asked", "[command.npm.sub.test]\nverdict = \"ask\"\n", nil},
		{"not a package script", "[command.npm.sub.view]\nverdict = \"allow\"\n", nil},
	})
}

func TestLintUnbound(t *testing.T) {
	testCheck(t, checkUnbound, []lintCase{
		{"a rule", "[command.kubectl]\nverdict = \"allow\"\nunbound = \"it reaches the cluster\"\n", []string{"kubectl|unbound: it reaches the cluster"}},
		{"its subcommands are the parent's", "[command.kubectl]\nverdict = \"allow\"\nunbound = \"it reaches the cluster\"\n[command.kubectl.sub.get]\nverdict = \"allow\"\n", []string{"kubectl|unbound"}},
		{"an asking parent, an allowed subcommand", "[command.kubectl]\nverdict = \"ask\"\nunbound = \"it reaches the cluster\"\n[command.kubectl.sub.get]\nverdict = \"allow\"\n", []string{"kubectl get|unbound: it reaches the cluster"}},
		{"a subcommand's own reason", "[command.gh]\nverdict = \"allow\"\nunbound = \"GitHub\"\n[command.gh.sub.api]\nverdict = \"allow\"\nunbound = \"any endpoint\"\n", []string{"gh|unbound: GitHub", "gh api|unbound: any endpoint"}},
		{"asked", "[command.kubectl]\nverdict = \"ask\"\nunbound = \"it reaches the cluster\"\n", nil},
		{"in the sandbox", "[command.ls]\nverdict = \"allow\"\n", nil},
	})
}

func TestLintWritable(t *testing.T) {
	testCheck(t, checkWritable, []lintCase{
		{"the home", "[paths]\nwritable = [\"{project}/**\", \"~/**\"]\n", []string{`paths.writable|"~/**" is outside`}},
		{"out of the project by ..", "[paths]\nwritable = [\"{project}/../other/**\", \"/\"]\n", []string{`paths.writable|"{project}/../other/**"`, `paths.writable|"/" is outside`}},
		{"a name that starts like the temp dir", "[paths]\nwritable = [\"/tmpfs/**\", \"{project}x/**\"]\n", []string{`paths.writable|"/tmpfs/**"`, `paths.writable|"{project}x/**"`}},
		{"the project and the temp dir", "[paths]\nwritable = [\"{project}/build/**\", \"{tmp}/**\", \"{tmp}\", \"/tmp/x/**\"]\n", nil},
		{"the default roots", "[paths]\nwrite = \"allow\"\n", nil},
	})
}

func TestLintShadowed(t *testing.T) {
	testCheck(t, checkShadowed, []lintCase{
		{"a rule that denies", "[command.x]\nverdict = \"deny\"\nask = [{ flags = [\"-f\"], reason = \"r\" }]\n", []string{`x -f|x is denied outright, so its ask rule "x -f" is never reached`}},
		{"a session rule on an ask rule", "[command.x]\nverdict = \"ask\"\nflags = [\"-f\"]\nsession = [{ flags = [\"-f\"], reason = \"r\" }]\n", []string{`x -f|its session rule "x -f" never decides: the rule's own verdict, ask, is stricter`}},
		{"an ask rule under a deny rule", "[command.x]\nverdict = \"allow\"\nflags = [\"-f\", \"-g\"]\ndeny = [{ flags = [\"-f\", \"-g\"], reason = \"r\" }]\nask = [{ flags = [\"-f\"], reason = \"r\" }]\n", []string{
			`x -f|its ask rule "x -f" never decides: the deny rule "x -f" matches whenever it does`}},
		{"two alike", "[command.x]\nverdict = \"allow\"\ndeny = [{ args = [\"/\"], reason = \"r\" }, { id = \"root\", args = [\"/\"], reason = \"r\" }]\n", []string{
			`x: root|its deny rule "x: root" never decides`}},
		{"options under style none", "[command.x]\nverdict = \"allow\"\nstyle = \"none\"\ndeny = [{ flags = [\"-e\"], reason = \"r\" }]\n", []string{`x -e|reads no options`}},
		{"a rest under style none", "[command.x]\nverdict = \"allow\"\nstyle = \"none\"\n[command.x.rest]\nverdict = \"allow\"\n", []string{`x --|its rest rule is never reached`}},
		{"operands a subcommand takes", "[command.docker]\ndeny = [{ args = [\"run\"], reason = \"r\" }]\n[command.docker.sub.ps]\nverdict = \"allow\"\n", []string{`docker run|never sees an operand`}},
		{"eval", "[command.eval]\nverdict = \"allow\"\n", []string{"eval|the shell construct eval is always denied"}},
		{"source asked", "[command.source]\nverdict = \"ask\"\n", []string{"source|construct source"}},
		{"let", "[command.let]\nverdict = \"allow\"\n", []string{"let|construct arithmetic"}},
		{"two spellings", "[command.git]\nverdict = \"allow\"\n[command.Git]\nverdict = \"allow\"\n[command.GIT]\nverdict = \"allow\"\n", []string{
			`GIT|command "git" and command "GIT"`, `Git|command "git" and command "Git"`}},
		{"two spellings, neither lower case", "[command.Make]\nverdict = \"allow\"\n[command.MAKE]\nverdict = \"allow\"\n", []string{
			`Make|command "MAKE" and command "Make"`}},
		{"a path", "[command.git]\nverdict = \"ask\"\n[command.\"/usr/bin/git\"]\nverdict = \"allow\"\n", []string{`/usr/bin/git|instead of command "git"`}},
		{"two subcommands", "[command.x.sub.build]\nverdict = \"allow\"\n[command.x.sub.Build]\nverdict = \"allow\"\n", []string{`x Build|subcommands "build" and "Build"`}},
		{"a stricter rule", "[command.x]\nverdict = \"ask\"\nflags = [\"-f\"]\ndeny = [{ flags = [\"-f\"], reason = \"r\" }]\nask = [{ flags = [\"-g\"], reason = \"r\" }]\n", nil},
		{"an ask rule on what the deny rule leaves", "[command.x]\nverdict = \"allow\"\ndeny = [{ flags = [\"-f\"], reason = \"r\" }]\nask = [{ flags = [\"-f\", \"-h\"], reason = \"r\" }]\n", nil},
		{"a deny rule with values", "[command.x]\nverdict = \"allow\"\noptions = { \"-o\" = \"any\" }\ndeny = [{ flags = [\"-o\"], values = [\"/*\"], reason = \"r\" }]\nask = [{ flags = [\"-o\"], reason = \"r\" }]\n", nil},
		{"operands after -- of a rule with a verdict", "[command.docker]\nverdict = \"allow\"\ndeny = [{ args = [\"run\"], reason = \"r\" }]\n[command.docker.sub.ps]\nverdict = \"allow\"\n", nil},
		{"eval denied", "[command.eval]\nverdict = \"deny\"\n", nil},
		{"export x is an assignment", "[command.export]\nverdict = \"allow\"\n", nil},
		{"a deny rule like another, which writes no escalations", "[command.base]\nverdict = \"allow\"\nflags = [\"-f\"]\nask = [{ flags = [\"-f\"], reason = \"r\" }]\n[command.y]\nlike = \"base\"\nverdict = \"deny\"\n", nil},
		{"a pattern", "[command.\"mkfs.*\"]\nverdict = \"ask\"\n[command.\"[\"]\nverdict = \"allow\"\n", nil},
	})
}

func TestLintExamples(t *testing.T) {
	testCheck(t, checkExamples, []lintCase{
		{"no examples", "[command.ls]\nverdict = \"allow\"\n[command.cat]\nverdict = \"allow\"\nexamples = { allow = [\"cat x\"] }\n", []string{"ls|has no examples"}},
		{"a subcommand's examples", "[command.git.sub.log]\nverdict = \"allow\"\nexamples = { allow = [\"git log\"] }\n[command.npm.sub.test]\nverdict = \"allow\"\n", []string{"npm|has no examples"}},
		{"a rule that only denies", "[command.curl]\nverdict = \"deny\"\nreason = \"it sends data\"\n", nil},
		{"extending: the file's own rules", "extends = \"default\"\n[command.gradle]\nverdict = \"ask\"\n", []string{"gradle|has no examples"}},
	})
}

// TestLintCompile checks that a rule of a built-in policy that does not
// compile, which a policy file's own rules never are (they compile as it
// loads), is an error of lint's.
func TestLintCompile(t *testing.T) {
	src := lintHead + "[command.ok]\nverdict = \"allow\"\n[command.bad]\nverdict = \"maybe\"\n"
	pf, err := decodeFile("b.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := compile("b.toml", pf, mapSource(pf.Command, false), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range Lint(p) {
		if f.Check == "compile" {
			got = append(got, f.String())
		}
	}
	want := []string{`b.toml:6:1: error: rule "bad": unknown verdict "maybe" (want allow, session, ask or deny)`}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestLint checks what Lint adds to the checks' findings: the severity,
// the check, file:line:col from the source's key index, the order of the
// source, and that a file extending the default is linted for its own
// parts only.
func TestLint(t *testing.T) {
	src := lintHead + `extends = "default"

[command.m4]
verdict = "allow"
examples = { allow = ["m4 x.m4"] }

[command.npm.sub.test]
verdict = "allow"
examples = { allow = ["npm test"] }

[command.tidy]
verdict = "allow"
`
	p, err := LoadUnchecked("p.toml", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range Lint(p) {
		got = append(got, f.String()+" ["+f.Check+"] "+f.Fix)
	}
	want := []string{
		`p.toml:5:10: error: rule "m4": m4 is allowed, and its program is in a language guard does not read: syscmd and esyscmd run commands [language] verdict = "ask"`,
		`p.toml:9:18: warning: rule "npm test": npm test is allowed outside the sandbox: it runs the project's own scripts, which guard never reads [sandbox] sandbox = "test": guard run then bounds what the script reaches`,
		`p.toml:13:10: note: rule "tidy": tidy has no examples: guard test cannot tell when a change alters what it decides [examples] examples = { allow = ["..."], ask = ["..."], deny = ["..."] }`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	if Lint(&Policy{}) != nil {
		t.Error("Lint of a policy that is not loaded found something")
	}
}

// TestLintOwn checks what a file that extends a built-in policy writes
// itself, which is all lint reports of it, and that all of the embedded
// default policy is its own.
func TestLintOwn(t *testing.T) {
	src := "version = 1\nextends = \"default\"\n[env]\nallow = [\"MY_FLAG\"]\n[redirect]\nallow = [\"/dev/null\"]\n[command.gradle]\nverdict = \"ask\"\n"
	p, err := LoadUnchecked("p.toml", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	envAllow := func(pf *policyFile) []string { return pf.Env.Allow }
	redirect := func(pf *policyFile) []string { return pf.Redirect.Allow }
	l, ld := newLinter(p), newLinter(def)
	for _, c := range []struct {
		l    *linter
		got  bool
		want bool
		what string
	}{
		{l, ownString(l, envAllow, "MY_FLAG"), true, "its env allow entry"},
		{l, ownString(l, envAllow, "TERM"), false, "the default's env allow entry"},
		{l, ownString(l, redirect, "/dev/null"), true, "its redirect allow entry"},
		{l, ownString(l, redirect, "/dev/stderr"), false, "the default's redirect allow entry"},
		{l, l.ownRule("gradle"), true, "its rule"},
		{l, l.ownRule("git"), false, "the default's rule"},
		{l, len(l.nodes) == 1 && l.nodes[0].words[0] == "gradle", true, "its rules alone linted"},
		{ld, ownString(ld, envAllow, "TERM"), true, "the default's own entry"},
		{ld, ld.ownRule("git"), true, "the default's own rule"},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.what, c.got, c.want)
		}
	}
}

// TestLintDefault checks that the embedded default policy, and the
// default.toml it is generated from, lint without errors or warnings: a
// note (a rule without examples) is the only finding it may have.
func TestLintDefault(t *testing.T) {
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("default.toml")
	if err != nil {
		t.Fatal(err)
	}
	fromSource, err := LoadUnchecked("default.toml", bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*Policy{def, fromSource} {
		notes := 0
		for _, f := range Lint(p) {
			if f.Severity > SeverityNote {
				t.Errorf("%s [%s]", f, f.Check)
			} else {
				notes++
			}
		}
		t.Logf("%s: %d notes", p.Name(), notes)
	}
}

// TestLintNoRemoval pins why lint has no check for protected and secret
// paths a policy removes: it cannot. [paths] protected and secret add to
// guard's own lists, in a policy of its own and in one that extends
// another. Should a policy become able to take a path off them, this
// fails, and lint needs the check.
func TestLintNoRemoval(t *testing.T) {
	for _, src := range []string{
		lintHead + "[paths]\nprotected = []\nsecret = []\nwritable = [\"{project}/**\"]\n",
		"version = 1\nextends = \"default\"\n[paths]\nprotected = [\"/x\"]\nsecret = []\n",
	} {
		p, err := LoadUnchecked("p.toml", strings.NewReader(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, pat := range defaultProtected {
			if !slices.Contains(p.paths.Protected, pat) {
				t.Errorf("%q: protected path %q is gone", src, pat)
			}
		}
		for _, sf := range builtinSecrets {
			for _, pat := range sf.Paths {
				if !slices.Contains(p.paths.Secret, pat) {
					t.Errorf("%q: secret path %q of %s is gone", src, pat, sf.Name)
				}
			}
		}
	}
}

// TestLintPacks: every pack's rules lint as the default's do, with no
// error and no warning: each pack is linted as the own rules of a policy
// that extends the default (lint reads a policy's own rules, and a pack's
// are nobody's own), and the default with all of them must compile. A pack
// that allows what lint calls broad would teach its users to write such
// rules.
func TestLintPacks(t *testing.T) {
	for _, name := range Packs() {
		src, err := os.ReadFile(packFileName(name))
		if err != nil {
			t.Fatal(err)
		}
		own := strings.Replace(string(src), "version = 1\n", "version = 1\nextends = \"default\"\n", 1)
		if own == string(src) {
			t.Fatalf("pack %s has no version line", name)
		}
		p, err := LoadUnchecked(name+".toml", strings.NewReader(own))
		if err != nil {
			t.Fatalf("pack %s as a policy: %v", name, err)
		}
		findings := Lint(p)
		for _, f := range findings {
			if f.Severity > SeverityNote {
				t.Errorf("pack %s: %s [%s]", name, f, f.Check)
			}
		}
	}
}
