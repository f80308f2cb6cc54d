package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// fp64OnFloat reports a kernel that reads and writes floats but computes
// in double: a double literal (0.5), a double math function (exp, sqrt,
// pow) or a double variable promotes the whole expression to the FP64
// pipe, which runs at half the FP32 pipe's rate on an H100 or H200 and at
// 1/32 or 1/64 of it on GeForce and workstation GPUs.
var fp64OnFloat = &Rule{
	ID:    "fp64-on-float",
	Title: "Float data computed in double precision",
	Text: `A kernel whose inputs and outputs are float but whose arithmetic is double (the
SASS converts each float to double, F2F.F64.F32, computes with DFMA, DMUL and
DADD, and converts back, F2F.F32.F64) runs its math on the FP64 pipe: half the
FP32 rate on an H100 or H200, 1/32 to 1/64 of it on GeForce and workstation
GPUs, and a double exp() or sin() is a long polynomial where the float one is a
few instructions around the hardware's MUFU. The usual cause is a promotion:
a double literal (0.75 where 0.75f was meant), exp() on a float in C (or an
explicit double), a double variable in the expression. Use float literals and
the float functions (expf, sinf, sqrtf, or their __expf intrinsics), let
-Wdouble-promotion (nvcc -Xcompiler -Wdouble-promotion) find the promotions,
and consider --use_fast_math where its accuracy is enough.`,
	Before: `float v = x[i];
v = exp(-v * v) * 0.75 + 0.1;   // double exp, double literals`,
	After: `float v = x[i];
v = expf(-v * v) * 0.75f + 0.1f;`,
	Severity:    profan.Warning,
	Cause:       CauseCompute,
	Scope:       Source,
	Locates:     true,
	NeedsSource: true,
	Requires:    []string{"duration"},
	Optional:    join(usageReads, bindingLimitReads, []string{"flop_count_sp", "flop_count_dp"}),
	Check:       checkFP64OnFloat,
}

// checkFP64OnFloat prices the fix from the pipes' rates: the kernel's
// floating-point work done in float at the FP32 pipe's attainable peak,
// against its time; what its DRAM and L2 traffic need stays
// (fixtures/sol-check9's expChain<double>: 4.43 G FP64 operations, 139 µs
// at the H200's FP64 peak of its 223 µs; 70 µs in float, 0.69 against the
// 0.72 its float twin ran faster).
func checkFP64OnFloat(p *Pass) {
	a := p.Kernel
	w, ok := analysis.DoubleWork(a)
	t, okT := p.Value("duration")
	if !ok || !okT || !w.Limits(t) {
		return
	}
	// In float the math moves to the FP32 pipe at its rate, and the
	// instructions that are not FP64 math, its conversions or the moves
	// of its literals stay, at the SM's issue rate (sol-check10's
	// damp<0>, whose sqrt's special-case branches stay in sqrtf: 133 M of
	// its 359 M warp instructions, 134 µs of 464 µs, 0.71 against 0.59;
	// its float twin ran in 191 µs, where the FP32 pipe alone said 108
	// µs; sol-check9's expChain<double> keeps 50 M, under its FP32 time).
	after := math.Max(math.Max(w.Ideal32, w.Kept), launchFloor)
	// The float version issues the same loads at the same latency, so
	// its warps wait on their data as long as the double ones did (the
	// share of the warps' sampled stalls on a load's data, a warp's
	// time); with less math beside them, less of that wait hides behind
	// other warps' math: the share of it as long as the float math, all
	// of it where it outlasts the math (a wave of warps waits, then
	// computes). fixtures/sol-check26's planckRad<0>: 36 % of its samples
	// on its loads, 59 µs of its 165, its float math 54 µs; its float
	// twin ran 124 µs, issue 55 % and DRAM 42 % of it, 0.32 against 0.25
	// where the L2 bound said 0.55; sol-check25's lognPdf<0>, 24 %: 0.49
	// against 0.45 (was 0.65); sol-check9's expChain<double>, 4 % beside
	// a sixteen-step exp chain, hidden: 0.68 against 0.72.
	share := loadWait(a)
	wait := share * t * math.Min(1, share*t/after)
	if b, ok := bindingLimit(p); ok && b.what == "registers" && b.next > b.blocks {
		// The doubles' registers hold the warps in flight: in float the
		// SM holds more, whose math hides one another's waits
		// (fixtures/sol-check15's gmm_f64: 160 registers, 18 % occupancy;
		// its float twin ran at 92 %).
		wait = 0
	}
	gain := clamp01(1 - (after+wait)/t)
	if w.ConvertBound() {
		// The conversions, not the FP64 math, hold the kernel: its FP64
		// work is arithmetic between conversions, each FP64 instruction
		// an FP32 one in float, an issue slot whatever its FLOPs; the fix
		// takes the conversions' pipe time off, at its rate
		// (fixtures/sol-check19's relaxMap<0>: the conversions 574 µs of
		// its 583 µs at 95 % of their peak, in float 90 µs of issue where
		// its FLOPs at the FP32 pipe's peak said 51, 0.83 against the
		// 0.82 its float twin ran faster; 1 − 51/583 said 0.91).
		after = math.Max(after, w.Float)
		gain = math.Min(clamp01(1-(after+wait)/t), clamp01((w.Convert-after)/t))
	}
	_, _, triton := tritonKernel(a.Record)
	if !triton && share < loadWaitShown {
		// The double math hid its loads' waits from the stall samples,
		// so they give the float version no wait to keep; yet a thread
		// of one element loads, computes and stores in turn, and with
		// the shorter float math its memory's work and its issue
		// overlap in part, as a 2-norm (overlapAfter, as precise-math
		// prices them): fixtures/sol-check29's baroAlt<0>, its loads'
		// waits 0.1 % of its samples, L2 76 µs at its ceiling beside 85
		// µs of float issue: 0.71 -> 0.61 against the 0.50 its powf
		// twin ran faster; sol-check28's dewPt<0> 0.49 -> 0.36 (0.37).
		// Fitted after sol-check29's read. Where the samples show the
		// wait (sol-check27's sigmoidLL<0>, 22 %: 0.51 against 0.50)
		// the wait above prices it. A Triton program's threads hold
		// several elements each, their loads issued before the math:
		// the two overlap wholly (sol-check27's rowlse_f64: its fp32
		// twin at DRAM's time).
		gain = math.Min(gain, clamp01(1-overlapAfter(p, t, after)/t))
	}
	gain = math.Min(gain, leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
	advice := "where float's accuracy is enough, compute in float: float literals (0.75f), the float functions (expf, sinf, sqrtf, or __expf), no double variables; find the promotions with -Wdouble-promotion (nvcc -Xcompiler -Wdouble-promotion), and consider --use_fast_math where its accuracy is enough"
	if triton {
		// fixtures/sol-check15's gmm_f64: x.to(tl.float64), an fp64
		// tl.zeros accumulator, tl.exp and tl.log on doubles.
		advice = "where float's accuracy is enough, compute in tl.float32: drop the .to(tl.float64) casts, make the accumulators tl.zeros(..., tl.float32), and tl.exp / tl.log / tl.sqrt then run libdevice's float versions on the FP32 pipe"
	}
	msg := fmt.Sprintf("float data computed in double: %s; its FP64 work needs %.0f%% of its time at the FP64 pipe's peak, in float %.0f%% at the FP32 pipe's (%.0f× the rate)",
		w.Describe(), 100*w.Ideal64/t, 100*w.Ideal32/t, w.Rate(a))
	if wait >= loadWaitShown*t {
		msg += fmt.Sprintf("; its warps wait on their loads' data %.0f%% of their time (sampled stalls), which float keeps and its shorter math hides less of: %.0f%% of its time", 100*share, 100*wait/t)
	}
	if w.ConvertBound() {
		msg += fmt.Sprintf("; its conversions need %.0f%% of its time at their pipe's peak, and go; in float each FP64 instruction is an FP32 one, %.0f%% of its time at the SM's issue rate", 100*w.Convert/t, 100*w.Float/t)
	}
	p.report(estimate(gain), Note{
		Message:  msg,
		Advice:   advice,
		Evidence: append(p.evidence("flop_count_dp", "flop_count_sp", "duration"), fmt.Sprintf("fp64_instructions=%.4g", w.FP64)),
		Locations: topLines(p, func(op string, _ profan.SourceRecord) bool {
			return strings.HasPrefix(op, "DFMA") || strings.HasPrefix(op, "DMUL") || strings.HasPrefix(op, "DADD") ||
				strings.HasPrefix(op, "F2F.F64.F32")
		}),
	})
}

// loadWaitShown is the share of a kernel's time its warps' exposed waits
// on loads take from which fp64-on-float's message says them.
const loadWaitShown = 0.05

// loadWait is the share of a kernel's sampled warp stalls spent waiting
// on a load's data (the source page's stall_long_sb of its
// stall_samples): the share of a warp's time its loads' latency takes.
// 0 without the page's samples.
func loadWait(a *analysis.Kernel) float64 {
	var all, long float64
	for _, s := range instructions(a) {
		v, _ := counterValue(s, "stall_samples")
		all += v
		v, _ = counterValue(s, "stall_long_sb")
		long += v
	}
	if !(all > 0) {
		return 0
	}
	return math.Min(1, long/all)
}
