// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

//go:build linux

// Command runbench times guard run, the sandbox an allowed command runs
// in, against the same command unconfined, as whole processes, each pair
// interleaved so that noise on a shared machine hits both alike:
//
//	go run ./bench/runbench [-n 100] [-json]
//
// It builds guard (CGO_ENABLED=0, -trimpath) into a temporary directory
// with a fixture project, home and temp dir, and times /bin/true and a go
// test of a fixture module (warm build cache) with and without guard run.
// Every run must exit 0; anything else stops runbench with exit status 1.
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
	"time"
)

// main fails by panicking, which exits 2: only guard's own main exits by
// os.Exit.
func main() {
	n := flag.Int("n", 100, "runs of each command, confined and not")
	asJSON := flag.Bool("json", false, "print the results as JSON")
	flag.Parse()
	if err := bench(*n, *asJSON, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "runbench: %v\n", err)
		panic("runbench failed")
	}
}

// Result is one command's figures.
type Result struct {
	Command    string  `json:"command"`
	Runs       int     `json:"runs"`
	PlainNs    int64   `json:"plain_median_ns"`
	ConfinedNs int64   `json:"confined_median_ns"`
	Ratio      float64 `json:"ratio_of_medians"`
}

func bench(n int, asJSON bool, w io.Writer) error {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "runbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	guard := filepath.Join(tmp, "guard")
	build := exec.Command(gobin, "build", "-trimpath", "-o", guard, "./cmd/guard")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build: %v", err)
	}
	proj, home, ttmp := filepath.Join(tmp, "proj"), filepath.Join(tmp, "home"), filepath.Join(tmp, "tmp")
	files := map[string]string{
		"proj/go.mod":            "module fixture\n\ngo 1.26\n",
		"proj/pkg/pkg.go":        "package pkg\n\nfunc Sum(a, b int) int { return a + b }\n",
		"proj/pkg/pkg_test.go":   "package pkg\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tif Sum(1, 2) != 3 {\n\t\tt.Fatal(\"sum\")\n\t}\n}\n",
		"proj/.env":              "TOKEN=1\n",
		"proj/.git/config":       "[core]\n",
		"home/.ssh/id_rsa":       "key\n",
		"tmp/.keep":              "",
		"home/.cache/go-build/.": "",
	}
	for name, data := range files {
		p := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if filepath.Base(name) == "." {
			continue
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			return err
		}
	}
	env := []string{"HOME=" + home, "TMPDIR=" + ttmp, "PATH=" + filepath.Dir(gobin) + ":/usr/bin:/bin", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod"}
	var results []Result
	for _, c := range []struct {
		name string
		args []string
		runs int
	}{
		{"true", []string{"/bin/true"}, n},
		{"go test ./pkg (warm cache)", []string{gobin, "test", "-count=1", "./pkg"}, max(n/10, 5)},
	} {
		// Warm up: the build cache, the page cache.
		for range 2 {
			if err := runOnce(proj, env, c.args); err != nil {
				return err
			}
			if err := runOnce(proj, env, append([]string{guard, "run", "--"}, c.args...)); err != nil {
				return err
			}
		}
		var plain, confined []time.Duration
		for range c.runs {
			start := time.Now()
			if err := runOnce(proj, env, c.args); err != nil {
				return err
			}
			plain = append(plain, time.Since(start))
			start = time.Now()
			if err := runOnce(proj, env, append([]string{guard, "run", "--"}, c.args...)); err != nil {
				return err
			}
			confined = append(confined, time.Since(start))
		}
		p, q := median(plain), median(confined)
		results = append(results, Result{Command: c.name, Runs: c.runs, PlainNs: p.Nanoseconds(), ConfinedNs: q.Nanoseconds(), Ratio: float64(q) / float64(p)})
	}
	if asJSON {
		return json.NewEncoder(w).Encode(map[string]any{"go_version": runtime.Version(), "cpus": runtime.NumCPU(), "results": results})
	}
	fmt.Fprintln(w, "| command | runs | unconfined | under guard run | ratio |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	for _, r := range results {
		fmt.Fprintf(w, "| %s | %d | %s | %s | %.2fx |\n", r.Command, r.Runs, ms(r.PlainNs), ms(r.ConfinedNs), r.Ratio)
	}
	return nil
}

// runOnce runs args in dir and fails unless it exits 0.
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
