package ingest

import (
	"hash/maphash"

	"github.com/profan-dev/profan"
)

// launchRows holds a details page's launches (or a summary page's
// kernels) to the metric rows of its first, place by place: every launch
// of a page has the same metric rows (the sections asked for), so a launch
// with one row more or one row
// less than the first, the rest in step, has a row written twice where the
// row at that place repeats a row before it. The row is refused at its
// line, in the launch that has it: the first launch's doubled row
// otherwise made every later launch look one row short, and the last one
// be called cut short. Where the doubled row is the first launch's last
// and the last launch ends one row short, the export is either cut short
// or has a line written twice, and is refused saying both.
//
// The rows of the second launch on are hashed only from the first place
// where they leave the names the page's metricRows remember, so an intact
// page pays one comparison a row.
type launchRows struct {
	// summary says the blocks are a summary page's kernels (named by
	// their name), not a details page's launches (by ID and name).
	summary bool
	seed    maphash.Seed
	h       maphash.Hash
	ref     []launchRow // the first launch's metric rows
	// The first launch, the second and the current one: ID, kernel, line
	// of the first row.
	firstID, firstName, secondID, secondName, id, name string
	firstLine, secondLine, line, block                 int
	// The metric rows of the first and second launches, and the count
	// the page's launches have (0 while the first two differ).
	firstN, secondN, norm int
	// From the second launch on: the first place its rows left the page's
	// remembered names (-1: none), that row's line and metric, and whether
	// its rows from there are the first launch's one place on (it lacks
	// ref[div]) or one place back (the row at div is one more, a repeat of
	// an earlier row of the first launch).
	div, divLine int
	divName      string
	lacks, extra bool
}

// launchRow is a metric row of the first launch: its names' hash and line.
type launchRow struct {
	h    uint64
	line int
}

// reset forgets the first launch: another capture starts.
func (l *launchRows) reset() {
	l.ref, l.block = l.ref[:0], 0
}

// start begins a launch, the block'th of its capture, whose first row is
// at line.
func (l *launchRows) start(k *profan.Kernel, line, block int) {
	if l.seed == (maphash.Seed{}) {
		l.seed = maphash.MakeSeed()
		l.h.SetSeed(l.seed)
	}
	switch block {
	case 1:
		l.ref = l.ref[:0]
		l.firstID, l.firstName, l.firstLine = k.ID, k.Name, line
		l.firstN, l.secondN, l.norm = 0, 0, 0
	case 2:
		l.secondID, l.secondName, l.secondLine = k.ID, k.Name, line
	}
	l.id, l.name, l.line, l.block = k.ID, k.Name, line, block
	l.div, l.lacks, l.extra = -1, false, false
}

// hash returns the hash of a metric row's names.
func (l *launchRows) hash(section, label, name, unit []byte) uint64 {
	l.h.Reset()
	for _, b := range [][]byte{section, label, name, unit} {
		l.h.Write(b)
		l.h.WriteByte(0)
	}
	return l.h.Sum64()
}

// row reads the metric row at place i of the current launch (at line, its
// metric read as metric); hit says its names are those the page
// remembers at that place.
func (l *launchRows) row(i int, hit bool, line int, metric string, section, label, name, unit []byte) {
	switch {
	case l.block == 1:
		if len(l.ref) < maxKernelMetrics {
			l.ref = append(l.ref, launchRow{h: l.hash(section, label, name, unit), line: line})
		}
		return
	case l.block < 1 || len(l.ref) == 0 || l.div < 0 && hit && i < len(l.ref):
		return
	}
	h := l.hash(section, label, name, unit)
	if l.div < 0 {
		if i < len(l.ref) && h == l.ref[i].h {
			return // the first launch's row at its place, not the names remembered
		}
		l.div, l.divLine, l.divName = i, line, metric
		l.lacks = i+1 < len(l.ref) && h == l.ref[i+1].h
		l.extra = l.repeats(i, h) >= 0
		return
	}
	l.lacks = l.lacks && i+1 < len(l.ref) && h == l.ref[i+1].h
	l.extra = l.extra && i-1 < len(l.ref) && h == l.ref[i-1].h
}

// repeats returns the place of the last row of the first launch before
// place i whose names hash to h, or -1.
func (l *launchRows) repeats(i int, h uint64) int {
	for q := min(i, len(l.ref)) - 1; q >= 0; q-- {
		if l.ref[q].h == h {
			return q
		}
	}
	return -1
}

// end checks the launch read, which had n metric rows and its last row at
// line last, against the first (row by row where they are in step, then
// by count); atEnd says the export ends with it.
func (l *launchRows) end(t *table, n, last int, atEnd bool) error {
	if l.block == 1 {
		l.firstN = n
	}
	if l.block < 2 {
		return nil
	}
	if err := l.inStep(t, n, last, atEnd); err != nil {
		return err
	}
	return l.count(t, n, last, atEnd)
}

// inStep finds, where the launch's rows are in step with the first's but
// for one, the row written twice, and refuses it at its line.
func (l *launchRows) inStep(t *table, n, last int, atEnd bool) error {
	if len(l.ref) == 0 || len(l.ref) >= maxKernelMetrics {
		return nil
	}
	first := len(l.ref)
	switch {
	case n == first-1 && (l.div < 0 || l.lacks):
		p := l.div
		if p < 0 {
			p = n // the launch is the first's rows but its last
		}
		q := l.repeats(p, l.ref[p].h)
		if q < 0 {
			return nil // a row the first launch has once: the counts' check
		}
		if l.div < 0 && atEnd {
			return t.Errorf(last, "%s ends after %d metric rows where %s (line %d) has %d, its last (line %d) the row of line %d again: the export is cut short, or %s has a line written twice",
				l.named(l.id, l.name), n, l.named(l.firstID, l.firstName), l.firstLine, first, l.ref[p].line, l.ref[q].line, l.named(l.firstID, l.firstName))
		}
		return t.Errorf(l.ref[p].line, "%s has the metric row of line %d again, where %s (line %d) has it once (a line written twice?)",
			l.named(l.firstID, l.firstName), l.ref[q].line, l.named(l.id, l.name), l.line)
	case n == first+1 && l.div >= 0 && l.extra:
		return t.Errorf(l.divLine, "%s has its metric row %s again, where %s (line %d) has it once (a line written twice?)",
			l.named(l.id, l.name), l.divName, l.named(l.firstID, l.firstName), l.firstLine)
	}
	return nil
}

// count holds the launch's metric rows to the count the page's launches
// have, where the rows are not in step (a --print-details all page orders
// a breakdown's rows by value, launch by launch): a launch with more rows
// than the others has a row written twice, refused at its first line.
// The first two launches set the count; where they differ, the third
// tells which is the odd one; two launches alone that differ by a row
// are refused, saying both readings (by more, the last is cut short: the
// page's own check).
func (l *launchRows) count(t *table, n, last int, atEnd bool) error {
	switch {
	case l.block == 2:
		l.secondN = n
		switch {
		case n == l.firstN:
			l.norm = n
		case atEnd && n == l.firstN-1:
			return t.Errorf(last, "%s ends after %d metric rows where %s (line %d) has %d: the export is cut short, or %s has a row written twice",
				l.named(l.id, l.name), n, l.named(l.firstID, l.firstName), l.firstLine, l.firstN, l.named(l.firstID, l.firstName))
		case atEnd && n == l.firstN+1:
			return t.Errorf(l.line, "%s has %d metric rows where %s (line %d) has %d: a row written twice in it, or one lost from the first",
				l.named(l.id, l.name), n, l.named(l.firstID, l.firstName), l.firstLine, l.firstN)
		}
	case l.norm == 0 && l.block == 3:
		switch {
		case n == l.secondN && l.firstN > n:
			return t.Errorf(l.firstLine, "%s has %d metric rows where the launches after it have %d (a row written twice?)",
				l.named(l.firstID, l.firstName), l.firstN, n)
		case n == l.firstN && l.secondN > n:
			return t.Errorf(l.secondLine, "%s has %d metric rows where the launches before and after it have %d (a row written twice?)",
				l.named(l.secondID, l.secondName), l.secondN, n)
		case n == l.secondN || n == l.firstN:
			l.norm = n // a launch with a row fewer: a row lost, read as it is
		}
	case l.norm > 0 && n > l.norm:
		return t.Errorf(l.line, "%s has %d metric rows where the launches before it have %d (a row written twice?)",
			l.named(l.id, l.name), n, l.norm)
	}
	return nil
}

// named is a launch (or a summary page's kernel) as a message names it.
func (l *launchRows) named(id, name string) string {
	if l.summary {
		return "kernel " + shorten(name, 60)
	}
	return "launch " + id + " of " + shorten(name, 60)
}
