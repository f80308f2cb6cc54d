package verdict

import (
	"math"
	"testing"
)

// TestHeadroomStatement: every headroom the verdict decided has a
// statement: the sentence of its unexplained part, its speed of light,
// the findings that explain it, or what the export lacks.
func TestHeadroomStatement(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		h    Headroom
		want string
	}{
		{Headroom{Share: 0.55, Unit: "DRAM", Ideal: 1e-6}, "≈55 % of its time is headroom on DRAM that no rule explains"},
		{Headroom{Share: 0.03, Unit: "FP32 pipe", Ideal: 1e-6}, "≈3 % of its time is headroom on FP32 pipe that no rule explains"},
		{Headroom{Share: 0.004, Unit: "FP32 pipe", Ideal: 1e-6}, "≈0 % of its time is headroom on FP32 pipe: at its speed of light"},
		{Headroom{Share: 0.82, Unit: "FP32 pipe", Held: "L1/shared", Ideal: 1e-6}, "≈82 % of its time is headroom on L1/shared that no rule explains"},
		{Headroom{Share: 0.05, Unit: "XU pipe", Ideal: 1e-6, Explained: 0.045}, "≈5 % of its time is headroom on XU pipe, which its findings explain"},
		{Headroom{Share: 0.6, Unit: "DRAM", Ideal: 1e-6, Explained: 0.595}, "≈60 % of its time is headroom on DRAM, which its findings explain"},
		{Headroom{Share: 0.6, Unit: "DRAM", Ideal: 1e-6, Explained: 0.55}, "≈5 % of its time is headroom on DRAM that no rule explains"},
		{Headroom{Share: nan, Ideal: nan, Missing: "a torch.profiler trace has no hardware counters"}, "not known: a torch.profiler trace has no hardware counters"},
		{Headroom{Share: nan, Ideal: nan}, ""},
	} {
		if got := c.h.Statement(); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.h, got, c.want)
		}
	}
}

// TestHeadroomBrief: a ranking row no finding tops says the headroom no
// rule explains, or the speed of light, in a few words; nothing where
// findings explain it or nothing is known.
func TestHeadroomBrief(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		h    Headroom
		want string
	}{
		{Headroom{Share: 0.51, Unit: "FP32 pipe", Ideal: 1e-6}, "≈51 % headroom on FP32 pipe unexplained"},
		{Headroom{Share: 0.82, Unit: "FP32 pipe", Held: "L1/shared", Ideal: 1e-6}, "≈82 % headroom on L1/shared unexplained"},
		{Headroom{Share: 0.6, Unit: "DRAM", Ideal: 1e-6, Explained: 0.55}, "≈5 % headroom on DRAM unexplained"},
		{Headroom{Share: 0.004, Unit: "DRAM", Ideal: 1e-6}, "at its speed of light on DRAM"},
		{Headroom{Share: 0.6, Unit: "DRAM", Ideal: 1e-6, Explained: 0.595}, ""},
		{Headroom{Share: nan, Ideal: nan, Missing: "a torch.profiler trace has no hardware counters"}, ""},
	} {
		if got := c.h.Brief(); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.h, got, c.want)
		}
	}
}

// TestHeadroomString: the one line text, HTML and report --db give splits
// the headroom as the verdict does: the part the findings explain and the
// sentence for the rest, or its speed of light.
func TestHeadroomString(t *testing.T) {
	for _, c := range []struct {
		h    Headroom
		want string
	}{
		{Headroom{Share: 0.93, Unit: "DRAM", Explained: 0.82, Evidence: "e"}, "93 % of its time above its speed of light on DRAM (e); its findings explain ≈82 %; ≈11 % of its time is headroom on DRAM that no rule explains"},
		{Headroom{Share: 0.97, Unit: "constant cache", Explained: 0.97, Evidence: "e"}, "97 % of its time above its speed of light on constant cache (e); its findings explain ≈97 %"},
		{Headroom{Share: 0.55, Unit: "DRAM", Evidence: "e"}, "55 % of its time above its speed of light on DRAM (e); ≈55 % of its time is headroom on DRAM that no rule explains"},
		{Headroom{Share: 0.04, Unit: "DRAM", Explained: 0.02, Evidence: "e"}, "4 % of its time above its speed of light on DRAM (e); its findings explain ≈2 %; ≈2 % of its time is headroom on DRAM that no rule explains"},
		{Headroom{Share: 0.008, Unit: "DRAM", Evidence: "e"}, "1 % of its time above its speed of light on DRAM (e); at its speed of light"},
	} {
		if got := c.h.String(); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.h, got, c.want)
		}
	}
}
