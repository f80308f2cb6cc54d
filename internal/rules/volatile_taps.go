package rules

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/profan-dev/profan/internal/analysis"
)

// strongTaps is what volatileTaps reads from a source page: the strong
// global loads of a window's taps (loads through one base register at
// constant offsets, its lanes' addresses consecutive, the offsets'
// span under a warp's footprint, so that each lane loads what its
// neighbours load at another tap), in warp instructions executed; the
// L2 sectors they ask for and those an L1-served read of the same
// window would ask for (the union of a warp's taps, once); the kernel's
// global sectors (loads and stores); the taps a window and its offsets'
// span in bytes (the largest window's).
type strongTaps struct {
	loads, sectors, union, global float64
	taps                          int
	span                          int64
}

// strongLoad reports whether a SASS opcode is a strong (volatile) global
// load: LDG or LD with .STRONG. (LDG.E.STRONG.SYS, .STRONG.GPU) or
// .VOLATILE.
func strongLoad(op string) bool {
	base, _, _ := strings.Cut(op, ".")
	return (base == "LDG" || base == "LD") && (strings.Contains(op, ".STRONG.") || strings.Contains(op, ".VOLATILE"))
}

// tapOperand splits a memory operand ("desc[UR4][R4.64+-0x10]") into
// its base ("desc[UR4][R4.64") and its constant offset (-16).
func tapOperand(at string) (base string, off int64, ok bool) {
	at = strings.TrimSuffix(at, "]")
	i := strings.LastIndexByte(at, '[')
	if i < 0 {
		return "", 0, false
	}
	j := strings.LastIndexByte(at, '+')
	if j < i {
		return at, 0, true
	}
	s := at[j+1:]
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if !strings.HasPrefix(s, "0x") {
		return at, 0, true // a register added, not a constant
	}
	v, err := strconv.ParseInt(s[2:], 16, 64)
	if err != nil {
		return "", 0, false
	}
	if neg {
		v = -v
	}
	return at[:j], v, true
}

// volatileWindows reads a kernel's strong loads of a window's taps.
func volatileWindows(a *analysis.Kernel) (r strongTaps) {
	if !sassHas(a, ".STRONG.", ".VOLATILE") {
		return r
	}
	type load struct {
		requests, sectors, ideal float64
		off                      int64
	}
	model := map[string]load{}
	for _, in := range a.Model.Instructions {
		if in.Space != "global" {
			continue
		}
		r.global += in.Sectors
		if in.Operation == "load" && !in.Indirect {
			model[in.Address] = load{requests: in.Requests, sectors: in.Sectors, ideal: in.IdealSectorsPerRequest}
		}
	}
	recs := addressOrder(a)
	windows := map[string][]load{} // base operand → its strong loads since the base was written
	flush := func(base string) {
		w := windows[base]
		delete(windows, base)
		if len(w) < 2 {
			return
		}
		lo, hi, offs := w[0].off, w[0].off, map[int64]bool{}
		var sum, req, per float64
		for _, l := range w {
			lo, hi, offs[l.off] = min(lo, l.off), max(hi, l.off), true
			if !(l.requests > 0) || !(l.ideal > 0) || l.sectors/l.requests > l.ideal+1 {
				return // a lane stride of more than the access: no overlap to read
			}
			sum += l.sectors
			req = math.Max(req, l.requests)
			per = math.Max(per, l.ideal)
		}
		foot := 32 * per // a warp's request, in bytes
		if len(offs) < len(w) || float64(hi-lo) >= foot {
			return
		}
		r.loads += float64(len(w)) * req
		r.sectors += sum
		r.union += math.Min(sum, req*((foot+float64(hi-lo))/32+1))
		if len(w) > r.taps {
			r.taps, r.span = len(w), hi-lo
		}
	}
	for _, s := range recs {
		op := opcode(s.SASS)
		f := strings.Fields(strings.ReplaceAll(s.SASS, ",", " "))
		if strongLoad(op) {
			if l, ok := model[s.Address]; ok {
				if base, off, ok := tapOperand(memOperand(f)); ok {
					l.off = off
					windows[base] = append(windows[base], l)
				}
			}
		}
		if dst := destination(f); dst != "" {
			for base := range windows {
				if strings.Contains(base, "["+dst+".") || strings.HasSuffix(base, "["+dst) {
					flush(base)
				}
			}
		}
	}
	for base := range windows {
		flush(base)
	}
	return r
}

// volatileTaps prices a window's taps loaded through a volatile pointer
// (fixtures/sol-check24's volTap9<0>: a 9-tap FIR over 64 Mi floats,
// nine LDG.E.STRONG.SYS an output at offsets −16 to +16 bytes of one
// base, 4.9 sectors a request each; L2 at 61 %, DRAM at 30 %; through a
// const pointer, __ldg, it ran 0.37 faster). Strong loads are not served
// by L1: every tap's request goes to L2, where an ordinary load of the
// window's taps would ask L2 for the warp's union once (its footprint
// and the offsets' span, 6 sectors against 44) and find the rest in L1.
// L2 keeps the global sectors left; the loads themselves stay (L1's
// work and the instructions as they are), and DRAM, its bytes
// unchanged, binds at the stream's line (volTap9<1>: DRAM at 47 %).
// Reports whether it did.
func volatileTaps(p *Pass) bool {
	r := volatileWindows(p.Kernel)
	removed := r.sectors - r.union
	if !(removed > 0) || !(r.global > 0) || removed < 0.5*r.global {
		return false
	}
	t, ok := p.Value("duration")
	us, okU := usageOf(p)
	if !ok || !(t > 0) || !okU {
		return false
	}
	kept := (r.global - removed) / r.global
	left := 0.0
	if _, issue, ok := issueWindow(p); ok {
		if n, okN := p.Value("inst_executed"); okN && n > 0 {
			left = n / issue / t
		}
	}
	after := us.reloadAfter(left, kept, []analysis.Unit{analysis.LimitL2}, []analysis.Unit{analysis.LimitL1Shared, analysis.LimitMemory})
	gain := wallGain(p, after, t)
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.3g strong (volatile) global loads are a window's taps (%d loads of one base a thread, %d bytes apart at most, its lanes consecutive): each lane loads what its neighbours load at another tap, and none is served by L1; %.0f%% of the kernel's L2 sectors (%.3g) are the taps' re-reads that an ordinary load would find in L1",
			r.loads, r.taps, r.span, 100*removed/r.global, removed),
		Advice:    "drop volatile from a pointer to data only this kernel reads (const float* __restrict__, or __ldg): the taps' neighbouring loads then hit L1 and L2 serves each window once; keep volatile, or cuda::atomic_ref loads, for a flag another thread changes while the kernel runs",
		Evidence:  p.evidence("l2_sol_pct", "dram_sol_pct", "duration"),
		Locations: linesOf(p.Kernel, strongLoad),
	})
	return true
}
