// Package safe makes strings read from an export safe to show: kernel,
// section and file names come from the profiled program and may hold
// control characters, ANSI and OSC escape sequences or Unicode bidi
// overrides that would drive a terminal or reorder a page's text.
package safe

import (
	"encoding/binary"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Term returns s with every control character (C0, DEL, C1), every bidi
// control and every invalid byte shown as a Go escape (\x1b, \u202e), so
// that printing it cannot move the cursor, change colours, set a title or
// reorder text. Printable text and tabs are unchanged.
func Term(s string) string {
	if plain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case unsafeRune(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// printablePrefix returns the length of b's leading run of printable ASCII
// (0x20 to 0x7e), give or take the last seven bytes: it reads eight at a
// time, and runs on every line of every export.
func printablePrefix(b []byte) int {
	const lo, hi, del = 0x2020202020202020, 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
	n := 0
	for len(b)-n >= 8 {
		x := binary.LittleEndian.Uint64(b[n:])
		d := x ^ del
		if (x-lo)&^x&hi != 0 || x&hi != 0 || (d-0x0101010101010101)&^d&hi != 0 {
			break
		}
		n += 8
	}
	return n
}

// printableWords reports whether b's whole eight-byte words are all
// printable ASCII, and n, their length: printablePrefix's tests, ORed
// over the words and looked at once, sixteen bytes a round (a line with
// a tab or a byte outside ASCII gets false, and printablePrefix).
func printableWords(b []byte) (n int, ok bool) {
	const lo, hi, del, ones = 0x2020202020202020, 0x8080808080808080, 0x7f7f7f7f7f7f7f7f, 0x0101010101010101
	var acc uint64
	for ; len(b)-n >= 16; n += 16 {
		x, y := binary.LittleEndian.Uint64(b[n:]), binary.LittleEndian.Uint64(b[n+8:])
		dx, dy := x^del, y^del
		acc |= (x-lo)&^x | x | (dx-ones)&^dx | (y-lo)&^y | y | (dy-ones)&^dy
	}
	if len(b)-n >= 8 {
		x := binary.LittleEndian.Uint64(b[n:])
		d := x ^ del
		acc |= (x-lo)&^x | x | (d-ones)&^d
		n += 8
	}
	return n, acc&hi == 0
}

// Plain reports whether b is printable ASCII and tabs only: text with no
// NUL, valid UTF-8, and nothing Term would change.
func Plain(b []byte) bool {
	if n, ok := printableWords(b); ok {
		b = b[n:] // the last bytes, fewer than eight
	} else {
		b = b[printablePrefix(b):]
	}
	for _, c := range b {
		if (c < 0x20 || c >= 0x7f) && c != '\t' {
			return false
		}
	}
	return true
}

// Needed reports whether Term would change s: a byte scan, cheap on the
// printable ASCII of nearly every line of an export.
func Needed(b []byte) bool {
	b = b[printablePrefix(b):]
	ascii := true
	for _, c := range b {
		if c < 0x20 && c != '\t' || c == 0x7f {
			return true
		}
		if c >= 0x80 {
			ascii = false
		}
	}
	if ascii {
		return false
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if (r == utf8.RuneError && n == 1) || unsafeRune(r) {
			return true
		}
		i += n
	}
	return false
}

// plain reports whether s is printable ASCII only: the common case, left
// as it is without allocating.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// unsafeRune reports the runes shown escaped.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20 && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // bidi marks, embeddings, overrides and isolates
	case r == 0x2028, r == 0x2029, r == 0xfeff:
		return true // line and paragraph separators, BOM
	}
	return false
}

// Quote returns s in double quotes with quotes and backslashes escaped and
// with what Term escapes escaped: user input (a path, a flag, a regular
// expression) quoted in an error message, safe to print.
func Quote(s string) string {
	return `"` + Term(strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)) + `"`
}

// Cell returns s as a spreadsheet shows it: Excel, LibreOffice and Google
// Sheets run a cell that starts with =, +, -, @, a tab or a carriage return
// as a formula (=HYPERLINK(...), =cmd|...), so such a cell gets a leading '
// (which they read as "text follows" and do not show). A CSV cell of a
// name or a label goes through Cell; a number is written as it is.
func Cell(s string) string {
	if s != "" && strings.IndexByte("=+-@\t\r", s[0]) >= 0 {
		return "'" + s
	}
	return s
}
