package gpumodel

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// DeviceSource says how the GPU of a capture was identified, from the
// strongest evidence to the weakest.
type DeviceSource int

const (
	// SourceUnknown: no GPU could be named (no name, no clue, no compute
	// capability the table knows).
	SourceUnknown DeviceSource = iota
	// SourceFlag: the user named the GPU (--device).
	SourceFlag
	// SourceName: the device name the export printed matched the table.
	SourceName
	// SourceClues: the export did not name a GPU of the table, but its
	// device attributes (DRAM frequency, memory size, SM count, L2 size,
	// bus width) fit exactly one GPU of its compute capability.
	SourceClues
	// SourceCC: assumed, the representative GPU of the compute capability;
	// the clues, if any, did not single one out.
	SourceCC
	// SourceAttributes: a GPU the table does not list, whose peaks come
	// from the export's own device attributes (SM count and clock, memory
	// clock and bus width, compute capability).
	SourceAttributes
)

// String is the source as profan's outputs write it (the JSON field
// device_from).
func (s DeviceSource) String() string {
	switch s {
	case SourceFlag:
		return "--device"
	case SourceName:
		return "device name"
	case SourceClues:
		return "device attributes"
	case SourceCC:
		return "compute capability"
	case SourceAttributes:
		return "its own device attributes"
	}
	return "unknown"
}

// Clues are what an export says about its GPU. Zero values are unknown.
type Clues struct {
	Name        string  // device name as printed ("NVIDIA H200", "Tesla K20c (0)")
	CC          string  // compute capability "9.0"
	DRAMClockHz float64 // ncu "DRAM Frequency" / dram__cycles_elapsed.avg.per_second, or the memory clock attribute
	MemoryBytes float64 // device__attribute_total_memory
	SMs         int     // "# SMs", device__attribute_multiprocessor_count
	L2Bytes     float64 // device__attribute_l2_cache_size
	BusBits     int     // device__attribute_global_memory_bus_width
	// MemClockHz and SMClockHz are the rated memory and SM clocks
	// (device__attribute_memory_clock_rate, _clock_rate), from which an
	// unlisted GPU's peaks follow.
	MemClockHz float64
	SMClockHz  float64
}

// Identity is the GPU profan analyses a capture against, and why.
type Identity struct {
	Spec   *Spec // nil when unknown
	Source DeviceSource
	// Evidence lists the clues that matched ("DRAM 3.19 GHz", "132 SMs"),
	// for SourceClues and SourceCC.
	Evidence []string
	// Others are the other GPUs of the table that fit the clues as well:
	// with SourceCC and Others empty, none fitted.
	Others []string
	// Unlisted is the printed device name when the table does not know it.
	Unlisted string
}

// Assumed reports whether the GPU was a guess: the flag, a name or a
// unique fit of the clues is not.
func (id Identity) Assumed() bool { return id.Spec != nil && id.Source == SourceCC }

// Note is the one line a report prints up front when the GPU was assumed,
// saying on what and how to name it; empty when it was not.
func (id Identity) Note() string {
	if !id.Assumed() {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "GPU assumed: %s, the representative of compute capability %s", id.Spec.Name, id.Spec.CC)
	switch {
	case id.Unlisted != "":
		fmt.Fprintf(&b, " (%q is not in profan's table)", id.Unlisted)
	case len(id.Others) > 0:
		fmt.Fprintf(&b, " (%s fit as well)", strings.Join(id.Others, ", "))
	case len(id.Evidence) > 0:
		fmt.Fprintf(&b, " (no GPU of the table fits %s)", strings.Join(id.Evidence, ", "))
	default:
		b.WriteString(" (the export names no GPU)")
	}
	eg := id.Spec.Name
	if len(id.Others) > 0 {
		eg = id.Others[0]
	}
	if strings.Contains(eg, " ") {
		eg = strconv.Quote(eg)
	}
	fmt.Fprintf(&b, "; peaks and balance follow it. Name the GPU with --device, e.g. --device %s", eg)
	return b.String()
}

// Identify names the GPU from every clue an export gives: a device name the
// table knows wins; otherwise the GPUs of the compute capability (all GPUs
// when it is unknown) are tested against each clue the table can check (DRAM
// clock within 6%, memory size within 10%, SM count exactly, L2 size within
// 5%, bus width within 3%: the tolerances cover clock jitter under load and
// boards that disable a channel, as the H200's 6016 of 6144 bits), and the
// only one that fits is taken. When several fit, or none, the compute
// capability's representative is assumed and the Identity says so.
func Identify(c Clues) Identity {
	if c.Name != "" {
		if s, ok := Lookup(c.Name); ok {
			return Identity{Spec: s, Source: SourceName}
		}
	}
	id := Identity{Source: SourceUnknown}
	if c.Name != "" {
		id.Unlisted = strings.TrimSpace(c.Name)
	}
	id.Evidence = c.evidence()
	var fits []*Spec
	if len(id.Evidence) > 0 {
		for _, s := range specs {
			if c.CC != "" && !sameCC(s.CC, c.CC) || s.NeedsMemoryClue && c.MemoryBytes <= 0 || s.NameOnly {
				continue
			}
			if c.fits(s) {
				fits = append(fits, s)
			}
		}
	}
	rep, hasRep := byCC(c.CC)
	switch {
	case len(fits) == 1 && id.Unlisted == "":
		id.Spec, id.Source = fits[0], SourceClues
		return id
	case len(fits) > 1:
		id.Spec = fits[0]
		for _, s := range fits {
			if hasRep && s == rep {
				id.Spec = s
			}
		}
		for _, s := range fits {
			if s != id.Spec {
				id.Others = append(id.Others, s.Name)
			}
		}
		id.Source = SourceCC
		return id
	case len(fits) == 1:
		// An unlisted name whose clues fit one GPU: a board variant
		// ("H200 NVL" spelled another way); analyse it as that GPU but say so.
		id.Spec, id.Source = fits[0], SourceCC
		return id
	}
	if s, ok := fromClues(c); ok {
		// No GPU of the table fits, but the export says enough of its
		// own to give the peaks.
		id.Spec, id.Source = s, SourceAttributes
		return id
	}
	if hasRep {
		id.Spec, id.Source = rep, SourceCC
	}
	return id
}

// evidence lists the clues given, as a reader would check them.
func (c Clues) evidence() []string {
	var out []string
	if c.DRAMClockHz > 0 {
		out = append(out, fmt.Sprintf("DRAM %.2f GHz", c.DRAMClockHz/1e9))
	}
	if c.MemoryBytes > 0 {
		out = append(out, fmt.Sprintf("%.1f GiB", c.MemoryBytes/(1<<30)))
	}
	if c.SMs > 0 {
		out = append(out, fmt.Sprintf("%d SMs", c.SMs))
	}
	if c.L2Bytes > 0 {
		out = append(out, fmt.Sprintf("L2 %.0f MiB", c.L2Bytes/(1<<20)))
	}
	if c.BusBits > 0 {
		out = append(out, fmt.Sprintf("%d-bit bus", c.BusBits))
	}
	return out
}

// fits reports whether every clue the table can check for s agrees, and at
// least one could be checked.
func (c Clues) fits(s *Spec) bool {
	checked := 0
	near := func(got, want, tol float64) bool {
		if got <= 0 || want <= 0 {
			return true
		}
		checked++
		return math.Abs(got/want-1) <= tol
	}
	ok := near(c.DRAMClockHz, s.MemClockMHz*1e6, 0.06) &&
		near(c.MemoryBytes, s.MemoryGiB*(1<<30), 0.10) &&
		near(float64(c.SMs), float64(s.SMs), 0) &&
		near(c.L2Bytes, float64(s.L2Bytes), 0.05) &&
		near(float64(c.BusBits), float64(s.BusWidthBits), 0.03)
	return ok && checked > 0
}

func sameCC(a, b string) bool {
	am, an, err1 := ParseCC(a)
	bm, bn, err2 := ParseCC(b)
	return err1 == nil && err2 == nil && am == bm && an == bn
}

// Contradictions lists what the export says of its GPU that s (named by
// the user) is not: another compute capability, SM count or memory size,
// each as "export X, NAME Y". Empty when nothing contradicts s.
func Contradictions(s *Spec, c Clues) []string {
	var out []string
	if c.CC != "" && s.CC != "" && !sameCC(s.CC, c.CC) {
		out = append(out, fmt.Sprintf("compute capability: the export %s, %s %s", c.CC, s.Name, s.CC))
	}
	if c.SMs > 0 && s.SMs > 0 && c.SMs != s.SMs {
		out = append(out, fmt.Sprintf("SMs: the export %d, %s %d", c.SMs, s.Name, s.SMs))
	}
	if c.MemoryBytes > 0 && s.MemoryGiB > 0 && math.Abs(c.MemoryBytes/(s.MemoryGiB*(1<<30))-1) > 0.10 {
		out = append(out, fmt.Sprintf("memory: the export %.1f GiB, %s %.0f GB", c.MemoryBytes/(1<<30), s.Name, s.MemoryGiB))
	}
	return out
}

// fromClues makes the spec of a GPU the table does not list from the
// export's device attributes: SM count and clock, memory clock and bus
// width, compute capability (and L2 and memory size when given). False
// when one of those is missing or the compute capability's lanes are not
// known.
func fromClues(c Clues) (*Spec, bool) {
	major, minor, err := ParseCC(c.CC)
	if err != nil || c.SMs <= 0 || c.SMClockHz <= 0 || c.MemClockHz <= 0 || c.BusBits <= 0 {
		return nil, false
	}
	cc := formatCC(major, minor)
	row, ok := ccRowOf(cc)
	if !ok || row.fp32 == 0 {
		return nil, false
	}
	name := strings.TrimSpace(strings.TrimPrefix(c.Name, "NVIDIA "))
	if name == "" {
		name = fmt.Sprintf("unlisted GPU (cc %s, %d SMs)", cc, c.SMs)
	}
	s := Spec{Name: name, CC: cc, Arch: "unlisted", SMs: c.SMs, CoresPerSM: row.fp32, FP64PerSM: row.fp64,
		SMClockMHz: c.SMClockHz / 1e6, MemClockMHz: c.MemClockHz / 1e6, BusWidthBits: c.BusBits, DataRate: 2,
		L2Bytes: int(c.L2Bytes), MemoryGiB: c.MemoryBytes / (1 << 30)}
	if _, err := ccKey(cc); err != nil {
		return nil, false
	}
	return withLimits(s), true
}
