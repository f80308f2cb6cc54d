package analysis_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
)

// TestHeadroom holds the speed-of-light headroom of real kernels to what
// their necessary work says: a strided copy that moves 8× the bytes its
// threads ask for keeps most of its time as headroom on DRAM whatever its
// DRAM throughput, the coalesced copy keeps little, a compute map's
// headroom is on the FP32 pipe, and on every page alike.
func TestHeadroom(t *testing.T) {
	pages := []string{"details", "raw"}
	if testing.Short() {
		pages = pages[:1] // CI reads the raw page too
	}
	for _, page := range pages {
		checkHeadrooms(t, page, []string{"calib/calib"}, []headroomCase{
			{"void strideCopy<8>(float *, const float *)", "DRAM", 0.85, 0.97},
			{"void strideCopy<1>(float *, const float *)", "DRAM", 0.1, 0.4},
			{"matmulNaive(float *, const float *, const float *, int)", "FP32 pipe", 0.8, 0.97},
		})
	}
}

// TestHeadroomHeld: a kernel a memory unit limits whose ideal is its
// arithmetic keeps its work's unit and names the unit that holds it
// (fixtures/sol-check28's firTap63<0>: 63 taps a stored element read
// through L1, the L1/shared pipe at 85 %, its ideal its FLOPs); one the
// unit of its work limits names no other.
func TestHeadroomHeld(t *testing.T) {
	files := []string{"../../fixtures/sol-check28/sol_check28.raw.csv.gz", "../../fixtures/sol-check28/sol_check28.source.cuda-sass.csv.gz"}
	got := map[string]analysis.Headroom{}
	_, err := ingest.ReadFiles(files, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		if n := k.DisplayName(); strings.HasPrefix(n, "void firTap63<0>") || strings.HasPrefix(n, "void rawBlack<1>") {
			got[n] = analysis.Analyze(run, k, analysis.Options{}).Limiter.Headroom
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for n, h := range got {
		switch {
		case strings.HasPrefix(n, "void firTap63<0>"):
			if h.Unit != "FP32 pipe" || h.Held != "L1/shared" || !strings.Contains(h.Sentence(), "headroom on L1/shared") {
				t.Errorf("%s: headroom on %q held by %q (%s), want on FP32 pipe held by L1/shared", n, h.Unit, h.Held, h.Sentence())
			}
		case h.Held != "":
			t.Errorf("%s: headroom on %q held by %q, want no other unit", n, h.Unit, h.Held)
		}
	}
	if len(got) != 2 {
		t.Fatalf("read %d of the 2 kernels", len(got))
	}
}

// headroomCase is a kernel's expected headroom: its unit and its share.
type headroomCase struct {
	kernel   string
	unit     string
	min, max float64
}

// checkHeadrooms reads the page of each set (fixtures/SET.PAGE.csv.gz
// with its source page) and holds each case's kernel to its headroom.
func checkHeadrooms(t *testing.T, page string, sets []string, cases []headroomCase) {
	t.Helper()
	got := map[string]analysis.Headroom{}
	for _, set := range sets {
		files := []string{"../../fixtures/" + set + "." + page + ".csv.gz", "../../fixtures/" + set + ".source.cuda-sass.csv.gz"}
		_, err := ingest.ReadFiles(files, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
			got[k.DisplayName()] = analysis.Analyze(run, k, analysis.Options{}).Limiter.Headroom
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		h, ok := got[c.kernel]
		if !ok {
			t.Fatalf("%s: %s not in the capture", page, c.kernel)
		}
		if !h.Known() || h.Unit != c.unit || h.Share < c.min || h.Share > c.max {
			t.Errorf("%s: %s: headroom %.2f on %q, want %.2f–%.2f on %s (%s)", page, c.kernel, h.Share, h.Unit, c.min, c.max, c.unit, h.Evidence)
		}
	}
}

// TestHeadroomSentence: the part no finding explains is said, never an
// unmarked 0, down to 1 %; under Stated (it would round to ≈0 %) it is not.
func TestHeadroomSentence(t *testing.T) {
	h := analysis.Headroom{Share: 0.8, Unit: "DRAM", Ideal: 1e-6, Explained: 0.3}
	if s := h.Sentence(); !strings.Contains(s, "≈50 % of its time is headroom on DRAM that no rule explains") {
		t.Errorf("sentence %q", s)
	}
	h.Explained = 0.75
	if s := h.Sentence(); !strings.Contains(s, "≈5 % of its time is headroom on DRAM that no rule explains") {
		t.Errorf("5%% unexplained: sentence %q", s)
	}
	h.Explained = 0.796
	if s := h.Sentence(); s != "" {
		t.Errorf("0.4%% unexplained: sentence %q, want none", s)
	}
	if u := (analysis.Headroom{Share: math.NaN()}).Unexplained(); !math.IsNaN(u) {
		t.Errorf("unknown headroom: unexplained %v, want NaN", u)
	}
	if (analysis.Headroom{}).Known() {
		t.Error("the zero headroom is known")
	}
}

// TestSourceFlopsOnce counts an instruction the source page lists twice
// (under its CUDA line and in the SASS) once: a details page's FLOPs from
// the source page match the raw page's count, not twice it.
func TestSourceFlopsOnce(t *testing.T) {
	rec := func(addr, sass string, n float64) profan.SourceRecord {
		return profan.SourceRecord{Address: addr, SASS: sass, Counter: []profan.Metric{{Name: "thread_inst_executed_pred_on", Value: n}}}
	}
	k := &profan.Kernel{Source: []profan.SourceRecord{
		rec("0x10", "FFMA R1, R2, R3, R1", 64), rec("0x20", "@P0 FADD R4, R4, R5", 32), rec("0x30", "DMUL R6, R6, R8", 32),
		rec("0x10", "FFMA R1, R2, R3, R1", 64), rec("0x20", "@P0 FADD R4, R4, R5", 32), rec("0x30", "DMUL R6, R6, R8", 32),
	}}
	if sp, dp := analysis.SourceFlops(k); sp != 2*64+32 || dp != 32 {
		t.Errorf("SourceFlops = %v, %v; want 160, 32", sp, dp)
	}
}

// TestHeadroomL2 holds the L2 as a limiting unit: kernels at their speed
// of light on L2 (a table held in L2, read by every block, which no
// block's tile keeps) have no headroom on it, where DRAM's need alone
// said 93–99 %; a kernel streaming from DRAM through L2, or gathering,
// keeps its headroom on DRAM.
func TestHeadroomL2(t *testing.T) {
	for _, page := range []string{"raw", "details"} {
		checkHeadrooms(t, page, []string{"sol-check7/sol_check7", "sol-check8/sol_check8"}, []headroomCase{
			{"void l2Int4<0>(int *, const int4 *, int, int)", "L2", 0, 0.05},
			{"void l2Reuse<0>(float *, const float4 *, int, int)", "L2", 0, 0.05},
			{"void xor3U4<0>(uint4 *, const uint4 *, const uint4 *, int)", "DRAM", 0, 0.2},
			{"void hashGather<1>(float2 *, const float2 *, float, int)", "DRAM", 0.5, 1},
		})
	}
}

// TestHeadroomL1 holds the L1/shared pipe as a limiting unit for the
// shared-memory work a kernel needs (a block reduction, a privatised
// histogram), whose twins ran as fast (blockMax<0> → blockMax<1>: 0.02
// measured), but not a barrier tree's levels (analysis.BarrierTrees:
// blockMax<1>'s tid < s levels, nine, every warp issuing each, 31 % of
// its shared and global instructions left by shuffles; sol-check19's
// rowSoftmax<0>, two such trees, ran 0.52 faster by shuffles), and not
// for a product, whose shared loads a tile cuts: an
// integer or half2 product reads its headroom on the pipe of its
// multiply-adds, not on DRAM (igemm16 and igemmReg<4, 4>: 9.1 and 8.6 G
// IMADs at 16.7 Tera-op/s, 0.72 and 0.37, where DRAM read 1.00; the
// register tile ran 0.58 faster; sol-check8's hgemm16 and its register
// tile on HFMA2: 0.86 and 0.69 on the FP16 pipe, the tile 0.53 faster).
func TestHeadroomL1(t *testing.T) {
	for _, page := range []string{"raw", "details"} {
		checkHeadrooms(t, page, []string{"sol-check4/sol_check4", "check/check", "classes/classes"}, []headroomCase{
			{"void blockMax<0>(int *, const int *, int)", "L1/shared", 0, 0.2},
			{"void blockMax<1>(int *, const int *, int)", "L1/shared", 0.6, 0.8},
			{"byteHistShared(float *, const unsigned char *, int)", "L1/shared", 0, 0.1},
			{"void atomicPriv<float, 1>(T1 *, const unsigned int *, unsigned int, int)", "L1/shared", 0, 0.1},
		})
		checkHeadrooms(t, page, []string{"sol-check7/sol_check7"}, []headroomCase{
			{"igemm16(int *, const signed char *, const signed char *, int)", "integer pipe", 0.65, 0.75},
			{"void igemmReg<4, 4>(int *, const signed char *, const signed char *, int)", "integer pipe", 0.25, 0.4},
		})
		checkHeadrooms(t, page, []string{"sol-check8/sol_check8"}, []headroomCase{
			{"hgemm16(__half2 *, const __half *, const __half2 *, int)", "FP16 pipe", 0.8, 0.9},
			{"void hgemmReg<4, 4>(__half2 *, const __half *, const __half2 *, int)", "FP16 pipe", 0.6, 0.75},
		})
	}
}

// TestHeadroomPasses holds the necessary work of two kernels whose extra
// work is their source's, not their unit's: four grid-stride sweeps over
// an array written in place need one sweep's bytes (fixtures/sol-check16's
// sweep4<0>: 537 MB of the 2.12 GB it moved; its one-sweep twin ran 0.75
// faster), and a chain of precise logf needs one MUFU.LG2 a call, not the
// range reduction and polynomial (logIter<0>: the XU pipe's 67.6 µs of
// 232 µs; its __logf twin ran 0.69 faster).
func TestHeadroomPasses(t *testing.T) {
	for _, page := range []string{"raw", "details"} {
		checkHeadrooms(t, page, []string{"sol-check16/sol_check16"}, []headroomCase{
			{"void sweep4<0>(float4 *, const float4 *, int)", "DRAM", 0.7, 0.85},
			{"void sweep4<1>(float4 *, const float4 *, int)", "DRAM", 0, 0.25},
			{"void logIter<0>(float *, const float *, int)", "XU pipe", 0.6, 0.8},
			{"void logIter<1>(float *, const float *, int)", "XU pipe", 0, 0.15},
		})
	}
}

// TestHeadroomExp holds the necessary work of a chain of precise expf:
// one MUFU.EX2 a call, not the rounding, reduction and scaling around it
// (fixtures/sol-check17's gaussIter<0>: the XU pipe's 135 µs of 200 µs
// on both pages, where the raw page's FP32 count read 45 % on the FP32
// pipe; its __expf twin ran 0.27 faster, at 145 µs).
func TestHeadroomExp(t *testing.T) {
	for _, page := range []string{"raw", "details"} {
		checkHeadrooms(t, page, []string{"sol-check17/sol_check17"}, []headroomCase{
			{"void gaussIter<0>(float *, const float *, int)", "XU pipe", 0.25, 0.4},
			{"void gaussIter<1>(float *, const float *, int)", "XU pipe", 0, 0.15},
		})
	}
}

// TestInPlacePasses reads the passes of a kernel over an array it writes
// in place (fixtures/sol-check16's sweep4<0>: the first of four sweeps
// reads x and writes y, the other three read y back and write it again),
// and none in its one-sweep twin or in a kernel whose passes only read
// (sol-check10's moments<0>, RereadPasses' kind).
func TestInPlacePasses(t *testing.T) {
	got := map[string]analysis.InPlace{}
	ok := map[string]bool{}
	for _, set := range []string{"sol-check16/sol_check16", "sol-check10/sol_check10"} {
		files := []string{"../../fixtures/" + set + ".raw.csv.gz", "../../fixtures/" + set + ".source.cuda-sass.csv.gz"}
		_, err := ingest.ReadFiles(files, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
			got[k.DisplayName()], ok[k.DisplayName()] = analysis.InPlacePasses(analysis.Analyze(run, k, analysis.Options{}))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	p := got["void sweep4<0>(float4 *, const float4 *, int)"]
	if !ok["void sweep4<0>(float4 *, const float4 *, int)"] || p.Passes != 4 || math.Abs(p.Share-0.75) > 0.01 || !slices.Equal(p.Lines, []int{461, 465, 469}) {
		t.Errorf("sweep4<0>: %+v, want 4 passes, share 0.75, lines 461, 465, 469", p)
	}
	for _, k := range []string{"void sweep4<1>(float4 *, const float4 *, int)", "void moments<0>(float *, const float4 *, int)"} {
		if _, seen := ok[k]; !seen {
			t.Errorf("%s not in the captures", k)
		}
		if ok[k] {
			t.Errorf("%s: in-place passes %+v, want none", k, got[k])
		}
	}
}

// TestRereadPassesHeld reads passes whose later one writes after the
// first reduces, where each block's data fits on chip
// (fixtures/sol-check19's rmsH<0>: the sum of squares of a 64 KiB row,
// then `yr[k] = scale8(xr[k], wr[k], s)`, whose xr[k] re-reads the
// row: a third of the load sectors, wr[k] the other line's half), and
// none in its one-read twin; the headroom counts the rows once.
func TestRereadPassesHeld(t *testing.T) {
	files := []string{"../../fixtures/sol-check19/sol_check19.raw.csv.gz", "../../fixtures/sol-check19/sol_check19.source.cuda-sass.csv.gz"}
	got := map[string]analysis.Passes{}
	ok := map[string]bool{}
	hr := map[string]analysis.Headroom{}
	_, err := ingest.ReadFiles(files, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		if strings.Contains(k.DisplayName(), "rmsH") {
			a := analysis.Analyze(run, k, analysis.Options{})
			got[k.DisplayName()], ok[k.DisplayName()] = analysis.RereadPasses(a)
			hr[k.DisplayName()] = a.Limiter.Headroom
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	const broken, fixed = "void rmsH<0>(__half *, const __half *, const __half *)", "void rmsH<1>(__half *, const __half *, const __half *)"
	if p := got[broken]; !ok[broken] || math.Abs(p.Share-1.0/3) > 0.01 || !slices.Equal(p.Lines, []int{473, 476}) {
		t.Errorf("rmsH<0>: %+v (%v), want lines 473, 476, share 0.33", p, ok[broken])
	}
	if h := hr[broken]; h.Unit != "DRAM" || h.Share < 0.3 || h.Share > 0.5 {
		t.Errorf("rmsH<0>: headroom %.2f on %s, want 0.3-0.5 on DRAM (%s)", h.Share, h.Unit, h.Evidence)
	}
	if _, seen := ok[fixed]; !seen || ok[fixed] {
		t.Errorf("rmsH<1>: passes %+v (seen %v), want none", got[fixed], seen)
	}
}

// TestWarpExchanges reads a warp's exchange through volatile shared
// memory (fixtures/sol-check19's segStats<0>: five steps of four
// statistics, a load of the partner's word after the lane's store, 20 a
// warp, and 24 stores a warp, over 1 Mi warps), none in its shuffle
// twin, and the headroom that leaves (the loads as shuffles, no store).
func TestWarpExchanges(t *testing.T) {
	files := []string{"../../fixtures/sol-check19/sol_check19.raw.csv.gz", "../../fixtures/sol-check19/sol_check19.source.cuda-sass.csv.gz"}
	got := map[string]analysis.Exchange{}
	hr := map[string]analysis.Headroom{}
	_, err := ingest.ReadFiles(files, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		if strings.Contains(k.DisplayName(), "segStats") {
			a := analysis.Analyze(run, k, analysis.Options{})
			got[k.DisplayName()] = analysis.WarpExchanges(a)
			hr[k.DisplayName()] = a.Limiter.Headroom
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	const warps = 1 << 20
	x := got["void segStats<0>(float4 *, const float *, int)"]
	if x.Loads != 20*warps || x.Stores != 24*warps || !slices.Equal(x.Lines, []int{538, 539, 540, 541}) {
		t.Errorf("segStats<0>: %+v, want %d loads, %d stores at lines 538-541", x, 20*warps, 24*warps)
	}
	if h := hr["void segStats<0>(float4 *, const float *, int)"]; h.Unit != "L1/shared" || h.Share < 0.4 || h.Share > 0.6 {
		t.Errorf("segStats<0>: headroom %.2f on %s, want 0.4-0.6 on L1/shared (%s)", h.Share, h.Unit, h.Evidence)
	}
	if x, seen := got["void segStats<1>(float4 *, const float *, int)"]; !seen || x.Loads > 0 || x.Stores > 0 {
		t.Errorf("segStats<1>: %+v (seen %v), want no exchange", x, seen)
	}
}
