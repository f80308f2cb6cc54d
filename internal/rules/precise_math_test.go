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
