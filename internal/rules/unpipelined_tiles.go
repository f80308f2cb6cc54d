package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// unpipelinedTiles reports a tiled tensor-core product whose global →
// shared tile loads are synchronous and not overlapped with the math: each
// step loads its tiles into registers (LDG), stores them to shared memory
// (STS) and meets at a barrier before the MMAs read them, with no
// asynchronous copy (LDGSTS, TMA) in the kernel, so the warps wait out the
// loads' latency at every step. barrier-stalls leaves such a kernel to it.
var unpipelinedTiles = &Rule{
	ID:    "unpipelined-tiles",
	Title: "Tile loads not overlapped with the math",
	Text: `A tiled product loads its next tiles from global memory into registers, stores
them to shared memory and meets at a __syncthreads before the tensor cores read
them: one stage, nothing in flight while the MMAs run, so every step waits out a
global load's latency at its barrier. Load the tiles of step k+1 (and k+2) while
step k computes: in Triton num_stages >= 3 (the compiler issues the loads as
cp.async or TMA copies into a ring of shared buffers), in CUDA double-buffered
shared tiles filled by cp.async (cuda::memcpy_async with a cuda::pipeline) or TMA,
as CUTLASS and cuBLAS do.`,
	Before: `for (int k = 0; k < K; k += BK) {
    As[ty][tx] = A[...k...];          // LDG -> STS, waits for DRAM/L2
    Bs[ty][tx] = B[...k...];
    __syncthreads();
    acc = mma(As, Bs, acc);
    __syncthreads();
}`,
	After: `// two stages: the copy of tile k+1 is in flight while tile k computes
cuda::memcpy_async(As[1 - s], A + ..., shape, pipe); pipe.producer_commit();
pipe.consumer_wait();  acc = mma(As[s], Bs[s], acc);  pipe.consumer_release();`,
	Severity: profan.Warning,
	Cause:    CauseOwn,
	Scope:    Source,
	Locates:  true,
	Check:    checkUnpipelinedTiles,
	NCURule:  "CPIStall",
	Requires: []string{"duration"},
	Optional: barrierReads,
}

// checkUnpipelinedTiles prices the fix from the wait it removes: in a
// one-stage loop each warp waits for its own tile loads at the shared
// stores that take their data (the page's stall_long_sb on the feeding
// loads and stores) and then, at the barrier, for the slowest warp's:
// one latency, read at two places. fixtures/sol-check15's mm_s1 (Triton
// tl.dot, 128x128x64 fp16 tiles, num_stages=1, HGMMA fed by LDG.E.128 →
// STS.128 → BAR.SYNC, no LDGSTS or UTMALDG) waits at its barriers 34 %
// of its cycles; its num_stages=4 twin ran 0.32 faster. Where the
// barriers' share is small the wait shows at the stores instead: with
// two blocks an SM, or warps that each wait on their own loads, the
// slowest warp is seldom far behind (fixtures/sol-check17's wmmaTile<1>,
// WMMA's HMMA.16816 fed by LDG.E.128 → STS.128, 10 % at its barriers and
// 36 % of its stall samples on the tile loads' data; bmm_s1, a Triton
// bf16 product at num_stages=1, 23 % and 64 %). That wait costs time
// only while the SM has nothing else to run at its speed of light: it is
// priced as its share of the samples times the kernel's headroom (wmmaTile<1>
// 0.36 × 0.78 = 0.28 against the 0.30 its cp.async twin ran faster; bmm_s1
// 0.64 × 0.73 = 0.47 against 0.53), the larger of the two readings
// standing (mm_s1: 0.34 at its barriers, 0.46 × 0.54 = 0.25 at its
// stores).
func checkUnpipelinedTiles(p *Pass) {
	pct, _, barOK := barrierWait(p)
	if _, ok := p.Value("duration"); !ok {
		return
	}
	sl, ok := syncTileLoads(p.Kernel)
	if !ok {
		return
	}
	loadWait := sl.loadWait()
	if !barOK && loadWait < barrierShare {
		return
	}
	share := 0.0
	if barOK {
		share = math.Min(1, pct/100)
	}
	if h := p.Kernel.Limiter.Headroom; h.Known() && loadWait >= barrierShare {
		share = math.Max(share, loadWait*h.Share)
	}
	gain := math.Min(share, leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
	var waits []string
	if !math.IsNaN(pct) && pct > 0 {
		waits = append(waits, fmt.Sprintf("its warps wait at the barriers %.0f%% of their cycles between two issued instructions (ncu's stall reason barrier)", pct))
	}
	if loadWait >= barrierShare {
		waits = append(waits, fmt.Sprintf("%.0f%% of its warps' stall samples wait on the tile loads' data, at the loads and the shared stores that take it (stall long scoreboard)", 100*loadWait))
	}
	wait := strings.Join(waits, "; ")
	msg := fmt.Sprintf("a tiled tensor-core product (%s) loads its tiles from global memory into registers and stores them to shared memory before a barrier (%.0f%% of its shared stores fed by a global load, no cp.async or TMA copy): one stage, the loads not overlapped with the math; %s",
		sl.mma, 100*sl.fed/sl.stores, wait)
	advice := "double-buffer the shared tiles: start the copies of step k+1 with cp.async (cuda::memcpy_async on a cuda::pipeline, or __pipeline_memcpy_async) or TMA (sm_90) before computing step k, and wait for them only before their MMAs; or use CUTLASS/cuBLAS, whose products keep 3 to 4 stages in flight"
	if _, _, tr := tritonKernel(p.Kernel.Record); tr {
		advice = "raise num_stages to 3 or 4 in the launch (kernel[grid](..., num_warps=8, num_stages=3)) or let triton.autotune choose it (triton.Config({...}, num_stages=s, num_warps=w) for s in 3, 4, 5): the compiler then issues the next tiles' loads as asynchronous copies (cp.async, or TMA with tl.make_tensor_descriptor) into a ring of shared buffers, overlapped with tl.dot"
	}
	p.report(estimate(gain), Note{
		Message:   msg,
		Advice:    advice,
		Evidence:  p.evidence("barrier_stall_pct", "duration"),
		Locations: sl.lines(p),
	})
}

// tileLoads is what syncTileLoads read, in warp instructions executed.
type tileLoads struct {
	mma         string  // the MMA's opcode
	fed, stores float64 // shared stores of registers a global load wrote; every shared store
	feeders     map[string]bool
	// samples are the page's warp stall samples, all of them and those
	// waiting on a load's data (stall_long_sb) at the feeders.
	samples, fedLong float64
}

// loadWait is the share of the kernel's warp stall samples that wait on
// the tile loads' data, at the loads and at the stores that take it; 0
// where the page has no samples.
func (sl tileLoads) loadWait() float64 {
	if sl.samples <= 0 {
		return 0
	}
	return sl.fedLong / sl.samples
}

// lines are the source lines of the global loads that feed shared stores
// and of those stores, the most executed first.
func (sl tileLoads) lines(p *Pass) []profan.Location {
	return topLines(p, func(op string, s profan.SourceRecord) bool {
		return sl.feeders[s.Address]
	})
}

// syncTileLoads reports a kernel whose tensor-core MMAs read tiles that
// reach shared memory through registers: at least half its shared stores
// store registers a global load wrote, a barrier executed, and no
// asynchronous copy (LDGSTS, UTMALDG, UBLKCP) anywhere in the kernel.
func syncTileLoads(a *analysis.Kernel) (sl tileLoads, ok bool) {
	if !sassHas(a, "MMA") {
		return sl, false // most kernels: no tensor-core product, no walk
	}
	sl.feeders = map[string]bool{}
	loaded := map[string]string{} // register → the address of the LDG that wrote it
	bars := 0.0
	for _, s := range programOrder(a) {
		op := opcode(s.SASS)
		n := instExecuted(s)
		base := strings.SplitN(op, ".", 2)[0]
		switch {
		case base == "LDGSTS" || strings.HasPrefix(base, "UTMA") || base == "UBLKCP" || base == "LDGDEPBAR":
			return sl, false
		case strings.Contains(base, "MMA") && n > 0 && sl.mma == "":
			sl.mma = base
		case base == "BAR" && strings.HasPrefix(op, "BAR.SYNC"):
			bars += n
		}
		f := strings.Fields(strings.ReplaceAll(s.SASS, ",", " "))
		if base == "STS" {
			sl.stores += n
			if len(f) > 0 {
				if ld, fed := loaded[f[len(f)-1]]; fed {
					sl.fed += n
					sl.feeders[s.Address], sl.feeders[ld] = true, true
				}
			}
			continue
		}
		if dst := destination(f); dst != "" {
			if base == "LDG" {
				loaded[dst] = s.Address
			} else {
				delete(loaded, dst)
			}
		}
	}
	ok = sl.mma != "" && bars > 0 && sl.stores > 0 && sl.fed >= 0.5*sl.stores
	if ok {
		for _, s := range instructions(a) {
			v, _ := counterValue(s, "stall_samples")
			sl.samples += v
			if sl.feeders[s.Address] {
				v, _ = counterValue(s, "stall_long_sb")
				sl.fedLong += v
			}
		}
	}
	return sl, ok
}
