package rules_test

import (
	"math"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
)

// TestTensorCoresUnusedMeasured checks tensor-cores-unused's estimate
// against hardware: fixtures/pytorch/train.tf32.gemm.details.csv.gz holds
// the GEMMs of one FP32 training step and then of the same step with TF32
// matmuls (train.py --compare-tf32, on an H100). The FP32 step's GEMMs
// carry the finding; the time it estimates they would save, weighted by
// their durations, must be what switching to TF32 saved: 1 - (TF32 GEMM
// time) / (FP32 GEMM time).
func TestTensorCoresUnusedMeasured(t *testing.T) {
	var fp32, tf32, saved float64
	n32 := 0
	analyzeAll(t, []string{"../../fixtures/pytorch/train.tf32.gemm.details.csv.gz"}, func(a *analysis.Kernel) {
		d := a.Record.Duration
		if math.IsNaN(d) {
			t.Fatalf("kernel %s has no duration", a.Record.ID)
		}
		for _, f := range a.Findings {
			if f.Rule == "tensor-cores-unused" {
				if !a.Name.FP32SIMT {
					t.Errorf("kernel %s %s: tensor-cores-unused on a GEMM that uses tensor cores", a.Record.ID, a.Name.Display)
				}
				fp32 += d
				saved += d * f.Gain
				n32++
				return
			}
		}
		if a.Name.FP32SIMT {
			t.Errorf("kernel %s %s: FP32 GEMM without tensor-cores-unused", a.Record.ID, a.Name.Display)
		}
		tf32 += d
	})
	if n32 == 0 || tf32 == 0 {
		t.Fatalf("found %d FP32 GEMMs and %.0f us of TF32 GEMMs", n32, tf32*1e6)
	}
	measured := 1 - tf32/fp32
	estimated := saved / fp32
	t.Logf("%d FP32 GEMM launches, %.0f us; TF32 step %.0f us: measured gain %.2f, estimated %.2f", n32, fp32*1e6, tf32*1e6, measured, estimated)
	if math.Abs(estimated-measured) > 0.08 {
		t.Errorf("tensor-cores-unused estimates %.2f of the FP32 GEMMs' time, TF32 saved %.2f", estimated, measured)
	}
}
