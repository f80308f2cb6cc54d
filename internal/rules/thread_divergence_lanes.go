package rules

// The masked-off lanes that thread-divergence leaves to others: to the
// division's rule, a guarded atomic's or load's, a warp exchange, a math
// library's range splits (priced with its precision's rule). Moved out
// of thread_divergence.go whole.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// divisionLaneShare is the share of the kernel's masked-off lanes
// (thread_inst_executed against 32 × inst_executed, by SASS address)
// that sit in a division's subroutine (the code a CALL.REL to an
// I2F.RP reaches) or on the lines that call it, where the compiler tests
// whether the operands fit 32 bits and splits the warp between the call
// and an inline 32-bit division; and those lines ("file:line", the
// subroutine's under the line ncu files it). 0 without such a call.
func divisionLaneShare(a *analysis.Kernel) (float64, map[string]bool) {
	recs, at := sassRecords(a)
	subs, inSub := callTargets(recs, at)
	lines := map[string]bool{}
	key := func(s profan.SourceRecord) string { return fmt.Sprintf("%s:%d", s.File, s.Line) }
	for i, s := range recs {
		if inSub[i] || !strings.HasPrefix(opcode(s.SASS), "CALL.REL") {
			continue
		}
		if sr := subs[callTarget(s.SASS)]; sr != nil && sr.division {
			lines[key(s)] = true
		}
	}
	if len(lines) == 0 {
		return 0, nil
	}
	var lost, div float64
	for i, s := range recs {
		inst := instExecuted(s)
		thr, ok := 0.0, false
		for _, c := range s.Counter {
			if c.Name == "thread_inst_executed" {
				thr, ok = c.Value, true
			}
		}
		if !ok || !(inst > 0) || math.IsNaN(thr) {
			continue
		}
		l := math.Max(0, 32*inst-thr)
		lost += l
		if inSub[i] {
			lines[key(s)] = true
			div += l
		} else if lines[key(s)] {
			div += l
		}
	}
	if !(lost > 0) {
		return 0, lines
	}
	return div / lost, lines
}

// guardedAtomicLaneShare is the share of the kernel's masked-off lanes
// (thread_inst_executed against 32 × inst_executed) on source lines
// whose atomics (ATOMS, ATOM, RED) ran with lanes masked off, or that
// call such an atomic from a toolkit header: an atomic under a
// data-dependent branch, and the compiler's aggregation of it; and on
// the lines of a compare-and-swap loop (a backward branch around an
// ATOM*.CAS), whose lanes leave it at the trip their swap succeeds: the
// retries of lanes that met on one word (fixtures/sol-check22's
// dsumCas<0>, an atomicCAS loop on a double bin: 56 % warp execution
// efficiency, 94 % of the idle lanes in the loop's body on lines 674,
// 677 and 678), which cas-loop prices with the loop.
func guardedAtomicLaneShare(a *analysis.Kernel) float64 {
	ls, total, _ := laneLoss(a, "thread_inst_executed")
	if !(total > 0) {
		return 0
	}
	atomic := map[string]bool{}
	if sassHas(a, ".CAS") {
		_, loops := sassLoops(a)
		for _, l := range loops {
			if !slices.ContainsFunc(l.body, func(s profan.SourceRecord) bool {
				op := opcode(s.SASS)
				return strings.HasPrefix(op, "ATOM") && strings.Contains(op, ".CAS")
			}) {
				continue
			}
			for _, s := range l.body {
				if s.Line > 0 {
					atomic[fmt.Sprintf("%s:%d", s.File, s.Line)] = true
				}
			}
		}
	}
	callers := callerLines(a)
	for _, s := range instructions(a) {
		op := opcode(s.SASS)
		if !(strings.HasPrefix(op, "ATOM") || strings.HasPrefix(op, "RED")) || strings.HasPrefix(op, "REDUX") {
			continue
		}
		inst := instExecuted(s)
		for _, c := range s.Counter {
			if c.Name == "thread_inst_executed" && inst > 0 && c.Value < 32*inst {
				atomic[fmt.Sprintf("%s:%d", s.File, s.Line)] = true
				// An atomicAdd inlined from the toolkit's header: the
				// user's line that calls it holds the branch around it
				// (fixtures/sol-check14's compact<0>, if (keep)
				// y[atomicAdd(count, 1u)] = v: 43 % of the idle lanes
				// on line 261, 52 % on the header's aggregation).
				if l, ok := callers[s.Address]; ok {
					atomic[fmt.Sprintf("%s:%d", l.File, l.Line)] = true
				}
			}
		}
	}
	var on float64
	for _, l := range ls {
		if atomic[fmt.Sprintf("%s:%d", l.loc.File, l.loc.Line)] {
			on += l.lost
		}
	}
	return on / total
}

// lostAt is the lane slots an instruction left masked off: 32 × its
// warp-level executions less its thread-level ones.
func lostAt(s profan.SourceRecord) float64 {
	inst := instExecuted(s)
	for _, c := range s.Counter {
		if c.Name == "thread_inst_executed" && inst > 0 && !math.IsNaN(c.Value) {
			return math.Max(0, 32*inst-c.Value)
		}
	}
	return 0
}

// guardedLoadMasked is the most instructions with lanes masked off that
// a branch region (a BSSY to its reconvergence point) may hold for
// guardedLoadLaneShare to read it as a guarded load: the load, its
// address arithmetic, the branches and the other side's move.
const guardedLoadMasked = 8

// guardedLoadLaneShare is the share of the kernel's masked-off lanes
// (thread_inst_executed against 32 × inst_executed) in branch regions
// that only guard a global load: a BSSY's region, no loop and no memory
// access in it but global loads, at most guardedLoadMasked instructions
// run with lanes off, a global load among them (v = m[i] ? x[i] : 0,
// fixtures/sol-check17's maskH<1>: the half's LDG and its address under
// the branch on the mask byte, the zero's PRMT on the other side, branch
// efficiency 50 %; its twin, eight halves a thread and the mask applied
// by selects, ran 0.73 faster by its width). The idle lanes there cost a
// few issue slots of a kernel that waits on memory, and the bytes the
// load moves are the whole warp's sectors either way; the access width,
// not the branch, is the fix.
func guardedLoadLaneShare(a *analysis.Kernel) float64 {
	recs, total := laneRecords(a)
	if !(total > 0) {
		return 0
	}
	var guarded float64
	for i, s := range recs {
		_, end, ok := bssyRegion(s)
		if !ok {
			continue
		}
		var lost float64
		masked, load, ok := 0, false, true
		for _, b := range recs[i+1:] {
			at := address(b.Address)
			if at >= end {
				break
			}
			op := opcode(b.SASS)
			base, _, _ := strings.Cut(op, ".")
			if base == "BRA" {
				if fb := strings.Fields(b.SASS); address(fb[len(fb)-1]) <= at {
					ok = false // a loop
				}
			}
			if memoryOp(op) && base != "LDG" || base == "CALL" {
				ok = false
			}
			if l := lostAt(b); l > 0 {
				lost += l
				masked++
				load = load || base == "LDG"
			}
		}
		if ok && load && masked <= guardedLoadMasked {
			guarded += lost
		}
	}
	return math.Min(1, guarded/total)
}

// exchangeLaneShare is the share of a kernel's idle lanes (masked off)
// on the lines of a warp's exchange through shared memory
// (analysis.WarpExchanges): the warp-synchronous tree's steps leave the
// lanes past each step's half idle (if (lane < 16) around the steps,
// fixtures/sol-check19's segStats<0>: 63.6 % warp execution efficiency,
// the idle lanes on its four statistics' lines). Shuffled, the steps
// issue for the whole warp as before (its __shfl_xor_sync twin, 0.41
// faster, by the exchange's requests: volatile-reread prices it); the
// idle lanes are the tree's, not a branch to remove.
func exchangeLaneShare(a *analysis.Kernel) float64 {
	x := analysis.WarpExchanges(a)
	if !(x.Loads > 0) {
		return 0
	}
	ls, total, _ := laneLoss(a, "thread_inst_executed")
	if !(total > 0) {
		return 0
	}
	var lost float64
	for _, l := range ls {
		if slices.Contains(x.Lines, l.loc.Line) {
			lost += l.lost
		}
	}
	return math.Min(1, lost/total)
}

// libraryBranchLaneShare is the share of a kernel's masked-off lanes
// (thread_inst_executed against 32 × inst_executed) in branch regions
// (a BSSY to its reconvergence point, no loop in it) whose every
// conditional branch tests a predicate a library function's own range
// split set: precise tanh's test of |x| against 0.6 (analysis.TanhBranch),
// its polynomial on one side and 1 − 2/(e^{2|x|} + 1) on the other,
// inlined from libdevice in Triton's SASS (fixtures/sol-check19's
// tanh_rec_precise: branch efficiency 50 %, warp execution efficiency
// 64 %, every masked lane on those two paths at line 94). The user has
// no branch there to make uniform; the lanes go with the call, which
// precise-math prices (tanh.approx.f32: one MUFU.TANH, no branch).
// Likewise a double-precision library function's range split
// (doubleWordTest: a float or integer test of a double's high word,
// libdevice's idiom, where the user's own double compares are DSETP):
// double log1p's series path for small x (a double division) against
// its log reduction, and their tests for zero, infinities and
// denormals (fixtures/sol-check27's sigmoidLL<0>: branch efficiency
// 80.4 %, 3.4 of 32 lanes on the log path in 97 % of the warps, every
// masked lane in log1p's code at line 357); fp64-on-float prices the
// call, whose float log1pf its fix is.
func libraryBranchLaneShare(a *analysis.Kernel) float64 {
	recs, total := laneRecords(a)
	if !(total > 0) {
		return 0
	}
	var lib float64
	dhi := doubleHighWords(recs)
	// setter is the instruction before i, by address, that last wrote
	// predicate pr (its first or second operand: FSETP P0, P1, ...,
	// IADD3 R0, P0, ...), -1 if none does.
	setter := func(i int, pr string) int {
		for j := i - 1; j >= 0; j-- {
			if f := sassOperands(recs[j].SASS); len(f) > 1 && (f[0] == pr || f[1] == pr) {
				return j
			}
		}
		return -1
	}
	for i, s := range recs {
		_, end, ok := bssyRegion(s)
		if !ok {
			continue
		}
		var lost float64
		tests, ok := 0, true
		for k := i + 1; k < len(recs) && ok; k++ {
			b := recs[k]
			at := address(b.Address)
			if at >= end {
				break
			}
			lost += lostAt(b)
			fb := strings.Fields(b.SASS)
			if base, _, _ := strings.Cut(opcode(b.SASS), "."); base != "BRA" {
				continue
			}
			if address(fb[len(fb)-1]) <= at {
				ok = false // a loop
				continue
			}
			if !strings.HasPrefix(fb[0], "@") {
				continue
			}
			j := setter(k, strings.TrimPrefix(strings.TrimPrefix(fb[0], "@"), "!"))
			ok = j >= 0 && (analysis.TanhBranch(recs[j].SASS) || doubleWordTest(recs, j, dhi))
			tests++
		}
		if ok && tests > 0 {
			lib += lost
		}
	}
	return math.Min(1, lib/total)
}

// bssyRegion is the span a BSSY opens, from its own address to the
// reconvergence point it names; ok is false for any other instruction
// and for a point not after it.
func bssyRegion(s profan.SourceRecord) (start, end uint64, ok bool) {
	if op := opcode(s.SASS); op != "BSSY" && !strings.HasPrefix(op, "BSSY.") {
		return 0, 0, false
	}
	f := strings.Fields(s.SASS)
	start, end = address(s.Address), address(f[len(f)-1])
	return start, end, end > start
}

// laneRecords is the kernel's SASS in address order and the lanes its
// divergence masks in all (lostAt summed).
func laneRecords(a *analysis.Kernel) (recs []profan.SourceRecord, total float64) {
	recs = addressOrder(a)
	for _, s := range recs {
		total += lostAt(s)
	}
	return recs, total
}

// doubleHighWords returns the registers that hold a double's high word
// in a kernel's SASS: Rk+1 of every register pair Rk a double-precision
// instruction (DADD, DMUL, DFMA, F2F.F64, MUFU.RCP64H's high half)
// writes.
func doubleHighWords(recs []profan.SourceRecord) map[string]bool {
	hi := map[string]bool{}
	for _, s := range recs {
		op := opcode(s.SASS)
		f := sassOperands(s.SASS)
		if len(f) == 0 || !strings.HasPrefix(f[0], "R") || f[0] == "RZ" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimPrefix(f[0], "R"))
		if err != nil {
			continue
		}
		switch {
		case strings.HasPrefix(op, "MUFU.RCP64H"):
			hi[f[0]] = true
		case strings.HasPrefix(op, "DADD"), strings.HasPrefix(op, "DMUL"), strings.HasPrefix(op, "DFMA"), strings.HasPrefix(op, "F2F.F64"):
			if n%2 == 0 {
				hi["R"+strconv.Itoa(n+1)] = true
			}
		}
	}
	return hi
}

// doubleWordTest reports whether recs[j] is a test (FSETP or ISETP)
// of a double's high word (hi, doubleHighWords) or of a value one
// instruction makes of one (VIADD R0, R7, -1 before ISETP.GE.U32 R0,
// 0x7fefffff: the exponent's range; FFMA R0, RZ, R9, R7 before
// FSETP.GT |R0|: a division's quotient in range): how libdevice's
// double functions split their ranges, by the bits of the exponent
// (fixtures/sol-check27's sigmoidLL<0>, log1p's FSETP.LT of the high
// word against 1.79 and FSETP.GT against -1.7). The user's compare of
// doubles is a DSETP.
func doubleWordTest(recs []profan.SourceRecord, j int, hi map[string]bool) bool {
	op := opcode(recs[j].SASS)
	if !strings.HasPrefix(op, "FSETP") && !strings.HasPrefix(op, "ISETP") {
		return false
	}
	reg := func(o string) string { return strings.Trim(o, "|-!") }
	f := sassOperands(recs[j].SASS)
	for _, o := range f[min(len(f), 2):] {
		r := reg(o)
		if !strings.HasPrefix(r, "R") || r == "RZ" {
			continue
		}
		if hi[r] {
			return true
		}
		// the last writer of r before the test, one step back
		for k := j - 1; k >= 0; k-- {
			g := sassOperands(recs[k].SASS)
			if len(g) == 0 || g[0] != r {
				continue
			}
			for _, x := range g[1:] {
				if hi[reg(x)] {
					return true
				}
			}
			break
		}
	}
	return false
}
