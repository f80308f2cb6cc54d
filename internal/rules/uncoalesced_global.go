package rules

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
)

// uncoalescedGlobal reports global loads or stores that move more sectors
// per request than the access size needs.
var uncoalescedGlobal = &Rule{
	ID:    "uncoalesced-global",
	Title: "Global memory accesses are not coalesced",
	Text: `A warp's global access is served in 32-byte sectors of 128-byte lines. When the
32 threads read 32 consecutive, aligned words, a 4-byte access needs 4 sectors
per request and an 8-byte access 8. More sectors per request means bytes are
fetched and thrown away: the access is misaligned (an offset), strided (a field
of an array of structures, a column of a row-major matrix) or scattered
(indirect indexing). The memory model names which from the measured sectors per
request, and the advice follows from it.`,
	Before: `// column access: consecutive threads are 'height' floats apart
odata[yIndex + height * xIndex] = idata[xIndex + width * yIndex];`,
	After: `__shared__ float tile[32][33];
tile[threadIdx.y][threadIdx.x] = idata[xIndex + width * yIndex];
__syncthreads();
odata[x2 + height * y2] = tile[threadIdx.x][threadIdx.y]; // rows in, rows out`,
	Severity:   profan.Warning,
	Cause:      CauseMemory,
	Scope:      Source,
	Library:    stridedViews,
	Locates:    true,
	NCURule:    "UncoalescedGlobalAccess",
	Thresholds: []*Threshold{excess, minTrafficShare},
	Requires:   []string{"gld_transactions_per_request|gst_transactions_per_request|gld_efficiency|gst_efficiency"},
	Optional:   join(trafficReads, []string{"gld_transactions", "gst_transactions", "gld_ideal_transactions", "gst_ideal_transactions", "global_load_requests", "shared_store_requests"}),
	Check:      checkUncoalesced,
}

// globalSectors is the sectors of the kernel's global loads and stores
// together: what an access's share of the traffic is measured against.
func globalSectors(m analysis.Model) float64 {
	total := 0.0
	for _, x := range []*analysis.Access{m.GlobalLoad, m.GlobalStore} {
		if x != nil {
			total += x.Transactions
		}
	}
	return total
}

// haloGain is the gain under which the excess sectors of loads that
// stage a shared-memory tile are its halo's, not a layout to fix: a
// tile of 32×8 outputs reading 34×10 clamped inputs a channel spreads
// each warp's 32 loads over two of its rows (fixtures/sol-check11's
// convC4<1>: 6.6 sectors a request for 4, worth 0.02 of its time; its
// register-tiled twin, whose tile is the same, ran 0.76 faster).
const haloGain = 0.05

// stagesTile reports whether the kernel's global loads stage a shared
// tile: as many shared store requests as global load requests or more.
func stagesTile(p *Pass) bool {
	ld, ok1 := p.Value("global_load_requests")
	st, ok2 := p.Value("shared_store_requests")
	return ok1 && ok2 && ld > 0 && st >= 0.9*ld
}

func checkUncoalesced(p *Pass) {
	m := p.Kernel.Model
	total := globalSectors(m)
	for _, c := range []struct {
		x    *analysis.Access
		what string
		op   string
	}{{m.GlobalLoad, "loads", "gld"}, {m.GlobalStore, "stores", "gst"}} {
		x := c.x
		if !uncoalescedSpace(p, x, c.op, total) {
			continue
		}
		in, haveIn := worstInstruction(p.Kernel, "global", map[string]string{"gld": "load", "gst": "store"}[c.op])
		if haveIn && in.AtomicRead {
			// The read of the word an atomic then updates (a CAS loop):
			// its sectors are the atomic's, which atomic-serialization
			// judges; no layout of the kernel's own makes them contiguous.
			continue
		}
		if haveIn && in.AtomicSlot {
			// Slots claimed from a counter (y[atomicAdd(&n, 1)] = v):
			// where a warp's slots start is the counter's value, which
			// no layout moves (fixtures/sol-check14's compact<0>: 1.9
			// sectors a request for 1.4, its ballot twin the same and
			// no faster); atomic-serialization judges the atomic.
			continue
		}
		if haveIn && x.Pattern.Kind == gpumodel.Misaligned && (shiftedWindow(p.Kernel, in) || neighbourOfAligned(p.Kernel, in)) {
			continue
		}
		if haveIn && in.IdealSectorsPerRequest > 0 && in.SectorsPerRequest <= in.IdealSectorsPerRequest+1.05 && shiftedTap(p.Kernel, in) {
			continue
		}
		if x.Pattern.Kind == gpumodel.Misaligned && blockDrift(p.Kernel, x, in, haveIn) {
			continue
		}
		if haveIn && excessSplit(p.Kernel, in.Operation) {
			continue
		}
		if haveIn && guardedOnly(p.Kernel, in.Operation) {
			// Accesses under a branch that idles lanes, each at the
			// sectors a whole warp's of its width would touch: the
			// sectors past the active lanes' bytes are the idle
			// lanes' elements, which no alignment or layout removes
			// (fixtures/sol-check17's maskH<1>: read as misaligned,
			// 2.0 sectors a request for 1.4; its fix, eight halves a
			// thread loaded unconditionally, moves them all).
			continue
		}
		if c.op == "gld" && asyncSlices(p.Kernel) {
			continue
		}
		t := coalescingTraffic(x)
		removed := wastedShare(x) // a misalignment's: a sector a request
		twin, other := samePattern(p, c.op, total)
		if twin {
			// Loads and stores with one pattern come from one index
			// (o[i] = in[i]): one fix serves both, and the gain says so.
			t.GlobalSectors += coalescingTraffic(other).GlobalSectors
		}
		gain := trafficGain(p, t)
		if gain < p.Thresholds.MinGain {
			continue // the fix relieves a unit the kernel does not wait for
		}
		if c.op == "gld" && gain < haloGain && stagesTile(p) {
			continue // a tile's halo rows: a few sectors of its staging
		}
		desc := x.Pattern.Kind.String()
		if x.Pattern.AccessBytes > 0 && x.Pattern.Kind != gpumodel.Mixed {
			desc = fmt.Sprintf("%.0f-byte accesses, %s", x.Pattern.AccessBytes, x.Pattern.Kind)
		}
		msg := fmt.Sprintf("global %s move %.1f sectors per request where %.1f would do (%s): %.0f%% of their sectors are wasted",
			c.what, x.SectorsPerRequest, x.IdealSectorsPerRequest, desc, removed*100)
		_, haveSPR := p.Value(c.op + "_transactions_per_request")
		if eff, ok := p.Value(c.op + "_efficiency"); ok && !haveSPR {
			// Only the efficiency was measured: say that, not a sectors
			// per request the export does not give.
			msg = fmt.Sprintf("global %s are %.1f%% efficient (%s_efficiency): %.0f%% of the bytes they move are wasted", c.what, eff, c.op, removed*100)
			if x.Pattern.Evidence == gpumodel.FromRuleText {
				msg = fmt.Sprintf("global %s move %.0f sectors where %.0f would do (ncu's rule text): %.0f%% of their sectors are wasted",
					c.what, x.Transactions, x.IdealTransactions, removed*100)
				if n, _ := p.Kernel.Metrics.Lookup(c.op + "_transactions"); n.Estimate {
					// The page gives loads' and stores' sectors together:
					// a split of them is an estimate, never quoted as read.
					msg = fmt.Sprintf("global %s are %.1f%% efficient (ncu's rule text): %.0f%% of their sectors are wasted; about %.0f sectors where %.0f would do (an estimate: the page gives loads' and stores' sectors together)",
						c.what, eff, removed*100, x.Transactions, x.IdealTransactions)
				}
			}
		}
		advice := uncoalescedAdvice(x.Pattern, x.SectorsPerRequest, x.IdealSectorsPerRequest, c.what)
		if x.Pattern.Evidence == gpumodel.FromRuleText && x.Pattern.Kind == gpumodel.Mixed {
			advice += "; the source page names the instruction and its pattern: ncu --import r.ncu-rep --csv --page source --print-source cuda,sass"
		}
		// With the source page, name the worst instruction; the kernel's
		// pattern is already that instruction's.
		if haveIn {
			kind := instructionKind(in)
			advice = instructionAdvice(p.Kernel, in, c.what)
			if analysis.BitReversed(p.Kernel, in.Address) {
				// A gather at computed indices: the permutation, not the
				// data, sets the order, and a transpose stage is its fix.
				kind = "a gather at bit-reversed indices: a permutation of the thread's index, computed by BREV"
				advice = bitReversalAdvice(in, c.what)
			} else if _, _, triton := tritonKernel(p.Kernel.Record); triton && !in.Indirect {
				advice = tritonCoalesceAdvice(p.Kernel, in, c.what)
			} else if triton {
				advice = tritonGatherAdvice(in.SectorsPerRequest, in.IdealSectorsPerRequest)
			} else if l, st, ok := worstPair(p.Kernel); ok && gatherSplit(l, st) {
				advice = gatherSplitAdvice(l) // the loads' and the stores' one fix, said once
			}
			msg += fmt.Sprintf("; worst instruction %s%s: %.1f sectors per request, ideal %.1f (%s)", in.SASS, lineSuffix(in), in.SectorsPerRequest, in.IdealSectorsPerRequest, kind)
		} else if t := x.Pattern.Text(); t != "" {
			msg += "; " + t
		}
		fix := ""
		if twin {
			// Both notes become one finding: the gain is stated once.
			fix = "index"
			if c.op == "gld" {
				msg += "; the stores have the same pattern: one fix of the index serves both, and the gain counts both"
			}
		}
		p.report(estimate(gain), Note{
			Message:   msg,
			Advice:    advice,
			Evidence:  p.evidence(c.op+"_transactions_per_request", c.op+"_efficiency", c.op+"_transactions", c.op+"_ideal_transactions"),
			Locations: worstLines(p.Kernel, c.op),
			Fix:       fix,
		})
	}
}

// uncoalescedAdvice picks the fix from the typed pattern.
func uncoalescedAdvice(x gpumodel.AccessPattern, spr, ideal float64, what string) string {
	switch x.Kind {
	case gpumodel.Misaligned:
		return fmt.Sprintf("align the %s: start each warp's access on a 128-byte boundary (drop the +offset in the index, or pad rows to a multiple of 32 elements and use cudaMallocPitch), so the %.0f sectors per request fall to %.0f", what, spr, ideal)
	case gpumodel.Strided:
		if x.StrideBytes > 0 && x.StrideBytes < 128 {
			return fmt.Sprintf("consecutive threads are %.0f B apart: store the fields as a structure of arrays (float *x, *y, *z instead of struct {x,y,z}[]) so each warp reads contiguous words", x.StrideBytes)
		}
		if x.Column {
			return fmt.Sprintf("consecutive threads touch different lines (a column of a row-major array): stage a tile in shared memory and let each warp read and write rows (__shared__ float tile[32][33]); this removes about %.0f%% of the %s' sectors", 100*(1-coalescedShare(ideal, spr)), what)
		}
		return fmt.Sprintf("consecutive threads are 128 B or more apart, each in its own line: index so that thread i touches element i (a stride of one element), or reorganize the data so consecutive threads read consecutive words; this removes about %.0f%% of the %s' sectors", 100*(1-coalescedShare(ideal, spr)), what)
	case gpumodel.Scattered:
		if x.Random {
			// The 128-byte lines showed random, data-dependent addresses.
			return "the addresses are data-dependent (indirect indexing such as p[idx[i]]): sort or bin the indices so a warp's threads touch nearby elements, or gather through shared memory; read-only data can go through __ldg"
		}
		return "each thread touches its own sector: if the index is data-dependent (indirect), sort or bin the indices so a warp's threads touch nearby elements, or gather through shared memory (read-only data can go through __ldg); if it is a large stride, reorganize the data so consecutive threads read consecutive words"
	}
	return fmt.Sprintf("make consecutive threads access consecutive, aligned %s addresses", what)
}

// instructionKind names an instruction's pattern, a gather's as such.
func instructionKind(in analysis.Instruction) string {
	if in.Indirect {
		if in.Operation == "store" {
			return "scatter through an index array"
		}
		return "gather through an index array"
	}
	return in.Pattern.Kind.String()
}

// instructionAdvice is the fix for the worst instruction, by what its
// address is: loaded data (a gather: locality, or nothing), a thread's own
// row walked in a loop (a row reduction done a thread per row), a computed
// permutation of a 1-D launch, else the pattern's fix.
func instructionAdvice(a *analysis.Kernel, in analysis.Instruction, what string) string {
	spr, ideal := in.SectorsPerRequest, in.IdealSectorsPerRequest
	if in.Indirect {
		return gatherAdvice(spr, ideal)
	}
	in = withAlikeLoops(a, in)
	walk := in.Pattern.Kind == gpumodel.Strided && in.Pattern.StrideBytes == 0 && !in.Pattern.Column && (in.Executions >= 4 || in.Step > 0) && in.Operation == "load"
	saves := 100 * (1 - coalescedShare(ideal, spr))
	switch {
	case walk && in.Step >= 128:
		return fmt.Sprintf("each warp's lanes step down a column in a loop (lane l reads rows l, l+32, ... of one column, a column reduction done a warp per column), so a warp's loads touch %.0f lines at once: let the lanes take consecutive columns and loop over the rows (a thread per column, or 32-column tiles whose blocks each sum a strip of rows and combine at the end); this removes about %.0f%% of the %s' sectors", spr, saves, what)
	case walk && (in.Step == 0 || in.Step <= in.Pattern.AccessBytes || in.Step <= 16):
		return fmt.Sprintf("each thread walks its own run of consecutive elements in a loop (a row reduction or scan done a thread per row), so a warp's loads touch %.0f lines at once: give each row a warp whose lanes read consecutive elements and combine with __shfl_down_sync (a block per row for long rows), or stage the rows through shared memory; this removes about %.0f%% of the %s' sectors", spr, saves, what)
	case in.Pattern.Kind == gpumodel.Strided && !in.Pattern.Column && !walk && !launch2D(a) && in.Pattern.StrideBytes == 0:
		return fmt.Sprintf("the %s' index is computed from the thread's (a permutation or reshape, such as i %% C and i / C): let consecutive threads take consecutive %s addresses and compute the other side's index from them; when both sides must be contiguous (a transpose of two dimensions), stage a tile through shared memory. This removes about %.0f%% of the %s' sectors", what, strings.TrimSuffix(what, "s"), saves, what)
	}
	return uncoalescedAdvice(in.Pattern, spr, ideal, what)
}

// bitReversalAdvice is the fix for an access at bit-reversed indices
// (y[i] = x[rev(i)]): the order is a permutation the kernel computes, so
// no sorting of indices applies; a transpose stage makes both sides
// coalesced (fixtures/sol-check13's bitRev<0>: 2^25 floats, a warp's 32
// loads 4 MiB apart; i split as a·2^20 + b·2^5 + c, a 32×32 tile of x
// read along c into shared memory and y written along rev(a) from it,
// ran 0.84 faster).
func bitReversalAdvice(in analysis.Instruction, what string) string {
	return fmt.Sprintf("the index is a bit reversal of the thread's (y[i] = x[rev(i)], an FFT's reordering): a permutation the kernel computes, not data-dependent, so sorting indices does not apply. Split i into its high, middle and low bits (i = a·2^(n−k) + b·2^k + c, rev(i) = rev(c)·2^(n−k) + rev(b)·2^k + rev(a)) and let each block move a 2^k × 2^k tile (k = 5: 32×32): read x along c, consecutive, into shared memory at a pitch of 2^k + 1, then write y along rev(a) from it (or exchange the tile in registers with __shfl_sync), both sides coalesced; this removes about %.0f%% of the %s' sectors", 100*(1-coalescedShare(in.IdealSectorsPerRequest, in.SectorsPerRequest)), what)
}

// tritonCoalesceAdvice is instructionAdvice in Triton's terms, for a
// kernel Triton compiled: the program's block, not a thread's index, is
// what the fix reshapes (fixtures/sol-check13's colsum_strided, a program
// a column reading 256 rows a step, a lane a row 32 KiB apart; a program
// of 32 columns reading 128×32 tiles ran 0.85 faster).
func tritonCoalesceAdvice(a *analysis.Kernel, in analysis.Instruction, what string) string {
	in = withAlikeLoops(a, in)
	saves := 100 * (1 - coalescedShare(in.IdealSectorsPerRequest, in.SectorsPerRequest))
	walk := in.Pattern.Kind == gpumodel.Strided && in.Pattern.StrideBytes == 0 && !in.Pattern.Column && (in.Executions >= 4 || in.Step > 0) && in.Operation == "load"
	if walk && in.Step >= 128 || in.Pattern.Column {
		return fmt.Sprintf("each program reads down a column (its tl.arange runs over rows, a row's length apart), so a warp's loads touch %.0f lines at once: give each program a block of consecutive columns and loop over the rows, loading a 2-D [BLOCK_SIZE_R, BLOCK_SIZE_C] block (rows[:, None] * stride + cols[None, :], BLOCK_SIZE_C of 32 or more along the contiguous dimension) and reducing with tl.sum(axis=0), with num_warps=4 to 8 (or let @triton.autotune choose BLOCK_SIZE and num_warps); this removes about %.0f%% of the %s' sectors", in.SectorsPerRequest, saves, what)
	}
	return fmt.Sprintf("make the fastest-varying index of the program's block (tl.arange(0, BLOCK_SIZE)) run along the tensor's contiguous dimension, so a warp's lanes load consecutive addresses; for a transpose or permutation of two dimensions, load a 2-D block along the contiguous one and tl.trans it (Triton stages it through shared memory), with num_warps=4 to 8 (or let @triton.autotune choose BLOCK_SIZE and num_warps); this removes about %.0f%% of the %s' sectors", saves, what)
}

// gatherAdvice is the fix for an instruction whose addresses come from
// data the kernel loads: locality, or nothing when the order is random by
// nature.
func gatherAdvice(spr, ideal float64) string {
	s := fmt.Sprintf("the addresses come from data the kernel loads (x[idx[i]]): %.1f sectors per request where %.1f would do is the index array's order, which no indexing of the kernel changes. The fix is locality: sort or bucket the indices (or the work items by index) so a warp's threads touch nearby elements, or store the data in the order it is read", spr, ideal)
	if spr >= 0.9*32 {
		s += "; if the order is random by nature (a hash, a random graph), there is no code fix: each element costs a 32-byte sector, and the gain below is what sorted indices would buy"
	}
	return s
}

// tritonGatherAdvice is gatherAdvice in Triton's terms: the program's
// block loads the indices, then the data at them (x = tl.load(x_ptr +
// tl.load(idx_ptr + offs))), and no BLOCK_SIZE or num_warps changes which
// sectors a lane's index falls in (fixtures/sol-check14's gather_rand, 16
// Mi gathers from a 256 MiB table at random: the same indices sorted ran
// 0.79 faster).
func tritonGatherAdvice(spr, ideal float64) string {
	s := fmt.Sprintf("the program gathers: its block loads the indices (i = tl.load(idx_ptr + offs)) and then the data at them (tl.load(x_ptr + i)), %.1f sectors per request where %.1f would do, the index array's order; BLOCK_SIZE, num_warps and @triton.autotune do not change which sectors a lane's index falls in. The fix is locality: sort the indices before the launch (idx, perm = torch.sort(idx), the results stored through perm, or scattered back), or bucket them, so the lanes of a program's block load nearby elements; or store the table in the order it is read", spr, ideal)
	if spr >= 0.9*32 {
		s += "; if the order is random by nature (a hash, a random graph), there is no code fix: each element costs a 32-byte sector, and the gain below is what sorted indices would buy"
	}
	return s
}

// withAlikeLoops returns in with the most executions and the shortest
// step of the uncoalesced instructions that read alike (same space,
// operation, pattern and sectors per request). A loop (several executions
// per warp, or an unrolled one: loads of one line at steps of one element
// or one row) walks a row or a column, and the loads of a loop tell it
// together: its first element is often loaded apart, once per thread.
func withAlikeLoops(a *analysis.Kernel, in analysis.Instruction) analysis.Instruction {
	spr := in.SectorsPerRequest
	exec, step := in.Executions, in.Step
	for _, o := range a.Model.Instructions {
		if o.Space != in.Space || o.Operation != in.Operation || o.Pattern.Kind != in.Pattern.Kind || o.Pattern.StrideBytes != in.Pattern.StrideBytes || o.Indirect ||
			o.Sectors <= o.IdealSectors*gpumodel.Slack || math.Abs(o.SectorsPerRequest-spr) > 0.05*spr {
			continue
		}
		exec = math.Max(exec, o.Executions)
		if o.Step > 0 && (step == 0 || o.Step < step) {
			step = o.Step
		}
	}
	in.Executions, in.Step = exec, step
	return in
}

func launch2D(a *analysis.Kernel) bool {
	k := a.Record
	return k.Block[1] > 1 || k.Grid[1] > 1 || k.Block[2] > 1 || k.Grid[2] > 1
}

// worstInstruction returns the source-page instruction of a space and
// operation with the most excess sectors.
//
// A random gather is passed over when the kernel's own indexing wastes as
// many sectors besides (keptGathers): that indexing is the fix, and the
// gather stays random after it.
func worstInstruction(a *analysis.Kernel, space, op string) (analysis.Instruction, bool) {
	_, gathers := keptGathers(a.Model)
	for _, in := range a.Model.Instructions { // sorted worst first
		if in.Space == space && in.Operation == op && in.Sectors > in.IdealSectors*gpumodel.Slack && (gathers || !in.Indirect) {
			return in, true
		}
	}
	return analysis.Instruction{}, false
}

func lineSuffix(in analysis.Instruction) string {
	if in.Line > 0 {
		return fmt.Sprintf(" at %s:%d", filepath.Base(in.File), in.Line)
	}
	return ""
}

// samePattern reports whether the other global space (stores for "gld",
// loads for "gst") is uncoalesced with the same typed pattern, and returns
// it.
func samePattern(p *Pass, op string, total float64) (bool, *analysis.Access) {
	m := p.Kernel.Model
	x, other, oop := m.GlobalLoad, m.GlobalStore, "gst"
	if op == "gst" {
		x, other, oop = m.GlobalStore, m.GlobalLoad, "gld"
	}
	if x == nil || other == nil || !uncoalescedSpace(p, other, oop, total) {
		return false, nil
	}
	a, b := x.Pattern, other.Pattern
	// ncu's rule text gives one waste for loads and stores together: when
	// both waste the same share it reads them as one pattern, as the raw
	// counters of such a kernel (o[i] = in[i]) show.
	// Loads and stores equal in every counter (sectors per request and
	// their ideal) are read the same way.
	text := a.Evidence == gpumodel.FromRuleText && b.Evidence == gpumodel.FromRuleText ||
		math.Abs(x.SectorsPerRequest-other.SectorsPerRequest) <= 0.01*x.SectorsPerRequest &&
			math.Abs(x.IdealSectorsPerRequest-other.IdealSectorsPerRequest) <= 0.01*x.IdealSectorsPerRequest
	same := a.Kind == b.Kind && (a.Kind != gpumodel.Mixed || text) && a.StrideBytes == b.StrideBytes && a.OffsetBytes == b.OffsetBytes &&
		math.Abs(x.SectorsPerRequest-other.SectorsPerRequest) <= 0.05*x.SectorsPerRequest
	// With the source page, the worst load and the worst store tell: one
	// pattern at one cost (out[idx[i]] = in[idx[i]]) is one index to fix,
	// whatever other loads (the index itself) the kernel adds.
	l, okl := worstInstruction(p.Kernel, "global", "load")
	st, oks := worstInstruction(p.Kernel, "global", "store")
	if okl && oks {
		pl, ps := l.Pattern, st.Pattern
		same = pl.Kind == ps.Kind && pl.Kind != gpumodel.Mixed && pl.StrideBytes == ps.StrideBytes && pl.OffsetBytes == ps.OffsetBytes &&
			math.Abs(l.SectorsPerRequest-st.SectorsPerRequest) <= 0.05*l.SectorsPerRequest &&
			math.Abs(l.IdealSectorsPerRequest-st.IdealSectorsPerRequest) <= 0.05*l.IdealSectorsPerRequest
		same = same || gatherSplit(l, st)
	}
	return same, other
}

// gatherSplit reports whether a kernel's worst load, a gather (its
// address from data it loads), and its worst store are one statement's,
// at one cost: the store's address comes from the thread's index alone,
// so its waste is the index's split, and the gather's lanes, as spread,
// are spread by the same split, not by the data (fixtures/sol-check29's
// pagedKv<0>: y[t·128 + f] = s·pool[(page[t / 16]·16 + t mod 16)·128 +
// f] with the thread's index split tokens fastest, both at line 275, 32
// sectors a request for 4; its twin, features fastest, ran 0.95
// faster). One fix, the split, serves both: one finding, one gain.
func gatherSplit(l, st analysis.Instruction) bool {
	return l.Indirect && !st.Indirect && l.Line > 0 && l.File == st.File && l.Line == st.Line &&
		st.SectorsPerRequest > st.IdealSectorsPerRequest*gpumodel.Slack &&
		math.Abs(l.SectorsPerRequest-st.SectorsPerRequest) <= 0.05*l.SectorsPerRequest &&
		math.Abs(l.IdealSectorsPerRequest-st.IdealSectorsPerRequest) <= 0.05*l.IdealSectorsPerRequest
}

// worstPair is a kernel's worst global load and worst global store.
func worstPair(a *analysis.Kernel) (l, st analysis.Instruction, ok bool) {
	l, okl := worstInstruction(a, "global", "load")
	st, oks := worstInstruction(a, "global", "store")
	return l, st, okl && oks
}

// gatherSplitAdvice is the fix of a gather whose stores, on its
// statement, waste as much (gatherSplit): the thread's index split.
func gatherSplitAdvice(in analysis.Instruction) string {
	return fmt.Sprintf("a gather whose stores, on the same statement and at addresses from the thread's index alone, move as many sectors (%.1f a request where %.1f would do): the lanes' spread is the index's split, not the gathered rows' order. Split the thread's index with the element within a row fastest (consecutive lanes on consecutive elements of one gathered row), so each row is read and written by whole sectors; the gather through the index array stays, a row at a time. This removes about %.0f%% of the loads' and the stores' sectors",
		in.SectorsPerRequest, in.IdealSectorsPerRequest, 100*(1-coalescedShare(in.IdealSectorsPerRequest, in.SectorsPerRequest)))
}

// shiftedWindow reports whether the misaligned global load in is one tap
// of a window: another load of its source line, as wide, is aligned
// (a stencil reads in[x + dx] for dx = -3..3, fixtures/sol-check5's
// box7Naive: the dx = 0 tap at 4 sectors a request, the six others at
// 5). No alignment of the array aligns every shift of the window: the
// extra sector is the neighbouring tap's, and staging the window in
// shared memory (tile-shared-memory) is the fix.
func shiftedWindow(k *analysis.Kernel, in analysis.Instruction) bool {
	if in.Line <= 0 {
		return false
	}
	for _, o := range k.Model.Instructions {
		if o.Space == "global" && o.Operation == "load" && o.File == in.File && o.Line == in.Line && o.Address != in.Address &&
			o.Pattern.AccessBytes == in.Pattern.AccessBytes && o.IdealSectorsPerRequest > 0 && o.SectorsPerRequest <= o.IdealSectorsPerRequest {
			return true
		}
	}
	return false
}

// neighbourOfAligned reports whether the misaligned global load in reads
// an array another load of the kernel, as wide, reads aligned: both
// addresses an IMAD.WIDE of an index onto the one pointer (the same
// instruction wrote the base register of each). A stencil's taps whose
// indices are clamped at the ends are computed apart, each on its own
// register and line (fixtures/sol-check15's stencil3<0>: x[i > 0 ? i - 1
// : 0] and x[i < n - 1 ? i + 1 : n - 1] on line 662 at 5 sectors a
// request, x[i] on line 663 at 4), so neither shiftedWindow's line nor
// shiftedTap's register ties them; the extra sector is the aligned
// load's neighbour, which it moves anyway and L1 serves (staging the
// three in shared memory measured 0.05 slower).
func neighbourOfAligned(k *analysis.Kernel, in analysis.Instruction) bool {
	w := in.Pattern.AccessBytes
	if in.Operation != "load" || !(w > 0) {
		return false
	}
	recs := addressOrder(k)
	at := make(map[string]int, len(recs)) // sassRecords' own is shared
	for i, r := range recs {
		at[r.Address] = i
	}
	array := func(addr string) int {
		i, ok := at[addr]
		if !ok {
			return -1
		}
		base, _, ok := analysis.MemAddress(recs[i].SASS)
		if !ok {
			return -1
		}
		// The instruction that wrote the address: an IMAD.WIDE of an
		// index onto a pointer, whose register's writer names the array.
		wide := writerBefore(recs, i, base)
		if wide < 0 || !strings.HasPrefix(opcode(recs[wide].SASS), "IMAD.WIDE") {
			return -1
		}
		_, args := analysis.SASSFields(recs[wide].SASS)
		if len(args) != 4 {
			return -1
		}
		ptr := analysis.SASSRegs(args[3])
		if len(ptr) != 1 {
			return -1
		}
		return writerBefore(recs, wide, ptr[0])
	}
	mine := array(in.Address)
	if mine < 0 {
		return false
	}
	for _, o := range k.Model.Instructions {
		if o.Space == "global" && o.Operation == "load" && o.Address != in.Address && o.Pattern.AccessBytes == w &&
			o.IdealSectorsPerRequest > 0 && o.SectorsPerRequest <= o.IdealSectorsPerRequest && array(o.Address) == mine {
			return true
		}
	}
	return false
}

// writerBefore is the index of the last instruction before i (in program
// order) that writes register reg unpredicated, -1 if none.
func writerBefore(recs []profan.SourceRecord, i, reg int) int {
	for j := i - 1; j >= 0; j-- {
		if strings.HasPrefix(strings.TrimSpace(recs[j].SASS), "@") {
			continue
		}
		if d, ok := writtenReg(recs[j].SASS); ok && d == reg {
			return j
		}
	}
	return -1
}

// shiftedTap reports whether the global load in is a neighbour's element
// of another load's stream: its address is that load's base register and
// offset shifted by whole accesses, less than a sector away, and the
// other load, as wide, is at its ideal (fixtures/sol-check12's
// deltaU8<1>: prev = x[i-1] on its own line, LDG.U8 [R2.64+-0x1] at 2
// sectors a request, beside x[i], LDG.U8 [R2.64] at 1). The extra sector
// is the neighbour's, which the other load moves anyway and L1 serves: a
// window read across lines, not a layout to fix.
func shiftedTap(k *analysis.Kernel, in analysis.Instruction) bool {
	w := in.Pattern.AccessBytes
	base, off, ok := analysis.MemAddress(in.SASS)
	if !ok || in.Operation != "load" || !(w > 0) || in.File == "" {
		return false
	}
	for _, o := range k.Model.Instructions {
		if o.Space != "global" || o.Operation != "load" || o.File != in.File || o.Address == in.Address ||
			o.Pattern.AccessBytes != w || !(o.IdealSectorsPerRequest > 0) || o.SectorsPerRequest > o.IdealSectorsPerRequest {
			continue
		}
		ob, oo, ok := analysis.MemAddress(o.SASS)
		d := math.Abs(float64(off - oo))
		if ok && ob == base && d > 0 && d < 32 && math.Mod(d, w) == 0 {
			return true
		}
	}
	return false
}

// blockDrift reports whether a misaligned access's extra sectors are its
// block size's, not an offset's: blocks of B threads, B not a multiple of
// 32, that index one contiguous array (i = blockIdx·B + threadIdx) give
// each warp a span of n·w bytes (n ≤ 32 threads of w bytes) starting at
// (k·B + 32·j)·w, which drifts across sector boundaries from block to
// block; the extra sector of each warp is its neighbour's, which moves it
// anyway (DRAM moves no more), and the fix is the block size (tiny-blocks
// prices it), not the array's alignment. It holds when the sectors per
// request measured are those the drift alone gives, averaged over the 32
// blocks after which the offsets repeat (fixtures/sol-check8's quantB<24>:
// 24 one-byte stores a warp at offsets 0, 24, 16, 8 of a sector, 1.5
// sectors a request as measured; 256-thread blocks ran 0.90 faster).
func blockDrift(k *analysis.Kernel, x *analysis.Access, in analysis.Instruction, haveIn bool) bool {
	b := k.Record.Block.Size()
	spr, w := x.SectorsPerRequest, x.Pattern.AccessBytes
	if haveIn {
		spr, w = in.SectorsPerRequest, in.Pattern.AccessBytes
	}
	if b <= 0 || b%32 == 0 || !(w > 0) || !(spr > 0) {
		return false
	}
	var sectors, aligned float64
	for blk := 0; blk < 32; blk++ {
		for j := 0; 32*j < b; j++ {
			n := float64(min(32, b-32*j))
			start := math.Mod(float64(blk*b+32*j)*w, 32)
			sectors += math.Ceil((start + n*w) / 32)
			aligned += math.Ceil(n * w / 32)
		}
	}
	return sectors > aligned && math.Abs(sectors/aligned*idealOf(x, in, haveIn)-spr) <= 0.05*spr
}

// idealOf is the ideal sectors per request of an access, its worst
// instruction's when the source page gives one.
func idealOf(x *analysis.Access, in analysis.Instruction, haveIn bool) float64 {
	if haveIn && in.IdealSectorsPerRequest > 0 {
		return in.IdealSectorsPerRequest
	}
	return x.IdealSectorsPerRequest
}

// splitRun reports whether the strided global access in is one of n
// accesses of its source line (or of its run, runNeighbour), as wide and as often executed, that split
// each thread's run of n·w contiguous bytes into n vector accesses of w:
// each moves n times its ideal sectors at a stride of n·w bytes, and
// together they read each sector once, the later ones from the lines
// the first brought into L1. Triton splits 8 floats a thread into two
// 16-byte loads so when it cannot prove the run contiguous
// (fixtures/sol-check13's scalebias_rt: b[col], col = offs % N, two
// LDG.E.128 at 32 sectors a request for 16; its 2-D twin, the same two
// loads, ran as fast): no layout is wasted, and DRAM moves no more.
func splitRun(k *analysis.Kernel, in analysis.Instruction) bool {
	w := in.Pattern.AccessBytes
	if in.Pattern.Kind != gpumodel.Strided || !(w > 0) || !(in.Pattern.StrideBytes > 0) || in.Line <= 0 || !(in.IdealSectorsPerRequest > 0) {
		return false
	}
	n := 0.0
	for _, o := range k.Model.Instructions {
		if o.Space == in.Space && o.Operation == in.Operation && o.File == in.File && (o.Line == in.Line || runNeighbour(in, o)) &&
			o.Pattern.Kind == in.Pattern.Kind && o.Pattern.AccessBytes == w && o.Pattern.StrideBytes == in.Pattern.StrideBytes &&
			math.Abs(o.Requests-in.Requests) <= 0.01*in.Requests && math.Abs(o.SectorsPerRequest-in.SectorsPerRequest) <= 0.05*in.SectorsPerRequest {
			n++
		}
	}
	return n >= 2 && in.Pattern.StrideBytes == n*w && math.Abs(in.SectorsPerRequest-n*in.IdealSectorsPerRequest) <= 0.05*in.SectorsPerRequest
}

// runNeighbour reports whether o addresses the bytes next to in's, from
// the same base register at an offset within in's stride: the run split
// by the source rather than the compiler, a statement a half
// (fixtures/sol-check29's rotMix8<0>: y[2i] and y[2i + 1], float4s at
// lines 212 and 213, STG.E.128 [R2.64] and [R2.64+0x10], each at 32
// sectors a request for 16; its twin, the same two stores, ran 0.77
// faster for its local memory alone).
func runNeighbour(in, o analysis.Instruction) bool {
	b1, off1, ok1 := analysis.MemAddress(in.SASS)
	b2, off2, ok2 := analysis.MemAddress(o.SASS)
	d := math.Abs(float64(off2 - off1))
	return ok1 && ok2 && b1 == b2 && d < in.Pattern.StrideBytes && math.Mod(d, in.Pattern.AccessBytes) == 0
}

// excessSplit reports whether every global access of an operation ("load"
// or "store") above its ideal is one of a split run (splitRun), and one
// is.
func excessSplit(k *analysis.Kernel, op string) bool {
	any := false
	for _, in := range k.Model.Instructions {
		if in.Space != "global" || in.Operation != op || in.Sectors <= in.IdealSectors*gpumodel.Slack {
			continue
		}
		if !splitRun(k, in) {
			return false
		}
		any = true
	}
	return any
}

// asyncSlices reports whether a kernel's global loads above their ideal
// are, for nine tenths of their excess sectors or more, asynchronous copies
// into shared memory (LDGSTS) that read each row of a tile in slices
// narrower than a sector: copies of one source line through one base
// register at offsets d < 32 bytes apart (the loop's steps, unrolled),
// each moving at most 32/d times its ideal sectors. Over the steps each
// sector is read whole; one step's excess is the next step's slice, which
// L1 or L2 serves and DRAM moves once. Triton's tile of 32×8 fp16 a step
// (fixtures/sol-check14's mm_fma, BLOCK_K = 8: 16 bytes of each row a
// step, copies at +0x0 … +0x40 from one register, 8 sectors a request for
// 4): no layout wastes them, the tile's depth (BLOCK_K of a sector or
// more) does, and tensor-cores-unused names it.
func asyncSlices(a *analysis.Kernel) bool {
	type key struct {
		file string
		line int
		base int
	}
	offs := map[key][]int64{}
	type copyOp struct {
		k             key
		actual, ideal float64
	}
	var copies []copyOp
	total := 0.0
	seen := map[string]bool{}
	for _, s := range a.Record.Source {
		if s.Address == "" || seen[s.Address] || !accessKind(s.SASS, "gld") {
			continue
		}
		seen[s.Address] = true
		ex := sourceExcess(s, "gld")
		if base, off, ok := analysis.MemAddress(s.SASS); ok && strings.HasPrefix(analysis.Opcode(s.SASS), "LDGSTS") {
			k := key{s.File, s.Line, base}
			offs[k] = append(offs[k], off)
			if ex > 0 {
				act, ideal := sourceSectors(s)
				copies = append(copies, copyOp{k, act, ideal})
			}
		}
		if ex > 0 {
			total += ex
		}
	}
	if !(total > 0) {
		return false
	}
	sliced := 0.0
	for _, c := range copies {
		d := minStep(offs[c.k])
		if d > 0 && d < 32 && c.ideal > 0 && c.actual <= c.ideal*32/float64(d)*gpumodel.Slack {
			sliced += c.actual - c.ideal
		}
	}
	return sliced >= 0.9*total
}

// sourceSectors is a source-page instruction's L2 sectors and their ideal.
func sourceSectors(s profan.SourceRecord) (actual, ideal float64) {
	for _, c := range s.Counter {
		if !c.IsNumber() {
			continue
		}
		switch c.Name {
		case globalExcess.actual[0], globalExcess.actual[1]:
			actual = c.Value
		case globalExcess.ideal[0], globalExcess.ideal[1]:
			ideal = c.Value
		}
	}
	return actual, ideal
}

// minStep is the smallest positive distance between offsets.
func minStep(offs []int64) int64 {
	var best int64
	for _, x := range offs {
		for _, y := range offs {
			if d := x - y; d > 0 && (best == 0 || d < best) {
				best = d
			}
		}
	}
	return best
}
