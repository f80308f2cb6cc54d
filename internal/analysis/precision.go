package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/gpumodel"
)

// DoubleOnFloat is a kernel that computes in double precision on float
// data: its source page converts floats to doubles (F2F.F64.F32) and the
// results back (F2F.F32.F64), reads and writes no double data (8- or
// 16-byte global words other than float vectors and broadcast tables:
// floatVectors), and its arithmetic runs on the FP64 pipe (DFMA, DMUL, DADD, the
// FP64 MUFU approximations). An exp() or a 0.5 literal on a float
// promotes the whole expression; on float data the necessary work is
// FP32 work, at the FP32 pipe's rate (2× the FP64 pipe's on an H100 or
// H200, 32× or 64× on the GeForce and workstation parts).
type DoubleOnFloat struct {
	Up, Down float64 // warp-level conversions float → double and back
	FP64     float64 // warp-level FP64 instructions
	// SP and DP are the kernel's FP32 and FP64 operations.
	SP, DP float64
	// Ideal64 is the seconds its FP64 operations take at the attainable
	// FP64 peak (as it runs), Ideal32 those of all its operations done in
	// float at the attainable FP32 peak.
	Ideal64, Ideal32 float64
	// Kept is the seconds the instructions a float version keeps take at
	// the SM's attainable issue rate: every instruction but the FP64
	// math, the conversions, the FP64 MUFU seeds and the uniform moves
	// of the double literals.
	Kept float64
	// Convert is the seconds its conversions take at the attainable peak
	// of the conversions from and to 64-bit types (16 a clock an SM on a
	// V100, an A100, an H100 or an H200, whose ncu counts them on the XU
	// pipe), 0 where the GPU's rate is not known. Floats converted to
	// double and back around a DMUL and a DFMA each keep that pipe five
	// times as long as the FP64 pipe (fixtures/sol-check19's relaxMap<0>:
	// 67.1 M F2F warp instructions, 540 µs of its 583 µs at 95 % of that
	// peak, the XU pipe at 94 %; its DMUL and DFMA 101 µs at the FP64
	// pipe's).
	Convert float64
	// Float is the seconds at the SM's attainable issue rate of every
	// instruction but the conversions and the literals' moves, each FP64
	// instruction kept as one FP32 instruction: a float version's issue
	// where the FP64 work is arithmetic between conversions (a DMUL is an
	// FMUL, a DFMA an FFMA, each an issue slot whatever its FLOPs), not a
	// double math function's polynomial, which float replaces by a few
	// instructions around a MUFU (relaxMap<0>: 67.1 M DMUL and DFMA and
	// 22.5 M kept instructions, 90 µs; its float twin, 32 FMUL and FFMA
	// a step, ran in 105 µs, where its FLOPs at the FP32 pipe's peak said
	// 51).
	Float float64
}

// DoubleWork reads a kernel's double-precision work on float data; ok is
// false without the source page, the GPU's peaks, or the evidence.
func DoubleWork(a *Kernel) (w DoubleOnFloat, ok bool) {
	if a.Spec == nil || len(a.Record.Source) == 0 || !(a.Spec.PeakFP32() > 0) || !(a.Spec.PeakFP64() > 0) {
		return w, false
	}
	seen := map[string]bool{}
	var slots, all, literals float64 // the FP64 pipe's warp instructions; every one; UMOVs
	var floatWide map[string]bool    // floatVectors(a), read at the first wide access
	for _, s := range a.Record.Source {
		if s.Address == "" || seen[s.Address] {
			continue
		}
		seen[s.Address] = true
		op := Opcode(s.SASS)
		n := sourceInst(s)
		all += n
		switch {
		case strings.HasPrefix(op, "F2F.F64.F32"):
			w.Up += n
		case strings.HasPrefix(op, "F2F.F32.F64"):
			w.Down += n
		case strings.HasPrefix(op, "DFMA") || strings.HasPrefix(op, "DMUL") || strings.HasPrefix(op, "DADD"):
			w.FP64 += n
			slots += n
		case strings.HasPrefix(op, "DSETP"):
			// A double comparison issues to the FP64 pipe too, a slot
			// as a DFMA's; in float it is an FSETP, kept (sol-check17's
			// kepler<double>: 80.1 M DFMA, DMUL and DADD and 7.05 M
			// DSETP, 87.1 M warp instructions, what ncu's FP64 pipe
			// at 49.0 % of its two a cycle an SM counts; its MUFU.RCP64H,
			// F2I.F64 and I2F.F64 are not among them).
			slots += n
		case strings.HasPrefix(op, "MUFU") && strings.Contains(op, "64"):
			w.FP64 += n
		case op == "UMOV":
			// A double literal's two halves, moved into uniform
			// registers for the FP64 instruction that reads it; a float
			// literal is an immediate operand of its FFMA.
			literals += n
		case wideGlobal(op) && n > 0:
			if floatWide == nil {
				floatWide = floatVectors(a)
			}
			if !floatWide[s.Address] {
				return w, false // 8- or 16-byte words: double data
			}
		}
	}
	if !(w.Up > 0) || !(w.Down > 0) || !(w.FP64 > 0) {
		return w, false
	}
	sp, okS := a.Value("flop_count_sp")
	dp, okD := a.Value("flop_count_dp")
	if !okS || !okD {
		sp, dp = SourceFlops(a.Record)
	}
	if !(dp > 0) {
		return w, false
	}
	w.SP, w.DP = sp, dp
	// The FP64 pipe takes a DFMA, a DMUL, a DADD or a DSETP a lane a clock; its
	// peak counts an FMA as two operations, so a kernel of DMULs and
	// DADDs fills it at half its FLOP rate (fixtures/sol-check10's
	// damp<0>: 6.85 G FLOP, 215 µs at the peak, but 138 M FP64 warp
	// instructions, 278 µs, of its 464 µs: ncu's FP64 pipe at 57 %).
	w.Ideal64 = math.Max(dp, 2*32*slots) / (attainablePipe * a.Spec.PeakFP64())
	w.Ideal32 = (sp + dp) / (attainablePipe * a.Spec.PeakFP32())
	if r := a.Spec.PeakWarpInstructions(); r > 0 {
		w.Kept = math.Max(0, all-w.FP64-w.Up-w.Down-literals) / (attainablePipe * r)
		w.Float = math.Max(0, all-w.Up-w.Down-literals) / (attainablePipe * r)
	}
	if r := a.Spec.PeakConvert64(); r > 0 {
		w.Convert = 32 * (w.Up + w.Down) / (attainablePipe * r)
	}
	return w, true
}

// FP64Share is the share of a kernel's time its FP64 operations, or its
// conversions to double and back, need at their pipe's attainable peak
// for that pipe to be taken as its limit.
const FP64Share = 0.5

// Limits reports whether the double work limits a kernel of duration t:
// its FP64 operations at the FP64 pipe's attainable peak, or its
// conversions at theirs, need FP64Share of the time or more.
func (w DoubleOnFloat) Limits(t float64) bool {
	return t > 0 && math.Max(w.Ideal64, w.Convert) >= FP64Share*t
}

// ConvertBound reports whether the conversions, not the FP64 math, are
// the double work's busier pipe.
func (w DoubleOnFloat) ConvertBound() bool { return w.Convert > w.Ideal64 }

// Rate is the FP32 pipe's peak over the FP64 pipe's on the kernel's GPU.
func (w DoubleOnFloat) Rate(a *Kernel) float64 { return a.Spec.PeakFP32() / a.Spec.PeakFP64() }

// Describe says the evidence in one sentence.
func (w DoubleOnFloat) Describe() string {
	return fmt.Sprintf("%.3g float→double conversions (F2F.F64.F32) and %.3g back (F2F.F32.F64) around %.3g FP64 instructions (warp-level)",
		w.Up, w.Down, w.FP64)
}

// floatVectors is the set of a kernel's wide global accesses (8 or 16
// bytes a thread) that hold no double data: a table read, the warp's
// lanes reading one or two sectors a request where data would take 8 or
// 16 (a math library's coefficients: double sin's
// __cudart_sin_cos_coeffs, LDG.E.128.CONSTANT at one or two sectors a
// request, fixtures/sol-check15's haversine<double>), and a float vector,
// every 32-bit register a load writes converted by an F2F.F64.F32, every
// one a store reads written by an F2F.F32.F64 (Triton's four fp32 a
// thread, LDG.E.128 and STG.E.128 around its fp64 math: sol-check15's
// gmm_f64). A double's register pair feeds DFMA work unconverted.
func floatVectors(a *Kernel) map[string]bool {
	up, down := map[string]bool{}, map[string]bool{} // registers converted up; written down
	for _, s := range a.Record.Source {
		op := Opcode(s.SASS)
		if !strings.HasPrefix(op, "F2F.") {
			continue
		}
		f := strings.Fields(strings.ReplaceAll(s.SASS[strings.Index(s.SASS, op)+len(op):], ",", " "))
		if len(f) != 2 {
			continue
		}
		switch {
		case strings.HasPrefix(op, "F2F.F64.F32"):
			up[f[1]] = true
		case strings.HasPrefix(op, "F2F.F32.F64"):
			down[f[0]] = true
		}
	}
	out := map[string]bool{}
	var prog *sassProgram // the source page in program order, made at the first partly converted load
	for _, in := range a.Model.Instructions {
		if in.Space != "global" || !wideGlobal(Opcode(in.SASS)) {
			continue
		}
		if in.Operation == "load" && (in.Pattern.Kind == gpumodel.Broadcast || in.IdealSectorsPerRequest > 0 && in.IdealSectorsPerRequest <= 2) {
			out[in.Address] = true
			continue
		}
		op := Opcode(in.SASS)
		f := strings.Fields(strings.ReplaceAll(in.SASS[strings.Index(in.SASS, op)+len(op):], ",", " "))
		if len(f) < 2 {
			continue
		}
		reg, set := f[0], up // a load's destination
		if in.Operation == "store" {
			reg, set = f[len(f)-1], down // a store's data
		} else if in.Operation != "load" {
			continue
		}
		words := 2
		if strings.Contains(op, ".128") {
			words = 4
		}
		out[in.Address] = covered(reg, words, set)
		if !out[in.Address] && in.Operation == "load" {
			if prog == nil {
				prog = programOf(a)
			}
			out[in.Address] = prog.floatWords(in.Address, reg, words)
		}
	}
	return out
}

// floatWords reports whether the words a wide load at addr writes
// (registers reg, reg+1, ..., words of them) are floats by their use:
// read on after the load, in program order, until each is written again,
// one or more goes through an F2F.F64.F32 and none is read as a double
// (an FP64 instruction's operand, an F2F.F32.F64's). A float vector of
// which the kernel uses only some lanes converts only those
// (fixtures/sol-check18's ljEnergy<double>: a float4 position whose x, y
// and z are widened to double, w unused but copied to shared memory
// with the rest), or every one is an operand of FP32 arithmetic (FADD,
// FMUL, FFMA) and none is read as a double: a float vector whose lanes
// are computed on in float before the promotion (fixtures/sol-check21's
// rbfField<0>: a float2 point q, q.x − c.x and q.y − c.y in FADDs, their
// squares' sum widened to divide by the double 2σ²). A double's register
// pair feeds FP64 math unconverted; its low word is no FP32 operand.
func (p *sassProgram) floatWords(addr, reg string, words int) bool {
	i, ok := p.At[addr]
	r0, err := strconv.Atoi(strings.TrimPrefix(reg, "R"))
	if !ok || err != nil || !strings.HasPrefix(reg, "R") {
		return false
	}
	live := map[int]bool{}
	for k := 0; k < words; k++ {
		live[r0+k] = true
	}
	converted := 0
	fp32 := map[int]bool{} // the words an FP32 instruction reads
	for j := i + 1; j < len(p.Recs) && j <= i+64 && len(live) > 0; j++ {
		op, args := p.Fields(j)
		if len(args) == 0 {
			continue
		}
		srcs, dst := args[1:], registers(args[0])
		if strings.Contains(args[0], "[") {
			srcs, dst = args, nil // a store writes no register
		}
		double := strings.HasPrefix(op, "F2F.F32.F64") || fp64Op(op)
		for _, a := range srcs {
			for _, r := range registers(a) {
				// A double's pair starts at an even register: an odd
				// one in an FP64 instruction is a pair's high word
				// (MUFU.RCP64H R3, R7 reads R6:R7's), not R7:R8.
				hit := live[r] || double && r%2 == 0 && live[r+1]
				switch {
				case !hit:
				case double:
					return false
				case strings.HasPrefix(op, "F2F.F64.F32"):
					converted++
				case fp32Arith(op):
					fp32[r] = true
				}
			}
		}
		if len(dst) > 0 {
			n := 1
			switch {
			case strings.Contains(op, ".128"):
				n = 4
			case strings.Contains(op, ".64") || fp64Op(op) || strings.HasPrefix(op, "F2F.F64"):
				n = 2
			}
			for k := 0; k < n; k++ {
				delete(live, dst[0]+k)
			}
		}
	}
	return converted > 0 || len(fp32) == words
}

// fp32Arith reports an FP32 arithmetic instruction, whose register
// operands are floats.
func fp32Arith(op string) bool {
	return strings.HasPrefix(op, "FADD") || strings.HasPrefix(op, "FMUL") || strings.HasPrefix(op, "FFMA")
}

// fp64Op reports an instruction of the FP64 pipe, whose register
// operands are double pairs.
func fp64Op(op string) bool {
	return strings.HasPrefix(op, "DFMA") || strings.HasPrefix(op, "DMUL") || strings.HasPrefix(op, "DADD") ||
		strings.HasPrefix(op, "DSETP") || strings.HasPrefix(op, "DMNMX") || strings.HasPrefix(op, "MUFU") && strings.Contains(op, "64")
}

// covered reports whether registers reg, reg+1, ... (words of them) are
// all in set.
func covered(reg string, words int, set map[string]bool) bool {
	if !strings.HasPrefix(reg, "R") {
		return false
	}
	r, err := strconv.Atoi(reg[1:])
	if err != nil {
		return false
	}
	for i := 0; i < words; i++ {
		if !set["R"+strconv.Itoa(r+i)] {
			return false
		}
	}
	return true
}

// wideGlobal reports a global load or store of 8 or 16 bytes a thread.
func wideGlobal(op string) bool {
	if !(strings.HasPrefix(op, "LDG") || strings.HasPrefix(op, "STG")) {
		return false
	}
	return strings.Contains(op, ".64") || strings.Contains(op, ".128")
}

// Opcode is a SASS instruction's opcode, its predicate guard left out.
func Opcode(sass string) string {
	// Two fields at most, without strings.Fields' slice of all of them:
	// the rules ask it of every instruction of every kernel.
	op, rest := nextField(sass)
	if strings.HasPrefix(op, "@") {
		op, _ = nextField(rest)
	}
	return op
}

// nextField is s's first field as strings.Fields splits it, and what
// follows it.
func nextField(s string) (field, rest string) {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

// sourceSamples is a source record's warp stall samples (all reasons); ok
// is false when the page has no sampling column.
func sourceSamples(s profan.SourceRecord) (float64, bool) {
	for _, c := range s.Counter {
		if c.Name == "stall_samples" {
			return c.Value, c.Value >= 0
		}
	}
	return 0, false
}

// PreciseTanh reports whether a SASS instruction is the saturation test
// of CUDA's precise tanhf (libdevice's __nv_tanhf: FSETP.GE of |x|
// against 9.0109138, beyond which it returns ±1), one a call. The call
// runs two MUFU ops (EX2 and RCP: 1 − 2/(e^{2|x|} + 1)) and about
// fourteen FMA-pipe instructions where the function needs one
// transcendental, MUFU.TANH (tanh.approx.f32, sm_75 and later):
// fixtures/sol-check12's tanhMix<0>.
func PreciseTanh(sass string) bool {
	return strings.HasPrefix(Opcode(sass), "FSETP") && strings.Contains(sass, "|R") && strings.Contains(sass, tanhSaturation)
}

// tanhSaturation is the constant precise tanhf's SASS compares |x| with.
const tanhSaturation = "9.010913848876953125"

// PreciseTanhHeld reports whether a SASS instruction is libdevice's
// tanh saturation test as Triton's SASS spells it: FSETP.GE of a
// register that holds |x| (an FADD.FTZ Rn, |Rm|, -RZ before it) against
// 9.0109138, not the |R operand of PreciseTanh. It runs only on the
// branch for |x| ≥ 0.6, so its executions are not the calls: those are
// TanhBranch's on the same line (fixtures/sol-check19's
// tanh_rec_precise, line 94 of sol_triton19.py).
func PreciseTanhHeld(sass string) bool {
	// The constant first: it rules out nearly every instruction.
	return strings.Contains(sass, tanhSaturation) && !strings.Contains(sass, "|R") && strings.HasPrefix(Opcode(sass), "FSETP.GE")
}

// TanhBranch reports whether a SASS instruction is a test of a register
// against 0.6, the bound of precise tanh's polynomial path: with
// PreciseTanhHeld on the same line, one a call.
func TanhBranch(sass string) bool {
	return strings.Contains(sass, ", 0.60000002384185791016, PT") && !strings.Contains(sass, "|R") && strings.HasPrefix(Opcode(sass), "FSETP.GE")
}

// PrecisePow reports whether a SASS instruction is precise powf's test
// of the exponent's product against exp2's overflow bound (FSETP.GT of
// |t| against 152), one a call: fixtures/sol-check13's pow15<0>.
func PrecisePow(sass string) bool {
	return strings.HasPrefix(Opcode(sass), "FSETP.GT") && strings.Contains(sass, "|R") && strings.Contains(sass, ", 152, PT")
}

// PreciseLog reports whether a SASS instruction is precise logf's range
// reduction (libdevice's __nv_logf, also log2f's and log10f's): the
// argument's bits less 0x3f2aaaab (the bits of 2/3, an IADD3 of
// -0x3f2aaaab or its VIADD spelling 0xc0d55555), whose exponent field
// scales it into [2/3, 4/3) for a polynomial of eight FFMAs, one a call.
// The call runs about 25 instructions on the FMA and ALU pipes and no
// MUFU, where __logf is a MUFU.LG2, an FMUL by ln 2 and a denormal test
// (five): fixtures/sol-check16's logIter<0>, line 559.
func PreciseLog(sass string) bool {
	return (strings.Contains(sass, ", -0x3f2aaaab") || strings.Contains(sass, ", 0xc0d55555")) &&
		(strings.HasPrefix(Opcode(sass), "IADD3") || strings.HasPrefix(Opcode(sass), "VIADD"))
}

// PreciseExp reports whether a SASS instruction is precise expf's
// rounding of x·log2(e) to an integer (libdevice's __nv_expf): an
// FFMA.RM that adds 12582913 (0x4b400001, 1.5·2^23 + 1, whose low bits
// then hold the integer part), one a call. The call goes on with an
// FADD that takes the integer back, the reduction x·log2(e) − n in two
// FFMAs by log2(e)'s high and low parts (the low one
// 1.925963033500011079e-08: PreciseExpLow), a MUFU.EX2 of the fraction
// and an FMUL by 2^n built with a shift: eight instructions where
// __expf is an FMUL, a denormal test and scaling around the same
// MUFU.EX2 (five): fixtures/sol-check17's gaussIter<0>, line 548.
func PreciseExp(sass string) bool {
	return strings.Contains(sass, ", 12582913") && strings.HasPrefix(Opcode(sass), "FFMA.RM")
}

// PreciseExpLow reports whether a SASS instruction is precise expf's
// FFMA by the low part of log2(e), which, with the rounding PreciseExp
// marks on the same line, tells expf's reduction from another use of
// the round-to-integer constant.
func PreciseExpLow(sass string) bool {
	return strings.Contains(sass, "1.925963033500011079e-08") && strings.HasPrefix(Opcode(sass), "FFMA")
}

// PreciseSqrt reports whether a SASS instruction is the range test of a
// correctly rounded sqrtf (sqrt.rn.f32, CUDA's sqrtf without
// -prec-sqrt=false): ISETP.GT.U32 of the argument less 0xd000000 against
// 0x727fffff, outside which (zero, denormal, huge, negative, inf, NaN)
// it calls the slow path. One a call: its fast path is a MUFU.RSQ and
// about nine instructions of refinement, rounding and the branch, where
// sqrt.approx.f32 is one MUFU and rsqrtf(q) one MUFU.RSQ
// (fixtures/sol-check15's spinNorm<0>, line 548).
func PreciseSqrt(sass string) bool {
	return strings.Contains(sass, ", 0x727fffff, PT") && strings.HasPrefix(Opcode(sass), "ISETP.GT.U32")
}

// PreciseSin reports whether a SASS instruction is precise sinf's (or
// cosf's) test of |x| against 105615, beyond which it leaves the
// three-FFMA (Cody-Waite) range reduction by π/2 for the Payne-Hanek
// slow path, one a call: the call runs about 24 instructions on its fast
// path (the reduction, the quadrant's two bit tests and selects, a
// polynomial) where __sinf is an FMUL.RZ and one MUFU.SIN:
// fixtures/sol-check14's sinPhase<0>, fixtures/ncu's misc.
func PreciseSin(sass string) bool {
	// The constant first: it rules out nearly every instruction without
	// splitting the text into fields.
	return strings.Contains(sass, ", 105615, PT") && strings.Contains(sass, "|R") && strings.HasPrefix(Opcode(sass), "FSETP.GE")
}

// PreciseTan reports whether a SASS instruction is precise tanf's: the
// FFMA that adds the 1/3 term (0.3333323) of its kernel polynomial, one
// a call. tanf reduces its argument as sinf does (PreciseSin marks that
// test too), evaluates tan's polynomial and takes −1/t by a MUFU.RCP in
// the odd quadrants; __tanf is __sinf/__cosf, three MUFUs (SIN, COS and
// RCP) a call where __sinf is one (fixtures/sol-check29's mercY<1>).
func PreciseTan(sass string) bool {
	return strings.Contains(sass, ", 0.33333230018615722656") && strings.HasPrefix(Opcode(sass), "FFMA")
}

// preciseCalls is the thread-level calls on k's source page of a precise
// function, each an execution of the instruction test marks
// (PreciseTanh, PrecisePow).
func preciseCalls(k *profan.Kernel, test func(string) bool) float64 {
	calls := 0.0
	seen := map[string]bool{}
	for _, s := range k.Source {
		if s.Address == "" || seen[s.Address] || !test(s.SASS) {
			continue
		}
		seen[s.Address] = true
		for _, c := range s.Counter {
			if c.Name == "thread_inst_executed_pred_on" && c.Value > 0 {
				calls += c.Value
			}
		}
	}
	return calls
}

// preciseLogFlops is the FP32 operations of a precise logf a call
// beyond __logf's one FMUL: the FADD of −1, eight polynomial FFMAs, an
// FMUL and three FFMAs that assemble the result (24 a call, read from
// fixtures/sol-check16's logIter<0>: 26 FLOP a step with its fmaf).
const preciseLogFlops = 23

// preciseExpFlops is the FP32 operations of a precise expf a call
// beyond __expf's one FMUL: the FFMA.SAT, the rounding FFMA.RM, the FADD,
// the reduction's two FFMAs and the FMUL by 2^n (10 a call, read from
// fixtures/sol-check17's gaussIter<0>: 6.98e9 FLOP for 537 M calls with
// each step's FMUL and FFMA, 13 a step, against gaussIter<1>'s 4).
const preciseExpFlops = 9

// precisePowFlops is the FP32 operations of a precise powf a call beyond
// those of its exponent's few multiplications (v * sqrtf(v) for 1.5):
// fixtures/sol-check13's pow15<0>, 1.61e10 FLOP for 2.68e8 calls and
// their fmaf, about 60 a call, against about 5 for the product and the
// fmaf.
const precisePowFlops = 55
