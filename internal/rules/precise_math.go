package rules

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// preciseMath reports a compute-bound kernel whose issue slots and XU
// pipe go to the precise (IEEE-accurate, libdevice) path of a
// transcendental the hardware has an approximate instruction for:
// tanhf, whose precise path is a polynomial for small arguments and
// 1 − 2/(e^{2|x|} + 1) for the others (two MUFU ops, EX2 and RCP, and
// about fourteen FMA-pipe instructions), where tanh.approx.f32 is one
// MUFU.TANH (sm_75 and later).
var preciseMath = &Rule{
	ID:    "precise-math",
	Title: "Precise transcendental where the hardware's approximation is one instruction",
	Text: `CUDA's tanhf is accurate to about 2 ulp: its SASS tests |x| against 0.6 and
against 9.01 (where tanh saturates), evaluates a polynomial for small
arguments and 1 − 2/(e^{2|x|} + 1) for the others: a MUFU.EX2, a MUFU.RCP on
the XU pipe and about fourteen FFMA, FMUL, FSETP, FSEL and LOP3 instructions a
call. Since sm_75 the XU pipe has tanh.approx.f32, one MUFU.TANH, with a
maximum relative error of about 2^-11 (PTX ISA): in a kernel whose issue
slots or XU pipe are its limit, a chain of tanhf (activations, GELU's tanh
form, recurrent cells) runs several times faster on it. Use the
approximation where its accuracy is enough (about 3 decimal digits: fine for
fp16/bf16 activations, not for a value later differentiated or summed over
millions of terms): inline PTX tanh.approx.f32 (.f16 and .f16x2 for half,
.bf16 on sm_90), or --use_fast_math, which recent CUDA releases compile
tanhf to MUFU.TANH with on sm_75 and later (check the SASS), and which also
flushes denormals and approximates division, sqrt and the other
transcendentals; in Triton, tl.inline_asm_elementwise with tanh.approx.f32
instead of libdevice's tanh.

IEEE float division (x / y without --use_fast_math) is the same kind: its SASS
is a MUFU.RCP, an FCHK range check (also on the XU pipe), five FFMAs of Newton
refinement and rounding and a branch around a CALL to a slow path, ten
instructions where __fdividef(x, y) is a MUFU.RCP and an FMUL. __fdividef's
error is 2 ulp for |y| in [2^-126, 2^126] and it returns 0 for larger |y|:
keep x / y where y can be that large or the quotient must round correctly;
-prec-div=false (part of --use_fast_math) makes every division in the file the
fast one. A correctly rounded sqrtf is a MUFU.RSQ, a range test around a
slow-path CALL and four instructions of refinement and rounding, about ten a
call: v / sqrtf(q), a normalisation, is v * rsqrtf(q), one MUFU.RSQ for every
division by it and one FMUL each; a square root whose value only orders
distances is not needed at all (compare the squares); -prec-sqrt=false
compiles each sqrtf to one MUFU. A precise powf (about 70 instructions: special cases, a logarithm
and an exp2 by polynomials) with a small integer or half-integer exponent is
a few multiplications: powf(v, 1.5f) is v * sqrtf(v) for v ≥ 0; a general
exponent has __powf (MUFU.LG2 and MUFU.EX2, wrong for v ≤ 0, its error
growing with the exponent).`,
	Before: `v = tanhf(fmaf(v, 1.7f, 0.1f));   // ~16 instructions, 2 MUFU`,
	After: `float r;
asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(fmaf(v, 1.7f, 0.1f)));
v = r;                              // 1 MUFU.TANH`,
	Severity:    profan.Warning,
	Cause:       CauseCompute,
	Scope:       Source,
	Locates:     true,
	NeedsSource: true,
	Requires:    []string{"duration"},
	Optional:    join(usageReads, []string{"sm_count"}, waveFloorReads), // sm_count: startsShare
	Check:       checkPreciseMath,
}

// preciseTanhInst is the warp-level instructions of one precise tanhf in
// SASS (CUDA 12.8, sm_90): the argument's two FMULs (|x|·2·log2(e), x²),
// the two FSETPs (|x| ≥ 0.6, |x| ≥ 9.01), four polynomial FFMAs, the
// MUFU.EX2, the FADD of 1, the MUFU.RCP, the FFMA of 1 − 2r, the FSEL of
// the saturation, the LOP3 of the sign and the predicated FFMA of the
// small-argument path: 16, read from fixtures/sol-check12's tanhMix<0>
// (line 513: 281 M instructions for 16.8 M tanhf and their fmaf).
const preciseTanhInst = 16

// preciseLine is a source line's precise tanhf calls (warp-level), its
// IEEE divisions and precise powf calls, and its instructions.
type preciseLine struct {
	loc   profan.Location
	calls float64
	inst  float64
	// tanhHeld is whether the line tests a register holding |x| against
	// tanh's saturation (analysis.PreciseTanhHeld, libdevice's tanh in
	// Triton's SASS) and tanhBranches its tests against 0.6
	// (analysis.TanhBranch, warp-level), one a call: its calls where
	// the |R form is absent.
	tanhHeld     bool
	tanhBranches float64
	// divs are the line's IEEE float divisions (warp-level FCHK
	// executions) and divThreads their thread-level FCHKs, each an XU
	// op that __fdividef does without.
	divs, divThreads float64
	// pows are the line's precise powf calls (warp-level executions of
	// the test of the exponent's product against exp2's overflow bound,
	// FSETP.GT |t|, 152).
	pows float64
	// sins are the line's precise sinf or cosf calls (warp-level
	// executions of the test of |x| against the slow path's bound,
	// FSETP.GE |x|, 105615) and sinThreads their thread-level ones,
	// each a MUFU.SIN after the fix.
	sins, sinThreads float64
	// tans are the line's precise tanf calls (warp-level executions of
	// analysis.PreciseTan), tanThreads their thread-level ones, and
	// tanRcps the thread-level MUFU.RCPs of their odd quadrants: tanf
	// reduces as sinf does, so its calls are out of sins; after the fix
	// each is three MUFUs (SIN, COS, RCP), the precise RCP gone.
	tans, tanThreads, tanRcps float64
	// sqrts are the line's correctly rounded sqrtf calls (warp-level
	// executions of their range test, analysis.PreciseSqrt), each ten
	// instructions where the approximation is one MUFU.
	sqrts float64
	// rdivs are the line's IEEE divisions by a precise sqrtf's result
	// (v / sqrtf(q)) and rdivThreads their thread-level FCHKs: with
	// rsqrtf(q) each is one FMUL, its MUFU.RCP and FCHK gone from the
	// XU pipe.
	rdivs, rdivThreads float64
	// logs are the line's precise logf calls (warp-level executions of
	// their range reduction, analysis.PreciseLog) and logThreads their
	// thread-level ones, each a MUFU.LG2 after the fix.
	logs, logThreads float64
	// exps are the line's precise expf calls (warp-level executions of
	// their rounding to an integer, analysis.PreciseExp), counted where
	// the line also has the reduction's FFMA by log2(e)'s low part
	// (expLow); each keeps its MUFU.EX2 after the fix.
	exps   float64
	expLow bool
}

// preciseExpInst is the warp-level instructions of one precise expf in
// SASS (CUDA 12.8, sm_90): FFMA.SAT of the clamped argument, the FFMA.RM
// that rounds it to an integer, the FADD that takes the integer back,
// the SHF that builds 2^n, the two FFMAs of the reduction by log2(e)'s
// high and low parts, the MUFU.EX2 and the FMUL by 2^n: 8, read from
// fixtures/sol-check17's gaussIter<0> (45 a four-step trip of v =
// fmaf(0.5, v, expf(-v*v)) with the step's FMUL and FFMA and the loop's
// counter, branch and two constants' MOVs). __expf is the FMUL by
// log2(e), the denormal test (FSETP) and its two predicated FMULs
// around the same MUFU.EX2: fastExpInst (31 a trip of gaussIter<1>).
const (
	preciseExpInst = 8
	fastExpInst    = 5
)

// preciseLogInst is the warp-level instructions of one precise logf in
// SASS (CUDA 12.8, sm_90): the denormal test and scaling, the range
// reduction by 2/3's bits (IADD3, LOP3, IADD3), the exponent's I2FP and
// FSEL, the FADD of −1, eight polynomial FFMAs, the FMUL and the three
// FFMAs that assemble m·ln 2 + log(1 + f), the infinity and zero tests
// and selects: 25, read from fixtures/sol-check16's logIter<0> (27 a
// step of v = logf(v² + 2.5) with its FFMA and the loop's share).
// __logf is the denormal test and scaling, a MUFU.LG2, its correction
// and an FMUL by ln 2: fastLogInst (6.75 a step in logIter<1>).
const (
	preciseLogInst = 25
	fastLogInst    = 5
)

// preciseSinInst is the warp-level instructions of one precise sinf on
// its fast path in SASS (CUDA 12.8, sm_90): BSSY, the FMUL by 2/π, the
// slow-path test and its branch, F2I and I2FP of the quadrant, three
// FFMAs of the reduction, the quadrant's two LOP3 tests, x², the
// coefficients' moves and FSELs, the polynomial's FFMAs, the sign's
// FFMA and BSYNC: 24, read from fixtures/sol-check14's sinPhase<0> (98
// executed a step of four unrolled calls). __sinf is an FMUL.RZ by 1/2π
// and a MUFU.SIN: fastSinInst.
const (
	preciseSinInst = 24
	fastSinInst    = 2
)

// preciseTanInst is the warp-level instructions of one precise tanf on
// its fast path in SASS (CUDA 12.8, sm_90): sinf's reduction, tan's
// polynomial and the predicated MUFU.RCP of −1/t: 23, read from
// fixtures/sol-check29's mercY<0> (48.25 a step of tanf and logf on line
// 380, logf's 25 out). __tanf is an FMUL.RZ, MUFU.SIN and MUFU.COS, the
// cosine's denormal test and scaling, a MUFU.RCP and the FMUL of the
// quotient: fastTanInst (14 a step of __tanf and __logf in mercY<1>,
// __logf's 5 out), and tanMUFU of them on the XU pipe.
const (
	preciseTanInst = 23
	fastTanInst    = 9
	tanMUFU        = 3
)

// precisePowInst is the warp-level instructions of one precise powf on
// its fast path in SASS (CUDA 12.8, sm_90): the special-case tests (x =
// 1, NaN, ±inf, 0), the denormal scaling, a logarithm by range
// reduction, a MUFU.RCP and a polynomial in double-float, the product
// with the exponent and exp2 by FRND, F2I and a polynomial: 70 executed,
// read from fixtures/sol-check13's pow15<0>. An integer or half-integer
// exponent is a few FMULs and at most one MUFU.RSQ (v * sqrtf(v)):
// fastPowInst.
const (
	precisePowInst = 70
	fastPowInst    = 8
)

// ieeeDivInst is the warp-level instructions of one IEEE float division
// on its fast path in SASS (CUDA 12.8, sm_90): BSSY, MUFU.RCP, FCHK (the
// range check that sends denormal, huge or zero operands to the slow
// path's CALL), five FFMAs of the Newton refinement and the rounding,
// the BRA around the CALL and BSYNC: 10, read from
// fixtures/sol-check13's fdivMap<0>. __fdividef (or x * __frcp_rn-free
// 1/y under --use_fast_math) is MUFU.RCP and one FMUL: 2.
const (
	ieeeDivInst = 10
	fastDivInst = 2
)

// preciseSqrtInst is the warp-level instructions of one correctly
// rounded sqrtf on its fast path in SASS (CUDA 12.8, sm_90): BSSY,
// MUFU.RSQ, the IADD3 and ISETP.GT.U32 of the range test, the BRA
// around the slow path's CALL, two FMUL.FTZ and two FFMAs of the
// refinement and rounding, and BSYNC: 10, read from
// fixtures/sol-check15's spinNorm<0> (line 548). sqrt.approx.f32
// (-prec-sqrt=false) or rsqrtf is one MUFU: fastSqrtInst.
const (
	preciseSqrtInst = 10
	fastSqrtInst    = 1
)

// preciseLines reads the source page's precise calls by line: tanhf's
// by the FSETP that tests |x| against its saturation (analysis.PreciseTanh),
// or, where Triton's SASS holds |x| in a register, by its test against 0.6
// on a line with the saturation test (analysis.PreciseTanhHeld),
// powf's by its exp2 bound test (analysis.PrecisePow), a division's by
// its FCHK, sinf's by its slow-path bound test (analysis.PreciseSin);
// each execution a call.
func preciseLines(a *analysis.Kernel) (lines []*preciseLine, total, mufu float64) {
	byLine := newPerLine(func(loc profan.Location) *preciseLine { return &preciseLine{loc: loc} })
	// A call whose operands are the same in every thread of the grid
	// (analysis.GridInvariant, where it is worth a finding) is
	// invariant-work's: hoisted, it is computed once, whatever its
	// precision (fixtures/sol-check22's paramScale<0>, powf and sqrtf of
	// parameters reloaded through a pointer for every element).
	var invariant map[string]bool
	if w, ok := analysis.GridInvariant(a); ok && w.Worth() {
		invariant = w.Addrs
	}
	text := map[profan.Location]string{}
	for _, s := range a.Record.Source {
		if s.Address == "" && s.Line > 0 && s.Source != "" {
			text[profan.Location{File: s.File, Line: s.Line}] = s.Source
		}
	}
	for _, s := range instructions(a) {
		n := instExecuted(s)
		total += n
		op := opcode(s.SASS)
		if (strings.HasPrefix(op, "MUFU.") && !strings.HasSuffix(op, "64H")) || op == "FCHK" {
			mufu += threadExecuted(s)
		}
		if s.Line <= 0 {
			continue
		}
		l := byLine.at(s)
		l.inst += n
		if invariant[s.Address] {
			continue
		}
		if analysis.PreciseTanh(s.SASS) {
			l.calls += n
		}
		l.tanhHeld = l.tanhHeld || analysis.PreciseTanhHeld(s.SASS)
		if analysis.TanhBranch(s.SASS) {
			l.tanhBranches += n
		}
		if analysis.PrecisePow(s.SASS) {
			l.pows += n
		}
		if analysis.PreciseSin(s.SASS) {
			l.sins += n
			l.sinThreads += threadExecuted(s)
		}
		if analysis.PreciseTan(s.SASS) {
			l.tans += n
			l.tanThreads += threadExecuted(s)
		}
		if op == "MUFU.RCP" && strings.Contains(s.SASS, ", -R") {
			l.tanRcps += threadExecuted(s) // −1/t, kept where the line has a tanf
		}
		if analysis.PreciseSqrt(s.SASS) {
			l.sqrts += n
		}
		if analysis.PreciseLog(s.SASS) {
			l.logs += n
			l.logThreads += threadExecuted(s)
		}
		if analysis.PreciseExp(s.SASS) {
			l.exps += n
		}
		l.expLow = l.expLow || analysis.PreciseExpLow(s.SASS)
		if op == "FCHK" && writesDivision(s.File, text[profan.Location{File: s.File, Line: s.Line}]) {
			l.divs += n
			l.divThreads += threadExecuted(s)
		}
	}
	if !rsqrtDivisions(a, byLine) {
		// A square root no division reads is left alone: its
		// approximation saves the refinement only, and a kernel whose
		// values need the rounding keeps it (fixtures/sol-check13's
		// pow15<1>, v * sqrtf(v), is the fix of a powf).
		for _, l := range byLine.order {
			l.sqrts = 0
		}
	}
	for _, l := range byLine.order {
		// tanf's reduction is sinf's test: its calls are tans, not sins.
		if l.tans > 0 {
			l.sins = math.Max(0, l.sins-l.tans)
			l.sinThreads = math.Max(0, l.sinThreads-l.tanThreads)
		} else {
			l.tanRcps = 0
		}
		if !l.expLow {
			l.exps = 0 // the rounding constant without expf's reduction
		}
		if l.calls == 0 && l.tanhHeld {
			l.calls = l.tanhBranches // libdevice's tanh as Triton compiles it
		}
		if l.calls > 0 || l.divs > 0 || l.pows > 0 || l.sins > 0 || l.tans > 0 || l.sqrts > 0 || l.logs > 0 || l.exps > 0 {
			lines = append(lines, l)
		}
	}
	return lines, total, mufu
}

// rsqrtDivisions counts, on each line, the IEEE divisions whose divisor
// a precise sqrtf's line wrote last in program order (the FCHK's third
// operand: FCHK P0, R0, R18 after the square root's FFMA R18): v /
// sqrtf(q), which v * rsqrtf(q) computes in one FMUL, the MUFU.RSQ the
// square root already issues serving every division by it. Reports
// whether it found one.
func rsqrtDivisions(a *analysis.Kernel, byLine *perLine[preciseLine]) bool {
	any := false
	for _, l := range byLine.order {
		any = any || l.sqrts > 0
	}
	if !any {
		return false
	}
	found := false
	fromSqrt := map[int]bool{} // registers a square root's line wrote last
	for _, s := range addressOrder(a) {
		if s.Line <= 0 {
			continue
		}
		l := byLine.at(s)
		op, args := analysis.SASSFields(s.SASS)
		if op == "FCHK" && len(args) > 2 {
			if r := analysis.SASSRegs(args[2]); len(r) > 0 && fromSqrt[r[0]] {
				l.rdivs += instExecuted(s)
				l.rdivThreads += threadExecuted(s)
				found = found || l.rdivs > 0
			}
		}
		if d, ok := writtenReg(s.SASS); ok {
			fromSqrt[d] = l.sqrts > 0
		}
	}
	return found
}

// threadExecuted is a source record's thread-level instructions executed
// with their predicate on, 32 a warp-level one without the counter.
func threadExecuted(s profan.SourceRecord) float64 {
	for _, c := range s.Counter {
		if c.Name == "thread_inst_executed_pred_on" && !math.IsNaN(c.Value) {
			return c.Value
		}
	}
	return 32 * instExecuted(s)
}

// checkPreciseMath prices the approximation from the SM's two limits the
// precise path loads: its issue slots (each call's instructions but the
// one MUFU.TANH go) and its XU pipe (a MUFU a call goes: EX2 and RCP
// become TANH), each at its attainable peak on the device; the time the
// two take before the fix less what they take after it is the gain
// (fixtures/sol-check12's tanhMix<0>: issue 300 µs, XU 270 µs of its
// measured time before, issue 47 µs and XU 135 µs after; its
// tanh.approx.f32 twin ran 0.56 faster), never more than DRAM and L2
// leave, nor than the blocks' starts leave.
func checkPreciseMath(p *Pass) {
	a := p.Kernel
	t, ok := p.Value("duration")
	if !ok || !(t > 0) || a.Spec == nil {
		return
	}
	lines, total, mufu := preciseLines(a)
	if len(lines) == 0 || !(total > 0) {
		return
	}
	issue, xu := a.Spec.PeakWarpInstructions()*attainable, a.Spec.PeakSFU()*attainable
	if !(issue > 0) || !(xu > 0) {
		return
	}
	var removed, calls, divs, pows, sins, tans, sqrts, rdivs, logs, exps, xuGone, xuAdded float64
	var locs []profan.Location
	var where []string
	for _, l := range lines {
		calls += l.calls
		divs += l.divs
		pows += l.pows
		sins += l.sins
		tans += l.tans
		sqrts += l.sqrts
		rdivs += l.rdivs
		logs += l.logs
		exps += l.exps
		// A division by a square root's result loses its MUFU.RCP as
		// well as its FCHK (v * rsqrtf(q): one FMUL).
		xuGone += 32*l.calls + l.divThreads + l.rdivThreads + l.tanRcps
		xuAdded += l.sinThreads + l.logThreads + tanMUFU*l.tanThreads
		removed += math.Min(l.inst-l.calls-l.divs-l.pows*fastPowInst-l.sins*fastSinInst-l.tans*fastTanInst-l.sqrts*fastSqrtInst-l.logs*fastLogInst-l.exps*fastExpInst,
			l.calls*(preciseTanhInst-1)+(l.divs-l.rdivs)*(ieeeDivInst-fastDivInst)+l.rdivs*(ieeeDivInst-1)+l.pows*(precisePowInst-fastPowInst)+l.sins*(preciseSinInst-fastSinInst)+l.tans*(preciseTanInst-fastTanInst)+l.sqrts*(preciseSqrtInst-fastSqrtInst)+l.logs*(preciseLogInst-fastLogInst)+l.exps*(preciseExpInst-fastExpInst))
		if len(locs) < 3 {
			locs = append(locs, l.loc)
			where = append(where, fmt.Sprintf("%s:%d", filepath.Base(l.loc.File), l.loc.Line))
		}
	}
	share := removed / total
	before := math.Max(total/issue, mufu/xu)
	after := math.Max((total-removed)/issue, (math.Max(0, mufu-xuGone)+xuAdded)/xu)
	// The stream stays beside the math left: the two overlap in part.
	gain := math.Min(clamp01((before-after)/t), clamp01(1-overlapAfter(p, t, after)/t))
	// The fix keeps the grid: its blocks still start at blockCost each
	// an SM, so the kernel runs no faster than they start, whatever its
	// issue slots save (fixtures/sol-check26's logcosh_b64_w1: 1 Mi
	// one-warp programs whose starts take its whole time, its logf 15 %
	// of it at the issue peak; tiny-blocks prices the starts).
	gain = math.Min(gain, clamp01(1-startsShare(p)))
	// The grid and the stream stay: so does the wave floor.
	if dram, ok := p.Value("dram_bytes"); ok {
		gain = math.Min(gain, waveFloorBound(p, dram))
	}
	if share < 0.1 || gain < 0.05 {
		return
	}
	advice := "where about 3 decimal digits are enough (activations, fp16/bf16 outputs), use the XU pipe's tanh.approx.f32, one MUFU.TANH on sm_75 and later: inline PTX asm(\"tanh.approx.f32 %0, %1;\" : \"=f\"(r) : \"f\"(x)), or --use_fast_math (recent CUDA releases compile tanhf to it on sm_75 and later: check the SASS for MUFU.TANH; it also flushes denormals and approximates division, sqrt and the other transcendentals); its maximum relative error is about 2^-11 against tanhf's 2 ulp, so keep tanhf where the value is differentiated or summed over many terms"
	if _, _, triton := tritonKernel(a.Record); triton {
		advice = "where about 3 decimal digits are enough, replace libdevice's tanh with tl.inline_asm_elementwise(\"tanh.approx.f32 $0, $1;\", \"=r,r\", [x], dtype=tl.float32, is_pure=True, pack=1): one MUFU.TANH (sm_75+) instead of the precise path; its maximum relative error is about 2^-11"
	}
	if exps > calls && exps > divs && exps > pows && exps > sins && exps > sqrts && exps > logs {
		reportPrecise(p, gain, "where about 21 bits are enough (__expf's maximum error is 2 + 1.16·|1.16·x| ulp, fine for arguments of a few units: a Gaussian, a softmax's shifted logits, a sigmoid), call __expf (or exp2f on a pre-scaled argument: an FMUL and one MUFU.EX2) instead of expf, whose SASS rounds x·log2(e) to an integer (FFMA.RM by 12582913), reduces the argument in two FFMAs by log2(e)'s high and low parts and scales the MUFU.EX2's result by 2^n, eight instructions a call against five; --use_fast_math makes every expf the fast one",
			"where about 21 bits are enough, use tl.exp (Triton lowers it to an FMUL and one MUFU.EX2) or tl.math.exp2 on a pre-scaled argument instead of libdevice's exp, whose SASS rounds, reduces in two FFMAs and rescales around the same MUFU.EX2",
			fmt.Sprintf("%.0f%% of the executed instructions are precise expf on %s (%.3g warp-level calls: a rounding of x·log2(e) to an integer, a two-FFMA reduction by log2(e)'s high and low parts, a MUFU.EX2 and a scaling by 2^n, about 8 instructions a call); at the device's issue and XU peaks they take %.0f%% of the kernel's time, __expf (an FMUL, a denormal test and the MUFU.EX2) %.0f%%",
				100*share, strings.Join(where, ", "), exps, 100*before/t, 100*after/t),
			"precise_exp_calls", exps, share, locs)
		return
	}
	if logs > calls && logs > divs && logs > pows && logs > sins+tans && logs > sqrts {
		reportPrecise(p, gain, "where about 21 bits are enough (__logf's maximum absolute error is 2^-21.41 for x in [0.5, 2], its relative error 2^-21 elsewhere, denormals handled), call __logf (or __log2f, __log10f: a MUFU.LG2 and an FMUL) instead of logf, whose SASS reduces the argument by the bits of 2/3 and evaluates a polynomial of eight FFMAs, about 25 instructions a call on the FMA and ALU pipes; --use_fast_math makes every logf the fast one",
			"where about 21 bits are enough, use tl.math.log2(x) * 0.6931472 or tl.inline_asm_elementwise(\"lg2.approx.f32 $0, $1;\", \"=r,r\", [x], dtype=tl.float32, is_pure=True, pack=1) times ln 2: one MUFU.LG2 instead of libdevice's logf, a range reduction and a polynomial of eight FFMAs",
			fmt.Sprintf("%.0f%% of the executed instructions are precise logf on %s (%.3g warp-level calls: a range reduction by the bits of 2/3, a polynomial of eight FFMAs and the exponent's terms, about 25 instructions a call and no MUFU); at the device's issue and XU peaks they take %.0f%% of the kernel's time, __logf (a MUFU.LG2 and an FMUL) %.0f%%",
				100*share, strings.Join(where, ", "), logs, 100*before/t, 100*after/t),
			"precise_log_calls", logs, share, locs)
		return
	}
	if sins+tans > calls && sins+tans > divs && sins+tans > pows {
		advice = "where about 20 bits of a sine near 0 are enough (|x| within a few π; __sinf's absolute error is 2^-21.41 for |x| ≤ π and grows with |x|), call __sinf / __cosf / __sincosf (an FMUL.RZ and one MUFU.SIN or MUFU.COS) instead of sinf, whose SASS reduces x by π/2 in three FFMAs, tests the quadrant's two bits, evaluates a polynomial and branches around the Payne-Hanek slow path for |x| ≥ 105615; sinpif(x) / sincospif(x) skip the reduction's FFMAs where the argument is a multiple of π already; --use_fast_math makes every sinf the fast one"
		if _, _, triton := tritonKernel(a.Record); triton {
			advice = "where about 20 bits near 0 are enough, use tl.extra.cuda.libdevice.fast_sinf (or tl.inline_asm_elementwise(\"sin.approx.f32 $0, $1;\", \"=r,r\", [x], dtype=tl.float32, is_pure=True, pack=1)): one MUFU.SIN instead of the precise sinf's range reduction, quadrant tests and polynomial"
		}
		what, fast := "sinf or cosf", "__sinf (an FMUL and one MUFU.SIN)"
		if tans > 0 {
			what, fast = "sinf, cosf or tanf", "__sinf (an FMUL and one MUFU.SIN) and __tanf (three MUFUs: SIN, COS and the quotient's RCP)"
			advice += "; __tanf is __sinf/__cosf, three MUFUs a call on the XU pipe, whose quarter-rate issue the fix may reach"
		}
		p.report(estimate(gain), Note{
			Message: fmt.Sprintf("%.0f%% of the executed instructions are precise %s on %s (%.3g warp-level calls: a range reduction by π/2 in three FFMAs, the quadrant's bit tests, a polynomial and a branch around the Payne-Hanek slow path, about 24 instructions a call); at the device's issue and XU peaks they take %.0f%% of the kernel's time, %s %.0f%%",
				100*share, what, strings.Join(where, ", "), sins+tans, 100*before/t, fast, 100*after/t),
			Advice:    advice,
			Evidence:  append(p.evidence("duration", "compute_throughput_pct"), fmt.Sprintf("precise_sin_calls=%.4g", sins), fmt.Sprintf("precise_inst_share=%.3f", share)),
			Locations: locs,
		})
		return
	}
	if pows > calls && pows > divs {
		p.report(estimate(gain), Note{
			Message: fmt.Sprintf("%.0f%% of the executed instructions are precise powf on %s (%.3g warp-level calls: special-case tests, a logarithm and an exp2 by polynomials, about 70 instructions a call); at the device's issue and XU peaks they take %.0f%% of the kernel's time, the exponent's few multiplications (and a sqrtf for a half) %.0f%%",
				100*share, strings.Join(where, ", "), pows, 100*before/t, 100*after/t),
			Advice:    "where the exponent is a small integer or half-integer, write the product: powf(v, 2.0f) is v * v, powf(v, 1.5f) is v * sqrtf(v) (for v ≥ 0; powf(v, 1.5f) is NaN for v < 0, v * sqrtf(v) too), powf(v, 0.5f) is sqrtf(v) (but −0 and −inf differ); a general exponent can use exp2f(e * __log2f(v)) or __powf (MUFU.LG2 and MUFU.EX2, about 2 ulp plus the exponent's scaling of log2's error; wrong for v ≤ 0), or --use_fast_math",
			Evidence:  append(p.evidence("duration", "compute_throughput_pct"), fmt.Sprintf("precise_pow_calls=%.4g", pows), fmt.Sprintf("precise_inst_share=%.3f", share)),
			Locations: locs,
		})
		return
	}
	if sqrts > calls && sqrts >= divs-rdivs {
		advice := "where about 22 bits are enough (the approximation's error is 2 ulp or less, flushing denormals), replace a division by sqrtf(q) with a product by rsqrtf(q) (v / sqrtf(q) → v * rsqrtf(q): one MUFU.RSQ serves every division by it, each one FMUL), and a sqrtf the value does not need (a comparison of distances: compare the squares) with nothing; -prec-sqrt=false (part of --use_fast_math) compiles every sqrtf to one MUFU. sqrtf's SASS is a MUFU.RSQ, a range test around a slow-path CALL, two FMULs and two FFMAs of refinement and rounding: about ten instructions a call"
		if _, _, triton := tritonKernel(a.Record); triton {
			advice = "where about 22 bits are enough, use tl.math.rsqrt(q) and multiply (v * tl.math.rsqrt(q) instead of v / tl.sqrt(q)), or compare squared values instead of their square roots; tl.sqrt is correctly rounded (a MUFU.RSQ, a range test and about eight instructions of refinement a call)"
		}
		byRoots := ""
		if rdivs > 0 {
			byRoots = " and IEEE divisions by them"
		}
		what := fmt.Sprintf("%.3g correctly rounded sqrtf (a MUFU.RSQ, a slow-path test and refinement, about ten instructions a call)", sqrts)
		if rdivs > 0 {
			what += fmt.Sprintf(" and %.3g IEEE divisions by their results (MUFU.RCP, an FCHK and five FFMAs each, where a product by rsqrtf is one FMUL)", rdivs)
		}
		p.report(estimate(gain), Note{
			Message: fmt.Sprintf("%.0f%% of the executed instructions are precise square roots%s on %s (%s, warp-level); at the device's issue and XU peaks they take %.0f%% of the kernel's time, rsqrtf or the approximation %.0f%%",
				100*share, byRoots, strings.Join(where, ", "), what, 100*before/t, 100*after/t),
			Advice:    advice,
			Evidence:  append(p.evidence("duration", "compute_throughput_pct"), fmt.Sprintf("precise_sqrt_calls=%.4g", sqrts), fmt.Sprintf("ieee_div_by_sqrt=%.4g", rdivs), fmt.Sprintf("precise_inst_share=%.3f", share)),
			Locations: locs,
		})
		return
	}
	if divs > calls {
		advice = "where a result within 2 ulp is enough, divide with __fdividef(x, y) (MUFU.RCP and one FMUL; or x * __frcp_rn(y) where y is reused) instead of the IEEE-rounded x / y, whose SASS is MUFU.RCP, an FCHK range check on the XU pipe, five FFMAs of the refinement and a branch to a slow path; --use_fast_math (-prec-div=false) does it for the whole file. __fdividef's error is 2 ulp for |y| in [2^-126, 2^126] and it returns 0 for |y| beyond 2^126, so keep x / y where y can be that large or where the value must round correctly"
		if _, _, triton := tritonKernel(a.Record); triton {
			advice = "where a result within 2 ulp is enough, divide with tl.math.fdiv(x, y, ieee_rounding=False) or multiply by a reciprocal computed once, instead of the IEEE-rounded x / y (MUFU.RCP, an FCHK on the XU pipe, five FFMAs and a slow-path branch a division)"
		}
		p.report(estimate(gain), Note{
			Message: fmt.Sprintf("%.0f%% of the executed instructions are IEEE float divisions on %s (%.3g warp-level divisions: MUFU.RCP, an FCHK on the XU pipe and five FFMAs of refinement a division, ten instructions where __fdividef is two); at the device's issue and XU peaks they take %.0f%% of the kernel's time, __fdividef %.0f%%",
				100*share, strings.Join(where, ", "), divs, 100*before/t, 100*after/t),
			Advice:    advice,
			Evidence:  append(p.evidence("duration", "compute_throughput_pct"), fmt.Sprintf("ieee_div_calls=%.4g", divs), fmt.Sprintf("precise_inst_share=%.3f", share)),
			Locations: locs,
		})
		return
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.0f%% of the executed instructions are precise tanhf on %s (%.3g calls: a polynomial or 1 − 2/(e^{2|x|} + 1), two MUFU and about 14 FMA-pipe instructions a call); at the device's issue and XU peaks they take %.0f%% of the kernel's time, the hardware's tanh.approx.f32 (one MUFU.TANH) %.0f%%",
			100*share, strings.Join(where, ", "), calls, 100*before/t, 100*after/t),
		Advice:    advice,
		Evidence:  append(p.evidence("duration", "compute_throughput_pct"), fmt.Sprintf("precise_tanh_calls=%.4g", calls), fmt.Sprintf("precise_tanh_inst_share=%.3f", share)),
		Locations: locs,
	})
}

// reportPrecise reports precise-math on one function's precise calls:
// its advice (tritonAdvice for a Triton kernel), the message, and the
// calls under callsName in the evidence with the instructions' share.
func reportPrecise(p *Pass, gain float64, advice, tritonAdvice, message, callsName string, calls, share float64, locs []profan.Location) {
	if _, _, triton := tritonKernel(p.Kernel.Record); triton {
		advice = tritonAdvice
	}
	p.report(estimate(gain), Note{
		Message:   message,
		Advice:    advice,
		Evidence:  append(p.evidence("duration", "compute_throughput_pct"), fmt.Sprintf("%s=%.4g", callsName, calls), fmt.Sprintf("precise_inst_share=%.3f", share)),
		Locations: locs,
	})
}

// attainable is the share of a pipe's or the issue slots' peak a kernel
// at its speed of light keeps (analysis's attainablePipe: sol-check11's
// mufuIlp<0> at 93 % of the XU pipe).
const attainable = 0.95

// writesDivision reports whether the text of a source line writes a
// division (a / operator outside comments and strings; in Python any
// /), or is not known. An IEEE division's FCHK on a line that writes
// none is a math function's own (atan2f's quotient of its arguments,
// inlined on the caller's line), which no __fdividef in the source
// replaces (fixtures/sol-check22's inPoly<0>: an atan2f an edge, its
// FCHK on line 848, which writes no division).
func writesDivision(file, text string) bool {
	if strings.TrimSpace(text) == "" {
		return true
	}
	if strings.HasSuffix(file, ".py") {
		return strings.Contains(text, "/")
	}
	return divides(text)
}
