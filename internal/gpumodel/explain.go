package gpumodel

import (
	"fmt"
	"math"
	"strconv"
)

// Explanation is the access pattern that best explains a measured
// sectors-per-request figure, by inverting the CC ≥ 7.0 model (and the
// 32-B mode of CC 3.x–6.x, which counts the same sectors).
type Explanation struct {
	// Kind is Coalesced, Misaligned, Strided, Scattered, Broadcast or
	// Mixed; UnknownAccess when the inputs cannot be explained (see Text).
	Kind AccessKind
	// StrideBytes is the distance between consecutive threads' addresses
	// for "strided"; for "scattered" it is 32, the least stride that
	// touches one sector per thread. 0 otherwise.
	StrideBytes float64
	// OffsetBytes is set when the counts show a misalignment. Counts only
	// tell that the warp's start is not a multiple of 32 B, so it is the
	// smallest such offset, one element; 0 when aligned or unknown.
	OffsetBytes float64
	Text        string
}

// Explain names the access pattern behind a measured average of
// sectorsPerRequest for accesses of elemBytes bytes, given the ideal
// sectors per request (Prediction.IdealSectorsPerRequest, or
// IdealSectors(...).L2 / requests from measured counters; 0 means a full
// warp, ceil(32·elemBytes/32)).
//
// The model for a full warp with an aligned base: contiguous access
// touches ideal = elemBytes sectors; a start misaligned by a non-multiple
// of 32 B adds one; a stride of k elements touches k·ideal sectors up to
// the 32 the warp's threads can reach; a broadcast touches one. Random
// addresses over a large array also touch nearly 32, so "32 per request"
// cannot tell a large stride from scattered access.
func Explain(elemBytes, sectorsPerRequest, idealSectorsPerRequest float64) Explanation {
	r := sectorsPerRequest
	if !(elemBytes > 0) || !(r > 0) || math.IsInf(r, 0) || idealSectorsPerRequest < 0 {
		return Explanation{Text: fmt.Sprintf("cannot explain %s sectors per request with %s-byte accesses", num(r), num(elemBytes))}
	}
	ideal := idealSectorsPerRequest
	if ideal == 0 {
		ideal = math.Max(1, math.Ceil(warpSize*elemBytes/sectorBytes))
	}
	// Measured averages mix in partial warps and the odd extra sector, so
	// "equal" allows a quarter sector plus 2%.
	tol := 0.25 + 0.02*ideal
	near := func(a, b float64) bool { return math.Abs(a-b) <= tol }
	// The most sectors a request can touch: one per active thread.
	maxPerReq := math.Min(warpSize, ideal*sectorBytes/elemBytes)
	head := fmt.Sprintf("%s sectors per request with %s-byte accesses (ideal %s)", num(r), num(elemBytes), num(ideal))

	switch {
	case r > warpSize+tol && elemBytes <= 16:
		return Explanation{Text: head + ": impossible, a warp touches at most 32 sectors; check the counters"}
	case r < ideal-tol && r <= 1+tol:
		return Explanation{Kind: Broadcast, Text: head + ": all threads of a warp read the same address (broadcast)"}
	case r < ideal-tol:
		return Explanation{Kind: Mixed, Text: head + ": fewer sectors than distinct addresses need, so threads share addresses (partial broadcast)"}
	case near(r, ideal):
		return Explanation{Kind: Coalesced, Text: head + ": coalesced"}
	case r >= 0.93*maxPerReq:
		return Explanation{Kind: Scattered, StrideBytes: sectorBytes,
			Text: head + ": one sector per thread, strided by 32 B or more, or scattered"}
	}
	if k := math.Round(r / ideal); k >= 2 && near(r, k*ideal) {
		s := k * elemBytes
		text := head + ": strided by " + num(s) + " B (" + num(k) + " elements)"
		if near(r, ideal+1) {
			text += ", or misaligned"
		}
		return Explanation{Kind: Strided, StrideBytes: s, Text: text}
	}
	if near(r, ideal+1) || r > ideal && r < ideal+1 {
		// Between ideal and ideal+1: some or all requests straddle one
		// more sector than needed.
		return Explanation{Kind: Misaligned, OffsetBytes: elemBytes,
			Text: head + ": misaligned by a non-multiple of 32 B"}
	}
	if r > ideal+1 && r <= ideal+2+tol {
		// Up to two more: a warp whose lanes read two contiguous runs
		// (it spans two rows of a tile, or a halo's row and the next),
		// each starting off a sector boundary and spilling into one
		// more sector.
		return Explanation{Kind: Misaligned, OffsetBytes: elemBytes,
			Text: head + ": contiguous runs misaligned by a non-multiple of 32 B (a warp spanning two rows of a tile: a sector more for each)"}
	}
	if k := math.Round((r - 1) / ideal); k >= 2 && near(r, k*ideal+1) {
		s := k * elemBytes
		return Explanation{Kind: Strided, StrideBytes: s, OffsetBytes: elemBytes,
			Text: head + ": strided by " + num(s) + " B (" + num(k) + " elements) and misaligned by a non-multiple of 32 B"}
	}
	return Explanation{Kind: Mixed, Text: head + ": between the clean patterns; several patterns or divergent branches share the instruction"}
}

// Access returns the explanation as a typed pattern of elemBytes-byte
// accesses read from the given evidence.
func (x Explanation) Access(elemBytes float64, ev Evidence) AccessPattern {
	return AccessPattern{Kind: x.Kind, StrideBytes: x.StrideBytes, OffsetBytes: x.OffsetBytes, AccessBytes: elemBytes, Evidence: ev, Reasons: []string{x.Text}}
}

// num formats x with at most two decimals and no trailing zeros.
func num(x float64) string {
	return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64)
}

// measurement holds global-load counters of one kernel (or one source
// line) for Plausible. Zero means "not measured" for ElemBytes,
// IdealSectors and EfficiencyPct.
type measurement struct {
	ElemBytes     float64 // access size in bytes: ncu "Mem Access Size" bits / 8
	Requests      float64 // warp-level requests (instructions executed)
	Sectors       float64 // 32-B sectors (ncu l1tex__t_sectors…, nvprof gld_transactions in 32-B mode)
	IdealSectors  float64 // e.g. IdealSectors(ElemBytes, E).L2
	EfficiencyPct float64 // gld_efficiency / …bytes_per_sector….pct, in percent
}

// problem is one thing wrong with a measurement. Impossible problems
// cannot happen on any NVIDIA GPU and mean the counters are wrong, mixed
// up, or from different kernels or passes; the others can happen only in
// a special case the message names.
type problem struct {
	Field      string
	Impossible bool
	Msg        string
}

func (p problem) Error() string { return p.Field + ": " + p.Msg }

// checkMeasurement checks a measurement against what the hardware can do:
//   - every request touches at least 1 sector, and at most 32: a warp's
//     accesses of at most 16 B are naturally aligned, so each lies in one
//     32-B sector;
//   - fewer sectors than the ideal, or efficiency above 100%, happen only
//     when threads share addresses (broadcast), and even then efficiency
//     is at most elemBytes × 100% (32 threads' bytes from one sector);
//   - efficiency should match ideal/actual sectors when both are given.
//
// It returns nil when nothing is wrong.
func checkMeasurement(m measurement) []problem {
	var ps []problem
	add := func(field string, impossible bool, format string, args ...any) {
		ps = append(ps, problem{Field: field, Impossible: impossible, Msg: fmt.Sprintf(format, args...)})
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"elem bytes", m.ElemBytes}, {"requests", m.Requests}, {"sectors", m.Sectors}, {"ideal sectors", m.IdealSectors}, {"efficiency", m.EfficiencyPct}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			add(f.name, true, "%v is not a count", f.v)
		}
	}
	if len(ps) > 0 {
		return ps
	}
	maxElem := 16.0 // the widest per-thread load
	if m.ElemBytes > 0 {
		maxElem = m.ElemBytes
	}
	if m.Requests > 0 {
		spr := m.Sectors / m.Requests
		// A request whose threads are all predicated off touches no sector,
		// so fewer than one sector per request is possible: 0.9977 for a
		// one-thread store per block, 0.96 for PyTorch's LayerNorm
		// backward stores (GammaBetaBackwardCUDAKernelTemplate), both on an
		// H100. Said, not called impossible.
		if spr < 0.98 {
			add("sectors", false, "%s sectors per request: some requests touched no sector (warps whose threads were all predicated off)", num(spr))
		}
		// Real counters overshoot 32 slightly (32.09 measured for random
		// 8-byte stores on an H200), so only a clear excess is impossible.
		if spr > warpSize*Slack && maxElem <= 16 {
			add("sectors", true, "%s sectors per request: a warp's aligned accesses of at most 16 B touch at most 32", num(spr))
		}
	} else if m.Sectors > 0 {
		add("requests", true, "%s sectors with no requests", num(m.Sectors))
	}
	if m.IdealSectors > 0 && m.Sectors > 0 && m.Sectors < m.IdealSectors*0.98 {
		add("sectors", false, "%s sectors is below the ideal %s for the bytes requested: possible only if threads read the same addresses (broadcast)",
			num(m.Sectors), num(m.IdealSectors))
	}
	if m.EfficiencyPct > 100 {
		if m.EfficiencyPct > 100*maxElem {
			add("efficiency", true, "%s%% exceeds %s%%, the most even a full broadcast of %s-byte accesses reaches",
				num(m.EfficiencyPct), num(100*maxElem), num(maxElem))
		} else {
			add("efficiency", false, "%s%% exceeds 100%%: possible only if threads read the same addresses (broadcast)", num(m.EfficiencyPct))
		}
	}
	if m.EfficiencyPct > 0 && m.IdealSectors > 0 && m.Sectors > 0 {
		want := 100 * m.IdealSectors / m.Sectors
		if math.Abs(m.EfficiencyPct-want) > 1+0.05*want {
			add("efficiency", false, "%s%% disagrees with ideal/actual sectors = %s%%: counters from different passes or kernels?",
				num(m.EfficiencyPct), num(want))
		}
	}
	return ps
}

// Plausible is checkMeasurement for per-request figures, the form the
// analysis code holds: it returns one message per problem, prefixed
// "impossible: " for counters no GPU can produce. Pass 0 or NaN for an
// unknown idealSectorsPerRequest or efficiencyPct (in percent, as
// gld_efficiency).
func Plausible(elemBytes, sectorsPerRequest, idealSectorsPerRequest, efficiencyPct float64) []string {
	known := func(v float64) float64 {
		if math.IsNaN(v) {
			return 0
		}
		return v
	}
	ps := checkMeasurement(measurement{
		ElemBytes:     known(elemBytes),
		Requests:      1,
		Sectors:       known(sectorsPerRequest),
		IdealSectors:  known(idealSectorsPerRequest),
		EfficiencyPct: known(efficiencyPct),
	})
	var out []string
	for _, p := range ps {
		msg := p.Error()
		if p.Impossible {
			msg = "impossible: " + msg
		}
		out = append(out, msg)
	}
	return out
}
