package ingest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/profan-dev/profan/internal/safe"
)

// The values of a PyTorch trace's events: interned strings, IDs, numbers
// and times as the trace writes them, each read and checked in place.
type interner struct {
	m map[string]string
	// recent is a direct-mapped cache of the strings got, by a cheap hash
	// of their bytes, before the map: a trace repeats its categories,
	// threads and names event after event.
	recent [1 << internBits]struct{ key, val string }
}

// internBits sizes the cache; strings longer than maxRecent are not
// cached, which bounds what it holds.
const (
	internBits = 10
	maxRecent  = 4 << 10
)

func (t *interner) get(b []byte) string {
	e := &t.recent[recentSlot(b)]
	if e.key == string(b) && e.val != "" {
		return e.val
	}
	s, ok := t.m[string(b)]
	if !ok {
		s = t.str(string(b))
	}
	if len(b) <= maxRecent {
		e.key, e.val = s, s
		if s != string(b) {
			e.key = string(b) // made safe to print: kept under its bytes
		}
	}
	return s
}

// recentSlot hashes a string's length and its first, middle and last
// eight bytes.
func recentSlot(b []byte) int {
	n := len(b)
	h := uint64(n)
	if n >= 8 {
		h ^= binary.LittleEndian.Uint64(b) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[n/2-4:]), 21) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[n-8:]), 43)
	} else {
		for _, c := range b {
			h = h<<8 | uint64(c)
		}
	}
	return int((h * 0x9E3779B97F4A7C15) >> (64 - internBits))
}

func (t *interner) str(s string) string {
	if v, ok := t.m[s]; ok {
		return v
	}
	if safe.Needed([]byte(s)) {
		s = safe.Term(s)
	}
	if len(t.m) < maxNames {
		t.m[s] = s
	}
	return s
}

// jid is an identifier that PyTorch writes as a number or a string
// ("pid": 0, "tid": "stream 7", "pid": "Spans").
type jid struct {
	s   string
	n   int64 // a number read by corrVal
	num bool
	set bool
}

// text is the identifier as printed.
func (v jid) text() string {
	if v.num {
		return strconv.FormatInt(v.n, 10)
	}
	return v.s
}

// int is the identifier as a number, when it is one.
func (v jid) int() (int64, bool) {
	if v.num {
		return v.n, true
	}
	n, err := strconv.ParseInt(v.s, 10, 64)
	return n, err == nil
}

// jnum is a number that may be absent.
type jnum struct {
	v   float64
	set bool
}

// usTime is a time in microseconds kept in integer nanoseconds: Kineto
// writes absolute times ("ts": 1732611234567890.123) whose nanoseconds a
// float64 would lose.
type usTime struct {
	ns  int64
	set bool
}

// Bounds of a trace's times, so that no sum or difference of two of them
// wraps around int64 nanoseconds: a time is within maxTimeNS of 0 (146
// years of Kineto's microseconds since 1970), an event starts within
// maxSpanNS of the trace's first (73 years) and lasts at most as long.
// A time past them is no trace's: refused at its event.
const (
	maxTimeNS = 1 << 62
	maxSpanNS = 1 << 61
)

// parseUS reads a number of microseconds into nanoseconds: the digits
// past the third after the point are dropped.
func parseUS(b []byte) (int64, error) {
	if ns, ok := parsePlainUS(b); ok {
		return ns, nil
	}
	return parseUSAny(b)
}

// parsePlainUS reads the times Kineto writes, -?digits(.digits)? in
// range, in one pass; ok is false for any other (an exponent, a time out
// of range), which parseUSAny reads.
func parsePlainUS(b []byte) (ns int64, ok bool) {
	i, neg := 0, len(b) > 0 && b[0] == '-'
	if neg {
		i++
	}
	var us int64
	for ; i < len(b); i++ {
		c := b[i]
		if c < '0' || c > '9' {
			break
		}
		if us = us*10 + int64(c-'0'); us > math.MaxInt64/1000 {
			return 0, false
		}
	}
	ns = us * 1000
	if i < len(b) && b[i] == '.' {
		scale := int64(100)
		for i++; i < len(b); i++ {
			c := b[i]
			if c < '0' || c > '9' {
				break
			}
			ns += int64(c-'0') * scale
			scale /= 10
		}
	}
	if i < len(b) || ns >= maxTimeNS {
		return 0, false
	}
	if neg {
		ns = -ns
	}
	return ns, true
}

// parseUSAny is parseUS for any number the lexer takes.
func parseUSAny(b []byte) (int64, error) {
	if bytes.IndexByte(b, 'e') >= 0 || bytes.IndexByte(b, 'E') >= 0 {
		f, err := strconv.ParseFloat(string(b), 64)
		if err != nil || math.Abs(f*1e3) >= maxTimeNS {
			return 0, fmt.Errorf("time %.20s out of range", b)
		}
		return int64(math.Round(f * 1e3)), nil
	}
	// The lexer checked the grammar: -?digits(.digits)?
	i, neg := 0, len(b) > 0 && b[0] == '-'
	if neg {
		i++
	}
	var us int64
	for ; i < len(b) && b[i] != '.'; i++ {
		if us = us*10 + int64(b[i]-'0'); us > math.MaxInt64/1000 {
			return 0, fmt.Errorf("time %.20s out of range", b)
		}
	}
	ns := us * 1000
	if i < len(b) {
		for k, scale := i+1, int64(100); k < len(b) && scale > 0; k, scale = k+1, scale/10 {
			ns += int64(b[k]-'0') * scale
		}
	}
	if ns >= maxTimeNS {
		return 0, fmt.Errorf("time %.20s out of range", b)
	}
	if neg {
		ns = -ns
	}
	return ns, nil
}

// The values of an event, each read after its key: a wrong type is an
// error at its byte.

// value reads a scalar for the key what: kind 's' (a string), 'n' (a
// number) or 0 (null); any other, or a kind not in accept, is an error
// that says it wants want.
func (r *torchReader) value(what, want, accept string) (kind byte, text []byte, at int64, err error) {
	c, ok := r.lex.peek()
	at = r.lex.offset()
	if !ok {
		return 0, nil, at, r.lex.eof()
	}
	text, err = r.lex.scalarAt(c)
	if err != nil {
		return 0, nil, at, err
	}
	switch {
	case c == '"':
		kind = 's'
	case c == '-' || c >= '0' && c <= '9':
		kind = 'n'
	case c == 'n':
		return 0, nil, at, nil
	}
	if kind == 0 || !accepts(accept, kind) {
		if c == '{' || c == '[' {
			text = []byte{c}
		}
		return 0, nil, at, r.lex.errorf(at, "%q is %s, not %s", what, want, quoteLit(c, text))
	}
	return kind, text, at, nil
}

// accepts reports whether kind is one of the kinds in accept.
func accepts(accept string, kind byte) bool {
	for i := 0; i < len(accept); i++ {
		if accept[i] == kind {
			return true
		}
	}
	return false
}

func quoteLit(kind byte, text []byte) string {
	if kind == '"' {
		return strconv.Quote(string(text))
	}
	return string(text)
}

func (r *torchReader) strVal(what string) (string, error) {
	kind, text, _, err := r.value(what, "a string", "s")
	if err != nil || kind == 0 {
		return "", err
	}
	return r.tab.get(text), nil
}

func (r *torchReader) idVal(what string) (jid, error) {
	kind, text, _, err := r.value(what, "a number or a string", "sn")
	if err != nil || kind == 0 {
		return jid{}, err
	}
	return jid{s: r.tab.get(text), set: true}, nil
}

// corrVal reads an identifier unique to its event (a correlation, a flow
// ID): a number is kept as one, not interned.
func (r *torchReader) corrVal(what string) (jid, error) {
	kind, text, _, err := r.value(what, "a number or a string", "sn")
	switch {
	case err != nil || kind == 0:
		return jid{}, err
	case kind == 's':
		return jid{s: safe.Term(string(text)), set: true}, nil
	}
	if n, perr := strconv.ParseInt(string(text), 10, 64); perr == nil {
		return jid{n: n, num: true, set: true}, nil
	}
	return jid{s: string(text), set: true}, nil
}

// numVal reads a number; Kineto writes "inf" and "N/A" as strings where
// a number is undefined, which read as absent.
func (r *torchReader) numVal(what string) (jnum, error) {
	kind, text, at, err := r.value(what, "a number", "sn")
	if err != nil || kind != 'n' {
		return jnum{}, err
	}
	f, perr := strconv.ParseFloat(string(text), 64)
	if perr != nil || math.IsInf(f, 0) {
		return jnum{}, r.lex.errorf(at, "%q: %s out of range", what, text)
	}
	return jnum{f, true}, nil
}

func (r *torchReader) timeVal(what string) (usTime, error) {
	kind, text, at, err := r.value(what, "a number of microseconds", "n")
	if err != nil || kind == 0 {
		return usTime{}, err
	}
	ns, perr := parseUS(text)
	if perr != nil {
		return usTime{}, r.lex.errorf(at, "%q: %v", what, perr)
	}
	return usTime{ns, true}, nil
}

// dimVal reads a grid or block: an array of integers.
func (r *torchReader) dimVal(what string, into []int64) ([]int64, error) {
	l := r.lex
	c, ok := l.peek()
	if !ok {
		return nil, l.eof()
	}
	if c == 'n' {
		_, err := l.literal()
		return nil, err
	}
	if c != '[' {
		return nil, l.errorf(l.offset(), "%q is an array of integers, not %s", what, quoteByte(c))
	}
	l.pos++
	into = into[:0]
	more, err := l.first(']')
	for more && err == nil {
		kind, text, at, serr := r.value(what, "an array of integers", "n")
		if serr != nil {
			return nil, serr
		}
		v, perr := strconv.ParseInt(string(text), 10, 64)
		if kind == 0 || perr != nil {
			return nil, l.errorf(at, "%q holds %s, not an integer", what, quoteLit('n', text))
		}
		if len(into) == 8 {
			return nil, l.errorf(at, "%q has more than 8 dimensions", what)
		}
		into = append(into, v)
		more, err = l.more(']')
	}
	return into, err
}

// convOp reports aten::_convolution, whose recorded arguments say whether
// cudnn.benchmark was on (its tenth, benchmark).
func convOp(name []byte) bool { return string(name) == "aten::_convolution" }

// convBenchArg is the index of aten::_convolution's benchmark argument:
// _convolution(input, weight, bias, stride, padding, dilation,
// transposed, output_padding, groups, benchmark, deterministic,
// cudnn_enabled[, allow_tf32]).
const convBenchArg = 9

// convBench reads a convolution's "Concrete Inputs" (each argument's
// value as a string, "" for a tensor): 2 where its benchmark argument is
// "True", 1 where "False", 0 where absent or neither.
func (r *torchReader) convBench() (int8, error) {
	l := r.lex
	c, ok := l.peek()
	if !ok {
		return 0, l.eof()
	}
	if c != '[' {
		return 0, l.skip()
	}
	l.pos++
	var bench int8
	more, err := l.first(']')
	for i := 0; more && err == nil; i++ {
		if c, _ := l.peek(); c != '"' {
			if err = l.skip(); err != nil {
				return 0, err
			}
		} else {
			s, serr := l.string()
			if serr != nil {
				return 0, serr
			}
			if i == convBenchArg {
				switch string(s) {
				case "True":
					bench = 2
				case "False":
					bench = 1
				}
			}
		}
		more, err = l.more(']')
	}
	return bench, err
}
