package analysis

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// indexedRe matches an indexed expression of a source line, `x[i]`.
var indexedRe = regexp.MustCompile(`[A-Za-z_]\w*\s*\[[^\[\]]+\]`)

// rereadGroup is one expression's lines (rereads): the lines, first to
// last, and the sectors each asks for of it.
type rereadGroup struct {
	lines   []int
	sectors []float64
}

// rereadSet is what rereads finds: share is the share of the global load
// sectors a kernel's threads ask for that re-read bytes another line of
// the kernel already asked for: source lines (two or more) whose direct
// global loads ask for the same sectors (within 1 %) and whose text
// indexes one and the same expression by a run-time index (sol-check10's
// moments<0>: `x[i]` in four grid-stride loops, one a moment, each a pass
// over the same 256 MiB). Those bytes are necessary once; the passes
// after the first are headroom, not work. first is the share of the
// groups' first reads (each group's largest line's), and groups the
// groups. Zero without the source page.
type rereadSet struct {
	share, first float64
	groups       []rereadGroup
}

// rereads reads a kernel's re-reads, with the lines of each group that
// re-read (every line of a group, the one kept first). A line that loads several
// expressions by one index at one width asks for an equal share of its
// sectors for each (sol-check19's rmsH<0>: `yr[k] = scale8(xr[k], wr[k],
// s)` after `ss += sumSq8(xr[k])`, its xr[k] a re-read of the first
// loop's).
func rereads(a *Kernel) rereadSet {
	sectors := map[int]float64{}
	ops := map[int]map[string]bool{} // each line's load opcodes
	var total float64
	for _, in := range a.Model.Instructions {
		if in.Space != "global" || in.Operation != "load" {
			continue
		}
		total += in.Sectors
		if !in.Indirect && !in.AtomicRead && in.Line > 0 {
			sectors[in.Line] += in.Sectors
			if ops[in.Line] == nil {
				ops[in.Line] = map[string]bool{}
			}
			op, _ := SASSFields(in.SASS)
			ops[in.Line][op] = true
		}
	}
	if !(total > 0) || a.Record == nil {
		return rereadSet{}
	}
	text := map[int]string{}
	for _, s := range a.Record.Source {
		if s.SASS == "" && s.Line > 0 {
			text[s.Line] = s.Source
		}
	}
	groups := map[string]*rereadGroup{}
	for line, n := range sectors {
		keys := loadedIndexed(text[line])
		if len(keys) > 1 && len(ops[line]) != 1 {
			continue // loads of several widths: the shares are not equal
		}
		for _, key := range keys {
			if n > 0 {
				g := groups[key]
				if g == nil {
					g = &rereadGroup{}
					groups[key] = g
				}
				g.lines = append(g.lines, line)
				g.sectors = append(g.sectors, n/float64(len(keys)))
			}
		}
	}
	var out rereadSet
	var reread float64
	for _, g := range groups {
		if len(g.lines) < 2 {
			continue
		}
		sort.Sort(byLine(*g))
		lo, hi, sum := g.sectors[0], g.sectors[0], 0.0
		for _, n := range g.sectors {
			lo, hi, sum = math.Min(lo, n), math.Max(hi, n), sum+n
		}
		if hi <= 1.01*lo {
			reread += sum - hi
			out.first += hi
			out.groups = append(out.groups, *g)
		}
	}
	sort.Slice(out.groups, func(i, j int) bool { return out.groups[i].lines[0] < out.groups[j].lines[0] })
	out.share = math.Min(1, reread/total)
	out.first = math.Min(1, out.first/total)
	return out
}

// byLine sorts a group's lines and their sectors together.
type byLine rereadGroup

func (g byLine) Len() int           { return len(g.lines) }
func (g byLine) Less(i, j int) bool { return g.lines[i] < g.lines[j] }
func (g byLine) Swap(i, j int) {
	g.lines[i], g.lines[j] = g.lines[j], g.lines[i]
	g.sectors[i], g.sectors[j] = g.sectors[j], g.sectors[i]
}

// Passes are a kernel's loops that each read the same data again: the
// source lines whose global loads re-read what another line read
// (rereads' groups) and that each close a loop of their own (a
// backward branch of the line's, around its load: a grid-stride pass,
// fixtures/sol-check10's moments<0>, four over 256 MiB, one a moment).
// Share is the share of the kernel's global load sectors those passes
// re-read; Lines are the passes' lines, first to last; Held is the bytes
// a block keeps on chip for a pass that writes after the first (0 where
// none does).
type Passes struct {
	Share float64
	Lines []int
	Held  float64
}

// RereadPasses reads a kernel's passes over the same data; ok is false
// when it has none (re-reads by lines of one loop or none, a struct's
// fields read line by line, are not passes), or without the source page.
func RereadPasses(a *Kernel) (Passes, bool) {
	if len(a.Record.Source) == 0 {
		return Passes{}, false
	}
	set := rereads(a)
	if !(set.share > 0) {
		return Passes{}, false
	}
	group := map[int][]int{} // a line's groups
	for g, gr := range set.groups {
		for _, l := range gr.lines {
			group[l] = append(group[l], g)
		}
	}
	p := programOf(a)
	loops, writes := map[int]bool{}, map[int]bool{}
	for i, r := range p.Recs {
		op, args := p.Fields(i)
		if !strings.HasPrefix(op, "BRA") || len(args) == 0 || r.Line <= 0 {
			continue
		}
		target, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(args[len(args)-1]), "0x"), 16, 64)
		if err != nil {
			continue
		}
		inside := map[int]map[int]bool{} // a group's lines whose loads the loop holds
		stores := false                  // the loop stores: a pass that writes
		for j := i; j >= 0; j-- {
			at, _ := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(p.Recs[j].Address), "0x"), 16, 64)
			if at < target {
				break
			}
			o, _ := p.Fields(j)
			if strings.HasPrefix(o, "STG") {
				stores = true
			}
			if !strings.HasPrefix(o, "LDG") {
				continue
			}
			l := p.Recs[j].Line
			if l == r.Line {
				loops[r.Line] = true // the line's own branch back around its load
			}
			for _, g := range group[l] {
				if inside[g] == nil {
					inside[g] = map[int]bool{}
				}
				inside[g][l] = true
			}
		}
		// A loop branch of another line (the for statement's, around a
		// body that loads on a line of its own: softmaxRow<0>'s passes,
		// fixtures/sol-check13) makes a pass of the one line of a group
		// whose loads it holds; a loop holding two lines of a group reads
		// the data once, not in passes.
		for _, ls := range inside {
			if len(ls) == 1 {
				for l := range ls {
					loops[l] = true
					writes[l] = writes[l] || stores
				}
			}
		}
	}
	// A line whose loads are a loop unrolled is a pass of its own.
	for l := range unrolledPasses(p) {
		loops[l] = true
	}
	// The passes that only reduce fuse into one (an online max and sum);
	// a pass that writes after them needs their results and stays, unless
	// what each block reads fits on chip (heldOnChip): softmaxRow<0>'s
	// max, sum and write passes over 1 MiB rows, a block each
	// (fixtures/sol-check13), fuse into two, its twin's, 0.23 faster, not
	// one; rmsH<0>'s sum-of-squares and write passes over 64 KiB rows
	// (sol-check19) into one, the row kept in registers (0.33 faster).
	blocks := float64(a.Record.Grid.Size())
	var out Passes
	var fused float64
	for _, gr := range set.groups {
		n := 0
		for _, l := range gr.lines {
			if loops[l] {
				n++
			}
		}
		if n != len(gr.lines) {
			continue
		}
		sum, hi, k := 0.0, 0.0, 0
		var written float64
		for i, l := range gr.lines {
			if !writes[l] {
				sum, hi, k = sum+gr.sectors[i], math.Max(hi, gr.sectors[i]), k+1
			} else {
				written += gr.sectors[i]
			}
		}
		switch {
		case k >= 1 && written > 0 && heldOnChip(a, 32*hi/blocks):
			out.Lines = append(out.Lines, gr.lines...)
			fused += sum - hi + written
			out.Held += 32 * hi / blocks
		case k >= 2:
			out.Lines = append(out.Lines, gr.lines...)
			fused += sum - hi
		}
	}
	if len(out.Lines) == 0 {
		return Passes{}, false
	}
	var lines []int // a line in two groups, named once
	for _, l := range out.Lines {
		if !slices.Contains(lines, l) {
			lines = append(lines, l)
		}
	}
	out.Lines = lines
	var total float64
	for _, in := range a.Model.Instructions {
		if in.Space == "global" && in.Operation == "load" {
			total += in.Sectors
		}
	}
	if !(total > 0) {
		return Passes{}, false
	}
	out.Share = math.Min(set.share, fused/total)
	return out, true
}

// heldOnChip reports whether the bytes one block reads in a pass fit on
// the SM between the passes: no more than the shared memory a block may
// have (the register file is as large), so that a write pass can take
// them from the first pass instead of reading them again.
func heldOnChip(a *Kernel, perBlock float64) bool {
	return a.Spec != nil && a.Spec.MaxSharedPerSMBytes > 0 && perBlock > 0 && perBlock <= float64(a.Spec.MaxSharedPerSMBytes)
}

// runtimeIndexed is the one expression a source line indexes by a
// run-time index (`x[i]`; `m[0]`, a constant index, is a register), ""
// when the line indexes none or several.
func runtimeIndexed(src string) string {
	key := ""
	for _, e := range indexedRe.FindAllString(src, -1) {
		idx := strings.TrimSpace(e[strings.Index(e, "[")+1 : len(e)-1])
		if strings.Trim(idx, "0123456789") == "" {
			continue
		}
		e = strings.Join(strings.Fields(e), "")
		if key != "" && key != e {
			return ""
		}
		key = e
	}
	return key
}

// loadedIndexed are the expressions a source line loads by a run-time
// index: runtimeIndexed's one, else those of a line that indexes several
// by one index, less one it only assigns (`yr[k] = scale8(xr[k], wr[k],
// s)`: xr[k] and wr[k]); none where the loaded ones index differently.
func loadedIndexed(src string) []string {
	if key := runtimeIndexed(src); key != "" {
		return []string{key}
	}
	if key := tritonLoaded(src); key != "" {
		return []string{key}
	}
	var keys []string
	index := ""
	for _, at := range indexedRe.FindAllStringIndex(src, -1) {
		e := src[at[0]:at[1]]
		idx := strings.Join(strings.Fields(e[strings.Index(e, "[")+1:len(e)-1]), "")
		if strings.Trim(idx, "0123456789") == "" {
			continue
		}
		if rest := strings.TrimLeft(src[at[1]:], " \t"); strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==") {
			continue // assigned, not loaded
		}
		if index != "" && idx != index {
			return nil
		}
		index = idx
		if e = strings.Join(strings.Fields(e), ""); !slices.Contains(keys, e) {
			keys = append(keys, e)
		}
	}
	return keys
}

// tritonLoaded is the one pointer expression a Triton source line loads
// from (`tl.load(base + off + tl.arange(0, BLOCK))`: its first argument,
// spaces dropped, the mask and other keywords left out), "" when the line
// loads none or several: two lines that load from one expression read
// the same addresses (fixtures/sol-check22's lse_2pass, a max pass and a
// sum-of-exp pass over a row, each tl.load(base + off + tl.arange(0,
// BLOCK))).
func tritonLoaded(src string) string {
	key := ""
	for rest := src; ; {
		i := strings.Index(rest, "tl.load(")
		if i < 0 {
			break
		}
		rest = rest[i+len("tl.load("):]
		depth, end := 0, -1
		for j, c := range rest {
			switch c {
			case '(', '[':
				depth++
			case ')', ']':
				depth--
			}
			if depth < 0 || depth == 0 && c == ',' {
				end = j
				break
			}
		}
		if end <= 0 {
			return ""
		}
		e := "tl.load(" + strings.Join(strings.Fields(rest[:end]), "") + ")"
		if key != "" && key != e {
			return ""
		}
		key = e
	}
	return key
}

// unrolledPassLoads is the loads from one base register at distinct
// offsets a line must hold to be a loop unrolled: a quarter of a 32-step
// loop's (a struct's fields, a stencil's taps, are a few).
const unrolledPassLoads = 8

// unrolledPasses are the source lines whose global loads are a loop
// unrolled: unrolledPassLoads or more LDGs from one base register, each
// at its own offset. Triton unrolls a loop whose trip count is a
// constexpr (fixtures/sol-check22's lse_2pass: its max pass, 64 steps of
// a 2048-float block, is 128 LDG.E.128 from R2.64 + 0x0 to + 0x3f000 on
// line 66; its sum pass a loop of two on line 70).
func unrolledPasses(p *sassProgram) map[int]bool {
	offs := map[int]map[string]map[string]bool{} // line, base, offsets
	for i, r := range p.Recs {
		op, args := p.Fields(i)
		if !strings.HasPrefix(op, "LDG") || r.Line <= 0 || len(args) < 2 {
			continue
		}
		a := args[len(args)-1]
		open := strings.LastIndexByte(a, '[')
		if open < 0 || !strings.HasSuffix(a, "]") {
			continue
		}
		base, off, _ := strings.Cut(a[open+1:len(a)-1], "+")
		if !strings.HasPrefix(base, "R") {
			continue
		}
		if offs[r.Line] == nil {
			offs[r.Line] = map[string]map[string]bool{}
		}
		if offs[r.Line][base] == nil {
			offs[r.Line][base] = map[string]bool{}
		}
		offs[r.Line][base][off] = true
	}
	out := map[int]bool{}
	for l, bases := range offs {
		for _, o := range bases {
			if len(o) >= unrolledPassLoads {
				out[l] = true
			}
		}
	}
	return out
}
