package rules

import (
	"slices"
	"strings"
)

// The state a serial loop carries and how it updates it: whether its
// steps are the work (slNonlinear) or a series' sum (slSeries).

// slNonlinear reports whether a loop (prog[lo..hi]) carries a state it
// updates nonlinearly: a product of two values that depend on the state
// (v·v, z² + c: a polynomial or chaotic map, fixtures/sol-check8's
// heavyItems<0>), a transcendental of it (MUFU: a __sinf step,
// sol-check10's spinLen<0>; a division by it: Euclid's algorithm), or a
// hash's mix, a word xor-ed with its own shifted copy beside a multiply
// of it. Such a loop has no
// closed form: its steps are the work. A linear one (a sum of terms of
// the counter, p *= g by a value the loop does not change, a count or a
// walk subtracting a counter) has one. The state is the registers the
// loop reads before it writes them, but the counters (a register only
// added to by a value the loop does not change).
func slNonlinear(prog []slInst, lo, hi int) bool {
	carried := slCarried(prog, lo, hi)
	tainted := map[string]bool{}
	for r := range carried {
		tainted[r] = true
	}
	mixes, muls := false, false
	for pass := 0; pass < 2; pass++ {
		for j := lo; j <= hi; j++ {
			x := prog[j]
			var t []int // the tainted operands' positions among srcs
			for k, s := range x.srcs {
				if tainted[s] {
					t = append(t, k)
				}
			}
			if len(t) > 0 {
				switch {
				case x.base == "MUFU":
					return true
				case x.multiplies():
					both := 0
					for _, f := range x.factors {
						if slices.ContainsFunc(f, func(r string) bool { return tainted[r] }) {
							both++
						}
					}
					if both == 2 {
						return true
					}
					if both == 1 {
						muls = true
					}
				case (x.base == "LOP3" || x.base == "LOP") && len(t) >= 2:
					// x ^ (x >> 16): a word combined with its own
					// shifted copy (a division by a constant, a
					// multiply-high and a shift, combines nothing)
					mixes = true
				}
				for _, d := range x.dsts {
					tainted[d] = true
				}
			}
		}
	}
	return mixes && muls
}

// slSeries reports whether a linear loop (prog[lo..hi], not
// slNonlinear) sums a recurrence's terms: a value the loop carries that
// it only adds to (s += d, s = fmaf(d, w, s)), each add's term made from
// the loop's other state, and that feeds nothing else in the loop (s +=
// d beside d *= v: a geometric or an arithmetic series,
// fixtures/sol-check24's annuity<0>, Σ v^k over 360 steps). Such a sum
// has a closed form whatever its trip count, a fixed one too. Not one: a
// single chain v = fmaf(v, a, b) (the tail sets' FMA chains: no term
// from other state), a coupled iteration whose values feed each other
// (sol-check20's jacobi4<96>), a term made from an integer state
// (sol-check14's cvtLoop<0>, an LCG's top bits converted and summed):
// the body is float arithmetic and the loop's counter only.
func slSeries(prog []slInst, lo, hi int) bool {
	carried := slCarried(prog, lo, hi)
	for j := lo; j <= hi; j++ {
		x := prog[j]
		switch x.base {
		case "FADD", "FMUL", "FFMA", "DADD", "DMUL", "DFMA", "MOV", "ISETP", "BRA", "NOP":
		case "IADD3", "VIADD", "IADD":
			for _, d := range x.dsts {
				if carried[d] {
					return false // an integer state, not a counter
				}
			}
		default:
			return false
		}
	}
	for s := range carried {
		adds, ok := 0, true
		for j := lo; j <= hi && ok; j++ {
			x := &prog[j]
			reads := slices.Contains(x.srcs, s)
			switch {
			case x.writes(s):
				switch x.base {
				case "FADD", "DADD":
					ok = reads
				case "FFMA", "DFMA": // s the addend, not a factor
					ok = reads && !slices.Contains(x.factors[0], s) && !slices.Contains(x.factors[1], s)
				default:
					ok = false
				}
				adds++
			case reads:
				ok = false // the sum feeds the loop's other state
			}
		}
		if !ok || adds == 0 {
			continue
		}
		// The terms: the loop's other state and what it makes.
		tainted := map[string]bool{}
		for r := range carried {
			if r != s {
				tainted[r] = true
			}
		}
		for pass := 0; pass < 2; pass++ {
			for j := lo; j <= hi; j++ {
				x := &prog[j]
				if x.writes(s) {
					continue
				}
				if slices.ContainsFunc(x.srcs, func(r string) bool { return tainted[r] }) {
					for _, d := range x.dsts {
						tainted[d] = true
					}
				}
			}
		}
		for j := lo; j <= hi; j++ {
			if x := &prog[j]; x.writes(s) && slices.ContainsFunc(x.srcs, func(r string) bool { return r != s && tainted[r] }) {
				return true
			}
		}
	}
	return false
}

// slCarried is the state a loop (prog[lo..hi]) carries: the registers it
// reads before it writes them, but its counters (a register only added to
// by a value the loop does not change).
func slCarried(prog []slInst, lo, hi int) map[string]bool {
	written := map[string]bool{}
	for j := lo; j <= hi; j++ {
		for _, d := range prog[j].dsts {
			written[d] = true
		}
	}
	carried := map[string]bool{}
	seenW := map[string]bool{}
	for j := lo; j <= hi; j++ {
		for _, s := range prog[j].srcs {
			if written[s] && !seenW[s] {
				carried[s] = true
			}
		}
		for _, d := range prog[j].dsts {
			seenW[d] = true
		}
	}
	// A counter's writers each add to it what the loop does not change.
	for r := range carried {
		counter := true
		for j := lo; j <= hi && counter; j++ {
			x := prog[j]
			if !x.writes(r) {
				continue
			}
			switch x.base {
			case "IADD3", "VIADD", "IADD", "IMAD", "MOV":
			default:
				counter = false
			}
			if x.base == "IMAD" && !strings.Contains(x.op, "IADD") || x.base == "MOV" {
				counter = false
			}
			self := false
			for _, s := range x.srcs {
				if s == r {
					self = true
				} else if written[s] {
					counter = false
				}
			}
			counter = counter && self
		}
		if counter {
			delete(carried, r)
		}
	}
	return carried
}

// multiplies reports whether an instruction multiplies its first two
// operands after those it writes (an FFMA's, an IMAD's), not a move or
// an add written as one.
func (in *slInst) multiplies() bool {
	switch in.base {
	case "FMUL", "FFMA", "DMUL", "DFMA", "HMUL2", "HFMA2", "IMUL", "FMUL2", "FFMA2":
		return true
	case "IMAD":
		return !strings.Contains(in.op, ".MOV") && !strings.Contains(in.op, ".IADD") && !strings.Contains(in.op, ".SHL")
	}
	return false
}
