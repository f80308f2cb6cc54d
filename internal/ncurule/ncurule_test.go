package ncurule_test

import (
	"math"

	"path/filepath"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/ncurule"
)

// Texts as ncu 2025.3.1 printed them (fixtures/calib).
const (
	uncoalescedGlobal = "This kernel has uncoalesced global accesses resulting in a total of 58720256 excessive sectors (78% of the total 75497472 sectors). Check the L2 Theoretical Sectors Global Excessive table for the primary source locations."
	storesL1          = "The memory access pattern for global stores to L1TEX might not be optimal. On average, only 4.0 of the 32 bytes transmitted per sector are utilized by each thread. This could possibly be caused by a stride between threads."
	sharedConflicts   = "The memory access pattern for shared loads might not be optimal and causes on average a 32.3 - way bank conflict across all 2097152 shared load requests.This results in 65554438 bank conflicts,  which represent 96.90% of the overall 67651590 wavefronts for shared loads. Check the Source Counters section for uncoalesced shared loads."
	uncoalescedShared = "This kernel has uncoalesced shared accesses resulting in a total of 65011712 excessive wavefronts (94% of the total 69206016 wavefronts). Check the L1 Wavefronts Shared Excessive table for the primary source locations."
	loadsDRAM         = "The memory access pattern for global loads from DRAM might not be optimal. On average, only 16.0 of the 32 bytes transmitted per sector are utilized by each thread. This applies to the 100.0% of sectors missed in L2."
	storesL2          = "The memory access pattern for global stores to L2 might not be optimal. On average, only 16.0 of the 32 bytes transmitted per sector are utilized by each thread. This applies to the 100.0% of sectors missed in L1TEX."
	roofline          = "The ratio of peak float (FP32) to double (FP64) performance on this device is 2:1. The workload achieved  close to 3% of this device's FP32 peak performance and 0% of its FP64 peak performance."
)

func rows(texts ...string) []profan.ToolFinding {
	var out []profan.ToolFinding
	for i := 0; i < len(texts); i += 2 {
		out = append(out, profan.ToolFinding{Rule: texts[i], Description: texts[i+1], Speedup: math.NaN()})
	}
	return out
}

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rows    []profan.ToolFinding
		want    map[string]float64
		unknown int
	}{
		{"one space wastes", rows("UncoalescedGlobalAccess", uncoalescedGlobal, "MemoryCacheAccessPattern", storesL1),
			map[string]float64{"global_excessive_sectors": 58720256, "global_sectors": 75497472, "global_st_sector_use_pct": 12.5,
				"gst_transactions": 67108864, "gst_ideal_transactions": 8388608, "gst_efficiency": 12.5,
				"gld_transactions": 8388608, "gld_ideal_transactions": 8388608, "gld_efficiency": 100}, 0},
		{"both waste alike", rows("UncoalescedGlobalAccess", "This kernel has uncoalesced global accesses resulting in a total of 4194304 excessive sectors (50% of the total 8388608 sectors).",
			"MemoryCacheAccessPattern", loadsDRAM, "MemoryCacheAccessPattern", storesL2),
			map[string]float64{"gld_transactions": 4194304, "gld_ideal_transactions": 2097152, "gst_transactions": 4194304, "gst_ideal_transactions": 2097152}, 0},
		{"shared", rows("SharedMemoryConflicts", sharedConflicts, "UncoalescedSharedAccess", uncoalescedShared),
			map[string]float64{"shared_load_requests": 2097152, "shared_load_bank_conflicts": 65554438, "shared_load_transactions": 67651590,
				"shared_excessive_wavefronts": 65011712, "shared_wavefronts": 69206016}, 0},
		{"roofline", rows("SOLFPRoofline", strings.Replace(roofline, " close to 3%", "41%", 1)), map[string]float64{"fp32_peak_pct": 41, "fp64_peak_pct": 0}, 0},
		// "close to" marks a share rounded from well under it: not read.
		{"roofline close to", rows("SOLFPRoofline", roofline), map[string]float64{}, 0},
		{"thousands separators", rows("UncoalescedSharedAccess", "This kernel has uncoalesced shared accesses resulting in a total of 65,011,712 excessive wavefronts (94% of the total 69,206,016 wavefronts)."),
			map[string]float64{"shared_excessive_wavefronts": 65011712, "shared_wavefronts": 69206016}, 0},
		// Another wording of a read rule: counted, nothing read.
		{"unknown wording", rows("UncoalescedGlobalAccess", "This kernel has 12 uncoalesced sectors.", "SharedMemoryConflicts", "shared loads conflict 4-way"),
			map[string]float64{}, 2},
		// A rule whose numbers are not read is neither read nor unknown.
		{"other rule", rows("CPIStall", "On average, each warp of this workload spends 55.4 cycles being stalled"), map[string]float64{}, 0},
		// A fence's stall row (fixtures/sol-check11's fenceEach<0>).
		{"membar", rows("CPIStall", "On average, each warp of this workload spends 102.5 cycles being stalled waiting on a memory barrier. Avoid executing any unnecessary memory barriers and assure that any outstanding memory operations are fully optimized for the target architecture. This stall type represents about 74.8% of the total average of 137.0 cycles between issuing two instructions."),
			map[string]float64{"membar_stall_pct": 74.8}, 0},
		// The MIO queue's stall row (fixtures/sol-check23's hexEnc<0>).
		{"mio", rows("CPIStall", "On average, each warp of this workload spends 395.9 cycles being stalled waiting for the MIO (memory input/output) instruction queue to be not full. This stall reason is high in cases of extreme utilization of the MIO pipelines, which include special math instructions, dynamic branches, as well as shared memory instructions. When caused by shared memory accesses, trying to use fewer but wider loads can reduce pipeline pressure. This stall type represents about 90.5% of the total average of 437.2 cycles between issuing two instructions."),
			map[string]float64{"mio_stall_pct": 90.5}, 0},
		// Numbers that contradict each other are not split.
		{"inconsistent", rows("UncoalescedGlobalAccess", "This kernel has uncoalesced global accesses resulting in a total of 900 excessive sectors (90% of the total 100 sectors).", "MemoryCacheAccessPattern", storesL1),
			map[string]float64{"global_excessive_sectors": 900, "global_sectors": 100}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ncurule.Read(tc.rows)
			for name, want := range tc.want {
				v, ok := r.Get(name)
				if !ok || math.Abs(v.Value-want) > 1e-9*math.Max(1, want) {
					t.Errorf("%s: got %v (%v), want %v", name, v.Value, ok, want)
				}
				if ok && !strings.HasPrefix(v.From, "ncu rule") {
					t.Errorf("%s: evidence %q does not name the rule", name, v.From)
				}
			}
			if _, ok := r.Get("fp32_peak_pct"); ok && tc.name == "roofline close to" {
				t.Error("read a share ncu rounded (close to 3%) as a number")
			}
			// An even split, or one that takes the other operation to
			// waste nothing, is no number of the page: an estimate.
			for _, name := range []string{"gld_transactions", "gst_transactions", "gld_ideal_transactions", "gst_ideal_transactions"} {
				if v, ok := r.Get(name); ok && v.Estimate != (tc.name != "two shares") {
					t.Errorf("%s: estimate %v (%s)", name, v.Estimate, v.From)
				}
			}
			if tc.name == "inconsistent" {
				if _, ok := r.Get("gst_transactions"); ok {
					t.Error("split sectors that the rules' numbers cannot hold")
				}
			}
			if len(r.Unknown) != tc.unknown {
				t.Errorf("got %d unknown rows %v, want %d", len(r.Unknown), r.Unknown, tc.unknown)
			}
		})
	}
}

// TestFixtureRuleRows: every row of a rule whose numbers are read, in every
// ncu export in fixtures/ and the public samples, fits a template; none is
// left unknown.
func TestFixtureRuleRows(t *testing.T) {
	if testing.Short() {
		t.Skip("every ncu export: runs without -short, as CI does")
	}
	var files []string
	for _, g := range []string{"../../fixtures/*/*.csv", "../../fixtures/*/*.csv.gz", "../ingest/testdata/ncu/*.csv"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	read := map[string]bool{}
	for _, r := range ncurule.Rules() {
		read[r] = true
	}
	seen := map[string]int{}
	for _, f := range files {
		if strings.Contains(f, "source") {
			continue
		}
		run, err := ingest.ReadFile(f, ingest.Options{})
		if err != nil || run.Tool != profan.ToolNCU {
			continue
		}
		for _, k := range run.Kernels {
			r := ncurule.Read(k.Findings)
			if len(r.Unknown) > 0 {
				t.Errorf("%s: kernel %s: rows of an unknown wording: %v", f, k.ID, r.Unknown)
			}
			for _, x := range k.Findings {
				if read[x.Rule] {
					seen[x.Rule]++
				}
			}
		}
	}
	for _, r := range ncurule.Rules() {
		if seen[r] == 0 {
			t.Errorf("no fixture has a %s row", r)
		}
	}
	t.Logf("rule rows read: %v", seen)
}

func FuzzRead(f *testing.F) {
	for _, s := range []string{uncoalescedGlobal, storesL1, sharedConflicts, uncoalescedShared, loadsDRAM, storesL2, roofline} {
		f.Add("UncoalescedGlobalAccess", s, "MemoryCacheAccessPattern", s)
		f.Add("SharedMemoryConflicts", s, "UncoalescedSharedAccess", s)
	}
	f.Fuzz(func(t *testing.T, r1, d1, r2, d2 string) {
		r := ncurule.Read(rows(r1, d1, r2, d2))
		for name, v := range r.Values {
			if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) || v.Value < 0 {
				t.Fatalf("%s = %v", name, v.Value)
			}
		}
	})
}
