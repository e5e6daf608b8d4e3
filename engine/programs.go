// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"guard/policy"
)

// Programs' configuration on disk.
//
// git reads the configuration of the repository it finds, and that
// configuration runs programs: core.fsmonitor under git status,
// core.hooksPath, pagers, textconv and filter drivers, aliases. A
// repository can hide in a project: a committed directory with HEAD,
// objects/ and refs/ is a bare repository to git (git -C sub status ran
// sub/config's fsmonitor), and a file named .git can point anywhere. So
// for a rule with config = "git", guard finds the repository git will use
// from each directory the command runs in, as git's discovery does, and
// allows the command only when that is the project's own repository (or
// none), and its configuration names no program. The user's own
// configuration (~/.gitconfig, /etc/gitconfig) is the user's and is not
// read: no tool may write it.

// gitRunsPrograms are the configuration keys (section, variable; "*" for a
// subsection of any name) whose values git runs, or that load more
// configuration guard does not read.
var gitRunsPrograms = [][2]string{
	{"core", "fsmonitor"}, {"core", "hookspath"}, {"core", "pager"}, {"core", "editor"},
	{"core", "sshcommand"}, {"core", "askpass"}, {"core", "gitproxy"}, {"core", "worktree"},
	{"diff", "external"}, {"diff.*", "textconv"}, {"diff.*", "command"}, {"merge.*", "driver"},
	{"filter.*", "clean"}, {"filter.*", "smudge"}, {"filter.*", "process"}, {"pager", "*"},
	{"alias", "*"}, {"credential", "helper"}, {"credential.*", "helper"}, {"gpg", "program"},
	{"gpg.*", "program"}, {"sequence", "editor"}, {"interactive", "difffilter"},
	{"uploadpack", "packobjectshook"}, {"include", "path"}, {"includeif.*", "path"},
	{"web", "browser"}, {"browser.*", "cmd"}, {"man.*", "cmd"}, {"difftool.*", "cmd"},
	{"mergetool.*", "cmd"}, {"remote.*", "uploadpack"}, {"remote.*", "receivepack"},
	{"http", "proxy"}, {"submodule.*", "update"}, {"protocol.*", "allow"},
}

// gitRepository returns the git directory git finds from dir, as its
// discovery does: in each directory up to the root, a .git directory, a
// .git file naming one, or the directory itself being a git directory.
// It returns "" when there is none.
func gitRepository(fsys FS, dir string) (string, error) {
	gitDir, _, err := gitWorkTree(fsys, dir)
	return gitDir, err
}

// gitWorkTree is gitRepository, with the top of the working tree: the
// directory of the .git that names the git directory, or "" for a git
// directory found as itself (a bare repository).
func gitWorkTree(fsys FS, dir string) (gitDir, top string, err error) {
	for d := path.Clean(dir); ; d = path.Dir(d) {
		dotgit := path.Join(d, ".git")
		fi, err := fsys.Stat(dotgit)
		switch {
		case err == nil && fi.IsDir():
			ok, err := isGitDir(fsys, dotgit)
			if err != nil {
				return "", "", err
			}
			if ok {
				return dotgit, d, nil
			}
		case err == nil && fi.Mode().IsRegular():
			target, err := readGitFile(fsys, dotgit)
			if err != nil {
				return "", "", err
			}
			return target, d, nil
		case err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission):
			return "", "", fmt.Errorf("%s: %v", dotgit, errors.Unwrap(err))
		}
		ok, err := isGitDir(fsys, d)
		if err != nil {
			return "", "", err
		}
		if ok {
			return d, "", nil
		}
		if d == "/" {
			return "", "", nil
		}
	}
}

// absent reports whether err says a file is not there: missing, or a path
// through a file that is no directory. Any other error leaves it unknown.
func absent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// isGitDir reports whether git takes dir for a git directory: a HEAD file
// and objects/ and refs/ directories. A part that cannot be looked at for
// another reason than its absence is an error: git might take dir.
func isGitDir(fsys FS, dir string) (bool, error) {
	for _, part := range []string{"HEAD", "objects", "refs"} {
		fi, err := fsys.Stat(path.Join(dir, part))
		switch {
		case absent(err):
			return false, nil
		case err != nil:
			return false, fmt.Errorf("%s: %v", path.Join(dir, part), errors.Unwrap(err))
		case part == "HEAD" && !fi.Mode().IsRegular(), part != "HEAD" && !fi.IsDir():
			return false, nil
		}
	}
	return true, nil
}

// readGitFile returns the git directory a .git file names.
func readGitFile(fsys FS, name string) (string, error) {
	data, err := readFile(fsys, name, maxGitFile)
	if err != nil {
		return "", fmt.Errorf("%s: %v", name, errors.Unwrap(err))
	}
	line, _, _ := strings.Cut(string(data), "\n")
	target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s is a .git file that names no git directory", name)
	}
	target = strings.TrimSpace(target)
	if !path.IsAbs(target) {
		target = path.Join(path.Dir(name), target)
	}
	return path.Clean(target), nil
}

// gitConfigRuns returns the first key of a git config file that makes git
// run a program or read other configuration, or "" when there is none.
func gitConfigRuns(fsys FS, name string) (string, error) {
	found := ""
	errFound := errors.New("found")
	err := gitConfigEach(fsys, name, func(section, key, _ string) error {
		for _, k := range gitRunsPrograms {
			if k[0] == section && (k[1] == "*" || k[1] == key) {
				found = strings.TrimSuffix(section, ".*") + "." + key
				return errFound
			}
		}
		return nil
	})
	if err != nil && err != errFound {
		return "", err
	}
	return found, nil
}

// checkGit judges the repository and configuration git uses from dir.
func (d *decider) checkGit(dir string) (policy.Verdict, string) {
	if d.gitChecked == nil {
		d.gitChecked = map[string]pathCheck{}
	}
	if pc, ok := d.gitChecked[dir]; ok {
		return pc.verdict, pc.why
	}
	v, why := d.checkGitUncached(dir)
	d.gitChecked[dir] = pathCheck{verdict: v, why: why}
	return v, why
}

func (d *decider) checkGitUncached(dir string) (policy.Verdict, string) {
	real, err := realPath(d.fsys, dir)
	if err != nil {
		return policy.Deny, fmt.Sprintf("git runs in %s, which cannot be resolved (%v)", dir, err)
	}
	gitdir, err := gitRepository(d.fsys, real)
	if err != nil {
		return d.p.DefaultVerdict(), fmt.Sprintf("guard cannot tell which repository git uses in %s: %v", dir, err)
	}
	if gitdir == "" {
		return policy.Allow, "" // no repository: git reads no repository configuration
	}
	realGit, err := realPath(d.fsys, gitdir)
	if err != nil {
		return d.p.DefaultVerdict(), fmt.Sprintf("git would use the repository %s, which cannot be resolved (%v)", gitdir, err)
	}
	own := ""
	if proj, err := realPath(d.fsys, d.project()); err == nil {
		own = path.Join(proj, ".git")
	}
	ownReal, _ := realPath(d.fsys, own)
	switch {
	case own != "" && (realGit == ownReal || strings.HasPrefix(realGit, ownReal+"/")):
		// The project's repository, one of its worktrees or submodules.
	default:
		return d.p.DefaultVerdict(), fmt.Sprintf("git in %s would use the repository %s, not the project's own: its configuration can run programs", dir, gitdir)
	}
	configs := []string{path.Join(realGit, "config"), path.Join(realGit, "config.worktree")}
	common, err := readFile(d.fsys, path.Join(realGit, "commondir"), maxGitFile)
	switch {
	case err == nil:
		c := strings.TrimSpace(string(common))
		if !path.IsAbs(c) {
			c = path.Join(realGit, c)
		}
		configs = append(configs, path.Join(c, "config"))
	case !errors.Is(err, fs.ErrNotExist):
		// git reads the common directory's configuration too.
		return d.p.DefaultVerdict(), fmt.Sprintf("guard cannot read git's configuration: %v", err)
	}
	for _, cfg := range configs {
		key, err := gitConfigRuns(d.fsys, cfg)
		if err != nil {
			return d.p.DefaultVerdict(), fmt.Sprintf("guard cannot read git's configuration: %v", err)
		}
		if key != "" {
			return d.p.DefaultVerdict(), fmt.Sprintf("the repository's configuration sets %s (%s), which makes git run a program", key, cfg)
		}
	}
	return policy.Allow, ""
}

// The go command reads go.work or go.mod from where it runs, and runs the
// version control program of the tree to stamp builds. With
// GOTOOLCHAIN=auto, the default, a go or toolchain line newer than the
// local go makes it download that toolchain and run it (go version too).
// For a rule with config = "go", guard asks when the module asks for a
// newer toolchain than the go on PATH. Without a go on PATH, go does not
// run at all.

// checkGo judges the toolchain the go command would pick in dir.
func (d *decider) checkGo(dir string) (policy.Verdict, string) {
	if pc, ok := d.goChecked[dir]; ok {
		return pc.verdict, pc.why
	}
	v, why := d.checkGoUncached(dir)
	if d.goChecked == nil {
		d.goChecked = map[string]pathCheck{}
	}
	d.goChecked[dir] = pathCheck{verdict: v, why: why}
	return v, why
}

func (d *decider) checkGoUncached(dir string) (policy.Verdict, string) {
	fsys := d.fsys
	if d.goLocal == nil {
		v, ok := localGoVersion(d.fsys, d.call.ExecPath)
		d.goLocal = &goLocal{v, ok}
	}
	local, ok := d.goLocal.version, d.goLocal.found
	if !ok {
		return policy.Allow, ""
	}
	real, err := realPath(d.fsys, dir)
	if err != nil {
		return policy.Deny, fmt.Sprintf("go runs in %s, which cannot be resolved (%v)", dir, err)
	}
	// go stamps builds with version control information: it runs git,
	// which reads its repository's configuration, or hg, svn, bzr or
	// fossil, which guard does not model.
	for d2 := real; ; d2 = path.Dir(d2) {
		for _, vcs := range []string{".hg", ".svn", ".bzr", "_FOSSIL_", ".fslckout"} {
			switch _, err := d.fsys.Lstat(path.Join(d2, vcs)); {
			case err == nil:
				return d.p.DefaultVerdict(), fmt.Sprintf("go would run the version control program of %s to stamp the build, and guard does not know what its configuration runs", path.Join(d2, vcs))
			case !absent(err):
				return d.p.DefaultVerdict(), fmt.Sprintf("guard cannot tell whether go would run a version control program: %v", err)
			}
		}
		if d2 == "/" {
			break
		}
	}
	if v, why := d.checkGit(dir); v != policy.Allow {
		return v, "go runs git to stamp the build: " + why
	}
	// go reads the nearest go.mod and, in workspace mode, the nearest
	// go.work, each found by walking up.
	var files []string
	for _, name := range []string{"go.work", "go.mod"} {
		for dir := real; ; dir = path.Dir(dir) {
			fi, err := fsys.Stat(path.Join(dir, name))
			if err == nil && fi.Mode().IsRegular() {
				files = append(files, path.Join(dir, name))
				break
			}
			if err != nil && !absent(err) {
				return d.p.DefaultVerdict(), fmt.Sprintf("guard cannot tell which %s go reads: %v", name, err)
			}
			if dir == "/" {
				break
			}
		}
	}
	for _, file := range files {
		if v, why := d.checkGoFile(file, local); v != policy.Allow {
			return v, why
		}
	}
	return policy.Allow, ""
}

// checkGoFile judges the go and toolchain lines of a go.mod or go.work.
func (d *decider) checkGoFile(file, local string) (policy.Verdict, string) {
	data, err := readFile(d.fsys, file, maxGoMod)
	if err != nil {
		return d.p.DefaultVerdict(), fmt.Sprintf("guard cannot read %s: %v", file, errors.Unwrap(err))
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "go" && f[0] != "toolchain" {
			continue
		}
		want := strings.TrimPrefix(f[1], "go")
		if f[0] == "toolchain" && !strings.HasPrefix(f[1], "go") {
			return d.p.DefaultVerdict(), fmt.Sprintf("%s names the toolchain %s, which go would download and run", file, f[1])
		}
		if local == "" {
			return d.p.DefaultVerdict(), fmt.Sprintf("%s asks for go %s, and guard cannot read the version of the go on PATH: go may download a toolchain and run it", file, want)
		}
		if newerGo(want, local) {
			return d.p.DefaultVerdict(), fmt.Sprintf("%s asks for go %s, newer than the local go %s: go would download that toolchain and run it", file, want, local)
		}
	}
	return policy.Allow, ""
}

// goLocal is the go found on the search path, looked up once a decision.
type goLocal struct {
	version string
	found   bool
}

// localGoVersion returns the version of the go command found on the
// search path, read from the VERSION file of its GOROOT, and whether there
// is one; the version is "" when it cannot be read.
func localGoVersion(fsys FS, search string) (string, bool) {
	for _, dir := range filepathList(search) {
		bin := path.Join(dir, "go")
		fi, err := fsys.Stat(bin)
		if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			continue
		}
		// A go whose version guard cannot read is there all the same:
		// "" and true, and every go.mod asking for a version asks.
		real, err := realPath(fsys, bin)
		if err != nil {
			return "", true
		}
		data, err := readFile(fsys, path.Join(path.Dir(path.Dir(real)), "VERSION"), maxGitFile)
		if err != nil {
			return "", true
		}
		line, _, _ := strings.Cut(string(data), "\n")
		return strings.TrimPrefix(strings.TrimSpace(line), "go"), true
	}
	return "", false
}

func filepathList(p string) []string {
	var out []string
	for _, d := range strings.Split(p, ":") {
		if path.IsAbs(d) {
			out = append(out, d)
		}
	}
	return out
}

// newerGo reports whether the go version a is newer than b ("1.27" than
// "1.26.8"). A pre-release (1.27rc1) counts as its release.
func newerGo(a, b string) bool {
	num := func(v string) []int {
		var out []int
		for _, part := range strings.Split(v, ".") {
			n := 0
			for _, c := range part {
				if c < '0' || c > '9' {
					break
				}
				n = n*10 + int(c-'0')
			}
			out = append(out, n)
		}
		return out
	}
	x, y := num(a), num(b)
	for i := 0; i < len(x) || i < len(y); i++ {
		var xi, yi int
		if i < len(x) {
			xi = x[i]
		}
		if i < len(y) {
			yi = y[i]
		}
		if xi != yi {
			return xi > yi
		}
	}
	return false
}
