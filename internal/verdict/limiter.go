package verdict

import (
	"fmt"
	"math"
)

// Unit is what limits a kernel's speed.
type Unit int

const (
	// unknownLimit: the export lacks what it takes to tell.
	unknownLimit Unit = iota
	// LimitDRAM: device-memory bandwidth.
	LimitDRAM
	// LimitL2: the L2 cache's bandwidth.
	LimitL2
	// LimitL1Shared: the L1/TEX cache and shared-memory pipe.
	LimitL1Shared
	// LimitPipe: a compute pipe of the SMs (Limiter.Pipe names it).
	LimitPipe
	// LimitLatency: no unit near its peak; warps wait.
	LimitLatency
	// LimitLaunch: the launch is too small to fill the GPU.
	LimitLaunch
	// LimitAtomics: atomics on one or a few addresses, which the L2 serves one at a
	// time (no unit near its peak otherwise: ncu calls it latency).
	LimitAtomics
	// LimitMemory: the memory system as a whole, for a time model that
	// has only ncu's memory total, without its breakdown by unit.
	LimitMemory
)

var unitNames = [...]string{"unknown", "DRAM", "L2", "L1/shared", "pipe", "latency", "launch", "atomics", "memory"}

func (u Unit) String() string {
	if u < 0 || int(u) >= len(unitNames) {
		return fmt.Sprintf("Unit(%d)", int(u))
	}
	return unitNames[u]
}

// MarshalText writes the unit's name.
func (u Unit) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// Memory reports whether the unit is part of the memory system.
func (u Unit) Memory() bool {
	return u == LimitDRAM || u == LimitL2 || u == LimitL1Shared || u == LimitMemory
}

// Limiter is the one thing that limits a kernel, with the evidence. Every
// output states this one; none decides its own.
type Limiter struct {
	Unit Unit
	// Pipe names the compute pipe for LimitPipe ("FMA", "ALU", "FP64",
	// "tensor"); "" when the export does not name it.
	Pipe string
	// Percent is the limiting unit's throughput against its peak, NaN
	// when not measured.
	Percent float64
	// Evidence says which numbers decided, for people.
	Evidence string
	// Headroom is the kernel's distance to its speed of light, and the
	// part of it the findings explain.
	Headroom Headroom
}

// Known reports whether a limiter was found.
func (l Limiter) Known() bool { return l.Unit != unknownLimit }

// String is the limiter in a word or two: "DRAM", "L2", "L1/shared",
// "pipe FMA", "compute pipes", "latency", "launch size", "" when unknown.
func (l Limiter) String() string {
	switch l.Unit {
	case unknownLimit:
		return ""
	case LimitPipe:
		if l.Pipe == "" {
			return "compute pipes"
		}
		return "pipe " + l.Pipe
	case LimitLaunch:
		return "launch size"
	case LimitAtomics:
		return "contended atomics"
	}
	return l.Unit.String()
}

// Bound is the roofline side in ncu's words: "memory", "compute",
// "latency" (launch-limited kernels are latency-bound too), "" unknown.
func (l Limiter) Bound() string {
	switch {
	case l.Unit.Memory():
		return "memory"
	case l.Unit == LimitPipe:
		return "compute"
	case l.Unit == LimitLatency || l.Unit == LimitLaunch || l.Unit == LimitAtomics:
		return "latency"
	}
	return ""
}

// ParseUnit reads a limiting unit's name, as Unit.String writes it.
func ParseUnit(s string) (Unit, error) {
	for i, n := range unitNames {
		if n == s {
			return Unit(i), nil
		}
	}
	return unknownLimit, fmt.Errorf("unknown limiting unit %q", s)
}

// Headroom is a kernel's distance to its speed of light: the share of its
// time above the time its necessary work would take at the attainable
// peak of the unit that work loads most. Necessary work is what no fix
// of the kernel's code removes: the global bytes its threads ask for
// (ideal sectors, not the sectors moved; never more than DRAM moved, as
// reuse through the caches is not work), each moved once through DRAM,
// and its floating-point operations on the pipe of their type (FP32
// work on the FMA pipe, not on tensor cores, which would change its
// precision; tensor-core work at the tensor peak of its operand type).
// The attainable peak is the whole GPU's: a grid under one wave, an
// occupancy limit or a tail are what the headroom holds, not what
// lowers it. Nothing takes less than the launch floor.
type Headroom struct {
	// Share is 1 − Ideal/Time, 0–1; NaN when the export cannot tell.
	Share float64
	// Unit names the unit whose necessary work sets the ideal time:
	// "DRAM", "L2", "L1/shared", "FP32 pipe", "FP64 pipe", "FP16 pipe",
	// "integer pipe", "tensor pipe" or "constant cache".
	Unit string
	// Held names the unit that holds the kernel above its ideal where
	// it is not Unit's, the unit of its necessary work: the memory unit
	// that limits a kernel whose ideal is its arithmetic
	// (fixtures/sol-check28's firTap63<0>, 63 taps a stored element read
	// through L1, the L1/shared pipe at 85 %, its ideal its FLOPs on the
	// FP32 pipe). "" where Unit holds it. The sentences name it; Unit
	// stays the work's, which rules read.
	Held string
	// Ideal is the ideal time in seconds (NaN unknown).
	Ideal float64
	// Explained is the share of the kernel's time the fixes of its
	// findings together are expected to save, at most Share.
	Explained float64
	// Evidence says which numbers decided, for people.
	Evidence string
	// Missing says why the headroom is not known: what the export lacks
	// ("the page has no floating-point operation counts (…)", "a
	// torch.profiler trace has no hardware counters: …"). "" when known.
	Missing string
}

// on is the unit the sentences say the headroom is on: the one that
// holds the kernel, Held, else Unit.
func (h Headroom) on() string {
	if h.Held != "" {
		return h.Held
	}
	return h.Unit
}

// Known reports whether the headroom was measured.
func (h Headroom) Known() bool { return h.Unit != "" && !math.IsNaN(h.Share) }

// Unexplained is the part of the headroom no finding explains: Share −
// Explained, never below 0; NaN when unknown.
func (h Headroom) Unexplained() float64 {
	if !h.Known() {
		return math.NaN()
	}
	return math.Max(0, h.Share-h.Explained)
}

// Notable is the headroom under which a kernel is near its speed of
// light: a rule that prices a kernel's shape (tiny-blocks) leaves such a
// kernel alone, as its unit works while it waits.
const Notable = 0.1

// Stated is the least unexplained headroom the sentence states, the
// least its "≈N %" rounds to more than 0: any headroom no finding
// explains is said, never an unmarked 0 (fixtures/sol-check18's
// powSeries<0>, ≈5 % on the XU pipe, no rule knows its __powf terms, its
// Horner twin ran 0.33 faster). Under it the kernel is at its speed of
// light, or as close as its findings say.
const Stated = 0.01

// Sentence is the one sentence every output gives of the headroom no
// finding explains, "" when under Stated: "≈55 % of its time is
// headroom on DRAM that no rule explains". When the headroom is not
// known it says what the export lacks: "not known: the page has no …"
// ("" when nothing is missing either).
func (h Headroom) Sentence() string {
	if !h.Known() {
		return h.unknown()
	}
	u := h.Unexplained()
	if !(u >= Stated) {
		return ""
	}
	return fmt.Sprintf("≈%.0f %% of its time is headroom on %s that no rule explains", 100*u, h.on())
}

// Statement is what an output that lists kernels briefly says of each
// one's headroom: the Sentence where there is one; else, for a known
// headroom, that the kernel is at its speed of light (under Stated) or
// that its findings explain it; "" only for a headroom the verdict did
// not decide (neither known nor missing).
func (h Headroom) Statement() string {
	if s := h.Sentence(); s != "" || !h.Known() {
		return s
	}
	if h.Share < Stated {
		return fmt.Sprintf("≈%.0f %% of its time is headroom on %s: at its speed of light", 100*h.Share, h.on())
	}
	return fmt.Sprintf("≈%.0f %% of its time is headroom on %s, which its findings explain", 100*h.Share, h.on())
}

// Brief is the headroom in the few words a ranking table's row gives a
// kernel no finding tops: "≈51 % headroom on FP32 pipe unexplained", or
// "at its speed of light on DRAM"; "" where its findings explain it or
// the headroom is not known (the kernel's own lines say why).
func (h Headroom) Brief() string {
	switch {
	case !h.Known():
		return ""
	case h.Unexplained() >= Stated:
		return fmt.Sprintf("≈%.0f %% headroom on %s unexplained", 100*h.Unexplained(), h.on())
	case h.Share < Stated:
		return "at its speed of light on " + h.Unit
	}
	return ""
}

// unknown says what the export lacks for the headroom, "" when nothing
// is missing.
func (h Headroom) unknown() string {
	if h.Missing == "" {
		return ""
	}
	return "not known: " + h.Missing
}

// String is the headroom in one line: the share, the unit, the ideal,
// then the share split as the verdict splits it: the part its findings
// explain, and the sentence for the unexplained part ("93 % of its time
// above its speed of light on DRAM (…); its findings explain ≈82 %; ≈11 %
// of its time is headroom on DRAM that no rule explains"), or that the
// kernel is at its speed of light (under Stated, as Statement says).
func (h Headroom) String() string {
	if !h.Known() {
		return h.unknown()
	}
	s := fmt.Sprintf("%.0f %% of its time above its speed of light on %s (%s)", 100*h.Share, h.Unit, h.Evidence)
	x := h.Sentence()
	switch e := math.Min(h.Explained, h.Share); {
	case x == "" && h.Share < Stated:
		s += "; at its speed of light"
	case e >= 0.005:
		s += fmt.Sprintf("; its findings explain ≈%.0f %%", 100*e)
	}
	if x != "" {
		s += "; " + x
	}
	return s
}
