// Package ncurule reads the numbers in Nsight Compute's rule rows. The
// details page, the export most users make, prints no per-space sector or
// wavefront counters, but ncu's rules quote them in their text ("… a total
// of 58720256 excessive sectors (78% of the total 75497472 sectors)"). Each
// known rule text is a template; its numbers are read by the rule's name and
// their position in it, never by guessing. A row of a known rule whose text
// fits no template is counted as unknown and read for nothing.
package ncurule

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
)

// Value is one number read from a rule's text, under a canonical metric
// name (metrics.Defs names).
type Value struct {
	Value float64
	Rule  string // the ncu rule that printed it
	// From says how it was obtained, for the evidence: the rule, and the
	// arithmetic when the number is a split of the rule's totals.
	From string
	// Estimate marks a number the rule text does not hold, estimated from
	// those it does (From says how): never quoted as measured.
	Estimate bool
}

// Reading is what one kernel's rule rows say.
type Reading struct {
	Values map[string]Value
	Read   int // rows of the rules below whose text fit a template
	// Unknown lists the rows of the rules below whose text fit no
	// template (another ncu version's wording): counted, never misread.
	Unknown []string
}

// Get returns the value read for name.
func (r Reading) Get(name string) (Value, bool) {
	v, ok := r.Values[name]
	return v, ok
}

// num matches a number as ncu prints it in rule text (thousands
// separators in some versions).
const num = `([0-9][0-9,]*(?:\.[0-9]+)?)`

// template is one rule text form: the rule's name, the pattern with its
// numbers, and what each number is.
type template struct {
	rule string
	re   *regexp.Regexp
	read func(m []string, r *reading) bool
}

var templates = []template{
	{"UncoalescedGlobalAccess",
		regexp.MustCompile(`uncoalesced global accesses resulting in a total of ` + num + ` excessive sectors \(` + num + `% of the total ` + num + ` sectors\)`),
		func(m []string, r *reading) bool {
			return r.set("global_excessive_sectors", m[1], "UncoalescedGlobalAccess") &&
				r.set("global_sectors", m[3], "UncoalescedGlobalAccess")
		}},
	{"UncoalescedSharedAccess",
		regexp.MustCompile(`uncoalesced shared accesses resulting in a total of ` + num + ` excessive wavefronts \(` + num + `% of the total ` + num + ` wavefronts\)`),
		func(m []string, r *reading) bool {
			return r.set("shared_excessive_wavefronts", m[1], "UncoalescedSharedAccess") &&
				r.set("shared_wavefronts", m[3], "UncoalescedSharedAccess")
		}},
	{"SharedMemoryConflicts",
		regexp.MustCompile(`shared (loads|stores) might not be optimal and causes on average a ` + num + ` - way bank conflict across all ` + num + ` shared (?:load|store) requests\.\s*This results in ` + num + ` bank conflicts,\s+which represent ` + num + `% of the overall ` + num + ` wavefronts`),
		func(m []string, r *reading) bool {
			op := map[string]string{"loads": "load", "stores": "store"}[m[1]]
			const rule = "SharedMemoryConflicts"
			return r.set("shared_"+op+"_requests", m[3], rule) &&
				r.set("shared_"+op+"_bank_conflicts", m[4], rule) &&
				r.set("shared_"+op+"_transactions", m[6], rule)
		}},
	{"MemoryCacheAccessPattern",
		regexp.MustCompile(`for (global|local) (loads|stores) (?:from|to) (L1TEX|L2|DRAM) might not be optimal\. On average, only ` + num + ` of the ` + num + ` bytes transmitted per sector are utilized`),
		func(m []string, r *reading) bool {
			op := map[string]string{"loads": "ld", "stores": "st"}[m[2]]
			used, ok1 := parse(m[4])
			sector, ok2 := parse(m[5])
			if !ok1 || !ok2 || sector <= 0 || used > sector {
				return false
			}
			name := m[1] + "_" + op + "_sector_use_pct"
			level := map[string]int{"L1TEX": 0, "L2": 1, "DRAM": 2}[m[3]]
			// One message per operation is printed; should several
			// levels come, the one nearest the SM is the access's own.
			if old, ok := r.level[name]; ok && old <= level {
				return true
			}
			r.level[name] = level
			r.values[name] = Value{Value: 100 * used / sector, Rule: "MemoryCacheAccessPattern",
				From: fmt.Sprintf("ncu rule MemoryCacheAccessPattern: %s of %s bytes per sector used (%s %s, at %s)", m[4], m[5], m[1], m[2], m[3])}
			return true
		}},
	{"CPIStall",
		// ncu words one row a leading stall reason; the barrier's, the
		// fence's and the MIO queue's are numbers profan reads
		// (barrier-stalls, fence-per-access, constant-serialization),
		// the others are read as nothing.
		regexp.MustCompile(`(?s)^(.*)$`),
		func(m []string, r *reading) bool {
			ok := true
			if b := barrierStall.FindStringSubmatch(m[1]); b != nil {
				ok = r.set("barrier_stall_pct", b[1], "CPIStall")
			}
			if b := membarStall.FindStringSubmatch(m[1]); b != nil {
				ok = r.set("membar_stall_pct", b[1], "CPIStall") && ok
			}
			if b := mioStall.FindStringSubmatch(m[1]); b != nil {
				ok = r.set("mio_stall_pct", b[1], "CPIStall") && ok
			}
			return ok
		}},
	{"SOLFPRoofline",
		regexp.MustCompile(`(?i)achieved\s+(close to\s+)?` + num + `% of this device's FP32 peak performance and\s+(close to\s+)?` + num + `% of its FP64 peak performance`),
		func(m []string, r *reading) bool {
			// "close to" marks a share ncu rounded to a whole percent
			// from well under it (saxpy's "close to 1%" is 0.7% of the
			// peak): no number to read.
			if m[1] != "" || m[3] != "" {
				return true
			}
			return r.set("fp32_peak_pct", m[2], "SOLFPRoofline") && r.set("fp64_peak_pct", m[4], "SOLFPRoofline")
		}},
}

// barrierStall is CPIStall's row for warps waiting at a CTA barrier:
// "each warp of this workload spends 17.0 cycles being stalled waiting
// for sibling warps at a CTA barrier. … This stall type represents about
// 45.0% of the total average of 37.8 cycles between issuing two
// instructions."
var barrierStall = regexp.MustCompile(`(?s)stalled waiting for sibling warps at a CTA barrier\..*?This stall type represents about ` + num + `% of the total average of`)

// membarStall is CPIStall's row for warps waiting at a memory fence:
// "each warp of this workload spends 102.5 cycles being stalled waiting
// on a memory barrier. … This stall type represents about 74.8% of the
// total average of 137.0 cycles between issuing two instructions."
var membarStall = regexp.MustCompile(`(?s)stalled waiting on a memory barrier\..*?This stall type represents about ` + num + `% of the total average of`)

// mioStall is CPIStall's row for warps waiting on a full MIO queue:
// "each warp of this workload spends 395.9 cycles being stalled waiting
// for the MIO (memory input/output) instruction queue to be not full. …
// This stall type represents about 90.5% of the total average of 437.2
// cycles between issuing two instructions." (fixtures/sol-check23's
// hexEnc<0>, its __constant__ table read at each lane's nibble).
var mioStall = regexp.MustCompile(`(?s)stalled waiting for the MIO \(memory input/output\) instruction queue to be not full\..*?This stall type represents about ` + num + `% of the total average of`)

// reading collects values while the rows are read.
type reading struct {
	values map[string]Value
	level  map[string]int
}

func (r *reading) set(name, s, rule string) bool {
	v, ok := parse(s)
	if !ok {
		return false
	}
	r.values[name] = Value{Value: v, Rule: rule, From: "ncu rule " + rule + " (its text)"}
	return true
}

func parse(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) && v >= 0
}

// Read reads the numbers of a kernel's rule rows.
func Read(fs []profan.ToolFinding) Reading {
	r := &reading{values: map[string]Value{}, level: map[string]int{}}
	out := Reading{}
	for _, f := range fs {
		known, ok := false, false
		for _, t := range templates {
			if t.rule != f.Rule {
				continue
			}
			known = true
			if m := t.re.FindStringSubmatch(f.Description); m != nil {
				// A text that fits but holds an unreadable number is
				// unknown too: nothing of it is kept.
				tmp := &reading{values: map[string]Value{}, level: r.level}
				if t.read(m, tmp) {
					for k, v := range tmp.values {
						r.values[k] = v
					}
					ok = true
				}
				break
			}
		}
		switch {
		case ok:
			out.Read++
		case known:
			out.Unknown = append(out.Unknown, f.Rule)
		}
	}
	splitGlobal(r.values)
	out.Values = r.values
	return out
}

// splitGlobal divides UncoalescedGlobalAccess's sectors (loads and stores
// together) between loads and stores, by the share of each sector that
// MemoryCacheAccessPattern says each operation uses. An operation without
// that message is taken to use its sectors fully: ncu prints it only for
// those that waste. Nothing is set when the two rules disagree.
func splitGlobal(v map[string]Value) {
	e, ok1 := v["global_excessive_sectors"]
	t, ok2 := v["global_sectors"]
	if !ok1 || !ok2 || e.Value <= 0 || t.Value <= 0 || e.Value > t.Value {
		return
	}
	ld, okL := v["global_ld_sector_use_pct"]
	st, okS := v["global_st_sector_use_pct"]
	a, b := ld.Value/100, st.Value/100
	var sLd, sSt float64 // sectors of loads and stores
	how := ""
	switch {
	case okL && okS && math.Abs(a-b) < 0.02:
		// Both waste the same share: the excess says only their sum. An
		// even split is no measurement (aosUpdate's loads move twice its
		// stores' sectors): an estimate, whose sum alone is the page's.
		sLd, sSt = t.Value/2, t.Value/2
		how = "the total split evenly between loads and stores, which use the same share of each sector (the page gives only their sum)"
	case okL && okS:
		// S_ld + S_st = T and S_ld(1-a) + S_st(1-b) = E.
		sLd = (e.Value - t.Value*(1-b)) / (b - a)
		sSt = t.Value - sLd
		how = "split by each operation's share of each sector used"
		if sLd < 0 || sSt < 0 {
			// The shares are of different cache levels and hold no
			// split: the excess is taken to be the operation's that
			// uses the lesser share of each sector.
			splitOne(v, e, t, a < b, a, b, "the rules' shares hold no split; the operation using the lesser share of each sector is taken to hold the excess")
			return
		}
	case okL && a < 1:
		splitOne(v, e, t, true, a, b, "the loads' share of each sector used; stores taken to use theirs fully")
		return
	case okS && b < 1:
		splitOne(v, e, t, false, a, b, "the stores' share of each sector used; loads taken to use theirs fully")
		return
	default:
		return
	}
	eLd, eSt := e.Value/2, e.Value/2
	if math.Abs(a-b) >= 0.02 {
		eLd, eSt = sLd*(1-a), sSt*(1-b)
	}
	setSplit(v, e, t, sLd, sSt, eLd, eSt, how)
	if math.Abs(a-b) < 0.02 {
		// The sectors of each are an estimate; their efficiency, the
		// one both share, is the total's.
		estimate(v, "gld", false)
		estimate(v, "gst", false)
	}
}

// estimate marks op's sectors as an estimate, and its efficiency too when
// eff: numbers the page does not give.
func estimate(v map[string]Value, op string, eff bool) {
	for _, n := range []string{op + "_transactions", op + "_ideal_transactions", op + "_efficiency"} {
		if x, ok := v[n]; ok && (eff || n != op+"_efficiency") {
			x.Estimate = true
			v[n] = x
		}
	}
}

// splitOne gives all of the excess to the loads (loads) or the stores,
// whose share of each sector used is a or b.
func splitOne(v map[string]Value, e, t Value, loads bool, a, b float64, how string) {
	u := b
	if loads {
		u = a
	}
	if u >= 1 {
		return
	}
	s := math.Min(t.Value, e.Value/(1-u))
	if loads {
		setSplit(v, e, t, s, t.Value-s, e.Value, 0, how)
	} else {
		setSplit(v, e, t, t.Value-s, s, 0, e.Value, how)
	}
	// The excess is taken to be one operation's: the sectors of both
	// are estimates, and the efficiency of the one taken to waste none.
	estimate(v, "gld", !loads)
	estimate(v, "gst", loads)
}

// setSplit records the loads' and stores' sectors and excess.
func setSplit(v map[string]Value, e, t Value, sLd, sSt, eLd, eSt float64, how string) {
	if !(sLd >= 0 && sSt >= 0) || sLd > t.Value || sSt > t.Value {
		return
	}
	from := fmt.Sprintf("ncu rules UncoalescedGlobalAccess (%.0f excessive of %.0f sectors) and MemoryCacheAccessPattern: %s", e.Value, t.Value, how)
	for _, x := range []struct {
		op    string
		s, ex float64
	}{{"gld", sLd, eLd}, {"gst", sSt, eSt}} {
		if x.s <= 0 {
			continue
		}
		s := math.Round(x.s)
		ideal := math.Round(math.Max(0, x.s-x.ex))
		v[x.op+"_transactions"] = Value{Value: s, Rule: "UncoalescedGlobalAccess", From: from}
		v[x.op+"_ideal_transactions"] = Value{Value: ideal, Rule: "UncoalescedGlobalAccess", From: from}
		v[x.op+"_efficiency"] = Value{Value: 100 * ideal / s, Rule: "UncoalescedGlobalAccess", From: from}
	}
}
