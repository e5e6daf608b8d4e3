// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package audit

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
)

// Verify checks the log in dir and returns its problems, in the order of
// the log: the lines [Read] cannot read, and every place where a session's
// chain is broken. In each session the lines must hold seq 1, 2, 3, … in
// the order of the log, each with the hash of the one before as its prev,
// and the last must match the session's head file. Verify tells, as far as
// the chain shows it, which line was edited, removed, inserted, copied or
// moved, or had its seq changed. The error is for a directory that cannot
// be read.
//
// Verify, like Read, sees the log as it was at one moment: it takes the
// log's lock, shared, while it lists the files, opens the current one and
// reads the head files, and reads the lines after it lets the lock go. It
// may run while guard appends.
func Verify(dir string) ([]Problem, error) {
	snap, err := takeSnapshot(dir, true)
	if err != nil {
		return nil, fmt.Errorf("verifying the decision log: %w", err)
	}
	records, problems := snap.read(dir)
	problems = append(problems, snap.headProblems...)
	heads := snap.heads
	sessions, order := bySession(records)
	for _, s := range order {
		problems = append(problems, checkSession(s, sessions[s], heads)...)
	}
	for s := range heads {
		if sessions[s] == nil && heads[s] != nil {
			problems = append(problems, Problem{File: headsDir + "/" + s, Err: "session " + s + " has a head file but no lines: its lines were removed"})
		}
	}
	sortProblems(problems)
	return problems, nil
}

// bySession returns the lines of each session, and the sessions in the
// order of their first lines.
func bySession(records []Record) (map[string][]*link, []string) {
	sessions := map[string][]*link{}
	var order []string
	for i := range records {
		r := &records[i]
		s := r.Entry.Session
		if sessions[s] == nil {
			order = append(order, s)
		}
		sessions[s] = append(sessions[s], &link{rec: r, pos: i, seq: r.Entry.Seq, hash: hashLine(r.Raw)})
	}
	return sessions, order
}

// sortProblems sorts problems in the order of the log: the rotated files
// by their numbers, then decisions.jsonl, then the head files.
func sortProblems(problems []Problem) {
	rank := func(file string) int {
		if n, ok := rotatedNumber(file); ok {
			return n
		}
		if file == currentFile {
			return math.MaxInt - 1
		}
		return math.MaxInt
	}
	slices.SortStableFunc(problems, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(rank(a.File), rank(b.File)), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
}

// link is a line in its session's chain.
type link struct {
	rec  *Record
	pos  int   // the line's place in the whole log, from 0
	seq  int64 // the seq the line holds in the chain: its own, or the one its prev shows when the seq was changed
	hash string
}

// chain is one session's lines, as Verify checks them.
type chain struct {
	session  string
	links    []*link // in the order of the log
	head     head
	hasHead  bool
	byHash   map[string]*link
	bySeq    map[int64]*link // the line kept for each seq
	seqs     []int64         // the keys of bySeq, in order
	reported map[*link]bool  // the lines with a problem: one problem a line
	problems []Problem
}

// checkSession returns the problems of one session's lines, given the
// heads of the log. A line gets one problem at most, the first found: a
// changed seq, a seq held twice, missing lines before it, a mismatch with
// the head, a place out of order, then a prev that does not match.
func checkSession(session string, links []*link, heads map[string]*head) []Problem {
	c := &chain{session: session, links: links,
		byHash: map[string]*link{}, bySeq: map[int64]*link{}, reported: map[*link]bool{}}
	for _, l := range links {
		if c.byHash[l.hash] == nil {
			c.byHash[l.hash] = l
		}
	}
	h, known := heads[session]
	switch {
	case !validSession(session):
		c.problemf(links[0], "session %q is not a session id: Append never writes it", session)
	case !known:
		c.problems = append(c.problems, Problem{File: headsDir + "/" + session,
			Err: fmt.Sprintf("missing: session %s has lines (the first at %s) but no head file", session, where(links[0]))})
	case h != nil:
		c.head, c.hasHead = *h, true
	}
	c.changedSeqs()
	c.place()
	c.gaps()
	c.checkHead()
	c.order()
	c.edges()
	return c.problems
}

// problemf reports a problem on a line, unless the line has one already.
func (c *chain) problemf(l *link, format string, a ...any) {
	if c.reported[l] {
		return
	}
	c.reported[l] = true
	c.problems = append(c.problems, Problem{File: l.rec.File, Line: l.rec.Line, Err: fmt.Sprintf(format, a...)})
}

// ref names line to as seen from a problem on line from: "line 8", or
// "decisions-000001.jsonl:8" in another file.
func ref(from, to *link) string {
	if from.rec.File == to.rec.File {
		return "line " + strconv.Itoa(to.rec.Line)
	}
	return where(to)
}

// where names a line as "file:line".
func where(l *link) string {
	return l.rec.File + ":" + strconv.Itoa(l.rec.Line)
}

// changedSeqs finds the lines whose seq does not follow the line their
// prev is the hash of, and gives them the seq the chain shows.
func (c *chain) changedSeqs() {
	for _, l := range c.links {
		if l.rec.Entry.Prev == "" {
			if l.seq != 1 {
				c.problemf(l, "session %s seq %d has no prev, which only seq 1 has: the line was edited or inserted", c.session, l.seq)
				l.seq = 1
			}
			continue
		}
		p := c.byHash[l.rec.Entry.Prev]
		if p == nil || l.seq == p.rec.Entry.Seq+1 {
			continue
		}
		c.problemf(l, "session %s seq %d follows seq %d (%s) in the chain: its seq was changed from %d",
			c.session, l.seq, p.rec.Entry.Seq, ref(l, p), p.rec.Entry.Seq+1)
		l.seq = p.rec.Entry.Seq + 1
	}
}

// place keeps one line for each seq: where several hold it, the one the
// chain goes on from, and reports the others.
func (c *chain) place() {
	groups := map[int64][]*link{}
	for _, l := range c.links {
		groups[l.seq] = append(groups[l.seq], l)
	}
	c.seqs = slices.Sorted(maps.Keys(groups))
	for _, seq := range c.seqs {
		group := groups[seq]
		keep := c.pick(group, groups[seq+1])
		c.bySeq[seq] = keep
		for _, l := range group {
			switch {
			case l == keep:
			case bytes.Equal(l.rec.Raw, keep.rec.Raw):
				c.problemf(l, "session %s seq %d repeats %s: the line was copied", c.session, seq, ref(l, keep))
			default:
				c.problemf(l, "session %s seq %d appears again (%s), and the chain goes on from the other line: this one was inserted or edited",
					c.session, seq, ref(l, keep))
			}
		}
	}
}

// pick returns the line of a group holding the same seq that the chain
// goes on from: the one line whose hash the next seq's line or the head
// holds, else the first line without a problem, else the first.
func (c *chain) pick(group, next []*link) *link {
	if len(group) == 1 {
		return group[0]
	}
	var fit []*link
	for _, l := range group {
		if c.continues(l, next) {
			fit = append(fit, l)
		}
	}
	if len(fit) == 1 {
		return fit[0]
	}
	for _, l := range group {
		if !c.reported[l] {
			return l
		}
	}
	return group[0]
}

// continues reports whether the chain goes on from a line: one of the
// lines holding the next seq has its hash as prev, or the head does.
func (c *chain) continues(l *link, next []*link) bool {
	if c.hasHead && c.head.seq == l.seq && c.head.hash == l.hash {
		return true
	}
	for _, n := range next {
		if n.rec.Entry.Prev == l.hash {
			return true
		}
	}
	return false
}

// gaps reports the seqs missing before a session's first line and between
// its lines.
func (c *chain) gaps() {
	prev := int64(0)
	for _, seq := range c.seqs {
		l := c.bySeq[seq]
		missing := seq - prev - 1
		switch {
		case missing > 0 && prev == 0:
			c.problemf(l, "session %s starts at seq %d: %s missing before it (removed, or in a log file that was deleted)",
				c.session, seq, lines(missing))
		case missing > 0:
			c.problemf(l, "session %s seq %d follows seq %d: %s missing", c.session, seq, prev, lines(missing))
		}
		prev = seq
	}
}

// lines says how many lines are missing.
func lines(n int64) string {
	if n == 1 {
		return "a line is"
	}
	return strconv.FormatInt(n, 10) + " lines are"
}

// order reports the lines that stand out of their seq's order: those
// outside the longest run of the session's lines whose places in the log
// rise with their seq.
func (c *chain) order() {
	inOrder := longestRising(c.seqs, func(seq int64) int { return c.bySeq[seq].pos })
	for i, seq := range c.seqs {
		if inOrder[i] {
			continue
		}
		l := c.bySeq[seq]
		if i > 0 && c.bySeq[c.seqs[i-1]].pos > l.pos {
			p := c.bySeq[c.seqs[i-1]]
			c.problemf(l, "session %s seq %d comes before seq %d (%s): the lines were moved", c.session, seq, c.seqs[i-1], ref(l, p))
		} else if i+1 < len(c.seqs) {
			n := c.bySeq[c.seqs[i+1]]
			c.problemf(l, "session %s seq %d comes after seq %d (%s): the lines were moved", c.session, seq, c.seqs[i+1], ref(l, n))
		}
	}
}

// longestRising reports, for each item, whether it is in a longest
// subsequence of items whose keys rise.
func longestRising[T any](items []T, key func(T) int) []bool {
	// tails[k] is the index of the item that ends the rising run of
	// length k+1 with the smallest key; back links each item to the one
	// before it in its run.
	var tails []int
	back := make([]int, len(items))
	for i, it := range items {
		k, _ := slices.BinarySearchFunc(tails, key(it), func(j, target int) int { return cmp.Compare(key(items[j]), target) })
		back[i] = -1
		if k > 0 {
			back[i] = tails[k-1]
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	in := make([]bool, len(items))
	if len(tails) > 0 {
		for i := tails[len(tails)-1]; i >= 0; i = back[i] {
			in[i] = true
		}
	}
	return in
}

// edges reports the lines whose prev is not the hash of the line before
// them in the chain. When the later line's own hash still carries the
// chain on, the earlier line was edited; else the later one was.
func (c *chain) edges() {
	for _, seq := range c.seqs {
		b := c.bySeq[seq]
		if seq == 1 {
			if b.rec.Entry.Prev != "" {
				c.problemf(b, "session %s seq 1 has a prev, which a first line has not: the line was edited", c.session)
			}
			continue
		}
		a := c.bySeq[seq-1]
		if a == nil || b.rec.Entry.Prev == a.hash {
			continue
		}
		var next []*link
		if n := c.bySeq[seq+1]; n != nil {
			next = []*link{n}
		}
		if c.continues(b, next) {
			c.problemf(a, "session %s seq %d was edited: its hash is not the prev of %s (seq %d)", c.session, a.seq, ref(a, b), seq)
		} else {
			c.problemf(b, "session %s seq %d was edited: its prev is not the hash of %s (seq %d)", c.session, seq, ref(b, a), a.seq)
		}
	}
}

// checkHead reports the lines that do not end where the session's head
// file says the session ends.
func (c *chain) checkHead() {
	if !c.hasHead || len(c.seqs) == 0 {
		return
	}
	if l := c.bySeq[c.head.seq]; l != nil && l.hash != c.head.hash {
		c.problemf(l, "session %s seq %d does not match its head file: the line was edited", c.session, l.seq)
	}
	last := c.seqs[len(c.seqs)-1]
	if c.head.seq > last {
		c.problemf(c.bySeq[last], "session %s ends at seq %d, but its head file says seq %d: %s missing at the end",
			c.session, last, c.head.seq, lines(c.head.seq-last))
	}
	for _, seq := range c.seqs {
		if seq > c.head.seq {
			c.problemf(c.bySeq[seq], "session %s seq %d is past its head file, which ends at seq %d: the line was added",
				c.session, seq, c.head.seq)
		}
	}
}
