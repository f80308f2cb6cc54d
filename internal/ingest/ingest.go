package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"strings"
	"sync/atomic"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/safe"
)

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
	s := &stream{lr: lr, run: run, sink: sink, src: src, forced: forced, doc: doc, maxText: maxText, seed: maphash.MakeSeed(), tables: map[uint64]int{}, states: in.states.clone()}
	if sink.Kernel != nil && opt.Concurrent {
		// Parse on this goroutine and hand kernels to the sink on another:
		// the sink (analysis, storage) then overlaps the parsing. Kernels
		// go over in batches: a trace has a kernel per line, and a
		// hand-over per kernel kept both goroutines waking each other
		// (on 600,000 launches they used 1.2 of 2 cores). A batch is
		// bounded by its metrics too, so that the kernels in flight hold
		// about as much as before whatever their size (64 trace rows,
		// whose kernels have no metrics; 2 or 3 launches of an ncu page,
		// 95 metric rows each: with 10 a batch, a parse faster than the
		// analysis kept up to 60 launches in flight, 2 MB more of peak
		// RSS).
		const batch, batchMetrics = 64, 256
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
	// The text is read ahead of the parse on a goroutine of its own
	// (linesahead.go), which ends before this returns.
	s.lr.aheadOK = true
	defer s.lr.stopAhead()
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
	s.lr.stopAhead()
	var none error
	if tables == 0 {
		none = noTableError(s.run, s.src, s.lr.n, s.textSeen)
	}
	return s.result(in, opt, strings.Join(dedup(formats), "+"), none)
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
	if err != nil && c.ctx != nil && c.ctx.Err() != nil {
		err = c.ctx.Err() // a read the cancellation ended (File.Read's deadline)
	}
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
