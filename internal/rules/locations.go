package rules

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// worstLines returns the source lines of the kernel's accesses of one kind
// ("gld", "gst" or "shared") that waste the most, when the export has the
// source page: the instructions ranked by excess sectors (or wavefronts).
func worstLines(a *analysis.Kernel, kind string) []profan.Location {
	type cand struct {
		loc    profan.Location
		excess float64
	}
	var cs []cand
	for _, s := range a.Record.Source {
		if !accessKind(s.SASS, kind) {
			continue
		}
		ex := sourceExcess(s, kind)
		if ex <= 0 {
			continue
		}
		cs = append(cs, cand{profan.Location{File: s.File, Line: s.Line, SASS: s.SASS}, ex})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].excess > cs[j].excess })
	var out []profan.Location
	seen := map[string]bool{}
	for _, c := range cs {
		key := fmt.Sprintf("%s:%d", c.loc.File, c.loc.Line)
		if c.loc.Line == 0 {
			key = c.loc.SASS
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, c.loc)
		if len(out) == 3 {
			break
		}
	}
	return out
}

// accessKind reports whether a SASS instruction is a global load, global
// store or shared access.
func accessKind(sass, kind string) bool {
	op := strings.Fields(sass)
	if len(op) == 0 {
		return false
	}
	i := 0
	if strings.HasPrefix(op[0], "@") && len(op) > 1 {
		i = 1
	}
	m := op[i]
	switch kind {
	case "gld":
		return strings.HasPrefix(m, "LDG") || (strings.HasPrefix(m, "LD.") && !strings.HasPrefix(m, "LDS"))
	case "gst":
		return strings.HasPrefix(m, "STG") || (strings.HasPrefix(m, "ST.") && !strings.HasPrefix(m, "STS"))
	case "shared":
		return strings.HasPrefix(m, "LDS") || strings.HasPrefix(m, "STS")
	}
	return false
}

// sourceExcess reads an instruction's excess from the counters the source
// page exports: ideal vs actual L2 sectors (global) or wavefronts (shared).
func sourceExcess(s profan.SourceRecord, kind string) float64 {
	get := func(names ...string) (float64, bool) {
		for _, n := range names {
			for _, c := range s.Counter {
				if c.Name == n && c.IsNumber() {
					return c.Value, true
				}
			}
		}
		return 0, false
	}
	c := globalExcess
	if kind == "shared" {
		c = sharedExcess
	}
	if ex, ok := get(c.excess[:]...); ok {
		return ex
	}
	act, ok1 := get(c.actual[:]...)
	ideal, ok2 := get(c.ideal[:]...)
	if ok1 && ok2 {
		return act - ideal
	}
	return 0
}

// excessCounters name the source page's counters of an instruction's
// excess, each as the page prints it and by its raw name: the excess
// itself, else the actual and the ideal.
type excessCounters struct {
	excess, actual, ideal [2]string
}

var (
	sharedExcess = excessCounters{
		excess: [2]string{"L1 Wavefronts Shared Excessive", "derived__memory_l1_wavefronts_shared_excessive"},
		actual: [2]string{"L1 Wavefronts Shared", "memory_l1_wavefronts_shared"},
		ideal:  [2]string{"L1 Wavefronts Shared Ideal", "memory_l1_wavefronts_shared_ideal"},
	}
	globalExcess = excessCounters{
		excess: [2]string{"L2 Theoretical Sectors Global Excessive", "derived__memory_l2_theoretical_sectors_global_excessive"},
		actual: [2]string{"L2 Theoretical Sectors Global", "memory_l2_theoretical_sectors_global"},
		ideal:  [2]string{"L2 Theoretical Sectors Global Ideal", "memory_l2_theoretical_sectors_global_ideal"},
	}
)

// perLine keeps one entry per source line (per address where the line is
// unknown), in the order first seen.
type perLine[T any] struct {
	by    map[string]*T
	order []*T
	mk    func(profan.Location) *T
}

func newPerLine[T any](mk func(profan.Location) *T) *perLine[T] {
	return &perLine[T]{by: map[string]*T{}, mk: mk}
}

// at returns the entry of s's line, made on first sight.
func (p *perLine[T]) at(s profan.SourceRecord) *T {
	key := fmt.Sprintf("%s:%d", s.File, s.Line)
	if s.Line == 0 {
		key = s.Address
	}
	e := p.by[key]
	if e == nil {
		e = p.mk(profan.Location{File: s.File, Line: s.Line})
		p.by[key] = e
		p.order = append(p.order, e)
	}
	return e
}

// toolkitHeader reports whether a source file is one of the CUDA
// toolkit's headers (device_atomic_functions.hpp, ...), whose inlined code
// the source page files under the header's own lines.
func toolkitHeader(file string) bool {
	return strings.Contains(file, "/include/") && (strings.Contains(file, "/cuda") || strings.Contains(file, "/targets/"))
}

// callerLines maps the address of each instruction the source page files
// under a toolkit header to the user's line it was inlined into: the
// nearest user line before it in program order whose source text calls an
// atomic (fixtures/sol-check8's argmaxU64<0>, whose REDG.E.MAX.64 follows
// the key computed on line 213 and the pointer loaded on the atomicMax
// line 215), within callerReach user instructions; else that of the
// nearest user instruction before it (the code that computed the atomic's
// address and value).
func callerLines(a *analysis.Kernel) map[string]profan.Location {
	type rec struct {
		addr uint64
		s    profan.SourceRecord
	}
	var rs []rec
	header := false
	text := map[profan.Location]string{}
	for _, s := range a.Record.Source {
		if s.SASS == "" {
			if s.Line > 0 && s.Source != "" {
				text[profan.Location{File: s.File, Line: s.Line}] = s.Source
			}
			continue
		}
		if s.Address == "" {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(s.Address), "0x"), 16, 64)
		if err != nil {
			continue
		}
		rs = append(rs, rec{v, s})
		header = header || toolkitHeader(s.File)
	}
	if !header {
		return nil
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].addr < rs[j].addr })
	// The page lists an inlined instruction under the user's line too
	// where it can (fixtures/sol-check16's acqLoad<0>: each acquire
	// load's CCTL.IVALL under line 498, r.load(...), and under five
	// cuda::atomic_ref headers): that line is the caller.
	own := map[string]profan.Location{}
	for i := range rs {
		if s := &rs[i].s; !toolkitHeader(s.File) && s.Line > 0 {
			own[s.Address] = profan.Location{File: s.File, Line: s.Line}
		}
	}
	out := map[string]profan.Location{}
	for i := range rs {
		s := &rs[i].s
		if !toolkitHeader(s.File) {
			continue
		}
		if loc, ok := own[s.Address]; ok {
			out[s.Address] = loc
			continue
		}
		var nearest *profan.Location
		n := 0
		for j := i - 1; j >= 0 && n < callerReach; j-- {
			u := &rs[j].s
			if toolkitHeader(u.File) || u.Line <= 0 {
				continue
			}
			n++
			loc := profan.Location{File: u.File, Line: u.Line}
			if nearest == nil {
				nearest = &loc
			}
			if strings.Contains(strings.ToLower(text[loc]), "atomic") {
				nearest = &loc
				break
			}
		}
		if nearest != nil {
			out[s.Address] = *nearest
		}
	}
	return out
}

// callerReach is how many user instructions before a header's inlined
// instruction callerLines reads for the line that calls it.
const callerReach = 32
