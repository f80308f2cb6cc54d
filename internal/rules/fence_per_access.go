package rules

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// fencePerAccess reports a kernel that executes a device-wide memory fence
// after (or before) each of its global accesses: __threadfence after every
// store, or stores through cuda::atomic_ref with memory_order_seq_cst
// (a MEMBAR.SC before each). Each fence waits until the thread's earlier
// writes are visible to the whole GPU (a round trip to L2) and
// invalidates the SM's L1 (CCTL.IVALL): the warp has one access in
// flight at a time, and the wait, not a unit's peak, holds the kernel.
var fencePerAccess = &Rule{
	ID:    "fence-per-access",
	Title: "A memory fence after each access",
	Text: `__threadfence() (MEMBAR.SC.GPU, then ERRBAR and an L1 invalidation) makes the
thread wait until every write it issued before is visible to the whole GPU: a
round trip to L2 for each fence. A fence after each store leaves one store in
flight at a time per warp, so the kernel runs at the fences' latency, far below
DRAM's bandwidth. cuda::atomic_ref (or cuda::std::atomic) stores and loads with
the default memory_order_seq_cst put such a fence before each access. Ordering
is needed only where another thread or block reads what this one wrote (a flag
that publishes data): write the data, then one fence (or a release store of
the flag); use memory_order_relaxed for accesses that publish nothing.`,
	Before: `for (int k = 0; k < 8; ++k) {
    y[k * n + i] = v * (k + 1);
    __threadfence();             // a round trip to L2 per store
}`,
	After: `for (int k = 0; k < 8; ++k)
    y[k * n + i] = v * (k + 1);
__threadfence();                 // once, where the writes must be visible`,
	Severity: profan.Warning,
	Cause:    CauseOwn,
	Scope:    Source,
	Locates:  true,
	// It counts the fences against the accesses in the SASS.
	NeedsSource: true,
	NCURule:     "CPIStall",
	Requires:    []string{"duration"},
	Optional:    join(usageReads, []string{"membar_stall_pct"}),
	Check:       checkFencePerAccess,
}

// fenceWork is what a kernel's source page says of its fences, in warp
// instructions executed: the fences (MEMBAR, FENCE), the global accesses,
// and the warps (the kernel's first instruction's count); the share of
// the sampled warp stalls on the fences and what follows them.
type fenceWork struct {
	fences, accesses, warps float64
	held                    float64
	// guards is the fences whose next memory access is an atomic
	// (MEMBAR, ERRBAR, then ATOMG): the atomic's own ordering (a
	// seq_cst or acq_rel atomic; Triton's tl.atomic_add by default).
	guards float64
	// acquires is the acquire loads' L1 invalidations among the fences
	// (analysis.AcquireFences): CCTL.IVALL after a strong load.
	acquires float64
}

// fences reads the kernel's fences from its source page; ok is false
// without the page or without a fence.
func fences(a *analysis.Kernel) (w fenceWork, ok bool) {
	if !sassHas(a, "MEMBAR", "FENCE", "CCTL.IVALL") {
		return w, false
	}
	acquire := analysis.AcquireFences(a)
	first := uint64(math.MaxUint64)
	type inst struct {
		addr uint64
		base string
		n    float64
	}
	var prog []inst
	for _, s := range instructions(a) {
		base, _, _ := strings.Cut(opcode(s.SASS), ".")
		n := instExecuted(s)
		if v := address(s.Address); v < first && n > 0 {
			first, w.warps = v, n
		}
		if acquire[s.Address] {
			// An acquire load's L1 invalidation: the fence it is.
			base = "FENCE"
			w.acquires += n
		}
		switch {
		case base == "MEMBAR" || base == "FENCE":
			w.fences += n
		case globalMemOp(base):
			w.accesses += n
		default:
			continue
		}
		prog = append(prog, inst{address(s.Address), base, n})
	}
	slices.SortFunc(prog, func(x, y inst) int { return cmp.Compare(x.addr, y.addr) })
	for i, x := range prog {
		if (x.base == "MEMBAR" || x.base == "FENCE") && i+1 < len(prog) {
			switch prog[i+1].base {
			case "ATOMG", "ATOM", "RED", "REDG":
				w.guards += x.n
			}
		}
	}
	w.held = analysis.FenceHeld(a)
	return w, w.fences > 0 && w.accesses > 0
}

// checkFencePerAccess prices the fences from the share of the warps'
// sampled stalls they hold: the fix keeps one fence a thread (where its
// writes must be visible), so the fences' time shrinks by the share of
// them it removes; the kernel's DRAM bytes stay, and the stores left
// stream at the rate a store stream without its fences reaches
// (fenceStream of DRAM's peak), so it runs no faster than that.
// fixtures/sol-check11's fenceEach<0>, a __threadfence after each of
// eight stores: 83 % of the samples on the fences, 7/8 of them
// removed, DRAM at 35 % of peak: min(0.72, 0.45) = 0.45 against 0.50
// measured; sol-check12's storeSeq<0>, four seq_cst stores through
// cuda::atomic_ref: 73 %, 3/4, DRAM at 32 %: 0.50 against 0.52;
// sol-check15's relStore<0>, eight release stores: 0.43 against 0.40
// (DRAM's ceiling alone left 0.58); sol-check14's pubSys<0>, a
// __threadfence_system after each of eight stores: 0.72 against 0.69;
// sol-check16's acqLoad<0>, eight acquire loads (an LD.E.STRONG.GPU and
// a CCTL.IVALL each, no MEMBAR): 95 %, 7/8, DRAM at 51 % against a load
// stream's ceiling: min(0.83, 0.45) = 0.45 against 0.43.
// Without the source page it says nothing: the warps' stall cycles at
// fences (membar_stall_pct, ncu's CPIStall on the details page) do not
// tell a fence after each access from one at the end, which stalls
// them as well (fenceEach<1>, the fixed twin: 51 %).
func checkFencePerAccess(p *Pass) {
	if _, ok := p.Value("duration"); !ok {
		return
	}
	w, ok := fences(p.Kernel)
	if !ok {
		return
	}
	// A fence for every two accesses or more, or one between each pair
	// of stores (analysis.FencesSplitStores: a payload, the fence, its
	// flag), holding a share of the stalls worth a finding.
	if w.fences < 0.5*w.accesses && !analysis.FencesSplitStores(p.Kernel) || w.held < fenceHeld || !(w.warps > 0) || w.fences <= w.warps {
		return
	}
	// Fences that order the atomics of a kernel the atomics' serial
	// service at L2 limits wait on those atomics: combining them
	// (atomic-serialization's fix) removes each fence with its atomic,
	// and relaxing the order alone leaves the atomics' queue
	// (fixtures/sol-check15's hist_atomic: tl.atomic_add's default
	// acq_rel, a MEMBAR.ALL.GPU before each of 2 Mi atomics on 256 bins;
	// tl.histogram and 256 atomics a program ran 0.98 faster).
	if w.guards >= 0.9*w.fences && p.Kernel.Limiter.Unit == analysis.LimitAtomics {
		return
	}
	removed := (w.fences - w.warps) / w.fences
	// An acquire load's fence orders no store: the loads left, relaxed,
	// stream at a load stream's rate (vectorReach), not a strong store
	// stream's.
	stream := fenceStream
	if w.acquires >= 0.5*w.fences {
		stream = vectorReach
	}
	gain := math.Min(w.held*removed, leftByStream(p, stream))
	advice := fenceAdvice
	if _, _, triton := tritonKernel(p.Kernel.Record); triton && w.guards >= 0.5*w.fences {
		advice = fenceTritonAdvice
	}
	what := "MEMBAR: __threadfence, or seq_cst atomics"
	if w.acquires >= 0.5*w.fences {
		what, advice = "acquire loads' CCTL.IVALL, an L1 invalidation after each strong load", fenceAcquireAdvice
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.3g memory fences (%s) for %.3g global accesses, %.1f a thread; %.0f%% of the warps' sampled stalls are on the fences and the L1 invalidations after them: each waits for the thread's writes to reach L2, so a warp has one access in flight at a time",
			w.fences, what, w.accesses, w.fences/w.warps, 100*w.held),
		Advice:   advice,
		Evidence: p.evidence("membar_stall_pct", "dram_sol_pct", "duration"),
		Locations: linesOf(p.Kernel, func(op string) bool {
			return strings.HasPrefix(op, "MEMBAR") || strings.HasPrefix(op, "FENCE") || w.acquires > 0 && strings.HasPrefix(op, "CCTL.IVALL")
		}),
	})
}

// fenceStream is the share of DRAM's peak a kernel's stores reach once
// their fences go, one left a thread: a stream of strong stores, each
// worked on at the L2, which holds it there (the L2 at 82 to 88 % of
// its peak). The fixed twins of fixtures/sol-check11's fenceEach,
// sol-check12's storeSeq, sol-check14's pubSys and sol-check15's
// relStore ran DRAM at 70, 67, 56 and 59 % of peak: 0.63, their mean.
const fenceStream = 0.63

// leftByStream is the share of a fenced kernel's time its DRAM bytes
// leave at stream of DRAM's peak (1 without DRAM's figure): fenceStream
// for the fences of stores; vectorReach for an acquire load's
// (fixtures/sol-check16's acqLoad<1>, relaxed loads and one acquire
// fence, ran DRAM at 0.89 of peak; acqLoad<0> at 0.51: 0.45 against
// 0.43 measured, where fenceStream left 0.19).
// The fences' own L2 work, which goes with them, is no floor: it is as
// large as a fence is slow (pubSys<0>'s system-scope fences held the L2
// at 62 % of its peak, at 18 % of DRAM's; its fixed twin did 0.44 of
// that L2 work, relStore<1> 0.85).
func leftByStream(p *Pass, stream float64) float64 {
	us, ok := usageOf(p)
	if !ok {
		return 1
	}
	u, ok := us[analysis.LimitDRAM]
	if !ok {
		return 1
	}
	return clamp01(1 - u/stream)
}

// sassHas reports whether any SASS instruction of a kernel's source page
// contains one of subs: a scan without allocation that lets a rule skip
// the kernels (most of them) that lack what it reads.
func sassHas(a *analysis.Kernel, subs ...string) bool {
	for _, s := range a.Record.Source {
		for _, x := range subs {
			if strings.Contains(s.SASS, x) {
				return true
			}
		}
	}
	return false
}

const fenceAdvice = "fence once where the writes must be visible to other blocks (after the last store, before the flag that publishes them), not after each access; store through cuda::atomic_ref with memory_order_relaxed (or release on the one flag) instead of the default seq_cst"

const fenceAcquireAdvice = "load through cuda::atomic_ref with memory_order_relaxed and put one cuda::atomic_thread_fence(cuda::memory_order_acquire) after the last load (or acquire only the flag that guards the data): each acquire load invalidates the SM's L1 and waits for it"

const fenceTritonAdvice = "pass sem=\"relaxed\" to tl.atomic_add (or tl.atomic_cas, tl.atomic_max, ...) where no other program reads what the atomic publishes: the default sem=\"acq_rel\" puts a device-wide fence (MEMBAR) before each atomic; keep acq_rel or release on the one atomic that publishes"
