package rules

import (
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// barrettInst is the warp-level instructions a 64-bit modular reduction
// by a multiply-high keeps in place of the division subroutine's call:
// the quotient's estimate __umul64hi(p, minv) (four partial products
// and their carries), its product with the modulus, the subtraction and
// two conditional corrections. Read from the fixed twins' SASS:
// fixtures/sol-check12's powMod<1> (lines 400-402, 105 M instructions
// over 4.19 M warp-level reductions: 25.0 each) and sol-check6's
// lcgMod<1> (lines 438-440, 25.1 each).
const barrettInst = 25

// modularRecurrence reports whether a 64-bit division's result feeds the
// dividend of a later 64-bit division in the kernel's SASS (address
// order): modular arithmetic (x = x·a + c mod m, r = r·b mod m), whose
// operands are residues of a 64-bit modulus, so that the product of two
// needs 64 bits and a 32-bit division is no option. Each call's result
// is followed forward from the call (the subroutine returns it in the
// registers that passed the dividend), past the 32-bit path the call
// skips, through the registers and predicates (carries) each instruction
// writes from the ones it reads, up to the guard of every later call.
func modularRecurrence(a *analysis.Kernel, subs map[string]*subroutine) bool {
	code := addressOrder(a)
	var calls []int
	for i, s := range code {
		if wideCall(s.SASS, subs) {
			calls = append(calls, i)
		}
	}
	for _, c := range calls {
		if feedsLaterCall(code, c, subs) {
			return true
		}
	}
	return false
}

// wideCall reports whether sass calls a 64-bit division subroutine.
func wideCall(sass string, subs map[string]*subroutine) bool {
	if !strings.HasPrefix(opcode(sass), "CALL.REL") {
		return false
	}
	sr := subs[callTarget(sass)]
	return sr != nil && sr.division && sr.wide
}

// addressOrder is the source page's SASS instructions (sassRecords)
// sorted by address (the page lists them by source line). Shared
// (sass.Code): read-only.
func addressOrder(a *analysis.Kernel) []profan.SourceRecord {
	return analysis.SASSOf(a).AddressOrder()
}

// feedsLaterCall follows the result of the call at code[c] forward and
// reports whether a later division call's arguments hold it.
func feedsLaterCall(code []profan.SourceRecord, c int, subs map[string]*subroutine) bool {
	written, _ := subroutineRegs(code, callTarget(code[c].SASS))
	taint := callResult(code, c, written, subs)
	if len(taint) == 0 {
		return false
	}
	afterCall := true // between a call and its jump past the 32-bit path
	for i := c + 1; i < len(code); i++ {
		s := code[i]
		op := opcode(s.SASS)
		guarded := strings.HasPrefix(strings.TrimSpace(s.SASS), "@")
		switch {
		case wideCall(s.SASS, subs):
			// Only a call that ran: a division that always took its
			// 32-bit path had a dividend that fits 32 bits, a quotient
			// passed on (s = ns / u.s, then s / u.mn), not a 64-bit
			// residue (fixtures/sol-check28's nsFields<0>: the three
			// divisions of s never called the subroutine).
			_, args := subroutineRegs(code, callTarget(s.SASS))
			for r := range args {
				if taint[r] && instExecuted(s) > 0 {
					return true
				}
			}
			afterCall = true
			continue
		case strings.HasPrefix(op, "BRA") && afterCall && !guarded:
			// The call's jump past its 32-bit path: follow it.
			afterCall = false
			if t := jumpTarget(code, s.SASS, i); t > i {
				i = t - 1
			}
			continue
		case strings.HasPrefix(op, "EXIT") && !guarded, strings.HasPrefix(op, "RET"):
			return false
		}
		propagate(s.SASS, taint)
	}
	return false
}

// callResult is the registers that hold the result of the call at
// code[c]: those the subroutine writes that the code after the call
// (its jump past the 32-bit path followed) reads before writing them,
// up to the next call.
func callResult(code []profan.SourceRecord, c int, written map[string]bool, subs map[string]*subroutine) map[string]bool {
	res := map[string]bool{}
	after := map[string]bool{}
	jumped := false
	for i, n := c+1, 0; i < len(code) && n < 64; i, n = i+1, n+1 {
		s := code[i]
		op := opcode(s.SASS)
		guarded := strings.HasPrefix(strings.TrimSpace(s.SASS), "@")
		if strings.HasPrefix(op, "CALL") || strings.HasPrefix(op, "EXIT") && !guarded || strings.HasPrefix(op, "RET") {
			break
		}
		if strings.HasPrefix(op, "BRA") && !guarded && !jumped {
			jumped = true
			if t := jumpTarget(code, s.SASS, i); t > i {
				i = t - 1
			}
			continue
		}
		dst, src := operands(s.SASS)
		for _, r := range src {
			if written[r] && !after[r] {
				res[r] = true
			}
		}
		if !guarded {
			for _, d := range dst {
				after[d] = true
			}
		}
	}
	return res
}

// jumpTarget is the index of the record a BRA jumps to, -1 if not found.
func jumpTarget(code []profan.SourceRecord, sass string, from int) int {
	f := strings.Fields(sass)
	target := strings.ToLower(f[len(f)-1])
	for k := from + 1; k < len(code); k++ {
		if strings.ToLower(code[k].Address) == target {
			return k
		}
	}
	return -1
}

// propagate applies one instruction to the taint: its destinations are
// tainted when a source is, and untainted when none is and the write is
// unconditional.
func propagate(sass string, taint map[string]bool) {
	dst, src := operands(sass)
	in := false
	for _, r := range src {
		in = in || taint[r]
	}
	guarded := strings.HasPrefix(strings.TrimSpace(sass), "@")
	for _, d := range dst {
		switch {
		case in:
			taint[d] = true
		case !guarded:
			delete(taint, d)
		}
	}
}

// operands splits a SASS instruction into the registers and predicates
// it writes and the ones it reads (its guard included). A 64-bit
// operation (.WIDE, .64) writes and reads register pairs.
func operands(sass string) (dst, src []string) {
	f := strings.Fields(strings.NewReplacer(",", " ", ";", " ").Replace(sass))
	if len(f) == 0 {
		return nil, nil
	}
	if strings.HasPrefix(f[0], "@") {
		src = append(src, strings.TrimLeft(f[0], "@!"))
		f = f[1:]
	}
	if len(f) < 2 {
		return nil, src
	}
	op, args := f[0], f[1:]
	// Pairs: an operand written Rn.64 (an address), the destination of
	// a .WIDE or .64 operation, and the addend of an IMAD.WIDE. A
	// conversion's 64-bit integer side is a pair too: F2I.U64 writes
	// one (the 64-bit division subroutine's reciprocal, whose high word
	// read later made it look like an argument: fixtures/sol-check28's
	// nsFields<0>), I2F.U64 reads one.
	int64 := strings.Contains(op, ".U64") || strings.Contains(op, ".S64")
	wideDst := strings.Contains(op, ".WIDE") || strings.Contains(op, ".64") || strings.HasPrefix(op, "F2I") && int64
	lastReg := -1
	if strings.HasPrefix(op, "IMAD.WIDE") || strings.HasPrefix(op, "I2F") && int64 {
		lastReg = len(args) - 1
	}
	reg := func(a string, pair bool) []string {
		a = strings.Trim(a, "[]-~!|")
		if strings.HasSuffix(a, ".64") {
			pair = true
			a = strings.TrimSuffix(a, ".64")
		}
		if i := strings.IndexAny(a, ".+"); i > 0 {
			a = a[:i]
		}
		switch {
		case a == "RZ" || a == "PT" || a == "":
			return nil
		case a[0] == 'R' && len(a) > 1 && a[1] >= '0' && a[1] <= '9':
			if pair {
				n, err := strconv.Atoi(a[1:])
				if err == nil {
					return []string{a, "R" + strconv.Itoa(n+1)}
				}
			}
			return []string{a}
		case a[0] == 'P' && len(a) == 2 && a[1] >= '0' && a[1] <= '9':
			return []string{a}
		}
		return nil
	}
	writes := 1
	if strings.HasPrefix(op, "ST") || strings.HasPrefix(op, "RED") || strings.HasPrefix(op, "BRA") ||
		strings.HasPrefix(op, "CALL") || strings.HasPrefix(op, "BSYNC") || strings.HasPrefix(op, "BSSY") || strings.HasPrefix(op, "EXIT") {
		writes = 0
	}
	// A second destination: the predicate (carry or comparison) that
	// IADD3, IMAD.WIDE and the setp family write before their sources.
	if writes == 1 && len(args) > 2 && (args[1] == "PT" || len(args[1]) == 2 && args[1][0] == 'P') &&
		(strings.HasPrefix(op, "IADD3") || strings.HasPrefix(op, "IMAD") || strings.Contains(op, "SETP") || strings.HasPrefix(op, "LEA") || strings.HasPrefix(op, "LOP3")) {
		writes = 2
	}
	for i, a := range args {
		if i < writes {
			dst = append(dst, reg(a, i == 0 && wideDst)...)
			continue
		}
		src = append(src, reg(a, i == lastReg)...)
	}
	return dst, src
}

// subroutineRegs is the registers the subroutine at target writes, and
// the ones it reads before writing them (its arguments), in address
// order up to its RET.
func subroutineRegs(code []profan.SourceRecord, target string) (written, args map[string]bool) {
	written, args = map[string]bool{}, map[string]bool{}
	start := -1
	for k, s := range code {
		if strings.ToLower(s.Address) == target {
			start = k
			break
		}
	}
	if start < 0 {
		return written, args
	}
	for _, s := range code[start:] {
		dst, src := operands(s.SASS)
		for _, r := range src {
			if !written[r] {
				args[r] = true
			}
		}
		for _, d := range dst {
			written[d] = true
		}
		if strings.HasPrefix(opcode(s.SASS), "RET") {
			break
		}
	}
	return written, args
}
