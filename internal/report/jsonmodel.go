package report

import (
	"math"

	"github.com/profan-dev/profan/internal/verdict"
)

// JSONModel is the JSON form of the access readings. "shared" is the
// worse of shared loads and stores (never their average); both are given
// apart as "shared_load" and "shared_store".
type JSONModel struct {
	GlobalLoad   *JSONAccess       `json:"global_load,omitempty"`
	GlobalStore  *JSONAccess       `json:"global_store,omitempty"`
	Shared       *JSONAccess       `json:"shared,omitempty"`
	SharedLoad   *JSONAccess       `json:"shared_load,omitempty"`
	SharedStore  *JSONAccess       `json:"shared_store,omitempty"`
	Instructions []jsonInstruction `json:"instructions,omitempty"`
}

// JSONAccess is the JSON form of one memory space's reading.
type JSONAccess struct {
	Requests               float64  `json:"requests"`
	Transactions           float64  `json:"transactions"`
	IdealTransactions      float64  `json:"ideal_transactions"`
	SectorsPerRequest      float64  `json:"sectors_per_request"`
	IdealSectorsPerRequest float64  `json:"ideal_sectors_per_request"`
	AccessBytes            float64  `json:"access_bytes,omitempty"`
	Pattern                string   `json:"pattern"`
	StrideBytes            float64  `json:"stride_bytes,omitempty"`
	OffsetBytes            float64  `json:"offset_bytes,omitempty"`
	ConflictWays           float64  `json:"conflict_ways,omitempty"`
	Evidence               string   `json:"evidence,omitempty"`
	Explanation            string   `json:"explanation"`
	Implausible            []string `json:"implausible,omitempty"`
}

// jsonInstruction is the JSON form of one SASS memory instruction.
type jsonInstruction struct {
	File                   string  `json:"file,omitempty"`
	Line                   int     `json:"line,omitempty"`
	Address                string  `json:"address,omitempty"`
	SASS                   string  `json:"sass"`
	Space                  string  `json:"space"`
	Operation              string  `json:"operation"`
	AccessBytes            float64 `json:"access_bytes,omitempty"`
	Requests               float64 `json:"requests"`
	Sectors                float64 `json:"sectors"`
	IdealSectors           float64 `json:"ideal_sectors"`
	SectorsPerRequest      float64 `json:"sectors_per_request"`
	IdealSectorsPerRequest float64 `json:"ideal_sectors_per_request"`
	Pattern                string  `json:"pattern"`
	StrideBytes            float64 `json:"stride_bytes,omitempty"`
	OffsetBytes            float64 `json:"offset_bytes,omitempty"`
	ConflictWays           float64 `json:"conflict_ways,omitempty"`
	Explanation            string  `json:"explanation"`
}

// JSONLimiter is the JSON form of the kernel's one limiter.
type JSONLimiter struct {
	Unit     string   `json:"unit"`           // DRAM, L2, L1/shared, pipe, latency, launch, unknown
	Pipe     string   `json:"pipe,omitempty"` // for unit "pipe", when named
	Name     string   `json:"name"`           // as the text output says it
	Bound    string   `json:"bound,omitempty"`
	Percent  *float64 `json:"percent_of_peak,omitempty"`
	Evidence string   `json:"evidence,omitempty"`
	// Headroom is the kernel's distance to its speed of light; absent
	// when the export cannot tell.
	Headroom *JSONHeadroom `json:"headroom,omitempty"`
	// HeadroomUnknown says what the export lacks for the headroom, when
	// it is not known ("the page has no …", "a torch.profiler trace has
	// no hardware counters: …").
	HeadroomUnknown string `json:"headroom_unknown,omitempty"`
}

// JSONHeadroom is the JSON form of a kernel's headroom.
type JSONHeadroom struct {
	Share       float64  `json:"share"`          // 1 − ideal/time, 0–1
	Unit        string   `json:"unit"`           // the unit whose necessary work sets the ideal
	Held        string   `json:"held,omitempty"` // the unit that holds the kernel above it, where not unit
	Ideal       *float64 `json:"ideal_seconds"`  // the ideal time
	Explained   float64  `json:"explained"`      // the share the findings' fixes save together
	Unexplained float64  `json:"unexplained"`    // share − explained
	Sentence    string   `json:"sentence,omitempty"`
	Evidence    string   `json:"evidence,omitempty"`
}

// ToJSONLimiter converts a limiter.
func ToJSONLimiter(l verdict.Limiter) JSONLimiter {
	j := JSONLimiter{Unit: l.Unit.String(), Pipe: l.Pipe, Name: l.String(), Bound: l.Bound(), Percent: ptr(l.Percent), Evidence: l.Evidence}
	if h := l.Headroom; h.Known() {
		j.Headroom = &JSONHeadroom{Share: h.Share, Unit: h.Unit, Held: h.Held, Ideal: ptr(h.Ideal), Explained: h.Explained, Unexplained: h.Unexplained(),
			Sentence: h.Sentence(), Evidence: h.Evidence}
	} else {
		j.HeadroomUnknown = h.Missing
	}
	return j
}

// toJSONModel converts the access readings.
func toJSONModel(m verdict.Model) JSONModel {
	j := JSONModel{GlobalLoad: jsonAccess(m.GlobalLoad), GlobalStore: jsonAccess(m.GlobalStore), Shared: jsonAccess(m.Shared()),
		SharedLoad: jsonAccess(m.SharedLoad), SharedStore: jsonAccess(m.SharedStore)}
	for _, in := range m.Instructions {
		j.Instructions = append(j.Instructions, jsonInstruction{File: in.File, Line: in.Line, Address: in.Address, SASS: in.SASS,
			Space: in.Space, Operation: in.Operation, AccessBytes: in.Pattern.AccessBytes, Requests: in.Requests, Sectors: in.Sectors,
			IdealSectors: in.IdealSectors, SectorsPerRequest: in.SectorsPerRequest, IdealSectorsPerRequest: in.IdealSectorsPerRequest,
			Pattern: in.Pattern.Kind.String(), StrideBytes: in.Pattern.StrideBytes, OffsetBytes: in.Pattern.OffsetBytes,
			ConflictWays: ways(in.Space == "shared", in.Pattern.Ways), Explanation: in.Pattern.Text()})
	}
	return j
}

func ways(shared bool, w float64) float64 {
	if !shared {
		return 0
	}
	return w
}

func jsonAccess(x *verdict.Access) *JSONAccess {
	if x == nil {
		return nil
	}
	p := x.Pattern
	j := &JSONAccess{Requests: x.Requests, Transactions: x.Transactions, IdealTransactions: x.IdealTransactions,
		SectorsPerRequest: x.SectorsPerRequest, IdealSectorsPerRequest: x.IdealSectorsPerRequest, AccessBytes: p.AccessBytes,
		Pattern: p.Kind.String(), StrideBytes: p.StrideBytes, OffsetBytes: p.OffsetBytes, ConflictWays: p.Ways,
		Evidence: p.Evidence.String(), Explanation: p.Text(), Implausible: x.Implausible}
	if math.IsNaN(j.ConflictWays) {
		j.ConflictWays = 0
	}
	return j
}
