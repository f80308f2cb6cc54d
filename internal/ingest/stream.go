package ingest

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
)

// The stream: the state shared by the tables of one export, and the
// reading of the lines between tables (headers, profiler messages,
// application output, interlopers).

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
	t.sum.reset(s.seed)
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
	recent   [64]string // the strings interned last, by internSlot
	lastName string     // the name of the kernel read last, in names
	marker   string     // the last message line, e.g. "API calls:"
	maxText  int
	textSeen int
	textKept int
	records  int // kernels, activities and API rows emitted
	acct     profan.Accounting
	launches map[string]int // launch identity → line of its first row
	noted    map[string]bool
	brk      bool                // a blank line, message or text since the last row or header
	idle     int                 // lines in a row that were no header or row
	messages int                 // profiler messages met
	names    map[string]struct{} // distinct kernel names
	process  string              // the process the last banner named ("nvprof 16702")
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
	// states are what importers keep over the export (formatStates):
	// nvprof's metric units, nsys's host calls.
	states formatStates
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
