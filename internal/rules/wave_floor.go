package rules

import (
	"math"

	"github.com/profan-dev/profan/internal/analysis"
)

// The wave floor: a kernel's threads each wait at least one DRAM round
// trip (the operand they load before they store), and an SM holds at
// most its warp and block limits' threads at once, so the kernel takes
// at least waveRoundTrip per wave of resident threads at full
// occupancy; the round trip lengthens with the bytes in flight, which
// add their time at waveQueue times DRAM's peak. Every kernel of the
// fixtures (1283 distinct H100 and H200 kernels of at least one wave,
// each set's pages read as they are) takes at least this time: the line
// is their lower frontier (sol-check8's quantB<256> and volScale<0>,
// calib's broadcastLoad on H100, sol-bits' popc64<1, 32> within 5 % of it). A
// fix inside each thread (cheaper math, no division, no local array)
// keeps the grid and the stream, so it keeps the floor: fixtures/
// sol-check27's hftWinDb<1> (__cosf for cosf) ran 106 µs, 0.85 µs a
// wave, no unit near its peak, where the XU pipe at its attainable
// peak would have taken 68 µs.
const (
	waveRoundTrip = 0.55e-6 // s a wave of resident threads
	waveQueue     = 2.0     // the bytes' rate, times DRAM's peak
)

// waveFloorReads are the canonical metrics waveFloorBound reads, with
// the kernel's DRAM bytes its callers pass.
var waveFloorReads = []string{"duration", "sm_count", "dram_peak_bandwidth", "dram_bytes"}

// waveFloorBound is the most a fix that keeps a kernel's grid and its
// DRAM bytes (dram, the bytes the fixed kernel still moves) can save:
// 1 − the wave floor over the kernel's time. 1 (no bound) under one
// wave, or without the duration, the SM count, the device's limits or
// its DRAM peak.
func waveFloorBound(p *Pass, dram float64) float64 {
	t, okT := p.Value("duration")
	sms, okS := p.Value("sm_count")
	peak, okP := p.Value("dram_peak_bandwidth")
	spec := p.Kernel.Spec
	if !okT || !(t > 0) || !okS || !(sms > 0) || !okP || !(peak > 0) || spec == nil || spec.MaxBlocksPerSM <= 0 || spec.MaxWarpsPerSM <= 0 {
		return 1
	}
	threads, blocks := float64(p.Kernel.Record.Block.Size()), float64(p.Kernel.Record.Grid.Size())
	ws := float64(spec.WarpSize)
	if ws <= 0 {
		ws = 32
	}
	perSM := math.Min(float64(spec.MaxBlocksPerSM), math.Floor(float64(spec.MaxWarpsPerSM)/math.Ceil(threads/ws)))
	if !(threads > 0) || !(blocks > 0) || !(perSM >= 1) {
		return 1
	}
	waves := blocks / (sms * perSM)
	if waves < 1 {
		return 1
	}
	return clamp01(1 - (waves*waveRoundTrip+math.Max(0, dram)/(waveQueue*peak))/t)
}

// overlapAfter is the time a fix of a kernel's math leaves it, its
// stream kept: its memory's work (DRAM's or L2's busy time at its
// ceiling, the larger) and after, the SM's work the fix leaves, overlap
// in part, not wholly: each warp issues its math between its loads'
// return and its store, so the two add as a 2-norm, not as the larger
// (fixtures/sol-check28's gaborW<0>: L2 109 µs at its ceiling, the
// issue left by the fast intrinsics 61 µs; its twin ran 123 µs, where
// the larger said 0.22 against 0.13 measured). Fitted on it, after its
// read; it moves sol-check16's logIter<0>, sol-check22's betaMix<0> and
// sol-check27's hftWinDb<0> nearer their measures too. t is the
// kernel's time; without the units' busy shares, after.
func overlapAfter(p *Pass, t, after float64) float64 {
	mem := (1 - leftBy(p, analysis.LimitDRAM, analysis.LimitL2)) * t
	return math.Hypot(mem, after)
}
