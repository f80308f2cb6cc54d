package rules

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// bitLoop reports a compute-bound kernel whose issue slots and ALU pipe
// go to loops that test or shift bits one at a time where one
// instruction does the job: a bit count (POPC), a leading or trailing
// zero count (FLO, with BREV for the lowest set bit), a bit reversal
// (BREV). Its SASS is the single-bit test, a LOP3.LUT that ands with a
// one-bit immediate (0x1 after a shift, or 0x2, 0x4, ... in place), once
// a bit: about three ALU instructions a bit where POPC or FLO takes one a
// word; or a one-bit merge, a bit of one register or-ed into another
// (depositBit), once a bit where the shift-and-mask spread moves them
// all in a few steps; or a loop that walks a word a bit a step until it
// is zero, combining each shifted copy into another word (shiftWalks),
// where five shift-and-combine steps do it; or a word's copies shifted a
// bit a step and XOR-ed together (shiftFolds), where POPC takes one or
// two a word.
var bitLoop = &Rule{
	ID:    "bit-loop",
	Title: "Bits tested one at a time where one instruction does the job",
	Text: `A loop that shifts and masks a word one bit at a time to count its set bits,
find its highest or lowest set bit, or reverse it runs about three ALU
instructions a bit (SHF, LOP3.LUT with a one-bit mask, IADD3 or a branch):
96 for a 32-bit word, 192 for a 64-bit one, where the hardware does each in
one or two: POPC (__popc, __popcll), FLO (__clz, and __ffs with a BREV),
BREV (__brev); PRMT (__byte_perm) moves bytes. On sm_80 and later the ALU
pipe that runs them retires two warp instructions a clock an SM, half the
issue rate, so a bit loop over every element makes the kernel ALU-bound
however little memory it moves. nvcc recognises some idioms itself (a
while (v >>= 1) ++r loop becomes FLO, a fully unrolled bit reversal BREV):
the SASS is the judge: LOP3.LUT with a one-bit immediate (0x1 after a
SHF.R, or 0x2, 0x4, ... in place), repeated for each bit. A word built a
bit at a time (a Morton code's x and y interleaved: a LOP3.LUT merging one
register's bit into another under a one-bit mask, a bit each) takes four
shift-and-mask steps a 16-bit field instead, and a loop that shifts a word
right a bit a step until it is zero, XOR-ing or OR-ing each copy into
another (while (g >>= 1) b ^= g, a Gray code decoded), runs a step a bit up
to the word's highest set bit where five shift-and-combine steps do it
(b ^= b >> 16; ... b ^= b >> 1). A parity loop nvcc unrolls (p ^= (w >> b)
& 1 for each bit) has no one-bit test: the word's copies shifted by 1, 2,
... 63 are XOR-ed together (SHF.R and LOP3.LUT 0x96) and masked once, about
a shift and a half XOR a bit, where __popcll(w) & 1 is two POPC and an add
(POPC runs on the XU pipe). Triton has
tl.inline_asm_elementwise for popc.b32, and libdevice's popc, clz, ffs and
brev.`,
	Before:      `for (int b = 0; b < 64; ++b) cnt += unsigned(d >> b) & 1u;   // ~190 ALU instructions`,
	After:       `cnt = __popcll(d);                                          // 2 POPC and an add`,
	Severity:    profan.Warning,
	Cause:       CauseCompute,
	Scope:       Source,
	Locates:     true,
	NeedsSource: true,
	Requires:    []string{"duration"},
	Optional:    usageReads,
	Check:       checkBitLoop,
}

// bitLine is a source line's instructions, its ALU-pipe ones and its
// bit tests (warp-level); words are the words its scans walk, a word for
// each pass through the scan's tests (bitTest), and deposits the bits it
// moves into a word one at a time (depositBit), counted in bits.
type bitLine struct {
	loc             profan.Location
	inst, alu, bits float64
	scans, words    float64
	deposits        float64
	// walks are the words a loop walks a bit a step until they are zero
	// (shiftWalks), one a loop's entry, and steps the loop's steps
	// (warp-level).
	walks, steps float64
	// folds and wideFolds are the 32-bit and the 64-bit words whose bits
	// a line XORs together from copies shifted a bit a step (shiftFolds),
	// warp-level.
	folds, wideFolds float64
}

// The kinds of bit test bitTest reads.
const (
	bitSingle  = iota // a one-bit mask anded (singleBitTest)
	bitScan           // a bit position tested (scanTest)
	bitDeposit        // a bit moved into a word (depositBit)
)

// bitTest returns the register a SASS instruction tests a bit of, a bit
// position of, or moves a bit of, and which (bitSingle, bitScan,
// bitDeposit), "" if none: singleBitTest, then scanTest, then
// depositBit.
func bitTest(sass string) (reg string, kind int) {
	if r := singleBitTest(sass); r != "" {
		return r, bitSingle
	}
	if r := scanTest(sass); r != "" {
		return r, bitScan
	}
	r, _ := depositBit(sass)
	return r, bitDeposit
}

// depositIssue and depositALU are the instructions, and the ALU-pipe
// ones of them, that the shift-and-mask spread takes a bit it moves
// where a loop merges the bits into a word one at a time: a 16-bit field
// spread to every other bit (a Morton code's coordinate) takes four
// steps, x = (x | x << s) & m, each a shift and two LOP3.LUT, 12
// instructions and 8 on the ALU pipe a 16 bits (fixtures/sol-check21's
// morton2<1>: 24 for the code's 32 bits, 16 of them LOP3.LUT, the shifts
// IMAD.SHL on the FMA pipe).
const (
	depositIssue = 0.75
	depositALU   = 0.5
)

// walkIssue and walkALU are the instructions, and the ALU-pipe ones of
// them, that the log-step fix takes a word a loop walks a bit a step
// until it is zero, combining each shifted copy into another word: a
// prefix XOR or OR of a 32-bit word's shifted copies is five steps of a
// shift and a LOP3.LUT (fixtures/sol-check22's grayDec<1>: b ^= b >> 16,
// 8, 4, 2, 1, ten ALU instructions a word).
const (
	walkIssue = 10
	walkALU   = 10
)

// shiftWalks reads a kernel's loops that walk a word a bit a step until
// it is zero, combining each shifted copy into another word: a backward
// branch on the word's test against zero (ISETP.NE P, PT, Rg, RZ) whose
// body shifts the word right by one in place (SHF.R.U32.HI Rg, RZ, 0x1,
// Rg) and XORs or ORs it into an accumulator (LOP3.LUT Rb, Rb, Rg, RZ,
// 0x3c): while (g >>= 1) b ^= g, a Gray code decoded a bit a step, its
// trip count the word's highest set bit (fixtures/sol-check22's
// grayDec<0>: 32 steps of five instructions a warp's word, three on the
// ALU pipe, where the prefix XOR takes five shift-xor steps). A loop
// that runs fewer than bitLoopMinBits steps an entry is not counted.
// Each loop is filed under the line of its combine, with the body's
// instructions and the words walked (the loop's entries).
func shiftWalks(a *analysis.Kernel) []*bitLine {
	if !sassHas(a, "SHF.R") {
		return nil
	}
	_, loops := sassLoops(a)
	byLine := newPerLine(func(loc profan.Location) *bitLine { return &bitLine{loc: loc} })
	var out []*bitLine
	for _, l := range loops {
		bra := l.body[len(l.body)-1]
		steps := instExecuted(bra)
		if len(l.body) > 12 || !(steps >= bitLoopMinBits*l.entries) {
			continue
		}
		guard, _, _ := strings.Cut(strings.TrimSpace(bra.SASS), " ")
		if !strings.HasPrefix(guard, "@P") {
			continue
		}
		shifted := map[string]bool{}
		for _, s := range l.body {
			if r := stepShift(s.SASS); r != "" && strings.HasPrefix(opcode(s.SASS), "SHF.R") {
				if f := sassOperands(s.SASS); f[2] == "0x1" {
					shifted[r] = true
				}
			}
		}
		tested, combine := false, -1
		for i, s := range l.body {
			f := sassOperands(s.SASS)
			switch op := opcode(s.SASS); {
			case strings.HasPrefix(op, "ISETP.NE") && len(f) >= 4 && "@"+f[0] == guard && shifted[f[2]] && f[3] == "RZ":
				tested = true
			case strings.HasPrefix(op, "LOP3.LUT") && combine < 0 && prefixCombine(f, shifted):
				combine = i
			}
		}
		if !tested || combine < 0 {
			continue
		}
		line := l.body[combine]
		if line.Line <= 0 {
			continue
		}
		b := byLine.at(line)
		if b.walks == 0 {
			out = append(out, b)
		}
		b.walks += l.entries
		b.steps += steps
		for _, s := range l.body {
			n := instExecuted(s)
			b.inst += n
			if aluOp(opcode(s.SASS)) {
				b.alu += n
			}
		}
	}
	return out
}

// prefixCombine reports whether a LOP3.LUT's operands (f, its opcode
// dropped) XOR or OR a shifted register into an accumulator it writes:
// Rb, Rb, Rg, RZ, 0x3c (b ^ g), or 0xfc (b | g), the two sources in
// either order and place.
func prefixCombine(f []string, shifted map[string]bool) bool {
	if len(f) < 5 {
		return false
	}
	d, src, lut := f[0], f[1:4], f[4]
	var regs []string
	at := 0
	for i, x := range src {
		if x != "RZ" {
			regs = append(regs, x)
			at |= 1 << (2 - i) // a is 4, b 2, c 1
		}
	}
	if len(regs) != 2 || regs[0] == regs[1] || !slices.Contains(regs, d) || !(shifted[regs[0]] || shifted[regs[1]]) || shifted[d] {
		return false
	}
	xor := map[int]string{6: "0x3c", 5: "0x5a", 3: "0x66"}
	or := map[int]string{6: "0xfc", 5: "0xfa", 3: "0xee"}
	return lut == xor[at] || lut == or[at]
}

// bitLoopMinBits is the single-bit tests a warp must run on a line, on
// average over the kernel's warps, to make it a bit loop: a quarter of a
// 32-bit word's bits (an eight-step loop over a byte's flags is one;
// three flag tests are not).
const bitLoopMinBits = 8

// bitLines reads the source page's bit loops by line, with the kernel's
// instructions, ALU-pipe instructions and warps (the executions of its
// first instruction). A line is a bit loop when its warps run
// bitLoopMinBits single-bit tests each and the tests walk a word: at
// least bitLoopMinBits distinct ones (an unrolled loop: a shift and a
// test a bit), or a register tested that the loop shifts in place a few
// bits a step, at least half as often as it tests (a rolled loop). A
// sinf's quadrant tests (q & 1, q & 2, in a loop of sinf calls:
// fixtures/ncu's misc divergent) are neither, and are not counted: a
// test of a register an F2I wrote (the quotient of x·2/π) is a
// quadrant's, however many times an unrolled loop repeats the call
// (fixtures/sol-check14's sinPhase<0>: eight such tests a step, four
// sinf unrolled). The loop's other
// instructions (the shift, the count's increment, the branch) may be
// filed under the lines of its body, so a line's instructions are those
// at the addresses from its first to its last (fixtures/sol-bits'
// lowbit<0>: the test on the while line, the shift and the increment on
// the two after it, between the test and the branch).
func bitLines(a *analysis.Kernel) (lines []*bitLine, total, alu, warps float64) {
	// The first pass counts; only a kernel with a line of enough tests
	// is read again, for its lines' spans.
	byLine := newPerLine(func(loc profan.Location) *bitLine { return &bitLine{loc: loc} })
	first := true
	for _, s := range instructions(a) {
		n := instExecuted(s)
		if first {
			warps, first = n, false
		}
		total += n
		op := opcode(s.SASS)
		if aluOp(op) {
			alu += n
		}
		if r, _ := bitTest(s.SASS); s.Line > 0 && r != "" {
			byLine.at(s).bits += n
		}
	}
	var cand []*bitLine
	for _, l := range byLine.order {
		if warps > 0 && l.bits >= bitLoopMinBits*warps {
			cand = append(cand, l)
		}
	}
	if len(cand) == 0 {
		return nil, total, alu, warps
	}
	type rec struct {
		addr       uint64
		n          float64
		alu, f2i   bool
		load       bool
		test, step string
		kind       int
		mask       string // a merge's one-bit mask
		dest       string
		// plus is the register an add of a constant reads (IADD3 Rd,
		// Ra, 0x1, RZ; VIADD Rd, Ra, 0x1), "" for any other instruction.
		plus string
		line *bitLine
		// guard is the predicate an instruction runs under ("P3" for
		// @!P3), mem whether it accesses memory, and maskBit whether it
		// is a one-bit test into a predicate that only guards memory
		// accesses (maskBits).
		guard        string
		mem, maskBit bool
		preds        []string // the predicates it reads as operands
	}
	var recs []rec
	for _, s := range instructions(a) {
		addr, err := strconv.ParseUint(strings.TrimPrefix(s.Address, "0x"), 16, 64)
		if err != nil || s.Line <= 0 {
			continue
		}
		op := opcode(s.SASS)
		var dest string
		if f := sassOperands(s.SASS); len(f) > 0 {
			dest = f[0]
		}
		test, kind := bitTest(s.SASS)
		var mask string
		if kind == bitDeposit {
			_, mask = depositBit(s.SASS)
		}
		base, _, _ := strings.Cut(op, ".")
		var preds []string
		for _, x := range sassOperands(s.SASS)[min(1, len(sassOperands(s.SASS))):] {
			if x = strings.TrimPrefix(x, "!"); strings.HasPrefix(x, "P") && x != "PT" {
				preds = append(preds, x)
			}
		}
		recs = append(recs, rec{addr: addr, n: instExecuted(s), alu: aluOp(op), f2i: strings.HasPrefix(op, "F2I"), load: strings.HasPrefix(op, "LD"),
			test: test, kind: kind, mask: mask, step: stepShift(s.SASS), dest: dest, plus: addConst(s.SASS), line: byLine.at(s),
			guard: sassGuard(s.SASS), mem: strings.HasPrefix(base, "LD") || strings.HasPrefix(base, "ST") || base == "RED" || base == "ATOM" || base == "ATOMS",
			preds: preds})
	}
	// A one-bit test into a predicate read only as a memory access's
	// guard is a mask bit unpacked, not a word's bits walked: Triton's
	// masked store takes its per-element mask bits from one register,
	// a LOP3.LUT P, RZ, R, 0x8000, RZ, 0xc0 an element, unrolled in
	// straight-line code (fixtures/sol-check28's smx_w4: 61 such tests,
	// each predicate's first reader an @!P STG.E.128).
	slices.SortStableFunc(recs, func(x, y rec) int { return cmp.Compare(x.addr, y.addr) })
	for i := range recs {
		if recs[i].test == "" || recs[i].kind != bitSingle || !strings.HasPrefix(recs[i].dest, "P") {
			continue
		}
		p := recs[i].dest
		for _, r := range recs[i+1:] {
			if slices.Contains(r.preds, p) || r.guard == p && !r.mem {
				break // read by arithmetic or a branch: a bit used
			}
			if r.guard == p {
				recs[i].maskBit = true
				break
			}
			if r.dest == p {
				break // written again unread
			}
		}
	}
	// A test's register is written by the nearest instruction before it
	// (by address) that writes it, of those run at least half as often
	// as the test: a quadrant's when that is an F2I.
	writerOf := func(i int, reg string) int {
		j := i - 1
		for ; j >= 0; j-- {
			if recs[j].dest == reg && recs[j].n >= 0.5*recs[i].n {
				break
			}
		}
		return j
	}
	writers := map[int]int{}
	writer := func(i int) int {
		if j, ok := writers[i]; ok {
			return j
		}
		j := writerOf(i, recs[i].test)
		writers[i] = j
		return j
	}
	// A quadrant may be tested one past the F2I's (cospif's quadrant
	// + 1: fixtures/sol-check16's dct32<32>, IADD3 R24, R23, 0x1, RZ
	// after F2I.NTZ R23, then R24 & 1 and R24 & 2, four cospif
	// unrolled on line 331): an add of a constant to an F2I's result is
	// a quadrant's too.
	quadrant := func(j int) bool {
		if recs[j].f2i {
			return true
		}
		if recs[j].plus == "" {
			return false
		}
		w := writerOf(j, recs[j].plus)
		return w >= 0 && recs[w].f2i
	}
	// A loaded value tested once is a flag masked out of data (a cell's
	// x[...] & 1, fixtures/sol-check15's lifeTorus<0>: eight neighbour
	// bytes loaded and each anded with 1), not a word's bits walked; a
	// loaded word whose bits are tested one by one is tested again.
	testsOf := map[int]int{}
	for i, r := range recs {
		if r.test != "" {
			if j := writer(i); j >= 0 && recs[j].load {
				testsOf[j]++
			}
		}
	}
	skip := func(i int) bool {
		if recs[i].maskBit {
			return true
		}
		j := writer(i)
		return j >= 0 && (quadrant(j) || recs[j].load && testsOf[j] < 2)
	}
	// A line's merges of one bit are a word's bits moved when they put
	// bits at bitLoopMinBits positions or more (an unrolled loop: one a
	// bit, each its own mask); fewer are flags set, and one mask many
	// times is a sign copied (copysign in libdevice's tanh and erf,
	// fixtures/sol-check19's tanh_rec_precise: LOP3.LUT R13, R20,
	// 0x80000000, R13, 0xf8 unrolled), not a word's bits moved.
	merges := map[*bitLine]map[string]bool{}
	for _, r := range recs {
		if r.test != "" && r.kind == bitDeposit && r.n > 0 {
			if merges[r.line] == nil {
				merges[r.line] = map[string]bool{}
			}
			merges[r.line][r.mask] = true
		}
	}
	for _, l := range cand {
		lo, hi := uint64(math.MaxUint64), uint64(0)
		tested := map[string]bool{}
		static, scans := 0, 0
		l.bits = 0
		for i, r := range recs {
			if r.line == l {
				lo, hi = min(lo, r.addr), max(hi, r.addr)
				if r.test != "" && r.n > 0 && !skip(i) && (r.kind != bitDeposit || len(merges[l]) >= bitLoopMinBits) {
					tested[r.test] = true
					static++
					l.bits += r.n
					switch r.kind {
					case bitScan:
						scans++
						l.scans += r.n
					case bitDeposit:
						l.deposits += r.n
					}
				}
			}
		}
		if scans > 0 {
			l.words = l.scans / float64(scans)
		}
		if l.bits < bitLoopMinBits*warps {
			continue
		}
		// A scan's tests each have their own mask, so the scan is
		// unrolled: its instructions are the line's own, and what the
		// scheduler interleaves with them (the loop around it, the
		// next word's hash in msbScan<0>) stays with the fix.
		own := scans == static
		var steps float64
		for _, r := range recs {
			if r.addr < lo || r.addr > hi || own && r.line != l {
				continue
			}
			l.inst += r.n
			if r.alu {
				l.alu += r.n
			}
			if r.step != "" && tested[r.step] {
				steps += r.n
			}
		}
		if static >= bitLoopMinBits || steps >= 0.5*l.bits {
			lines = append(lines, l)
		}
	}
	return lines, total, alu, warps
}

// checkBitLoop prices the loops' replacement from the SM's two limits
// they load: the issue slots and the ALU pipe (half the issue rate on
// sm_80 and later), each at its attainable peak; the line's instructions
// go but two a 32 bits tested (POPC or FLO and the add or select that
// uses it) and one a word a scan of bit positions walks (FLO:
// fixtures/sol-check20's msbScan<0>, 0.90 against 0.85 measured, held
// by its 4-byte stream once its 62 ALU instructions a word are one) and,
// for the bits a line merges into a word one at a time, the
// shift-and-mask spread that moves them all at once (depositIssue and
// depositALU a bit); the time the two limits take before less what they
// take after is the gain, never more than DRAM and L2 leave
// (fixtures/sol-bits: popc32<0, 32> ALU-bound at 93 %, its __popc twin
// 0.85 faster).
func checkBitLoop(p *Pass) {
	a := p.Kernel
	t, issue, ok := issueWindow(p)
	if !ok {
		return
	}
	lines, total, alu, _ := bitLines(a)
	for _, w := range slices.Concat(shiftWalks(a), shiftFolds(a)) {
		if !slices.ContainsFunc(lines, func(l *bitLine) bool { return l.loc == w.loc }) {
			lines = append(lines, w)
		}
	}
	if len(lines) == 0 || !(total > 0) {
		return
	}
	aluPeak := float64(a.Spec.SMs) * math.Min(float64(a.Spec.CoresPerSM), 64) / 32 * a.Spec.SMClockMHz * 1e6 * attainable
	if !(aluPeak > 0) {
		return
	}
	var removed, aluGone, xuKept, bits, scans, deposits, walks, steps, folds float64
	var locs []profan.Location
	var where []string
	for _, l := range lines {
		// The fix's POPC and FLO run on the XU pipe, the add or select
		// beside each on the ALU's.
		xu := (l.bits-l.scans-l.deposits)/32 + l.words + l.folds + 2*l.wideFolds
		keep := 2*(l.bits-l.scans-l.deposits)/32 + l.words + l.folds + 3*l.wideFolds
		r := math.Max(0, l.inst-keep-depositIssue*l.deposits-walkIssue*l.walks)
		removed += r
		aluGone += math.Max(0, math.Min(r, l.alu-(keep-xu)-depositALU*l.deposits-walkALU*l.walks))
		xuKept += xu
		bits += l.bits
		scans += l.scans
		deposits += l.deposits
		walks += l.walks
		steps += l.steps
		folds += l.folds + l.wideFolds
		if len(locs) < 3 {
			locs = append(locs, l.loc)
			where = append(where, fmt.Sprintf("%s:%d", filepath.Base(l.loc.File), l.loc.Line))
		}
	}
	share := removed / total
	before := math.Max(total/issue, alu/aluPeak)
	after := math.Max((total-removed)/issue, (alu-aluGone)/aluPeak)
	after = math.Max(after, math.Max(streamFloor(p), launchFloor))
	if xu := a.Spec.PeakSFU() * attainable; xu > 0 {
		after = math.Max(after, 32*(xuKept+xuOutside(a, lines))/xu)
	}
	// What goes is at most the compute time the loops hold (a kernel
	// held by something else keeps it), and the kernel keeps the time
	// of its instructions after the fix and of its stream.
	gain := math.Min(clamp01(math.Min(1-after/t, before/t)), leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
	if share < 0.1 || gain < 0.05 {
		return
	}
	advice := "count, find or reverse the bits with the instruction that does it: __popc(x) / __popcll(x) for a bit count (POPC), 31 - __clz(x) for floor(log2 x) and __clz for leading zeros (FLO), __ffs(x) - 1 for the lowest set bit (BREV and FLO), __brev(x) for a bit reversal (BREV), __byte_perm(x, y, s) for a byte shuffle (PRMT); a loop over the set bits is while (m) { int b = __ffs(m) - 1; m &= m - 1; ... }, as many steps as bits set"
	if _, _, triton := tritonKernel(a.Record); triton {
		advice = "count or find the bits with one instruction: tl.extra.cuda.libdevice.popc / clz / ffs / brev, or tl.inline_asm_elementwise(\"popc.b32 $0, $1;\", \"=r,r\", [x], dtype=tl.int32, is_pure=True, pack=1), instead of a loop over the bits"
	}
	single := bits - scans - deposits
	tests := fmt.Sprintf("%.3g warp-level single-bit tests, a LOP3.LUT with a one-bit mask each, about three ALU instructions a bit", single)
	switch {
	case folds > 0 && bits == 0 && walks == 0:
		tests = fmt.Sprintf("%.3g warp-level words whose bits are XOR-ed together from copies shifted a bit a step, a shift and half a LOP3.LUT a bit", folds)
	case walks > 0 && bits == 0:
		tests = fmt.Sprintf("%.3g warp-level steps of a loop that shifts a word right a bit and XORs or ORs it into another until it is zero, %.3g a word: as many as its highest set bit", steps, steps/walks)
	case walks > 0:
		tests = fmt.Sprintf("%.3g warp-level single-bit tests and %.3g steps of a loop that shifts a word right a bit until it is zero", single, steps)
	case scans >= bits:
		tests = fmt.Sprintf("%.3g warp-level tests of a bit position, (v >> b) != 0, a LOP3.LUT with the mask of the bits from b up and a select each", scans)
	case scans > 0:
		tests = fmt.Sprintf("%.3g warp-level single-bit tests, a LOP3.LUT with a one-bit mask each, and %.3g of a bit position, (v >> b) != 0, with the mask of the bits from b up", single, scans)
	case deposits > 0:
		tests = fmt.Sprintf("%.3g warp-level merges of one bit into a word, a LOP3.LUT with a one-bit mask and two registers each, and %.3g single-bit tests", deposits, single)
	}
	evidence := append(p.evidence("duration", "compute_throughput_pct"), fmt.Sprintf("single_bit_tests=%.4g", single))
	if scans > 0 {
		evidence = append(evidence, fmt.Sprintf("bit_position_tests=%.4g", scans))
	}
	fix := "POPC, FLO or BREV a word"
	if deposits > 0 {
		// Bits merged into a word one at a time (a Morton code, a bit
		// permutation): the spread moves them at once.
		evidence = append(evidence, fmt.Sprintf("bit_merges=%.4g", deposits))
		fix = "the shift-and-mask spread"
		if _, _, triton := tritonKernel(a.Record); !triton {
			advice = "move the bits all at once with the shift-and-mask spread: a 16-bit coordinate to every other bit is x = (x | x << 8) & 0x00ff00ff; x = (x | x << 4) & 0x0f0f0f0f; x = (x | x << 2) & 0x33333333; x = (x | x << 1) & 0x55555555 (a Morton code is spread(x) | spread(y) << 1); __brev(x) for a reversal, __byte_perm(x, y, s) for bytes, __popc / __clz for a count or a position, instead of a bit a step"
		}
	}
	if folds > 0 {
		// A word's bits XOR-ed one copy at a time (a parity): its bit
		// count's lowest bit.
		evidence = append(evidence, fmt.Sprintf("shift_fold_words=%.4g", folds))
		if bits == 0 && walks == 0 {
			fix = "POPC a word (two for 64 bits)"
			advice = "take a word's parity from its bit count: __popc(w) & 1, or __popcll(w) & 1 for 64 bits (two POPC and an add), and a check bit of a code under a mask is __popcll(w & mask) & 1, instead of XOR-ing the word's bits one at a time (p ^= (w >> b) & 1); __popc counts, __clz and __ffs find the highest and the lowest set bit"
			if _, _, triton := tritonKernel(a.Record); triton {
				advice = "take a word's parity from its bit count, tl.extra.cuda.libdevice.popc(w) & 1, instead of XOR-ing its bits one shifted copy at a time"
			}
		}
	}
	if walks > 0 {
		// A word's shifted copies combined a bit a step (a Gray code
		// decoded, a prefix XOR or OR): the log-step fix takes five.
		evidence = append(evidence, fmt.Sprintf("shift_walk_steps=%.4g", steps), fmt.Sprintf("shift_walk_words=%.4g", walks))
		if bits == 0 {
			fix = "five shift-and-combine steps a word"
			advice = "combine the word's shifted copies in log steps, not a bit a step: while (g >>= 1) b ^= g (a Gray code decoded) is b ^= b >> 16; b ^= b >> 8; b ^= b >> 4; b ^= b >> 2; b ^= b >> 1, and the same five steps with | smear a word's highest set bit down (or 0xffffffffu >> __clz(x)); 32 - __clz(x) is the loop's trip count"
			if _, _, triton := tritonKernel(a.Record); triton {
				advice = "combine the word's shifted copies in log steps: b ^= b >> 16; b ^= b >> 8; b ^= b >> 4; b ^= b >> 2; b ^= b >> 1 on the whole block, instead of a loop until the word is zero"
			}
		}
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.0f%% of the executed instructions are bit loops on %s (%s); at the device's issue and ALU-pipe peaks they take %.0f%% of the kernel's time, %s %.0f%%",
			100*share, strings.Join(where, ", "), tests, 100*math.Min(1, before/t), fix, 100*math.Min(1, after/t)),
		Advice:    advice,
		Evidence:  append(evidence, fmt.Sprintf("bit_loop_inst_share=%.3f", share)),
		Locations: locs,
	})
}

// narrowReachExp sets the share of the attainable DRAM rate a coalesced
// stream of w-byte accesses reaches once its arithmetic is gone,
// (w/16)^narrowReachExp: fixtures/sol-bits' fixed twins, 4-byte loads and
// stores (popc32<1, 32>, lowbit<1, 32>: 0.55 of 92 % of the DRAM peak)
// and 8-byte loads beside 4-byte stores (popc64<1, 32>: 0.81).
const narrowReachExp = 0.43

// residentReach is how much faster a narrow stream runs where each
// thread loads several of its words in turn than where it loads one and
// exits: a warp done after one word leaves its slot empty until the next
// block starts, so fewer warps hold bytes in flight (fixtures/sol-bits'
// twins, a word a thread: 72 % of the warp slots active, 0.54 of the DRAM
// peak, latency-bound; fixtures/sol-check22's grayDec<1>, eight words a
// thread in turn: 88 % active, 0.68 of the peak). The ratio of the warps
// active, not a fit.
const residentReach = 88.0 / 72.0

// streamFloor is the time a kernel's global accesses take at the rate
// their width reaches: the ideal sectors of its loads and stores at the
// attainable DRAM rate (vectorReach of the peak), over the share of it
// a stream as narrow reaches (residentReach more where each thread loads
// two words or more); 0 when the model has no accesses.
func streamFloor(p *Pass) float64 {
	a := p.Kernel
	m := a.Model
	if a.Spec == nil || !(a.Spec.PeakBandwidth() > 0) {
		return 0
	}
	var sectors float64
	for _, x := range []*analysis.Access{m.GlobalLoad, m.GlobalStore} {
		if x != nil && x.IdealTransactions > 0 {
			sectors += x.IdealTransactions
		}
	}
	if !(sectors > 0) {
		return 0
	}
	reach := 1.0
	if w, share := narrowWidth(p); w > 0 && w < 16 && share >= 0.5 {
		reach = math.Pow(w/16, narrowReachExp)
		if threads := float64(a.Record.Grid.Size()) * float64(a.Record.Block.Size()); m.GlobalLoad != nil && threads > 0 && 32*m.GlobalLoad.Requests/threads >= 2 {
			reach = math.Min(1, reach*residentReach)
		}
	}
	return 32 * sectors / (a.Spec.PeakBandwidth() * vectorReach * reach)
}
