// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Command agentcmds writes guard's corpus of a coding agent's real shell
// commands, testcases/data/agentcmds.tsv, from the recorded runs of
// mini-swe-agent (github.com/SWE-agent/mini-swe-agent):
//
//	go run ./bench/agentcmds -git DIR > testcases/data/agentcmds.tsv
//
// DIR is a git directory of that repository that holds -commit. Each file
// output/RUN/INSTANCE/INSTANCE.traj.json of the commit is one run of the
// agent on one task; each of its assistant messages holds the commands the
// agent ran, in extra.actions[].command, each in a new shell in the
// task's repository (/testbed). The output has a header line and then one
// line per command, in the order of the files' paths and, within a file,
// in the order the agent ran them: the task (RUN/INSTANCE), the command's
// step in its task (1, 2, ...), and the command, with TAB, LF, CR and NUL
// written as ⟨TAB⟩, ⟨LF⟩, ⟨CR⟩ and ⟨NUL⟩, as in nl2bash.tsv. Repeated
// commands stay: a replay of a task needs them.
//
// A trajectory file that the copy of the repository lacks (a snapshot can
// leave out its largest files) is named on stderr and left out; any other
// problem stops the program.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"guard/internal/cmdtsv"
)

// The commit of mini-swe-agent whose trajectories the corpus holds, and
// the format of their files.
const (
	defaultCommit = "ec0e8e849fea5b1619deb1753007201000904672"
	trajFormat    = "mini-swe-agent-1.1"
)

// Header is the first line of the output.
const Header = "task\tstep\tcommand"

// trajPath matches the trajectory files: output/RUN/INSTANCE/INSTANCE.traj.json.
var trajPath = regexp.MustCompile(`^output/([^/]+)/([^/]+)/([^/]+)\.traj\.json$`)

func main() {
	gitDir := flag.String("git", "", "git `directory` of SWE-agent/mini-swe-agent")
	commit := flag.String("commit", defaultCommit, "the `commit` whose trajectories are read")
	flag.Parse()
	if *gitDir == "" || flag.NArg() > 0 {
		flag.Usage()
		// Only guard's own main exits by os.Exit; a panic exits 2.
		panic("agentcmds: usage: agentcmds -git DIR [-commit REV]")
	}
	out := bufio.NewWriter(os.Stdout)
	if err := extract(out, os.Stderr, *gitDir, *commit); err != nil {
		panic(fmt.Sprintf("agentcmds: %v", err))
	}
	if err := out.Flush(); err != nil {
		panic(fmt.Sprintf("agentcmds: %v", err))
	}
}

// blob is a trajectory file of the commit.
type blob struct {
	path, id  string
	run, inst string // the run's directory and the task's instance id
	data      []byte
	missing   bool // the copy of the repository lacks it
}

// extract writes the corpus of the trajectories of commit in gitDir to w,
// and names on warn each trajectory the copy lacks.
func extract(w, warn io.Writer, gitDir, commit string) error {
	blobs, err := trajectories(gitDir, commit)
	if err != nil {
		return err
	}
	if err := readBlobs(gitDir, blobs); err != nil {
		return err
	}
	fmt.Fprintln(w, Header)
	tasks, rows := 0, 0
	for _, b := range blobs {
		if b.missing {
			fmt.Fprintf(warn, "agentcmds: %s: not in this copy of the repository, left out\n", b.path)
			continue
		}
		cmds, err := commands(b)
		if err != nil {
			return fmt.Errorf("%s: %w", b.path, err)
		}
		for i, c := range cmds {
			fmt.Fprintf(w, "%s/%s\t%d\t%s\n", b.run, b.inst, i+1, cmdtsv.Escape(c))
		}
		tasks++
		rows += len(cmds)
	}
	fmt.Fprintf(warn, "agentcmds: %d commands of %d trajectories (%d in the commit)\n", rows, tasks, len(blobs))
	return nil
}

// trajectories lists the trajectory files of commit, in the order of
// their paths.
func trajectories(gitDir, commit string) ([]*blob, error) {
	out, err := git(gitDir, nil, "ls-tree", "-r", "-z", commit, "--", "output/")
	if err != nil {
		return nil, err
	}
	var blobs []*blob
	for _, entry := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		meta, name, ok := strings.Cut(entry, "\t")
		f := strings.Fields(meta)
		m := trajPath.FindStringSubmatch(name)
		if !ok || len(f) != 3 || m == nil {
			continue
		}
		if f[1] != "blob" {
			return nil, fmt.Errorf("%s is a %s, not a file", name, f[1])
		}
		if m[2] != m[3] {
			return nil, fmt.Errorf("%s: the file is not named after its directory", name)
		}
		blobs = append(blobs, &blob{path: name, id: f[2], run: m[1], inst: m[2]})
	}
	if len(blobs) == 0 {
		return nil, fmt.Errorf("commit %s has no trajectories output/RUN/INSTANCE/INSTANCE.traj.json", commit)
	}
	return blobs, nil
}

// readBlobs reads the blobs' contents with one git cat-file --batch, and
// marks those the repository lacks.
func readBlobs(gitDir string, blobs []*blob) error {
	var ids bytes.Buffer
	for _, b := range blobs {
		fmt.Fprintln(&ids, b.id)
	}
	out, err := git(gitDir, &ids, "cat-file", "--batch")
	if err != nil {
		return err
	}
	r := bufio.NewReader(bytes.NewReader(out))
	for _, b := range blobs {
		head, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("git cat-file: no answer for %s", b.path)
		}
		f := strings.Fields(head)
		switch {
		case len(f) == 2 && f[0] == b.id && f[1] == "missing":
			b.missing = true
			continue
		case len(f) != 3 || f[0] != b.id || f[1] != "blob":
			return fmt.Errorf("git cat-file: for %s, %q", b.path, head)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return fmt.Errorf("git cat-file: for %s, %q", b.path, head)
		}
		b.data = make([]byte, size+1) // the content and its newline
		if _, err := io.ReadFull(r, b.data); err != nil || b.data[size] != '\n' {
			return fmt.Errorf("git cat-file: %s is cut short", b.path)
		}
		b.data = b.data[:size]
	}
	return nil
}

// trajectory is what agentcmds reads of a trajectory file.
type trajectory struct {
	InstanceID string `json:"instance_id"`
	Format     string `json:"trajectory_format"`
	Messages   []struct {
		Role  string `json:"role"`
		Extra *struct {
			Actions []struct {
				Command *string `json:"command"`
			} `json:"actions"`
		} `json:"extra"`
	} `json:"messages"`
}

// commands returns the commands of a trajectory, in the order they ran.
func commands(b *blob) ([]string, error) {
	var t trajectory
	if err := json.Unmarshal(b.data, &t); err != nil {
		return nil, err
	}
	switch {
	case t.Format != trajFormat:
		return nil, fmt.Errorf("trajectory format %q, want %q", t.Format, trajFormat)
	case t.InstanceID != b.inst:
		return nil, fmt.Errorf("instance_id %q in the directory of %q", t.InstanceID, b.inst)
	}
	var cmds []string
	for i, m := range t.Messages {
		if m.Role != "assistant" || m.Extra == nil {
			continue
		}
		for j, a := range m.Extra.Actions {
			if a.Command == nil {
				return nil, fmt.Errorf("message %d, action %d: no command", i, j)
			}
			for _, mk := range cmdtsv.Markers {
				if strings.Contains(*a.Command, mk) {
					return nil, fmt.Errorf("message %d, action %d: the command holds %s, which the corpus uses as a marker", i, j, mk)
				}
			}
			cmds = append(cmds, *a.Command)
		}
	}
	return cmds, nil
}

// git runs git on gitDir with stdin, and returns its output.
func git(gitDir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"--git-dir", gitDir}, args...)...)
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}
