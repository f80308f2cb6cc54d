package analysis_test

import (
	"math"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/verdict"
)

// TestTensorCoresSeen: on the raw pages of real PyTorch steps (a TF32
// CNN, a bf16 transformer layer, a bf16 GPT decoder, a ViT, a
// MobileNetV2-style CNN whose small TF32 GEMMs wait on memory, on an H100),
// every kernel that ran tensor-core operations is limited by the tensor
// pipe, by a unit measured busier than it, like for like (pipes by their
// cycles active where ncu counts them, else by their instructions, one
// issue cycle each; memory units by their share of peak), or, when no
// pipe and neither of ncu's memory and compute totals reaches the 60%
// bound, by latency, its launch or contended atomics (ncu's verdict: a
// GEMM whose tensor pipe is at 15% is not limited by it); its limiter
// names the tensor pipe's activity when it is not the tensor pipe. Its
// roofline counts the tensor FLOPs, equal within 15% to ncu's
// per-instruction tensor operation count (an independent family of
// counters), placed under the tensor roof of its type; the transformer's
// QKV projection does 2·M·N·K = 2·4096·1024·3072 FLOPs.
func TestTensorCoresSeen(t *testing.T) {
	if testing.Short() {
		t.Skip("five full raw pages: runs without -short, as CI does")
	}
	qkv := 2.0 * 4096 * 1024 * 3072
	sawQKV := false
	total, onTensor := 0, 0
	for _, file := range []string{appDir + "cnn.full.raw.csv.gz", appDir + "tf.full.raw.csv.gz", appDir + "gpt.full.raw.csv.gz", "../../fixtures/check/vit.full.raw.csv.gz", "../../fixtures/check5/mbv2.full.raw.csv.gz"} {
		run, err := ingest.ReadFile(file, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		n, tensorLimited := 0, 0
		for _, k := range run.Kernels {
			a := analysis.Analyze(run, k, analysis.Options{})
			tc, ok := a.Value("flop_count_tensor")
			if !ok || tc <= 0 {
				continue
			}
			n++
			where := file + " " + k.ID
			checkTensorFLOPs(t, where, k, tc)
			sawQKV = sawQKV || tc == qkv
			if checkTensorLimiter(t, where, k, a.Limiter) {
				tensorLimited++
			}
			checkTensorRoof(t, where, a, tc)
		}
		if n == 0 {
			t.Errorf("%s: no tensor-core kernel", file)
		}
		t.Logf("%s: %d tensor-core kernels, %d limited by the tensor pipe, the others by a unit measured busier or, all under the bound, by latency, launch or atomics", file, n, tensorLimited)
		total += n
		onTensor += tensorLimited
	}
	t.Logf("all: %d tensor-core kernels, %d limited by the tensor pipe", total, onTensor)
	if onTensor == 0 {
		t.Error("no kernel limited by the tensor pipe")
	}
	if !sawQKV {
		t.Errorf("no kernel counted the QKV projection's %.4g FLOPs", qkv)
	}
}

// checkTensorFLOPs checks a kernel's tensor FLOPs (tc) against ncu's
// per-instruction tensor operation count, within 15%.
func checkTensorFLOPs(t *testing.T, where string, k *profan.Kernel, tc float64) {
	t.Helper()
	perOp := 0.0
	for _, m := range k.Metrics {
		if strings.HasPrefix(m.Name, "sm__ops_path_tensor_op_") && strings.HasSuffix(m.Name, ".sum") &&
			!strings.Contains(strings.TrimSuffix(m.Name, ".sum"), ".") && !math.IsNaN(m.Value) {
			perOp += m.Value
		}
	}
	if perOp > 0 && math.Abs(tc-perOp) > 0.15*perOp {
		t.Errorf("%s: %.4g tensor FLOPs, ncu's per-instruction count %.4g", where, tc, perOp)
	}
}

// checkTensorLimiter checks that a tensor-core kernel's limiter is the
// tensor pipe, reported true, or a unit measured at least as busy, which
// names the tensor pipe's activity beside it.
func checkTensorLimiter(t *testing.T, where string, k *profan.Kernel, l analysis.Limiter) bool {
	t.Helper()
	if l.Unit == analysis.LimitPipe && l.Pipe == "TENSOR" {
		return true
	}
	pipes := pipeBusy(k.Metrics)
	tensor := pipes["tensor"]
	if busier := limiterBusy(t, where, k, l, pipes); !(busier >= tensor) {
		t.Errorf("%s %.50s: limiter %s (%s) at %.1f%%, the tensor pipe busier at %.1f%%", where, k.DisplayName(), l, l.Evidence, busier, tensor)
	}
	if !strings.Contains(l.Evidence, "tensor pipe") && !strings.Contains(l.Evidence, "busiest pipe TENSOR") {
		t.Errorf("%s %.50s: limiter %s (%s) leaves out the tensor pipe's activity", where, k.DisplayName(), l, l.Evidence)
	}
	return false
}

// limiterBusy is the activity of the unit that limits a kernel, as ncu
// measured it, NaN when the limiter names no unit; a latency limiter is
// as busy as the tensor pipe when nothing reaches the 60% bound, which it
// checks.
func limiterBusy(t *testing.T, where string, k *profan.Kernel, l analysis.Limiter, pipes map[string]float64) float64 {
	t.Helper()
	switch {
	case l.Bound() == "latency":
		// Nothing at the bound: the tensor pipe, the busiest pipe and
		// ncu's totals all under it.
		top := 0.0
		for _, v := range pipes {
			top = math.Max(top, v)
		}
		for _, n := range []string{"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "sm__throughput.avg.pct_of_peak_sustained_elapsed"} {
			top = math.Max(top, val(k.Metrics, n))
		}
		if top >= 60 {
			t.Errorf("%s %.50s: limiter %s (%s) beside a unit at %.1f%%", where, k.DisplayName(), l, l.Evidence, top)
		}
		return pipes["tensor"]
	case l.Unit == analysis.LimitPipe:
		return pipes[strings.ToLower(l.Pipe)]
	case l.Unit.Memory():
		return map[analysis.Unit]float64{analysis.LimitDRAM: val(k.Metrics, "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
			analysis.LimitL2:       val(k.Metrics, "lts__throughput.avg.pct_of_peak_sustained_elapsed"),
			analysis.LimitL1Shared: val(k.Metrics, "l1tex__throughput.avg.pct_of_peak_sustained_active")}[l.Unit]
	}
	return math.NaN()
}

// checkTensorRoof checks that a tensor-core kernel's roofline point is
// placed under the tensor roof of its type when its tensor FLOPs (tc)
// lead, and not above that roof's peak.
func checkTensorRoof(t *testing.T, where string, a *analysis.Kernel, tc float64) {
	t.Helper()
	p, ok := verdict.Roofline(a)
	if !ok {
		t.Errorf("%s: no roofline point", where)
		return
	}
	if sp, _ := a.Value("flop_count_sp"); tc > sp && p.TensorType == "" {
		t.Errorf("%s: tensor FLOPs lead but no tensor roof", where)
	}
	if peak := a.Spec.PeakTensor(p.TensorType); p.TensorType != "" && peak > 0 && p.FlopPerS > 1.0001*peak {
		t.Errorf("%s: %.3g FLOP/s above the %s tensor peak %.3g", where, p.FlopPerS, p.TensorType, peak)
	}
}

// pipeBusy is each SM pipe's activity, like for like: its cycles active
// where ncu counts them, else its instructions against their peak rate
// (one issue cycle each); sub-counters of a pipe and the shared pipe
// (which mirrors the tensor and FP16 pipes) left out.
func pipeBusy(ms []profan.Metric) map[string]float64 {
	const suf = ".avg.pct_of_peak_sustained_active"
	cyc, inst := map[string]float64{}, map[string]float64{}
	for _, m := range ms {
		if !strings.HasSuffix(m.Name, suf) || math.IsNaN(m.Value) {
			continue
		}
		n := strings.TrimSuffix(m.Name, suf)
		switch {
		case strings.HasPrefix(n, "sm__pipe_") && strings.HasSuffix(n, "_cycles_active"):
			p := strings.TrimSuffix(strings.TrimPrefix(n, "sm__pipe_"), "_cycles_active")
			if p != "shared" && !strings.Contains(p, "_") {
				cyc[p] = m.Value
			}
		case strings.HasPrefix(n, "sm__inst_executed_pipe_"):
			p := strings.TrimPrefix(n, "sm__inst_executed_pipe_")
			if !strings.Contains(p, "_") {
				inst[p] = m.Value
			}
		}
	}
	for p, v := range inst {
		if _, ok := cyc[p]; !ok {
			cyc[p] = v
		}
	}
	return cyc
}

func val(ms []profan.Metric, names ...string) float64 {
	for _, n := range names {
		for _, m := range ms {
			if m.Name == n {
				return m.Value
			}
		}
	}
	return math.NaN()
}
