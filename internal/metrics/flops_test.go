package metrics

import (
	"math"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/ingest"
)

// A --set full raw page exports the FLOP counters only per elapsed cycle;
// with the cycles beside them they give the known FLOP counts of
// fixtures/gen/calib.cu: matmul of 2048² matrices 2·2048³, saxpy over 2^24
// elements 2·2^24, fmaHeavy 4 FMAs per iteration.
func TestFlopsPerCycleElapsed(t *testing.T) {
	want := map[string]float64{
		"matmulNaive(float *, const float *, const float *, int)": 2 * math.Pow(2048, 3),
		"matmulTiled(float *, const float *, const float *, int)": 2 * math.Pow(2048, 3),
		"saxpy(int, float, const float *, float *)":               2 * math.Pow(2, 24),
	}
	seen := 0
	_, err := ingest.ReadFiles([]string{"../../fixtures/calib/calib.raw.csv.gz"}, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		w, ok := want[k.DisplayName()]
		if !ok {
			return nil
		}
		seen++
		s := Derive(k, Device{})
		got, ok := s.Get("flop_count_sp")
		if !ok || math.Abs(got-w) > 1e-6*w {
			t.Errorf("%s launch %s: flop_count_sp = %v, want %v", k.DisplayName(), k.ID, got, w)
		}
		if v, _ := s.Lookup("flop_count_sp"); v.From == "" {
			t.Errorf("%s: no source named", k.DisplayName())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != 9 {
		t.Errorf("saw %d launches, want 9", seen)
	}
}

// The details page of ncu's roofline section alone (no counts, no
// duration): operations per cycle times the SM clock, over the section's
// DRAM bandwidth. The export prints FFMA operations 158.12, FADD 1.97 and
// FMUL 0 per cycle, SM Frequency 2.15 GHz, DRAM Bandwidth 345.14 GB/s.
func TestFlopsRooflineSection(t *testing.T) {
	n := 0
	_, err := ingest.ReadFiles([]string{"../ingest/testdata/ncu/llmperfopt-cc120-section-roofline.csv"}, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		n++
		s := Derive(k, Device{})
		want := (158.12 + 1.97) * 2.15e9
		if got, ok := s.Get("flop_throughput"); !ok || math.Abs(got-want) > 1e-9*want {
			t.Errorf("flop_throughput = %v, want %v", got, want)
		}
		if got, ok := s.Get("arithmetic_intensity"); !ok || math.Abs(got-want/345.14e9) > 1e-9 {
			t.Errorf("arithmetic_intensity = %v, want %v", got, want/345.14e9)
		}
		return nil
	})
	if err != nil || n != 1 {
		t.Fatalf("%d kernels, %v", n, err)
	}
}
