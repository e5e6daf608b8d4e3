// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

// Package audit is guard's decision log: one JSON line for every decision,
// appended to files in one directory, chained so that a changed log can be
// told from the one guard wrote.
//
// # What the log promises
//
// [Log.Append] writes each [Entry] as one line with one write to
// decisions.jsonl, under an exclusive lock on the directory, so that many
// guard processes appending at once lose no line and mix no two lines. The
// lines of each session are numbered 1, 2, 3, … (seq), and each line
// carries the SHA-256 of the line before it in its session (prev). A small
// head file per session holds the number and hash of its last line. When
// decisions.jsonl would grow past [Log.MaxSize], it is renamed to
// decisions-000001.jsonl (then 000002, …) and a new one is started. The
// package never deletes a file.
//
// [Verify] reads the log back and reports, by file and line, each line that
// was edited, removed, inserted, copied or moved, and a last line that was
// removed (the head no longer matches). Lines that a user removed on
// purpose, such as old rotated files, are reported too: the chain of a
// session then starts in the middle. [Read] and Verify may run while guard
// appends: they see the log as it was at one moment.
//
// # What it does not promise
//
// The log is tamper-evident, not tamper-proof. Anyone who can write the
// files can rewrite a session's chain from the changed line on, head file
// included, and Verify then finds nothing; the chain only makes a change
// that stops short of that visible. A whole session removed together with
// its head file leaves no trace either. The log orders the lines of each
// session, not the sessions: lines of two sessions can trade places
// unseen, and the times in the lines are not checked. The files are not
// synced to disk: a crash of the machine may lose the last lines, or leave
// a head file one line behind its log, which Verify then reports as an
// added line.
//
// The log lives in a directory that an attacker may try to redirect:
// Append refuses a directory or a file that is a symbolic link, makes the
// directory with mode 0700 and its files with mode 0600, and never puts a
// session id that is not a plain name into a file name (see [Entry]).
//
// [Redact] masks secrets in the one-line form of a call before the caller
// puts it in an entry; the log stores what it is given.
//
// The package runs on Unix systems (it locks with flock(2)). This package
// has no API stability promise outside this module.
package audit
