package rules_test

import "testing"

// TestNeighbourRecompute holds neighbour-recompute on real captures:
// sol-check11's fieldSmooth<0> (field() three times a thread on x[i-1],
// x[i], x[i+1]) at line 416, and nothing elsewhere in sol-check11 or
// sol-check13, whose bilat1d<double> repeats a tap's weight code
// seventeen times but each weight reads two loaded values (x[j] − x[i]):
// no neighbour computes the same one.
func TestNeighbourRecompute(t *testing.T) {
	skipShort(t)
	for _, files := range [][]string{
		{"../../fixtures/sol-check11/sol_check11.raw.csv.gz", "../../fixtures/sol-check11/sol_check11.source.cuda-sass.csv.gz"},
		{"../../fixtures/sol-check13/sol_check13.raw.csv.gz", "../../fixtures/sol-check13/sol_check13.source.cuda-sass.csv.gz"},
	} {
		for name, k := range calibration(t, files...) {
			for _, f := range k.launches[0].Findings {
				if f.Rule != "neighbour-recompute" {
					continue
				}
				if name != "void fieldSmooth<0>(float *, const float *, int)" {
					t.Errorf("%s: neighbour-recompute: %s", name, f.Message)
					continue
				}
				if len(f.Locations) == 0 || f.Locations[0].Line != 416 {
					t.Errorf("%s: neighbour-recompute names %v, want sol_check11.cu:416", name, f.Locations)
				}
				if f.Gain < 0.4 || f.Gain > 0.58 {
					t.Errorf("%s: gain %.2f, measured 0.49", name, f.Gain)
				}
			}
		}
	}
}
