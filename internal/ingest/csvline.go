package ingest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"unsafe"
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

// splitFrom is splitFields of line from byte i, where a field starts,
// appending to dst; seps, when not nil, gets the index of each field's
// separating comma (len(line) for the last field).
func splitFrom(line []byte, i int, dst [][]byte, strict bool, seps *[]int32) ([][]byte, error) {
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
				if seps != nil {
					*seps = append(*seps, int32(len(line)))
				}
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
					if seps != nil {
						*seps = append(*seps, int32(len(line)))
					}
					return dst, nil
				}
				next = k
			}
			if seps != nil {
				*seps = append(*seps, int32(next))
			}
			i = next + 1
			continue
		}
		// An unquoted field: most are short (a trace's numbers), read a
		// byte at a time for their comma (and, strict, a quote), the rest
		// of a long one by IndexByte.
		k, quote := i, false
		for end := min(len(line), i+16); k < end; k++ {
			if c := line[k]; c == ',' {
				break
			} else if c == '"' {
				quote = true
			}
		}
		if k < len(line) && line[k] != ',' {
			k = len(line)
			if c := bytes.IndexByte(line[i+16:], ','); c >= 0 {
				k = i + 16 + c
			}
			quote = quote || bytes.IndexByte(line[i+16:k], '"') >= 0
		}
		if strict && quote {
			return dst, errQuoteInField
		}
		dst = append(dst, line[i:k])
		if seps != nil {
			*seps = append(*seps, int32(k))
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
// names). The line is split in a copy the table keeps (copied), into
// t.fields; the fields that lie, with their separating comma (seps), in
// the bytes the line shares with the line copied before it are that
// line's fields as they are, left in t.fields: only the rest is copied
// and split. (peekWidth, which splits another line into t.fields, drops
// seps; the importers leave a row's fields as they are.)
func (t *table) splitRepeating(line []byte) ([][]byte, error) {
	k := t.sharedFields(line)
	from := 0
	if k > 0 {
		from = int(t.seps[k-1]) + 1
	}
	// The bytes before from are the line's already: the fields split in
	// them stay as they are.
	t.copied = append(t.copied[:from], line[from:]...)
	t.seps = t.seps[:k]
	fields, err := splitFrom(t.copied, from, t.fields[:k], true, &t.seps)
	if err != nil {
		t.seps = t.seps[:0]
	}
	return fields, err
}

// sharedFields is how many fields of the line copied last (t.copied)
// line begins with, separating comma included: first those of the line
// before it, then the fields that follow, one at a time, else as many
// as the bytes the two lines share hold.
func (t *table) sharedFields(line []byte) int {
	n := len(t.seps) - 1 // the last field has no comma after it
	if n <= 0 {
		return 0
	}
	if k := t.shared; k > 0 && k <= n {
		if end := int(t.seps[k-1]) + 1; len(line) >= end && bytes.Equal(line[:end], t.copied[:end]) {
			for k < n {
				start, end := int(t.seps[k-1])+1, int(t.seps[k])+1
				if len(line) < end || !bytes.Equal(line[start:end], t.copied[start:end]) {
					break
				}
				k++
			}
			t.shared = k
			return k
		}
	}
	c := commonPrefix(line, t.copied)
	k := 0
	for k < n && int(t.seps[k]) < c {
		k++
	}
	t.shared = k
	return k
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

// splitTrace is splitStrict of a line of a table of trace rows: a row
// whose first two fields hold no quote and whose middle (from its third
// field through the comma before its last) is the bytes of the middle of
// the row split before it has that row's middle fields at the same
// places: only its first two fields and the rest are split. The fields
// lie in line, as splitStrict's do.
func (t *table) splitTrace(line []byte) ([][]byte, error) {
	if t.midOK {
		if i1 := bytes.IndexByte(line, ','); i1 >= 0 {
			if i2 := bytes.IndexByte(line[i1+1:], ','); i2 >= 0 {
				i2 += i1 + 1
				p, n := i2+1, len(t.mid)
				if len(line) >= p+n && bytes.Equal(line[p:p+n], t.mid) && bytes.IndexByte(line[:p], '"') < 0 {
					fields := append(t.fields[:0], line[:i1], line[i1+1:i2])
					for j, at := range t.midAt {
						fields = append(fields, line[p+int(at):p+int(at)+int(t.midLen[j])])
					}
					return splitFrom(line, p+n, fields, true, nil)
				}
			}
		}
	}
	t.midOK = false
	t.seps = t.seps[:0]
	fields, err := splitFrom(line, 0, t.fields[:0], true, &t.seps)
	if err != nil || len(fields) < 4 {
		return fields, err
	}
	// The middle, kept when the first two fields hold no quote and each
	// middle field lies in it (none unescaped into a copy).
	p, end := int(t.seps[1])+1, int(t.seps[len(fields)-2])+1
	if bytes.IndexByte(line[:p], '"') >= 0 {
		return fields, nil
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(line))) + uintptr(p)
	t.midAt, t.midLen = t.midAt[:0], t.midLen[:0]
	for _, f := range fields[2 : len(fields)-1] {
		at := uintptr(unsafe.Pointer(unsafe.SliceData(f))) - base
		if at > uintptr(end-p) || int(at)+len(f) > end-p {
			return fields, nil
		}
		t.midAt, t.midLen = append(t.midAt, int32(at)), append(t.midLen, int32(len(f)))
	}
	t.mid = append(t.mid[:0], line[p:end]...)
	t.midOK = true
	return fields, nil
}
