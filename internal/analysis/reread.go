package analysis

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// indexedRe matches an indexed expression of a source line, `x[i]`.
var indexedRe = regexp.MustCompile(`[A-Za-z_]\w*\s*\[[^\[\]]+\]`)

// rereadShare is the share of the global load sectors a kernel's threads
// ask for that re-read bytes another line of the kernel already asked
// for: source lines (two or more) whose direct global loads ask for the
// same sectors (within 1 %) and whose text indexes one and the same
// expression by a run-time index (sol-check10's moments<0>: `x[i]` in
// four grid-stride loops, one a moment, each a pass over the same 256
// MiB). Those bytes are necessary once; the passes after the first are
// headroom, not work. 0 without the source page.
func rereadShare(a *Kernel) float64 {
	share, _ := rereads(a)
	return share
}

// rereads is rereadShare with the lines of each group that re-read
// (every line of a group, the one kept first).
func rereads(a *Kernel) (float64, [][]int) {
	sectors := map[int]float64{}
	var total float64
	for _, in := range a.Model.Instructions {
		if in.Space != "global" || in.Operation != "load" {
			continue
		}
		total += in.Sectors
		if !in.Indirect && !in.AtomicRead && in.Line > 0 {
			sectors[in.Line] += in.Sectors
		}
	}
	if !(total > 0) || a.Record == nil {
		return 0, nil
	}
	text := map[int]string{}
	for _, s := range a.Record.Source {
		if s.SASS == "" && s.Line > 0 {
			text[s.Line] = s.Source
		}
	}
	groups := map[string][]int{}
	for line, n := range sectors {
		if key := runtimeIndexed(text[line]); key != "" && n > 0 {
			groups[key] = append(groups[key], line)
		}
	}
	var reread float64
	var lines [][]int
	for _, ls := range groups {
		if len(ls) < 2 {
			continue
		}
		sort.Ints(ls)
		lo, hi, sum := sectors[ls[0]], sectors[ls[0]], 0.0
		for _, l := range ls {
			n := sectors[l]
			lo, hi, sum = math.Min(lo, n), math.Max(hi, n), sum+n
		}
		if hi <= 1.01*lo {
			reread += sum - hi
			lines = append(lines, ls)
		}
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i][0] < lines[j][0] })
	return math.Min(1, reread/total), lines
}

// Passes are a kernel's loops that each read the same data again: the
// source lines whose global loads re-read what another line read
// (rereadShare's groups) and that each close a loop of their own (a
// backward branch of the line's, around its load: a grid-stride pass,
// fixtures/sol-check10's moments<0>, four over 256 MiB, one a moment).
// Share is the share of the kernel's global load sectors those passes
// re-read; Lines are the passes' lines, first to last.
type Passes struct {
	Share float64
	Lines []int
}

// RereadPasses reads a kernel's passes over the same data; ok is false
// when it has none (re-reads by lines of one loop or none, a struct's
// fields read line by line, are not passes), or without the source page.
func RereadPasses(a *Kernel) (Passes, bool) {
	if len(a.Record.Source) == 0 {
		return Passes{}, false
	}
	share, groups := rereads(a)
	if !(share > 0) {
		return Passes{}, false
	}
	group := map[int]int{}
	for g, ls := range groups {
		for _, l := range ls {
			group[l] = g
		}
	}
	p := newSASSProgram(a.Record)
	loops, writes := map[int]bool{}, map[int]bool{}
	for i, r := range p.recs {
		op, args := p.fields(i)
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
			at, _ := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(p.recs[j].Address), "0x"), 16, 64)
			if at < target {
				break
			}
			o, _ := p.fields(j)
			if strings.HasPrefix(o, "STG") {
				stores = true
			}
			if !strings.HasPrefix(o, "LDG") {
				continue
			}
			l := p.recs[j].Line
			if l == r.Line {
				loops[r.Line] = true // the line's own branch back around its load
			}
			if g, ok := group[l]; ok {
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
	// The passes that only reduce fuse into one (an online max and sum);
	// a pass that writes after them needs their results and stays:
	// softmaxRow<0>'s max, sum and write passes (fixtures/sol-check13)
	// fuse into two, its twin's, 0.23 faster, not one.
	sectors := map[int]float64{}
	var total float64
	for _, in := range a.Model.Instructions {
		if in.Space == "global" && in.Operation == "load" {
			total += in.Sectors
			if !in.Indirect && !in.AtomicRead && in.Line > 0 {
				sectors[in.Line] += in.Sectors
			}
		}
	}
	var out Passes
	var fused float64
	for _, ls := range groups {
		n := 0
		for _, l := range ls {
			if loops[l] {
				n++
			}
		}
		if n != len(ls) {
			continue
		}
		sum, hi, k := 0.0, 0.0, 0
		for _, l := range ls {
			if !writes[l] {
				sum, hi, k = sum+sectors[l], math.Max(hi, sectors[l]), k+1
			}
		}
		if k >= 2 {
			out.Lines = append(out.Lines, ls...)
			fused += sum - hi
		}
	}
	if len(out.Lines) == 0 || !(total > 0) {
		return Passes{}, false
	}
	out.Share = math.Min(share, fused/total)
	return out, true
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
