package rules

import (
	"math"
	"strconv"
	"strings"
)

// The SASS readers of bit-loop: one instruction each, a bit tested,
// moved or shifted, and the operands, guard and pipe they read.

// depositBit returns the register a SASS instruction takes one bit of
// to merge it into another word, "" if it does not: LOP3.LUT R6, R6,
// 0x20, R9, 0xf8 is R6 | (R9 & 0x20), LOP3.LUT R7, R6, 0x2, R7, 0xe2
// takes bit 1 of R6 into R7, a one-bit immediate beside two source
// registers and a register written (fixtures/sol-check21's morton2<0>:
// a Morton code built by a 16-step loop unrolled, code |= ((x >> b) &
// 1) << 2b | ((y >> b) & 1) << (2b + 1), 31 such merges a code and a
// shift for most, where the shift-and-mask spread takes four steps a
// coordinate). The register after the mask (before it when the mask is
// the last source) is the one returned, with the mask.
func depositBit(sass string) (reg, mask string) {
	if !strings.HasPrefix(opcode(sass), "LOP3.LUT") {
		return "", ""
	}
	f := sassOperands(sass)
	if len(f) < 5 || !strings.HasPrefix(f[0], "R") || f[0] == "RZ" {
		return "", ""
	}
	isReg := func(x string) bool { return strings.HasPrefix(x, "R") && x != "RZ" && !strings.HasPrefix(x, "RZ") }
	at := 0
	for i := 1; i <= 3; i++ {
		if strings.HasPrefix(f[i], "0x") {
			v, err := strconv.ParseUint(f[i][2:], 16, 32)
			if err != nil || v == 0 || v&(v-1) != 0 || at != 0 {
				return "", ""
			}
			at = i
		} else if !isReg(f[i]) {
			return "", ""
		}
	}
	switch {
	case at == 0:
		return "", ""
	case at < 3:
		return f[at+1], f[at]
	}
	return f[at-1], f[at]
}

// sassGuard is the predicate a SASS instruction runs under, "P3" for
// @P3 or @!P3, "" for none.
func sassGuard(sass string) string {
	f := strings.Fields(sass)
	if len(f) == 0 || !strings.HasPrefix(f[0], "@") {
		return ""
	}
	return strings.TrimPrefix(strings.TrimPrefix(f[0], "@"), "!")
}

// singleBitTest returns the register a SASS instruction ands with a
// one-bit immediate, "" if it does not: LOP3.LUT Rd, Ra, 0x1, RZ, 0xc0
// (a bit shifted down) or LOP3.LUT P0, RZ, Ra, 0x2, RZ, 0xc0 (a bit
// tested in place) give Ra.
func singleBitTest(sass string) string {
	if !strings.HasPrefix(opcode(sass), "LOP3.LUT") {
		return ""
	}
	f := sassOperands(sass)
	if len(f) < 3 || f[len(f)-2] != "0xc0" && f[len(f)-1] != "0xc0" {
		return ""
	}
	for i, x := range f {
		if i == 0 || !strings.HasPrefix(x, "0x") || x == "0xc0" {
			continue
		}
		v, err := strconv.ParseUint(x[2:], 16, 64)
		if err == nil && v != 0 && v&(v-1) == 0 && strings.HasPrefix(f[i-1], "R") && f[i-1] != "RZ" {
			return f[i-1]
		}
	}
	return ""
}

// scanTest returns the register a SASS instruction tests for a bit set
// at or above a position b, 1 to 31, "" if it does not: LOP3.LUT P1, RZ,
// R5, 0xfffffff8, RZ, 0xc0 is (v >> 3) != 0, a predicate of v and the
// mask of its bits from b up (fixtures/sol-check20's msbScan<0>: floor
// (log2 v) by a 31-step scan unrolled, l = (v >> b) != 0 ? b : l, thirty
// such tests and a select each where FLO takes one). Only a predicate's
// test counts: a register anded with a high mask is a field cut out.
func scanTest(sass string) string {
	if !strings.HasPrefix(opcode(sass), "LOP3.LUT") {
		return ""
	}
	f := sassOperands(sass)
	if len(f) < 6 || !strings.HasPrefix(f[0], "P") || f[1] != "RZ" || f[4] != "RZ" || f[5] != "0xc0" ||
		!strings.HasPrefix(f[2], "R") || f[2] == "RZ" || !strings.HasPrefix(f[3], "0x") {
		return ""
	}
	v, err := strconv.ParseUint(f[3][2:], 16, 32)
	if low := ^uint32(v) + 1; err != nil || v == 0 || uint32(v) == math.MaxUint32 || low&(low-1) != 0 {
		return ""
	}
	return f[2]
}

// addConst returns the register a SASS instruction adds a constant to
// (IADD3 Rd, Ra, 0x1, RZ; VIADD Rd, Ra, 0x1), "" if it does not.
func addConst(sass string) string {
	base, _, _ := strings.Cut(opcode(sass), ".")
	if base != "IADD3" && base != "VIADD" {
		return ""
	}
	f := sassOperands(sass)
	if len(f) < 3 || !strings.HasPrefix(f[1], "R") || f[1] == "RZ" || !strings.HasPrefix(strings.TrimPrefix(f[2], "-"), "0x") {
		return ""
	}
	if len(f) > 3 && f[3] != "RZ" {
		return ""
	}
	return f[1]
}

// sassOperands are a SASS instruction's operands, its guard and opcode
// dropped.
func sassOperands(sass string) []string {
	f := strings.Fields(strings.ReplaceAll(sass, ",", " "))
	for len(f) > 0 && strings.HasPrefix(f[0], "@") {
		f = f[1:]
	}
	if len(f) > 0 {
		f = f[1:]
	}
	return f
}

// stepShift returns the register a SASS instruction shifts in place by
// one to eight bits (SHF.R.U32.HI R0, RZ, 0x1, R0; SHF.L.U32 R0, R0,
// 0x1, RZ; IMAD.SHL.U32 R0, R0, 0x2, RZ), "" if it does not: a word
// walked a bit or a few at a time.
func stepShift(sass string) string {
	op := opcode(sass)
	if !strings.HasPrefix(op, "SHF.") && !strings.HasPrefix(op, "IMAD.SHL") {
		return ""
	}
	f := sassOperands(sass)
	if len(f) < 4 {
		return ""
	}
	small := func(x string, shl bool) bool {
		v, err := strconv.ParseUint(strings.TrimPrefix(x, "0x"), 16, 64)
		if err != nil || !strings.HasPrefix(x, "0x") {
			return false
		}
		if shl {
			return v >= 2 && v <= 256 && v&(v-1) == 0
		}
		return v >= 1 && v <= 8
	}
	switch {
	case strings.HasPrefix(op, "SHF.R") && f[1] == "RZ" && small(f[2], false) && f[3] == f[0]:
		return f[0]
	case strings.HasPrefix(op, "SHF.L") && f[1] == f[0] && small(f[2], false):
		return f[0]
	case strings.HasPrefix(op, "IMAD.SHL") && f[1] == f[0] && small(f[2], true):
		return f[0]
	}
	return ""
}

// aluOp reports whether an opcode runs on the ALU pipe on sm_70 and
// later (ncu's pipe table: bit manipulation, logic and integer
// instructions but IMAD and IMUL; comparisons and selects).
func aluOp(op string) bool {
	base, _, _ := strings.Cut(op, ".")
	switch base {
	case "LOP3", "LOP", "SHF", "SHL", "SHR", "IADD3", "ISETP", "LEA", "SEL", "PRMT", "POPC", "FLO", "BREV",
		"IMNMX", "PLOP3", "BMSK", "SGXT", "FSETP", "FSEL", "FMNMX", "P2R", "R2P":
		return true
	}
	return false
}
