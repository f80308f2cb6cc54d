package ingest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

var errUnterminated = errors.New("unterminated quoted field (truncated row?)")

var errTooManyFields = fmt.Errorf("more than %d fields in one line (not a profiler export?)", maxFields)

// splitCSV splits one CSV record (RFC 4180, one line) into fields appended
// to dst. Fields point into line; a quoted field with "" escapes is unescaped
// into a fresh slice. Profilers quote every field (ncu), only strings
// (nvprof) or only fields with commas (nsys), so quoting is never a type.
func splitCSV(line []byte, dst [][]byte) ([][]byte, error) {
	return splitFields(line, dst, false)
}

var errQuoteInField = errors.New("a quote inside an unquoted field (a lost opening quote, or a damaged row?)")

var errTextAfterQuote = errors.New("text after a quoted field's closing quote (a stray quote inside a field, or a damaged row?)")

// splitStrict is splitCSV that refuses text between a closing quote and
// the next comma, and a quote inside an unquoted field: only ncu's source pages print such fields (their source
// text is quoted without escaping its quotes); in any other table it is a
// stray or lost quote that would shift a field's text.
func splitStrict(line []byte, dst [][]byte) ([][]byte, error) {
	return splitFields(line, dst, true)
}

func splitFields(line []byte, dst [][]byte, strict bool) ([][]byte, error) {
	return splitFrom(line, 0, dst, strict, nil)
}

// fieldSpan is where a field lies in its line: its text from start to
// end (start -1: a quoted field with "" escapes, unescaped into a copy),
// and its separating comma at sep (len(line) for the last field).
type fieldSpan struct{ start, end, sep int32 }

// splitFrom is splitFields of line from byte i, where a field starts,
// appending to dst; spans, when not nil, gets each field's span.
func splitFrom(line []byte, i int, dst [][]byte, strict bool, spans *[]fieldSpan) ([][]byte, error) {
	for {
		if len(dst) >= maxFields {
			return dst, errTooManyFields
		}
		// Tolerate ", " separators that some wrappers print before a quote.
		j := i
		for j < len(line) && line[j] == ' ' {
			j++
		}
		if j < len(line) && line[j] == '"' {
			f, next, err := quoted(line, j+1)
			if err != nil {
				return dst, err
			}
			dst = append(dst, f)
			if spans != nil {
				sp := fieldSpan{int32(j + 1), int32(next - 1), int32(len(line))}
				if next-1-(j+1) != len(f) {
					sp.start = -1 // unescaped into a copy
				}
				*spans = append(*spans, sp)
			}
			if next >= len(line) {
				return dst, nil
			}
			if line[next] != ',' {
				if strict {
					return dst, errTextAfterQuote
				}
				// Text after the closing quote: keep it, as encoding/csv's
				// LazyQuotes does, up to the next comma.
				k := next
				for k < len(line) && line[k] != ',' {
					k++
				}
				if k >= len(line) {
					return dst, nil
				}
				next = k
			}
			if spans != nil {
				(*spans)[len(*spans)-1].sep = int32(next)
			}
			i = next + 1
			continue
		}
		k := len(line)
		if c := bytes.IndexByte(line[i:], ','); c >= 0 {
			k = i + c
		}
		if strict && bytes.IndexByte(line[i:k], '"') >= 0 {
			return dst, errQuoteInField
		}
		dst = append(dst, line[i:k])
		if spans != nil {
			*spans = append(*spans, fieldSpan{int32(i), int32(k), int32(k)})
		}
		if k >= len(line) {
			return dst, nil
		}
		i = k + 1
	}
}

// quoted reads a quoted field whose content starts at i; it returns the
// field and the index just after the closing quote.
func quoted(line []byte, i int) ([]byte, int, error) {
	start := i
	var esc []byte
	for {
		q := bytes.IndexByte(line[i:], '"')
		if q < 0 {
			return nil, len(line), errUnterminated
		}
		i += q
		if i+1 < len(line) && line[i+1] == '"' {
			if esc == nil {
				esc = make([]byte, 0, len(line)-start)
			}
			esc = append(esc, line[start:i+1]...)
			i += 2
			start = i
			continue
		}
		if esc != nil {
			return append(esc, line[start:i]...), i + 1, nil
		}
		return line[start:i], i + 1, nil
	}
}

// splitRepeating is splitStrict of a line of a table whose rows repeat
// the fields before them (a details page's launch, section and metric
// names): the fields whose text and separating comma lie in the bytes the
// line shares with the line split before it are that line's, at the same
// places, and only the rest is split.
func (t *table) splitRepeating(line []byte) ([][]byte, error) {
	k := 0
	if n := len(t.spans); n > 1 {
		c := commonPrefix(line, t.spanText)
		for k < n-1 && int(t.spans[k].sep) < c {
			k++
		}
	}
	fields, from := t.fields[:0], 0
	for i, sp := range t.spans[:k] {
		if sp.start < 0 {
			fields = append(fields, t.spanCopies[i])
		} else {
			fields = append(fields, line[sp.start:sp.end])
		}
	}
	if k > 0 {
		from = int(t.spans[k-1].sep) + 1
	}
	t.spans = t.spans[:k]
	fields, err := splitFrom(line, from, fields, true, &t.spans)
	if err != nil {
		t.spans = t.spans[:0]
		return fields, err
	}
	t.spanText = append(t.spanText[:0], line...)
	for i, sp := range t.spans {
		if sp.start < 0 {
			if len(t.spanCopies) < len(t.spans) {
				t.spanCopies = make([][]byte, len(t.spans))
			}
			t.spanCopies[i] = fields[i] // a copy of its own, never written to
		}
	}
	return fields, nil
}

// commonPrefix is the length of the bytes a and b begin with alike.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}
