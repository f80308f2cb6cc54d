// Package units normalizes the numbers and units that profilers print into
// base units, once, at ingest. It is the only place that knows that ncu's
// "Kbyte" is 1000 bytes while nvprof's "KB" is 1024, that "nsecond" and "ns"
// are the same, and that "5,318,969,728.00" is a number.
package units

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// Base units that values are normalized to.
const (
	Second        = "s"
	Byte          = "B"
	BytePerSec    = "B/s"
	Hertz         = "Hz"
	Percent       = "%"
	Dimensionless = ""
)

// Prefix systems: ncu scales by 1000, nvprof by 1024 (checked against known
// buffer sizes in real exports).
const (
	Decimal = 1000.0
	Binary  = 1024.0
)

// Scale describes how to turn a printed value into its base unit.
type Scale struct {
	Factor float64 // multiply the printed value by this
	Base   string  // the base unit
}

var timeScale = map[string]float64{
	"ns": 1e-9, "nsecond": 1e-9, "nsec": 1e-9,
	"us": 1e-6, "usecond": 1e-6, "usec": 1e-6, "µs": 1e-6, "μs": 1e-6,
	"ms": 1e-3, "msecond": 1e-3, "msec": 1e-3,
	"s": 1, "second": 1, "sec": 1,
}

var freqScale = map[string]float64{
	"hz": 1, "khz": 1e3, "mhz": 1e6, "ghz": 1e9, "thz": 1e12,
}

// bytePrefix returns the multiplier of a byte unit spelled the ncu way
// (byte, Kbyte, Mbyte, Gbyte, Tbyte) or the nvprof way (B, KB, MB, GB, TB).
func bytePrefix(u string, base float64) (float64, bool) {
	var p string
	switch {
	case strings.HasSuffix(u, "byte"):
		p = strings.TrimSuffix(u, "byte")
	case strings.HasSuffix(u, "bytes"):
		p = strings.TrimSuffix(u, "bytes")
	case strings.HasSuffix(u, "B"):
		p = strings.TrimSuffix(u, "B")
	default:
		return 0, false
	}
	switch p {
	case "":
		return 1, true
	case "K", "k":
		return base, true
	case "M":
		return base * base, true
	case "G":
		return base * base * base, true
	case "T":
		return base * base * base * base, true
	}
	return 0, false
}

// Lookup returns the scale of a unit printed by a tool whose size prefixes
// are powers of base (Decimal for ncu and nsys, Binary for nvprof). Units it
// does not know (counters such as "inst", "sector", "warp/cycle") keep their
// name with factor 1, so the set of units stays open.
func Lookup(unit string, base float64) Scale {
	u := strings.TrimSpace(unit)
	if u == "" {
		return Scale{1, ""}
	}
	if u == "%" {
		return Scale{1, Percent}
	}
	num, den, hasDen := strings.Cut(u, "/")
	nf, nb := part(num, base)
	if !hasDen {
		return Scale{nf, nb}
	}
	// A rate: the denominator's time unit becomes "per second".
	if tf, ok := timeScale[den]; ok {
		if nb == "cycle" {
			return Scale{nf / tf, Hertz}
		}
		return Scale{nf / tf, nb + "/s"}
	}
	df, db := part(den, base)
	return Scale{nf / df, nb + "/" + db}
}

// plurals spells counter units one way: ncu prints "sector" for some
// metrics and "sectors" for others.
var plurals = map[string]string{"sectors": "sector", "requests": "request", "instructions": "inst", "cycles": "cycle", "warps": "warp", "blocks": "block", "threads": "thread"}

func part(u string, base float64) (float64, string) {
	if p, ok := plurals[u]; ok {
		u = p
	}
	if f, ok := timeScale[u]; ok {
		return f, Second
	}
	if f, ok := freqScale[strings.ToLower(u)]; ok {
		return f, Hertz
	}
	if f, ok := bytePrefix(u, base); ok {
		return f, Byte
	}
	return 1, u
}

// errNotNumber reports a value that is not a number.
var errNotNumber = errors.New("not a number")

// ErrInfinite reports a value that is no finite number: an infinity
// ("inf"), a NaN ("nan", as ncu prints a ratio of zero counts) or a number
// beyond float64 ("1e400"). Callers read it as a missing value and say so.
var ErrInfinite = errors.New("NaN, infinite or out of range")

// ParseNumber parses a number as profilers print it: "1,234.5" (thousands
// separators, stripped only when they sit between groups of three digits),
// "8.192000e+03", "-3". Only decimal notation is a number: Go's hex
// floats ("0x1p3") and digit separators ("1_000") are not. "n/a", "no
// data" and "" return NaN with ok false and no error; a NaN or an infinity
// returns ErrInfinite.
func ParseNumber(s string) (v float64, ok bool, err error) {
	if v, ok := ShortDecimal(s); ok {
		return v, true, nil // most values
	}
	if s == "" || s == "n/a" || s == "N/A" || s == "-" || s == "no data" {
		return math.NaN(), false, nil
	}
	if strings.IndexByte(s, ',') > 0 {
		// ncu's "3,198,264,840.18": no float syntax has a comma, so skip
		// the failing ParseFloat (and its error's allocation).
		var buf [64]byte
		if t, good := appendStripped(buf[:0], s); good {
			if v, ok := ShortDecimal(t); ok {
				return v, true, nil
			}
			if f, err := strconv.ParseFloat(string(t), 64); err == nil {
				return f, true, nil
			}
		}
		return math.NaN(), false, errNotNumber
	}
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case "nan", "inf", "infinity":
		// "nan" is how ncu prints a ratio of zero counts: a missing value.
		return math.NaN(), false, ErrInfinite
	}
	if !decimal(s) {
		return math.NaN(), false, errNotNumber
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if math.IsInf(f, 0) {
			return math.NaN(), false, ErrInfinite
		}
		return f, true, nil // a range error below the smallest float is 0
	}
	return math.NaN(), false, errNotNumber
}

// decimal reports whether s is a number in decimal notation,
// [+-]digits[.digits][e[+-]digits] (either side of the point may be
// empty, not both): what profilers print, and nothing of the wider syntax
// strconv accepts (hex floats, "_" separators).
func decimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

// ParseDecimalComma reads a number written with a decimal comma, as some
// locales print it ("2,62", "-0,0625"): one comma, no point, digits on
// both sides, and not three digits after the comma (that is a thousands
// separator, as ncu prints "1,234").
func ParseDecimalComma(s string) (float64, bool) {
	body := strings.TrimPrefix(s, "-")
	intPart, frac, found := strings.Cut(body, ",")
	if !found || intPart == "" || frac == "" || len(frac) == 3 || strings.ContainsAny(frac, ",.") {
		return 0, false
	}
	for _, c := range intPart + frac {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(s[:len(s)-len(body)]+intPart+"."+frac, 64)
	return f, err == nil
}

// appendStripped appends s without its "," separators to dst if they group
// the integer part by threes ("14,103,936", "58,748.42"); anything else is
// not a number.
func appendStripped(dst []byte, s string) ([]byte, bool) {
	intPart, frac, dot := strings.Cut(s, ".")
	if strings.HasPrefix(intPart, "-") {
		dst = append(dst, '-')
		intPart = intPart[1:]
	}
	for i := 0; ; i++ {
		g, rest, more := strings.Cut(intPart, ",")
		if i == 0 && (len(g) == 0 || len(g) > 3) || i > 0 && len(g) != 3 {
			return dst, false
		}
		for j := 0; j < len(g); j++ {
			if g[j] < '0' || g[j] > '9' {
				return dst, false
			}
		}
		dst = append(dst, g...)
		if !more {
			break
		}
		intPart = rest
	}
	if dot {
		dst = append(dst, '.')
		dst = append(dst, frac...)
	}
	return dst, true
}

// nvprofSuffixes are the unit suffixes nvprof glues to --metrics values,
// longest first so "GB/s" wins over "B".
var nvprofSuffixes = []string{"GB/s", "MB/s", "KB/s", "TB/s", "B/s", "GB", "MB", "KB", "TB", "B", "%"}

// SplitSuffix splits an nvprof value such as "45.917851GB/s" or "29.3%" into
// its number and unit.
func SplitSuffix(s string) (num, unit string) {
	for _, u := range nvprofSuffixes {
		if strings.HasSuffix(s, u) && len(s) > len(u) {
			n := s[:len(s)-len(u)]
			if c := n[len(n)-1]; (c >= '0' && c <= '9') || c == '.' {
				return n, u
			}
		}
	}
	return s, ""
}

// ParseLevel parses nvprof utilization levels such as "Low (2)" or
// "Idle (0)" into their 0–10 number.
func ParseLevel(s string) (float64, bool) {
	open := strings.LastIndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		return 0, false
	}
	switch strings.TrimSpace(s[:open]) {
	case "Idle", "Low", "Mid", "High", "Max":
	default:
		return 0, false
	}
	n, err := strconv.Atoi(s[open+1 : len(s)-1])
	if err != nil || n < 0 || n > 10 {
		return 0, false
	}
	return float64(n), true
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// ShortDecimal reads the commonest number of an export, -?digits[.digits]
// with at most 15 digits, as mantissa / 10^k: both are exact in float64
// and one IEEE division rounds correctly, so the result is the one
// strconv.ParseFloat gives (Clinger's fast path), without its generality.
// ok is false for anything else, which ParseFloat is left to read.
func ShortDecimal[T ~string | ~[]byte](b T) (float64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	var m uint64
	digits, frac := 0, -1
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			digits++
		case c == '.' && frac < 0 && i > 0 && i < len(b)-1:
			frac = len(b) - i - 1
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 15 {
		return 0, false
	}
	v := float64(m)
	if frac > 0 {
		v /= pow10[frac]
	}
	if neg {
		v = -v
	}
	return v, true
}

// counterNouns are the units of counts that profilers print, alone or in a
// ratio ("inst/cycle", "sector/request"): with the times, frequencies,
// byte sizes and "%", the units profan knows.
var counterNouns = map[string]bool{
	"inst": true, "sector": true, "request": true, "cycle": true, "warp": true, "block": true, "thread": true,
	"register": true, "issue": true, "pass": true, "sample": true, "cluster": true, "SM": true, "branches": true,
	"wavefront": true, "transaction": true, "transactions": true, "instruction": true, "lane": true, "quad": true,
	"level": true, "1": true, "bank": true, "launch": true, "byte": true, "bytes": true, "FLOP": true, "flop": true,
}

// Known reports whether unit is one profan knows (empty, "%", a time, a
// frequency, a byte size, a count, or a ratio of two of these): a unit it
// does not know is kept as printed, and the reader says so.
func Known(unit string) bool {
	u := strings.TrimSpace(unit)
	if u == "" || u == "%" {
		return true
	}
	num, den, hasDen := strings.Cut(u, "/")
	if !knownPart(num) {
		return false
	}
	return !hasDen || knownPart(den)
}

func knownPart(u string) bool {
	if u == "%" || counterNouns[u] {
		return true
	}
	if p, ok := plurals[u]; ok {
		u = p
	}
	if _, ok := timeScale[u]; ok || counterNouns[u] {
		return true
	}
	if _, ok := freqScale[strings.ToLower(u)]; ok {
		return true
	}
	_, ok := bytePrefix(u, Decimal)
	return ok
}
