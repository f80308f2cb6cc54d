package ingest

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unicode/utf16"

	"github.com/profan-dev/profan/internal/safe"
	"unicode/utf8"
)

// maxLine bounds one line so that a file without newlines cannot exhaust
// memory: a longer line is an error found as soon as the limit is passed,
// without reading the rest. The widest real rows (ncu raw pages of a full
// set with instanced values) are about 135 kB.
const maxLine = 4 << 20

// maxFields bounds the fields of one record (real ncu raw pages have about
// 3,700 columns), so that a line of commas cannot blow up the field slice.
const maxFields = 1 << 16

// lineReader yields the lines of an export one at a time, with their
// numbers, after removing a byte-order mark, decoding UTF-16 and stripping
// CR LF. It refuses binary data and invalid UTF-8 with the line it is on.
type lineReader struct {
	br *bufio.Reader
	// h, when set, hashes the decoded text: each line without its CR LF,
	// then LF. Plain, gzip, BOM, UTF-16 and CRLF copies of one export,
	// with or without a final line end, have one digest, that of the plain
	// copy's bytes.
	h       io.Writer
	src     string
	n       int    // number of the last line returned
	long    []byte // buffer for lines longer than the bufio buffer
	pending []byte // a line pushed back by unread
	hasPend bool

	// Sniffing reads the head of the export to find its format; the lines
	// it read are recorded and replayed, so that the input is read once.
	recording bool
	recorded  [][]byte
	recBytes  int
	replay    [][]byte
	replayErr error // an error met while sniffing, returned after the replay

	// aheadOK lets read take the text from a read ahead (linesahead.go),
	// started at the first line read from br, and ahead is it.
	aheadOK bool
	ahead   *lineAhead
	size    int // br's size: a chunk's
}

func newLineReader(r io.Reader, src string, size int) (*lineReader, error) {
	br := bufio.NewReaderSize(r, size)
	// A gzip-compressed export (a CI artifact, a large fixture) is read
	// as the text inside it; the digest stays that of the file's bytes.
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &syntaxError{File: src, Line: 1, Msg: "gzip data: " + err.Error()}
		}
		br = bufio.NewReaderSize(zr, 256<<10)
	}
	bom, _ := br.Peek(3)
	switch {
	case bytes.HasPrefix(bom, []byte{0xEF, 0xBB, 0xBF}):
		br.Discard(3)
	case bytes.HasPrefix(bom, []byte{0xFF, 0xFE}):
		br.Discard(2)
		br = bufio.NewReaderSize(&utf16Reader{r: br, order: binary.LittleEndian}, 256<<10)
	case bytes.HasPrefix(bom, []byte{0xFE, 0xFF}):
		br.Discard(2)
		br = bufio.NewReaderSize(&utf16Reader{r: br, order: binary.BigEndian}, 256<<10)
	}
	return &lineReader{br: br, src: src, size: size}, nil
}

// next returns the next line without its terminator. The slice is valid
// until the following call. At the end it returns io.EOF.
func (l *lineReader) next() ([]byte, error) {
	if l.hasPend {
		l.hasPend = false
		l.n++
		return l.pending, nil
	}
	if len(l.replay) > 0 {
		line := l.replay[0]
		l.replay = l.replay[1:]
		l.n++
		return line, nil
	}
	if l.replayErr != nil {
		err := l.replayErr
		l.replayErr = nil
		return nil, err
	}
	line, err := l.read()
	if l.recording && err == nil {
		c := append([]byte(nil), line...)
		l.recorded = append(l.recorded, c)
		l.recBytes += len(c) + 32 // a slice's header: blank lines count too
	}
	return line, err
}

// rewind replays the recorded lines from the first one.
func (l *lineReader) rewind(err error) {
	l.replay, l.recorded, l.recording = l.recorded, nil, false
	l.hasPend = false
	l.n = 0
	if err != io.EOF {
		l.replayErr = err
	}
}

func (l *lineReader) read() ([]byte, error) {
	if l.ahead != nil || l.aheadOK && !l.recording && l.startAhead() {
		return l.readAhead()
	}
	line, err := l.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = l.br.ReadSlice('\n')
			l.long = append(l.long, line...)
			if len(l.long) > maxLine {
				return nil, &syntaxError{File: l.src, Line: l.n + 1, Msg: fmt.Sprintf("line longer than %d bytes (not a profiler export?)", maxLine)}
			}
		}
		line = l.long
	}
	if de := decodeError(l.src, l.n+1, err); de != nil {
		return nil, de
	}
	if err != nil && err != io.EOF {
		var se *syntaxError
		if errors.As(err, &se) {
			return nil, se // a check of the stream beneath (a pipe's spool)
		}
		return nil, fmt.Errorf("reading %s: %w", l.src, err)
	}
	if len(line) == 0 && err == io.EOF {
		return nil, io.EOF
	}
	l.n++
	last := err == io.EOF
	whole := line // with its LF, when it has one
	line = bytes.TrimSuffix(line, newline)
	line = bytes.TrimSuffix(line, cr)
	if l.h != nil {
		if len(whole) == len(line)+1 && whole[len(line)] == '\n' {
			l.h.Write(whole) // the line and its LF in one write
		} else {
			l.h.Write(line)
			l.h.Write(newline)
		}
	}
	return l.check(line, safe.Plain(line), last)
}

// line is a line the read ahead found (without its LF), plain when it is
// known to be so; last when it ends the text without a line end.
func (l *lineReader) line(line []byte, plain, last bool) ([]byte, error) {
	l.n++
	line = bytes.TrimSuffix(line, cr)
	return l.check(line, plain || safe.Plain(line), last)
}

// check refuses binary data and invalid UTF-8 in line, the l.n-th, makes
// what would drive a terminal visible, and refuses a last line cut short.
func (l *lineReader) check(line []byte, plain, last bool) ([]byte, error) {
	if plain {
		if last && !cutWhole(line) {
			return nil, l.cut()
		}
		return line, nil // nearly every line: none of the checks below can fail
	}
	if i := bytes.IndexByte(line, 0); i >= 0 {
		return nil, binaryError(l.src, l.n, "binary data (NUL byte): not a text export")
	}
	if !utf8.Valid(line) {
		return nil, binaryError(l.src, l.n, "invalid UTF-8: the file is not UTF-8 or UTF-16 text")
	}
	if safe.Needed(line) {
		// Control characters, ANSI/OSC sequences and bidi controls in a
		// kernel name or program output are kept as visible escapes
		// (\x1b, \u202e): nothing read from an export can drive the
		// terminal or reorder a page's text.
		line = []byte(safe.Term(string(line)))
	}
	if last && !cutWhole(line) {
		return nil, l.cut()
	}
	return line, nil
}

func (l *lineReader) cut() error {
	return &syntaxError{File: l.src, Line: l.n, Msg: "the last line has no line end and ends in an unquoted field, which may be cut short (truncated row?)"}
}

// cutWhole reports whether a last line without its line end can be taken
// as whole: text, which is skipped whatever its end; a row whose last
// field is quoted and closed, which no cut gives; or a row cut inside a
// quoted field, which the table reader refuses as such. A row ending in an
// unquoted field may have lost digits or a unit ("4558048" cut to
// "455776") and is refused.
func cutWhole(line []byte) bool {
	if !isRowLike(line) {
		return true
	}
	if _, err := splitCSV(line, nil); err != nil {
		return true
	}
	return len(line) > 1 && line[len(line)-1] == '"' && bytes.Count(line, []byte{'"'})%2 == 0
}

// unread pushes line back so that the next call to next returns it again.
func (l *lineReader) unread(line []byte) {
	l.pending = append(l.pending[:0], line...)
	l.hasPend = true
	l.n--
}

// bufSize is the read buffer for r: 256 kB, less for an input known to be
// small (tests and fuzzers read thousands of them).
func bufSize(r io.Reader) int {
	const size = 256 << 10
	if l, ok := r.(interface{ Len() int }); ok && l.Len() < size {
		return max(l.Len()+64, 4096)
	}
	return size
}

var newline, cr = []byte{'\n'}, []byte{'\r'}

var (
	errOddUTF16      = errors.New("utf-16 input ends in the middle of a character (truncated file?)")
	errLoneSurrogate = errors.New("utf-16 input holds a lone surrogate (half of a pair): not Unicode text")
)

// utf16Reader decodes UTF-16 (as PowerShell's redirection writes it) into
// UTF-8.
type utf16Reader struct {
	r     io.Reader
	order binary.ByteOrder
	in    [4096]byte
	odd   []byte // a trailing byte of an incomplete code unit
	out   []byte
	hi    uint16 // pending high surrogate
	bad   bool   // a lone surrogate met
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.bad {
			return 0, errLoneSurrogate
		}
		n, err := u.r.Read(u.in[len(u.odd):])
		copy(u.in[:], u.odd)
		n += len(u.odd)
		u.odd = u.odd[:0]
		buf := u.in[:n]
		for len(buf) >= 2 {
			c := u.order.Uint16(buf)
			buf = buf[2:]
			switch {
			case u.hi != 0 && (c < 0xDC00 || c > 0xDFFF), u.hi == 0 && c >= 0xDC00 && c <= 0xDFFF:
				// Half of a pair: read as U+FFFD (or dropped), two names
				// that differ there would be one.
				u.bad = true
			case utf16.IsSurrogate(rune(c)) && c < 0xDC00:
				u.hi = c
				continue
			case utf16.IsSurrogate(rune(c)):
				u.out = utf8.AppendRune(u.out, utf16.DecodeRune(rune(u.hi), rune(c)))
			default:
				u.out = utf8.AppendRune(u.out, rune(c))
			}
			u.hi = 0
			if u.bad {
				break
			}
		}
		u.odd = append(u.odd, buf...)
		if u.bad {
			continue // the text before it first, so that its line is told
		}
		if err != nil {
			if len(u.out) > 0 {
				break
			}
			if err == io.EOF && (len(u.odd) > 0 || u.hi != 0) {
				if u.hi != 0 {
					return 0, errLoneSurrogate
				}
				return 0, errOddUTF16
			}
			return 0, err
		}
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

// decodeError is err, an error of the decoding beneath the text (a gzip
// stream corrupt or cut short, UTF-16 of an odd length), as an error at
// the line being read; nil for any other error.
func decodeError(src string, line int, err error) error {
	if err == nil || err == io.EOF {
		return nil // nearly every line: nothing below allocates for them
	}
	if err == errOddUTF16 || err == errLoneSurrogate {
		return &syntaxError{File: src, Line: line, Msg: err.Error()}
	}
	var corrupt flate.CorruptInputError
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.As(err, &corrupt) {
		return &syntaxError{File: src, Line: line, Msg: "corrupt or truncated gzip data: " + err.Error()}
	}
	return nil
}

// textHash hashes decoded text as the line reader hashes its lines, from
// chunks that may split it anywhere (between a CR and its LF included):
// each line without its CR LF, then LF; a last line without its line end
// gets one, and a CR that ends the text ends its last line. A JSON
// document, which may be one line of a gigabyte, and the digest computed
// beside a read (digestOf) are hashed so, never split into lines.
type textHash struct {
	h    io.Writer // nil: nothing is hashed
	cr   bool      // the last byte seen is a CR, held back
	last byte      // the last byte written
	any  bool      // a byte was written
}

var carriageReturn = []byte{'\r'}

func (t *textHash) write(chunk []byte) {
	if t.h == nil || len(chunk) == 0 {
		return
	}
	if t.cr {
		if chunk[0] != '\n' {
			t.put(carriageReturn)
		}
		t.cr = false
	}
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\r')
		if i < 0 {
			t.put(chunk)
			return
		}
		t.put(chunk[:i])
		if i == len(chunk)-1 {
			t.cr = true
			return
		}
		if chunk[i+1] != '\n' {
			t.put(carriageReturn)
		}
		chunk = chunk[i+1:]
	}
}

func (t *textHash) put(b []byte) {
	if len(b) > 0 {
		t.h.Write(b)
		t.last, t.any = b[len(b)-1], true
	}
}

// end ends the text: its last line gets its line end.
func (t *textHash) end() {
	if t.h == nil {
		return
	}
	if t.cr || t.any && t.last != '\n' {
		t.put(newline)
	}
	t.cr = false
}
