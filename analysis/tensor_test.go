package analysis_test

import (
	"math"
	"strings"
	"testing"

	"github.com/profan-dev/profan/analysis"
	"github.com/profan-dev/profan/ingest"
)

// TestTensorCoresSeen: on the raw pages of real PyTorch steps (a TF32
// CNN, a bf16 transformer layer, a bf16 GPT decoder, on an H100), every
// kernel that ran tensor-core operations and whose busiest pipe is the
// tensor pipe is limited by it unless memory leads (attention and small
// convolutions keep their LSU, XU or ALU pipes busier), its roofline counts the tensor FLOPs, equal within
// 15% to ncu's per-instruction tensor operation count (an independent
// family of counters) and placed under the tensor roof of its type; the
// transformer's QKV projection does 2·M·N·K = 2·4096·1024·3072 FLOPs.
func TestTensorCoresSeen(t *testing.T) {
	qkv := 2.0 * 4096 * 1024 * 3072
	sawQKV := false
	for _, file := range []string{"cnn.full.raw.csv.gz", "tf.full.raw.csv.gz", "gpt.full.raw.csv.gz"} {
		run, err := ingest.ReadFile(appDir+file, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		n, busiest := 0, 0
		for _, k := range run.Kernels {
			a := analysis.Analyze(run, k, analysis.Options{})
			tc, ok := a.Value("flop_count_tensor")
			if !ok || tc <= 0 {
				continue
			}
			n++
			perOp := 0.0
			for _, m := range k.Metrics {
				if strings.HasPrefix(m.Name, "sm__ops_path_tensor_op_") && strings.HasSuffix(m.Name, ".sum") &&
					!strings.Contains(strings.TrimSuffix(m.Name, ".sum"), ".") && !math.IsNaN(m.Value) {
					perOp += m.Value
				}
			}
			if perOp > 0 && math.Abs(tc-perOp) > 0.15*perOp {
				t.Errorf("%s %s: %.4g tensor FLOPs, ncu's per-instruction count %.4g", file, k.ID, tc, perOp)
			}
			if tc == qkv {
				sawQKV = true
			}
			// Where the tensor pipe is the busiest pipe (cycles active,
			// against every other pipe's instructions), it is the limiter
			// unless memory leads.
			tensor, other := math.NaN(), 0.0
			for _, m := range k.Metrics {
				const suf = ".avg.pct_of_peak_sustained_active"
				switch {
				case m.Name == "sm__pipe_tensor_cycles_active"+suf:
					tensor = m.Value
				case strings.HasPrefix(m.Name, "sm__inst_executed_pipe_") && strings.HasSuffix(m.Name, suf) &&
					!strings.Contains(strings.TrimSuffix(strings.TrimPrefix(m.Name, "sm__inst_executed_pipe_"), suf), "_"):
					other = math.Max(other, m.Value)
				}
			}
			l := a.Limiter
			if tensor >= other {
				busiest++
				if !(l.Unit == analysis.LimitPipe && l.Pipe == "TENSOR") && !l.Unit.Memory() {
					t.Errorf("%s %s %.50s: limiter %s (%s), want the tensor pipe", file, k.ID, k.DisplayName(), l, l.Evidence)
				}
			}
			p, ok := analysis.Roofline(a)
			if !ok {
				t.Errorf("%s %s: no roofline point", file, k.ID)
				continue
			}
			if sp, _ := a.Value("flop_count_sp"); tc > sp && p.TensorType == "" {
				t.Errorf("%s %s: tensor FLOPs lead but no tensor roof", file, k.ID)
			}
			if peak := a.Spec.PeakTensor(p.TensorType); p.TensorType != "" && peak > 0 && p.FlopPerS > 1.0001*peak {
				t.Errorf("%s %s: %.3g FLOP/s above the %s tensor peak %.3g", file, k.ID, p.FlopPerS, p.TensorType, peak)
			}
		}
		if n == 0 || busiest == 0 {
			t.Errorf("%s: %d tensor-core kernels, %d with the tensor pipe busiest", file, n, busiest)
		}
		t.Logf("%s: %d tensor-core kernels, %d with the tensor pipe busiest", file, n, busiest)
	}
	if !sawQKV {
		t.Errorf("no kernel counted the QKV projection's %.4g FLOPs", qkv)
	}
}
