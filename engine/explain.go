// Copyright 2026 The guard Authors. SPDX-License-Identifier: MIT

package engine

import (
	"slices"
	"strings"

	"guard/shellparse"
)

// Explained is how guard read one command, for guard explain. The engine
// fills it only for a call that asks (Call.Explain): recording it costs
// time the hook does not spend.
type Explained struct {
	// Context names the constructs the command sits in, outermost first:
	// "pipeline at 1:1", "command substitution at 1:9".
	Context []string
	// Dirs are the directories the command may run in, as guard resolved
	// them; nil when guard does not know.
	Dirs []string
	// Words is each word or run of words as guard read it, in order, and
	// last the checks of the command as a whole.
	Words []Reading
}

// A Reading is how guard read a word of a command, or a run of them (an
// option and its value), and what reading it added to the verdict.
type Reading struct {
	Words string // as written; "" for the checks of the command as a whole
	As    string // what guard took it for: the command name, an option, an operand, ...
	Rule  string // the rule it was read against; "" when none matched
	Notes []Note // the verdicts reading it added, in order
}

// A Note is one verdict added while a command was read: a rule that
// matched, a check that failed, or the rule's own verdict.
type Note struct {
	Verdict Verdict
	Rule    string
	Why     string
}

// tracer records the readings of the command being decided.
type tracer struct {
	reads   []Reading
	notes   []Note // every verdict added, in order
	claimed []bool // notes a reading holds already
}

func (t *tracer) mark() int {
	if t == nil {
		return 0
	}
	return len(t.notes)
}

// read records words read as as against rule, with the verdicts added
// since mark.
func (t *tracer) read(words []shellparse.Word, as, rule string, mark int) {
	if t == nil {
		return
	}
	src := make([]string, len(words))
	for i, w := range words {
		src[i] = w.Source
	}
	t.reads = append(t.reads, Reading{Words: strings.Join(src, " "), As: as, Rule: rule, Notes: t.since(mark)})
}

// note records a verdict that changes nothing, for guard explain: why a
// part was allowed.
func (t *tracer) note(v Verdict, rule, why string) {
	if t != nil {
		t.add(Note{Verdict: v, Rule: rule, Why: why})
	}
}

// check records a check of a command as a whole against rule, with the
// verdicts added since mark, if any were.
func (t *tracer) check(as, rule string, mark int) {
	if t == nil {
		return
	}
	if notes := t.since(mark); len(notes) > 0 {
		t.reads = append(t.reads, Reading{As: as, Rule: rule, Notes: notes})
	}
}

// since returns the notes added since mark that no reading holds yet,
// and gives them to the caller's.
func (t *tracer) since(mark int) []Note {
	var out []Note
	for i := mark; i < len(t.notes); i++ {
		if !t.claimed[i] {
			out = append(out, t.notes[i])
			t.claimed[i] = true
		}
	}
	return out
}

// add notes a verdict.
func (t *tracer) add(n Note) {
	t.notes = append(t.notes, n)
	t.claimed = append(t.claimed, false)
}

// done returns the readings of the command, with the verdicts no reading
// holds in a last one, so that nothing that decided is left out.
func (t *tracer) done(rule string) []Reading {
	if rest := t.since(0); len(rest) > 0 {
		t.reads = append(t.reads, Reading{As: "other checks of the command", Rule: rule, Notes: rest})
	}
	return t.reads
}

// explainContext returns where a command stands, for its leaf: in the
// scripts of bash -c scripts, and in the constructs of its own script.
func explainContext(c *shellparse.Command, where, scripts []string) *Explained {
	e := &Explained{Dirs: where, Context: slices.Clone(scripts)}
	for _, f := range c.Context {
		s := string(f.Kind)
		if f.Pos.Line > 0 {
			s += " at " + f.Pos.String()
		}
		e.Context = append(e.Context, s)
	}
	return e
}
