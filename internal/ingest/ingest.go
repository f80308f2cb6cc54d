package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/safe"
	"github.com/profan-dev/profan/internal/units"
)

// importer reads one kind of table. Importers are chosen by their header
// (Match), never by the file's name.
type importer interface {
	// Name is the format name users pass to --format, e.g. "ncu-details".
	Name() string
	// Tool is profan.ToolNCU, profan.ToolNvprof or profan.ToolNsys.
	Tool() string
	// Match reports whether a CSV header line starts a table of this kind.
	Match(header []string) bool
	// Parse reads the table's rows from t and emits what they hold.
	Parse(t *table) error
}

// importers is the registry: the order in which headers are tried.
// Adding a format is one file and one line here.
var importers = []importer{
	ncuDetails{},
	ncuRaw{},
	ncuSummary{},
	ncuSource{},
	nvprofMetrics{},
	nvprofEvents{},
	nvprofTrace{},
	nvprofSummary{},
	nvprofUMSummary{},
	nvprofWide{},
	nsysKernSum{},
	nsysGPUTrace{},
	nsysAPISum{},
	nsysAPITrace{},
}

// document reads an export that is one document (JSON), not CSV tables.
// Documents are chosen by their content (Sniff, on the first bytes of the
// decoded text, leading white space removed), never by the file's name.
type document interface {
	Name() string
	Tool() string
	Sniff(head []byte) bool
	read(s *stream, in *File) error
}

// documents is the registry of document formats.
var documents = []document{
	torchTrace{},
}

func (torchTrace) read(s *stream, in *File) error { return readTorch(s, in) }

// documentByName returns the document format called name.
func documentByName(name string) (document, bool) {
	for _, d := range documents {
		if d.Name() == name {
			return d, true
		}
	}
	return nil, false
}

// importerByName returns the importer called name (the CSV formats; a
// document format is documentByName's).
func importerByName(name string) (importer, bool) {
	for _, imp := range importers {
		if imp.Name() == name {
			return imp, true
		}
	}
	return nil, false
}

// names lists the registered format names.
func names() []string {
	var out []string
	for _, imp := range importers {
		out = append(out, imp.Name())
	}
	for _, d := range documents {
		out = append(out, d.Name())
	}
	return out
}

// syntaxError is a problem with the input at a given line.
type syntaxError struct {
	File string
	Line int
	Msg  string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("%s:%d: %s", safe.Term(e.File), e.Line, safe.Term(e.Msg))
}

var errSinkFailed = errors.New("sink failed")

// errNoTable is wrapped by the error for an export that holds no table.
var errNoTable = errors.New("no profiler table")

// Sink receives what an export holds as soon as it is complete, so that a
// large export never needs to be held in memory. A nil function collects
// the values into the Run instead.
type Sink struct {
	Kernel   func(*profan.Run, *profan.Kernel) error
	Activity func(*profan.Run, *profan.Activity) error
}

// Options control reading.
type Options struct {
	Format string // importer name; empty means sniff each table's header
	// Digest, when set, is the export's digest as the caller computed it;
	// the reader then does not hash the input again.
	Digest string
	// Concurrent runs the sink's Kernel function on its own goroutine, so
	// that what the caller does with a kernel overlaps the parsing of the
	// next ones. The sink must not touch the Run until Read returns.
	Concurrent bool
	// MaxTextMessages bounds how many lines of application output are kept
	// in Run.Messages (tool messages are always kept). 0 means 32.
	MaxTextMessages int
	// Context, when set, is the command's: once it is cancelled (Ctrl-C,
	// SIGTERM), the next read of the file fails with its error, so that a
	// reader stops within one buffer whatever it is reading.
	Context context.Context
}

// ReadFile reads a whole export into memory.
func ReadFile(path string, opt Options) (*profan.Run, error) {
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Read(opt, Sink{})
}

// Read parses the export r (named src in errors) and streams its contents
// to sink. The returned Run holds the run's identity, messages and whatever
// the sink did not take.
func Read(r io.Reader, src string, opt Options, sink Sink) (*profan.Run, error) {
	in, err := newInput(r, src)
	if err != nil {
		return nil, err
	}
	return in.Read(opt, sink)
}

// read parses the input once: its head may already have been read by
// Format, and is then replayed.
func (in *File) read(opt Options, sink Sink) (*profan.Run, error) {
	var forced importer
	doc := in.document()
	if d, ok := documentByName(opt.Format); ok {
		doc = d
	} else if opt.Format != "" {
		doc = nil
		imp, ok := importerByName(opt.Format)
		if !ok {
			return nil, fmt.Errorf("unknown format %q (known: %s)", opt.Format, strings.Join(names(), ", "))
		}
		forced = imp
	}
	maxText := opt.MaxTextMessages
	if maxText == 0 {
		maxText = 32
	}
	lr, src := in.lr, in.src
	run := &profan.Run{Source: safe.Term(src)}
	s := &stream{lr: lr, run: run, sink: sink, src: src, forced: forced, doc: doc, maxText: maxText, seed: maphash.MakeSeed(), tables: map[uint64]int{}, nsys: in.nsys}
	if sink.Kernel != nil && opt.Concurrent {
		// Parse on this goroutine and hand kernels to the sink on another:
		// the sink (analysis, storage) then overlaps the parsing. Kernels
		// go over in batches: a trace has a kernel per line, and a
		// hand-over per kernel kept both goroutines waking each other
		// (on 600,000 launches they used 1.2 of 2 cores). A batch is
		// bounded by its metrics too, so that the kernels in flight hold
		// about as much as before whatever their size (64 trace rows, 10
		// launches of an ncu page).
		const batch, batchMetrics = 64, 1024
		ch := make(chan []*profan.Kernel, 4)
		free := make(chan []*profan.Kernel, 6)
		for range cap(free) {
			free <- make([]*profan.Kernel, 0, batch)
		}
		done := make(chan error, 1)
		var failed atomic.Bool
		go func() {
			var err error
			for ks := range ch {
				for _, k := range ks {
					if err == nil {
						if err = sink.Kernel(run, k); err != nil {
							failed.Store(true)
						}
					}
				}
				clear(ks)
				free <- ks[:0]
			}
			done <- err
		}()
		pending, weight := <-free, 0
		s.sink.Kernel = func(_ *profan.Run, k *profan.Kernel) error {
			if failed.Load() {
				return errSinkFailed // the consumer's error is returned below
			}
			pending = append(pending, k)
			weight += 1 + len(k.Metrics) + len(k.Source)
			if len(pending) == batch || weight >= batchMetrics {
				ch <- pending
				pending, weight = <-free, 0
			}
			return nil
		}
		r, err := readTables(s, opt, in)
		if len(pending) > 0 {
			ch <- pending
		}
		close(ch)
		if cerr := <-done; cerr != nil {
			return nil, cerr
		}
		if err != nil {
			return nil, err
		}
		return r, nil
	}
	return readTables(s, opt, in)
}

// readTables reads every table of the export. A table runs from its header
// to the next header or the end of the input; every line in between is a
// data row or an interloper that a rule of Table.Scan skips and counts.
func readTables(s *stream, opt Options, in *File) (*profan.Run, error) {
	if s.doc != nil {
		return readDocument(s, opt, in)
	}
	var formats []string
	var fields [][]byte
	tables := 0
	for {
		line, err := s.lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		var imp importer
		if imp, fields, err = s.header(line, fields, tables == 0); err != nil {
			return nil, err
		}
		if imp == nil {
			continue
		}
		if err := s.table(imp, line, fields, tables == 0); err != nil {
			return nil, err
		}
		tables++
		if len(formats) == 0 || formats[len(formats)-1] != imp.Name() {
			formats = append(formats, imp.Name())
		}
	}
	s.acct.Lines = s.lr.n
	var none error
	if tables == 0 {
		none = noTableError(s.run, s.src, s.lr.n, s.textSeen)
	}
	return s.result(in, opt, strings.Join(dedup(formats), "+"), none)
}

// header reads a line outside any table: the header of the next table,
// whose importer it returns, or a line it skips and counts (nil). fields
// is reused for the line's fields, and returned holding them.
func (s *stream) header(line []byte, fields [][]byte, first bool) (importer, [][]byte, error) {
	if s.interloper(line) {
		if s.idle > maxIdle {
			return nil, fields, s.idleError()
		}
		return nil, fields, nil
	}
	var imp importer
	fields, err := splitCSV(line, fields[:0])
	if err == nil {
		if s.forced != nil {
			if first || (headerCandidate(fields) && s.forced.Match(toStrings(fields))) {
				imp = s.forced
			}
		} else if headerCandidate(fields) {
			imp = matchHeader(toStrings(fields))
		}
	} else if err == errTooManyFields {
		return nil, fields, &syntaxError{File: s.src, Line: s.lr.n, Msg: err.Error()}
	}
	if imp != nil || s.unknownWidth > 0 {
		s.idle = 0
	}
	if imp == nil && s.unknownWidth > 0 && err == nil {
		return nil, fields, s.unknownRow(fields)
	}
	if imp == nil && s.title > 0 && err == nil && !unknownHeaderShape(fields) {
		// nvprof prints its table's header right after the title: a
		// row of values there is a table whose header was lost, not
		// program output to skip.
		return nil, fields, s.headerLost()
	}
	s.title = 0
	if imp == nil {
		// A line with commas before the first table: application
		// output, bounded like the other lines that are no table's.
		s.output(line, "program output")
		if s.idle++; s.idle > maxIdle {
			return nil, fields, s.idleError()
		}
		return nil, fields, nil
	}
	s.unknownWidth = 0
	s.brk = false
	return imp, fields, nil
}

// unknownRow skips a row of a table profan does not read, or the header
// of the next such table, after a break.
func (s *stream) unknownRow(fields [][]byte) error {
	switch {
	case len(fields) == s.unknownWidth:
		s.skip(skipUnreadTable)
		s.brk = false
	case s.brk && unknownHeaderShape(fields):
		s.unknownWidth, s.unknownLine = len(fields), s.lr.n
		s.acct.Headers++
		s.brk = false
	default:
		return &syntaxError{File: s.src, Line: s.lr.n, Msg: fmt.Sprintf("a row of %d fields in the %d-column table of line %d, which profan does not read (truncated or interleaved output?)", len(fields), s.unknownWidth, s.unknownLine)}
	}
	return nil
}

// table reads the table whose header is line (split into fields) with
// imp: its rows, and those imp left unread.
func (s *stream) table(imp importer, line []byte, fields [][]byte, first bool) error {
	run := s.run
	t := &table{Header: toStrings(fields), Marker: s.marker, Line: s.lr.n, s: s, imp: imp, rawHeader: append([]byte(nil), line...), lay: layoutOf(imp)}
	t.sum.SetSeed(s.seed)
	t.sum.WriteString(s.process)
	t.sum.Write(line)
	t.sumLine = s.lr.n
	if run.Tool == "" || (first && run.Tool != imp.Tool()) {
		run.Tool = imp.Tool()
	}
	before := s.records
	s.acct.Headers++
	s.capture++
	if err := imp.Parse(t); err != nil {
		return err
	}
	for t.Scan() {
		// Drain rows an importer left unread.
	}
	if t.err != nil {
		return t.err
	}
	if s.records == before {
		what := "a header"
		if t.unitsRaw != nil {
			what = "a header and units row"
		}
		return t.Errorf(t.Line, "%s: the table has %s but no rows (truncated export?)", imp.Name(), what)
	}
	return t.endCapture(t.Line)
}

// readDocument reads an export that is one document.
func readDocument(s *stream, opt Options, in *File) (*profan.Run, error) {
	if err := s.doc.read(s, in); err != nil {
		return nil, err
	}
	return s.result(in, opt, s.doc.Name(), nil)
}

// result ends the read of the export: what is left of the input is read
// (so that the size counts the whole file), then the run gets its format,
// size, digest and accounting. none is the error of an export without a
// table, returned once the input is read.
func (s *stream) result(in *File, opt Options, format string, none error) (*profan.Run, error) {
	if err := in.finish(); err != nil {
		return nil, err
	}
	run := s.run
	run.Format = format
	run.Size = in.cr.n
	run.Digest = opt.Digest
	if run.Digest == "" {
		run.Digest = in.Digest()
	}
	run.Accounting = s.acct
	if none != nil {
		return nil, none
	}
	if err := run.CheckValid(); err != nil {
		return nil, fmt.Errorf("%s: invalid result: %w", s.src, err)
	}
	return run, nil
}

// document returns the document format of the export, found from the
// first bytes of its decoded text; nil for CSV. It is looked at once,
// before anything is read.
func (in *File) document() document {
	if in.docSeen || in.lr == nil {
		return in.doc
	}
	in.docSeen = true
	head, _ := in.lr.br.Peek(512)
	head = bytes.TrimLeft(head, " \t\r\n")
	for _, d := range documents {
		if d.Sniff(head) {
			in.doc = d
		}
	}
	return in.doc
}

// matchHeader returns the importer whose header h is, or nil.
func matchHeader(h []string) importer {
	for _, cand := range importers {
		if cand.Match(h) {
			return cand
		}
	}
	return nil
}

// headerCandidate is the cheap test run on every row before the importers'
// Match: every profiler header starts with a column name, a letter, where
// most data rows start with a number, a quote-wrapped number or nothing.
func headerCandidate(fields [][]byte) bool {
	if len(fields) < 2 || len(fields[0]) == 0 {
		return false
	}
	c := fields[0][0]
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

// Skip rules: each line that is neither a header nor a data row is skipped
// by one of these, and counted.
const (
	skipBlank          = "blank line"
	skipMessage        = "profiler message (==PROF==, ==WARNING==, ==ERROR==, ==<pid>==)"
	skipOutput         = "program output"
	skipNote           = "indented note (ncu --print-details)"
	skipSubTable       = "ncu --print-details sub-table line"
	skipRepeatedHeader = "repeated header"
	skipRepeatedUnits  = "repeated units row"
)

// interloper classifies a line that is not CSV: blank, a profiler message,
// an indented note or program output. It records and counts it, and
// reports whether it was one.
func (s *stream) interloper(line []byte) bool {
	ok := s.classify(line)
	if ok {
		s.brk = true
		s.idle++
	}
	return ok
}

// maxIdle bounds the lines in a row that are no table's header or row
// (blank lines, profiler messages, program output): past it the input is
// refused, so that a flood (`yes ” | profan analyze /dev/stdin`, a
// gzip-compressed bomb of newlines) ends with an error instead of running
// on. Real exports have a few thousand such lines before their table.
const maxIdle = 1 << 20

// idleError is the error for more than maxIdle such lines.
func (s *stream) idleError() error {
	return &syntaxError{File: s.src, Line: s.lr.n, Msg: fmt.Sprintf("more than %d lines in a row without a table header or row (blank lines, messages or program output): not a profiler export?", maxIdle)}
}

func (s *stream) classify(line []byte) bool {
	if len(line) == 0 || (line[0] != '"' && len(bytes.TrimSpace(line)) == 0) {
		s.skip(skipBlank)
		return true
	}
	if line[0] == '=' {
		if msg, ok := parseMessage(line); ok {
			msg.Line = s.lr.n
			if s.messages < maxMessages {
				s.run.Messages = append(s.run.Messages, msg.Message)
			} else if s.messages == maxMessages {
				t := &table{s: s}
				t.note(s.lr.n, "profiler messages", "more than %d: the later ones are counted as skipped lines, not kept", maxMessages)
			}
			s.messages++
			if s.run.Tool == "" {
				s.run.Tool = msg.tool
			}
			if p := processOf(line, msg); p != "" {
				s.process = p
			}
			if strings.HasSuffix(msg.Text, ":") {
				// A title ("API calls:", "Unified Memory profiling
				// result:"): kept for the next table, whatever messages
				// come between.
				s.marker = msg.Text
				if msg.tool == profan.ToolNvprof {
					s.title, s.titleText = s.lr.n, fmt.Sprintf("nvprof's title %q", msg.Text)
				}
			}
			s.skip(skipMessage)
			return true
		}
	}
	if !isRowLike(line) {
		rule := skipOutput
		if line[0] == ' ' || line[0] == '\t' {
			rule = skipNote
		}
		s.output(line, rule)
		if bytes.HasPrefix(line, []byte("Processing [")) && bytes.Contains(line, []byte("] with [")) {
			s.title, s.titleText = s.lr.n, "nsys stats' line naming its report"
		}
		return true
	}
	return false
}

// processOf returns the process a profiler message names: nvprof's
// ==<pid>== banner, ncu's "Connected to process <pid>"; "" for others.
func processOf(line []byte, msg profanMessage) string {
	if msg.tool == profan.ToolNvprof {
		if tag, _, ok := bytes.Cut(line[2:], []byte("==")); ok && len(tag) > 0 && tag[0] != '=' {
			return "nvprof " + string(tag)
		}
		return ""
	}
	if rest, ok := strings.CutPrefix(msg.Text, "Connected to process "); ok {
		pid, _, _ := strings.Cut(rest, " ")
		return "ncu " + pid
	}
	return ""
}

// headerLost is the error for a row of values read right after an nvprof
// title or nsys stats' report line, where the table's header is printed.
func (s *stream) headerLost() error {
	return &syntaxError{File: s.src, Line: s.lr.n, Msg: fmt.Sprintf("a row of values right after %s (line %d), where its table's header belongs: the header deleted or cut?", s.titleText, s.title)}
}

// output keeps a line of program output (bounded) and counts it.
func (s *stream) output(line []byte, rule string) {
	s.title = 0
	s.textSeen++
	if s.textKept < s.maxText {
		s.textKept++
		s.run.Messages = append(s.run.Messages, profan.Message{Line: s.lr.n, Level: profan.LevelOutput, Text: string(line)})
	}
	s.skip(rule)
}

// note adds a message of level "note" the first time a kind of note is
// met in the export: what profan read in a way worth saying, once.
func (t *table) note(line int, kind, format string, args ...any) {
	s := t.s
	if s.noted == nil {
		s.noted = map[string]bool{}
	}
	if s.noted[kind] {
		return
	}
	s.noted[kind] = true
	s.run.Messages = append(s.run.Messages, profan.Message{Line: line, Level: profan.LevelNote, Text: kind + ": " + fmt.Sprintf(format, args...) + " (said once)"})
}

// skip counts a skipped line under rule.
func (s *stream) skip(rule string) { s.skipN(rule, 1) }

// skipN counts n skipped lines under rule.
func (s *stream) skipN(rule string, n int) {
	for i := range s.acct.Skipped {
		if s.acct.Skipped[i].Rule == rule {
			s.acct.Skipped[i].Lines += n
			return
		}
	}
	s.acct.Skipped = append(s.acct.Skipped, profan.SkipCount{Rule: rule, Lines: n, First: s.lr.n})
}

func dedup(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// noTableError explains an export without a table, quoting the profiler's
// own error message when it printed one.
func noTableError(run *profan.Run, src string, lines, text int) error {
	if lines == 0 {
		return &syntaxError{File: src, Line: 1, Msg: "empty file: " + errNoTable.Error()}
	}
	tool := run.Tool
	if tool == "" {
		tool = "the profiler"
	}
	for _, m := range run.Messages {
		if m.Level == profan.LevelError {
			return &syntaxError{File: src, Line: m.Line, Msg: fmt.Sprintf("%s failed, no table in the export: %s", tool, m.Text)}
		}
	}
	for _, m := range run.Messages {
		if m.Level == profan.LevelOutput && strings.Contains(m.Text, "Time(%)") && !strings.Contains(m.Text, ",") {
			return &syntaxError{File: src, Line: m.Line, Msg: "nvprof text output, not CSV: rerun nvprof with --csv"}
		}
	}
	for _, m := range run.Messages {
		t := strings.TrimSpace(m.Text)
		if m.Level == profan.LevelOutput && !strings.Contains(t, ",") && (strings.HasPrefix(t, "Section: ") || strings.HasPrefix(t, "Metric Name ") && strings.HasSuffix(t, "Metric Value")) {
			return &syntaxError{File: src, Line: m.Line, Msg: "ncu text output, not CSV: rerun ncu with --csv (and --page details or --page raw), or export a report as CSV: ncu --import report.ncu-rep --csv --page details > report.details.csv"}
		}
	}
	for _, m := range run.Messages {
		if m.Level == profan.LevelWarning {
			return &syntaxError{File: src, Line: m.Line, Msg: fmt.Sprintf("%s wrote no table: %s", tool, m.Text)}
		}
	}
	if len(run.Messages) > 0 && text == 0 {
		m := run.Messages[len(run.Messages)-1]
		return &syntaxError{File: src, Line: m.Line, Msg: fmt.Sprintf("%s wrote no table (last message: %s)", tool, m.Text)}
	}
	return &syntaxError{File: src, Line: 1, Msg: fmt.Sprintf("%v: no nvprof, ncu or nsys CSV header found in %d lines", errNoTable, lines)}
}

// countReader counts the bytes read from an export's file, and stops the
// read once ctx is cancelled: every reader reads through it.
type countReader struct {
	r   io.Reader
	n   int64
	ctx context.Context // nil: never stops
}

func (c *countReader) Read(p []byte) (int, error) {
	if c.ctx != nil {
		if err := c.ctx.Err(); err != nil {
			return 0, err
		}
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// isRowLike reports whether a line can be a CSV record: quoted, or holding
// a comma. Anything else is application output or a trailer.
func isRowLike(line []byte) bool {
	return (len(line) > 0 && line[0] == '"') || bytes.IndexByte(line, ',') >= 0
}

func toStrings(fs [][]byte) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(f)
	}
	return out
}

// profanMessage carries the tool that a message line identifies.
type profanMessage struct {
	profan.Message
	tool string
}

// parseMessage recognizes the profilers' own message lines:
// ==PROF==, ==WARNING==, ==ERROR== (ncu), ==<pid>== and ======== (nvprof).
func parseMessage(line []byte) (profanMessage, bool) {
	if !bytes.HasPrefix(line, []byte("==")) {
		return profanMessage{}, false
	}
	rest := line[2:]
	end := bytes.Index(rest, []byte("=="))
	if end < 0 {
		return profanMessage{}, false
	}
	tag := string(rest[:end])
	text := strings.TrimSpace(string(rest[end+2:]))
	var tool string
	var level profan.Level
	switch {
	case tag == "PROF":
		tool, level = profan.ToolNCU, profan.LevelInfo
	case tag == "WARNING":
		tool, level = profan.ToolNCU, profan.LevelWarning
	case tag == "ERROR":
		tool, level = profan.ToolNCU, profan.LevelError
	case tag == "" || strings.Trim(tag, "=") == "":
		tool, level = profan.ToolNvprof, profan.LevelInfo
		text = strings.TrimSpace(strings.TrimLeft(string(rest), "="))
	default:
		if _, err := strconv.Atoi(tag); err != nil {
			return profanMessage{}, false
		}
		tool, level = profan.ToolNvprof, profan.LevelInfo
	}
	if level == profan.LevelInfo {
		switch {
		case strings.HasPrefix(text, "Error") || strings.Contains(text, "Error:"):
			level = profan.LevelError
		case strings.HasPrefix(text, "Warning"):
			level = profan.LevelWarning
		}
	}
	return profanMessage{Message: profan.Message{Level: level, Text: text}, tool: tool}, true
}

// stream is the state shared by the tables of one export.
type stream struct {
	folded   map[activityKey]*profan.Activity // see Table.Activity
	seed     maphash.Seed
	tables   map[uint64]int // a table's sum → the line of its header
	lr       *lineReader
	run      *profan.Run
	sink     Sink
	src      string
	forced   importer
	doc      document // the export is one document of this format, not tables
	ordinal  int
	intern   map[string]string
	marker   string // the last message line, e.g. "API calls:"
	maxText  int
	textSeen int
	textKept int
	records  int // kernels, activities and API rows emitted
	acct     profan.Accounting
	launches map[string]int // launch identity → line of its first row
	// metricUnits is the kind of unit each nvprof metric was first read in.
	metricUnits map[string]unitSeen
	noted       map[string]bool
	brk         bool                // a blank line, message or text since the last row or header
	idle        int                 // lines in a row that were no header or row
	messages    int                 // profiler messages met
	names       map[string]struct{} // distinct kernel names
	process     string              // the process the last banner named ("nvprof 16702")
	// demangled holds each mangled kernel name's demangled form;
	// demangleWork is the work spent (see Table.demangled).
	demangled    map[string]string
	demangleWork uint64
	// capture counts the captures met so far: each header, repeated or
	// not, starts one (a capture appended to another repeats the
	// header). A launch's rows all belong to one capture, so that two
	// one-launch captures of the same kernel appended to each other stay
	// two launches.
	capture int
	// A table of a report profan does not read (nsys stats prints several
	// reports one after the other): its width and header line while its
	// rows are being skipped.
	unknownWidth, unknownLine int
	// nsys is the host calls of the nsys API tables read so far (see
	// nsys_api_trace.go).
	nsys *nsysHost
	// ids are the identities of the trace rows read (see identity.go).
	order    rowOrder // the start order of a capture's trace rows (see identity.go)
	twiceErr error    // a row written twice, said when its capture ends
	// title is the line of an nvprof title ("==1== Profiling result:")
	// or of nsys stats' line naming the report it runs ("Processing
	// [report1.sqlite] with [.../cudaapisum.py]..."), when nothing but
	// blank lines and messages came after it: the next row is its table's
	// header. titleText says which.
	title     int
	titleText string
}

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
	sum       maphash.Hash // of the header and rows since it, to find a table given twice
	sumLine   int          // the line of that header
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
	stray     int
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
	if t.lay.blocks {
		t.fields, err = splitCSV(line, t.fields[:0])
	} else {
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
	t.sum.Reset()
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

// layout is what the reader needs to know of an importer's tables beyond
// their header: each importer declares its own (layouter); the zero
// layout is a table of one header and its rows, each as wide as it or
// narrower, none the same as the one before it.
type layout struct {
	// blocks: the table is made of blocks that each start with a line
	// Match accepts (ncu's source page): its rows are split leniently and
	// may be wider than the header, and no other report's table is looked
	// for among them.
	blocks bool
	// subTables: the sub-tables of ncu --print-details all may sit among
	// the rows (a narrower header, then rows as wide as it), skipped.
	subTables bool
	// repeatsRows: a row may be the same as the one before it (a details
	// page repeats rows of body items; a source page, lines of source).
	repeatsRows bool
	// whole: the table is written whole, from a finished report, so that
	// a line of text among its rows is a damaged row, not program output.
	// Every nsys table is (nsys stats), so the tool sets it.
	whole bool
}

// layouter is an importer whose tables are not of the zero layout.
type layouter interface{ layout() layout }

// layoutOf returns the layout imp declares.
func layoutOf(imp importer) layout {
	var l layout
	if d, ok := imp.(layouter); ok {
		l = d.layout()
	}
	l.whole = l.whole || imp.Tool() == profan.ToolNsys
	return l
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

// maxKernelNames bounds the distinct kernel names of one export: every
// name costs its analysis a few kB, and real exports have hundreds, a
// large model's trace a few thousand.
const maxKernelNames = 1 << 13

// maxKernelMetrics bounds the distinct metrics of one kernel as maxFields
// bounds those of a raw page's row (one launch): a launch captured with
// --set full has about 2,200; a flood of names in one kernel would grow its
// analysis and every later read of its run without end.
const maxKernelMetrics = maxFields

// AddMetric adds m to k, refusing at line a kernel past maxKernelMetrics
// distinct metrics.
func (t *table) AddMetric(k *profan.Kernel, m profan.Metric, line int) error {
	k.AddMetric(m)
	if len(k.Metrics) > maxKernelMetrics {
		return t.Errorf(line, "more than %d distinct metrics in one kernel launch (not a profiler export?)", maxKernelMetrics)
	}
	return nil
}

// maxNames bounds the distinct names (kernels, metrics) a reader keeps a
// table of; past it, strings are no longer shared.
const maxNames = 1 << 16

// Intern returns b as a string, sharing storage with earlier equal strings:
// exports repeat kernel, section and metric names on every row.
func (t *table) Intern(b []byte) string {
	if t.s.intern == nil {
		t.s.intern = make(map[string]string, 1024)
	}
	if s, ok := t.s.intern[string(b)]; ok {
		return s
	}
	if len(t.s.intern) > maxNames {
		return string(b) // bound the table on exports with unbounded names
	}
	s := string(b)
	t.s.intern[s] = s
	return s
}

// InternString is Intern of a string already made (a part of one).
func (t *table) InternString(s string) string {
	if t.s.intern == nil {
		t.s.intern = make(map[string]string, 1024)
	}
	if v, ok := t.s.intern[s]; ok {
		return v
	}
	if len(t.s.intern) > maxNames {
		return s
	}
	t.s.intern[s] = s
	return s
}

// Kernel hands a completed kernel to the sink.
func (t *table) Kernel(k *profan.Kernel, line int) error {
	if err := k.CheckValid(); err != nil {
		return t.Errorf(line, "%v", err)
	}
	if err := t.kernelTwice(k, line); err != nil {
		return err
	}
	if _, ok := t.s.names[k.Name]; !ok {
		if len(t.s.names) == maxKernelNames {
			return t.Errorf(line, "more than %d distinct kernel names (not a profiler export?)", maxKernelNames)
		}
		if t.s.names == nil {
			t.s.names = map[string]struct{}{}
		}
		t.s.names[k.Name] = struct{}{}
	}
	t.s.records++
	t.s.acct.Records++
	if k.Invocations > 1 {
		t.s.acct.Launches += k.Invocations
	} else {
		t.s.acct.Launches++
	}
	if t.s.sink.Kernel != nil {
		return t.s.sink.Kernel(t.s.run, k)
	}
	t.s.run.Kernels = append(t.s.run.Kernels, k)
	return nil
}

// Activity hands a memory activity to the sink.
func (t *table) Activity(a *profan.Activity) error {
	if a.Duration < 0 || a.Bytes < 0 {
		// Said here, at its row, as a kernel's is.
		return t.Errorf(t.row.Line, "%s: negative duration or size", a.Name)
	}
	if a.Bytes > maxActivityBytes || math.IsInf(a.Duration, 0) {
		// A size past any memory's (or infinite) is damage; summed
		// with others it would give infinite totals and rates.
		return t.Errorf(t.row.Line, "%s: a size of %g bytes or a duration of %g s: more than any copy or memset moves", a.Name, a.Bytes, a.Duration)
	}
	if err := t.activityTwice(a, t.row.Line); err != nil {
		return err
	}
	t.s.records++
	t.s.acct.Activities++
	if t.s.sink.Activity != nil {
		return t.s.sink.Activity(t.s.run, a)
	}
	if len(t.s.run.Activities) < maxActivities || a.Invocations != 1 {
		t.s.run.Activities = append(t.s.run.Activities, a)
		return nil
	}
	// Past maxActivities, the copies of a long trace are folded into one
	// record per kind, memory types, device and stream (Invocations, and
	// the mean duration and size, as a summary row gives them), so that
	// memory stays flat however long the trace.
	key := activityKey{a.Kind, a.Name, a.SrcMemType, a.DstMemType, a.Device, a.Stream}
	f := t.s.folded[key]
	if f == nil {
		if t.s.folded == nil {
			t.s.folded = map[activityKey]*profan.Activity{}
			t.note(t.s.lr.n, "memory activities", "more than %d: the later ones are folded into one record per kind, memory types and stream", maxActivities)
		}
		c := *a
		c.Correlation = ""
		t.s.folded[key] = &c
		t.s.run.Activities = append(t.s.run.Activities, &c)
		return nil
	}
	n := float64(f.Invocations)
	f.Duration = (f.Duration*n + a.Duration) / (n + 1)
	f.Bytes = (f.Bytes*n + a.Bytes) / (n + 1)
	f.Throughput = math.NaN()
	f.Invocations++
	return nil
}

// maxActivityBytes bounds the size of one copy or memset: a pebibyte,
// far past any GPU's or host's memory.
const maxActivityBytes = 1 << 50

// maxActivities is how many memory activities a run keeps one by one.
var maxActivities = 1 << 14 // a variable for tests

type activityKey struct{ kind, name, src, dst, device, stream string }

// API records a host API summary row.
func (t *table) API(c *profan.APICall) {
	t.s.records++
	t.s.run.APICalls = append(t.s.run.APICalls, c)
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
