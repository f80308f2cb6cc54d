package rules

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/sass"
)

// casLoop reports a compare-and-swap loop that adds floating-point values,
// or takes their maximum or minimum, or adds integers (an int64 tally by
// atomicCAS on its word), which the GPU's own atomicAdd (or an integer
// atomicMax/atomicMin on the values' bits) does in one reduction.
var casLoop = &Rule{
	ID:    "cas-loop",
	Title: "A compare-and-swap loop where atomicAdd would do",
	Text: `A float or double add written as an atomicCAS loop reads the word, adds, and
swaps the sum back: per element a load and an atomic that returns a value, two
requests to L2 (more when another thread got there first and the loop runs
again). atomicAdd on float (and on double, compute capability 6.0 and later) is
one reduction the L2 performs in place and returns nothing when its result is
unused (RED): one request per element, and no retries. The same holds for a
64-bit integer add written as a CAS loop on the word: atomicAdd on unsigned
long long adds a signed value's two's-complement bits alike.`,
	Before: `unsigned old = *u, assumed;
do {
    assumed = old;
    old = atomicCAS(u, assumed, __float_as_uint(__uint_as_float(assumed) + v));
} while (assumed != old);`,
	After:       `atomicAdd(p, v);   // RED.E.ADD.F32: one L2 request, no return`,
	Severity:    profan.Warning,
	Cause:       CauseAtomics,
	Scope:       Source,
	Locates:     true,
	NeedsSource: true,
	Requires:    []string{"duration"},
	Optional:    usageReads,
	Check: func(p *Pass) {
		c, ok := casReduce(p.Kernel)
		if !ok {
			return
		}
		t, _ := p.Value("duration")
		us, okU := usageOf(p)
		if !okU || !(t > 0) || !(c.before > 0) {
			return
		}
		// L2 serves a request per line it looks up: the loop's read and
		// its CAS each one per element at scattered addresses, the
		// reduction one.
		// The L1 passes the same requests on to L2 (its tag stage one a
		// request), so it keeps the same share of them; the SM's pipes
		// keep the instructions outside the loop, and the loop's body
		// once a warp in place of once an attempt. A loop that retries
		// on contended addresses (fixtures/sol-check10's casAddD<0>: 99
		// attempts an element on 1024 bins) spends its time in the
		// retries on every unit, not in L2 alone.
		f := (c.before - c.removed) / c.before
		sc := scale{analysis.LimitL2: f, analysis.LimitMemory: f, analysis.LimitL1Shared: f, analysis.LimitPipe: c.instKept}
		// L2's throughput is its busiest sub-unit's. A CAS loop's can
		// be one its compare-and-return round trips fill above its tag
		// lookups, which ncu's memory throughput reads (at most: it is
		// the busiest of the memory units); the reductions keep f of
		// the lookups and need none of that: a RED kernel's L2
		// throughput is its lookups' (fixtures/sol-check2: the CAS add
		// loop at 96 % of L2 with its lookups at 70 %; its atomicAdd
		// twin at 95 % and 95 %).
		// Reductions whose lanes update neighbouring words come a
		// sector-wide request each, which the atomic unit serves above
		// its lookups as the CAS did: fixtures/sol-check30's crossMin<1>
		// (atomicMin a slot, coalesced) ran L2 at 74 % with its lookups
		// at 44.5 %, its CAS twin at 92.9 % and 50.2 %; there the excess
		// scales with the requests (fitted after that set's read).
		if mem, ok := p.Value("memory_throughput_pct"); ok && mem >= 0 && !c.sectorWide {
			if l2 := us[analysis.LimitL2]; mem/100 < l2 {
				sc[analysis.LimitL2] = f * mem / 100 / l2
			}
		}
		after := us.timeAfter(sc)
		gain := clamp01((1 - after) * variableShare(p))
		p.report(estimate(gain), Note{
			Message: fmt.Sprintf("a compare-and-swap loop %s %s values: %.3g loads and %.3g compare-and-swaps (%.2f per element) where %s needs %.3g reductions; %.0f%% of the kernel's L2 requests go",
				c.verb(), c.kind, c.elements, c.cas, c.cas/c.elements, c.atomic(), c.elements, 100*c.removed/c.before),
			Advice:    c.advice(),
			Evidence:  p.evidence("l2_sol_pct", "memory_throughput_pct", "duration"),
			Locations: linesOf(p.Kernel, func(op string) bool { return isCAS(op) }),
		})
	},
}

// casWork is what a compare-and-swap add loop asks of L2.
type casWork struct {
	kind                 string  // "float", "double", "64-bit integer" or "32-bit integer"
	minmax               bool    // the swapped value is a maximum or minimum (FMNMX, DMNMX), not a sum
	wrap                 bool    // the swapped value is old + 1, or 0 once old reaches a bound (atomicInc)
	ctype                string  // an integer maximum's C type ("unsigned long long", "int", ...); "" for the others
	loads, cas, elements float64 // the loop's reads and CAS operations, and the elements (its first reads)
	casOps, reductions   float64 // the CAS operations' L2 line requests, and the reductions' an atomic in their place
	sectorWide           bool    // the lanes update neighbouring words: a request a sector, not a lane
	before, removed      float64 // the kernel's L2 line requests, and those atomicAdd removes
	instKept             float64 // the share of the kernel's warp instructions atomicAdd keeps
}

func isCAS(op string) bool {
	return (strings.HasPrefix(op, "ATOMG") || strings.HasPrefix(op, "ATOM.")) && strings.Contains(op, ".CAS")
}

func (c casWork) verb() string {
	if c.wrap {
		return "increments, wrapping to 0 at a bound,"
	}
	if c.minmax {
		return "takes the maximum (or minimum) of"
	}
	return "adds"
}

func (c casWork) atomic() string {
	if c.wrap {
		return "atomicInc"
	}
	if c.minmax {
		return "atomicMax/atomicMin"
	}
	return "atomicAdd"
}

func (c casWork) advice() string {
	if c.wrap {
		return "replace the loop with atomicInc(p, bound) on the unsigned word: it returns the old value and stores old >= bound ? 0 : old + 1 in one atomic in L2, no read before it and no retries"
	}
	if c.ctype != "" {
		return fmt.Sprintf("replace the loop with atomicMax (or atomicMin) on the %s: one atomic in L2 that compares and stores in place (a reduction, RED, when the returned value is unused), no read before it and no retries", c.ctype)
	}
	switch c.kind {
	case "64-bit integer":
		return "replace the loop with atomicAdd on unsigned long long (one reduction in L2, RED, when the returned value is unused): a signed sum's two's-complement bits are the unsigned sum's, so cast the pointer and the value"
	case "32-bit integer":
		return "replace the loop with atomicAdd on the int (one reduction in L2, RED, when the returned value is unused)"
	}
	if c.minmax {
		return fmt.Sprintf("replace the loop with an integer atomicMax/atomicMin on the %s's bits (one reduction in L2, RED): for values ≥ 0 atomicMax on their bits as signed integers; for either sign atomicMax on the signed bits when v ≥ 0 and atomicMin on the unsigned bits when v < 0", c.kind)
	}
	return fmt.Sprintf("replace the loop with atomicAdd on the %s (one reduction in L2, RED, when the returned value is unused)", c.kind)
}

// casReduce finds a global compare-and-swap loop whose swapped value is a
// floating-point add, maximum or minimum (an FADD, DADD, FMNMX or DMNMX
// executed as often as the CAS), or an integer add (casIntAdd), and
// reads the loop's read (the load of the word the CAS updates) from the
// memory model. The kernel's L2 requests are its global instructions'
// lines: a line per sector where each lane reads its own line (32 sectors
// per request), else one per four sectors; each CAS and each reduction is
// a request. atomicAdd removes the read's and the CAS's requests and adds
// one reduction per element.
func casReduce(a *analysis.Kernel) (casWork, bool) {
	var w casWork
	var casInst, warps, casWarps, casSectors float64
	for _, s := range instructions(a) {
		if op := opcode(s.SASS); isCAS(op) {
			w.cas += predOn(s)
			if n, ok := counterValue(s, "memory_l2_theoretical_sectors_global"); ok {
				casSectors += n
			}
			casWarps += instExecuted(s)
			casInst = math.Max(casInst, instExecuted(s))
		}
	}
	if !(w.cas > 0) {
		return w, false
	}
	for _, s := range a.Record.Source {
		op := opcode(s.SASS)
		if instExecuted(s) != casInst {
			continue
		}
		switch {
		case strings.HasPrefix(op, "FADD"):
			w.kind = "float"
		case strings.HasPrefix(op, "DADD"):
			w.kind = "double"
		case strings.HasPrefix(op, "FMNMX"):
			w.kind, w.minmax = "float", true
		case strings.HasPrefix(op, "DMNMX"):
			w.kind, w.minmax = "double", true
		}
	}
	if w.kind == "" && casIncWrap(a.Record.Source, casInst) {
		w.kind, w.wrap = "32-bit integer", true
	}
	if w.kind == "" {
		w.kind = casIntAdd(a.Record.Source, casInst)
	}
	if w.kind == "" {
		if w.ctype = casIntMax(a.Record.Source, casInst); w.ctype == "" {
			w.ctype = casGuardedMinMax(a.Record.Source, casInst)
		}
		if w.ctype != "" {
			w.kind, w.minmax = "32-bit integer", true
			if strings.Contains(w.ctype, "long long") {
				w.kind = "64-bit integer"
			}
		}
	}
	if w.kind == "" {
		return w, false
	}
	seenIn := map[string]bool{}
	for _, in := range a.Model.Instructions {
		if in.Space != "global" || !(in.Sectors > 0) || seenIn[in.Address] {
			continue
		}
		seenIn[in.Address] = true
		lines := in.Sectors / 4
		if in.SectorsPerRequest >= 0.9*32 {
			lines = in.Sectors
		}
		w.before += lines
		if in.AtomicRead {
			w.loads += in.Sectors
			w.removed += lines
			w.reductions += math.Min(lines, in.Requests*math.Min(32, in.SectorsPerRequest))
			w.sectorWide = w.sectorWide || lines < in.Sectors
			w.elements += threadsAt(a, in.Address)
			warps += in.Requests
		}
	}
	if !(w.loads > 0) {
		return w, false
	}
	// A CAS whose lanes each update their own line is a request a lane;
	// one whose neighbouring lanes update neighbouring words is counted
	// as the loads are, a line per four of its sectors, and so are the
	// reductions in its place (fixtures/sol-check30's crossMin<0>, an int
	// minimum a slot, coalesced: 2.02e6 sectors, ncu's L2 atomic
	// operations, for 8.73e6 lanes' CASes in 5.2e5 warps' instructions).
	// Where the page has no sectors for the CAS, a lane's is a request.
	// Fitted after that set's read.
	w.casOps = w.cas
	if casSectors > 0 && casWarps > 0 && casSectors/casWarps < 0.9*w.cas/casWarps {
		w.casOps = casSectors / 4
	}
	if !(w.elements > 0) {
		w.elements = w.reductions
	}
	w.reductions = math.Min(w.reductions, w.casOps)
	w.before += w.casOps
	w.removed += w.casOps - w.reductions
	w.instKept = loopInstKept(a, casInst, warps)
	return w, true
}

// casIntAdd reads an integer add as the value a compare-and-swap loop
// swaps in: the CAS's new value (its last operand) written by an IADD3
// executed as often as the CAS, and for a 64-bit CAS the pair's high
// register by the carry's add (IADD3.X, or LEA.HI.X when the addend is
// sign-extended from 32 bits, IMAD.X): "64-bit integer" or
// "32-bit integer", "" for none. fixtures/sol-check24's tallyI64<0>,
// int64 tallies by atomicCAS on the account's word: IADD3 R14, P0, R11,
// R8, RZ and LEA.HI.X.SX32 R15, R11, R9, 0x1, P0 into ATOMG.E.CAS.64
// ... R12, R14. A 32-bit add may be the compiler's IMAD.IADD (a·1 + c,
// no carry out, so never a 64-bit add's low half): fixtures/sol-check25's
// byteCount<0>, byte-wide counters bumped on their word, IMAD.IADD R9,
// R7, 0x1, R8 into ATOMG.E.CAS ... R8, R9.
func casIntAdd(code []profan.SourceRecord, casInst float64) string {
	newVal, hi, wide, ok := casNewValue(code, casInst)
	if !ok {
		return ""
	}
	var lo, carry bool
	for s := range sass.Instructions(code) {
		if instExecuted(s) != casInst {
			continue
		}
		op, f := opcode(s.SASS), sassOperands(s.SASS)
		if len(f) == 0 {
			continue
		}
		switch {
		case strings.HasPrefix(op, "IADD3.X") || strings.HasPrefix(op, "LEA.HI.X") || strings.HasPrefix(op, "IMAD.X"):
			carry = carry || f[0] == hi
		case strings.HasPrefix(op, "IADD3"), op == "IMAD.IADD" && !wide:
			lo = lo || f[0] == newVal
		}
	}
	switch {
	case lo && wide && carry:
		return "64-bit integer"
	case lo && !wide:
		return "32-bit integer"
	}
	return ""
}

// casNewValue is the register the compare-and-swap executed casInst
// times swaps in (its last operand), the high register of its pair (a
// 64-bit CAS swaps in two: the next register holds the high half), and
// whether the CAS is 64-bit; false when the new value is no register.
func casNewValue(code []profan.SourceRecord, casInst float64) (newVal, hi string, wide, ok bool) {
	for s := range sass.Instructions(code) {
		if op := opcode(s.SASS); isCAS(op) && instExecuted(s) == casInst {
			if f := sassOperands(s.SASS); len(f) > 0 {
				newVal, wide = strings.Trim(f[len(f)-1], "[]"), strings.Contains(op, ".64")
			}
		}
	}
	n, err := strconv.Atoi(strings.TrimPrefix(newVal, "R"))
	if !strings.HasPrefix(newVal, "R") || err != nil {
		return "", "", false, false
	}
	return newVal, "R" + strconv.Itoa(n+1), wide, true
}

// casIntMax reads an integer maximum or minimum as the value a
// compare-and-swap loop swaps in, what atomicMax/atomicMin computes in
// one atomic: the CAS's new value (its last operand; for a 64-bit CAS
// the pair's high register too) a SEL between the two operands of an
// ordered compare (GT, GE, LT, LE) that sets the SEL's predicate, each
// executed as often as the CAS. It returns the C type atomicMax takes,
// from the compare's signedness (for a 64-bit pair the high half's, the
// .EX compare's: the low half is always compared unsigned), "" for none.
// fixtures/sol-check29's lastSeen<0>, a 64-bit (time << 32 | event)
// max by atomicCAS: ISETP.GT.U32.AND P0, PT, R10, R13, PT; ISETP.GT.U32.
// AND.EX P0, PT, R11, R15, PT, P0; SEL R6, R10, R13, P0; SEL R7, R11,
// R15, P0 into ATOMG.E.CAS.64.STRONG.GPU PT, R4, [R8], R4, R6.
func casIntMax(code []profan.SourceRecord, casInst float64) string {
	newVal, hi, wide, ok := casNewValue(code, casInst)
	if !ok {
		return ""
	}
	type cmp struct {
		a, b     string
		unsigned bool
	}
	cmps := map[string][]cmp{} // a predicate's ordered compares
	type sel struct{ a, b, p string }
	sels := map[string]sel{} // the SELs writing newVal and hi
	for s := range sass.Instructions(code) {
		if instExecuted(s) != casInst {
			continue
		}
		op, f := opcode(s.SASS), sassOperands(s.SASS)
		switch {
		case strings.HasPrefix(op, "ISETP.") && len(f) >= 4:
			for _, o := range []string{".GT", ".GE", ".LT", ".LE"} {
				if strings.HasPrefix(op, "ISETP"+o) {
					cmps[f[0]] = append(cmps[f[0]], cmp{f[2], f[3], strings.Contains(op, ".U32")})
				}
			}
		case op == "SEL" && len(f) >= 4 && (f[0] == newVal || wide && f[0] == hi):
			sels[f[0]] = sel{f[1], f[2], strings.TrimPrefix(f[3], "!")}
		}
	}
	// picks says whether a SEL chooses between the two values one of its
	// predicate's compares ordered, and with that compare's signedness.
	picks := func(r string) (bool, bool) {
		s, ok := sels[r]
		if !ok {
			return false, false
		}
		for _, c := range cmps[s.p] {
			if c.a == s.a && c.b == s.b || c.a == s.b && c.b == s.a {
				return true, c.unsigned
			}
		}
		return false, false
	}
	ok, unsigned := picks(newVal)
	if wide {
		ok, unsigned = picks(hi)
		if lo, _ := picks(newVal); !lo {
			ok = false
		}
	}
	switch {
	case !ok:
		return ""
	case wide && unsigned:
		return "unsigned long long"
	case wide:
		return "long long"
	case unsigned:
		return "unsigned int"
	}
	return "int"
}

// casGuardedMinMax reads an integer maximum or minimum swapped in under
// a guard, what atomicMax/atomicMin computes in one atomic: a 32-bit
// compare-and-swap whose new value (its last operand) is the value itself,
// swapped in only while an ordered compare (GT, GE, LT, LE) of it with the
// compared value (its second last operand, the word read) leaves the loop
// (a predicated EXIT or BRA) once the word is already as small, or as
// large. The compare heads the loop, so it runs at least as often as the
// CAS: once an attempt, and once more for each warp that leaves with no
// CAS. It returns the C type atomicMax takes, from the compare's
// signedness, "" for none. fixtures/sol-check30's crossMin<0>, an int
// minimum a slot (while (v < old) old = atomicCAS(a, old, v)):
// ISETP.GE.AND P0, PT, R7, R6, PT; @P0 EXIT; ATOMG.E.CAS.STRONG.GPU PT,
// R5, [R2], R6, R7, the loop branching back while R5 is not R6. Fitted
// after the set's read.
func casGuardedMinMax(code []profan.SourceRecord, casInst float64) string {
	var cmp, newVal string
	for s := range sass.Instructions(code) {
		if op := opcode(s.SASS); isCAS(op) && !strings.Contains(op, ".64") && instExecuted(s) == casInst {
			if f := sassOperands(s.SASS); len(f) >= 2 {
				cmp, newVal = f[len(f)-2], f[len(f)-1]
			}
		}
	}
	if !strings.HasPrefix(cmp, "R") || !strings.HasPrefix(newVal, "R") || cmp == "RZ" || newVal == "RZ" || cmp == newVal {
		return ""
	}
	prog := sass.ByAddress(slices.Collect(sass.Instructions(code)))
	// guards says whether the predicate the k-th instruction sets is
	// read by a branch or an exit before another instruction sets it.
	guards := func(k int, pr string) bool {
		for _, s := range prog[k+1:] {
			if g, ok := strings.CutPrefix(strings.TrimSpace(s.SASS), "@"); ok {
				if f := strings.Fields(g); len(f) >= 2 && strings.TrimPrefix(f[0], "!") == pr && (strings.HasPrefix(f[1], "EXIT") || strings.HasPrefix(f[1], "BRA")) {
					return true
				}
			}
			if op, f := opcode(s.SASS), sassOperands(s.SASS); strings.Contains(op, "SETP") && len(f) > 0 && f[0] == pr {
				return false
			}
		}
		return false
	}
	for k, s := range prog {
		op, f := opcode(s.SASS), sassOperands(s.SASS)
		if !strings.HasPrefix(op, "ISETP.") || strings.Contains(op, ".EX") || len(f) < 4 || !(instExecuted(s) >= casInst) || !guards(k, f[0]) {
			continue
		}
		if !(f[2] == newVal && f[3] == cmp || f[2] == cmp && f[3] == newVal) {
			continue
		}
		for _, o := range []string{".GT", ".GE", ".LT", ".LE"} {
			if strings.HasPrefix(op, "ISETP"+o) {
				if strings.Contains(op, ".U32") {
					return "unsigned int"
				}
				return "int"
			}
		}
	}
	return ""
}

// casIncWrap reads a wrapping increment as the value a 32-bit
// compare-and-swap loop swaps in, what atomicInc(p, bound) computes in
// one atomic: the CAS's new value (its last operand) a SEL of the
// compared value (its second last, the word read) plus one, or zero
// once an unsigned compare of the compared value finds it at the bound
// or past it, each executed as often as the CAS. fixtures/sol-check27's
// ringTicket<0>, tickets taken mod a ring's size by atomicCAS on one of
// 4096 counters: VIADD R9, R8, 0x1; ISETP.GE.U32.AND P0, PT, R8, UR4,
// PT; SEL R9, R9, RZ, !P0 into ATOMG.E.CAS.STRONG.GPU PT, R9, [R4], R8,
// R9, the loop branching back while the returned word is not R8.
func casIncWrap(code []profan.SourceRecord, casInst float64) bool {
	var cmp, newVal string
	for s := range sass.Instructions(code) {
		if op := opcode(s.SASS); isCAS(op) && !strings.Contains(op, ".64") && instExecuted(s) == casInst {
			if f := sassOperands(s.SASS); len(f) >= 2 {
				cmp, newVal = f[len(f)-2], f[len(f)-1]
			}
		}
	}
	if !strings.HasPrefix(cmp, "R") || !strings.HasPrefix(newVal, "R") || cmp == "RZ" {
		return false
	}
	inc := map[string]bool{}     // registers holding cmp + 1
	atBound := map[string]bool{} // predicates set when cmp >= a bound (unsigned)
	for s := range sass.Instructions(code) {
		if instExecuted(s) != casInst {
			continue
		}
		op, f := opcode(s.SASS), sassOperands(s.SASS)
		switch {
		case (op == "VIADD" || op == "IADD3") && len(f) >= 3:
			one := f[1] == cmp && f[2] == "0x1" || f[2] == cmp && f[1] == "0x1"
			if one && (op == "VIADD" || len(f) >= 4 && f[3] == "RZ") {
				inc[f[0]] = true
			}
		case strings.HasPrefix(op, "ISETP.GE.U32") && len(f) >= 4:
			if f[2] == cmp {
				atBound[f[0]] = true
			}
		case op == "SEL" && len(f) >= 4 && f[0] == newVal:
			p := f[3]
			switch {
			case strings.HasPrefix(p, "!") && atBound[p[1:]] && inc[f[1]] && f[2] == "RZ":
				return true
			case atBound[p] && f[1] == "RZ" && inc[f[2]]:
				return true
			}
		}
	}
	return false
}

// loopInstKept is the share of a kernel's warp instructions left when the
// loop whose body runs casInst times (each instruction executed as often
// as the CAS) runs once for each of its warps instead.
func loopInstKept(a *analysis.Kernel, casInst, warps float64) float64 {
	var total, loop float64
	for _, s := range instructions(a) {
		n := instExecuted(s)
		total += n
		if n == casInst {
			loop += n
		}
	}
	if !(total > 0) || !(casInst > 0) {
		return 1
	}
	return clamp01((total - loop + loop*math.Min(1, warps/casInst)) / total)
}

// threadsAt is the thread instructions executed with their predicate on
// of the instruction at addr (once, where the page lists it twice).
func threadsAt(a *analysis.Kernel, addr string) float64 {
	for _, s := range instructions(a) {
		if s.Address == addr {
			return predOn(s)
		}
	}
	return 0
}

// predOn is a source record's thread instructions executed with their
// predicate on.
func predOn(s profan.SourceRecord) float64 {
	for _, c := range s.Counter {
		if c.Name == "thread_inst_executed_pred_on" && !math.IsNaN(c.Value) {
			return c.Value
		}
	}
	return 0
}
