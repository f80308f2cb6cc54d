package blob

import (
	"math/bits"
	"strings"

	"github.com/profan-dev/profan"
)

// A profiler's rule rows (ncu's "Rule Description" and the like) are
// sentences written from templates: "each scheduler only issues an
// instruction every 5.9 cycles". Every launch repeats them with other
// numbers, and with --set full they are most of a launch's bytes. A blob
// therefore holds a finding as the ID of a text_templates row (its four
// short fields and its sentence with each number cut out) and the numbers;
// the text is rebuilt byte for byte when read.
const (
	templateField = '\x1f' // separates the fields of a template
	templateHole  = '\x1e' // where a number was cut out
	// maxTemplate bounds a template's length: PostgreSQL indexes at most
	// about 2,700 bytes of a UNIQUE text. Longer findings are written out.
	maxTemplate = 2000
)

// numberStart reports whether c starts a number token.
func numberStart(c byte) bool { return c >= '0' && c <= '9' }

// nextDigit is the index of the first digit (numberStart) of d at or
// after i, or len(d): eight bytes at a time, the rule rows' sentences
// being most of an ncu page's bytes.
func nextDigit(d string, i int) int {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(d); i += 8 {
		x := uint64(d[i]) | uint64(d[i+1])<<8 | uint64(d[i+2])<<16 | uint64(d[i+3])<<24 |
			uint64(d[i+4])<<32 | uint64(d[i+5])<<40 | uint64(d[i+6])<<48 | uint64(d[i+7])<<56
		// A byte below 0x80 is a digit when it is at least '0' (the high
		// bit survives subtracting '0' from it with that bit set) and
		// below ':' (it does not survive subtracting ':').
		if m := ((x | high) - '0'*ones) &^ ((x | high) - ':'*ones) &^ x & high; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(d) && !numberStart(d[i]) {
		i++
	}
	return i
}

// inNumber reports whether c continues one: digits, separators and a unit
// or hex letters glued to it ("4.00x", "1,024", "0x7f"); any split is
// lossless, this one keeps templates few.
func inNumber(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == ','
}

// splitFinding appends the template of f to tmpl and its numbers to nums.
// ok is false when f cannot be templated (it holds a separator byte, or its
// template would be too long): it is then written out.
func splitFinding(tmpl []byte, nums []string, f *profan.ToolFinding) ([]byte, []string, bool) {
	for _, s := range [...]string{f.Section, f.Rule, f.Type, f.SpeedupType, f.Description} {
		if strings.IndexByte(s, templateField) >= 0 || strings.IndexByte(s, templateHole) >= 0 {
			return tmpl, nums, false
		}
	}
	tmpl = append(tmpl, f.Section...)
	tmpl = append(tmpl, templateField)
	tmpl = append(tmpl, f.Rule...)
	tmpl = append(tmpl, templateField)
	tmpl = append(tmpl, f.Type...)
	tmpl = append(tmpl, templateField)
	tmpl = append(tmpl, f.SpeedupType...)
	tmpl = append(tmpl, templateField)
	d := f.Description
	text := 0 // d[text:i] is template text not appended yet
	for i := 0; i < len(d); {
		// A digit inside a word ("FP32", "L1TEX") starts no number: the
		// word belongs to the template.
		if i = nextDigit(d, i); i == len(d) {
			break
		}
		if i > 0 && inNumber(d[i-1]) {
			i++
			continue
		}
		j := i + 1
		for j < len(d) && inNumber(d[j]) {
			j++
		}
		// A sentence's full stop or comma after a number is text.
		for d[j-1] == '.' || d[j-1] == ',' {
			j--
		}
		tmpl = append(tmpl, d[text:i]...)
		tmpl = append(tmpl, templateHole)
		nums = append(nums, d[i:j])
		i, text = j, j
	}
	tmpl = append(tmpl, d[text:]...)
	return tmpl, nums, len(tmpl) <= maxTemplate
}

// joinFinding fills f from template t and its numbers; ok is false when
// they do not fit together.
func joinFinding(f *profan.ToolFinding, t string, nums []string) bool {
	fields := strings.SplitN(t, string(templateField), 5)
	if len(fields) != 5 || strings.Count(fields[4], string(templateHole)) != len(nums) {
		return false
	}
	f.Section, f.Rule, f.Type, f.SpeedupType = fields[0], fields[1], fields[2], fields[3]
	if len(nums) == 0 {
		f.Description = fields[4]
		return true
	}
	var b strings.Builder
	n := 0
	for _, s := range nums {
		n += len(s)
	}
	b.Grow(len(fields[4]) + n)
	rest := fields[4]
	for _, s := range nums {
		i := strings.IndexByte(rest, templateHole)
		b.WriteString(rest[:i])
		b.WriteString(s)
		rest = rest[i+1:]
	}
	b.WriteString(rest)
	f.Description = b.String()
	return true
}
