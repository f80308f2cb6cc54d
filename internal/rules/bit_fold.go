package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/sass"
)

// foldXOR are the LOP3.LUT truth tables that XOR their sources: all three
// (0x96, or its complement 0x69), or two of them (a ^ b, a ^ c, b ^ c).
var foldXOR = map[string]bool{"0x96": true, "0x69": true, "0x3c": true, "0x5a": true, "0x66": true}

// shiftFolds reads a kernel's lines that fold a word's bits together from
// copies of it shifted a bit a step: a loop over the word's bits whose
// mask nvcc moved out of it, p ^= (m >> b) & 1 for b < 64 unrolled into the
// XOR of m >> 1, m >> 2, ..., m >> 63 and one & 1 at the end
// (fixtures/sol-check23's secded<0>: the 8 parities of a 64-bit word's
// masked copies, each 62 shifts of the register pair, SHF.R.U64 Rd, Rlo,
// b, Rhi for b < 32 and SHF.R.U32.HI Rd, RZ, b - 32, Rhi above, and 31
// three-way XORs, LOP3.LUT 0x96: 752 ALU instructions a thread where
// POPC takes two a word). A word is the register shifted (the high one
// of a pair) as its nearest writer before it left it; it is folded when
// its copies are shifted by bitLoopMinBits consecutive amounts or more
// (a byte's or a nibble's fields are cut at amounts 4 or 8 apart) and
// each copy goes into an XOR or an add. Each line's words (warp-level:
// the mean executions of a word's shifts), wide (64-bit) or not, and the
// line's own instructions are returned.
func shiftFolds(a *analysis.Kernel) []*bitLine {
	if !sassHas(a, "SHF.R") {
		return nil
	}
	type rec struct {
		n  float64
		op string
		f  []string
		s  profan.SourceRecord
	}
	var recs []rec
	for _, s := range sass.ByAddress(instructions(a)) {
		recs = append(recs, rec{n: instExecuted(s), op: opcode(s.SASS), f: sassOperands(s.SASS), s: s})
	}
	writes := func(r rec, reg string) bool {
		return len(r.f) > 0 && r.f[0] == reg && !strings.HasPrefix(r.op, "ST")
	}
	// combined reports whether the copy recs[i] writes goes into an XOR
	// or an add: the next instruction that reads or writes it.
	combined := func(i int) bool {
		d := recs[i].f[0]
		for _, r := range recs[i+1:] {
			if len(r.f) < 2 {
				continue
			}
			if slices.Contains(r.f[1:], d) {
				base, _, _ := strings.Cut(r.op, ".")
				return strings.HasPrefix(r.op, "LOP3.LUT") && foldXOR[r.f[len(r.f)-2]] || base == "IADD3"
			}
			if writes(r, d) {
				return false
			}
		}
		return false
	}
	type word struct {
		low, high map[int]bool // the pair's funnel shifts and the high register's shifts
		n, shifts float64
		copies    int
		line      profan.SourceRecord
		pair      bool
	}
	words := map[string]*word{}
	var keys []string
	for i, r := range recs {
		if !strings.HasPrefix(r.op, "SHF.R") || len(r.f) < 4 || r.s.Line <= 0 {
			continue
		}
		amt, err := strconv.ParseUint(strings.TrimPrefix(r.f[2], "0x"), 16, 8)
		if err != nil || !strings.HasPrefix(r.f[2], "0x") || amt == 0 {
			continue
		}
		hi := r.f[3]
		pair := strings.Contains(r.op, ".U64") && r.f[1] != "RZ"
		if !strings.HasPrefix(hi, "R") || hi == "RZ" || !pair && !(strings.Contains(r.op, ".U32.HI") && r.f[1] == "RZ") {
			continue
		}
		j := i - 1
		for ; j >= 0 && !writes(recs[j], hi); j-- {
		}
		key := fmt.Sprintf("%s@%d", hi, j)
		w := words[key]
		if w == nil {
			w = &word{low: map[int]bool{}, high: map[int]bool{}, line: r.s}
			words[key] = w
			keys = append(keys, key)
		}
		if pair {
			w.low[int(amt)], w.pair = true, true
		} else {
			w.high[int(amt)] = true
		}
		w.n += r.n
		w.shifts++
		if combined(i) {
			w.copies++
		}
	}
	byLine := newPerLine(func(loc profan.Location) *bitLine { return &bitLine{loc: loc} })
	var out []*bitLine
	for _, k := range keys {
		w := words[k]
		amounts := map[int]bool{}
		for b := range w.low {
			amounts[b] = true
		}
		for b := range w.high {
			if w.pair {
				b += 32
			}
			amounts[b] = true
		}
		run, best := 0, 0
		for b := 1; b < 64; b++ {
			if amounts[b] {
				run++
				best = max(best, run)
			} else {
				run = 0
			}
		}
		if best < bitLoopMinBits || w.copies < bitLoopMinBits || !(w.n > 0) {
			continue
		}
		l := byLine.at(w.line)
		if l.folds == 0 && l.wideFolds == 0 {
			out = append(out, l)
		}
		if w.pair {
			l.wideFolds += w.n / w.shifts
		} else {
			l.folds += w.n / w.shifts
		}
	}
	for _, l := range out {
		for _, r := range recs {
			if r.s.Line == l.loc.Line && r.s.File == l.loc.File {
				l.inst += r.n
				if aluOp(r.op) {
					l.alu += r.n
				}
			}
		}
	}
	return out
}

// xuOutside is a kernel's warp-level instructions on the XU pipe (MUFU,
// and POPC, FLO and BREV: fixtures/sol-check23's secded<1>, 16 POPC a
// thread and nothing else of the XU's, holds the XU pipe at 94 % and the
// ALU's at 37 %) on lines other than lines, which the fix keeps.
func xuOutside(a *analysis.Kernel, lines []*bitLine) float64 {
	var n float64
	for _, s := range instructions(a) {
		base, _, _ := strings.Cut(opcode(s.SASS), ".")
		switch base {
		case "MUFU", "POPC", "FLO", "BREV":
		default:
			continue
		}
		if !slices.ContainsFunc(lines, func(l *bitLine) bool { return l.loc.Line == s.Line && l.loc.File == s.File }) {
			n += instExecuted(s)
		}
	}
	return n
}
