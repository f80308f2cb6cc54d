package ingest

import (
	"bytes"
	"errors"
	"fmt"
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
	i := 0
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
