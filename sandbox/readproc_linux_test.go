// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestReadProc: readProc gives a file whole, past its first buffer and
// past 64 KiB (a container's /proc/self/mountinfo can be larger), and
// "" for a file that is not there; and this process's mountinfo as
// os.ReadFile reads it.
func TestReadProc(t *testing.T) {
	big := bytes.Repeat([]byte("21 26 0:20 / /proc rw,relatime - proc proc rw\n"), 5000) // 230 KB
	name := filepath.Join(t.TempDir(), "mountinfo")
	if err := os.WriteFile(name, big, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := readProc(name); got != string(big) {
		t.Errorf("readProc gave %d bytes of %d", len(got), len(big))
	}
	if got := readProc(filepath.Join(t.TempDir(), "none")); got != "" {
		t.Errorf("a missing file gave %q", got)
	}
	want, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Skip(err)
	}
	if got := readProc("/proc/self/mountinfo"); len(got) == 0 || len(got) != len(want) {
		t.Errorf("mountinfo: %d bytes, os.ReadFile %d", len(got), len(want))
	}
}
