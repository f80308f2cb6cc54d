package analysis

import "testing"

// TestPreciseTanhForms: nvcc's tanhf tests the |R operand against 0.6
// and 9.0109 on every call (fixtures/sol-check12's tanhMix<0>);
// libdevice's tanh in Triton's SASS holds |x| in a register, tested
// against 0.6 every call and against 9.0109 on the large-argument
// branch only (fixtures/sol-check19's tanh_rec_precise). The SASS is
// copied from those source pages.
func TestPreciseTanhForms(t *testing.T) {
	for _, c := range []struct {
		sass                string
		precise, held, test bool
	}{
		{"      FSETP.GE.AND P0, PT, |R8|, 9.010913848876953125, PT", true, false, false},
		{"      FSETP.GE.AND P1, PT, |R8|, 0.60000002384185791016, PT", false, false, false},
		{"      FSETP.GE.AND P2, PT, R14, 9.010913848876953125, PT", false, true, false},
		{"@P2   FSETP.GE.AND P3, PT, R19, 9.010913848876953125, PT", false, true, false},
		{"      FSETP.GE.AND P3, PT, R14, 0.60000002384185791016, PT", false, false, true},
		{"      FADD.FTZ R14, |R18|, -RZ", false, false, false},
		{"      FMUL R0, R14, 2.8853900432586669922", false, false, false},
	} {
		if got := PreciseTanh(c.sass); got != c.precise {
			t.Errorf("PreciseTanh(%q) = %v", c.sass, got)
		}
		if got := PreciseTanhHeld(c.sass); got != c.held {
			t.Errorf("PreciseTanhHeld(%q) = %v", c.sass, got)
		}
		if got := TanhBranch(c.sass); got != c.test {
			t.Errorf("TanhBranch(%q) = %v", c.sass, got)
		}
	}
}
