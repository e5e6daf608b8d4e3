// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package credential

import (
	"encoding/base64"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The benchmarks run Find over 1 MiB of four kinds of text, with no
// credential and with one at the end: go test -bench Find.

const benchSize = 1 << 20

// readGo returns n bytes of Go source from GOROOT/src/net, or skips.
func readGo(tb testing.TB, n int) string {
	dir := filepath.Join(build.Default.GOROOT, "src", "net")
	var b strings.Builder
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil || b.Len() >= n:
			return fs.SkipAll
		case d.IsDir() && d.Name() == "testdata":
			return fs.SkipDir
		case strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go"):
			data, err := os.ReadFile(path)
			if err == nil {
				b.Write(data)
			}
		}
		return nil
	})
	if b.Len() < n {
		tb.Skipf("found %d bytes of Go source in %s, want %d", b.Len(), dir, n)
	}
	return b.String()[:n]
}

// readJS returns n bytes of minified JavaScript from GOROOT, repeated as
// needed, or skips.
func readJS(tb testing.TB, n int) string {
	name := filepath.Join(build.Default.GOROOT, "src", "internal", "trace", "traceviewer", "static", "webcomponents.min.js")
	data, err := os.ReadFile(name)
	if err != nil || len(data) == 0 {
		tb.Skipf("no minified JavaScript: %v", err)
	}
	return strings.Repeat(string(data), n/len(data)+1)[:n]
}

func randomBytes(n int) []byte {
	c := newChars(4)
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(c.r.Uint32())
	}
	return b
}

func BenchmarkFind(b *testing.B) {
	corpora := []struct {
		name string
		text func(testing.TB) []byte
	}{
		{"go", func(tb testing.TB) []byte { return []byte(readGo(tb, benchSize)) }},
		{"minjs", func(tb testing.TB) []byte { return []byte(readJS(tb, benchSize)) }},
		{"random", func(testing.TB) []byte { return randomBytes(benchSize) }},
		{"base64", func(testing.TB) []byte {
			return []byte(wrap(base64.StdEncoding.EncodeToString(randomBytes(benchSize)), 76)[:benchSize])
		}},
	}
	tok := "\nghp_" + newChars(5).of(alnum, 36) + "\n"
	for _, c := range corpora {
		b.Run(c.name+"/none", func(b *testing.B) {
			data := c.text(b)
			if m, ok := Find(data); ok {
				b.Fatalf("Find = %+v", m)
			}
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				Find(data)
			}
		})
		b.Run(c.name+"/end", func(b *testing.B) {
			data := c.text(b)
			copy(data[len(data)-len(tok):], tok)
			if m, ok := Find(data); !ok || m.Rule != "github-pat" {
				b.Fatalf("Find = %+v, %v", m, ok)
			}
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				Find(data)
			}
		})
	}
}
