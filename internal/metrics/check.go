package metrics

import "fmt"

// check returns warnings for derived values that cannot be right: the
// statistics return warnings rather than failing, so a report still shows
// the numbers and says which ones to distrust.
func check(e *env) []string {
	var w []string
	pct := func(name string) {
		if v, ok := e.val(name); ok && (v < 0 || v > 100.5) {
			w = append(w, fmt.Sprintf("%s = %.1f%% is outside 0–100%%", name, v))
		}
	}
	// Load, store and shared efficiencies may pass 100% when threads share
	// addresses (a broadcast counts once); the memory model judges those.
	for _, n := range []string{"branch_efficiency", "sm_efficiency", "warp_execution_efficiency", "warp_nonpred_execution_efficiency", "dram_peak_pct"} {
		pct(n)
	}
	for _, n := range []string{"gld_efficiency", "gst_efficiency", "shared_efficiency"} {
		if v, ok := e.val(n); ok && v < 0 {
			w = append(w, fmt.Sprintf("%s = %.1f%% is negative", n, v))
		}
	}
	for _, op := range []string{"gld", "gst"} {
		if v, ok := e.val(op + "_transactions_per_request"); ok && v > 0 && (v < 1 || v > 32*4) {
			w = append(w, fmt.Sprintf("%s_transactions_per_request = %.2f: a warp request touches between 1 and 128 sectors", op, v))
		}
	}
	if v, ok := e.val("achieved_occupancy"); ok && (v < 0 || v > 1.005) {
		w = append(w, fmt.Sprintf("achieved_occupancy = %.3f is outside 0–1", v))
	}
	if a, ok := e.val("achieved_occupancy"); ok {
		if t, ok := e.val("theoretical_occupancy"); ok && a > t*1.02+0.01 {
			w = append(w, fmt.Sprintf("achieved occupancy %.2f exceeds theoretical %.2f", a, t))
		}
	}
	if v, _, ok := e.src(l1Active...); ok && v > 100.5 {
		if _, ok := e.val("l1_sol_pct"); !ok {
			w = append(w, fmt.Sprintf("L1/TEX throughput %.0f%% of its peak over its active cycles is no share of the kernel's time, and the export lacks the elapsed one: L1/shared left out of the limiter", v))
		}
	}
	return w
}

// l1Active names ncu's L1/TEX throughput over the unit's active cycles,
// its speed-of-light figure.
var l1Active = []string{"l1tex__throughput.avg.pct_of_peak_sustained_active", "L1/TEX Cache Throughput[%]"}

// l1Throughput is ncu's L1/TEX figure, over the unit's active cycles. An
// L1 active for a sliver of a kernel (one block on a large GPU) reads
// far above 100% there; the share over the elapsed cycles, which the
// other units' figures use, then stands in, and without it none does.
func l1Throughput(e *env) (float64, string, bool) {
	v, n, ok := e.src(l1Active...)
	if !ok || v <= 100.5 {
		return v, n, ok
	}
	return e.src("l1tex__throughput.avg.pct_of_peak_sustained_elapsed")
}
