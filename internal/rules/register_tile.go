package rules

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
)

// tileLoadsPerFMA is the shared loads per FMA of the register tile the
// fix asks for: a 4×4 tile per thread reads 4 + 4 values for 16 FMAs.
const tileLoadsPerFMA = 0.5

// The fix's launch: 64×64 outputs per block of 256 threads (a 4×4 tile
// each), and four such blocks per SM, as the registers of a 4×4 tile allow
// (both register-tiled twins of fixtures/sol and sol-check: 4 blocks, by
// their registers).
const (
	tileOutputsPerBlock = 64 * 64
	tileBlocksPerSM     = 4
)

// fixWaves is the time the fix's grid adds by its last wave: the
// outputs (one stored element each) in 64×64 blocks, four per SM, and a
// last partial wave priced as tailGain prices one, ⌊w⌋ + ⌈b/S⌉/B waves
// for w of work. A 1536² matmul is 576 such blocks for 528 slots: 1.09
// waves run as 1.25 (fixtures/sol-check: the twin took 482 µs where the
// shared pipe's work alone says 326 µs). 1 under one wave or when the
// export cannot tell.
func fixWaves(p *Pass) float64 {
	st, ok1 := p.Value("global_store_requests")
	sms, ok2 := p.Value("sm_count")
	if !ok1 || !ok2 || !(st > 0) || !(sms > 0) {
		return 1
	}
	blocks := math.Ceil(st * 32 / tileOutputsPerBlock)
	w := blocks / (tileBlocksPerSM * sms)
	if w < 1 {
		return 1
	}
	full := math.Floor(w)
	tail := math.Min(1, math.Ceil((blocks-full*tileBlocksPerSM*sms)/sms)/tileBlocksPerSM)
	return (full + tail) / w
}

// registerTile reports a shared-memory GEMM or stencil that reads shared
// memory about once per FMA, or a naive one that reads global memory as
// often, hitting L1: the L1/shared-memory pipe, not the FMA pipe, sets
// its time. Each thread computing a small tile of outputs from
// values held in registers reuses each load several times.
var registerTile = &Rule{
	ID:    "register-tile",
	Title: "One shared-memory load per FMA",
	Text: `A tiled kernel that computes one output per thread reads two shared-memory values for
every FMA (a[k] and b[k]): the shared-memory pipe saturates at a fraction of the FMA
rate. Computing a TM×TN tile of outputs per thread from TM + TN values held in
registers does TM·TN FMAs per TM + TN loads: 4×4 outputs cut the loads per FMA
from 2 to 0.5. A naive product that reads both operands from global memory, hitting
L1, loads as often through the same pipe: it needs the register tile as well as the
shared-memory one. Or call cuBLAS or CUTLASS, which tile registers (and tensor cores).`,
	Before: `for (int k = 0; k < 16; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);   // 2 loads per FMA`,
	After: `for (int k = 0; k < 16; ++k) {               // 4x4 outputs per thread
    float a[4], b[4];
    for (int i = 0; i < 4; ++i) a[i] = As[k][ty + 16 * i];
    for (int j = 0; j < 4; ++j) b[j] = Bs[k][tx + 16 * j];
    for (int i = 0; i < 4; ++i) for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
}`,
	Severity: profan.Warning,
	Cause:    CauseMemory,
	Scope:    Source,
	Locates:  true,
	Requires: []string{"duration"},
	Optional: join(usageReads, loadsPerFMAReads, []string{"shared_load_requests", "global_store_requests", "sm_count"}),
	Check: func(p *Pass) {
		lds, _ := p.Value("shared_load_requests")
		space, op, pipe := "shared-memory loads", "LDS", "shared-memory"
		if !(lds > 0) {
			ld, ok := l1HitLoads(p)
			if !ok {
				return
			}
			lds, space, op, pipe = ld, "global loads hitting L1", "LDG", "L1"
		}
		r, fma, busy, ok := loadsPerFMA(p, lds)
		unit := "FMA"
		if !ok && op == "LDS" {
			// An integer product (an int8 GEMM's int32 accumulators) does
			// its multiply-adds on the integer pipe, one IMAD or IDP a
			// product, each as fed by its shared loads as an FFMA
			// (fixtures/sol-check7's igemm16: 336 M shared loads, 319 M
			// IMAD, L1/shared at 95 %; a 4×4 tile ran 0.58 faster). A half
			// product does them on the FMA pipe, two a HFMA2, which no
			// FP32 or FP64 flop count holds (fixtures/sol-check8's
			// hgemm16: 168 M shared loads, 134 M HFMA2, L1/shared at 91 %;
			// a 4×4 half2 tile ran 0.53 faster).
			r, fma, busy, unit, ok = loadsPerSourceMAD(p, lds)
		}
		if !ok {
			return
		}
		if op == "LDS" && uniformShared(p.Kernel) {
			return // coefficients every thread reads, not a tile
		}
		if op == "LDS" && unit == "FMA" && chainedFMAs(p.Kernel.Record) {
			return // a recurrence through a table, no operand to reuse
		}
		if op == "LDS" && unit == "FMA" {
			// A binary product keeps its POPCs, on the XU pipe: the
			// headroom's ideal (their time there) holds the tile's gain
			// (andPopMM<1>'s twin at 95 % of the XU pipe, 281 µs of
			// 368: 0.24 where the loads alone said 0.75).
			switch {
			case analysis.TropicalSteps(p.Kernel.Record) >= fma:
				unit = "min-plus step"
				if sassHas(p.Kernel, "FMUL") && !sassHas(p.Kernel, "FADD") {
					unit = "max-times step" // a max of products (maxTimes<1>)
				}
			case analysis.BitProductSteps(p.Kernel) >= fma:
				unit = "AND-popcount step"
			}
		}
		if w := r * fma; math.Abs(w-lds) > 0.01*lds {
			lds, space = w, "shared-memory operands (wide loads counted by their words)"
		}
		t, _ := p.Value("duration")
		after := t * tileLoadsPerFMA / r * busy * fixWaves(p)
		if h := p.Kernel.Limiter.Headroom; h.Known() {
			after = math.Max(after, h.Ideal)
		}
		after = math.Max(after, tileIssueFloor(p, tileLoadsPerFMA/r))
		// The tile keeps the kernel's global traffic (each output still
		// reads its operands' tiles once): L2 and DRAM keep their work,
		// and their time bounds the gain (fixtures/sol-check4's conv5,
		// L2 at 44 % of its peak: 0.52 against a measured 0.46).
		//
		// Not where blocks read the same data (a grid dimension no
		// load's address uses: fixtures/sol-check11's convC4<1>, one
		// output channel a block along z, sixteen blocks staging each
		// input tile): outputs a thread along that dimension share each
		// staged value, so the global traffic falls with the shared
		// loads (its eight-channel twin moved a quarter of its L2
		// sectors and an eighth of its DRAM reads).
		left := leftBy(p, analysis.LimitDRAM, analysis.LimitL2)
		if analysis.BlockRereads(p.Kernel) > 1 {
			left = 1
		}
		gain := math.Min(clamp01(1-math.Max(after, launchFloor)/t), left)
		locs := topLines(p, func(o string, _ profan.SourceRecord) bool { return strings.HasPrefix(o, op) })
		p.report(estimate(gain), Note{
			Message: fmt.Sprintf("%.1f %s per %s (%.3g loads, %.3g %ss per warp): the %s pipe sets the time", r, space, unit, lds, fma, unit, pipe),
			Advice: fmt.Sprintf("compute a tile of outputs per thread (4×4: %.1f loads per FMA) from values held in registers, with a 64×64 block tile; or call cuBLAS / CUTLASS",
				tileLoadsPerFMA),
			Evidence:  p.evidence("shared_load_requests", "flop_count_sp", "l1_sol_pct"),
			Locations: locs,
		})
	},
}

// l1HitLoads is the global load requests of a kernel that stages nothing
// in shared memory (a naive matmul) and reads its operands through L1,
// where they hit: the same pipe as a shared tile's loads, and loads a
// register tile cuts as well. Only when its speed of light is its FMAs,
// not its bytes: a thread per row of a matrix-vector product hits L1 on
// the vector as often, but has no FMA to share a load between.
//
// Only when those loads are coalesced: a load that a warp spreads over
// more sectors than it needs (a thread per row reading down a column,
// fixtures/sol-check5's gemmNTNaive: 32 sectors a request for 4) keeps
// the L1 pipe busy with its wasted wavefronts, not with its requests, and
// the shared-memory tile that coalesces it (uncoalesced-global,
// tile-shared-memory) is the fix; the register tile prices requests.
func l1HitLoads(p *Pass) (float64, bool) {
	ld, coalesced, ok := l1Loads(p)
	return ld, ok && coalesced
}

// l1Loads reads what l1HitLoads reads, saying whether the loads are
// coalesced rather than requiring it: tile-shared-memory prices a naive
// product whose loads are not as well.
func l1Loads(p *Pass) (ld float64, coalesced, ok bool) {
	ld, okG := p.Value("global_load_requests")
	hit, okH := p.Value("l1_hit_rate")
	if h := p.Kernel.Limiter.Headroom; !okG || !okH || hit < 50 || !(ld > 0) || !h.Known() || h.Unit != "FP32 pipe" {
		return 0, false, false
	}
	return ld, !uncoalescedSpace(p, p.Kernel.Model.GlobalLoad, "gld", 0), true
}

// loadsPerFMAReads are the canonical metrics l1HitLoads and loadsPerFMA
// read, which the rules that use them name in their Optional.
var loadsPerFMAReads = []string{"global_load_requests", "l1_hit_rate", "gld_efficiency", "flop_count_sp", "flop_count_dp", "inst_executed",
	"l1_sol_pct", "duration"}

// loadsPerFMA is r, the L1/shared pipe's load requests (lds) per
// warp-level FP32 FMA, with the FMAs and the share of the pipe's ceiling
// the kernel keeps busy, for a kernel whose time that pipe's loads set:
// an FMA kernel (a tenth of its instructions or more), about one load
// per FMA or more, the pipe at 60 % of its peak or more.
func loadsPerFMA(p *Pass, lds float64) (r, fma, busy float64, ok bool) {
	t, _ := p.Value("duration")
	// FP32 and FP64 FMAs alike: a DGEMM's DFMA reads its two operands
	// from shared memory as an FFMA does (fixtures/sol-check5's dgemm16).
	sp, okS := p.Value("flop_count_sp")
	dp, okD := p.Value("flop_count_dp")
	if !okS && !okD {
		sp, dp = analysis.SourceFlops(p.Kernel.Record)
	}
	fma = (sp + dp) / 2 / 32 // warp-level FMA instructions
	// A min-plus product's step (an FADD and the FMNMX of its sum) is
	// its multiply-add, fed by its shared loads as an FFMA is
	// (fixtures/sol-check14's minplus<1>: two shared loads a step; its
	// 4×4 register tile ran 0.63 faster).
	fma = math.Max(fma, analysis.TropicalSteps(p.Kernel.Record))
	// A binary product's step (an AND or XOR of two words and the POPC
	// of it) is its multiply-add too (fixtures/sol-check21's
	// andPopMM<1>: two shared loads an AND, a POPC and an add; its 4×4
	// register tile ran 0.24 faster).
	fma = math.Max(fma, analysis.BitProductSteps(p.Kernel))
	if !(fma > 0) || !(lds > 0) || !(t > 0) {
		return 0, 0, 0, false
	}
	if n, ok := p.Value("inst_executed"); ok && fma < 0.1*n {
		return 0, 0, 0, false // not an FMA kernel
	}
	r = lds / fma
	if r < 0.9 {
		// A wide shared load carries several operands: a complex GEMM's
		// float2 (LDS.64, and LDS.128 for two k at once) feeds its four
		// FFMAs a product from four floats, one a FMA as a float GEMM's
		// two 4-byte loads feed two, in half the requests
		// (fixtures/sol-check9's cgemm16: 0.38 requests but 1.0 floats
		// per FFMA, L1/shared at 99 %; a 4×4 complex tile ran 0.52
		// faster). Counted in operands from the source page: 4-byte
		// words, 8-byte ones for a DGEMM's DFMA. Not when the loads
		// conflict: then the excess wavefronts keep the pipe busy, and
		// shared-bank-conflict prices them (fixtures/sol-check7's
		// rowDotShared<32>: a float4 a thread of a row, 32-way).
		if sl := p.Kernel.Model.SharedLoad; sl == nil || !(sl.IdealTransactions > 0) || sl.Transactions > sl.IdealTransactions*gpumodel.Slack {
			return 0, 0, 0, false
		}
		r = sharedLoadWords(p, dp > sp) / fma
		if r < 0.9 {
			return 0, 0, 0, false
		}
	}
	l1, okL := p.Value("l1_sol_pct")
	if okL && l1 < 60 && !lsuLimited(p) && !(l1 >= 50 && issueLimited(p)) {
		return 0, 0, 0, false // the pipe is not what it waits for
	}
	busy = 1.0
	if okL {
		busy = math.Min(1, l1/100/ceiling[analysis.LimitL1Shared])
	}
	return r, fma, busy, true
}

// sharedLoadWords is the kernel's shared loads in operands, counted once
// per warp from the source page: each LDS times its width over four bytes
// (eight when double), never less than one (a 2-byte load still takes its
// request).
// LDSM, the tensor cores' matrix load, is not an operand of an FMA.
func sharedLoadWords(p *Pass, double bool) float64 {
	var words float64
	for _, s := range instructions(p.Kernel) {
		op := opcode(s.SASS)
		if op != "LDS" && !strings.HasPrefix(op, "LDS.") {
			continue
		}
		w := 1.0
		switch {
		case strings.Contains(op, ".128"):
			w = 4
		case strings.Contains(op, ".64"):
			w = 2
		}
		if double {
			w = math.Max(1, w/2)
		}
		words += w * instExecuted(s)
	}
	return words
}

// loadsPerSourceMAD is loadsPerFMA for a kernel with no FP32 or FP64
// operations whose multiply-adds are integer (IMAD, IDP) or half
// (HFMA2, HMUL2: the FMA pipe's work, two products an instruction, but
// one instruction fed by its loads), counted once per warp from the
// source page: a quarter of its instructions or more (a GEMM's
// products, not its address arithmetic), about one shared load per
// multiply-add instruction or more, the pipe at 60 % of its peak. unit
// names the kind that holds the most.
func loadsPerSourceMAD(p *Pass, lds float64) (r, mad, busy float64, unit string, ok bool) {
	if sp, _ := p.Value("flop_count_sp"); sp > 0 {
		return 0, 0, 0, "", false
	}
	if dp, _ := p.Value("flop_count_dp"); dp > 0 {
		return 0, 0, 0, "", false
	}
	if sp, dp := analysis.SourceFlops(p.Kernel.Record); sp > 0 || dp > 0 {
		return 0, 0, 0, "", false
	}
	var imad, hmad float64
	for _, s := range instructions(p.Kernel) {
		switch op := opcode(s.SASS); {
		case strings.HasPrefix(op, "IMAD") || strings.HasPrefix(op, "IDP"):
			imad += instExecuted(s)
		case (strings.HasPrefix(op, "HFMA2") || strings.HasPrefix(op, "HMUL2")) && !halfMove(s.SASS):
			hmad += instExecuted(s)
		}
	}
	mad = imad + hmad
	n, okN := p.Value("inst_executed")
	l1, okL := p.Value("l1_sol_pct")
	if !(mad > 0) || !okN || mad < 0.25*n || !okL || l1 < 60 {
		return 0, 0, 0, "", false
	}
	r = lds / mad
	if r < 0.9 {
		return 0, 0, 0, "", false
	}
	unit = "integer multiply-add"
	if hmad > imad {
		unit = "HFMA2"
	}
	return r, mad, math.Min(1, l1/100/ceiling[analysis.LimitL1Shared]), unit, true
}

// halfMove reports whether a HFMA2 is the compiler's way to write a
// constant to a register (HFMA2.MMA R11, -RZ, RZ, 0, 0: a move on the FMA
// pipe), not a product: both multiplicands are the zero register.
func halfMove(sass string) bool {
	return strings.Contains(sass, "-RZ, RZ,") || strings.Contains(sass, " RZ, RZ,")
}

// issueLimited reports whether a kernel its SM limits issues
// instructions on 70 % of its cycles or more: a product whose FFMAs
// each take a shared load (and the index arithmetic that comes with
// every output) spends its issue slots on them, and a tile of outputs
// per thread shares both, though no one pipe is saturated
// (fixtures/sol-check11's convC4<1>: 36 LDS for 36 FFMAs an output, L1
// at 53 %, the ALU pipe the busiest at 55 %, issue at 75 %; eight
// output channels a thread ran 0.76 faster). With L1/shared at half its
// peak or more, as loadsPerFMA asks.
func issueLimited(p *Pass) bool {
	if p.Kernel.Limiter.Unit != analysis.LimitPipe {
		return false
	}
	c, ok := p.Value("compute_throughput_pct")
	return ok && c >= 70
}

// lsuLimited reports whether the kernel's busiest unit is the pipe that
// issues its loads (LSU or MIO): a kernel whose shared loads each feed
// one dependent FMA waits on that pipe even when L1's speed of light is
// under 60 % (fixtures/sol-check5's firV33: one shared load per FMA, L1
// at 57 %, the LSU pipe the busiest at 55 %; eight outputs per thread ran
// 0.71 faster).
//
// The raw page names the busiest pipe; the details page does not, and
// its "Mem Pipes Busy" (the LSU and MIO pipes) at half their peak or more
// says the same of a kernel its SM limits (firV33: 54.7 % on both pages).
func lsuLimited(p *Pass) bool {
	l := p.Kernel.Limiter
	if l.Unit != analysis.LimitPipe {
		return false
	}
	if l.Pipe != "" {
		return l.Pipe == "LSU" || l.Pipe == "MIO"
	}
	busy, ok := p.Kernel.Record.Value("sm__memory_throughput.avg.pct_of_peak_sustained_elapsed", "Mem Pipes Busy")
	return ok && busy >= 50
}

// uniformShared reports whether nine in ten of a kernel's executed shared
// loads or more read an address the same for every thread by
// construction ([URn+imm], [imm]: no per-thread register in it). A
// tile's loads index by the thread, its row or its column; a load every
// thread of the kernel makes at one address is a table or coefficients
// broadcast (fixtures/sol-check14's volCoef<0>, a polynomial's sixteen
// coefficients LDS [UR4+imm] a step, each the addend of a Horner FFMA),
// not a matrix operand: no register tile or tensor core takes it.
func uniformShared(a *analysis.Kernel) bool {
	var all, uniform float64
	for _, s := range instructions(a) {
		op := opcode(s.SASS)
		if op != "LDS" && !strings.HasPrefix(op, "LDS.") {
			continue
		}
		n := instExecuted(s)
		all += n
		perThread := false
		for _, r := range analysis.AddressRegs(s.SASS) {
			perThread = perThread || r < analysis.UniformBase
		}
		if !perThread {
			uniform += n
		}
	}
	return all > 0 && uniform >= 0.9*all
}

// chainedFMAs reports whether more of a kernel's executed FFMAs and
// DFMAs take their addend straight from a shared load (v = v·t[a] +
// t[b]: the register the addend reads last written by an LDS) than
// accumulate (acc = a·b + acc: the addend last written by an FMA). A
// product or a stencil sums its loaded operands into its outputs, and
// those operands feed the FMAs of other outputs (a row of A every column
// of C, a tap every output row): that reuse is what a register tile holds
// in registers. A recurrence through a table reads two entries a step
// for one value, entries no other output's FMA needs, so more outputs a
// thread share no load (fixtures/sol-check18's smemTail<1>: FFMA R10,
// R10, R12, R17 with R17 an LDS's, two shared loads a step at addresses
// each item walks alone; the fix measured was its grid, 0.38). The
// register written last before the FMA in address order, within 64
// instructions; the destination says nothing (nvcc writes a stencil's
// sum into its loaded operand's register: sol-check18's colFir<1>, FFMA
// R10, R10, UR4, R9).
func chainedFMAs(k *profan.Kernel) bool {
	var prog []profan.SourceRecord
	seen := map[string]bool{}
	for _, s := range k.Source {
		if s.SASS == "" || s.Address == "" || seen[s.Address] {
			continue
		}
		seen[s.Address] = true
		prog = append(prog, s)
	}
	sort.SliceStable(prog, func(i, j int) bool { return addrLess(prog[i].Address, prog[j].Address) })
	reg := func(o string) string {
		r, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(o), "-"), ".")
		if !strings.HasPrefix(r, "R") || r == "RZ" || strings.HasPrefix(r, "RZ") {
			return ""
		}
		return r
	}
	var loaded, acc float64
	for i, s := range prog {
		op, args := analysis.SASSFields(s.SASS)
		if !(op == "FFMA" || op == "DFMA" || strings.HasPrefix(op, "FFMA.") || strings.HasPrefix(op, "DFMA.")) || len(args) != 4 {
			continue
		}
		c := reg(args[3])
		if c == "" {
			continue
		}
		for j := i - 1; j >= 0 && j >= i-64; j-- {
			o, a := analysis.SASSFields(prog[j].SASS)
			if len(a) == 0 || reg(a[0]) != c || strings.HasPrefix(o, "ST") || strings.HasPrefix(o, "RED") || strings.HasPrefix(o, "ATOM") {
				continue
			}
			switch {
			case o == "LDS" || strings.HasPrefix(o, "LDS."):
				loaded += instExecuted(s)
			case strings.HasPrefix(o, "FFMA") || strings.HasPrefix(o, "DFMA") || strings.HasPrefix(o, "FADD") || strings.HasPrefix(o, "DADD"):
				acc += instExecuted(s)
			}
			break
		}
	}
	return loaded > 0 && loaded > acc
}

// addrLess orders two SASS addresses ("0x7f1b437a0010") by value.
func addrLess(a, b string) bool {
	x, errA := strconv.ParseUint(strings.TrimPrefix(a, "0x"), 16, 64)
	y, errB := strconv.ParseUint(strings.TrimPrefix(b, "0x"), 16, 64)
	if errA != nil || errB != nil {
		return a < b
	}
	return x < y
}

// tileIssueFloor is the time the register tile's instructions take to
// issue at the FP32 pipe's attainable rate (the SM's schedulers issue one
// warp instruction a clock each, as many as the FP32 pipe retires): the
// kernel's FP32 instructions (FADD, FMUL, FFMA, warp-level), which the
// tile keeps, and the rest (the loads, their addresses, the loop), which
// it cuts by keep, the tile's loads a step against the kernel's. The
// headroom's FP32 ideal counts FLOPs at the FMA peak: it charges an FADD
// half its slot, and an |a − b| step is two FADDs and, untiled, two loads
// (fixtures/sol-check28's manhDist<1>, read once before this: 0.74
// estimated against 0.63; its 4×4 twin issued 53.6 M instructions, 33.6 M
// of them FADDs). A min or max step (FMNMX: a min-plus, an L∞ or a
// max-times product's) is the tile's to keep as well, not addressing
// (fixtures/sol-check29's maxTimes<1>, fitted after its first read: 0.74
// against a measured 0.61 with its FMNMXs cut by the loads' ratio, 0.68
// kept; its 4×4 twin was held by them, ALU pipe at 61 %). 0 when the spec
// or the page has no count, or the kernel's FP32 work is mostly FMAs.
func tileIssueFloor(p *Pass, keep float64) float64 {
	sp := p.Kernel.Spec
	inst, ok := p.Value("inst_executed")
	if sp == nil || sp.SMs <= 0 || sp.CoresPerSM <= 0 || sp.SMClockMHz <= 0 || !ok || !(inst > 0) {
		return 0
	}
	fp32, ffma := 0.0, 0.0
	for _, s := range instructions(p.Kernel) {
		switch op, _, _ := strings.Cut(opcode(s.SASS), "."); op {
		case "FADD", "FMUL", "FMNMX":
			fp32 += instExecuted(s)
		case "FFMA":
			fp32 += instExecuted(s)
			ffma += instExecuted(s)
		}
	}
	// Only where adds and multiplies outnumber the FMAs, the steps the
	// FLOP ideal misprices: an FMA product's addressing is priced by the
	// loads' time above (sol-check11's convC4<1>, 0.70 against 0.76, fell
	// to 0.57 with its other instructions cut by the loads' ratio).
	if fp32 <= 0 || fp32 > inst || fp32-ffma <= ffma {
		return 0
	}
	rate := float64(sp.SMs) * float64(sp.CoresPerSM) / 32 * sp.SMClockMHz * 1e6 * attainable
	return (fp32 + (inst-fp32)*math.Min(1, keep)) / rate
}
