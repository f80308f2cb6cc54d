package gpumodel

import (
	"fmt"
	"strconv"
)

// AccessKind is what the evidence says a warp's accesses to one memory
// space look like. Code branches on it; prose for people is made from it
// (Reading.Text) and never parsed back.
type AccessKind int

const (
	// UnknownAccess: the evidence does not tell.
	UnknownAccess AccessKind = iota
	// Coalesced: as few sectors (or wavefronts) as the bytes requested need.
	Coalesced
	// Misaligned: contiguous, but each warp straddles one more sector.
	Misaligned
	// Strided: consecutive threads StrideBytes apart (for shared memory: a
	// bank conflict of Ways ways).
	Strided
	// Scattered: one sector per thread; a large stride or data-dependent
	// addresses (Random tells which, when the lines show it).
	Scattered
	// Broadcast: the threads of a warp share addresses.
	Broadcast
	// Mixed: instructions of different widths or patterns share the space,
	// or the counts fall between the clean patterns.
	Mixed
)

var accessKindNames = [...]string{"unknown", "coalesced", "misaligned", "strided", "scattered", "uniform", "mixed"}

// String returns the name the JSON contract and the text output use
// ("uniform" for Broadcast, as profan has always written it).
func (k AccessKind) String() string {
	return enumName(k, accessKindNames[:], "AccessKind")
}

// MarshalText writes the kind's name.
func (k AccessKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name; "" is UnknownAccess.
func (k *AccessKind) UnmarshalText(b []byte) error {
	s := string(b)
	if s == "" {
		*k = UnknownAccess
		return nil
	}
	for i, n := range accessKindNames {
		if n == s {
			*k = AccessKind(i)
			return nil
		}
	}
	if s == "broadcast" {
		*k = Broadcast
		return nil
	}
	return fmt.Errorf("unknown access pattern %q", s)
}

// Evidence says what an access pattern was read from, best first.
type Evidence int

const (
	// NoEvidence: nothing measured.
	NoEvidence Evidence = iota
	// FromModel: the analytic model inverted from averages (efficiency,
	// transactions per request) of the whole kernel.
	FromModel
	// FromRuleText: the sector and wavefront totals that ncu's rule rows
	// quote (details page): measured, but not per request.
	FromRuleText
	// FromCounters: raw counters of the whole kernel (ncu raw page,
	// nvprof events).
	FromCounters
	// FromSourcePage: ncu's per-instruction counters (source page).
	FromSourcePage
)

var evidenceNames = [...]string{"none", "model", "ncu rule text", "counters", "source page"}

func (e Evidence) String() string {
	return enumName(e, evidenceNames[:], "Evidence")
}

// MarshalText writes the evidence's name.
func (e Evidence) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// AccessPattern is the typed reading of one memory space's (or one
// instruction's) accesses.
type AccessPattern struct {
	Kind AccessKind
	// StrideBytes is the distance between consecutive threads' addresses
	// for Strided (0 when only "a whole row or more" is known) and 32 for
	// Scattered; 0 otherwise.
	StrideBytes float64
	// OffsetBytes is set when the counts show a misalignment (the smallest
	// such offset, one element); 0 when aligned or unknown.
	OffsetBytes float64
	// Ways is the shared-memory bank-conflict degree (wavefronts per
	// request over the ideal), 1 when conflict-free; 0 for global memory.
	Ways float64
	// AccessBytes is the bytes each thread accesses, 0 when unknown.
	AccessBytes float64
	// Random is set for Scattered when the 128-byte lines show
	// data-dependent addresses rather than a large stride.
	Random bool
	// Contention is set for shared memory when a request takes more
	// wavefronts than any bank layout costs (over 32): threads contend for
	// the same words, as shared atomics on a few addresses do. Ways stays
	// at most 32.
	Contention bool
	// Column is set when a large stride is a column of 2-D data (the lines
	// or a 2-D launch show it), where a shared-memory tile helps.
	Column bool
	// Evidence is what the pattern was read from.
	Evidence Evidence
	// Reasons are the numbers behind the reading, for people.
	Reasons []string
}

// Text is the pattern in words: its reasons, or its kind.
func (p AccessPattern) Text() string {
	if len(p.Reasons) > 0 {
		s := p.Reasons[0]
		for _, r := range p.Reasons[1:] {
			s += "; " + r
		}
		return s
	}
	return p.Kind.String()
}

// enumName is v's name in names, or "typ(v)" for a value the table lacks.
func enumName[T ~int](v T, names []string, typ string) string {
	if v < 0 || int(v) >= len(names) {
		return typ + "(" + strconv.Itoa(int(v)) + ")"
	}
	return names[v]
}
