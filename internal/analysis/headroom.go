package analysis

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/metrics"
)

// LaunchFloor is the shortest time a kernel launch takes on the GPU, as
// ncu measures it (gpu__time_duration): a grid that does almost nothing
// still takes 2.5–3 µs on an H100 (fixtures/calib: oneThread 3.3 µs, a
// 128-element saxpy 2.7 µs). No fix makes a kernel shorter.
const LaunchFloor = 2.5e-6

// The attainable share of each unit's peak: what the best kernels of the
// captures sustain, so that a kernel doing only its necessary work at
// that rate is at its speed of light. DRAM: the fixed twins of
// fixtures/sol stream at up to 92 % of ncu's DRAM peak (the H200's copy
// through PyTorch moved 4.3 of 4.8 TB/s); the FP32 and FP64 pipes and
// the tensor pipe: 95 % of the boost-clock peak.
const (
	attainableDRAM = 0.92
	attainablePipe = 0.95
	// attainableL2: the kernels at their speed of light on L2 keep it at
	// 91–92 % of ncu's L2 throughput peak (fixtures/sol-check7's
	// l2Reuse, sol-check8's l2Int4: each twin, the same kernel, ran the
	// same).
	attainableL2 = 0.92
)

// need is the time one unit takes for the kernel's necessary work.
type need struct {
	unit string
	secs float64
	why  string
}

// headroomOf measures a kernel's headroom from what its export holds.
func headroomOf(a *Kernel) (h Headroom) {
	h = Headroom{Share: math.NaN(), Ideal: math.NaN()}
	if m := noCounters(a); m != "" {
		h.Missing = m
		return h
	}
	t, ok := a.Value("duration")
	if !ok || !(t > 0) {
		h.Missing = "the page has no kernel duration (capture with --section SpeedOfLight, or --set full)"
		return h
	}
	var needs []need
	if n, ok := dramNeed(a, t); ok {
		needs = append(needs, n)
	}
	if n, ok := l2Need(a, t); ok {
		needs = append(needs, n)
	}
	if n, ok := l1Need(a, t); ok {
		needs = append(needs, lessTree(a, t, n))
	}
	pipes, fpKnown := pipeNeeds(a, t)
	needs = append(needs, pipes...)
	if n, ok := constantNeed(a, t); ok {
		needs = append(needs, n)
	}
	if len(needs) == 0 || !fpKnown && (a.Limiter.Unit == LimitPipe || a.Limiter.Unit == LimitL1Shared) {
		h.Missing = missingWork(a, len(needs) > 0)
		return h // the export does not tell the kernel's work
	}
	best := needs[0]
	for _, n := range needs[1:] {
		if n.secs > best.secs {
			best = n
		}
	}
	ideal, why := best.secs, best.why
	if ideal < LaunchFloor {
		ideal = LaunchFloor
		why += fmt.Sprintf("; no launch takes less than %s", fmtSecs(LaunchFloor))
	}
	ideal = math.Min(ideal, t)
	h.Share, h.Unit, h.Ideal = 1-ideal/t, best.unit, ideal
	h.Evidence = fmt.Sprintf("%s ideal of %s: %s", fmtSecs(ideal), fmtSecs(t), why)
	if u, held, ok := heldBy(a, best.unit); ok {
		h.Unit = u
		h.Evidence += "; " + held
	} else if u, held, ok := heldByMemory(a, best.unit); ok {
		h.Held = u
		h.Evidence += "; " + held
	}
	return h
}

// heldByMemory names the memory unit that holds a kernel above its
// ideal when the ideal is its arithmetic's: the unit ncu finds limiting
// (L1/shared, L2 or DRAM) does accesses that work does not need
// (fixtures/sol-check28's firTap63<0>: each of 63 taps read from global
// memory, the L1/shared pipe at 85 %, its ideal its FLOPs on the FP32
// pipe). The unit of the work, and the share, stay.
func heldByMemory(a *Kernel, unit string) (string, string, bool) {
	l := a.Limiter
	switch unit {
	case "DRAM", "L2", "L1/shared", "constant cache", "":
		return "", "", false
	}
	if !l.Unit.Memory() || l.Unit == LimitMemory {
		return "", "", false
	}
	u := l.Unit.String()
	held := fmt.Sprintf("held by %s, not by the %s: accesses that work does not need", u, unit)
	if l.Percent > 0 {
		held = fmt.Sprintf("held by %s at %.0f%% of its peak, not by the %s: accesses that work does not need", u, l.Percent, unit)
	}
	return u, held, true
}

// heldBy names the unit that holds a kernel above its ideal when that is
// not the unit of its necessary work: a kernel ncu finds compute-bound
// (its compute throughput at the bound and over its memory's) whose
// necessary work is its bytes (the ideal on DRAM, L2 or L1/shared) spends
// its headroom on instructions that work does not need, in the SM: on the
// busiest pipe where ncu names it within 10 points of the compute total
// ("XU pipe": fixtures/sol-check11's votePeel<0>, a ballot loop whose
// __ffs runs on the XU pipe at 97 %, DRAM at 11 %), else on its issue
// slots where they are as busy (convC4<1>: issue at 75 %, the ALU pipe
// at 55 %), else on its compute pipes. Not for the load-store pipes (LSU,
// MIO), whose instructions are the bytes' own accesses: their headroom
// is the bytes' unit's. The share is the ideal's; only the unit named
// changes.
func heldBy(a *Kernel, unit string) (string, string, bool) {
	l := a.Limiter
	if l.Unit != LimitPipe || l.Pipe == "LSU" || l.Pipe == "MIO" || l.Pipe == "TENSOR" {
		return "", "", false
	}
	switch unit {
	case "DRAM", "L2", "L1/shared":
	default:
		return "", "", false
	}
	comp, ok := a.Value("compute_throughput_pct")
	if !ok {
		return "", "", false
	}
	if l.Pipe == "" {
		if busy, ok := a.Record.Value("sm__memory_throughput.avg.pct_of_peak_sustained_elapsed", "Mem Pipes Busy"); ok && busy >= 50 {
			return "", "", false // the load-store pipes, as lsuLimited reads them
		}
	}
	held := "compute pipes"
	pct := comp
	if p := readPipes(a); p.named && p.pct >= comp-10 {
		held, pct = p.name+" pipe", p.pct
	} else if issue, ok := a.Record.Value("sm__inst_issued.avg.pct_of_peak_sustained_active", "sm__inst_issued.avg.pct_of_peak_sustained_elapsed", "Issue Slots Busy"); ok && issue >= comp-10 {
		held, pct = "issue slots", issue
	}
	return held, fmt.Sprintf("held by its %s at %.0f%% of their peak (ncu: compute %.0f%%), not by %s: instructions that work does not need", held, pct, comp, unit), true
}

// missingWork names what the export lacks to tell a kernel's necessary
// work: its floating-point operation counts for a kernel a compute pipe
// or L1/shared limits (its DRAM bytes, when known, are not its work),
// the GPU when no peak is known, else its DRAM bytes too.
func missingWork(a *Kernel, dram bool) string {
	const flops = "floating-point operation counts (export the raw page, ncu --page raw, or the source page with SASS, --page source --set full)"
	switch {
	case a.Spec == nil:
		return "the page names no GPU profan knows the peaks of (name it with --device)"
	case dram:
		return "the page has no " + flops
	}
	return "the page has no DRAM bytes nor " + flops
}

// traceInputs name the exports that time kernels with no hardware
// counter, by tool.
var traceInputs = map[string]string{
	profan.ToolTorch:  "a torch.profiler trace",
	profan.ToolNsys:   "an nsys export",
	profan.ToolNvprof: "an nvprof trace",
}

// noCounters says what a kernel of a trace lacks for its headroom: a
// trace (torch.profiler, nsys, nvprof's GPU trace and summary) times
// kernels and gives their launch shapes, no counter of their work. ""
// for a kernel with counters (a metric beyond a summary's times), or
// from a profiler of counters.
func noCounters(a *Kernel) string {
	if a.Run == nil {
		return ""
	}
	what, ok := traceInputs[a.Run.Tool]
	if !ok {
		return ""
	}
	for i := range a.Record.Metrics {
		if a.Record.Metrics[i].Section != "summary" {
			return ""
		}
	}
	return what + " has no hardware counters: ncu --set full -k regex:<its name> gives its DRAM bytes and operation counts"
}

// dramNeed is the time the kernel's necessary bytes take through DRAM at
// its attainable peak. The peak is ncu's own where the export gives the
// DRAM throughput against it, else the GPU table's.
func dramNeed(a *Kernel, t float64) (need, bool) {
	var n need
	moved, ok := a.Value("dram_bytes")
	if !ok || moved < 0 {
		return n, false
	}
	peak := 0.0
	if pct, ok := a.Value("dram_sol_pct"); ok && pct >= 1 && moved > 0 {
		peak = moved / t / (pct / 100)
	} else if a.Spec != nil {
		peak = a.Spec.PeakBandwidth()
	}
	if !(peak > 0) {
		return n, false
	}
	needed, asked := moved, false
	var ideal, loads float64
	have := 0
	for _, op := range []string{"gld", "gst"} {
		v, ok := a.Value(op + "_ideal_transactions")
		if !ok || v < 0 {
			v, ok = a.Value(op + "_transactions")
		}
		if ok && v >= 0 {
			ideal += v
			have++
			if op == "gld" {
				loads = v
			}
		}
	}
	// Loads that re-read what another line read are asked for, not needed.
	rr := rereads(a)
	reread := 32 * loads * rr.share
	if have > 0 && 32*ideal < moved {
		needed, asked = 32*ideal, true
	}
	if have > 0 && reread > 0 && 32*ideal-reread < needed {
		needed, asked = 32*ideal-reread, false
	}
	// Where DRAM read them again (its reads beyond the first read of the
	// data re-read), the re-reads are not needed either, whatever L2
	// serves of the other loads: sol-check19's rmsH<0> read its 268 MB
	// of rows twice (534 MB), and a weight row every block asks for
	// (another 268 MB of sectors) from L2.
	if rd, ok := dramReads(a, moved); ok && reread > 0 {
		served := math.Min(reread, rd-32*loads*rr.first)
		if cut := moved - served; served > 0 && cut < needed {
			needed, asked = cut, false
		}
	}
	// Random gathers put in order move their ideal sectors at the rate
	// L2 misses their sectors now (OrderedGathers): what L2 keeps of the
	// data they read is not needed from DRAM again.
	gathered := false
	if g, ok := OrderedGathers(a); ok && have > 0 {
		part := g.Now
		if asked {
			part = g.Asked
		}
		if cut := needed - part + g.Ordered; cut < needed {
			needed, asked, gathered = cut, false, true
		}
	}
	// Passes over an array the kernel writes in place move it once
	// fused: their re-reads and overwritten stores are not needed.
	passes := 0
	if ip, ok := InPlacePasses(a); ok && have > 0 {
		if cut := 32 * ideal * (1 - ip.Share); cut < needed {
			needed, asked, passes = cut, false, ip.Passes
		}
	}
	blocks := 1.0
	if e := BlockRereads(a); e > 1 {
		// Blocks that read the same data (a grid dimension no load's
		// address depends on) read it from DRAM once each where L2 does
		// not keep it between them: one block's reads are needed.
		rd, okR := dramReads(a, moved)
		if cut := moved - rd + rd/e; okR && rd > 0 && cut < needed {
			needed, asked, blocks = cut, false, e
		}
	}
	n.unit = "DRAM"
	n.secs = needed / (attainableDRAM * peak)
	n.why = fmt.Sprintf("%s of DRAM traffic needed", fmtBytes(needed))
	if asked {
		n.why = fmt.Sprintf("%s needed (the bytes its threads ask for) of %s moved", fmtBytes(needed), fmtBytes(moved))
	}
	if reread > 0 && needed < moved {
		n.why = fmt.Sprintf("%s needed of %s moved (%s re-read by lines that index the same data again)", fmtBytes(needed), fmtBytes(moved), fmtBytes(reread))
	}
	if gathered && needed < moved {
		n.why = fmt.Sprintf("%s needed of %s moved (its random gathers' ideal sectors, in order, at the rate L2 misses them now)", fmtBytes(needed), fmtBytes(moved))
	}
	if passes > 1 && needed < moved {
		n.why = fmt.Sprintf("%s needed of %s moved (one pass's: %d loops re-read and re-write in place the array the kernel writes)", fmtBytes(needed), fmtBytes(moved), passes)
	}
	if blocks > 1 {
		n.why = fmt.Sprintf("%s needed of %s moved (its reads once, not once for each of the %.0f blocks that read the same data: a grid dimension no load's address uses)", fmtBytes(needed), fmtBytes(moved), blocks)
	}
	n.why += fmt.Sprintf(", at %.0f%% of %.2f TB/s", 100*attainableDRAM, peak/1e12)
	return n, true
}

// dramReads are the bytes a kernel read from DRAM, of the moved bytes:
// the details page, without them, has its writes as its stores' sectors.
func dramReads(a *Kernel, moved float64) (float64, bool) {
	rd, ok := a.Value("dram_read_bytes")
	if st, okS := a.Value("gst_transactions"); !ok && okS && st >= 0 {
		rd, ok = moved-math.Min(moved, 32*st), true
	}
	return rd, ok && rd >= 0 && rd <= moved
}

// l2Need is the time the kernel's necessary L2 traffic takes at L2's
// attainable peak, for a kernel L2 limits. The necessary traffic is the
// global sectors its threads ask for at their ideal (the coalesced
// stream, width- and broadcast-aware) that L1 does not serve: re-reads of
// data through L2 are necessary only where no block's tile could keep
// them, so the need counts only for a kernel that stages nothing in
// shared memory and whose loads hit L1 under 5 % (its re-reads are other
// blocks', at their own addresses; tile-shared-memory's own test) and L2
// 90 % or more (data L2 holds, not DRAM's stream passing through it),
// with no atomics and no local-memory traffic (work the L2 serves that
// is not the stream's), coalesced accesses of 4 bytes a thread or wider
// (narrower ones load L2 with requests, not sectors) and no gather (whose
// order a fix may change: an embedding gather's sorted twin). It is ncu's L2 throughput
// share of the time, scaled by the ideal sectors over those moved
// (fixtures/sol-check8's l2Int4<0>: sixteen int4 reads a thread from a
// 4 MiB table, L2 at 92 %, 4 % L1 hits: at its speed of light on L2,
// where DRAM's need said 99 % headroom). A tile that keeps re-reads
// (register-tile, tile-shared-memory) is their headroom: a kernel with
// shared loads or L1 hits reads DRAM's and the pipes' needs only.
func l2Need(a *Kernel, t float64) (need, bool) {
	var n need
	pct, ok := a.Value("l2_sol_pct")
	if !ok || !(pct > 0) || a.Limiter.Unit != LimitL2 {
		return n, false
	}
	if hit, ok := a.Value("l1_hit_rate"); !ok || hit >= 5 {
		return n, false
	}
	if hit, ok := a.Value("l2_hit_rate"); !ok || hit < 90 {
		return n, false // DRAM's stream through L2, not data L2 holds
	}
	for i := range a.Model.Instructions {
		if in := &a.Model.Instructions[i]; in.Space == "global" && IndirectAccess(a, in) {
			return n, false // a gather's order, which a fix may change
		}
	}
	for _, m := range []string{"shared_load_requests", "shared_store_requests", "l2_atomic_requests", "local_load_sectors", "local_store_sectors"} {
		if v, ok := a.Value(m); ok && v > 0 {
			return n, false
		}
	}
	if a.Model.SharedLoad != nil || a.Model.SharedStore != nil {
		return n, false
	}
	var ideal, moved float64
	for _, x := range []*Access{a.Model.GlobalLoad, a.Model.GlobalStore} {
		if x == nil || !(x.Transactions > 0) {
			continue
		}
		if x.IdealSectorsPerRequest < 4 || x.Pattern.Kind != gpumodel.Coalesced {
			return n, false
		}
		moved += x.Transactions
		ideal += math.Min(x.Transactions, x.IdealTransactions)
	}
	if !(moved > 0) || !(ideal > 0) {
		return n, false
	}
	share := pct / 100 * ideal / moved
	n.unit = "L2"
	n.secs = t * share / attainableL2
	n.why = fmt.Sprintf("L2 at %.0f%% of its peak on the sectors its threads ask for", pct)
	if ideal < moved {
		n.why = fmt.Sprintf("L2 at %.0f%% of its peak, %.0f%% of its sectors the coalesced ones its threads ask for", pct, 100*ideal/moved)
	}
	n.why += fmt.Sprintf(" (re-reads no block's tile keeps: L1 hits under 5%%, no shared memory), attainable %.0f%%", 100*attainableL2)
	return n, true
}

// attainableL1 is the share of ncu's L1/shared throughput peak the
// kernels at their speed of light on it sustain (the fixed twins a
// shared-memory reduction or histogram limits: fixtures/sweep's
// atomicShared, classes' atomicPriv, check's byteHistShared at 86–97 %).
const attainableL1 = 0.92

// l1Need is the time the kernel's necessary L1/shared work takes at the
// pipe's attainable peak, for a kernel that pipe limits and whose work
// there is its own: a shared-memory reduction, histogram or table, whose
// shared accesses no tile removes. ncu's L1/shared throughput share of
// the time, scaled by the pipe's wavefronts at their ideal (no bank
// conflict, coalesced global sectors, four to a wavefront) over those it
// served. Not for a product, whose shared loads feed its multiply-adds
// (a tile, register-tile or tile-shared-memory, cuts them): a kernel with
// half a multiply-add (FFMA, DFMA, HFMA2, IMAD, IDP, a min-plus or a
// binary product's step: TropicalSteps, BitProductSteps) per shared load
// or more, nor without the source page that tells them, nor with local
// memory (local-memory's work on the same pipe).
func l1Need(a *Kernel, t float64) (need, bool) {
	var n need
	pct, ok := a.Value("l1_sol_pct")
	if !ok || !(pct > 0) || a.Limiter.Unit != LimitL1Shared || len(a.Record.Source) == 0 {
		return n, false
	}
	for _, m := range []string{"local_load_sectors", "local_store_sectors"} {
		if v, ok := a.Value(m); ok && v > 0 {
			return n, false
		}
	}
	var mads, lds, sts float64
	eachSASS(a.Record, "inst_executed", func(base string, x float64) {
		switch base {
		case "FFMA", "DFMA", "HFMA2", "IMAD", "IDP":
			mads += x
		case "LDS":
			lds += x
		case "STS":
			sts += x
		}
	})
	if !(lds > 0) || mads+TropicalSteps(a.Record)+BitProductSteps(a) >= 0.5*lds {
		return n, false
	}
	// A warp's exchange through shared memory (WarpExchanges) needs its
	// loads, as shuffles, and none of its stores.
	kept := 1.0
	if x := WarpExchanges(a); x.Loads > 0 && sts > 0 {
		kept = math.Max(0, 1-x.Stores/sts)
	}
	var work, ideal float64
	for _, x := range []*Access{a.Model.SharedLoad, a.Model.SharedStore} {
		if x != nil && x.Transactions > 0 {
			work += x.Transactions
			if x == a.Model.SharedStore {
				ideal += math.Min(x.Transactions, x.IdealTransactions) * kept
			} else {
				ideal += math.Min(x.Transactions, x.IdealTransactions)
			}
		}
	}
	for _, x := range []*Access{a.Model.GlobalLoad, a.Model.GlobalStore} {
		if x != nil && x.Transactions > 0 {
			work += x.Transactions / 4
			ideal += math.Min(x.Transactions, x.IdealTransactions) / 4
		}
	}
	if !(work > 0) || !(ideal > 0) {
		return n, false
	}
	n.unit = "L1/shared"
	n.secs = t * pct / 100 * ideal / work / attainableL1
	n.why = fmt.Sprintf("L1/shared at %.0f%% of its peak", pct)
	if ideal < work {
		n.why = fmt.Sprintf("L1/shared at %.0f%% of its peak, %.0f%% of its wavefronts at their ideal", pct, 100*ideal/work)
	}
	if kept < 1 {
		n.why += fmt.Sprintf(" (a warp's exchange through shared memory: its loads as shuffles, %.0f%% of its shared stores not needed), attainable %.0f%%", 100*(1-kept), 100*attainableL1)
		return n, true
	}
	n.why += fmt.Sprintf(" (shared-memory work of its own, no product), attainable %.0f%%", 100*attainableL1)
	return n, true
}

// pipeNeeds are the times the kernel's floating-point work takes on the
// pipe of its type at its attainable peak; known is false when the
// export counts no floating-point operations.
func pipeNeeds(a *Kernel, t float64) (out []need, known bool) {
	if a.Spec == nil {
		return nil, false
	}
	add := func(unit string, flops, peak float64) {
		if flops > 0 && peak > 0 {
			out = append(out, need{unit, flops / (attainablePipe * peak), fmt.Sprintf("%.3g FLOP at %.0f%% of %.1f TFLOP/s", flops, 100*attainablePipe, peak/1e12)})
		}
	}
	sp, okS := a.Value("flop_count_sp")
	dp, okD := a.Value("flop_count_dp")
	known = okS || okD || len(a.Record.Source) > 0
	if !okS && !okD {
		sp, dp = SourceFlops(a.Record)
	}
	if w, ok := DoubleWork(a); ok && w.Limits(t) {
		// Double precision on float data, the FP64 pipe its limit: its
		// necessary work is FP32 work, at the FP32 pipe's rate.
		why := fmt.Sprintf("%.3g FLOP in double on float data", dp)
		if sp > 0 {
			why = fmt.Sprintf("%.3g FLOP, %.3g of them in double on float data", sp+dp, dp)
		}
		out = append(out, need{"FP32 pipe", w.Ideal32, fmt.Sprintf("%s, done in float at %.0f%% of %.1f TFLOP/s", why, 100*attainablePipe, a.Spec.PeakFP32()/1e12)})
		return out, known
	}
	// A precise powf's polynomials (its logarithm and exp2 in
	// double-float) are FP32 work the function does not need where the
	// exponent is a small integer or half-integer: precisePowFlops a
	// call are not necessary work.
	if calls := preciseCalls(a.Record, PrecisePow); calls > 0 {
		sp = math.Max(0, sp-precisePowFlops*calls)
	}
	// Work every lane of a warp repeats alike from a broadcast load is
	// needed once a warp: 31 of each 32 of its FLOPs are not necessary
	// work (LaneRedundant: fixtures/sol-check16's warpDup<0>).
	if w, ok := LaneRedundant(a); ok {
		sp = math.Max(0, sp-w.Flops*31/32)
	}
	// Work every thread of the grid does alike from constants, arguments
	// and loop counters is not necessary work (GridInvariant).
	invMUFU := 0.0
	if inv, ok := GridInvariant(a); ok && inv.Worth() {
		sp = math.Max(0, sp-inv.Flops)
		invMUFU = inv.MUFU
	}
	// A precise logf's range reduction and polynomial are FP32 work
	// __logf does in one MUFU.LG2 (and an FMUL): preciseLogFlops a call
	// are not necessary work, its MUFU is (the XU pipe's need below).
	logs := preciseCalls(a.Record, PreciseLog)
	if logs > 0 {
		sp = math.Max(0, sp-preciseLogFlops*logs)
	}
	// A precise expf's rounding, reduction and scaling are FP32 work
	// __expf does in one FMUL before the same MUFU.EX2: preciseExpFlops
	// a call are not necessary work, its MUFU is (the XU pipe's need).
	exps := preciseCalls(a.Record, PreciseExp)
	if exps > 0 {
		sp = math.Max(0, sp-preciseExpFlops*exps)
	}
	add("FP32 pipe", sp, a.Spec.PeakFP32())
	add("FP64 pipe", dp, a.Spec.PeakFP64())
	if m := productMads(a.Record); m.known {
		// A product in half2 or 32-bit integers: its multiply-adds, which
		// its shared loads feed, are its work, on the pipe that runs
		// them (its DRAM bytes, a tile's worth, are not its limit).
		add("FP16 pipe", 4*m.hfma2, a.Spec.PeakFP16())
		if peak := a.Spec.PeakIMAD(); m.imad > 0 && peak > 0 {
			out = append(out, need{"integer pipe", m.imad / (attainablePipe * peak),
				fmt.Sprintf("%.3g integer multiply-adds at %.0f%% of %.1f Tera-op/s", m.imad, 100*attainablePipe, peak/1e12)})
		}
	}
	if steps, peak := BitProductSteps(a), a.Spec.PeakSFU(); steps > 0 && peak > 0 {
		// A binary product's POPCs (an AND-popcount or XOR-popcount
		// step each) are its work, on the XU pipe at the
		// transcendentals' rate (16 a clock an SM on sm_70 to sm_90,
		// the programming guide's table): fixtures/sol-check21's
		// andPopMM<4>, its 4×4 register tile, ran at 95 % of the XU
		// pipe, 281 µs where the POPCs need 266.
		out = append(out, need{"XU pipe", 32 * steps / (attainablePipe * peak),
			fmt.Sprintf("%.3g AND-popcount steps (POPC of two words' AND or XOR) at %.0f%% of %.2f Tera-op/s", 32*steps, 100*attainablePipe, peak/1e12)})
	}
	if n, ok := xuNeed(a, invMUFU); ok {
		out = append(out, n)
	} else if peak := a.Spec.PeakSFU(); logs+exps > 0 && peak > 0 {
		what := fmt.Sprintf("%.3g logarithms, one MUFU.LG2 each (__logf)", logs)
		switch {
		case logs > 0 && exps > 0:
			what = fmt.Sprintf("%.3g logarithms and %.3g exponentials, one MUFU.LG2 or MUFU.EX2 each (__logf, __expf)", logs, exps)
		case exps > 0:
			what = fmt.Sprintf("%.3g exponentials, one MUFU.EX2 each (__expf)", exps)
		}
		out = append(out, need{"XU pipe", (logs + exps) / (attainablePipe * peak),
			fmt.Sprintf("%s, at %.0f%% of %.2f Tera-op/s", what, 100*attainablePipe, peak/1e12)})
	}
	if tc, ok := a.Value("flop_count_tensor"); ok {
		tt, _ := metrics.TensorType(a.Record)
		add("tensor pipe", tc, a.Spec.PeakTensor(tt))
	} else if tc, tt := SourceTensorFlops(a.Record); tc > 0 {
		// The page counts no tensor operations (a details page): the
		// source page's MMAs tell them.
		add("tensor pipe", tc, a.Spec.PeakTensor(tt))
	}
	return out, known
}

// xuNeed is the time a kernel's 32-bit transcendentals take on the XU
// pipe at its attainable peak: the source page's MUFU instructions (sine,
// cosine, base-2 exponential and logarithm, reciprocal and its square
// root; per thread executed with their predicate on), the math its
// program asks for as FLOPs are (fixtures/sol-check11's mufuIlp<0>: eight
// independent __sinf chains a thread, the XU pipe at 93 %, where the FP32
// pipe's FLOPs said 88 % headroom; its twin, the same kernel, ran the
// same). The FP64 seeds (MUFU.RCP64H, MUFU.RSQ64H) are the FP64 pipe's
// work, left out. A value its threads load again (a stencil's
// neighbours: global loads that hit L1, no local memory) is transformed
// once: the transcendentals count by the share of the loaded sectors L1
// misses (loadedOnce: fieldSmooth<0>, each thread computing the field
// at i-1, i and i+1, loads 1.9× the bytes L1 fetches; its twin computing
// each value once ran 0.49 faster). Only for a kernel a compute pipe limits, the XU pipe where
// ncu names it, as l2Need and l1Need read their unit: a kernel its
// latency holds may run its transcendentals on lanes that repeat another
// lane's element (fixtures/sol-check4's silu_b16_w1, Triton's BLOCK_SIZE
// of 16 on 32 threads: two MUFU a lane for one an element), which no
// counter tells from its own.
func xuNeed(a *Kernel, invariant float64) (need, bool) {
	if l := a.Limiter; a.Spec == nil || len(a.Record.Source) == 0 || l.Unit != LimitPipe || l.Pipe != "" && l.Pipe != "XU" {
		return need{}, false
	}
	peak := a.Spec.PeakSFU()
	var ops float64
	eachSASSOp(a.Record, "thread_inst_executed_pred_on", func(op string, n float64) {
		if strings.HasPrefix(op, "MUFU.") && !strings.HasSuffix(op, "64H") {
			ops += n
		}
	})
	// A precise tanhf runs two MUFU ops (EX2, RCP) where the function
	// needs one (MUFU.TANH): one a call is not necessary work.
	ops = math.Max(0, ops-preciseCalls(a.Record, PreciseTanh))
	// Transcendentals every thread computes alike (GridInvariant) are
	// needed once, not a thread.
	ops = math.Max(0, ops-invariant)
	if !(ops > 0) || !(peak > 0) {
		return need{}, false
	}
	why := fmt.Sprintf("%.3g transcendentals (MUFU)", ops)
	if once := loadedOnce(a); once <= 2.0/3 {
		ops *= once
		why = fmt.Sprintf("%.3g transcendentals (MUFU) of the values it loads once (its threads load %.1f× the bytes L1 fetches: values loaded again by their neighbours)", ops, 1/once)
	}
	return need{"XU pipe", ops / (attainablePipe * peak), fmt.Sprintf("%s at %.0f%% of %.2f Tera-op/s", why, 100*attainablePipe, peak/1e12)}, true
}

// loadedOnce is the share of the bytes a kernel's threads load from
// global memory (the source page's loads, per thread executed with their
// predicate on, by their width) that L1 fetches (its requested sectors
// that miss): under 1 where threads load values their neighbours load
// too (a stencil's taps, fieldSmooth<0>'s x[i-1], x[i], x[i+1]: 0.53),
// near 1 where each value is loaded once (sol-check10's waveTail<1>,
// whose L1 hits are not its threads' values: 0.83; xuNeed reads a share
// of 2/3 or less, values loaded half again or more). 1 without the
// counters or with local memory, whose loads hit L1 as well.
func loadedOnce(a *Kernel) float64 {
	hit, okH := a.Value("l1_hit_rate")
	sectors, okS := a.Value("gld_transactions")
	if !okH || !okS || !(sectors > 0) || localTraffic(a) {
		return 1
	}
	var bytes float64
	eachSASSOp(a.Record, "thread_inst_executed_pred_on", func(op string, n float64) {
		if !strings.HasPrefix(op, "LDG") {
			return
		}
		bytes += float64(accessBytes(op)) * n
	})
	if !(bytes > 0) {
		return 1
	}
	return math.Min(1, 32*sectors*(1-hit/100)/bytes)
}

// localTraffic reports whether a kernel moves local memory (whose loads
// hit L1 as well).
func localTraffic(a *Kernel) bool {
	for _, m := range []string{"local_load_sectors", "local_store_sectors"} {
		if v, ok := a.Value(m); ok && v > 0 {
			return true
		}
	}
	return false
}

// constantNeed is the time a kernel whose constant cache serialises its
// indexed loads (ConstantWork.Limits) takes with one request a load: the
// constant cache set its time, so the same loads at a uniform index take
// 1/replays of it.
func constantNeed(a *Kernel, t float64) (need, bool) {
	w, ok := Constants(a)
	if !ok || !w.Limits() {
		return need{}, false
	}
	r, measured := w.Replays()
	why := fmt.Sprintf("%.3g indexed constant loads at one request each, not %.1f (a request per distinct address), at the rate the constant cache ran", w.Loads, r)
	if !measured {
		why = fmt.Sprintf("%.3g indexed constant loads at one request each, not up to %.0f (a request per lane's address), at the rate the constant cache ran", w.Loads, r)
	}
	return need{"constant cache", t / r, why}, true
}

func fmtSecs(s float64) string {
	switch {
	case s >= 1e-3:
		return fmt.Sprintf("%.3g ms", s*1e3)
	default:
		return fmt.Sprintf("%.3g µs", s*1e6)
	}
}

func fmtBytes(b float64) string {
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.3g GB", b/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.3g MB", b/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.3g kB", b/1e3)
	}
	return strings.TrimSpace(fmt.Sprintf("%.0f B", b))
}
