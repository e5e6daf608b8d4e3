// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package sandbox

import (
	"strconv"
	"strings"
)

// Seatbelt returns the rules as a profile for macOS's sandbox-exec, in its
// Scheme-like profile language: everything is denied but what the rules
// grant. Read grants read and execute under a path, Write also write,
// List the listing of directories; devices are read and written; no
// network but Unix sockets. It follows the same rules as Landlock on
// Linux, and is tested here only as text: it has not run on real macOS.
func Seatbelt(r Rules) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(deny default)\n")
	b.WriteString("; what any process needs to start and run\n")
	b.WriteString("(allow process-fork)\n(allow signal (target same-sandbox))\n")
	b.WriteString("(allow sysctl-read)\n(allow mach-lookup)\n(allow ipc-posix-shm)\n(allow file-read-metadata)\n")
	b.WriteString("(allow network-outbound (remote unix-socket))\n")
	rule := func(action string, paths []string, dirs bool) {
		if len(paths) == 0 {
			return
		}
		b.WriteString("(allow " + action)
		for _, p := range paths {
			kind := "subpath"
			if !dirs {
				kind = "literal"
			}
			b.WriteString("\n  (" + kind + " " + sbString(p) + ")")
		}
		b.WriteString(")\n")
	}
	b.WriteString("; read and execute\n")
	rule("file-read* process-exec", r.Read, true)
	b.WriteString("; write\n")
	rule("file-read* file-write* process-exec", r.Write, true)
	b.WriteString("; list without reading the files\n")
	rule("file-read-data", r.List, false)
	b.WriteString("; devices\n")
	rule("file-read* file-write-data file-ioctl", r.Devices, false)
	for _, port := range r.Connect {
		b.WriteString("(allow network-outbound (remote tcp " + sbString("*:"+strconv.Itoa(int(port))) + "))\n")
	}
	return b.String()
}

// sbString quotes s for the profile language.
func sbString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
