package rules

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/metrics"
)

// vectorReach is the share of the attainable DRAM rate a stream of
// 16-byte coalesced accesses reaches: its kernels keep 8 % of their time
// as headroom (fixtures/sol: axpyH<8>, axpyF<4>, axpyH<4> at 0.08).
const vectorReach = 0.92

// narrowAccess reports a memory-bound kernel whose coalesced global
// accesses are narrower than the 16 bytes a thread can move at once: each
// warp instruction carries a quarter (4-byte) to a sixteenth (1-byte) of
// what it could, so the bytes in flight, not the DRAM, set the rate.
var narrowAccess = &Rule{
	ID:    "narrow-access",
	Title: "Global accesses narrower than 16 bytes",
	Text: `A thread can load or store 16 bytes with one instruction (float4, uint4, int4).
A kernel that moves 1, 2 or 4 bytes per thread per instruction keeps a fraction of
the bytes in flight a memory-bound kernel needs to reach DRAM's bandwidth, and
spends issue slots and L1 wavefronts on each. Load and store vectors: half2 or
uint4 (8 halves), float4, char4 or uint4 (16 bytes), with a scalar tail loop.`,
	Before: `__half* y; y[i] = __hfma(a, x[i], y[i]);        // 2 bytes per thread`,
	After: `uint4 xv = reinterpret_cast<const uint4*>(x)[i];  // 8 halves per thread
uint4 yv = reinterpret_cast<uint4*>(y)[i]; /* 4 × __hfma2 */ reinterpret_cast<uint4*>(y)[i] = yv;`,
	Severity: profan.Warning,
	Cause:    CauseMemory,
	Scope:    Source,
	Locates:  true,
	Requires: []string{"duration", "global_load_requests|global_store_requests"},
	Optional: []string{"local_load_sectors", "local_store_sectors", "l2_atomic_requests", "l2_cycles", "waves_per_sm", "sm_count", "gld_transactions", "gst_transactions", "gld_ideal_transactions", "gst_ideal_transactions", "gld_transactions_per_request", "gst_transactions_per_request", "membar_stall_pct"},
	Check: func(p *Pass) {
		h := p.Kernel.Limiter.Headroom
		if !h.Known() || h.Unit != "DRAM" || h.Ideal < 4*launchFloor {
			return
		}
		// A kernel a compute pipe limits (ncu's compute throughput at
		// the bound, over its memory's) waits on that pipe, not on the
		// bytes in flight: wider accesses leave its arithmetic, or its
		// constant-cache lookups, as they were (fixtures/sol-check9's
		// lutConst<0>: ADU at 75 %, memory 0 %, the constant cache
		// serialising a warp's 32 table indices, whose shared-memory
		// twin ran 0.99 faster; rescale<long long>: ALU, memory 4 %).
		// Only the load-store pipe is one that width relieves.
		if l := p.Kernel.Limiter; l.Unit == analysis.LimitPipe && l.Pipe != "LSU" {
			return
		}
		// A kernel L1/shared limits whose warp shuffles outnumber its
		// global memory instructions waits on the shuffles (SHFL runs
		// through the MIO and the L1/shared crossbar), not on the bytes
		// in flight: wider loads leave every shuffle in place
		// (fixtures/sol-check14's shflEach<0>: 31.5 M SHFL against 2.1 M
		// LDG and STG, L1/shared at 87 %; its per-lane sums, one
		// all-reduce a warp at the end, ran 0.58 faster with the same
		// 4-byte loads).
		if l := p.Kernel.Limiter; l.Unit == analysis.LimitL1Shared && shufflesHold(p.Kernel) {
			return
		}
		// Local-memory traffic and shared memory (atomics, staging) are
		// other work than the stream the vectors widen.
		for _, n := range []string{"local_load_sectors", "local_store_sectors"} {
			if v, ok := p.Value(n); ok && v > 0 {
				return
			}
		}
		if !epilogueOnly(p) {
			return
		}
		// A grid that cannot fill the GPU is small-grid's: its
		// accesses wait for warps, not for width.
		if launchFill(p) < 1 && !loopFilled(p) {
			return
		}
		// Blocks so small that the SM's block starts take most of the
		// kernel's time hold it: its accesses wait for blocks to start,
		// not for their width, and tiny-blocks prices the block size
		// (fixtures/sol-check13's volMap<8, 2, 2>: 2 Mi blocks of 32
		// threads, their starts the whole of its time; its 32×8×1 twin,
		// the same coalesced 4-byte accesses, ran 0.82 faster).
		if startsShare(p) >= startsHeld {
			return
		}
		width, share := narrowWidth(p)
		taps, guarded := false, false
		if width <= 0 {
			width, share, taps, guarded = narrowTaps(p)
		}
		if width <= 0 || width > 4 || share < 0.5 {
			return
		}
		// A fence after each access holds the time, not the access's
		// width: the warp waits for every store to be visible before the
		// next (fixtures/sol-check11's fenceEach<0>: a __threadfence
		// after each of eight 4-byte stores, 83 % of the sampled stalls
		// on the fences; one fence after the last ran 0.50 faster).
		// Without the source page, the warps' stalls at fences say it
		// (membar_stall_pct: 75 % there).
		if analysis.FenceHeld(p.Kernel) >= fenceHeld {
			return
		}
		if v, ok := p.Value("membar_stall_pct"); ok && len(p.Kernel.Record.Source) == 0 && v >= 100*fenceHeld {
			return
		}
		k := 16 / width
		gain := clamp01(1 - math.Max(1/k, (1-h.Share)/vectorReach))
		narrowAt := map[string]bool{}
		var chased, global float64
		for _, in := range p.Kernel.Model.Instructions {
			if in.Space != "global" {
				continue
			}
			if in.Pattern.Kind == gpumodel.Broadcast || analysis.IndirectAccess(p.Kernel, &in) {
				return // a gather's order or a broadcast, not the width, shapes these
			}
			// A volatile (strong) load is issued as the source writes
			// it, each time it is written: its width is not what the
			// time is spent on, its repeats are (fixtures/sol-check10's
			// volSum<0>: sixteen 4-byte LDG.E.STRONG.SYS an element, the
			// time L2's re-reads; one ordinary load ran 0.63 faster).
			if in.Operation == "load" && strings.Contains(in.SASS, ".STRONG.") {
				return
			}
			if in.Pattern.AccessBytes > 0 && in.Pattern.AccessBytes < 16 && (in.Sectors <= in.IdealSectors*1.1 || taps && windowTap(p, in) || guarded && guardedSpan(p.Kernel, in)) {
				narrowAt[in.Address] = true
			}
			if in.Operation == "load" && analysis.Chased(p.Kernel, in.Address) {
				chased += in.Sectors
			}
			global += in.Sectors
		}
		// Loads whose addresses are the values of the loads before them
		// (a pointer chase) are in flight one at a time: their latency,
		// not their width, holds the time (fixtures/sol-check11's
		// chase<0>: sixteen dependent 4-byte hops a lane; the same rows
		// from a table, independent loads, ran 0.45 faster).
		if global > 0 && chased >= 0.5*global {
			return
		}
		var what []string
		locs := topLines(p, func(op string, s profan.SourceRecord) bool {
			if !narrowAt[s.Address] {
				return false
			}
			if !slices.Contains(what, op) {
				what = append(what, op)
			}
			return true
		})
		sort.Strings(what)
		kind := "coalesced global accesses"
		switch {
		case taps:
			kind = "coalesced global accesses and the shifted taps of a window beside them (a sector a request more, the neighbour's)"
		case guarded:
			kind = "coalesced global accesses (some under a branch that idles lanes, moving the sectors a whole warp's would)"
		}
		msg := fmt.Sprintf("%s of %s per thread carry %.0f%% of the kernel's global traffic, %.0f%% of its time above the DRAM time of its bytes", kind, metrics.Count(width, "byte"), 100*share, 100*h.Share)
		if len(what) > 0 {
			msg += " (" + strings.Join(what, ", ") + ")"
		}
		p.report(estimate(gain), Note{
			Message:   msg,
			Advice:    narrowAdvice(p.Kernel, width),
			Evidence:  p.evidence("gld_transactions_per_request", "gst_transactions_per_request", "gld_transactions", "gst_transactions"),
			Locations: locs,
		})
	},
}

// epilogueShare is the most shared-memory and atomic requests, against
// the kernel's global requests, that narrow-access reads as a block's
// epilogue (a reduction's partial sums through shared memory and one
// atomic a block) rather than as other work than the stream: a
// grid-stride int8 sum a byte a load (fixtures/sol-check8's sumS8<1>:
// 8.4 M global loads, 2 112 shared loads and 1 056 atomics, 0.05 %;
// 16 bytes a load ran 0.47 faster).
const epilogueShare = 0.01

// epilogueOnly reports whether the kernel's shared-memory accesses and
// atomics, if any, are at most epilogueShare of its global requests.
func epilogueOnly(p *Pass) bool {
	m := p.Kernel.Model
	var global, side float64
	for _, x := range []*analysis.Access{m.GlobalLoad, m.GlobalStore} {
		if x != nil {
			global += x.Requests
		}
	}
	for _, x := range []*analysis.Access{m.SharedLoad, m.SharedStore} {
		if x != nil {
			if !(x.Requests > 0) {
				return false // shared accesses of unknown size
			}
			side += x.Requests
		}
	}
	if w, ok := analysis.Atomics(p.Kernel); ok {
		side += w.Requests + w.Shared
	}
	return side == 0 || (global > 0 && side <= epilogueShare*global)
}

// loopRequests is the global requests a launched warp makes, on
// average, above which loopFilled reads its threads as looping over the
// data (a grid-stride loop) rather than as a grid too small for it.
const loopRequests = 64

// loopFilled reports whether a grid that fills fewer than all of the
// GPU's warp slots still gives every SM blocks whose threads loop over
// the data (fixtures/sol-check12's clampGS<1>: 4·SMs blocks of 256, half
// the slots, ≈4 000 global requests a warp). Its warps run the whole
// kernel; what each keeps in flight, its access width, sets the rate
// (a float4 an iteration on the same grid ran 0.14 faster).
func loopFilled(p *Pass) bool {
	sms, ok := p.Value("sm_count")
	blocks := float64(p.Kernel.Record.Grid.Size())
	b := p.Kernel.Record.Block.Size()
	if !ok || !(sms > 0) || blocks < sms || b <= 0 {
		return false
	}
	var req float64
	m := p.Kernel.Model
	for _, x := range []*analysis.Access{m.GlobalLoad, m.GlobalStore} {
		if x != nil {
			req += x.Requests
		}
	}
	warps := blocks * float64((b+31)/32)
	return req >= loopRequests*warps
}

// narrowWidth is the bytes per thread of the kernel's coalesced global
// accesses (a full warp's ideal sectors per request: 32 threads × S bytes
// over 32-byte sectors), the widest when loads and stores differ, and the
// share of its global sectors they carry.
func narrowWidth(p *Pass) (width, share float64) {
	var total, narrow float64
	m := p.Kernel.Model
	for _, x := range []*analysis.Access{m.GlobalLoad, m.GlobalStore} {
		if x == nil || !(x.Transactions > 0) {
			continue
		}
		total += x.Transactions
		w := math.Round(x.IdealSectorsPerRequest)
		if x.Pattern.Kind != gpumodel.Coalesced {
			return 0, 0 // not one coalesced stream
		}
		if w < 1 || x.SectorsPerRequest > 1.1*x.IdealSectorsPerRequest {
			continue
		}
		narrow += x.Transactions
		width = math.Max(width, w)
	}
	if total <= 0 {
		return 0, 0
	}
	return width, narrow / total
}

// fenceHeld is the share of a kernel's sampled warp stalls on the
// fences it executes after each access above which narrow-access stays
// silent (fixtures/sol-check11's fenceEach<0>: 0.83; its stall cycles at
// a memory barrier, membar_stall_pct, 75 %).
const fenceHeld = 0.3

// narrowTaps is narrowWidth read from the source page's instructions for a
// kernel whose global accesses are each coalesced, one tap of a window
// (in[i-1], in[i], in[i+1] of one line, as wide) or guarded by a branch
// (guardedSpan): a shifted tap's extra sector a request is its
// neighbour's, which L1 serves, not a layout to fix (fixtures/sol-check11's
// blur3U8<1>: three 1-byte loads a pixel, the two shifted ones at 2
// sectors a request, read as strided by 2 B; a uint4 of sixteen pixels ran
// 0.81 faster), and a guarded access's are its idle lanes' elements.
// width is the widest access in bytes, share the part of the global
// sectors such accesses carry; taps and guarded say which kind beside the
// coalesced ones there is.
func narrowTaps(p *Pass) (width, share float64, taps, guarded bool) {
	var total, narrow float64
	for _, in := range p.Kernel.Model.Instructions {
		if in.Space != "global" || !(in.Sectors > 0) {
			continue
		}
		total += in.Sectors
		if !(in.Pattern.AccessBytes > 0) {
			return 0, 0, false, false
		}
		if in.Sectors > in.IdealSectors*1.1 {
			switch {
			case windowTap(p, in):
				taps = true
			case guardedSpan(p.Kernel, in):
				guarded = true
			default:
				return 0, 0, false, false // not one coalesced stream
			}
		}
		narrow += in.Sectors
		width = math.Max(width, in.Pattern.AccessBytes)
	}
	if total <= 0 || width <= 0 {
		return 0, 0, false, false
	}
	// With neither, the kernel read as one coalesced stream by
	// instruction; narrowTaps read it as taps before guarded accesses
	// had a kind of their own.
	return width, narrow / total, taps || !guarded, guarded
}

// guardedLanes is the most active lanes a global access under a branch
// runs with, on average, for guardedSpan to read it as guarded: a
// quarter of the warp off or more (a bounds test's partial last warp
// leaves nearly all on).
const guardedLanes = 24

// guardedSpan reports whether a global access runs under a branch that
// leaves lanes idle (guardedLanes active or fewer) and moves no more
// sectors a request than a whole warp's accesses of its width would: ncu's
// ideal counts the active lanes' bytes only, and the sectors above it are
// the idle lanes' elements between theirs, fetched with them, not a
// misalignment or a stride the indexing could remove
// (fixtures/sol-check17's maskH<1>, y[i] = m[i] & 1 ? x[i] : 0 on halves:
// the 2-byte load of x under the branch on the mask byte, 16 lanes of 32,
// 2.0 sectors a request, what 32 lanes of 2 bytes need, ideal 1.4; its
// twin loading eight halves a thread unconditionally ran 0.73 faster).
func guardedSpan(a *analysis.Kernel, in analysis.Instruction) bool {
	if in.Space != "global" || in.Indirect || !(in.Pattern.AccessBytes > 0) || !(in.Requests > 0) {
		return false
	}
	if in.SectorsPerRequest > math.Max(1, in.Pattern.AccessBytes)*1.05 {
		return false
	}
	// A block of fewer threads than a warp idles its lanes from the
	// launch on, no branch: its lanes' spread is the block's shape
	// (fixtures/sol-check16's down2<4, 4>, 4x4-thread blocks whose 16
	// lanes span four rows).
	lanes := 32.0
	if b := a.Record.Block.Size(); b > 0 && b < 32 {
		lanes = float64(b)
	}
	for _, s := range a.Record.Source {
		if s.Address != in.Address || s.SASS == "" {
			continue
		}
		for _, c := range s.Counter {
			if c.Name == "thread_inst_executed_pred_on" && !math.IsNaN(c.Value) {
				return c.Value/in.Requests <= guardedLanes*lanes/32
			}
		}
		return false
	}
	return false
}

// guardedOnly reports whether every global instruction of an operation
// ("load", "store") that moves sectors above its ideal is a guarded one
// (guardedSpan), and there is at least one.
func guardedOnly(a *analysis.Kernel, op string) bool {
	n := 0
	for _, in := range a.Model.Instructions {
		if in.Space != "global" || in.Operation != op || in.Sectors <= in.IdealSectors*gpumodel.Slack {
			continue
		}
		if !guardedSpan(a, in) {
			return false
		}
		n++
	}
	return n > 0
}

// windowTap reports whether a global load is one shifted tap of a window
// (shiftedWindow) a sector a request above its ideal at most.
func windowTap(p *Pass, in analysis.Instruction) bool {
	return in.Operation == "load" && in.IdealSectorsPerRequest > 0 &&
		in.SectorsPerRequest <= in.IdealSectorsPerRequest+1.05 && (shiftedWindow(p.Kernel, in) || shiftedTap(p.Kernel, in))
}

// narrowAdvice is vectorAdvice in the kernel's terms: a Triton kernel
// (tritonKernel: a Python function's name, .py lines) vectorizes when
// each thread holds 16 bytes of consecutive elements, its program's
// BLOCK_SIZE at least 16/width elements for each of its threads
// (fixtures/sol-check24's u8inv_b128_w4: a byte a thread in 128-byte
// programs on 4 warps; its 4096-byte programs, 32 bytes a thread, ran
// 0.90 faster).
func narrowAdvice(a *analysis.Kernel, width float64) string {
	if _, _, ok := tritonKernel(a.Record); !ok || !(width > 0) || width >= 16 {
		return vectorAdvice(width)
	}
	threads := float64(a.Record.Block.Size())
	if threads <= 0 {
		threads = 128
	}
	per := math.Ceil(16 / width)
	return fmt.Sprintf("give each thread 16 bytes of consecutive elements (size_per_thread = %.0f): a BLOCK_SIZE of at least %.0f elements on num_warps=%.0f (BLOCK_SIZE / (32 · num_warps) elements a thread), offsets from tl.arange kept contiguous and the pointers 16-byte aligned (tl.multiple_of, or the launch's divisibility), so that Triton emits 16-byte loads and stores; fewer, larger programs also start fewer blocks",
		per, per*threads, math.Max(1, threads/32))
}

// vectorAdvice names the vector type for accesses of width bytes.
func vectorAdvice(width float64) string {
	switch {
	case width <= 1:
		return "move 16 bytes per thread: uint4 (or char4 at least), with a scalar loop for the tail"
	case width <= 2:
		return "move 16 bytes per thread: uint4 holding 8 halves (4 × half2 arithmetic), or half2 at least, with a scalar loop for the tail"
	case width <= 4:
		return "move 16 bytes per thread: float4 / int4 (reinterpret_cast the pointer; keep it 16-byte aligned), with a scalar loop for the tail"
	}
	return "move 16 bytes per thread: double2 / uint4 instead of 8-byte accesses, with a scalar loop for the tail"
}

// shufflesHold reports whether a kernel's source page has more
// warp-level SHFL executed than global loads and stores.
func shufflesHold(a *analysis.Kernel) bool {
	var shfl, global float64
	for _, s := range instructions(a) {
		op := opcode(s.SASS)
		switch {
		case strings.HasPrefix(op, "SHFL"):
			shfl += instExecuted(s)
		case strings.HasPrefix(op, "LDG"), strings.HasPrefix(op, "STG"):
			global += instExecuted(s)
		}
	}
	return shfl > 0 && shfl > global
}
