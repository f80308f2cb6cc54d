package rules

import (
	"fmt"
	"math"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
)

var bankConflictWays = positive("bank_conflict_ways")

// sharedBankConflict reports shared-memory accesses that the 32 banks must
// serialize.
var sharedBankConflict = &Rule{
	ID:    "shared-bank-conflict",
	Title: "Shared-memory bank conflicts",
	Text: `Shared memory has 32 banks of 4-byte words. When threads of a warp touch
different words of one bank, the access is replayed once per word: an N-way
conflict costs N wavefronts instead of one. Reading a column of a [32][32] float
tile is the classic 32-way case; padding each row by one word puts the column's
elements in 32 different banks.`,
	Before: `__shared__ float tile[32][32];
odata[i] = tile[threadIdx.x][threadIdx.y]; // 32-way conflict`,
	After: `__shared__ float tile[32][33];            // one word of padding per row
odata[i] = tile[threadIdx.x][threadIdx.y]; // conflict-free`,
	Severity:   profan.Warning,
	Cause:      CauseMemory,
	Scope:      Source,
	Locates:    true,
	NCURule:    "SharedMemoryConflicts",
	Thresholds: []*Threshold{bankConflictWays},
	Requires:   []string{"shared_load_transactions_per_request|shared_store_transactions_per_request"},
	Optional:   join(trafficReads, []string{"shared_load_transactions", "shared_store_transactions", "shared_bank_conflicts", "shared_efficiency"}),
	Check:      checkBankConflict,
}

func checkBankConflict(p *Pass) {
	m := p.Kernel.Model
	if contended(m) {
		// No bank layout costs more than 32 wavefronts per request: these
		// are atomics retrying on the same words (histograms). nvprof
		// counts shared atomics among both the loads' and the stores'
		// transactions, so they are reported once, without a degree.
		var spr, tr float64
		for _, x := range []*analysis.Access{m.SharedLoad, m.SharedStore} {
			if x != nil && x.SectorsPerRequest > spr {
				spr, tr = x.SectorsPerRequest, x.Transactions
			}
		}
		p.report(unknownGain, Note{
			Message:   fmt.Sprintf("shared memory takes %.0f transactions per request (%.0f in all), more than the 32 a full bank conflict costs: threads contend for the same words, as shared atomics on a few addresses do", spr, tr),
			Advice:    "spread the contended updates: a private copy per warp (sub-histograms) merged at the end, warp-aggregated atomics (__match_any_sync and one atomic per distinct key), or padding so hot counters fall in different banks",
			Evidence:  p.evidence("shared_load_transactions_per_request", "shared_store_transactions_per_request", "shared_load_transactions", "shared_store_transactions", "shared_efficiency"),
			Locations: worstLines(p.Kernel, "shared"),
		})
		return
	}
	type space struct {
		x    *analysis.Access
		what string
	}
	// Padding the array fixes its loads and its stores at once: the gain
	// is the fix's, over both, and the two notes become one finding.
	var spaces []space
	var t traffic
	// Replays at lookups whose address is data (tab[f(v)]) follow the
	// data: no padding removes them, and they are left out.
	for _, sp := range []space{{m.SharedLoad, "loads"}, {m.SharedStore, "stores"}} {
		if !conflictSpace(p, sp.x) {
			continue
		}
		fixable := fixableConflict(p.Kernel, sp.x, sp.what == "stores")
		if fixable.SharedWavefronts <= 0 || trafficGain(p, fixable) < p.Thresholds.MinGain {
			continue // the fix relieves a unit the kernel does not wait for
		}
		spaces = append(spaces, sp)
		t.SharedWavefronts += fixable.SharedWavefronts
	}
	gain := trafficGain(p, t)
	for _, sp := range spaces {
		ways := math.Round(sp.x.Pattern.Ways)
		width := 32 // the tile width that produces a ways-way column conflict
		pad := gpumodel.PaddingFor(width, 4)
		removed := 1 - 1/sp.x.Pattern.Ways
		advice := fmt.Sprintf("pad the shared array's rows by %d element (e.g. __shared__ float tile[32][%d]) or index it so a warp's threads hit 32 different banks; a column of a [32][32] tile is %d-way",
			pad, width+pad, gpumodel.TileColumnConflict(width, 4))
		if _, _, tr := tritonKernel(p.Kernel.Record); tr {
			advice = tritonConflictAdvice
		}
		p.report(estimate(gain), Note{
			// The header's figures: wavefronts per request and their
			// ideal (2 for 8-byte words), whose ratio is the degree.
			Message:   conflictMessage(sp.what, sp.x, ways, removed),
			Advice:    advice,
			Evidence:  p.evidence("shared_load_transactions_per_request", "shared_store_transactions_per_request", "shared_bank_conflicts", "shared_efficiency"),
			Locations: worstLines(p.Kernel, "shared"),
			Fix:       "pad-shared",
		})
	}
}

// tritonConflictAdvice is the fix of a Triton kernel's conflicts: Triton
// lays out shared memory itself, so a conflicted access is one of the
// layout conversions it inserts (fixtures/sol-check17's mm_up32: fp16
// tiles widened to fp32 before tl.dot, staged through shared memory by
// 16-way STS; tl.dot on the fp16 tiles, no such stores, ran 0.86
// faster).
const tritonConflictAdvice = "Triton lays out shared memory itself: these accesses are a layout conversion it inserted (a tl.dot operand staged for the MMA, a transpose, a reduction's exchange); feed tl.dot the tiles as loaded, in fp16 or bf16 (widen the accumulator, not the operands), keep tl.trans and reshapes off the path between a load and its use, or let @triton.autotune try other BLOCK_SIZE and num_warps, whose layouts differ"

// contended reports shared-memory traffic no bank conflict explains: more
// than 33 wavefronts per instruction in loads or stores.
func contended(m analysis.Model) bool {
	for _, x := range []*analysis.Access{m.SharedLoad, m.SharedStore} {
		if x != nil && x.SectorsPerRequest > 33 {
			return true
		}
	}
	return false
}

// conflictMessage states a conflict with the header's figures. The degree
// is their ratio; where the space's instructions differ (the ratio is an
// average), the worst instruction's degree is named as such.
func conflictMessage(what string, x *analysis.Access, ways, removed float64) string {
	// The ratio of the figures as printed, so that the sentence's degree
	// and its two figures agree for a reader who divides them.
	ratio := round2(x.SectorsPerRequest) / round2(x.IdealSectorsPerRequest)
	if math.Abs(ratio-ways) <= 0.5 {
		return fmt.Sprintf("shared %s take %.2f wavefronts per request where %.2f would do: a %.0f-way bank conflict, %.0f%% of their wavefronts are replays",
			what, x.SectorsPerRequest, x.IdealSectorsPerRequest, ways, removed*100)
	}
	return fmt.Sprintf("shared %s take %.2f wavefronts per request where %.2f would do (%.1f× on average); the worst instruction is a %.0f-way bank conflict, %.0f%% of its wavefronts replays",
		what, x.SectorsPerRequest, x.IdealSectorsPerRequest, ratio, ways, removed*100)
}

// round2 is v as %.2f prints it.
func round2(v float64) float64 { return math.Round(v*100) / 100 }
