package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// chunkReductions is what barrierChunks reads from a source page, in
// warp instructions executed: a loop's global loads, its BAR.SYNCs, its
// shuffles and shared loads and stores (the block reductions a loaded
// value), the loop's instructions and stall samples, its samples at a
// barrier and waiting on a load, and the kernel's instructions and
// samples; the addresses of the loop's barriers.
type chunkReductions struct {
	loads, bars, shuffles, shared, inst, all float64
	samples, held, barrier, long             float64
	at                                       map[string]bool
}

// barrierChunks reads the loops of a kernel that reduce over the block
// each chunk they load: two BAR.SYNCs or more a global load, a shuffle
// a load or more (warp reductions whose partials cross the block
// through shared memory), no store to global memory.
func barrierChunks(a *analysis.Kernel) (r chunkReductions) {
	recs, loops := sassLoops(a)
	for _, s := range recs {
		r.all += instExecuted(s)
		v, _ := counterValue(s, "stall_samples")
		r.samples += v
	}
	r.at = map[string]bool{}
	for _, l := range loops {
		var c chunkReductions
		stores := false
		for _, b := range l.body {
			op := opcode(b.SASS)
			base, _, _ := strings.Cut(op, ".")
			n := instExecuted(b)
			switch {
			case base == "LDG" || base == "LD":
				c.loads += n
			case base == "BAR" && (op == "BAR" || strings.HasPrefix(op, "BAR.SYNC")):
				c.bars += n
			case base == "SHFL":
				c.shuffles += n
			case base == "LDS" || base == "STS":
				c.shared += n
			case base == "STG" || base == "ST" || base == "ATOMG" || base == "ATOM" || base == "RED" || base == "REDG":
				stores = true
			}
			c.inst += n
			v, _ := counterValue(b, "stall_samples")
			c.held += v
			v, _ = counterValue(b, "stall_barrier")
			c.barrier += v
			v, _ = counterValue(b, "stall_long_sb")
			c.long += v
		}
		if stores || !(c.loads > 0) || c.bars < 2*c.loads || c.shuffles < c.loads || r.at[l.body[len(l.body)-1].Address] {
			continue
		}
		for _, b := range l.body {
			r.at[b.Address] = true
		}
		r.loads += c.loads
		r.bars += c.bars
		r.shuffles += c.shuffles
		r.shared += c.shared
		r.inst += c.inst
		r.held += c.held
		r.barrier += c.barrier
		r.long += c.long
	}
	return r
}

// chunkBarrierShare is the least share of a kernel's stall samples at
// the barriers of its chunk loop for barrier-stalls to read the loop
// (fixtures/sol-check24's rowLse<0>: 12 %, beside 30 % waiting on the
// chunk's load).
const chunkBarrierShare = 0.1

// checkBarrierChunks prices a loop that reduces over the block each
// chunk it loads (fixtures/sol-check24's rowLse<0>: log-sum-exp of rows
// of 32 Ki floats, a 1024-thread block a row, a block max and a block
// sum a 1024-value chunk: four BAR.SYNCs and ten shuffles a loaded
// value; its warps' samples 12 % at the barriers and 30 % waiting on
// the chunk's load, which the barriers keep every warp from issuing
// ahead; each thread its own running pair and one block reduction at
// the end ran 0.76 faster). Kept in registers over the loop, the
// reductions leave it: its shuffles with the step each combines, its
// barriers and shared accesses go, and with the barriers gone each warp
// runs ahead to its next loads, so the time after is the longest of the
// instructions left at the attainable issue rate, L1's work kept, and
// L2's and DRAM's work as it is, each at its ceiling (rowLse<1>: DRAM
// at 77 % of its peak, L2 at 82 %). Reports whether it did.
func checkBarrierChunks(p *Pass) bool {
	r := barrierChunks(p.Kernel)
	if !(r.loads > 0) || !(r.samples > 0) || r.barrier < chunkBarrierShare*r.samples || r.held < 0.5*r.samples {
		return false
	}
	t, issue, ok := issueWindow(p)
	us, okU := usageOf(p)
	if !ok || !okU || !(r.all > 0) {
		return false
	}
	removed := 2*r.shuffles + r.bars + r.shared
	left := math.Max(0, r.all-removed) / issue / t
	gain := issueBoundGain(us, left, math.Max(0, r.all-removed)/r.all, t)
	if gain < 0.05 {
		return false
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("a loop reduces over the block each chunk it loads: %.2g __syncthreads barriers and %.2g shuffles a loaded value (block reductions a chunk), %.0f%% of its warps' samples at the barriers and %.0f%% waiting on the chunk's loads, which the barriers keep every warp from issuing ahead; kept in registers over the loop (each thread its own running values, one block reduction after it), the instructions left take %.0f%% of the kernel's time at the device's issue peak",
			r.bars/r.loads, r.shuffles/r.loads, 100*r.barrier/r.samples, 100*r.long/r.samples, 100*left),
		Advice:   "keep each thread's running values in registers across the loop (for a max and a sum: its own running max and rescaled sum, as online softmax does) and reduce over the block once, after the loop: one block max and one block sum in place of two a chunk",
		Evidence: append(p.evidence("barrier_stall_pct", "duration"), fmt.Sprintf("barriers_per_load=%.3g", r.bars/r.loads), fmt.Sprintf("barrier_samples_share=%.3f", r.barrier/r.samples)),
		Locations: topLines(p, func(op string, s profan.SourceRecord) bool {
			return r.at[s.Address] && (strings.HasPrefix(op, "BAR.SYNC") || op == "BAR")
		}),
	})
	return true
}
