// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"guard"
)

// maxResult bounds a tool's result: a longer one is cut.
const maxResult = 64 << 10 // 64 KiB

// maxWalk bounds the files and directories list_files and grep visit.
const maxWalk = 10000

// tool is one of the harness's tools.
type tool struct {
	name, desc string
	kind       string // what it does, as guard names it
	schema     string // the JSON schema of its arguments: every property is a required string
	run        func(ctx context.Context, h *Harness, a args) (string, error)
}

// args are a call's arguments. Path is absolute by the time a tool runs.
type args struct {
	Path, Pattern, Content, Old, New, Command string
	Glob                                      string // grep: the globs guard gave (guard.Decision.Glob), not the model
}

// tools is the harness's tool set, in the order it is offered.
var tools = []tool{
	{"read_file", "Read a file of the project.", guard.Read,
		`{"type":"object","properties":{"path":{"type":"string","description":"the file, relative to the project"}},"required":["path"],"additionalProperties":false}`,
		readFile},
	{"list_files", "List the files under a directory of the project, recursively.", guard.List,
		`{"type":"object","properties":{"path":{"type":"string","description":"the directory, relative to the project; \"\" is the project"}},"required":["path"],"additionalProperties":false}`,
		listFiles},
	{"grep", "Search the files under a path for the lines that match a regular expression (Go syntax).", guard.Search,
		`{"type":"object","properties":{"pattern":{"type":"string","description":"the regular expression"},"path":{"type":"string","description":"the file or directory, relative to the project; \"\" is the project"}},"required":["pattern","path"],"additionalProperties":false}`,
		grep},
	{"write_file", "Write a file of the project whole, replacing what it held.", guard.Write,
		`{"type":"object","properties":{"path":{"type":"string","description":"the file, relative to the project"},"content":{"type":"string","description":"the file's new content"}},"required":["path","content"],"additionalProperties":false}`,
		writeFile},
	{"edit_file", "Replace the one occurrence of old in a file of the project with new.", guard.Edit,
		`{"type":"object","properties":{"path":{"type":"string","description":"the file, relative to the project"},"old":{"type":"string","description":"the text to replace; it must occur exactly once"},"new":{"type":"string","description":"the replacement"}},"required":["path","old","new"],"additionalProperties":false}`,
		editFile},
	{"bash", "Run a command with bash -c in the project directory.", guard.Shell,
		`{"type":"object","properties":{"command":{"type":"string","description":"the command line"}},"required":["command"],"additionalProperties":false}`,
		runBash},
}

// toolSpecs returns the tool set as guard sees it.
func toolSpecs() []guard.ToolSpec {
	specs := make([]guard.ToolSpec, len(tools))
	for i, t := range tools {
		specs[i] = guard.ToolSpec{Name: t.name, Kind: t.kind}
	}
	return specs
}

// lookup returns the tool of that name, or nil.
func lookup(name string) *tool {
	i := slices.IndexFunc(tools, func(t tool) bool { return t.name == name })
	if i < 0 {
		return nil
	}
	return &tools[i]
}

// def returns the tool's definition for the model, with a schema of its
// own: a model that changes it changes no later request.
func (t *tool) def() Tool {
	return Tool{Name: t.name, Description: t.desc, Schema: []byte(t.schema)}
}

// parse checks a call's arguments against the tool's schema: an object
// with each of its properties, as a string, and nothing else.
func (t *tool) parse(raw []byte) (args, error) {
	var schema struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal([]byte(t.schema), &schema); err != nil {
		return args{}, err
	}
	var in map[string]json.RawMessage
	if err := json.Unmarshal(raw, &in); err != nil || in == nil {
		return args{}, errors.New("the arguments are not a JSON object")
	}
	str := map[string]string{}
	for k, v := range in {
		if !slices.Contains(schema.Required, k) {
			return args{}, fmt.Errorf("no argument %q: want %s", k, strings.Join(schema.Required, ", "))
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			return args{}, fmt.Errorf("the argument %q is not a string", k)
		}
		str[k] = s
	}
	for _, k := range schema.Required {
		if _, ok := str[k]; !ok {
			return args{}, fmt.Errorf("the argument %q is missing", k)
		}
	}
	return args{Path: str["path"], Pattern: str["pattern"], Content: str["content"],
		Old: str["old"], New: str["new"], Command: str["command"]}, nil
}

func readFile(_ context.Context, _ *Harness, a args) (string, error) {
	data, err := os.ReadFile(a.Path)
	return string(data), err
}

// errFull stops a walk that reached maxWalk.
var errFull = errors.New("walked enough")

func listFiles(_ context.Context, h *Harness, a args) (string, error) {
	var b strings.Builder
	err := walk(a.Path, func(p string, d fs.DirEntry) error {
		if p == a.Path {
			return nil
		}
		name := h.rel(p)
		if d.IsDir() {
			name += "/"
		}
		fmt.Fprintln(&b, name)
		return nil
	})
	return b.String(), err
}

func grep(_ context.Context, h *Harness, a args) (string, error) {
	re, err := regexp.Compile(a.Pattern)
	if err != nil {
		return "", err
	}
	globs := strings.Fields(a.Glob)
	var b strings.Builder
	err = walk(a.Path, func(p string, d fs.DirEntry) error {
		if rel, err := filepath.Rel(a.Path, p); err == nil && rel != "." && !globsKeep(globs, filepath.ToSlash(rel), d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			return nil // unreadable or binary
		}
		for i, line := range strings.Split(string(data), "\n") {
			if re.MatchString(line) {
				fmt.Fprintf(&b, "%s:%d: %s\n", h.rel(p), i+1, line)
			}
		}
		return nil
	})
	return b.String(), err
}

// globsKeep reports whether a search keeps the file or directory at rel
// (relative to its path) under globs as ripgrep's -g reads them: the
// last glob that matches decides, a ! one leaving it out; one that no
// glob matches is kept unless a glob without ! is given (a directory is
// kept then: what is under it may match). A glob without a slash matches
// the name at any depth.
func globsKeep(globs []string, rel string, dir bool) bool {
	decided, keep, positive := false, true, false
	for _, g := range globs {
		exclude := strings.HasPrefix(g, "!")
		g = strings.TrimPrefix(g, "!")
		positive = positive || !exclude
		name := rel
		if !strings.Contains(g, "/") {
			name = path.Base(rel)
		}
		if ok, _ := doublestar.Match(g, name); ok {
			decided, keep = true, !exclude
		}
	}
	if decided {
		return keep
	}
	return !positive || dir
}

// walk calls fn for root and what is below it, in lexical order, leaving
// out .git, for maxWalk entries at the most.
func walk(root string, fn func(p string, d fs.DirEntry) error) error {
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if n++; n > maxWalk {
			return errFull
		}
		return fn(p, d)
	})
	if errors.Is(err, errFull) {
		return nil
	}
	return err
}

func writeFile(_ context.Context, _ *Harness, a args) (string, error) {
	if err := os.WriteFile(a.Path, []byte(a.Content), 0o644); err != nil {
		return "", err
	}
	return fmt.Sprintf("wrote %d bytes", len(a.Content)), nil
}

func editFile(_ context.Context, _ *Harness, a args) (string, error) {
	fi, err := os.Stat(a.Path)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(a.Path)
	if err != nil {
		return "", err
	}
	if a.Old == "" {
		return "", errors.New("old is empty")
	}
	if n := strings.Count(string(data), a.Old); n != 1 {
		return "", fmt.Errorf("old occurs %d times, want once", n)
	}
	if err := os.WriteFile(a.Path, []byte(strings.Replace(string(data), a.Old, a.New, 1)), fi.Mode().Perm()); err != nil {
		return "", err
	}
	return "edited", nil
}

func runBash(ctx context.Context, h *Harness, a args) (string, error) {
	return h.cfg.Runner.Run(ctx, h.cfg.Root, a.Command)
}

// rel names a path for the model: relative to the project when it is in
// it.
func (h *Harness) rel(p string) string {
	if r, err := filepath.Rel(h.cfg.Root, p); err == nil && filepath.IsLocal(r) {
		return r
	}
	return p
}
