package ingest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonLex reads a JSON document from a stream one token at a time, with
// the byte offset of each: a trace of a gigabyte is walked in one pass
// through a 256 kB window, its values parsed in place. (encoding/json's
// Decoder scans each value twice, to find its end and to decode it, and
// read PyTorch traces at about 60 MB/s of one core; this reads them at
// several times that.) It checks the grammar of RFC 8259 on everything
// it reads or skips; strings are unescaped, numbers checked and returned
// as their text.
type jsonLex struct {
	src  io.Reader
	buf  []byte
	pos  int
	end  int
	base int64 // offset of buf[0]
	err  error // the source's error, once its bytes are used up
	str  []byte
}

// maxJSONDepth bounds the nesting of skipped values, maxJSONString a
// string.
const (
	maxJSONDepth  = 512
	maxJSONString = 16 << 20
)

// jsonErr is an error at a byte of the document.
type jsonErr struct {
	off int64
	msg string
}

func (e *jsonErr) Error() string { return fmt.Sprintf("byte %d: %s", e.off, e.msg) }

var errJSONEOF = errors.New("the document ends in the middle of a JSON value (truncated file?)")

func newJSONLex(r io.Reader) *jsonLex {
	return &jsonLex{src: r, buf: make([]byte, 256<<10)}
}

// offset is the offset of the next byte.
func (l *jsonLex) offset() int64 { return l.base + int64(l.pos) }

func (l *jsonLex) errorf(off int64, format string, args ...any) error {
	return &jsonErr{off: off, msg: fmt.Sprintf(format, args...)}
}

// fill reads more of the source, keeping buf[keep:end]; it reports
// whether bytes came.
func (l *jsonLex) fill(keep int) bool {
	if l.err != nil {
		return false
	}
	if keep > 0 {
		copy(l.buf, l.buf[keep:l.end])
		l.base += int64(keep)
		l.pos -= keep
		l.end -= keep
	}
	if l.end == len(l.buf) {
		l.buf = append(l.buf, make([]byte, len(l.buf))...)
	}
	for {
		n, err := l.src.Read(l.buf[l.end:])
		l.end += n
		if err != nil {
			l.err = err
		}
		if n > 0 {
			return true
		}
		if err != nil {
			return false
		}
	}
}

// srcErr is the source's error when it is not the end of the input.
func (l *jsonLex) srcErr() error {
	if l.err != nil && l.err != io.EOF {
		return l.err
	}
	return nil
}

// peek skips white space and returns the next byte, without taking it;
// ok is false at the end of the input.
func (l *jsonLex) peek() (byte, bool) {
	for {
		buf, i := l.buf[:l.end], l.pos
		for ; i < len(buf); i++ {
			if c := buf[i]; c > ' ' || c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				l.pos = i
				return c, true
			}
		}
		l.pos = i
		if !l.fill(l.pos) {
			return 0, false
		}
	}
}

// eof returns an error for input that ended early (or the source's own).
func (l *jsonLex) eof() error {
	if err := l.srcErr(); err != nil {
		return err
	}
	return &jsonErr{off: l.offset(), msg: errJSONEOF.Error()}
}

// expect takes the byte c after white space.
func (l *jsonLex) expect(c byte, what string) error {
	got, ok := l.peek()
	if !ok {
		return l.eof()
	}
	if got != c {
		return l.errorf(l.offset(), "%s, not %s", what, quoteByte(got))
	}
	l.pos++
	return nil
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// more is called inside an object or array after a member: it takes the
// comma and reports true, or takes the closing byte and reports false.
func (l *jsonLex) more(closing byte) (bool, error) {
	c, ok := l.peek()
	if !ok {
		return false, l.eof()
	}
	switch c {
	case ',':
		l.pos++
		return true, nil
	case closing:
		l.pos++
		return false, nil
	}
	return false, l.errorf(l.offset(), "a comma or %q, not %s", closing, quoteByte(c))
}

// first is called after an opening byte: it reports whether a member
// follows, taking the closing byte when none does.
func (l *jsonLex) first(closing byte) (bool, error) {
	c, ok := l.peek()
	if !ok {
		return false, l.eof()
	}
	if c == closing {
		l.pos++
		return false, nil
	}
	return true, nil
}

// key reads an object's key and its colon; the key is valid until the
// next string is read or the window moves.
func (l *jsonLex) key() ([]byte, error) {
	c, ok := l.peek()
	if !ok {
		return nil, l.eof()
	}
	if c != '"' {
		return nil, l.errorf(l.offset(), "an object key (a string), not %s", quoteByte(c))
	}
	k, err := l.string()
	if err != nil {
		return nil, err
	}
	if l.pos < l.end && l.buf[l.pos] == ':' {
		l.pos++
		return k, nil
	}
	// The colon may lie past the window, which then moves: the key is
	// kept apart.
	l.str = append(l.str[:0], k...)
	if err := l.expect(':', "a colon after the key"); err != nil {
		return nil, err
	}
	return l.str, nil
}

// string reads a string (the next byte is its quote) and returns it
// unescaped, valid until the next string is read or the window moves.
func (l *jsonLex) string() ([]byte, error) { return l.readString() }

// skipString reads a string and drops it, its grammar and UTF-8 checked.
func (l *jsonLex) skipString() error {
	_, err := l.readString()
	return err
}

// errUTF8 is the message for a string that is no UTF-8: a JSON document
// is UTF-8 text, and a byte that is none is damage (a key or a name read
// with a replacement character would silently be another).
const errUTF8 = "invalid UTF-8 in the string that starts here: the file is not UTF-8 text"

// readString reads a string and returns its text.
func (l *jsonLex) readString() ([]byte, error) {
	start := l.offset()
	l.pos++
	// Most strings lie whole in the window, without escapes: they are
	// returned in place.
	seg := l.buf[l.pos:l.end]
	if i, ascii := strStop(seg); i < len(seg) && seg[i] == '"' && i <= maxJSONString {
		if !ascii && !utf8.Valid(seg[:i]) {
			return nil, l.errorf(start, errUTF8)
		}
		l.pos += i + 1
		return seg[:i], nil
	}
	l.str = l.str[:0]
	for {
		seg := l.buf[l.pos:l.end]
		i, _ := strStop(seg)
		l.str = append(l.str, seg[:i]...)
		l.pos += i
		if len(l.str) > maxJSONString {
			return nil, l.errorf(start, "a string longer than %d bytes (not a profiler trace?)", maxJSONString)
		}
		if l.pos == l.end {
			if !l.fill(l.pos) {
				if err := l.srcErr(); err != nil {
					return nil, err
				}
				return nil, l.errorf(l.offset(), "the input ends inside the string that starts at byte %d (truncated file?)", start)
			}
			continue
		}
		switch c := l.buf[l.pos]; {
		case c == '"':
			l.pos++
			if !utf8.Valid(l.str) {
				return nil, l.errorf(start, errUTF8)
			}
			return l.str, nil
		case c < 0x20:
			return nil, l.errorf(l.offset(), "a control character (0x%02x) inside a string", c)
		}
		// An escape: at most 12 bytes (a surrogate pair).
		for l.end-l.pos < 12 && l.fill(l.pos) {
		}
		if err := l.escape(); err != nil {
			return nil, err
		}
	}
}

// Eight bytes at a time (SWAR): lo8 has 1 in each byte, hi8 the high
// bit of each.
const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// strStop returns the index of the first byte of b that ends a string's
// plain run (a quote, a backslash or a control character), len(b) when
// none does, and whether the bytes before it are all ASCII.
func strStop(b []byte) (int, bool) {
	var seen uint64 // the bytes passed, ORed: their high bits
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		q := x ^ (lo8 * '"')
		bs := x ^ (lo8 * '\\')
		// A byte's high bit is set where it is below 0x20, a quote or a
		// backslash (x - n wraps, a zero byte minus 1 wraps; x's own high
		// bit set means 0x80 or above, ruled out). A borrow that sets a
		// higher byte's bit comes from a byte below it that matched, so
		// the lowest bit set is exact.
		if m := ((x - lo8*0x20) | (q - lo8) | (bs - lo8)) &^ x & hi8; m != 0 {
			k := bits.TrailingZeros64(m) / 8
			seen |= x & (1<<(8*k) - 1)
			return i + k, seen&hi8 == 0
		}
		seen |= x
	}
	for ; i < len(b); i++ {
		c := b[i]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
		seen |= uint64(c)
	}
	return i, seen&hi8 == 0
}

func (l *jsonLex) escape() error {
	at := l.offset()
	if l.pos+1 >= l.end {
		return l.errorf(at, "an escape cut short (truncated file?)")
	}
	c := l.buf[l.pos+1]
	l.pos += 2
	switch c {
	case '"', '\\', '/':
		l.str = append(l.str, c)
	case 'b':
		l.str = append(l.str, '\b')
	case 'f':
		l.str = append(l.str, '\f')
	case 'n':
		l.str = append(l.str, '\n')
	case 'r':
		l.str = append(l.str, '\r')
	case 't':
		l.str = append(l.str, '\t')
	case 'u':
		r, ok := l.hex4()
		if !ok {
			return l.errorf(at, "a \\u escape without four hex digits")
		}
		if utf16.IsSurrogate(r) && l.pos+6 <= l.end && l.buf[l.pos] == '\\' && l.buf[l.pos+1] == 'u' {
			save := l.pos
			l.pos += 2
			if r2, ok := l.hex4(); ok {
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					l.str = utf8.AppendRune(l.str, d)
					return nil
				}
			}
			l.pos = save
		}
		if utf16.IsSurrogate(r) {
			// Half of a pair, as invalid UTF-8 is half of a character:
			// read as U+FFFD, two strings would read as one.
			return l.errorf(at, "a lone UTF-16 surrogate \\u%04x (half of a pair) in a string: not Unicode text", r)
		}
		l.str = utf8.AppendRune(l.str, r)
	default:
		return l.errorf(at, "an invalid escape \\%s", string(rune(c)))
	}
	return nil
}

func (l *jsonLex) hex4() (rune, bool) {
	if l.pos+4 > l.end {
		return 0, false
	}
	var r rune
	for _, c := range l.buf[l.pos : l.pos+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	l.pos += 4
	return r, true
}

// number reads a number (the next byte starts it) and returns its text,
// valid until the window moves.
func (l *jsonLex) number() ([]byte, error) {
	// A number is short: make sure the window holds 64 bytes of it.
	for l.end-l.pos < 64 && l.fill(l.pos) {
	}
	at := l.offset()
	b := l.buf[l.pos:l.end]
	n, bad := numLen(b)
	if bad != "" {
		return nil, l.errorf(at, "%s", bad)
	}
	if n > 64 {
		return nil, l.errorf(at, "a number of more than 64 characters")
	}
	l.pos += n
	return b[:n], nil
}

// numLen is the length of the number that starts b (RFC 8259's grammar,
// the longest match), or what it lacks.
func numLen(b []byte) (int, string) {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch d := digitRun(b[i:]); {
	case i < len(b) && b[i] == '0':
		i++
	case d == 0:
		return 0, "a number without digits"
	default:
		i += d
	}
	if i < len(b) && b[i] == '.' {
		d := digitRun(b[i+1:])
		if d == 0 {
			return 0, "a number without digits after its point"
		}
		i += 1 + d
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := digitRun(b[i:])
		if d == 0 {
			return 0, "a number without digits in its exponent"
		}
		i += d
	}
	return i, ""
}

// digitRun is the number of decimal digits that start b.
func digitRun(b []byte) int {
	for i, c := range b {
		if c < '0' || c > '9' {
			return i
		}
	}
	return len(b)
}

// literal reads true, false or null.
func (l *jsonLex) literal() ([]byte, error) {
	at := l.offset()
	for l.end-l.pos < 5 && l.fill(l.pos) {
	}
	for _, w := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(l.buf[l.pos:l.end], []byte(w)) {
			l.pos += len(w)
			return []byte(w), nil
		}
	}
	if l.pos == l.end {
		return nil, l.eof()
	}
	return nil, l.errorf(at, "not a JSON value: %s", quoteByte(l.buf[l.pos]))
}

// scalarAt reads a string, number or literal whose first byte, c, peek
// returned ('"', a digit or '-', 't', 'f', 'n'); an object or array is
// left unread (nil).
func (l *jsonLex) scalarAt(c byte) ([]byte, error) {
	switch {
	case c == '"':
		return l.string()
	case c == '-' || c >= '0' && c <= '9':
		return l.number()
	case c == '{' || c == '[':
		return nil, nil
	}
	return l.literal()
}

// skip reads a value of any kind and drops it, checking its grammar.
func (l *jsonLex) skip() error { return l.skipDepth(0) }

func (l *jsonLex) skipDepth(depth int) error {
	c, ok := l.peek()
	if !ok {
		return l.eof()
	}
	if depth > maxJSONDepth {
		return l.errorf(l.offset(), "values nested more than %d deep", maxJSONDepth)
	}
	if (c == '{' || c == '[') && depth+fastDepth <= maxJSONDepth && l.skipFast() {
		return nil
	}
	switch c {
	case '{':
		l.pos++
		more, err := l.first('}')
		for more && err == nil {
			if _, err = l.key(); err != nil {
				return err
			}
			if err = l.skipDepth(depth + 1); err != nil {
				return err
			}
			more, err = l.more('}')
		}
		return err
	case '[':
		l.pos++
		more, err := l.first(']')
		for more && err == nil {
			if err = l.skipDepth(depth + 1); err != nil {
				return err
			}
			more, err = l.more(']')
		}
		return err
	}
	if c == '"' {
		return l.skipString()
	}
	_, err := l.scalarAt(c)
	return err
}

// fastDepth bounds the nesting skipFast takes.
const fastDepth = 32

// skipFast skips, in one loop over the window, an object or array (the
// next byte opens it) of strings, numbers, literals, arrays and objects:
// the args PyTorch writes that profan does not read (input shapes, types
// and values, an op's whole args), most of a trace's bytes. Where the
// value holds an escape, a control character or a grammar error, is
// nested fastDepth deep or runs past the window, it takes nothing and
// reports false: skipDepth then reads it token by token, and says what
// is wrong where.
func (l *jsonLex) skipFast() bool {
	const (
		sValue        = iota // a value
		sValueOrClose        // after '[': a value or ']'
		sKey                 // after a comma in an object: a key
		sKeyOrClose          // after '{': a key or '}'
		sColon               // after a key
		sAfter               // after a value: a comma or the closing byte
	)
	b := l.buf[:l.end]
	if l.pos >= len(b) || b[l.pos] != '[' && b[l.pos] != '{' {
		return false
	}
	state, depth := sValue, 0
	var obj uint64 // bit d set: the value open at depth d+1 is an object
	for i := l.pos; i < len(b); {
		c := b[i]
		switch {
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			i++
		case c == '[' || c == '{':
			if state != sValue && state != sValueOrClose || depth == fastDepth {
				return false
			}
			if c == '{' {
				obj |= 1 << depth
				state = sKeyOrClose
			} else {
				obj &^= 1 << depth
				state = sValueOrClose
			}
			depth++
			i++
		case c == ']' || c == '}':
			isObj := obj>>(depth-1)&1 == 1
			if isObj != (c == '}') || state != sAfter && (state != sKeyOrClose || !isObj) && (state != sValueOrClose || isObj) {
				return false
			}
			depth--
			i++
			state = sAfter
			if depth == 0 {
				l.pos = i
				return true
			}
		case c == ',':
			if state != sAfter {
				return false
			}
			i++
			state = sValue
			if obj>>(depth-1)&1 == 1 {
				state = sKey
			}
		case c == ':':
			if state != sColon {
				return false
			}
			i++
			state = sValue
		case c == '"':
			key := state == sKey || state == sKeyOrClose
			if !key && state != sValue && state != sValueOrClose {
				return false
			}
			n, ascii := strStop(b[i+1:])
			if i+1+n >= len(b) || b[i+1+n] != '"' || n > maxJSONString || !ascii && !utf8.Valid(b[i+1:i+1+n]) {
				return false
			}
			i += n + 2
			state = sAfter
			if key {
				state = sColon
			}
		case state != sValue && state != sValueOrClose:
			return false
		case c == '-' || c >= '0' && c <= '9':
			// Most are short integers (shapes and strides): their digits
			// run to a byte that cannot continue a number. The number must
			// end inside the window.
			j := i + 1
			for j < len(b) && b[j]-'0' <= 9 {
				j++
			}
			if c != '-' && (c != '0' || j == i+1) && j < len(b) && j-i <= 64 && b[j] != '.' && b[j]|0x20 != 'e' {
				i = j
				state = sAfter
				break
			}
			n, bad := numLen(b[i:])
			if bad != "" || n > 64 || i+n >= len(b) {
				return false
			}
			i += n
			state = sAfter
		default:
			n := 0
			for _, w := range []string{"true", "false", "null"} {
				if bytes.HasPrefix(b[i:], []byte(w)) {
					n = len(w)
				}
			}
			if n == 0 {
				return false
			}
			i += n
			state = sAfter
		}
	}
	return false
}
