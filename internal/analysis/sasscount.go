package analysis

import (
	"strings"

	"github.com/profan-dev/profan"
)

// The SASS-counting helpers of the headroom and the rules: instructions
// read off the source page by operation (eachSASS, eachSASSOp), a
// kernel's FLOPs from them (SourceFlops), a min-plus recurrence's steps
// (TropicalSteps) and a product's multiply-adds (productMads), moved
// out of headroom.go as they were.

// TropicalSteps is a min-plus (or max-plus) product's steps on the
// source page, warp-level: each FMNMX that takes the sum an FADD wrote
// (min(acc, a + b)), the product's multiply-add, which its shared loads
// feed as an FFMA's do (fixtures/sol-check14's minplus<1>: two shared
// loads an add and a min, L1/shared at 92 %, read as shared-memory work
// of its own, headroom 3 %; its 4×4 register tile ran 0.63 faster). A
// reduction's min or max of loaded values, with no sum, is not one.
// An L1-distance product's step, the accumulate of an absolute
// difference (an FADD that takes |d| of the difference d an FADD
// wrote, no FFMA and no FMNMX), counts the same way
// (fixtures/sol-check15's l1dist<1>: two shared loads a subtract and
// an add, read as shared-memory work of its own; its 4×4 register tile
// ran 0.68 faster). So does an L∞-distance product's step, the max (or
// min) of an absolute difference (an FMNMX that takes |d| of the
// difference d an FADD wrote: max(acc, |a − b|); fixtures/sol-check25's
// chebMat<1>: two shared loads a subtract and a max, read as
// shared-memory work of its own; its 4×4 register tile ran 0.65 faster).
// So does a max-times product's step, the max (or min) of a product an
// FMUL of two registers wrote (max(acc, a·b), no FFMA: fixtures/
// sol-check29's maxTimes<1>, two shared loads an FMUL and an FMNMX,
// L1/shared at 93 %, read as shared-memory work of its own; its 4×4
// register tile ran 0.61 faster): whatever the op, the step a shared
// load or two feed is what a register tile reuses. An FMUL by a constant
// or an immediate (a scale) is no product.
func TropicalSteps(k *profan.Kernel) float64 {
	var steps float64
	sum := map[string]bool{} // registers an FADD (or a product's FMUL) last wrote
	isReg := func(r string) bool {
		r = strings.Trim(strings.TrimPrefix(r, "-"), "|")
		return strings.HasPrefix(r, "R") && r != "RZ"
	}
	seen := map[string]bool{}
	for _, s := range k.Source {
		if s.Address == "" || seen[s.Address] {
			continue
		}
		seen[s.Address] = true
		f := strings.Fields(strings.ReplaceAll(s.SASS, ",", " "))
		if len(f) > 0 && strings.HasPrefix(f[0], "@") {
			f = f[1:]
		}
		if len(f) < 2 {
			continue
		}
		op, dst := f[0], f[1]
		fadd := op == "FADD" || strings.HasPrefix(op, "FADD.")
		if op == "FMNMX" && len(f) >= 4 && (sum[f[2]] || sum[f[3]] || absOf(f[2], sum) || absOf(f[3], sum)) {
			steps += sourceInst(s)
		}
		if fadd && len(f) >= 4 && (absOf(f[2], sum) || absOf(f[3], sum)) {
			steps += sourceInst(s)
		}
		sum[dst] = fadd || (op == "FMUL" || strings.HasPrefix(op, "FMUL.")) && len(f) >= 4 && isReg(f[2]) && isReg(f[3])
	}
	return steps
}

// BitProductSteps is a binary product's steps on the source page,
// warp-level: each POPC of a register a LOP3.LUT of two registers (an
// AND, an XOR) last wrote, the product's multiply-add, which its shared
// loads feed as an FFMA's do (fixtures/sol-check21's andPopMM<1>: the
// AND-popcount similarity of fingerprints, two shared loads an AND, a
// POPC and an add, L1/shared at 93 %, read as shared-memory work of its
// own, headroom 5 %; its 4×4 register tile ran 0.24 faster, held by the
// POPCs on the XU pipe). Instructions are read in address order; a POPC
// of a loaded word (a bit count) is not one.
func BitProductSteps(a *Kernel) float64 {
	popc := false
	for _, s := range a.Record.Source {
		popc = popc || s.SASS != "" && Opcode(s.SASS) == "POPC"
	}
	if !popc {
		return 0
	}
	p := programOf(a)
	isReg := func(r string) bool { return strings.HasPrefix(r, "R") && r != "RZ" }
	var steps float64
	pair := map[string]bool{} // registers a LOP3.LUT of two registers last wrote
	for i, op := range p.Ops {
		args := p.Args[i]
		if len(args) == 0 {
			continue
		}
		if op == "POPC" && len(args) >= 2 && pair[strings.TrimPrefix(args[1], "~")] {
			steps += sourceInst(p.Recs[i])
		}
		pair[args[0]] = strings.HasPrefix(op, "LOP3.LUT") && len(args) >= 4 && isReg(args[1]) && isReg(args[2]) && args[3] == "RZ"
	}
	return steps
}

// absOf reports whether a SASS operand is the absolute value (|R|, or
// -|R|) of a register an FADD last wrote.
func absOf(x string, sum map[string]bool) bool {
	x = strings.TrimPrefix(x, "-")
	if len(x) < 3 || x[0] != '|' || x[len(x)-1] != '|' {
		return false
	}
	return sum[x[1:len(x)-1]]
}

// products are the half2 and 32-bit integer multiply-adds of a kernel's
// source page that accumulate (HFMA2 and IMAD d, a, b, d of two
// registers, per thread executed with their predicate on; an address's
// IMAD by a constant, IMAD's other forms and HFMA2.MMA, a move, left
// out), known when its shared loads feed them: half such a multiply-add
// (warp-level) per shared load or more, as l1Need reads a product, and
// a quarter of its instructions or more (fixtures/sol-check7's igemm16,
// sol-check8's hgemm16; not a tiled transpose's index arithmetic,
// fixtures/ncu's transposeCoalesced).
type products struct {
	hfma2, imad float64
	known       bool
}

func productMads(k *profan.Kernel) products {
	var p products
	var lds, mads, all float64
	seen := map[string]bool{}
	for _, s := range k.Source {
		if s.Address == "" || seen[s.Address] {
			continue
		}
		seen[s.Address] = true
		op, thr, inst := Opcode(s.SASS), sourceThreads(s), sourceInst(s)
		all += inst
		switch {
		case (op == "HFMA2" || strings.HasPrefix(op, "HFMA2.") && !strings.HasPrefix(op, "HFMA2.MMA")) && accumulates(s.SASS):
			p.hfma2 += thr
			mads += inst
		case op == "IMAD" && accumulates(s.SASS):
			p.imad += thr
			mads += inst
		case strings.HasPrefix(op, "LDS"):
			lds += inst
		}
	}
	p.known = lds > 0 && mads >= 0.5*lds && mads >= 0.25*all && p.hfma2+p.imad > 0
	return p
}

// accumulates reports whether a SASS multiply-add takes its three
// operands from registers (d = a·b + c): an inner product's step, not an
// address's scaling by a constant (i·4 + base) or a plain multiply (+RZ).
func accumulates(sass string) bool {
	f := strings.Fields(sass)
	if len(f) > 0 && strings.HasPrefix(f[0], "@") {
		f = f[1:]
	}
	if len(f) < 2 {
		return false
	}
	ops := strings.Split(strings.Join(f[1:], " "), ",")
	if len(ops) != 4 {
		return false
	}
	reg := func(o string) string {
		r, _, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(o), "-")), ".")
		return r
	}
	isReg := func(r string) bool { return strings.HasPrefix(r, "R") && r != "RZ" }
	return isReg(reg(ops[1])) && isReg(reg(ops[2])) && isReg(reg(ops[3]))
}

// SourceFlops counts the FP32 and FP64 operations of the source page's
// SASS (an FMA two, an add or a multiply one, per thread executed with
// its predicate on), for a details page that exports no operation
// counts; 0, 0 without the source page. Each address counts once: the
// page lists an instruction under its CUDA line and again in the SASS.
func SourceFlops(k *profan.Kernel) (sp, dp float64) {
	eachSASS(k, "thread_inst_executed_pred_on", func(base string, n float64) {
		switch base {
		case "FFMA":
			sp += 2 * n
		case "FADD", "FMUL":
			sp += n
		case "DFMA":
			dp += 2 * n
		case "DADD", "DMUL":
			dp += n
		}
	})
	return sp, dp
}

// eachSASSOp is eachSASS with the whole opcode ("MUFU.SIN" of "@P0
// MUFU.SIN R1, R2").
func eachSASSOp(k *profan.Kernel, counter string, f func(op string, n float64)) {
	seen := map[string]bool{}
	for _, s := range k.Source {
		if s.Address != "" {
			if seen[s.Address] {
				continue
			}
			seen[s.Address] = true
		}
		op := Opcode(s.SASS)
		if op == "" {
			continue
		}
		n := 0.0
		for _, c := range s.Counter {
			if c.Name == counter && c.Value > 0 {
				n = c.Value
			}
		}
		f(op, n)
	}
}

// eachSASS calls f with each SASS instruction of k's source page once
// (the page lists an address again under its CUDA line), by its
// opcode's base ("FFMA" of "@P0 FFMA.FTZ"), with the value of its
// counter named counter (0 where absent).
func eachSASS(k *profan.Kernel, counter string, f func(base string, n float64)) {
	eachSASSOp(k, counter, func(op string, n float64) {
		base, _, _ := strings.Cut(op, ".")
		f(base, n)
	})
}
