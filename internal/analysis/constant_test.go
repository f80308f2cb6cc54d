package analysis_test

import (
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// TestIndexedConstantLoad holds which SASS constant loads are indexed per
// thread: a register offset, not RZ, not a uniform register, not an
// immediate (sol-check9's lutConst<0> and its kernel parameters).
func TestIndexedConstantLoad(t *testing.T) {
	for _, c := range []struct {
		sass string
		want bool
	}{
		{"LDC R2, c[0x3][R10+0x20]", true},
		{"@P0 LDC.64 R12, c[0x3][R16]", true},
		{"LDC R1, c[0x0][0x28]", false},
		{"LDC R0, c[0x0][RZ]", false},
		{"LDC.64 R2, c[0x0][0x218]", false},
		{"ULDC UR4, c[0x0][0x230]", false},
		{"LDC R4, c[0x3][UR4]", false},
		{"LDS R2, [R2+UR4]", false},
	} {
		if got := analysis.IndexedConstantLoad(c.sass); got != c.want {
			t.Errorf("IndexedConstantLoad(%q) = %v, want %v", c.sass, got, c.want)
		}
	}
}

// TestConstantsWaiting holds the stall samples counted as waiting on the
// indexed loads: the loads' own and those of the instructions that read
// their results before the register is written again.
func TestConstantsWaiting(t *testing.T) {
	rec := func(addr, sass string, samples float64) profan.SourceRecord {
		return profan.SourceRecord{Address: addr, SASS: sass, Counter: []profan.Metric{
			{Name: "inst_executed", Value: 10}, {Name: "thread_inst_executed_pred_on", Value: 320}, {Name: "stall_samples", Value: samples}}}
	}
	k := &profan.Kernel{Source: []profan.SourceRecord{
		rec("0x10", "LDC R1, c[0x0][0x28]", 5),
		rec("0x20", "LDC R2, c[0x3][R10+0x20]", 40),
		rec("0x30", "IADD3 R6, R6, 0x4, RZ", 5),
		rec("0x40", "FFMA R7, R7, 0.5, R2", 30),
		rec("0x50", "MOV R2, 0x1", 10),
		rec("0x60", "FADD R8, R2, R8", 10),
		rec("0x20", "LDC R2, c[0x3][R10+0x20]", 40), // listed again under another line
	}}
	w, ok := analysis.Constants(analysis.Analyze(&profan.Run{}, k, analysis.Options{}))
	if !ok {
		t.Fatal("no indexed constant load found")
	}
	if w.Loads != 10 || w.Other != 10 || w.Samples != 70 || w.Total != 100 {
		t.Errorf("Constants = loads %v, other %v, samples %v of %v; want 10, 10, 70 of 100", w.Loads, w.Other, w.Samples, w.Total)
	}
	if r, measured := w.Replays(); r != 32 || measured {
		t.Errorf("Replays = %v, %v; want 32 (the lanes), not measured", r, measured)
	}
}

// TestHeadroomConstantAndFP64 holds the two units the sol-check9 classes
// added: lutConst<0>'s constant cache (31.8 requests an indexed load on
// the raw page; the lanes, 32, on the details page) and expChain<double>'s
// FP64 work on float data counted at the FP32 pipe's rate; their twins
// keep their own units.
func TestHeadroomConstantAndFP64(t *testing.T) {
	pages := []string{"details", "raw"}
	if testing.Short() {
		pages = pages[:1] // CI reads the raw page too
	}
	for _, page := range pages {
		checkHeadrooms(t, page, []string{"sol-check9/sol_check9"}, []headroomCase{
			{"void lutConst<0>(float *, const float *, const unsigned int *, const float *, int)", "constant cache", 0.96, 0.975},
			{"void expChain<double>(float *, const float *, int)", "FP32 pipe", 0.65, 0.72},
			{"void lutConst<1>(float *, const float *, const unsigned int *, const float *, int)", "DRAM", 0, 1},
			{"void hornerD<0>(double *, const double *, int)", "FP64 pipe", 0, 0.2},
		})
	}
}
