package rules

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/sass"
)

// intDivision reports kernels whose issue slots go to integer division or
// modulo by a value known only at run time: a 32-bit one is a reciprocal on
// the XU pipe (I2F.RP, MUFU.RCP, F2I) and a dozen integer instructions
// around it, a 64-bit one a call to a subroutine of about seventy.
var intDivision = &Rule{
	ID:    "int-division",
	Title: "Integer division or modulo by a run-time value",
	Text: `The GPU has no integer divide instruction: x / d and x % d with d known only at run
time compile to a float reciprocal on the slow XU pipe and about a dozen
instructions that correct it, and in 64-bit arithmetic (long long, size_t
indices) to a call to a subroutine of about seventy. In a loop, an index
computation or a reduction's index test (tid % (2*s) == 0) they can take most of
the kernel's issue slots. Do index arithmetic in 32 bits where the values fit,
divide by powers of two with shifts and masks, index so no modulo is needed
(2*s*tid), hoist the division out of the loop, or precompute the reciprocal once
(a multiply-high and a shift).`,
	Before: `if (tid % (2 * s) == 0) s_data[tid] += s_data[tid + s];`,
	After: `unsigned i = 2 * s * tid;
if (i < blockDim.x) s_data[i] += s_data[i + s];`,
	Severity:    profan.Warning,
	Cause:       CauseCompute,
	Scope:       Algorithm,
	Locates:     true,
	NeedsSource: true,
	Requires:    []string{"compute_throughput_pct"},
	Optional:    join(usageReads, []string{"duration"}, waveFloorReads),
	Check:       checkIntDivision,
}

// divisionLine is a source line that divides: the instructions it executed
// (with the subroutine it calls), and which kind of division it is.
type divisionLine struct {
	loc    profan.Location
	inst   float64 // the line's instructions, its division subroutine's included
	sub    float64 // of which in a 64-bit division subroutine
	calls  float64 // the subroutine calls the line made (warp-level)
	wide   bool    // a 64-bit division (a subroutine call)
	narrow bool    // a 32-bit division inline (its reciprocal on the line)
	// shared: a 32-bit division or modulo by a divisor whose reciprocal
	// another line computed (its multiply-high and corrections here).
	shared bool
	// path is the 64-bit divisions the line reached (warp-level): the
	// branch that tests whether both operands fit 32 bits, before the
	// call to the 64-bit subroutine, each time it executed.
	path float64
	// inline is the part of path whose call never ran: divisions that
	// always took their 32-bit path, their operands fitting 32 bits.
	inline float64
	// modular: the kernel's 64-bit divisions feed each other (modular
	// arithmetic, modularRecurrence): their values need 64 bits, and the
	// fix is a reduction by a multiply-high, not a 32-bit division.
	modular bool
}

// divisionLines reads the source page's SASS: lines whose instructions
// start a 32-bit division's reciprocal (I2F.U32.RP, I2F.RP when signed)
// and lines that call the 64-bit division subroutine (a CALL.REL to code
// holding I2F.U64.RP), whose instructions count on the calling line, as
// ncu files them under the function's last line. total is every
// instruction the kernel executed.
func divisionLines(a *analysis.Kernel) (lines []*divisionLine, total float64) {
	recs, at := sassRecords(a)
	subs, inSub := callTargets(recs, at)
	byLine := newPerLine(func(loc profan.Location) *divisionLine { return &divisionLine{loc: loc} })
	for i, s := range recs {
		n := instExecuted(s)
		total += n
		if inSub[i] {
			continue
		}
		l := byLine.at(s)
		l.inst += n
		l.note(s, n, subs)
		w := wideTest(recs, i, subs)
		l.path += w
		if n <= 0 {
			l.inline += w
		}
	}
	sharedReciprocals(recs, inSub, byLine)
	modular := false
	for _, sr := range subs {
		if sr.division && sr.wide {
			modular = modularRecurrence(a, subs)
			break
		}
	}
	merged := map[string]*divisionLine{}
	for _, l := range byLine.order {
		if !(l.narrow || l.sub > 0 || l.shared && lineDivides(a.Record.Source, l.loc)) || l.loc.Line <= 0 {
			continue
		}
		l.modular = l.wide && modular
		l.loc.Line = dividingLine(a.Record.Source, l.loc)
		key := fmt.Sprintf("%s:%d", l.loc.File, l.loc.Line)
		if m := merged[key]; m != nil {
			m.merge(l)
			continue
		}
		merged[key] = l
		lines = append(lines, l)
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].inst > lines[j].inst })
	return lines, total
}

// sharedReciprocals marks the lines that divide by a reciprocal another
// line computed: an IMAD.HI.U32 reading a register a line with a 32-bit
// division's I2F.RP wrote last in program order. The compiler computes
// a divisor's reciprocal once for every division by it, so a second
// line dividing by w has the multiply-high and the corrections but no
// I2F.RP of its own (fixtures/sol-check15's lifeTorus<0>: c = i % w on
// line 288-289 computes w's, and (c + dc + w) % w on line 304, 75 M of
// the kernel's 400 M instructions, reuses it).
func sharedReciprocals(recs []profan.SourceRecord, inSub map[int]bool, byLine *perLine[divisionLine]) {
	narrow := false
	for _, l := range byLine.order {
		narrow = narrow || l.narrow
	}
	if !narrow {
		return
	}
	var own []profan.SourceRecord
	for i, s := range recs {
		if !inSub[i] {
			own = append(own, s)
		}
	}
	fromDivision := map[int]bool{} // registers a dividing line wrote last
	for _, s := range sass.ByAddress(own) {
		l := byLine.at(s)
		if op, args := analysis.SASSFields(s.SASS); !l.narrow && strings.HasPrefix(op, "IMAD.HI.U32") && len(args) > 2 {
			for _, a := range args[1:3] {
				for _, r := range analysis.SASSRegs(a) {
					l.shared = l.shared || fromDivision[r]
				}
			}
		}
		if d, ok := writtenReg(s.SASS); ok {
			fromDivision[d] = l.narrow
		}
	}
}

// lineDivides reports whether the text of loc's line on the source page
// divides (false when the page has no text for it).
func lineDivides(src []profan.SourceRecord, loc profan.Location) bool {
	for _, s := range src {
		if s.File == loc.File && s.Line == loc.Line && s.Address == "" && s.Source != "" {
			return divides(s.Source)
		}
	}
	return false
}

// merge adds the division of line o, filed under l's line, to l.
func (l *divisionLine) merge(o *divisionLine) {
	l.inst += o.inst
	l.sub += o.sub
	l.calls += o.calls
	l.path += o.path
	l.inline += o.inline
	l.wide = l.wide || o.wide
	l.narrow = l.narrow || o.narrow
	l.shared = l.shared || o.shared
	l.modular = l.modular || o.modular
	if l.loc.SASS == "" {
		l.loc.SASS = o.loc.SASS
	}
}

// dividingLine is the source line a division filed under loc belongs
// to: loc's own line when its text divides (a / or % operator), or the
// text is unknown; else the nearest line of the same file on the kernel's
// source page whose text divides and whose instructions executed. The
// compiler files an unrolled loop's 64-bit division, its call and its
// 32-bit path under the lines around the one that divides
// (fixtures/sol-check10's bucketMod<unsigned long long>: the CALL.RELs
// of `acc += unsigned(h % buckets)` on line 250 under lines 246 and 251,
// the hash's; sol-check8's tsSplit<0>: `t / d` on 258, its calls under
// 254 and 260).
func dividingLine(src []profan.SourceRecord, loc profan.Location) int {
	text := map[int]string{}
	ran := map[int]bool{}
	for _, s := range src {
		if s.File != loc.File || s.Line <= 0 {
			continue
		}
		if s.Source != "" && s.Address == "" || text[s.Line] == "" {
			text[s.Line] = s.Source
		}
		ran[s.Line] = ran[s.Line] || instExecuted(s) > 0
	}
	if t := text[loc.Line]; t == "" || divides(t) {
		return loc.Line
	}
	best := loc.Line
	for line, t := range text {
		if !ran[line] || !divides(t) {
			continue
		}
		d, bd := abs(line-loc.Line), abs(best-loc.Line)
		if best == loc.Line || d < bd || d == bd && line < best {
			best = line
		}
	}
	return best
}

// divides reports whether a line of C++ divides: a / or % operator (or
// /=, %=) outside comments and string literals.
func divides(line string) bool {
	inStr := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inStr != 0:
			if c == '\\' {
				i++
			} else if c == inStr {
				inStr = 0
			}
		case c == '"' || c == '\'':
			inStr = c
		case c == '/' && i+1 < len(line) && line[i+1] == '/':
			return false
		case c == '/' && i+1 < len(line) && line[i+1] == '*':
			end := strings.Index(line[i+2:], "*/")
			if end < 0 {
				return false
			}
			i += end + 3
		case c == '/' || c == '%':
			return true
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// sassRecords is the source page's SASS instructions, each address once
// in page order, and the index of each address among them: shared
// (sass.Code), read-only.
func sassRecords(a *analysis.Kernel) (recs []profan.SourceRecord, at map[string]int) {
	return analysis.SASSOf(a).Records()
}

// subroutine is the code a CALL.REL reaches, from its target to its RET:
// the instructions it executed, the calls made to it, and whether it
// divides (in 64 bits: wide).
type subroutine struct {
	inst, calls float64
	division    bool
	wide        bool
}

// callTarget is the lowercased address a CALL.REL jumps to.
func callTarget(sass string) string {
	f := strings.Fields(sass)
	return strings.ToLower(f[len(f)-1])
}

// callTargets reads the subroutines the kernel's CALL.RELs reach, by
// target address, and which records belong to one.
func callTargets(recs []profan.SourceRecord, at map[string]int) (map[string]*subroutine, map[int]bool) {
	subs := map[string]*subroutine{}
	inSub := map[int]bool{}
	for _, s := range recs {
		if !strings.HasPrefix(opcode(s.SASS), "CALL.REL") {
			continue
		}
		target := callTarget(s.SASS)
		sr := subs[target]
		if sr == nil {
			sr = &subroutine{}
			subs[target] = sr
			if i, ok := at[target]; ok {
				sr.read(recs, i, inSub)
			}
		}
		sr.calls += instExecuted(s)
	}
	return subs, inSub
}

// read reads the subroutine that starts at recs[i], marking its records.
func (sr *subroutine) read(recs []profan.SourceRecord, i int, inSub map[int]bool) {
	for j := i; j < len(recs); j++ {
		inSub[j] = true
		o := opcode(recs[j].SASS)
		sr.inst += instExecuted(recs[j])
		if strings.HasPrefix(o, "I2F") && strings.Contains(o, ".RP") {
			sr.division = true
			sr.wide = sr.wide || strings.Contains(o, "64")
		}
		if strings.HasPrefix(o, "RET") {
			break
		}
	}
}

// note records what instruction s of the line (executed n times) says of
// its division: a 32-bit one's reciprocal, or a call to a dividing
// subroutine, whose instructions the line takes in proportion to its
// share of the calls.
func (l *divisionLine) note(s profan.SourceRecord, n float64, subs map[string]*subroutine) {
	if n <= 0 {
		return
	}
	op := opcode(s.SASS)
	switch {
	case strings.HasPrefix(op, "I2F") && strings.Contains(op, ".RP"):
		l.narrow = true
		if l.loc.SASS == "" {
			l.loc.SASS = strings.TrimSpace(s.SASS)
		}
	case strings.HasPrefix(op, "CALL.REL"):
		sr := subs[callTarget(s.SASS)]
		if sr == nil || !sr.division || sr.calls <= 0 {
			return
		}
		part := sr.inst * n / sr.calls
		l.inst += part
		l.sub += part
		l.calls += n
		l.wide = l.wide || sr.wide
		if !l.narrow || l.loc.SASS == "" {
			l.loc.SASS = strings.TrimSpace(s.SASS) + " (64-bit division subroutine)"
		}
	}
}

// wideTest is how often the 64-bit division whose subroutine call is
// recs[i] was reached: the executions of the branch just before the
// call, which skips it when both operands fit 32 bits (a 32-bit
// division inline instead). 0 when recs[i] calls no 64-bit division.
func wideTest(recs []profan.SourceRecord, i int, subs map[string]*subroutine) float64 {
	if !strings.HasPrefix(opcode(recs[i].SASS), "CALL.REL") {
		return 0
	}
	if sr := subs[callTarget(recs[i].SASS)]; sr == nil || !sr.division || !sr.wide {
		return 0
	}
	// The branch guards the call a few instructions back: the call's
	// arguments (the operands' two words, the return address) are moved
	// between them, up to seven on fixtures/sol-check4's unravel.
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		if strings.HasPrefix(opcode(recs[j].SASS), "BRA") {
			if j < i-3 && !strings.HasPrefix(strings.TrimSpace(recs[j].SASS), "@") {
				return 0 // another path's jump, not the call's guard
			}
			return instExecuted(recs[j])
		}
	}
	return 0
}

// opcode is a SASS instruction's operation, its predicate guard dropped.
func opcode(sass string) string { return analysis.Opcode(sass) }

// instructions is each SASS instruction of a kernel's source page
// once: the page may list an address twice (a line inlined in two
// places), and rows with no address are source lines, not instructions.
// Shared (sass.Code): read-only.
func instructions(a *analysis.Kernel) []profan.SourceRecord {
	return analysis.SASSOf(a).Instructions()
}

// instExecuted is a source record's warp-level instructions executed.
func instExecuted(s profan.SourceRecord) float64 {
	for _, c := range s.Counter {
		if c.Name == "inst_executed" && !math.IsNaN(c.Value) {
			return c.Value
		}
	}
	return 0
}

// callOverhead is the instructions around a 64-bit division subroutine's
// call that a 32-bit division drops: the test whether both operands fit 32
// bits, the branches, the call and the moves of its arguments and result
// (the SASS of fixtures/classes' divLoad: ten to twelve per call).
const callOverhead = 10

// fastPathOverhead is the instructions a 64-bit division that takes its
// 32-bit path runs around that path, which the same division in 32 bits
// drops: the divisor's high word loaded, or-ed with the dividend's and
// tested, the branch past the subroutine's call, and the convergence
// barrier around both paths (BSSY, BSYNC; the SASS of fixtures/sol-check4's
// unravel and sol-check3's rowMod: six per division).
const fastPathOverhead = 6

// narrowDivisionKept is the share of a 32-bit division line's
// instructions its fix keeps: a multiply-high by a reciprocal computed once,
// a shift and the remainder's multiply-subtract, and the line's own work
// (fitted on fixtures/classes: a 32-bit division by a launch-wide divisor
// against its multiply-high).
const narrowDivisionKept = 0.25

// removed is the instructions the division finding's fix removes from
// the line.
func (l *divisionLine) removed() float64 {
	switch {
	case l.modular:
		// Residues of a 64-bit modulus: the subroutine and its call
		// go, a reduction by a multiply-high (Barrett) takes their
		// place, barrettInst a division.
		return math.Max(0, l.sub+l.calls*(callOverhead-barrettInst))
	case l.wide:
		// Done in 32 bits, the subroutine's instructions go, and the
		// call around them; the line keeps its own work. Its divisions
		// whose call never ran (operands that always fit 32 bits) drop
		// their test, branch and barrier, as on a line of such
		// divisions alone (fixtures/sol-check28's nsFields<0>: s = ns /
		// u.s calls, the three divisions of s never do). Not a call
		// that ran some of the time (sol-check17's gcd64<0>, Euclid's
		// shrinking remainders): its values need 64 bits.
		return l.sub + l.calls*callOverhead + l.inline*fastPathOverhead
	case l.path > 0:
		// A 64-bit division on its 32-bit path: done in 32 bits (the
		// fix its finding leads with, as for the subroutine above), it
		// keeps the inline division and drops the test, the branch and
		// the barrier around it.
		return l.path * fastPathOverhead
	}
	// A 32-bit division inline: its reciprocal computed once, a
	// multiply-high and a shift keep a quarter of the line.
	return l.inst * (1 - narrowDivisionKept)
}

// divisionShare is the share of the kernel's instructions the division
// fix removes from the lines at locs: a branch whose condition divides
// (a reduction's tid % (2*s) == 0), which the divergence's fix (tid < s)
// rewrites, division and all.
func divisionShare(a *analysis.Kernel, locs []profan.Location) float64 {
	lines, total := divisionLines(a)
	if total <= 0 {
		return 0
	}
	cut := 0.0
	for _, l := range lines {
		for _, loc := range locs {
			if l.loc.File == loc.File && l.loc.Line == loc.Line {
				cut += l.removed()
				break
			}
		}
	}
	return cut / total
}

func checkIntDivision(p *Pass) {
	lines, total := divisionLines(p.Kernel)
	if len(lines) == 0 || total <= 0 {
		return
	}
	var inDiv, removed, sub float64
	wide, fast, modular := false, false, false
	for _, l := range lines {
		inDiv += l.inst
		sub += l.sub
		fast = fast || (!l.wide && l.path > 0)
		wide = wide || l.wide
		modular = modular || l.modular
		removed += l.removed()
	}
	share := inDiv / total
	if share < 0.1 {
		return
	}
	// The instruction mix decides, at any limiter: the fix removes issue
	// slots, and the time follows them as far as the SM's issue is what
	// the kernel waits for (the units' loads in the time model).
	gain := math.NaN()
	if us, ok := usageOf(p); ok {
		if _, ok := us[analysis.LimitPipe]; ok {
			gain = clamp01((1 - us.timeAfter(scale{analysis.LimitPipe: 1 - removed/total})) * variableShare(p))
		}
	}
	if math.IsNaN(gain) {
		comp, _ := p.Value("compute_throughput_pct")
		gain = clamp01(removed / total * math.Min(1, comp/100/ceiling[analysis.LimitPipe]))
	}
	// The grid and the stream stay: so does the wave floor.
	if dram, ok := p.Value("dram_bytes"); ok {
		gain = math.Min(gain, waveFloorBound(p, dram))
	}
	var locs []profan.Location
	var where []string
	for _, l := range lines {
		locs = append(locs, l.loc)
		where = append(where, fmt.Sprintf("%s:%d", filepath.Base(l.loc.File), l.loc.Line))
		if len(locs) == 3 {
			break
		}
	}
	msg := fmt.Sprintf("%.0f%% of the executed instructions are on %s, which divide%s by a run-time value (a reciprocal on the XU pipe and its corrections)",
		100*share, strings.Join(where, ", "), map[bool]string{true: "", false: "s"}[len(lines) > 1])
	advice := "divide by powers of two with shifts and masks, index without a modulo (2*s*tid instead of tid % (2*s)), hoist the division out of the loop, or compute the divisor's reciprocal once and divide with a multiply-high (__umulhi) and a shift"
	if fast {
		msg = fmt.Sprintf("%.0f%% of the executed instructions are on %s, which divide%s in 64-bit arithmetic: the operands fit 32 bits, so each division took its 32-bit path inline, behind a test of the high words and a branch past the 64-bit subroutine",
			100*share, strings.Join(where, ", "), map[bool]string{true: "", false: "s"}[len(lines) > 1])
		advice = "do the index arithmetic in 32 bits (unsigned int) where the values fit: that drops the test of the high words, the branch and its barrier around each division (what the gain counts); to save the division itself as well, compute the divisor's reciprocal once and divide with a multiply-high (__umulhi) and a shift, divide by powers of two with shifts and masks, or carry the quotient and remainder as loop counters"
	}
	if wide {
		msg = fmt.Sprintf("%.0f%% of the executed instructions are on %s, which divide%s in 64-bit arithmetic: %.0f%% in the 64-bit division subroutine %s call%s",
			100*share, strings.Join(where, ", "), map[bool]string{true: "", false: "s"}[len(lines) > 1], 100*sub/total,
			map[bool]string{true: "they", false: "it"}[len(lines) > 1], map[bool]string{true: "", false: "s"}[len(lines) > 1])
		// Where the values need 64 bits (timestamps, a modulus past
		// 2^32) the 32-bit division is no option; a divisor fixed for
		// the launch then divides by a multiply-high with its reciprocal
		// computed once, about a dozen instructions against the
		// subroutine's seventy (fixtures/sol-check8's tsSplit<0>: the
		// period a compile-time constant ran 0.70 faster; sol-check6's
		// lcgMod<0>, Barrett reduction by __umul64hi, 0.61). The gain
		// counts the 32-bit division (0.85 and 0.91 there), an upper
		// bound where the values need 64 bits.
		advice = "do the index arithmetic in 32 bits (unsigned int) where the values fit: a 32-bit division is inline and a fraction of the subroutine's cost (what the gain counts); where they need 64 bits and the divisor is fixed for the launch, compute its reciprocal once and divide with a multiply-high (__umul64hi, a Barrett reduction, or the divisor a compile-time constant), about a dozen instructions; better still, divide by powers of two with shifts and masks, or carry the quotient and remainder as loop counters instead of dividing"

	}
	if modular {
		// The remainders feed the next products (modular arithmetic by
		// a 64-bit modulus): their width is the algorithm's, and the
		// reduction is what changes (fixtures/sol-check12's powMod<0>,
		// sol-check6's lcgMod<0>: Barrett by __umul64hi ran 0.61
		// faster; the gain counts the reduction's 25 instructions a
		// division, read from those twins' SASS).
		msg += "; each result feeds the next division's dividend (modular arithmetic on 64-bit residues, which a 32-bit division cannot hold)"
		advice = "the modulus is fixed for the launch: precompute minv = floor((2^64 − 1) / m) once (on the host) and reduce by a multiply-high, r = p − __umul64hi(p, minv) · m, then subtract m at most twice while r ≥ m (a Barrett reduction, about 25 instructions against the subroutine's seventy and its call; what the gain counts); or make m a compile-time constant so the compiler does the same; for a modulus under 2^32 keep residues in 32 bits with a Montgomery multiplication (__umulhi)"
	}
	p.report(estimate(gain), Note{
		Message:   msg,
		Advice:    advice,
		Evidence:  append(p.evidence("compute_throughput_pct"), fmt.Sprintf("division_inst_share=%.3f", share)),
		Locations: locs,
	})
}
