package analysis

import (
	"math"
	"regexp"
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
		return 0
	}
	text := map[int]string{}
	for _, s := range a.Record.Source {
		if s.SASS == "" && s.Line > 0 {
			text[s.Line] = s.Source
		}
	}
	groups := map[string][]float64{}
	for line, n := range sectors {
		if key := runtimeIndexed(text[line]); key != "" && n > 0 {
			groups[key] = append(groups[key], n)
		}
	}
	var reread float64
	for _, ns := range groups {
		if len(ns) < 2 {
			continue
		}
		lo, hi, sum := ns[0], ns[0], 0.0
		for _, n := range ns {
			lo, hi, sum = math.Min(lo, n), math.Max(hi, n), sum+n
		}
		if hi <= 1.01*lo {
			reread += sum - hi
		}
	}
	return math.Min(1, reread/total)
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
