package rules

import (
	"testing"

	"github.com/profan-dev/profan/internal/sass"
)

// TestSLNonlinear holds which loop bodies slNonlinear reads as a state
// updated nonlinearly (no closed form: its steps are the work), on the
// SASS of real loops as captured (a body from its back edge's target to
// the branch, the unrolled repeats cut): a polynomial map v = (v/4 −
// 1/2)·v + 3/4 (sol-check8's heavyItems<0>), a multiply-xorshift hash
// (sol-check14's mixTail<0>); and as linear, with a closed form: an
// integer cube root walked by a counter (sol-check27's icbrtWalk<0>), a
// sum of powers γ^t term by term (sol-check28's discSum<0>), a number's
// digits reversed while it is divided by ten, a multiply-high and a
// shift (sol-check27's revDec<1>).
func TestSLNonlinear(t *testing.T) {
	for _, c := range []struct {
		name string
		body []string
		want bool
	}{
		{"heavyItems<0>", []string{
			"HFMA2.MMA R3, -RZ, RZ, 1.625, 0",
			"IADD3 R2, R2, -0x10, RZ",
			"ISETP.GT.AND P1, PT, R2, 0xc, PT",
			"FFMA R5, R4, R3, -0.5",
			"FFMA R4, R5, R4, 0.75",
			"FFMA R5, R4, R3, -0.5",
			"FFMA R4, R4, R5, 0.75",
			"@P1   BRA 0x7f5fb77b5fc0",
		}, true},
		{"mixTail<0>", []string{
			"SHF.R.U32.HI R10, RZ, 0x10, R11",
			"VIADD R9, R9, 0xfffffffc",
			"LOP3.LUT R10, R10, R11, RZ, 0x3c, !PT",
			"ISETP.NE.AND P2, PT, R9, RZ, PT",
			"IMAD R10, R10, 0x7feb352d, RZ",
			"SHF.R.U32.HI R11, RZ, 0xf, R10",
			"LOP3.LUT R11, R11, R10, RZ, 0x3c, !PT",
			"IMAD R11, R11, -0x7b935975, RZ",
			"@P2   BRA 0x7fbc9b7ae660",
		}, true},
		{"icbrtWalk<0>", []string{
			"MOV R7, R4",
			"VIADD R4, R4, 0x1",
			"IMAD R3, R4, R4, RZ",
			"IMAD R3, R4, R3, RZ",
			"ISETP.GT.U32.AND P0, PT, R3, R0, PT",
			"@!P0  BRA 0x7f650b7c7000",
		}, false},
		{"discSum<0>", []string{
			"IADD3 R4, R4, -0x4, RZ",
			"FADD R6, R10, R9",
			"FMUL R5, R2, R10",
			"ISETP.NE.AND P0, PT, R4, -0x1, PT",
			"FADD R6, R5, R6",
			"FMUL R5, R2, R5",
			"FADD R9, R6, R5",
			"FMUL R10, R2, R5",
			"@P0   BRA 0x7f87337caa40",
		}, false},
		{"revDec<1>", []string{
			"IMAD.WIDE.U32 R2, R0, -0x33333333, RZ",
			"ISETP.GT.U32.AND P0, PT, R0, 0x9, PT",
			"SHF.R.U32.HI R3, RZ, 0x3, R3",
			"IMAD R0, R3, -0xa, R0",
			"IMAD R7, R7, 0xa, R0",
			"MOV R0, R3",
			"@P0   BRA 0x7f650b7ad9f0",
		}, false},
	} {
		var prog []slInst
		for _, s := range c.body {
			op, args := sass.Fields(s)
			prog = append(prog, slParse(op, args, s))
		}
		if got := slNonlinear(prog, 0, len(prog)-1); got != c.want {
			t.Errorf("%s: slNonlinear = %v, want %v", c.name, got, c.want)
		}
	}
}
