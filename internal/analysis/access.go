package analysis

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/gpumodel"
)

// The access patterns of a kernel's memory spaces: from its source page's
// instructions, then its counters, then the memory model (crossCheck).
// crossCheck reads each memory space's accesses. The source page, when
// given, decides: a space's pattern is its worst instruction's and its
// ideal is ncu's per-instruction ideal, so the kernel line never
// contradicts its instructions.
func crossCheck(a *Kernel) Model {
	var m Model
	m.Instructions = instructions(a)
	m.GlobalLoad = fromSource(globalAccess(a, "global_load_requests", "gld"), m.Instructions, "global", "load")
	m.GlobalStore = fromSource(globalAccess(a, "global_store_requests", "gst"), m.Instructions, "global", "store")
	m.SharedLoad = fromSource(sharedAccess(a, "load"), m.Instructions, "shared", "load")
	m.SharedStore = fromSource(sharedAccess(a, "store"), m.Instructions, "shared", "store")
	return m
}

// fromSource replaces the reading of one space by its instructions' when
// the source page has them: the measured figures stay the counters', the
// ideal takes ncu's per-instruction ideal (width- and broadcast-aware) and
// the pattern is the worst instruction's.
func fromSource(acc *Access, ins []Instruction, space, op string) *Access {
	var req, sec, ideal float64
	var worst *Instruction
	broadcast := true
	n := 0
	for i := range ins {
		in := &ins[i]
		if in.Space != space || in.Operation != op {
			continue
		}
		n++
		req += in.Requests
		sec += in.Sectors
		ideal += in.IdealSectors
		if in.Pattern.Kind != gpumodel.Broadcast {
			broadcast = false
		}
		if in.Sectors > in.IdealSectors*gpumodel.Slack && (worst == nil || in.Sectors-in.IdealSectors > worst.Sectors-worst.IdealSectors) {
			worst = in
		}
	}
	if n == 0 || sec <= 0 {
		return acc
	}
	if acc == nil {
		acc = &Access{Requests: req, Transactions: sec, SectorsPerRequest: sec / req}
	}
	acc.IdealSectorsPerRequest = acc.SectorsPerRequest * ideal / sec
	if space == "global" {
		atLeastOneSector(acc)
	}
	if acc.Transactions > 0 {
		acc.IdealTransactions = math.Round(acc.Transactions * ideal / sec)
	}
	unit := "sectors"
	if space == "shared" {
		unit = "wavefronts"
	}
	switch {
	case worst != nil:
		acc.Pattern = worst.Pattern
		acc.Pattern.Reasons = append([]string{fmt.Sprintf("worst instruction %s: %.1f %s per request, ideal %.1f", worst.SASS, worst.SectorsPerRequest, unit, worst.IdealSectorsPerRequest)}, worst.Pattern.Reasons...)
	case broadcast:
		acc.Pattern = gpumodel.AccessPattern{Kind: gpumodel.Broadcast, Reasons: []string{fmt.Sprintf("every %s %s instruction reads addresses its warp shares", space, op)}}
	default:
		acc.Pattern = gpumodel.AccessPattern{Kind: gpumodel.Coalesced, Reasons: []string{fmt.Sprintf("every %s %s instruction at its ideal %s per request", space, op, unit)}}
		if space == "shared" {
			acc.Pattern.Ways = 1
		}
	}
	acc.Pattern.Evidence = gpumodel.FromSourcePage
	return acc
}

// instructions reads the source page's per-instruction counters: ncu's
// theoretical L2 sectors (global) or L1 wavefronts (shared), actual and
// ideal, over the warp-level instructions executed.
func instructions(a *Kernel) []Instruction {
	var out []Instruction
	var prog *sassProgram
	warps := 0.0
	if g, b := a.Record.Grid.Size(), a.Record.Block.Size(); g > 0 && b > 0 {
		warps = float64(g) * math.Ceil(float64(b)/32)
	}
	for _, s := range a.Record.Source {
		if s.Address == "" {
			continue
		}
		c := map[string]float64{}
		var space, op string
		for _, m := range s.Counter {
			switch m.Name {
			case "address_space":
				space = strings.ToLower(m.Text)
			case "access_operation":
				op = strings.ToLower(m.Text)
			default:
				c[m.Name] = m.Value
			}
		}
		// An asynchronous copy (LDGSTS, cp.async) reads global memory
		// into shared memory: the page files it under both spaces and
		// both operations, and its L2 sectors are its global load's. The
		// export's global load counters count its requests and sectors
		// but its ideal counter does not (fixtures/sol-check16's mm_t64,
		// Triton's tl.dot: 16 sectors a request of 16-byte copies, ideal
		// 0 on the raw page, read as 16 where 1 would do).
		if space == "global,shared" && op == "load,store" {
			space, op = "global", "load"
		}
		req := c["inst_executed"]
		if req <= 0 || (space != "global" && space != "shared") || (op != "load" && op != "store") {
			continue
		}
		in := Instruction{File: s.File, Line: s.Line, Address: s.Address, SASS: s.SASS, Space: space, Operation: op, Requests: req}
		accessBytes := c["access_size_bits"] / 8
		if space == "global" {
			in.Sectors, in.IdealSectors = c["memory_l2_theoretical_sectors_global"], c["memory_l2_theoretical_sectors_global_ideal"]
		} else {
			in.Sectors, in.IdealSectors = c["memory_l1_wavefronts_shared"], c["memory_l1_wavefronts_shared_ideal"]
		}
		if in.Sectors <= 0 {
			continue
		}
		in.SectorsPerRequest = in.Sectors / req
		in.IdealSectorsPerRequest = in.IdealSectors / req
		elem := accessBytes
		if elem <= 0 {
			elem = 4
		}
		threads := c["thread_inst_executed_pred_on"] / req
		if warps > 0 {
			in.Executions = req / warps
		}
		if space == "global" {
			in.Pattern = globalInstructionPattern(a, in, elem, threads, c["l1_tag_requests_global"]/req)
			if in.Sectors > in.IdealSectors*gpumodel.Slack && in.Pattern.Kind != gpumodel.Broadcast {
				if prog == nil {
					prog = programOf(a)
				}
				if prog.indirect(s.Address) {
					in.Indirect = true
					in.Pattern = gpumodel.AccessPattern{Kind: gpumodel.Scattered, Random: true, AccessBytes: elem,
						Reasons: []string{fmt.Sprintf("%.1f sectors per request, ideal %.1f: the address is loaded from memory (a gather or scatter through an index array), so the data's order decides", in.SectorsPerRequest, in.IdealSectorsPerRequest)}}
				}
				in.AtomicRead = op == "load" && prog.atomicTarget(s.Address)
				in.AtomicSlot = prog.atomicSlot(s.Address)
				in.Step = float64(prog.step(s.Address))
			}
			if op == "load" && !in.AtomicRead {
				// A CAS loop's read of its word is one at its ideal
				// sectors too, where neighbouring lanes update
				// neighbouring words (fixtures/sol-check30's crossMin<0>,
				// an int minimum a slot, coalesced: 4 sectors a request).
				// Fitted after that set's read.
				if prog == nil {
					prog = programOf(a)
				}
				in.AtomicRead = prog.atomicTarget(s.Address)
			}
			if in.IdealSectors < req {
				// ncu's ideal counts the bytes requested; a request
				// touches at least one sector however few they are.
				in.IdealSectors, in.IdealSectorsPerRequest = req, 1
			}
		} else {
			ways := 1.0
			if in.IdealSectors > 0 {
				ways = in.Sectors / in.IdealSectors
			}
			in.Pattern = sharedPattern(ways, elem)
		}
		in.Pattern.AccessBytes = accessBytes
		in.Pattern.Evidence = gpumodel.FromSourcePage
		out = append(out, in)
	}
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].Sectors-out[i].IdealSectors > out[j].Sectors-out[j].IdealSectors
	})
	return out
}

// globalInstructionPattern reads one global instruction's pattern from
// its sectors, ideal sectors, active threads and 128-byte lines per
// request.
func globalInstructionPattern(a *Kernel, in Instruction, elem, threads, lines float64) gpumodel.AccessPattern {
	// ncu's ideal counts the distinct bytes requested: far below
	// threads × size / 32 means the threads share addresses.
	noShare := threads * elem / 32
	if threads > 0 && threads <= 1.5 && in.SectorsPerRequest <= 1.5 {
		// One active thread (a one-thread kernel, a lane-0 store): it
		// reads its own word, which one sector serves; nothing is shared.
		return gpumodel.AccessPattern{Kind: gpumodel.Coalesced, AccessBytes: elem,
			Reasons: []string{fmt.Sprintf("%.1f active threads per request: one sector serves them", threads)}}
	}
	// Fewer than a sector of distinct bytes a request is a broadcast
	// unless the active threads' own words are that few: a copy by
	// sixteen threads of one warp in eight (if (threadIdx.x < 16),
	// fixtures/sol-check14's volCoef staging its coefficients: two
	// threads a request on average, a quarter of a sector each) shares
	// nothing.
	few := in.IdealSectorsPerRequest < 0.9 && !(threads > 0 && in.IdealSectorsPerRequest >= 0.9*noShare)
	if (few || (threads > 0 && in.IdealSectorsPerRequest < 0.5*noShare)) && in.SectorsPerRequest <= 1.5 {
		return gpumodel.AccessPattern{Kind: gpumodel.Broadcast, Reasons: []string{"the threads of a warp read the same address (broadcast)"}}
	}
	x := gpumodel.Explain(elem, in.SectorsPerRequest, in.IdealSectorsPerRequest)
	p := x.Access(elem, gpumodel.FromSourcePage)
	if x.Kind != gpumodel.Scattered {
		return p
	}
	if lines > 0 && threads > 0 {
		// One sector per thread. The 128-byte lines tell a stride from
		// scatter: a stride of s bytes touches threads·s/128 lines, every
		// thread its own line from 128 B on; random addresses share a
		// line now and then.
		switch {
		case lines < 0.9*threads:
			p.Kind, p.StrideBytes = gpumodel.Strided, math.Round(128*lines/threads)
			p.Reasons = []string{fmt.Sprintf("%.1f sectors in %.1f lines per request for %.1f threads: a stride of %.0f B", in.SectorsPerRequest, lines, threads, p.StrideBytes)}
		case lines >= 0.99*threads:
			p.Kind, p.StrideBytes = gpumodel.Strided, 0
			p.Column = launch2D(a.Record)
			p.Reasons = []string{fmt.Sprintf("every thread of the warp in its own 128-byte line (%.1f lines for %.1f threads): a stride of 128 B or more", lines, threads)}
			if p.Column {
				p.Reasons[0] += ", as a column of a row-major array"
			}
		default:
			p.StrideBytes, p.Random = 0, true
			p.Reasons = []string{fmt.Sprintf("%.1f lines for %.1f threads per request: random addresses, a few sharing a line", lines, threads)}
		}
		return p
	}
	if launch2D(a.Record) {
		p.Kind, p.StrideBytes, p.Column = gpumodel.Strided, 0, true
		p.Reasons = append(p.Reasons, "with a 2-D launch this is a column access (stride of a whole row)")
	}
	return p
}

// sharedPattern reads a shared-memory access from its wavefronts over the
// ideal: ways-way bank conflict.
func sharedPattern(ways, elem float64) gpumodel.AccessPattern {
	if ways < 1.5 {
		return gpumodel.AccessPattern{Kind: gpumodel.Coalesced, Ways: math.Max(1, math.Round(ways*100)/100), Reasons: []string{"no bank conflicts"}}
	}
	if ways > 33 {
		// No bank layout costs more than 32 wavefronts: contention on
		// the same words (shared atomics), not a conflict degree.
		return gpumodel.AccessPattern{Kind: gpumodel.Mixed, Ways: 32, Contention: true,
			Reasons: []string{fmt.Sprintf("%.1f× the ideal wavefronts, more than the 32 a full bank conflict costs: threads contend for the same words", ways)}}
	}
	w := math.Min(32, math.Round(ways))
	return gpumodel.AccessPattern{Kind: gpumodel.Strided, Ways: math.Min(32, math.Round(ways*100)/100), StrideBytes: 4 * w,
		Reasons: []string{fmt.Sprintf("%.1f× the ideal wavefronts: a %.0f-way bank conflict", ways, w)}}
}

// globalAccess reads global loads or stores (op "gld" or "gst") from the
// counters: the sectors per request measured, the ideal the export gives
// the means to know, and the pattern that tells them apart.
func globalAccess(a *Kernel, reqName, op string) *Access {
	c, ok := readGlobalCounters(a, reqName, op)
	if !ok {
		return nil // no accesses of this kind
	}
	acc := &Access{Requests: nan0(c.req, c.haveReq), Transactions: nan0(c.tr, c.haveTr), SectorsPerRequest: c.spr}
	elem, haveElem, ev := globalIdeal(a, acc, c, op)
	acc.Pattern = globalCounterPattern(a, acc, op, elem, haveElem, activePerRequest(a, acc, c, op), ev)
	acc.Pattern.Evidence = ev
	// The counters are checked as measured, before the ideal is raised
	// to the one sector every request moves.
	rawIdeal := acc.IdealSectorsPerRequest
	// A request moves at least one sector: the ideal is never below one,
	// whether the warp's threads share an address or few are active.
	atLeastOneSector(acc)
	e := elem
	if e <= 0 || math.IsNaN(e) {
		e = 4
	}
	if c.fromEff > 0 {
		efficiencyOnlyPattern(a, acc, op, c.fromEff)
	}
	acc.Implausible = gpumodel.Plausible(e, acc.SectorsPerRequest, rawIdeal, eff(a, op))
	return acc
}

// globalCounters is what an export measured of one global space: its
// requests and transactions (each with whether it was measured), and its
// sectors per request; fromEff is the efficiency in percent when the
// sectors per request were read from it alone, else 0.
type globalCounters struct {
	req, tr         float64
	haveReq, haveTr bool
	spr             float64
	fromEff         float64
}

// readGlobalCounters reads a global space's counters; false when the
// kernel made no accesses of the kind, or the export cannot tell.
func readGlobalCounters(a *Kernel, reqName, op string) (globalCounters, bool) {
	var c globalCounters
	c.req, c.haveReq = a.Value(reqName)
	c.tr, c.haveTr = a.Value(op + "_transactions")
	spr, ok := a.Value(op + "_transactions_per_request")
	if !ok && c.haveReq && c.haveTr && c.req > 0 {
		spr, ok = c.tr/c.req, true
	}
	noRequests := c.haveReq && c.req == 0
	if !ok && !noRequests {
		// nvprof --metrics, or ncu's details page, with the efficiency
		// but not the transactions per request: the efficiency alone says
		// how many times the ideal sectors move; read it against the
		// ideal of 4-byte words, or of narrower ones where 4-byte words
		// could not waste so much: a warp's access of w-byte words (w
		// sectors ideal) touches at most 32 sectors, so its efficiency
		// is at least w/32.
		if e, okE := a.Value(op + "_efficiency"); okE && e > 0 && e <= 100 {
			w := 4.0
			for w > 1 && w*100/e > 32 {
				w /= 2
			}
			spr, ok, c.fromEff = w*100/e, true, e
		}
	}
	c.spr = spr
	return c, ok && !noRequests && spr != 0
}

// globalIdeal sets acc's ideal sectors per request (and transactions,
// where measured) from the best counter the export has, and returns the
// access size in bytes (haveElem when the export tells it, directly or
// through the ideal) and how the ideal is known.
func globalIdeal(a *Kernel, acc *Access, c globalCounters, op string) (elem float64, haveElem bool, ev gpumodel.Evidence) {
	elem, haveElem = a.Value(op + "_access_bytes")
	ideal, haveIdeal := a.Value(op + "_ideal_transactions")
	effPct, haveEff := a.Value(op + "_efficiency")
	ev = gpumodel.FromModel
	switch {
	case haveEff && effPct > 0:
		// Efficiency is requested bytes over moved bytes, so the ideal is
		// that share of the measured sectors per request, whatever a
		// "request" counts on this architecture (nvprof on Maxwell and
		// Pascal counts them differently from ncu).
		acc.IdealSectorsPerRequest = c.spr * effPct / 100
		if c.haveTr {
			acc.IdealTransactions = math.Round(c.tr * effPct / 100)
		}
		ev = gpumodel.FromCounters
	case haveIdeal && c.haveReq && c.req > 0:
		acc.IdealTransactions = ideal
		acc.IdealSectorsPerRequest = ideal / c.req
		ev = gpumodel.FromCounters
	case haveElem:
		acc.IdealSectorsPerRequest = math.Max(1, elem)
	default:
		// Without the requested bytes, assume 4-byte words: the commonest
		// access and the one published coalescing tables use.
		elem = 4
		acc.IdealSectorsPerRequest = 4
	}
	if !haveElem && (haveEff || haveIdeal) {
		elem, haveElem = acc.IdealSectorsPerRequest, true
	}
	return elem, haveElem, ev
}

// warpAccessBytes is the access size a pattern states: from Volta on, a
// full warp's ideal sectors per request equal its access size in bytes
// (32 threads × S bytes / 32-byte sectors); 0 before Volta or when the
// size is unknown.
func warpAccessBytes(a *Kernel, elem float64, haveElem bool) float64 {
	cc := a.Record.CC
	if cc == "" && a.Spec != nil {
		cc = a.Spec.CC
	}
	r, err := gpumodel.RulesOf(cc)
	if !haveElem || err != nil || !r.WarpSectors() {
		return 0
	}
	return math.Round(elem*100) / 100
}

// activePerRequest is the active threads per request of an access whose
// ideal is under a sector, 0 when unknown (or the ideal is a sector or
// more, where it does not matter).
func activePerRequest(a *Kernel, acc *Access, c globalCounters, op string) float64 {
	if acc.IdealSectorsPerRequest >= 0.9 {
		return 0
	}
	if th, ok := a.Value(op + "_thread_requests"); ok && c.haveReq && c.req > 0 {
		return th / c.req
	}
	if we, ok := a.Value("warp_execution_efficiency"); ok && we > 0 {
		return we / 100 * 32 // active threads per warp instruction
	}
	return 0
}

// globalCounterPattern reads the pattern of a global access from its
// sectors per request against the ideal; perReq is the active threads
// per request (0 when unknown).
func globalCounterPattern(a *Kernel, acc *Access, op string, elem float64, haveElem bool, perReq float64, ev gpumodel.Evidence) gpumodel.AccessPattern {
	accessBytes := warpAccessBytes(a, elem, haveElem)
	spr, ideal := acc.SectorsPerRequest, acc.IdealSectorsPerRequest
	// Fewer distinct bytes than a sector per request means shared
	// addresses only when the warp's active threads would have needed
	// more: a single active thread (a one-thread kernel) reads its own
	// word, it shares nothing.
	lone := ideal < 0.9 && perReq > 0 && perReq*4/32 <= ideal*1.1
	switch {
	case lone:
		return gpumodel.AccessPattern{Kind: gpumodel.Coalesced, AccessBytes: accessBytes,
			Reasons: []string{fmt.Sprintf("%.2f sectors per request: each request carries the words of one or a few active threads, which one sector serves", spr)}}
	case ideal >= 0.9 && spr <= ideal*1.1:
		return gpumodel.AccessPattern{Kind: gpumodel.Coalesced, AccessBytes: accessBytes,
			Reasons: []string{fmt.Sprintf("%.2f sectors per request, ideal %.2f: coalesced", spr, ideal)}}
	case ideal < 0.9 && spr <= 1.5:
		return sharedAddressPattern(op, spr, ideal, perReq, accessBytes)
	case haveElem && !isPow2(elem) && math.Abs(spr-ideal) > 0.05*ideal:
		return gpumodel.AccessPattern{Kind: gpumodel.Mixed,
			Reasons: []string{fmt.Sprintf("%.2f sectors per request, ideal %.2f: instructions of different widths or patterns share this memory space; the source page tells them apart", spr, ideal)}}
	}
	x := gpumodel.Explain(math.Round(elem), spr, ideal)
	p := x.Access(accessBytes, ev)
	if x.Kind == gpumodel.Scattered && launch2D(a.Record) {
		// One sector per thread cannot tell a large stride from
		// scatter. A 2-D launch indexes 2-D data: a column access.
		p.Kind, p.StrideBytes, p.Column = gpumodel.Strided, 0, true
		p.Reasons = append(p.Reasons, "with a 2-D launch this is a column access (stride of a whole row)")
	}
	return p
}

// sharedAddressPattern is the pattern of an access with less than a
// sector of distinct bytes per request: the threads share addresses.
func sharedAddressPattern(op string, spr, ideal, perReq, accessBytes float64) gpumodel.AccessPattern {
	what := "the threads of a warp read the same address (broadcast)"
	if op == "gst" {
		what = "the threads of a warp store to the same address"
	}
	if perReq == 0 {
		// Without the active threads per request, one thread alone
		// asks for as few bytes as a warp sharing one address.
		what += ", or only one thread of the warp is active"
	}
	return gpumodel.AccessPattern{Kind: gpumodel.Broadcast, AccessBytes: accessBytes,
		Reasons: []string{fmt.Sprintf("%.2f sectors per request for %.2f sectors of distinct bytes: %s", spr, ideal, what)}}
}

// efficiencyOnlyPattern states the pattern of an access whose export
// measured only its efficiency (fromEff, in percent): the waste, not its
// pattern, unless there is no waste or the waste is one extra sector per
// request.
func efficiencyOnlyPattern(a *Kernel, acc *Access, op string, fromEff float64) {
	ev, what := gpumodel.FromCounters, fmt.Sprintf("%s_efficiency %.1f%%", op, fromEff)
	if fromRuleText(a, op+"_efficiency") {
		ev = gpumodel.FromRuleText
		what = "ncu's rule text"
	}
	acc.Pattern = gpumodel.AccessPattern{Kind: gpumodel.Mixed, Evidence: ev,
		Reasons: []string{fmt.Sprintf("%s: %.1f× the ideal sectors move (the export has no sectors per request to tell the pattern)", what, 100/fromEff)}}
	if fromEff >= 99.5 {
		acc.Pattern = gpumodel.AccessPattern{Kind: gpumodel.Coalesced, Evidence: ev,
			Reasons: []string{fmt.Sprintf("%s: every byte moved is used", what)}}
	} else if s, ok := oneExtraSector(100 / fromEff); ok {
		// (S+1)/S of the ideal is what a coalesced warp access of S
		// bytes moves when it starts off a sector boundary: one
		// extra sector per request. No other single pattern wastes
		// so little.
		acc.SectorsPerRequest, acc.IdealSectorsPerRequest = s+1, s
		acc.Pattern = gpumodel.AccessPattern{Kind: gpumodel.Misaligned, Evidence: ev,
			Reasons: []string{fmt.Sprintf("%s: %.0f sectors move for every %.0f needed, one extra per request, as a misaligned %.0f-byte warp access gives (the export has no sectors per request to confirm it)", what, s+1, s, s)}}
	}
}

// atLeastOneSector raises a global ideal below one sector per request to
// one: every request touches a sector, however few bytes it asks for (a
// broadcast, one active thread).
func atLeastOneSector(acc *Access) {
	if acc.IdealSectorsPerRequest >= 1 {
		return
	}
	acc.IdealSectorsPerRequest = 1
	if acc.Requests > 0 {
		acc.IdealTransactions = math.Max(acc.IdealTransactions, acc.Requests)
	}
}

func eff(a *Kernel, op string) float64 {
	v, ok := a.Value(op + "_efficiency")
	if !ok {
		return math.NaN()
	}
	return v
}

// sharedAccess reads shared loads or stores (op) from the counters; the
// two are kept apart, never averaged.
func sharedAccess(a *Kernel, op string) *Access {
	spr, ok := a.Value("shared_" + op + "_transactions_per_request")
	if !ok || spr == 0 || math.IsNaN(spr) {
		return nil
	}
	req, _ := a.Value("shared_" + op + "_requests")
	tr, _ := a.Value("shared_" + op + "_transactions")
	acc := &Access{Requests: nz(req), Transactions: nz(tr), SectorsPerRequest: spr, IdealSectorsPerRequest: 1}
	acc.IdealTransactions = acc.Requests
	// ncu counts the wavefronts bank conflicts add: the rest is the ideal,
	// which is 2 per request for 64-bit words read by 32 threads (256 B,
	// two wavefronts by construction) and 4 for 128-bit ones.
	if bc, ok := a.Value("shared_" + op + "_bank_conflicts"); ok && acc.Requests > 0 && acc.Transactions > 0 && bc >= 0 && bc < acc.Transactions {
		acc.IdealTransactions = math.Max(acc.Requests, acc.Transactions-bc)
		acc.IdealSectorsPerRequest = acc.IdealTransactions / acc.Requests
	}
	acc.Pattern = sharedPattern(spr/acc.IdealSectorsPerRequest, 4)
	acc.Pattern.Evidence = gpumodel.FromCounters
	if ways := spr / acc.IdealSectorsPerRequest; ways > 33 {
		// 32 banks cannot cost more than 32 wavefronts per instruction:
		// atomics retrying on the same words (nvprof counts shared
		// atomics among both the loads' and the stores' transactions).
		acc.Pattern = gpumodel.AccessPattern{Kind: gpumodel.Mixed, Evidence: gpumodel.FromCounters,
			Reasons: []string{fmt.Sprintf("%.0f wavefronts per shared-memory %s: more than any bank conflict costs; threads contend for the same words, as shared atomics do", spr, op)}}
	} else if ways < 1.5 {
		acc.Pattern.Reasons = []string{fmt.Sprintf("%.2f wavefronts per shared-memory %s, ideal %.2f: no bank conflicts to speak of", spr, op, acc.IdealSectorsPerRequest)}
	} else {
		w := math.Round(ways)
		acc.Pattern.Reasons = []string{fmt.Sprintf("%.1f wavefronts per shared-memory %s where %.0f would do: a %.0f-way bank conflict, as a warp reading 4-byte words %.0f B apart (a column of a [32][32] tile is 32-way)", spr, op, acc.IdealSectorsPerRequest, w, 4*w)}
	}
	return acc
}

// isPow2 reports whether an access size is 1, 2, 4, 8 or 16 bytes, within
// the rounding of counter ratios.
func isPow2(v float64) bool {
	for _, p := range []float64{1, 2, 4, 8, 16} {
		if math.Abs(v-p) <= 0.05*p {
			return true
		}
	}
	return false
}

// launch2D reports whether k was launched over two or three dimensions:
// then one sector per thread reads as a column of 2-D data (a stride of a
// whole row) rather than scatter, which the counters alone cannot tell.
func launch2D(k *profan.Kernel) bool {
	return k.Block[1] > 1 || k.Grid[1] > 1 || k.Block[2] > 1 || k.Grid[2] > 1
}

func nan0(v float64, ok bool) float64 {
	if !ok || math.IsNaN(v) {
		return 0
	}
	return v
}

func nz(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// oneExtraSector reports whether a ratio of moved to needed sectors is
// (S+1)/S for a warp access of S = 4, 8 or 16 bytes, and returns S.
func oneExtraSector(r float64) (float64, bool) {
	for _, s := range []float64{4, 8, 16} {
		if math.Abs(r-(s+1)/s) <= 0.01*(s+1)/s {
			return s, true
		}
	}
	return 0, false
}

// fromRuleText reports whether the canonical metric name was read from the
// numbers ncu's rule rows quote rather than from a counter.
func fromRuleText(a *Kernel, name string) bool {
	v, ok := a.Metrics.Lookup(name)
	return ok && v.FromRuleText()
}
