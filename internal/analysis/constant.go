package analysis

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
)

// ConstantWork is what a kernel's constant loads indexed per thread ask
// of the constant cache. The constant cache serves one address a request:
// a warp whose lanes read a __constant__ table at their own indices
// (LDC R2, c[0x3][R10+0x20]) is served one distinct address after another,
// up to 32 requests for one load, where a uniform index takes one
// (fixtures/sol-check9's lutConst<0>: 8.39 M indexed loads made 268 M IDC
// requests, 31.7 each, the GPC's constant cache at 99.8 % of its peak;
// its twin with the table in shared memory ran 0.99 faster).
type ConstantWork struct {
	Loads   float64 // warp-level LDCs whose index is a per-thread register
	Threads float64 // their thread-level executions (predicated on)
	Other   float64 // the other LDCs (warp-level): one request each
	// Requests are the constant cache's (IDC) requests, Busy the busier
	// constant cache's share of its peak and SM the SM's throughput
	// (percent, which counts the IDC's request cycles); NaN when the
	// export lacks them.
	Requests, Busy, SM float64
	// Samples are the warp stall samples at the indexed loads and at the
	// instructions that wait on their results, Total the kernel's; 0 when
	// the page samples nothing.
	Samples, Total float64
	// MIO is the kernel's instructions that enter the MIO queue
	// (warp-level: the constant loads, shared memory, shuffles, MUFU,
	// dynamic branches), and Throttled the share of a warp's cycles it
	// waits for that queue to have room (percent; NaN when the export
	// lacks it).
	MIO, Throttled float64
}

// mioOp reports whether an opcode enters the SM's MIO queue: constant
// and shared-memory loads and stores, shuffles, the XU's MUFU and the
// dynamic branches (ncu's MIO throttle: "special math instructions,
// dynamic branches, as well as shared memory instructions").
func mioOp(op string) bool {
	base, _, _ := strings.Cut(op, ".")
	switch base {
	case "LDC", "LDS", "STS", "LDSM", "STSM", "ATOMS", "SHFL", "MUFU", "BRX", "JMX":
		return true
	}
	return false
}

// indexedLDC matches a constant load whose offset is a register (a
// per-thread index): c[0x3][R10+0x20], not c[0x0][RZ] nor a uniform
// register's c[0x3][UR4].
var indexedLDC = regexp.MustCompile(`^LDC(\.[A-Z0-9]+)*$`)

// constIndexReg is the register inside an LDC's offset brackets.
var constIndexReg = regexp.MustCompile(`c\[[^\]]*\]\[\s*(R[0-9]+)`)

// IndexedConstantLoad reports whether a SASS instruction is a constant
// load indexed by a per-thread register.
func IndexedConstantLoad(sass string) bool {
	return indexedLDC.MatchString(Opcode(sass)) && constIndexReg.MatchString(sass)
}

// Constants reads a kernel's indexed constant loads from its source page;
// ok is false without the page or without such a load.
func Constants(a *Kernel) (w ConstantWork, ok bool) {
	w.Requests, w.Busy, w.SM, w.Throttled = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	type rec struct {
		s    profan.SourceRecord
		addr uint64
	}
	var recs []rec
	seen := map[string]bool{}
	for _, s := range a.Record.Source {
		if s.Address == "" || s.SASS == "" || seen[s.Address] {
			continue
		}
		seen[s.Address] = true
		v, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(s.Address), "0x"), 16, 64)
		if err != nil {
			continue
		}
		recs = append(recs, rec{s, v})
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].addr < recs[j].addr })
	waits := map[int]bool{}
	for i, r := range recs {
		n := sourceInst(r.s)
		if smp, ok := sourceSamples(r.s); ok {
			w.Total += smp
		}
		op := Opcode(r.s.SASS)
		if mioOp(op) {
			w.MIO += n
		}
		if !indexedLDC.MatchString(op) {
			continue
		}
		if !constIndexReg.MatchString(r.s.SASS) {
			w.Other += n
			continue
		}
		w.Loads += n
		w.Threads += sourceThreads(r.s)
		waits[i] = true
		dst := destRegs(r.s.SASS)
		for j := i + 1; j < len(recs) && j <= i+64 && len(dst) > 0; j++ {
			reads, writes := regUse(recs[j].s.SASS, dst)
			if reads {
				waits[j] = true
			}
			if writes && !reads {
				break
			}
		}
	}
	if !(w.Loads > 0) {
		return w, false
	}
	for i := range waits {
		if smp, ok := sourceSamples(recs[i].s); ok {
			w.Samples += smp
		}
	}
	if v, ok := a.Value("constant_requests"); ok && v > 0 {
		w.Requests = v
	}
	if v, ok := a.Value("constant_cache_pct"); ok && v >= 0 {
		w.Busy = v
	}
	if v, ok := a.Value("compute_throughput_pct"); ok && v >= 0 {
		w.SM = v
	}
	if v, ok := a.Value("mio_stall_pct"); ok && v >= 0 {
		w.Throttled = v
	}
	return w, true
}

// regToken is a register's name in an operand (R10 of [R10+0x20]).
var regToken = regexp.MustCompile(`[A-Z]+[0-9]+`)

// destRegs are the registers an instruction's first operand writes (R2;
// R2 and R3 for a 64-bit load).
func destRegs(sass string) []string {
	f := strings.Fields(strings.ReplaceAll(sass, ",", " "))
	if len(f) > 0 && strings.HasPrefix(f[0], "@") {
		f = f[1:]
	}
	if len(f) < 2 || !strings.HasPrefix(f[1], "R") || f[1] == "RZ" {
		return nil
	}
	regs := []string{f[1]}
	if strings.Contains(f[0], ".64") {
		if k, err := strconv.Atoi(f[1][1:]); err == nil {
			regs = append(regs, fmt.Sprintf("R%d", k+1))
		}
	}
	return regs
}

// regUse reports whether an instruction reads any of regs (an operand
// after the first, or any operand of a store or a branch) and whether its
// first operand writes one.
func regUse(sass string, regs []string) (reads, writes bool) {
	f := strings.Fields(strings.ReplaceAll(sass, ",", " "))
	if len(f) > 0 && strings.HasPrefix(f[0], "@") {
		f = f[1:]
	}
	if len(f) < 2 {
		return false, false
	}
	store := strings.HasPrefix(f[0], "ST") || strings.HasPrefix(f[0], "RED") || strings.HasPrefix(f[0], "BRA")
	has := func(op string) bool {
		for _, r := range regs {
			for _, tok := range regToken.FindAllString(op, -1) {
				if tok == r {
					return true
				}
			}
		}
		return false
	}
	for k, op := range f[1:] {
		if k == 0 && !store {
			writes = has(op)
			continue
		}
		if has(op) {
			reads = true
		}
	}
	return reads, writes
}

// Replays is the requests one indexed load makes: measured (the IDC's
// requests less one for each other load, over the indexed loads) where
// the export counts them, else the lanes each executed, the most distinct
// addresses a warp can ask for.
func (w ConstantWork) Replays() (r float64, measured bool) {
	if w.Requests > 0 && w.Requests > w.Other {
		return math.Max(1, (w.Requests-w.Other)/w.Loads), true
	}
	return math.Max(1, w.Threads/w.Loads), false
}

// Waiting is the share of the kernel's warp stall samples at the indexed
// loads and the instructions that wait on their results; NaN when the
// page samples nothing.
func (w ConstantWork) Waiting() float64 {
	if !(w.Total > 0) {
		return math.NaN()
	}
	return w.Samples / w.Total
}

// constantBound is the share of its peak (percent) at which a constant
// cache is taken to limit a kernel: ncu's line between a busy unit and
// latency (analysis.Options' Bound).
const constantBound = 60

// constantSaturated is the share of its peak (percent) at which a
// measured constant cache is saturated: within a tenth of the ceiling the
// time model gives a unit that limits (rules' ceiling, 0.9).
const constantSaturated = 80

// Limits reports whether the constant cache's serialisation sets the
// kernel's time: its indexed loads make two requests or more each, a
// constant cache runs at constantBound of its peak or more (the SM's
// throughput, which counts the IDC's request cycles, where the export
// gives neither cache's), and the warps wait on those loads for at least
// half their stall samples where the page samples them, or the cache's
// own counters show it saturated (constantSaturated). A table read at
// a uniform index per warp (fixtures/sol-check9's FIR taps, sol-check7's
// conv5c8Reg weights: a request a load, under 5 % of the samples) does
// not; nor do a few divergent lookups that leave the cache idle (a
// latency the serialisation adds, not a limit).
func (w ConstantWork) Limits() bool {
	r, measured := w.Replays()
	busy := w.Busy
	if math.IsNaN(busy) {
		busy = w.SM
	}
	if r < 2 || !(busy >= constantBound) {
		return false
	}
	if measured && w.Busy >= constantSaturated {
		// A constant cache the counters show near its ceiling, its
		// loads measured at two requests or more each, sets the time by
		// its throughput wherever the stall samples land (fixtures/
		// sol-check21's colormap<0>: 30.1 requests a load, the cache at
		// 90 % of peak, 21 % of the samples on the loads and their
		// users; the map read through __ldg ran 0.66 faster).
		return true
	}
	if w.queued() {
		return true
	}
	if s := w.Waiting(); !math.IsNaN(s) {
		return s >= 0.5
	}
	return measured
}

// mioThrottled is the share of a warp's cycles (percent) spent waiting
// for room in the MIO queue at which that queue holds the warps: the
// leading stall reason, ncu's CPIStall row (fixtures/sol-check21's
// colormap<0>: 47.5 %, beside 29 % on the short scoreboard, the lookups'
// results; sol-check23's hexEnc<0> 90.5 %, sol-check22's nf4Gemv<0> 66.5
// %).
const mioThrottled = 40

// queued reports whether the warps wait on the queue the indexed loads
// fill: they stall mioThrottled of their cycles or more for room in the
// MIO queue (mio_stall_pct: ncu's CPIStall row on the details page, its
// counters on the raw page) and the indexed constant loads' requests, a
// request a distinct address (Replays), are at least half of what enters
// it, so that every constant load waits behind their replays (fixtures/
// sol-check23's hexEnc<0>: 32 nibbles a thread looked up in a
// 16-character table, 90 % of the warps' cycles on the MIO queue; its
// stall samples land on the kernel's first LDCs as much as on the
// lookups, 24 % at the lookups and their users, and its details page has
// no constant cache counter; sol-check21's colormap<0>: 47.5 % of the
// cycles on the MIO queue, its lookups' 30 requests each 88 % of the
// queue's entries, though its parameters' LDCs outnumber them).
func (w ConstantWork) queued() bool {
	return w.Throttled >= mioThrottled && w.queueShare() >= 0.5
}

// queueShare is the indexed loads' share of the MIO queue's entries:
// their requests (Replays each) over those and the queue's other
// instructions.
func (w ConstantWork) queueShare() float64 {
	r, _ := w.Replays()
	if !(w.Loads > 0) {
		return 0
	}
	return w.Loads * r / (w.Loads*r + math.Max(0, w.MIO-w.Loads))
}

// Describe says the evidence in one sentence.
func (w ConstantWork) Describe() string {
	r, measured := w.Replays()
	s := fmt.Sprintf("%.3g constant loads (warp-level) index a __constant__ table per thread", w.Loads)
	if measured {
		s += fmt.Sprintf(": the constant cache served %.1f requests each (%.3g in all), one per distinct address", r, w.Requests)
	} else {
		s += fmt.Sprintf(": the constant cache serves one distinct address a request, up to %.0f each (the lanes that ran them)", r)
	}
	if !math.IsNaN(w.Busy) {
		s += fmt.Sprintf(", at %.0f%% of its peak", w.Busy)
	}
	if v := w.Waiting(); !math.IsNaN(v) {
		s += fmt.Sprintf("; %.0f%% of the warps' stall samples wait on them", 100*v)
	}
	if w.queued() {
		s += fmt.Sprintf("; the warps wait %.0f%% of their cycles for room in the MIO queue, %.0f%% of whose entries are these loads' requests", w.Throttled, 100*w.queueShare())
	}
	return s
}
