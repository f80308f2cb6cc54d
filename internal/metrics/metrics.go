// Package metrics derives the memory-efficiency metrics of a kernel from
// whatever its export holds, in one canonical vocabulary. Names follow
// nvprof where nvprof had the metric (gld_efficiency,
// gld_transactions_per_request, dram_read_throughput, achieved_occupancy…),
// so that nvprof and ncu runs of the same kernel compare directly.
//
// Each definition lists the source metrics it reads, per tool, in the order
// tried: a value the export printed beats one profan derives.
package metrics

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/ncurule"
)

// Device is what the derivations need to know of the GPU. The zero value
// means unknown; derivations that need it are then skipped with a warning.
type Device struct {
	Name          string
	SMs           int
	PeakBandwidth float64 // DRAM bytes per second
	PeakFP32      float64 // FLOP/s
	PeakFP64      float64 // FLOP/s
	PeakInst      float64 // thread instructions per second (SMs × FP32 lanes × clock)
}

// Value is one derived metric of a kernel.
type Value struct {
	Name  string
	Value float64
	Unit  string
	From  string // how it was obtained: the source metric, or the formula
	// Estimate marks a value no counter or printed number of the export
	// gives, estimated from those that are (From says how, beginning
	// "estimate: "), or derived from such a value: said as an estimate,
	// never compared or gated as a measurement.
	Estimate bool
}

// Def is one canonical metric.
type Def struct {
	Name   string
	Unit   string
	Better int // +1 when higher is better, -1 when lower is, 0 neither
	// Noisy marks a value that varies from run to run by nature (times,
	// rates, achieved occupancy): two runs are compared against their
	// noise, never exactly as counters are.
	Noisy  bool
	Doc    string // meaning and formula
	NCU    string // ncu sources, for the documentation
	Nvprof string // nvprof sources, for the documentation
	eval   func(e *env) (float64, string, bool)
}

// Set holds the derived metrics of one kernel.
type Set struct {
	Values   []Value
	Warnings []string
	// Rules is what the numbers in ncu's rule rows gave (details page).
	Rules ncurule.Reading
	index map[string]int
}

// Get returns the value of the canonical metric name.
func (s *Set) Get(name string) (float64, bool) {
	if i, ok := s.index[name]; ok {
		return s.Values[i].Value, true
	}
	return math.NaN(), false
}

// Lookup returns the full value record of name.
func (s *Set) Lookup(name string) (Value, bool) {
	if i, ok := s.index[name]; ok {
		return s.Values[i], true
	}
	return Value{}, false
}

// env is the evaluation context of one kernel.
type env struct {
	k     *profan.Kernel
	dev   Device
	set   *Set
	rules ncurule.Reading
}

// src returns the first source metric present with a numeric value. A name
// may carry a required base unit in brackets: "Memory Throughput[B/s]".
func (e *env) src(names ...string) (float64, string, bool) {
	for _, n := range names {
		name, unit, hasUnit := n, "", false
		if len(n) > 0 && n[len(n)-1] == ']' { // most names have no unit: no search
			if i := strings.LastIndexByte(n, '['); i > 0 {
				name, unit, hasUnit = n[:i], n[i+1:len(n)-1], true
			}
		}
		var m profan.Metric
		var ok bool
		if hasUnit {
			m, ok = e.k.MetricIn(name, unit)
		} else {
			m, ok = e.k.Metric(name)
		}
		if ok && m.IsNumber() {
			return m.Value, from(m), true
		}
		if !hasUnit {
			for _, d := range descriptionsOf[name] {
				if m, ok := e.k.Metric(d); ok && m.IsNumber() && (m.Unit != "%" || d != "Achieved Occupancy") {
					return m.Value, m.Name, true
				}
			}
		}
	}
	return math.NaN(), "", false
}

// mwaSection begins the sections of the body tables and chart that ncu
// prints under Memory Workload Analysis with --print-details all
// ("... Tables", "... Chart"): raw counters (requests, sectors, wavefronts
// per space) and the bytes per sector.
const mwaSection = "Memory Workload Analysis "

// from is the evidence of a value read from metric m: its name, and the
// table it came from where that is not a counter column of the export.
func from(m profan.Metric) string {
	if strings.HasPrefix(m.Section, mwaSection) {
		return m.Name + " (from ncu's Memory Workload Analysis table)"
	}
	return m.Name
}

// val returns an already derived canonical metric.
func (e *env) val(name string) (float64, bool) { return e.set.Get(name) }

// Derive computes every canonical metric it can for k on dev.
func Derive(k *profan.Kernel, dev Device) *Set {
	// Sized for what an ncu page gives (about 25 metrics), so that
	// neither grows on the way.
	s := &Set{index: make(map[string]int, 32), Values: make([]Value, 0, 32)}
	e := &env{k: k, dev: dev, set: s}
	if len(k.Findings) > 0 {
		e.rules = ncurule.Read(k.Findings)
		s.Rules = e.rules
	}
	for _, d := range Defs {
		v, from, ok := d.eval(e)
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		s.index[d.Name] = len(s.Values)
		s.Values = append(s.Values, Value{Name: d.Name, Value: v, Unit: d.Unit, From: from, Estimate: s.estimated(from)})
	}
	s.Warnings = check(e)
	if n := len(e.rules.Unknown); n > 0 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("%d ncu rule rows of an unknown wording (%s): their numbers were not read", n, strings.Join(e.rules.Unknown, ", ")))
	}
	return s
}

// FromRuleText reports whether v was read from the numbers ncu's rule rows
// quote (or estimated from them) rather than from a counter.
func (v Value) FromRuleText() bool {
	return strings.HasPrefix(strings.TrimPrefix(v.From, estimatePrefix), "ncu rule")
}

// estimated reports whether a value obtained as from is an estimate: said
// so, or derived from an estimate the formula names.
func (s *Set) estimated(from string) bool {
	if strings.HasPrefix(from, estimatePrefix) {
		return true
	}
	for _, v := range s.Values {
		if v.Estimate && names(from, v.Name) {
			return true
		}
	}
	return false
}

// estimatePrefix begins the From of an estimate.
const estimatePrefix = "estimate: "

// names reports whether the formula from names the metric name as a
// whole word.
func names(from, name string) bool {
	for i := 0; ; {
		j := strings.Index(from[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || !wordByte(from[j-1])) && (end == len(from) || !wordByte(from[end])) {
			return true
		}
		i = j + 1
	}
}

func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// ByName returns the definition of a canonical metric.
func ByName(name string) (*Def, bool) {
	for _, d := range Defs {
		if d.Name == name {
			return d, true
		}
	}
	return nil, false
}

// fractions are the canonical metrics kept as a fraction 0–1 where ncu
// prints a percentage (nvprof's convention), so that a threshold written
// 80% means 0.8.
var fractions = map[string]bool{"achieved_occupancy": true, "theoretical_occupancy": true}

// IsFraction reports whether a canonical metric is a fraction 0–1.
func IsFraction(name string) bool { return fractions[name] }

// source returns an eval that reads the first present source metric,
// scaled by f.
func source(f float64, names ...string) func(e *env) (float64, string, bool) {
	if slices.ContainsFunc(names, func(n string) bool { return strings.HasSuffix(n, "]") }) {
		return func(e *env) (float64, string, bool) { // a unit to match: e.src
			v, n, ok := e.src(names...)
			return v * f, n, ok
		}
	}
	var places atomic.Pointer[srcPlaces]
	return func(e *env) (float64, string, bool) {
		v, n, ok := e.srcIndexed(&places, names)
		return v * f, n, ok
	}
}

// srcPlaces is where the candidates of a source's names lie among the
// metrics of the kernels x indexes (profan.MetricIndex): each name, then
// its descriptions, in the order src tries them, -1 where x has none.
// The launches of an ncu page share their index, so a definition finds
// its names once for all of them, not by name in each launch (some 60
// definitions of up to 7 names, most of them nvprof's, absent).
type srcPlaces struct {
	x     *profan.MetricIndex
	names []string
	at    []int
	desc  []bool // a description of the name before it
}

func placesOf(x *profan.MetricIndex, names []string) *srcPlaces {
	p := &srcPlaces{x: x}
	add := func(n string, desc bool) {
		p.names, p.at, p.desc = append(p.names, n), append(p.at, x.Place(n)), append(p.desc, desc)
	}
	for _, n := range names {
		add(n, false)
		for _, d := range descriptionsOf[n] {
			add(d, true)
		}
	}
	return p
}

// srcIndexed is e.src(names...) (names without units) through places, the
// candidates' places in the index of e's kernel, found for that index once
// (and again when another index comes).
func (e *env) srcIndexed(places *atomic.Pointer[srcPlaces], names []string) (float64, string, bool) {
	x := e.k.Index()
	if x == nil {
		return e.src(names...)
	}
	p := places.Load()
	if p == nil || p.x != x {
		p = placesOf(x, names)
		places.Store(p)
	}
	for i, at := range p.at {
		if at < 0 {
			continue
		}
		m := e.k.Metrics[at]
		if m.Name != p.names[i] {
			return e.src(names...) // its metrics changed since: Metric gives it an index of its own
		}
		switch {
		case !m.IsNumber():
		case !p.desc[i]:
			return m.Value, from(m), true
		case m.Unit != "%" || m.Name != "Achieved Occupancy":
			return m.Value, m.Name, true
		}
	}
	return math.NaN(), "", false
}

// level reads nvprof utilization levels (0–10, a tenth of the peak each)
// as a percentage: the busiest of names. A value off the scale is not a
// level and is left out.
func level(names ...string) func(e *env) (float64, string, bool) {
	return func(e *env) (float64, string, bool) {
		best, from := -1.0, ""
		for _, n := range names {
			if v, m, ok := e.src(n); ok && v >= 0 && v <= 10 && v > best {
				best, from = v, m
			}
		}
		if from == "" {
			return math.NaN(), "", false
		}
		return best * 10, from + " × 10", true
	}
}

// rule reads a number that ncu's rule rows quote (see ncurule): the last
// resort of a definition, when no counter of the export gives it.
func rule(name string) func(e *env) (float64, string, bool) {
	return func(e *env) (float64, string, bool) {
		v, ok := e.rules.Get(name)
		if !ok {
			return math.NaN(), "", false
		}
		if v.Estimate && !strings.HasPrefix(v.From, estimatePrefix) {
			return v.Value, estimatePrefix + v.From, true
		}
		return v.Value, v.From, true
	}
}

// ruleWith is rule(name) when the companion metric, evaluated before it, is
// absent or was read from the rule text too: numbers of one kernel's space
// come from one source, never half from counters and half from the text.
func ruleWith(name, companion string) func(e *env) (float64, string, bool) {
	return func(e *env) (float64, string, bool) {
		if v, ok := e.set.Lookup(companion); ok && !v.FromRuleText() {
			return math.NaN(), "", false
		}
		return rule(name)(e)
	}
}

// first tries each eval in turn.
func first(evals ...func(e *env) (float64, string, bool)) func(e *env) (float64, string, bool) {
	return func(e *env) (float64, string, bool) {
		for _, ev := range evals {
			if v, from, ok := ev(e); ok && !math.IsNaN(v) {
				return v, from, true
			}
		}
		return math.NaN(), "", false
	}
}

// withLDSM adds the ldmatrix instructions (LDSM, smsp__inst_executed_op_ldsm)
// to ncu's count of shared load instructions, which leaves them out while
// its shared load wavefronts count theirs: a tensor-core product's tiles
// read by LDSM alone read as a thousand wavefronts a request
// (fixtures/sol-check14's mm_fma: 16.9 M wavefronts over 16 Ki LDS, where
// its 8.4 M LDSM take two each, as its details page and source page say).
func withLDSM(ev func(e *env) (float64, string, bool)) func(e *env) (float64, string, bool) {
	const ldsm = "smsp__inst_executed_op_ldsm.sum"
	return func(e *env) (float64, string, bool) {
		v, from, ok := ev(e)
		if !ok || !strings.HasPrefix(from, "smsp__") {
			return v, from, ok
		}
		if m, found := e.k.Metric(ldsm); found && m.IsNumber() && m.Value > 0 {
			return v + m.Value, from + " + " + ldsm, true
		}
		return v, from, ok
	}
}

// ratio divides two canonical metrics.
func ratio(num, den string) func(e *env) (float64, string, bool) {
	return func(e *env) (float64, string, bool) {
		a, ok1 := e.val(num)
		b, ok2 := e.val(den)
		if !ok1 || !ok2 || b == 0 {
			return math.NaN(), "", false
		}
		return a / b, num + " / " + den, true
	}
}

// sum adds canonical metrics; all must be present.
func sum(names ...string) func(e *env) (float64, string, bool) {
	return func(e *env) (float64, string, bool) {
		t := 0.0
		for _, n := range names {
			v, ok := e.val(n)
			if !ok {
				return math.NaN(), "", false
			}
			t += v
		}
		return t, strings.Join(names, " + "), true
	}
}

// perSecond divides a canonical amount by the kernel's duration.
func perSecond(name string) func(e *env) (float64, string, bool) {
	return func(e *env) (float64, string, bool) {
		v, ok := e.val(name)
		d, ok2 := e.val("duration")
		if !ok || !ok2 || d <= 0 {
			return math.NaN(), "", false
		}
		return v / d, name + " / duration", true
	}
}

// ShareText renders a share 0–1 (of a capture's time) as a percentage with
// one decimal; a share too small for one decimal is "<0.1%", not a "0.0%"
// that reads as nothing, and an unknown one "?".
func ShareText(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "?"
	case v > 0 && v < 0.0005:
		return "<0.1%"
	}
	return fmt.Sprintf("%.1f%%", 100*v)
}

// Count is n things as a message prints them: "1 byte", "16 bytes"; n
// is rounded as %.0f rounds it, so the noun agrees with the figure.
func Count(n float64, one string) string {
	return fmt.Sprintf("%.0f %s", n, Agree(n, one, one+"s"))
}

// Agree is one where n prints as 1, else many.
func Agree(n float64, one, many string) string {
	if fmt.Sprintf("%.0f", n) == "1" {
		return one
	}
	return many
}

// Format renders a value with its unit for people: 1.23 GB/s, 45.6 us.
func Format(v float64, unit string) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	switch unit {
	case "s":
		switch a := math.Abs(v); {
		case a == 0:
			return "0 s"
		case a < 1e-6:
			return fmt.Sprintf("%.1f ns", v*1e9)
		case a < 1e-3:
			return fmt.Sprintf("%.2f us", v*1e6)
		case a < 1:
			return fmt.Sprintf("%.3f ms", v*1e3)
		}
		return fmt.Sprintf("%.3f s", v)
	case "B", "B/s", "FLOP/s", "Hz":
		return siFormat(v, unit)
	case "%":
		return fmt.Sprintf("%.1f%%", v)
	case "":
		if v == math.Trunc(v) && math.Abs(v) < 1e15 {
			return fmt.Sprintf("%.0f", v)
		}
		return fmt.Sprintf("%.3g", v)
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%.0f %s", v, unit)
	}
	return fmt.Sprintf("%.3g %s", v, unit)
}

func siFormat(v float64, unit string) string {
	prefixes := []string{"", "k", "M", "G", "T", "P"}
	i := 0
	a := math.Abs(v)
	for a >= 1000 && i < len(prefixes)-1 {
		a /= 1000
		v /= 1000
		i++
	}
	return fmt.Sprintf("%.3g %s%s", v, prefixes[i], unit)
}

// Names lists the canonical metric names, sorted.
func Names() []string {
	var out []string
	for _, d := range Defs {
		out = append(out, d.Name)
	}
	sort.Strings(out)
	return out
}

// Noisy reports whether a metric varies from run to run by nature: a
// canonical metric says so itself; a raw ncu or nvprof name carries no
// declared property, so its kind is read from the words of its name
// (gpu__time_duration.sum, dram__bytes.sum.per_second, sm__warps_active
// .avg.pct_of_peak_sustained_active, achieved_occupancy, ...).
func Noisy(name string) bool {
	if d, ok := ByName(name); ok {
		return d.Noisy
	}
	m := strings.ToLower(name)
	for _, s := range []string{"duration", "time", "throughput", "per_second", "pct_of_peak", "peak_pct", "utilization", "achieved_occupancy", "warps_active", "sm_efficiency", "frequency", "cycles", "ipc", "gpu_busy", "idle"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// Stored returns derived with the values a run database holds for it:
// each metric of derived that stored has takes the stored value, one it
// lacks is left out, and one only stored has is added (with its
// definition's unit). An estimate of derived is kept as derived: the
// database stores measurements only, and an estimate is made again from
// the stored record (ncu's rule text, the other counters) as the export's
// reading made it, so that the model and the report of a stored run are
// the export's. How each was obtained (From) and the warnings are
// derived's: a reading of the counters, which the values do not change.
func Stored(derived *Set, stored map[string]float64) *Set {
	s := &Set{Warnings: derived.Warnings, Rules: derived.Rules, index: make(map[string]int, len(stored)), Values: make([]Value, 0, len(stored))}
	for _, v := range derived.Values {
		x, ok := stored[v.Name]
		if !ok && !v.Estimate {
			continue
		}
		if ok {
			v.Value = x
		}
		s.index[v.Name] = len(s.Values)
		s.Values = append(s.Values, v)
	}
	for _, d := range Defs {
		x, ok := stored[d.Name]
		if _, have := s.index[d.Name]; !ok || have {
			continue
		}
		s.index[d.Name] = len(s.Values)
		s.Values = append(s.Values, Value{Name: d.Name, Value: x, Unit: d.Unit, From: "stored"})
	}
	return s
}

// Index is the place of metric name in s.Values.
func (s *Set) Index(name string) (int, bool) {
	i, ok := s.index[name]
	return i, ok
}

// With returns a copy of s whose metric name has the value v (NaN: left
// out); the copy shares s's index when name keeps its place.
func (s *Set) With(name string, v float64) *Set {
	i, ok := s.index[name]
	if ok && !math.IsNaN(v) {
		c := *s
		c.Values = append([]Value(nil), s.Values...)
		c.Values[i].Value = v
		return &c
	}
	c := &Set{Warnings: s.Warnings, Rules: s.Rules, index: make(map[string]int, len(s.Values)+1), Values: make([]Value, 0, len(s.Values)+1)}
	for _, x := range s.Values {
		if x.Name == name {
			continue
		}
		c.index[x.Name] = len(c.Values)
		c.Values = append(c.Values, x)
	}
	if !math.IsNaN(v) {
		unit := ""
		if d, ok := ByName(name); ok {
			unit = d.Unit
		}
		c.index[name] = len(c.Values)
		c.Values = append(c.Values, Value{Name: name, Value: v, Unit: unit, From: "stored"})
	}
	return c
}
