package analysis

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// InPlace are a kernel's passes over an array it writes in place: loops
// (each its own backward branch) that store one indexed expression of
// the source page (`y[i]`), the loops after the first loading that
// same expression and storing it back through the same address
// (fixtures/sol-check16's sweep4<0>: four grid-stride sweeps of 256
// MiB, the first reading x and writing y, the other three reading y
// and writing it again; its one-sweep twin ran 0.75 faster). Fused into
// one loop the kernel loads its input once and stores its output once:
// the later passes' loads of what the kernel wrote and the earlier
// passes' stores that a later one overwrites are not its work.
type InPlace struct {
	// Passes is the number of loops that store the array.
	Passes int
	// Share is the share of the kernel's global sectors (loads and
	// stores) one fused loop leaves out: the later passes' loads of the
	// array and every pass's store of it but the last.
	Share float64
	// Lines are the later passes' load lines, first to last (the
	// re-reads of what the kernel wrote).
	Lines []int
}

// inPlaceLoop is what one loop of a kernel holds of its indexed global
// accesses: the source lines of its stores and of its loads, and the
// load lines whose address one of its stores reuses.
type inPlaceLoop struct {
	stores, loads, reused map[int]bool
}

// InPlacePasses reads a kernel's passes over an array it writes in place
// (InPlace); ok is false without the source page or where no two loops
// store one expression, the later ones loading it first through the
// same address.
func InPlacePasses(a *Kernel) (InPlace, bool) {
	if a.Record == nil || len(a.Record.Source) == 0 {
		return InPlace{}, false
	}
	text := map[int]string{}
	for _, s := range a.Record.Source {
		if s.SASS == "" && s.Line > 0 {
			text[s.Line] = s.Source
		}
	}
	ld, st := map[int]float64{}, map[int]float64{}
	key := map[int]string{}
	var total float64
	for _, in := range a.Model.Instructions {
		if in.Space != "global" || !(in.Sectors > 0) {
			continue
		}
		total += in.Sectors
		if in.Indirect || in.AtomicRead || in.AtomicSlot || in.Line <= 0 {
			continue
		}
		k := runtimeIndexed(text[in.Line])
		if k == "" {
			continue
		}
		key[in.Line] = k
		switch in.Operation {
		case "load":
			ld[in.Line] += in.Sectors
		case "store":
			st[in.Line] += in.Sectors
		}
	}
	if len(st) < 2 || len(ld) == 0 || !(total > 0) {
		return InPlace{}, false
	}
	loops := inPlaceLoops(programOf(a), key)
	// A pass is a loop that stores one line of the expression; the
	// store lines of each expression's passes, in source order.
	passes := map[string][]int{}
	reread := map[int]int{} // a pass's store line: its load line of the same expression, stored back in place
	for _, lp := range loops {
		byKey := map[string][]int{}
		for l := range lp.stores {
			byKey[key[l]] = append(byKey[key[l]], l)
		}
		for k, ls := range byKey {
			if len(ls) != 1 {
				continue
			}
			s := ls[0]
			if !slices.Contains(passes[k], s) {
				passes[k] = append(passes[k], s)
			}
			for l := range lp.reused {
				if key[l] == k && ld[l] > 0 {
					reread[s] = l
				}
			}
		}
	}
	var out InPlace
	removed := 0.0
	for _, ss := range passes {
		if len(ss) < 2 {
			continue
		}
		sort.Ints(ss)
		lo, hi := st[ss[0]], st[ss[0]]
		later := true
		for i, s := range ss {
			lo, hi = math.Min(lo, st[s]), math.Max(hi, st[s])
			if _, ok := reread[s]; i > 0 && !ok {
				later = false
			}
		}
		if !later || hi > 1.01*lo {
			continue // a later pass that does not re-read, or passes over other ranges
		}
		for i, s := range ss {
			if i > 0 {
				removed += ld[reread[s]]
				out.Lines = append(out.Lines, reread[s])
			}
			if i < len(ss)-1 {
				removed += st[s]
			}
		}
		out.Passes = max(out.Passes, len(ss))
	}
	if out.Passes < 2 || !(removed > 0) {
		return InPlace{}, false
	}
	sort.Ints(out.Lines)
	out.Share = math.Min(1, removed/total)
	return out, true
}

// inPlaceLoops reads each loop of p (a backward branch and the
// instructions from its target to it): the lines of its global stores
// and loads that index an expression (key), and the load lines whose
// address (base register and offset) a store of the loop reuses.
func inPlaceLoops(p *sassProgram, key map[int]string) []inPlaceLoop {
	addrOf := func(s string) uint64 {
		v, _ := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(s), "0x"), 16, 64)
		return v
	}
	var out []inPlaceLoop
	for i, r := range p.Recs {
		op, args := p.Fields(i)
		if !strings.HasPrefix(op, "BRA") || len(args) == 0 {
			continue
		}
		target, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(args[len(args)-1]), "0x"), 16, 64)
		if err != nil || target > addrOf(r.Address) {
			continue
		}
		lp := inPlaceLoop{stores: map[int]bool{}, loads: map[int]bool{}, reused: map[int]bool{}}
		type at struct {
			base int
			off  int64
		}
		loadAt := map[at][]int{}
		var storeAt []at
		for j := i; j >= 0 && addrOf(p.Recs[j].Address) >= target; j-- {
			s := p.Recs[j]
			o, _ := p.Fields(j)
			isLd, isSt := strings.HasPrefix(o, "LDG"), strings.HasPrefix(o, "STG")
			if !isLd && !isSt || key[s.Line] == "" {
				continue
			}
			base, off, ok := MemAddress(s.SASS)
			if !ok {
				continue
			}
			if isLd {
				lp.loads[s.Line] = true
				loadAt[at{base, off}] = append(loadAt[at{base, off}], s.Line)
			} else {
				lp.stores[s.Line] = true
				storeAt = append(storeAt, at{base, off})
			}
		}
		for _, x := range storeAt {
			for _, l := range loadAt[x] {
				lp.reused[l] = true
			}
		}
		if len(lp.stores) > 0 {
			out = append(out, lp)
		}
	}
	return out
}
