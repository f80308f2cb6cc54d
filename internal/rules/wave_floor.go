package rules

import (
	"math"
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
