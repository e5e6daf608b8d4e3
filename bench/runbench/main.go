// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

// Command runbench times guard run, the jail an allowed command runs in,
// as whole processes against a baseline, each pair interleaved so that
// noise on a shared machine hits both alike:
//
//	go run ./bench/runbench [-n 100] [-sizes 1000,10000,100000] [-json]
//
// It builds guard and bench/baseline (a Go program that reads its empty
// standard input and exits: the cost of starting a Go process) with
// CGO_ENABLED=0 -trimpath into a temporary directory, makes a fixture
// project of each size (files in directories of 50, a .env, a .git), and
// times guard run -- /bin/true (the project writable through guard, and
// --read-only) against the baseline, after a first run that finds the
// project's secrets and caches them; the first run's time is reported
// too. Then a go test of a fixture module (warm build cache) with and
// without guard run --profile test. Every run must exit 0; anything else
// stops runbench with exit status 1.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// main fails by panicking, which exits 2: only guard's own main exits by
// os.Exit.
func main() {
	n := flag.Int("n", 100, "runs of each command, and of the baseline")
	sizes := flag.String("sizes", "1000,10000,100000", "the fixture projects' numbers of files")
	asJSON := flag.Bool("json", false, "print the results as JSON")
	flag.Parse()
	var ns []int
	for _, f := range strings.Split(*sizes, ",") {
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 {
			fmt.Fprintf(os.Stderr, "runbench: -sizes: %q is not a number of files\n", f)
			panic("runbench failed")
		}
		ns = append(ns, v)
	}
	if err := bench(*n, ns, *asJSON, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "runbench: %v\n", err)
		panic("runbench failed")
	}
}

// Result is one command's figures: its median and the baseline's, taken
// in the same pairs, and the first run's time.
type Result struct {
	Command    string  `json:"command"`
	Files      int     `json:"files,omitempty"`
	Runs       int     `json:"runs"`
	Baseline   string  `json:"baseline"`
	BaseNs     int64   `json:"baseline_median_ns"`
	ConfinedNs int64   `json:"confined_median_ns"`
	FirstNs    int64   `json:"first_run_ns,omitempty"`
	Ratio      float64 `json:"ratio_of_medians"`
}

func bench(n int, sizes []int, asJSON bool, w io.Writer) error {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "runbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	guard, baseline := filepath.Join(tmp, "guard"), filepath.Join(tmp, "baseline")
	for _, b := range [][2]string{{guard, "./cmd/guard"}, {baseline, "./bench/baseline"}} {
		build := exec.Command(gobin, "build", "-trimpath", "-o", b[0], b[1])
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("go build %s: %v", b[1], err)
		}
	}
	home := filepath.Join(tmp, "home")
	for _, f := range []string{"home/.ssh/id_rsa", "home/.gitconfig", "home/.cache/go-build/.keep"} {
		if err := write(filepath.Join(tmp, f), "x\n"); err != nil {
			return err
		}
	}
	env := []string{"HOME=" + home, "TMPDIR=" + filepath.Join(tmp, "tmp"), "PATH=" + filepath.Dir(gobin) + ":/usr/bin:/bin",
		"GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "XDG_STATE_HOME=" + filepath.Join(tmp, "state")}
	if err := os.MkdirAll(filepath.Join(tmp, "tmp"), 0o755); err != nil {
		return err
	}
	var results []Result
	for _, size := range sizes {
		proj := filepath.Join(tmp, "proj"+strconv.Itoa(size))
		if err := fixture(proj, size); err != nil {
			return err
		}
		for _, c := range []struct {
			name string
			args []string
		}{
			{"guard run -- true", []string{guard, "run", "--", "/bin/true"}},
			{"guard run --read-only -- true", []string{guard, "run", "--read-only", "--", "/bin/true"}},
		} {
			r, err := pair(proj, env, c.args, []string{baseline}, n)
			if err != nil {
				return err
			}
			r.Command, r.Files, r.Baseline = c.name, size, "baseline"
			results = append(results, r)
		}
	}
	mod := filepath.Join(tmp, "mod")
	for name, data := range map[string]string{
		"go.mod":          "module fixture\n\ngo 1.26\n",
		"pkg/pkg.go":      "package pkg\n\nfunc Sum(a, b int) int { return a + b }\n",
		"pkg/pkg_test.go": "package pkg\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tif Sum(1, 2) != 3 {\n\t\tt.Fatal(\"sum\")\n\t}\n}\n",
	} {
		if err := write(filepath.Join(mod, name), data); err != nil {
			return err
		}
	}
	test := []string{gobin, "test", "-count=1", "./pkg"}
	r, err := pair(mod, env, append([]string{guard, "run", "--profile", "test", "--"}, test...), test, max(n/10, 5))
	if err != nil {
		return err
	}
	r.Command, r.Baseline = "guard run --profile test -- go test ./pkg (warm cache)", "go test ./pkg"
	results = append(results, r)
	if asJSON {
		return json.NewEncoder(w).Encode(map[string]any{"go_version": runtime.Version(), "cpus": runtime.NumCPU(), "results": results})
	}
	fmt.Fprintln(w, "| command | project files | runs | baseline | its median | median | ratio | first run |")
	fmt.Fprintln(w, "|---|---:|---:|---|---:|---:|---:|---:|")
	for _, r := range results {
		files, first := "", ""
		if r.Files > 0 {
			files = strconv.Itoa(r.Files)
		}
		if r.FirstNs > 0 {
			first = ms(r.FirstNs)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %.2fx | %s |\n", r.Command, files, r.Runs, r.Baseline, ms(r.BaseNs), ms(r.ConfinedNs), r.Ratio, first)
	}
	return nil
}

// pair times args against base, interleaved, n times each, after a first
// run of each that is not counted but for args' own time.
func pair(dir string, env, args, base []string, n int) (Result, error) {
	start := time.Now()
	if err := runOnce(dir, env, args); err != nil {
		return Result{}, err
	}
	first := time.Since(start)
	if err := runOnce(dir, env, base); err != nil {
		return Result{}, err
	}
	var b, c []time.Duration
	for range n {
		start := time.Now()
		if err := runOnce(dir, env, base); err != nil {
			return Result{}, err
		}
		b = append(b, time.Since(start))
		start = time.Now()
		if err := runOnce(dir, env, args); err != nil {
			return Result{}, err
		}
		c = append(c, time.Since(start))
	}
	p, q := median(b), median(c)
	return Result{Runs: n, BaseNs: p.Nanoseconds(), ConfinedNs: q.Nanoseconds(), FirstNs: first.Nanoseconds(), Ratio: float64(q) / float64(p)}, nil
}

// fixture makes a project of files files, 50 to a directory, 20
// directories to one above, with a .env and a .git.
func fixture(proj string, files int) error {
	for i := range files {
		dir := filepath.Join(proj, "src", "d"+strconv.Itoa(i/1000), "e"+strconv.Itoa(i/50%20))
		if i%50 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i)+".go"), nil, 0o644); err != nil {
			return err
		}
	}
	for name, data := range map[string]string{".env": "TOKEN=1\n", ".git/HEAD": "ref: refs/heads/main\n", ".git/config": "[core]\n"} {
		if err := write(filepath.Join(proj, name), data); err != nil {
			return err
		}
	}
	// The tree is not new: a directory changed in the last moments is
	// read on every run (sandbox.Scan).
	old := time.Now().Add(-time.Hour)
	return filepath.Walk(proj, func(p string, fi os.FileInfo, err error) error {
		if err != nil || !fi.IsDir() {
			return err
		}
		return os.Chtimes(p, old, old)
	})
}

func write(p, data string) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(data), 0o600)
}

// runOnce runs args in dir, its standard input empty, and fails unless it
// exits 0.
func runOnce(dir string, env, args []string) error {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %v: %s", args, err, out)
	}
	return nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(ns int64) string { return fmt.Sprintf("%.2f ms", float64(ns)/1e6) }
