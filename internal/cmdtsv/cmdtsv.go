// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package cmdtsv is the one escaping of testcases/data's corpora of shell
// commands (nl2bash.tsv, agentcmds.tsv): a command's TAB, LF, CR and NUL,
// which would break a line or a column, are written as the markers ⟨TAB⟩,
// ⟨LF⟩, ⟨CR⟩ and ⟨NUL⟩. It has no stability promise.
package cmdtsv

import "strings"

// Markers are the markers, in the order of the characters they stand for.
var Markers = []string{"⟨TAB⟩", "⟨LF⟩", "⟨CR⟩", "⟨NUL⟩"}

var (
	escaper   = strings.NewReplacer("\t", Markers[0], "\n", Markers[1], "\r", Markers[2], "\x00", Markers[3])
	unescaper = strings.NewReplacer(Markers[0], "\t", Markers[1], "\n", Markers[2], "\r", Markers[3], "\x00")
)

// Escape writes a command for a column of the corpus.
func Escape(command string) string { return escaper.Replace(command) }

// Unescape reads a command back from a column of the corpus.
func Unescape(column string) string { return unescaper.Replace(column) }
