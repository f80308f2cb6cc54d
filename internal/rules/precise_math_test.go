package rules_test

import (
	"strings"
	"testing"
)

// TestPreciseMath holds precise-math on real captures: sol-check12's
// tanhMix<0> (64 precise tanhf a thread, XU pipe and issue slots its
// limit) at its line 513, advised in CUDA's terms with the accuracy
// caveat; nothing on its tanh.approx.f32 twin, on sol-check11's mufuIlp
// (__sinf chains: already the MUFU's approximation) or on any other
// kernel of either set (no precise tanhf in their SASS) but sol-check11's
// gammaPow<1>, whose powf(·, 2.4f) is the precise powf (line 317; its
// gain unmeasured: __powf is its fast form).
func TestPreciseMath(t *testing.T) {
	skipShort(t)
	for _, files := range [][]string{
		{"../../fixtures/sol-check12/sol_check12.raw.csv.gz", "../../fixtures/sol-check12/sol_check12.source.cuda-sass.csv.gz"},
		{"../../fixtures/sol-check11/sol_check11.raw.csv.gz", "../../fixtures/sol-check11/sol_check11.source.cuda-sass.csv.gz"},
	} {
		for name, k := range calibration(t, files...) {
			for _, f := range k.launches[0].Findings {
				if f.Rule != "precise-math" {
					continue
				}
				if name == "void gammaPow<1>(float *, const float *, int)" {
					if !strings.Contains(f.Message, "precise powf") || len(f.Locations) == 0 || f.Locations[0].Line != 317 {
						t.Errorf("%s: precise-math not on its powf at sol_check11.cu:317: %s %v", name, f.Message, f.Locations)
					}
					continue
				}
				if name != "void tanhMix<0>(float *, const float *, int)" {
					t.Errorf("%s: precise-math on a kernel without precise tanhf: %s", name, f.Message)
					continue
				}
				if len(f.Locations) == 0 || f.Locations[0].Line != 513 {
					t.Errorf("%s: precise-math names %v, want sol_check12.cu:513", name, f.Locations)
				}
				if !strings.Contains(f.Advice, "tanh.approx.f32") || !strings.Contains(f.Advice, "--use_fast_math") || !strings.Contains(f.Advice, "error") {
					t.Errorf("%s: advice without the approximation, the flag or its accuracy: %s", name, f.Advice)
				}
				if f.Gain < 0.45 || f.Gain > 0.65 {
					t.Errorf("%s: gain %.2f, measured 0.56", name, f.Gain)
				}
			}
		}
	}
	ks := calibration(t, "../../fixtures/sol-check12/sol_check12.raw.csv.gz", "../../fixtures/sol-check12/sol_check12.source.cuda-sass.csv.gz")
	if _, ok := ks["void tanhMix<0>(float *, const float *, int)"].rules["precise-math"]; !ok {
		t.Error("tanhMix<0>: no precise-math finding")
	}
}

// TestPreciseMathStarts holds precise-math's gain to what the blocks'
// starts leave, on sol-check26's capture: logcosh_b64_w1's precise logf
// (line 41, 45 % of its instructions, 15 % of its time at the issue
// peak) gets none, its 1 Mi one-warp programs' starts taking its whole
// time (tiny-blocks' 0.81 against a measured 0.80); vmMix<0>'s expf and
// cosf in 256-thread blocks keep theirs (measured 0.48).
func TestPreciseMathStarts(t *testing.T) {
	skipShort(t)
	for _, c := range []struct {
		files  []string
		kernel string
		lo, hi float64 // the gain's bounds; 0, 0: no finding
	}{
		{[]string{"../../fixtures/sol-check26/sol_triton26.raw.csv.gz", "../../fixtures/sol-check26/sol_triton26.source.cuda-sass.csv.gz"}, "logcosh_b64_w1", 0, 0},
		{[]string{"../../fixtures/sol-check26/sol_triton26.details.csv.gz", "../../fixtures/sol-check26/sol_triton26.source.cuda-sass.csv.gz"}, "logcosh_b64_w1", 0, 0},
		{[]string{"../../fixtures/sol-check26/sol_check26.raw.csv.gz", "../../fixtures/sol-check26/sol_check26.source.cuda-sass.csv.gz"}, "void vmMix<0>(float *, const float *, int)", 0.41, 0.55},
	} {
		k, ok := calibration(t, c.files...)[c.kernel]
		if !ok {
			t.Fatalf("%s: no kernel %s", c.files[0], c.kernel)
		}
		var got []float64
		for _, f := range k.launches[0].Findings {
			if f.Rule == "precise-math" {
				got = append(got, f.Gain)
			}
		}
		switch {
		case c.hi == 0 && len(got) > 0:
			t.Errorf("%s in %s: precise-math %.2f, want none (its blocks' starts set its time)", c.kernel, c.files[0], got)
		case c.hi > 0 && (len(got) != 1 || got[0] < c.lo || got[0] > c.hi):
			t.Errorf("%s in %s: precise-math %.2f, want one in [%.2f, %.2f]", c.kernel, c.files[0], got, c.lo, c.hi)
		}
	}
}
