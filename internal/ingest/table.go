package ingest

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/units"
)

// The table: one CSV table of an export, read by its importer as from
// x/perf's benchfmt.Reader (Scan, Row, Err), and what an importer emits
// through it (kernels, metrics, activities, API calls).

// table is one CSV table of an export, handed to the importer whose header
// it matched. Rows run until a blank line, a message line or text. An
// importer reads them as from x/perf's benchfmt.Reader (or a
// bufio.Scanner): Scan advances to the next row, Row returns it, and Err
// the error that stopped Scan, if any.
type table struct {
	Header []string
	Marker string // the message line just before the header, e.g. "API calls:"
	Line   int    // line number of the header

	s         *stream
	imp       importer
	row       row
	done      bool
	atEnd     bool // done at the end of the input
	err       error
	fields    [][]byte
	raw       []byte // the current row's line
	prev      []byte // a copy of the previous row's line
	prevLine  int
	slab      []profan.Kernel // what is left of newKernel's slab
	ids       []byte          // what is left of idString's block
	sum       checkHash       // of the header and rows since it, to find a table given twice
	sumLine   int             // the line of that header
	sumRows   int
	rawHeader []byte
	unitsRaw  []byte // the units row, when the table has one
	subWidth  int    // fields of the --print-details sub-table being skipped
	rows      int    // data rows returned
	quoted    bool   // the first data row began with a quote
	// stray is the line of text among an nsys table's rows: nsys stats
	// writes its tables whole from a finished report, so no program
	// output runs between two of its rows; a row after it makes it a
	// damaged row.
	stray int
	// In a table whose rows repeat (splitRepeating): copied is the line
	// split last into fields, seps their separating commas, and shared
	// how many of them it shared with the line before it.
	copied []byte
	seps   []int32
	shared int
	// In a table of trace rows (splitTrace): mid is the middle of the
	// row split last (from its third field through the comma before its
	// last), midAt and midLen its middle fields' places in it; midOK says
	// they are known.
	mid       []byte
	midAt     []int32
	midLen    []int32
	midOK     bool
	lay       layout                  // what the importer declares of its tables
	notHeader map[int]map[string]bool // width → first fields that are not headers
}

// row is one data row. Its fields are valid until the next call to Scan.
type row struct {
	Line   int
	fields [][]byte
}

// Len is the number of fields in the row.
func (r row) Len() int { return len(r.fields) }

// Bytes returns field i, or nil when the row is shorter (ncu's metric rows
// are shorter than their header).
func (r row) Bytes(i int) []byte {
	if i < 0 || i >= len(r.fields) {
		return nil
	}
	return r.fields[i]
}

// String returns field i as a string ("" when absent).
func (r row) String(i int) string { return string(r.Bytes(i)) }

// Scan advances to the next data row. It returns false at the end of the
// table (the next table's header, or the end of the input) or on an
// error, which Err reports. Lines that are not data rows are skipped by an
// explicit rule and counted: blank lines, profiler messages, program
// output, ncu's --print-details notes and sub-tables, a repeated header or
// units row. Any other line is handed to the importer as a row, which
// checks it and refuses it with its line number. What an importer's table
// allows beyond that, its layout says.
func (t *table) Scan() bool {
	if t.done {
		return false
	}
	for {
		line, err := t.s.lr.next()
		if err == io.EOF {
			t.done, t.atEnd = true, true
			return false
		}
		if err != nil {
			t.fail(err)
			return false
		}
		switch t.step(line) {
		case lineRow:
			return true
		case lineEnd:
			return false
		}
	}
}

// lineKind is what a step of Scan made of a line.
type lineKind int

const (
	lineUndecided lineKind = iota // the next step decides
	lineSkipped                   // no row, counted: read the next line
	lineRow                       // a data row, now the table's Row
	lineEnd                       // the table ends here (Err says whether on an error)
)

// fail ends the table on err.
func (t *table) fail(err error) lineKind {
	t.err, t.done = err, true
	return lineEnd
}

// step classifies one line read inside the table.
func (t *table) step(line []byte) lineKind {
	if k := t.between(line); k != lineUndecided {
		return k
	}
	var err error
	switch {
	case t.lay.blocks:
		t.fields, err = splitCSV(line, t.fields[:0])
	case t.lay.repeatsRows:
		t.fields, err = t.splitRepeating(line)
	case t.lay.traceRows:
		t.fields, err = t.splitTrace(line)
	default:
		t.fields, err = splitStrict(line, t.fields[:0])
	}
	if err != nil {
		return t.fail(t.Errorf(t.s.lr.n, "%v", err))
	}
	if t.subWidth > 0 {
		if len(t.fields) == t.subWidth {
			t.s.skip(skipSubTable)
			return lineSkipped
		}
		t.subWidth = 0
	}
	if headerCandidate(t.fields) {
		var k lineKind
		if t.lay.subTables {
			if k, line = t.subTable(line); k != lineUndecided {
				return k
			}
		}
		if k, line = t.nextTable(line); k != lineUndecided {
			return k
		}
	}
	return t.dataRow(line)
}

// between handles the lines that come between rows: what is left of a
// cut row, blank lines, messages, program output, a repeated header or
// units row.
func (t *table) between(line []byte) lineKind {
	s := t.s
	if loneNumber(line) {
		// A row cut down to its first field, not program output.
		return t.fail(t.Errorf(s.lr.n, "a lone value %q inside the table (truncated row?)", shorten(string(line), 40)))
	}
	if t.lay.whole && t.stray == 0 && t.rows > 0 && len(bytes.TrimSpace(line)) > 0 && line[0] != '=' && !isRowLike(line) {
		t.stray = s.lr.n
	}
	if s.interloper(line) {
		if s.idle > maxIdle {
			return t.fail(s.idleError())
		}
		return lineSkipped
	}
	s.idle = 0
	if t.stray > 0 && bytes.Equal(line, t.rawHeader) {
		// nsys stats prints each report's table once, with its title
		// before it: the same header after text is the next report's
		// (cuda_api_sum, then osrt_sum).
		s.lr.unread(line)
		t.done = true
		return lineEnd
	}
	if !t.lay.blocks && s.marker == "" && bytes.Equal(line, t.rawHeader) {
		// After a title message ("==2868== API calls:") the same
		// header starts a new table; otherwise it is a repeat.
		s.skip(skipRepeatedHeader)
		if err := t.endCapture(s.lr.n); err != nil {
			return t.fail(err)
		}
		s.capture++
		return lineSkipped
	}
	if t.unitsRaw != nil && bytes.Equal(line, t.unitsRaw) {
		s.skip(skipRepeatedUnits)
		return lineSkipped
	}
	return lineUndecided
}

// subTable skips the header of a sub-table that ncu --print-details all
// writes among a launch's rows (see isSubTableHeader), and of another
// such sub-table (an NVLink topology): a header-shaped line narrower than
// the page, followed by a row as wide as it. (A header that an importer
// reads, a trace appended to the page, is the next table's, never a
// sub-table.) The line comes back, a copy when the next line was peeked.
func (t *table) subTable(line []byte) (lineKind, []byte) {
	s := t.s
	if len(t.fields) >= len(t.Header) || s.forced != nil || matchHeader(toStrings(t.fields)) != nil {
		return lineUndecided, line
	}
	if isSubTableHeader(t.fields) {
		t.subWidth = len(t.fields)
		s.skip(skipSubTable)
		return lineSkipped, nil
	}
	if !unknownHeaderShape(t.fields) {
		return lineUndecided, line
	}
	wide, cand, err := t.peekWidth(line)
	if err != nil {
		return t.fail(err), nil
	}
	if wide == len(t.fields) {
		t.subWidth = wide
		s.skip(skipSubTable)
		return lineSkipped, nil
	}
	return lineUndecided, cand
}

// nextTable ends the table at a header: one an importer reads (unread,
// for readTables to start its table), or that of a report's table no
// importer reads (see unknownTable). The line comes back, a copy when the
// next line was peeked.
func (t *table) nextTable(line []byte) (lineKind, []byte) {
	if t.seenNotHeader(t.fields) {
		return lineUndecided, line
	}
	s := t.s
	imp := s.matching(toStrings(t.fields))
	if imp == nil && !t.lay.blocks && s.forced == nil && s.brk && unknownHeaderShape(t.fields) {
		ended, cand := t.unknownTable(line)
		if ended {
			return lineEnd, nil
		}
		line = cand // the peek reused the reader's buffer
	}
	if imp == nil {
		t.rememberNotHeader(t.fields)
		return lineUndecided, line
	}
	if !layoutOf(imp).blocks || imp != t.imp {
		// The next table's header (a block's, of a table of blocks, is
		// a row of it).
		s.lr.unread(line)
		t.done = true
		return lineEnd, nil
	}
	return lineUndecided, line
}

// matching returns the importer whose header h is, of those the reader
// may choose (the one forced with --format, else all), or nil.
func (s *stream) matching(h []string) importer {
	if s.forced == nil {
		return matchHeader(h)
	}
	if s.forced.Match(h) {
		return s.forced
	}
	return nil
}

// dataRow checks a line that is no header as a row of the table and, when
// it is one, makes it the current row.
func (t *table) dataRow(line []byte) lineKind {
	s := t.s
	if s.title > 0 {
		return t.fail(s.headerLost())
	}
	if t.rows > 0 && t.quoted && line[0] != '"' {
		// Every row of this table so far was quoted (ncu quotes every
		// field). After a break (a profiler message, a blank line) an
		// unquoted line is the program's output: a second capture
		// appended to the first prints it before its own header.
		// Right after a row it is no row and no known interloper.
		if !s.brk {
			return t.fail(t.Errorf(s.lr.n, "an unquoted line among quoted rows (program output with a comma, or a cut row?)"))
		}
		s.output(line, skipOutput)
		return lineSkipped
	}
	if !t.lay.blocks && len(t.fields) > len(t.Header) {
		return t.fail(t.Errorf(s.lr.n, "row has %d fields, more than the %d of its header at line %d (interleaved output?)", len(t.fields), len(t.Header), t.Line))
	}
	if !t.lay.repeatsRows {
		// A trace's rows differ in their start, a summary's or a wide
		// table's in their kernel or metric: the same line again is a
		// line written twice, which would count a launch twice.
		if t.rows > 0 && bytes.Equal(line, t.prev) {
			return t.fail(t.Errorf(s.lr.n, "the same row as line %d (a line written twice?)", t.prevLine))
		}
		t.prev, t.prevLine = append(t.prev[:0], line...), s.lr.n
	}
	if t.stray > 0 {
		return t.fail(t.Errorf(t.stray, "a line that is no row among the rows of an nsys stats table (nsys stats writes its tables whole: a damaged row?)"))
	}
	if t.rows == 0 {
		t.quoted = line[0] == '"'
	}
	t.sum.Write(line)
	t.sum.WriteByte('\n')
	t.sumRows++
	t.rows++
	t.raw = line
	s.brk = false
	s.acct.Rows++
	s.marker, s.title = "", 0
	t.row = row{Line: s.lr.n, fields: t.fields}
	return lineRow
}

// endCapture compares the rows read since the table's header, or since
// the header repeated at line, with the tables and captures read before:
// rows that differ in their time or counters in any two real captures, so
// that the same ones again are an export appended to itself, whose
// launches would count twice. The next capture starts at next. The
// process the profiler's banners last named is part of a table's sum: an
// nvprof --metrics table holds no time, and two processes may measure the
// same values.
func (t *table) endCapture(next int) error {
	if t.sumRows > 0 {
		sum := t.sum.Sum64()
		if first, ok := t.s.tables[sum]; ok {
			return t.Errorf(t.sumLine, "%s: the same table, row for row, as the one at line %d (an export appended to itself?)", t.imp.Name(), first)
		}
		t.s.tables[sum] = t.sumLine
	}
	if t.s.twiceErr != nil {
		return t.s.twiceErr
	}
	t.s.order.reset()
	t.sum.reset(t.s.seed)
	t.sum.WriteString(t.s.process)
	t.sum.Write(t.rawHeader)
	t.sumLine, t.sumRows = next, 0
	return nil
}

// skipUnreadTable counts the header and rows of a table of a report that
// no importer reads (nsys stats prints several reports in one output).
const skipUnreadTable = "row of a table profan does not read"

// unknownHeaderShape reports a line shaped like a table header: three or
// more fields, each a non-empty text that is no number.
func unknownHeaderShape(f [][]byte) bool {
	if len(f) < 3 {
		return false
	}
	for _, x := range f {
		x = bytes.TrimSpace(x)
		if len(x) == 0 {
			return false
		}
		if _, ok, _ := units.ParseNumber(string(x)); ok {
			return false
		}
	}
	return true
}

// unknownTable decides whether line, a header no importer matches that
// follows a break (a blank line, a message), starts a table of another
// report: when the next line is a row as wide as it. The current table
// then ends and the other table's rows are skipped, counted. Otherwise
// the line stays this table's row (t.fields point into a copy of it).
func (t *table) unknownTable(line []byte) (bool, []byte) {
	s := t.s
	n := s.lr.n
	wide, cand, err := t.peekWidth(line)
	if err != nil {
		t.err, t.done = err, true
		return true, nil
	}
	if wide != len(t.fields) {
		return false, cand
	}
	s.unknownWidth, s.unknownLine = len(t.fields), n
	s.acct.Headers++
	s.brk = false
	t.done = true
	return true, nil
}

// peekWidth returns the number of fields of the line after line (-1 when
// it is not a row), leaving it to be read next, and a copy of line, which
// t.fields then point into: the peek reuses the reader's buffer.
func (t *table) peekWidth(line []byte) (int, []byte, error) {
	s := t.s
	cand := append([]byte(nil), line...)
	wide := -1
	next, err := s.lr.next()
	switch {
	case err == nil:
		if f, err := splitCSV(next, nil); err == nil && isRowLike(next) {
			wide = len(f)
		}
		s.lr.unread(next)
	case err != io.EOF:
		return 0, nil, err
	}
	t.fields, _ = splitCSV(cand, t.fields[:0])
	t.seps = t.seps[:0] // t.fields are no longer those of t.copied
	return wide, cand, nil
}

// seenNotHeader reports a row whose first field and width were already
// found not to be a header in this table: nvprof's aggregate tables start
// every row with the device name or the activity type ("GPU activities"),
// which would otherwise be matched against every importer's header on
// every row. The lookup allocates nothing.
func (t *table) seenNotHeader(f [][]byte) bool {
	return t.notHeader[len(f)][string(f[0])]
}

func (t *table) rememberNotHeader(f [][]byte) {
	if t.notHeader == nil {
		t.notHeader = map[int]map[string]bool{}
	}
	m := t.notHeader[len(f)]
	if m == nil {
		m = map[string]bool{}
		t.notHeader[len(f)] = m
	}
	if len(m) < 64 {
		m[string(f[0])] = true
	}
}

// loneNumber reports a line that is one number and nothing else: inside a
// table, what is left of a row cut short.
func loneNumber(line []byte) bool {
	if len(line) == 0 || len(line) > 40 || !(line[0] >= '0' && line[0] <= '9' || line[0] == '-' || line[0] == '.') {
		return false
	}
	if bytes.IndexByte(line, ',') >= 0 {
		return false
	}
	_, ok, _ := units.ParseNumber(string(bytes.TrimSpace(line)))
	return ok
}

// isSubTableHeader recognizes the header of a sub-table that ncu
// --print-details all writes between a launch's rows of a details page
// ("GPU ID","GPU Name","NUMA ID by CPU Affinity",...): its rows, as wide as
// it and narrower than the page's, are skipped. In any other table such a
// line is a row, which its reader refuses.
func isSubTableHeader(f [][]byte) bool {
	return len(f) >= 2 && string(f[0]) == "GPU ID" && string(f[1]) == "GPU Name"
}

// markUnits records the current row as the table's units row, so that a
// repeated header followed by the units row again is skipped.
func (t *table) markUnits() {
	t.unitsRaw = append([]byte(nil), t.raw...)
	t.s.acct.Rows--
	t.s.acct.Headers++
}

// Skip counts a data row the importer skips, under rule.
func (t *table) Skip(rule string) {
	t.s.acct.Rows--
	t.s.skip(rule)
}

// checkLaunch refuses a launch read twice in one file: the same process
// (ID and name), launch ID and kernel in two pages (a details and a raw
// page) or twice in one. Exports of different processes may follow each
// other (cat a.csv b.csv).
func (t *table) checkLaunch(k *profan.Kernel, pid string, line int) error {
	if k.ID == "" {
		return t.Errorf(line, "row has an empty ID: launches cannot be told apart")
	}
	if t.s.launches == nil {
		t.s.launches = map[string]int{}
	}
	key := pid + "\x00" + k.Process + "\x00" + k.ID + "\x00" + k.Name
	if first, ok := t.s.launches[key]; ok {
		return t.Errorf(line, "launch ID %s of %s was already read at line %d (two pages of one report in one file?)", k.ID, k.Name, first)
	}
	t.s.launches[key] = line
	return nil
}

// Row returns the current row.
func (t *table) Row() row { return t.row }

// AtEnd reports whether Scan stopped at the end of the input, not at the
// next table: where an export cut short (or still being written) ends.
func (t *table) AtEnd() bool { return t.atEnd }

// Err returns the first error met while reading rows.
func (t *table) Err() error { return t.err }

// finish ends a table's parse: the first read error, else an error when
// the table had no data rows after its header (what: "a header", or "a
// header and units row"), as a truncated export has.
func (t *table) finish(rows int, format, what string) error {
	if t.err != nil {
		return t.err
	}
	if rows == 0 {
		return t.Errorf(t.Line, "%s: the table has %s but no rows (truncated export?)", format, what)
	}
	return nil
}

// eachRow is the row loop of a table whose rows are each as wide as its
// header: it calls row with each, then ends the table as finish does
// (what is said of a table without rows: "a header", "a header and units
// row").
func (t *table) eachRow(format, what string, row func(row) error) error {
	rows := 0
	for t.Scan() {
		r := t.Row()
		rows++
		if err := checkWidth(t, r, len(t.Header)); err != nil {
			return err
		}
		if err := row(r); err != nil {
			return err
		}
	}
	return t.finish(rows, format, what)
}

// Run returns the run being read.
func (t *table) Run() *profan.Run { return t.s.run }

// Errorf returns a SyntaxError at line.
func (t *table) Errorf(line int, format string, args ...any) error {
	return &syntaxError{File: t.s.src, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// Ordinal returns the next 0-based launch ordinal, for exports without IDs.
func (t *table) Ordinal() string {
	s := strconv.Itoa(t.s.ordinal)
	t.s.ordinal++
	return s
}

// columns maps header names to their positions; the first wins.
type columns map[string]int

// columnsOf indexes a header.
func columnsOf(header []string) columns {
	c := make(columns, len(header))
	for i, h := range header {
		if _, ok := c[h]; !ok {
			c[h] = i
		}
	}
	return c
}

// Get returns the position of name, or -1.
func (c columns) Get(name string) int {
	if i, ok := c[name]; ok {
		return i
	}
	return -1
}

// Has reports whether every name is present.
func (c columns) Has(names ...string) bool {
	for _, n := range names {
		if _, ok := c[n]; !ok {
			return false
		}
	}
	return true
}

// maxMessages bounds the profiler messages a run keeps (the first ones,
// which hold the errors that matter); the rest are counted as skipped.
const maxMessages = 1024
