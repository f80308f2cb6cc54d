package gpumodel

import (
	"math"
	"strings"
	"testing"
)

func TestExplain(t *testing.T) {
	tests := []struct {
		name           string
		elemBytes      float64
		spr, ideal     float64
		pattern        string
		stride, offset float64
		textContains   string
	}{
		{"coalesced floats", 4, 4, 4, "coalesced", 0, 0, "coalesced"},
		{"coalesced, Pearson's 1250/313", 4, 1250.0 / 313, 1250.0 / 313, "coalesced", 0, 0, "coalesced"},
		{"ideal defaulted", 8, 8, 0, "coalesced", 0, 0, "ideal 8"},
		{"misaligned floats", 4, 5, 4, "misaligned", 0, 4, "5 sectors per request with 4-byte accesses (ideal 4): misaligned by a non-multiple of 32 B"},
		{"misaligned, partial", 4, 4.6, 4, "misaligned", 0, 4, "misaligned"},
		{"misaligned doubles", 8, 9, 8, "misaligned", 0, 8, "misaligned"},
		{"stride 2 floats", 4, 8, 4, "strided", 8, 0, "strided by 8 B (2 elements)"},
		{"stride 3 floats", 4, 12, 4, "strided", 12, 0, "strided by 12 B"},
		{"stride 2 doubles", 8, 16, 8, "strided", 16, 0, "strided by 16 B"},
		{"stride 2 floats misaligned", 4, 9, 4, "strided", 8, 4, "and misaligned"},
		{"stride 7 floats", 4, 28, 4, "strided", 28, 0, "strided by 28 B"},
		{"32 sectors", 4, 32, 4, "scattered", 32, 0, "strided by 32 B or more, or scattered"},
		{"Pearson random floats", 4, 9895.0 / 313, 1250.0 / 313, "scattered", 32, 0, "scattered"},
		{"Pearson random doubles", 8, 9947.0 / 313, 2500.0 / 313, "scattered", 32, 0, "scattered"},
		{"broadcast", 4, 1, 4, "uniform", 0, 0, "same address"},
		{"broadcast, near 1", 8, 1.1, 8, "uniform", 0, 0, "same address"},
		{"partial broadcast", 4, 2, 4, "mixed", 0, 0, "share addresses"},
		{"between", 4, 6.8, 4, "mixed", 0, 0, "between"},
		{"two misaligned runs", 4, 6.3, 4, "misaligned", 0, 4, "contiguous runs misaligned"},
		{"two misaligned runs, fixtures/sol-check4's conv5 halo", 4, 5.99, 3.86, "misaligned", 0, 4, "two rows of a tile"},
		{"1-byte stride 2 is also misalignment", 1, 2, 1, "strided", 2, 0, "or misaligned"},
		{"impossible", 4, 40, 4, "unknown", 0, 0, "impossible"},
		{"no data", 4, 0, 4, "unknown", 0, 0, "cannot explain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Explain(tt.elemBytes, tt.spr, tt.ideal)
			if got.Kind.String() != tt.pattern || got.StrideBytes != tt.stride || got.OffsetBytes != tt.offset {
				t.Errorf("%s: Explain(%v, %v, %v): got %q stride %v offset %v, want %q stride %v offset %v (%s)",
					tt.name, tt.elemBytes, tt.spr, tt.ideal, got.Kind, got.StrideBytes, got.OffsetBytes,
					tt.pattern, tt.stride, tt.offset, got.Text)
			}
			if !strings.Contains(got.Text, tt.textContains) {
				t.Errorf("%s: Explain(%v, %v, %v): text %q does not contain %q", tt.name, tt.elemBytes, tt.spr, tt.ideal, got.Text, tt.textContains)
			}
		})
	}
}

// Explain inverts Predict: the model's own counts for a pattern explain
// as that pattern.
func TestExplainInvertsPredict(t *testing.T) {
	tests := []struct {
		elemBytes int
		pattern   string
		want      string
	}{
		{4, "sequential", "coalesced"}, {8, "sequential", "coalesced"}, {16, "sequential", "coalesced"},
		{4, "offset:1", "misaligned"}, {8, "offset:3", "misaligned"}, {4, "offset:8", "coalesced"},
		{4, "stride:2", "strided"}, {4, "stride:4", "strided"}, {8, "stride:2", "strided"},
		{4, "stride:8", "scattered"}, {4, "stride:64", "scattered"}, {8, "stride:4", "scattered"},
		{4, "random", "scattered"}, {8, "random", "scattered"},
		{4, "uniform", "uniform"}, {8, "uniform", "uniform"},
	}
	for _, cc := range []string{"7.0", "9.0", "3.5"} {
		for _, tt := range tests {
			t.Run(tt.pattern, func(t *testing.T) {
				p, _ := ParsePattern(tt.pattern)
				pr, err := PredictWith(cc, tt.elemBytes, 1<<20, p, Options{Elements: 1 << 26})
				if err != nil {
					t.Fatal(err)
				}
				if got := Explain(float64(tt.elemBytes), pr.SectorsPerRequest, pr.IdealSectorsPerRequest); got.Kind.String() != tt.want {
					t.Errorf("cc %s, %d-byte %s: Explain(%.2f sectors/request): got %q, want %q (%s)",
						cc, tt.elemBytes, tt.pattern, pr.SectorsPerRequest, got.Kind, tt.want, got.Text)
				}
			})
		}
	}
}

func TestCheckMeasurement(t *testing.T) {
	tests := []struct {
		name       string
		m          measurement
		fields     []string // problems expected, in order
		impossible []bool
	}{
		{"Pearson coalesced floats", measurement{ElemBytes: 4, Requests: 313, Sectors: 1250, IdealSectors: 1250, EfficiencyPct: 100}, nil, nil},
		{"Pearson random floats", measurement{ElemBytes: 4, Requests: 313, Sectors: 9895, IdealSectors: 1250, EfficiencyPct: 12.63}, nil, nil},
		{"nothing measured", measurement{}, nil, nil},
		{"below one sector per request (predicated-off requests)", measurement{ElemBytes: 4, Requests: 313, Sectors: 200}, []string{"sectors"}, []bool{false}},
		{"above 32 per request", measurement{ElemBytes: 8, Requests: 10, Sectors: 400}, []string{"sectors"}, []bool{true}},
		{"sectors with no requests", measurement{Sectors: 10}, []string{"requests"}, []bool{true}},
		{"broadcast", measurement{ElemBytes: 4, Requests: 313, Sectors: 313, IdealSectors: 1250, EfficiencyPct: 399},
			[]string{"sectors", "efficiency"}, []bool{false, false}},
		{"efficiency beyond a broadcast", measurement{ElemBytes: 4, EfficiencyPct: 450}, []string{"efficiency"}, []bool{true}},
		{"efficiency disagrees", measurement{ElemBytes: 4, Requests: 313, Sectors: 2500, IdealSectors: 1250, EfficiencyPct: 100},
			[]string{"efficiency"}, []bool{false}},
		{"negative", measurement{Requests: -1}, []string{"requests"}, []bool{true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkMeasurement(tt.m)
			if len(got) != len(tt.fields) {
				t.Errorf("%s: checkMeasurement(%+v): got %v, want problems with %v", tt.name, tt.m, got, tt.fields)
				return
			}
			for i, p := range got {
				if p.Field != tt.fields[i] || p.Impossible != tt.impossible[i] {
					t.Errorf("%s: problem %d: got %s (impossible %v), want %s (impossible %v)",
						tt.name, i, p.Error(), p.Impossible, tt.fields[i], tt.impossible[i])
				}
			}
		})
	}
}

func TestPlausible(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name                     string
		elem, spr, ideal, effPct float64
		want                     []string // message prefixes
	}{
		{"coalesced", 4, 4, 4, 100, nil},
		{"unknowns", 4, 31.6, nan, nan, nil},
		{"scattered", 4, 31.6, 4, 12.66, nil},
		{"below one", 4, 0.5, 4, nan, []string{"sectors: 0.5 sectors per request: some requests touched no sector", "sectors: 0.5 sectors is below the ideal 4"}},
		{"above 32", 4, 40, 4, nan, []string{"impossible: sectors: 40 sectors per request"}},
		{"broadcast", 4, 1, 4, 400, []string{"sectors: 1 sectors is below", "efficiency: 400% exceeds 100%"}},
		{"efficiency beyond broadcast", 4, 4, 4, 1000, []string{"impossible: efficiency: 1000% exceeds 400%", "efficiency: 1000% disagrees"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Plausible(tt.elem, tt.spr, tt.ideal, tt.effPct)
			if len(got) != len(tt.want) {
				t.Errorf("%s: Plausible(%v, %v, %v, %v): got %q, want %d problems", tt.name, tt.elem, tt.spr, tt.ideal, tt.effPct, got, len(tt.want))
				return
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("%s: problem %d: got %q, want prefix %q", tt.name, i, got[i], tt.want[i])
				}
			}
		})
	}
}
