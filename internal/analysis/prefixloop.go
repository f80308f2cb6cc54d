package analysis

import (
	"strings"
)

// PrefixWork is the loops of a kernel whose every thread sums (or
// otherwise folds) words that every thread of the grid loads alike,
// from addresses of the arguments and the loop's counter alone, for a
// trip count its own index sets: a prefix each thread recomputes from
// the start (fixtures/sol-check24's raggedScale<0>, whose threads each
// sum the lengths of the sequences before their own, len4[b] for b <
// blockIdx.y, for their start: 71 M of its instructions at line 486,
// the loads all served by L1). Computed once (prefix sums passed in, as
// cu_seqlens), each thread loads one word.
type PrefixWork struct {
	// Inst is the warp-level instructions executed in the loops, All
	// the kernel's; Loads the loops' global loads (warp-level), Memory
	// the kernel's memory instructions through L1 (global, local and
	// shared loads and stores, atomics).
	Inst, All, Loads, Memory float64
	// Addrs are the loops' instructions (by address).
	Addrs map[string]bool
}

// Share is the loops' share of the kernel's instructions.
func (w PrefixWork) Share() float64 {
	if !(w.All > 0) {
		return 0
	}
	return w.Inst / w.All
}

// PrefixLoops reads a kernel's prefix loops from its source page: loops
// (a backward branch to its target) that load global words, every one of
// them at an address the same in every thread of the grid (gridVarying:
// constants, arguments and the loop's counters), store nothing and wait
// at no barrier, and whose branch tests a value that differs between
// threads (their trip count a thread's or a block's index sets); false
// without the source page or such a loop.
func PrefixLoops(a *Kernel) (w PrefixWork, ok bool) {
	if len(a.Record.Source) == 0 || !manyWarps(a.Record) {
		return w, false
	}
	p := programOf(a)
	ins, varying, _ := gridVarying(p, true)
	w.Addrs = map[string]bool{}
	for i, s := range p.Recs {
		n := sourceInst(s)
		w.All += n
		base, _, _ := strings.Cut(ins[i].op, ".")
		switch base {
		case "LDG", "STG", "LD", "ST", "LDS", "STS", "LDL", "STL", "ATOM", "ATOMG", "ATOMS", "RED", "REDG", "LDGSTS":
			w.Memory += n
		}
	}
	for i, s := range p.Recs {
		op, args := p.Fields(i)
		if !strings.HasPrefix(op, "BRA") || len(args) == 0 || !varying[i] || w.Addrs[s.Address] {
			continue
		}
		start, ok := p.At[branchTarget(args[len(args)-1], p.Recs)]
		if !ok || start >= i {
			continue
		}
		// gridVarying's passes run in program order, so a register the
		// loop carries reaches its head as the code before the loop left
		// it: within the body, what a varying instruction writes varies
		// at the head too (a binary search's bounds, chosen by comparing
		// a loaded key with the thread's query: sol-check12's
		// lowerBound<0>).
		vary := map[int]bool{}
		for changed := true; changed; {
			changed = false
			for k := start; k <= i; k++ {
				v := varying[k]
				for _, r := range ins[k].srcs {
					v = v || vary[r]
				}
				if !v {
					continue
				}
				for _, d := range ins[k].dsts {
					if !vary[d] {
						vary[d], changed = true, true
					}
				}
			}
		}
		var inst, loads float64
		fine := true
		for k := start; k <= i && fine; k++ {
			if w.Addrs[p.Recs[k].Address] {
				continue // an inner loop's, counted
			}
			base, _, _ := strings.Cut(ins[k].op, ".")
			switch {
			case ins[k].load:
				for _, r := range ins[k].srcs {
					fine = fine && !vary[r]
				}
				if varying[k] {
					fine = false
				}
				loads += sourceInst(p.Recs[k])
			case strings.HasPrefix(base, "LD") || strings.HasPrefix(base, "ST") || strings.HasPrefix(base, "ATOM") ||
				base == "RED" || base == "BAR" || base == "CALL" || base == "MEMBAR":
				fine = false
			}
			inst += sourceInst(p.Recs[k])
		}
		if !fine || !(loads > 0) {
			continue
		}
		for k := start; k <= i; k++ {
			w.Addrs[p.Recs[k].Address] = true
		}
		w.Inst += inst
		w.Loads += loads
	}
	return w, w.Inst > 0
}
