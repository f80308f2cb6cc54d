package verdict

import (
	"math"

	"github.com/profan-dev/profan/internal/metrics"
)

// RooflinePoint is a kernel's place on the roofline of its GPU.
type RooflinePoint struct {
	// FlopPerByte is the arithmetic intensity: FP32 + FP64 operations per
	// DRAM byte.
	FlopPerByte float64
	// FlopPerS is the achieved FP32 + FP64 throughput.
	FlopPerS float64
	// LimitFlopPerS is the roof above the point: the smaller of the
	// floating-point peak (the tensor peak of the operand type when most
	// operations ran on tensor cores, FP64 when most are double, else
	// FP32) and the intensity times the peak DRAM bandwidth.
	LimitFlopPerS float64
	// TensorType is the operand type of most tensor-core operations
	// ("bf16", "tf32", "fp16", "fp8_e4m3", ...), "" when none ran.
	TensorType string
}

// Roofline places a kernel on its GPU's roofline; false when the kernel did
// no floating-point work, lacks FLOP or DRAM byte counters, or runs on a GPU
// without known peaks. The FLOP counts come from every form ncu exports
// them in (metrics.Defs: flop_count_sp, flop_count_dp).
func Roofline(a *Kernel) (RooflinePoint, bool) {
	if a == nil || a.Metrics == nil || a.Spec == nil {
		return RooflinePoint{}, false
	}
	get := func(name string) float64 {
		v, ok := a.Metrics.Get(name)
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			return math.NaN()
		}
		return v
	}
	ai, perf := get("arithmetic_intensity"), get("flop_throughput")
	bw, p32, p64 := a.Spec.PeakBandwidth(), a.Spec.PeakFP32(), a.Spec.PeakFP64()
	if !(ai > 0) || !(perf > 0) || !(bw > 0) || !(p32 > 0) || math.IsInf(bw, 0) || math.IsInf(p32, 0) {
		return RooflinePoint{}, false
	}
	peak := p32
	sp, dp, tc := get("flop_count_sp"), get("flop_count_dp"), get("flop_count_tensor")
	if dp > 0 && !(sp >= dp) && p64 > 0 {
		peak = p64
	}
	tt := ""
	if tc > 0 && tc >= nan0(sp)+nan0(dp) {
		tt, _ = metrics.TensorType(a.Record)
		if pt := a.Spec.PeakTensor(tt); pt > 0 {
			peak = pt
		}
	}
	return RooflinePoint{FlopPerByte: ai, FlopPerS: perf, LimitFlopPerS: math.Min(peak, ai*bw), TensorType: tt}, true
}

// nan0 is v, or 0 when v is NaN.
func nan0(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}
