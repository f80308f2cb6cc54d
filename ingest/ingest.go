package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/profan-dev/profan"
)

// Importer reads one kind of table. Importers are chosen by their header
// (Match), never by the file's name.
type Importer interface {
	// Name is the format name users pass to --format, e.g. "ncu-details".
	Name() string
	// Tool is profan.ToolNCU, profan.ToolNvprof or profan.ToolNsys.
	Tool() string
	// Match reports whether a CSV header line starts a table of this kind.
	Match(header []string) bool
	// Parse reads the table's rows from t and emits what they hold.
	Parse(t *Table) error
}

// Importers is the registry: the order in which headers are tried.
// Adding a format is one file and one line here.
var Importers = []Importer{
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
}

// ByName returns the importer called name.
func ByName(name string) (Importer, bool) {
	for _, imp := range Importers {
		if imp.Name() == name {
			return imp, true
		}
	}
	return nil, false
}

// Names lists the registered format names.
func Names() []string {
	var out []string
	for _, imp := range Importers {
		out = append(out, imp.Name())
	}
	return out
}

// SyntaxError is a problem with the input at a given line.
type SyntaxError struct {
	File string
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

var errSinkFailed = errors.New("sink failed")

// ErrNoTable is wrapped by the error for an export that holds no table.
var ErrNoTable = errors.New("no profiler table")

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
}

// ReadFile reads a whole export into memory.
func ReadFile(path string, opt Options) (*profan.Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, opt, Sink{})
}

// Read parses the export r (named src in errors) and streams its contents
// to sink. The returned Run holds the run's identity, messages and whatever
// the sink did not take.
func Read(r io.Reader, src string, opt Options, sink Sink) (*profan.Run, error) {
	var forced Importer
	if opt.Format != "" {
		imp, ok := ByName(opt.Format)
		if !ok {
			return nil, fmt.Errorf("unknown format %q (known: %s)", opt.Format, strings.Join(Names(), ", "))
		}
		forced = imp
	}
	maxText := opt.MaxTextMessages
	if maxText == 0 {
		maxText = 32
	}
	h := sha256.New()
	var src2 io.Reader = io.TeeReader(r, h)
	if opt.Digest != "" {
		src2 = r
	}
	cr := &countReader{r: src2}
	lr, err := newLineReader(cr, src)
	if err != nil {
		return nil, err
	}
	run := &profan.Run{Source: src}
	s := &stream{lr: lr, run: run, sink: sink, src: src}
	if sink.Kernel != nil && opt.Concurrent {
		// Parse on this goroutine and hand kernels to the sink on another:
		// the sink (analysis, storage) then overlaps the parsing.
		ch := make(chan *profan.Kernel, 64)
		done := make(chan error, 1)
		var failed atomic.Bool
		go func() {
			var err error
			for k := range ch {
				if err == nil {
					if err = sink.Kernel(run, k); err != nil {
						failed.Store(true)
					}
				}
			}
			done <- err
		}()
		s.sink.Kernel = func(_ *profan.Run, k *profan.Kernel) error {
			if failed.Load() {
				return errSinkFailed // the consumer's error is returned below
			}
			ch <- k
			return nil
		}
		r, err := readTables(s, lr, opt, src, forced, maxText, h, cr)
		close(ch)
		if cerr := <-done; cerr != nil {
			return nil, cerr
		}
		if err != nil {
			return nil, err
		}
		return r, nil
	}
	return readTables(s, lr, opt, src, forced, maxText, h, cr)
}

// readTables reads every table of the export.
func readTables(s *stream, lr *lineReader, opt Options, src string, forced Importer, maxText int, h hash.Hash, cr *countReader) (*profan.Run, error) {
	run := s.run
	var marker string
	var formats []string
	var textSeen, textKept int
	var fields [][]byte
	tables := 0
	for {
		line, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if msg, ok := parseMessage(line); ok {
			msg.Line = lr.n
			run.Messages = append(run.Messages, msg.Message)
			if run.Tool == "" {
				run.Tool = msg.tool
			}
			marker = msg.Text
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var imp Importer
		if isRowLike(line) {
			fields, err = splitCSV(line, fields[:0])
			if err == nil {
				header := toStrings(fields)
				if forced != nil {
					if forced.Match(header) || tables == 0 {
						imp = forced
					}
				} else {
					for _, cand := range Importers {
						if cand.Match(header) {
							imp = cand
							break
						}
					}
				}
				if imp != nil {
					t := &Table{Header: header, Marker: marker, Line: lr.n, s: s}
					if run.Tool == "" || (tables == 0 && run.Tool != imp.Tool()) {
						run.Tool = imp.Tool()
					}
					if err := imp.Parse(t); err != nil {
						return nil, err
					}
					for t.Next() {
						// Drain rows an importer left unread.
					}
					if t.err != nil {
						return nil, t.err
					}
					tables++
					if len(formats) == 0 || formats[len(formats)-1] != imp.Name() {
						formats = append(formats, imp.Name())
					}
					marker = ""
					continue
				}
			}
		}
		// Application output or trailer text.
		textSeen++
		if textKept < maxText {
			textKept++
			run.Messages = append(run.Messages, profan.Message{Line: lr.n, Level: "output", Text: string(line)})
		}
	}
	run.Format = strings.Join(dedup(formats), "+")
	run.Size = cr.n
	run.Digest = opt.Digest
	if run.Digest == "" {
		run.Digest = "sha256:" + hex.EncodeToString(h.Sum(nil))
	}
	if tables == 0 {
		return nil, noTableError(run, src, lr.n, textSeen)
	}
	if err := run.CheckValid(); err != nil {
		return nil, fmt.Errorf("%s: invalid result: %w", src, err)
	}
	return run, nil
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
		return &SyntaxError{File: src, Line: 1, Msg: "empty file: " + ErrNoTable.Error()}
	}
	tool := run.Tool
	if tool == "" {
		tool = "the profiler"
	}
	for _, m := range run.Messages {
		if m.Level == "error" {
			return &SyntaxError{File: src, Line: m.Line, Msg: fmt.Sprintf("%s failed, no table in the export: %s", tool, m.Text)}
		}
	}
	for _, m := range run.Messages {
		if m.Level == "output" && strings.Contains(m.Text, "Time(%)") && !strings.Contains(m.Text, ",") {
			return &SyntaxError{File: src, Line: m.Line, Msg: "nvprof text output, not CSV: rerun nvprof with --csv"}
		}
	}
	for _, m := range run.Messages {
		if m.Level == "warning" {
			return &SyntaxError{File: src, Line: m.Line, Msg: fmt.Sprintf("%s wrote no table: %s", tool, m.Text)}
		}
	}
	if len(run.Messages) > 0 && text == 0 {
		m := run.Messages[len(run.Messages)-1]
		return &SyntaxError{File: src, Line: m.Line, Msg: fmt.Sprintf("%s wrote no table (last message: %s)", tool, m.Text)}
	}
	return &SyntaxError{File: src, Line: 1, Msg: fmt.Sprintf("%v: no nvprof, ncu or nsys CSV header found in %d lines", ErrNoTable, lines)}
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
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
	var tool, level string
	switch {
	case tag == "PROF":
		tool, level = profan.ToolNCU, "info"
	case tag == "WARNING":
		tool, level = profan.ToolNCU, "warning"
	case tag == "ERROR":
		tool, level = profan.ToolNCU, "error"
	case tag == "" || strings.Trim(tag, "=") == "":
		tool, level = profan.ToolNvprof, "info"
		text = strings.TrimSpace(strings.TrimLeft(string(rest), "="))
	default:
		if _, err := strconv.Atoi(tag); err != nil {
			return profanMessage{}, false
		}
		tool, level = profan.ToolNvprof, "info"
	}
	if level == "info" {
		switch {
		case strings.HasPrefix(text, "Error") || strings.Contains(text, "Error:"):
			level = "error"
		case strings.HasPrefix(text, "Warning"):
			level = "warning"
		}
	}
	return profanMessage{Message: profan.Message{Level: level, Text: text}, tool: tool}, true
}

// stream is the state shared by the tables of one export.
type stream struct {
	lr      *lineReader
	run     *profan.Run
	sink    Sink
	src     string
	ordinal int
	intern  map[string]string
}

// Table is one CSV table of an export, handed to the importer whose header
// it matched. Rows run until a blank line, a message line or text.
type Table struct {
	Header []string
	Marker string // the message line just before the header, e.g. "API calls:"
	Line   int    // line number of the header

	s      *stream
	row    Row
	done   bool
	err    error
	fields [][]byte
}

// Row is one data row. Its fields are valid until the next call to Next.
type Row struct {
	Line   int
	fields [][]byte
}

// Len is the number of fields in the row.
func (r Row) Len() int { return len(r.fields) }

// Bytes returns field i, or nil when the row is shorter (ncu's metric rows
// are shorter than their header).
func (r Row) Bytes(i int) []byte {
	if i < 0 || i >= len(r.fields) {
		return nil
	}
	return r.fields[i]
}

// String returns field i as a string ("" when absent).
func (r Row) String(i int) string { return string(r.Bytes(i)) }

// Next advances to the next data row. It returns false at the end of the
// table or on an error, which Err reports.
func (t *Table) Next() bool {
	if t.done {
		return false
	}
	line, err := t.s.lr.next()
	if err == io.EOF {
		t.done = true
		return false
	}
	if err != nil {
		t.err, t.done = err, true
		return false
	}
	if len(bytes.TrimSpace(line)) == 0 || !isRowLike(line) {
		t.s.lr.unread(line)
		t.done = true
		return false
	}
	if _, ok := parseMessage(line); ok {
		t.s.lr.unread(line)
		t.done = true
		return false
	}
	t.fields, err = splitCSV(line, t.fields[:0])
	if err != nil {
		t.err, t.done = t.Errorf(t.s.lr.n, "%v", err), true
		return false
	}
	t.row = Row{Line: t.s.lr.n, fields: t.fields}
	return true
}

// Row returns the current row.
func (t *Table) Row() Row { return t.row }

// Err returns the first error met while reading rows.
func (t *Table) Err() error { return t.err }

// finish ends a table's parse: the first read error, else an error when
// the table had no data rows after its header (what: "a header", or "a
// header and units row"), as a truncated export has.
func (t *Table) finish(rows int, format, what string) error {
	if t.err != nil {
		return t.err
	}
	if rows == 0 {
		return t.Errorf(t.Line, "%s: the table has %s but no rows (truncated export?)", format, what)
	}
	return nil
}

// Run returns the run being read.
func (t *Table) Run() *profan.Run { return t.s.run }

// Errorf returns a SyntaxError at line.
func (t *Table) Errorf(line int, format string, args ...any) error {
	return &SyntaxError{File: t.s.src, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// Ordinal returns the next 0-based launch ordinal, for exports without IDs.
func (t *Table) Ordinal() string {
	s := strconv.Itoa(t.s.ordinal)
	t.s.ordinal++
	return s
}

// Intern returns b as a string, sharing storage with earlier equal strings:
// exports repeat kernel, section and metric names on every row.
func (t *Table) Intern(b []byte) string {
	if t.s.intern == nil {
		t.s.intern = make(map[string]string, 1024)
	}
	if s, ok := t.s.intern[string(b)]; ok {
		return s
	}
	if len(t.s.intern) > 1<<16 {
		return string(b) // bound the table on exports with unbounded names
	}
	s := string(b)
	t.s.intern[s] = s
	return s
}

// Kernel hands a completed kernel to the sink.
func (t *Table) Kernel(k *profan.Kernel, line int) error {
	if err := k.CheckValid(); err != nil {
		return t.Errorf(line, "%v", err)
	}
	if t.s.sink.Kernel != nil {
		return t.s.sink.Kernel(t.s.run, k)
	}
	t.s.run.Kernels = append(t.s.run.Kernels, k)
	return nil
}

// Activity hands a memory activity to the sink.
func (t *Table) Activity(a *profan.Activity) error {
	if t.s.sink.Activity != nil {
		return t.s.sink.Activity(t.s.run, a)
	}
	t.s.run.Activities = append(t.s.run.Activities, a)
	return nil
}

// API records a host API summary row.
func (t *Table) API(c *profan.APICall) { t.s.run.APICalls = append(t.s.run.APICalls, c) }

// Columns maps header names to their positions; the first wins.
type Columns map[string]int

// ColumnsOf indexes a header.
func ColumnsOf(header []string) Columns {
	c := make(Columns, len(header))
	for i, h := range header {
		if _, ok := c[h]; !ok {
			c[h] = i
		}
	}
	return c
}

// Get returns the position of name, or -1.
func (c Columns) Get(name string) int {
	if i, ok := c[name]; ok {
		return i
	}
	return -1
}

// Has reports whether every name is present.
func (c Columns) Has(names ...string) bool {
	for _, n := range names {
		if _, ok := c[n]; !ok {
			return false
		}
	}
	return true
}

// Sniff returns the format name of the first table of the export at path,
// reading at most its first 4 MB; "" when none is found there.
func Sniff(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	lr, err := newLineReader(io.LimitReader(f, 4<<20), path)
	if err != nil {
		return "", err
	}
	var fields [][]byte
	for {
		line, err := lr.next()
		if err != nil {
			if err == io.EOF {
				return "", nil
			}
			var se *SyntaxError
			if errors.As(err, &se) {
				return "", nil
			}
			return "", err
		}
		if _, ok := parseMessage(line); ok || !isRowLike(line) {
			continue
		}
		if fields, err = splitCSV(line, fields[:0]); err != nil {
			continue
		}
		header := toStrings(fields)
		for _, imp := range Importers {
			if imp.Match(header) {
				return imp.Name(), nil
			}
		}
	}
}
