package gpumodel

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// Pearson's Titan V (CC 7.0) table for 10,000 threads, reproduced exactly.
func TestPredictVoltaSeed(t *testing.T) {
	tests := []struct {
		name                   string
		elemBytes              int
		requests, l1, l2       float64
		sectorsPerRequestIdeal float64
	}{
		{"float", 4, 313, 313, 1250, 1250.0 / 313},
		{"double", 8, 313, 625, 2500, 2500.0 / 313},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Predict("7.0", tt.elemBytes, 10000, Pattern{Kind: Sequential})
			if err != nil {
				t.Fatal(err)
			}
			if p.Requests != tt.requests || p.L1Transactions != tt.l1 || p.L2Sectors != tt.l2 {
				t.Errorf("sequential %s: got %v requests, %v L1, %v L2, want %v, %v, %v",
					tt.name, p.Requests, p.L1Transactions, p.L2Sectors, tt.requests, tt.l1, tt.l2)
			}
			if p.IdealL1Transactions != tt.l1 || p.IdealL2Sectors != tt.l2 || p.Efficiency != 1 {
				t.Errorf("sequential %s: got ideal %v L1, %v L2, efficiency %v, want %v, %v, 1",
					tt.name, p.IdealL1Transactions, p.IdealL2Sectors, p.Efficiency, tt.l1, tt.l2)
			}
			if p.IdealSectorsPerRequest != tt.sectorsPerRequestIdeal {
				t.Errorf("sequential %s: got ideal sectors/request %v, want %v", tt.name, p.IdealSectorsPerRequest, tt.sectorsPerRequestIdeal)
			}
		})
	}
}

// Pearson's random permutation: the exact expectation lands within 3% of
// the measured counts (it is within 0.4%).
func TestPredictRandomSeed(t *testing.T) {
	tests := []struct {
		name           string
		elemBytes      int
		measL1, measL2 float64
	}{
		{"float", 4, 9566, 9895},
		{"double", 8, 9740, 9947},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Predict("7.0", tt.elemBytes, 10000, Pattern{Kind: Random})
			if err != nil {
				t.Fatal(err)
			}
			if p.Requests != 313 {
				t.Errorf("random %s: got %v requests, want 313", tt.name, p.Requests)
			}
			if !within(p.L1Transactions, tt.measL1, 0.03) || !within(p.L2Sectors, tt.measL2, 0.03) {
				t.Errorf("random %s: got %.1f L1, %.1f L2, want %v, %v ± 3%%", tt.name, p.L1Transactions, p.L2Sectors, tt.measL1, tt.measL2)
			}
			t.Logf("random %s: L1 %.1f vs measured %v (%+.2f%%), L2 %.1f vs %v (%+.2f%%)", tt.name,
				p.L1Transactions, tt.measL1, 100*(p.L1Transactions/tt.measL1-1), p.L2Sectors, tt.measL2, 100*(p.L2Sectors/tt.measL2-1))
		})
	}
}

// The random expectation against a brute-force sum over every warp subset
// is infeasible, so check the closed form on a tiny case by enumeration:
// 2 threads drawing from 8 four-byte elements (one 32-B sector) always
// touch 1 sector; from 16 elements (two sectors) they touch 2 with
// probability 8·8/C(16,2) = 64/120.
func TestExpectedBlocksSmall(t *testing.T) {
	if got := expectedBlocks(4, 8, 2, sectorBytes); math.Abs(got-1) > 1e-12 {
		t.Errorf("expectedBlocks(8 elements): got %v, want 1", got)
	}
	if got, want := expectedBlocks(4, 16, 2, sectorBytes), 1+64.0/120; math.Abs(got-want) > 1e-12 {
		t.Errorf("expectedBlocks(16 elements): got %v, want %v", got, want)
	}
	// a = n: every block is hit.
	if got := expectedBlocks(4, 32, 32, lineBytes); math.Abs(got-1) > 1e-12 {
		t.Errorf("expectedBlocks(all of one line): got %v, want 1", got)
	}
}

// Harris's CUDA performance slides' CC 1.2/1.3 figures, one half-warp of floats each.
func TestSegmentHalfWarpHarris(t *testing.T) {
	seq := func(start int64) []int64 {
		a := make([]int64, 16)
		for k := range a {
			a[k] = start + int64(4*k)
		}
		return a
	}
	permuted := seq(0)
	permuted[0], permuted[5] = permuted[5], permuted[0]
	tests := []struct {
		name  string
		addrs []int64
		n     float64
		bytes float64
	}{
		{"aligned: 1 transaction - 64B segment", seq(0), 1, 64},
		{"aligned upper half: 1 x 64B", seq(64), 1, 64},
		{"permuted within 64 B: 1 x 64B", permuted, 1, 64},
		{"crosses 128 B: 2 transactions - 64B and 32B segments", seq(68), 2, 96},
		{"misaligned within 128 B: 1 transaction - 128B segment", seq(4), 1, 128},
		{"8 threads in one 32-B half: reduced twice", seq(0)[:8], 1, 32},
		{"all one word: 1 x 32B", make([]int64, 16), 1, 32},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, bytes := segmentHalfWarp(4, tt.addrs)
			if n != tt.n || bytes != tt.bytes {
				t.Errorf("%s: got %v transactions, %v B, want %v, %v", tt.name, n, bytes, tt.n, tt.bytes)
			}
		})
	}
}

// Predict on CC 1.x: the same half-warps through the public API, and the
// stricter CC 1.0 rule.
func TestPredictHalfWarp(t *testing.T) {
	tests := []struct {
		cc        string
		elemBytes int
		threads   int
		pattern   string
		n, bytes  float64
	}{
		// CC 1.3, a warp of floats: half-warps of 64 B each.
		{"1.3", 4, 32, "sequential", 2, 128},
		// Offset 1: half-warp 0 spans 4..67 (one 128-B), half-warp 1
		// spans 68..131 (64 B + 32 B).
		{"1.3", 4, 32, "offset:1", 3, 224},
		// Offset 16 floats = 64 B: each half-warp one 64-B segment.
		{"1.3", 4, 32, "offset:16", 2, 128},
		// Stride 2: each half-warp spans 128 B of one segment.
		{"1.3", 4, 32, "stride:2", 2, 256},
		// Doubles: 128 B per half-warp.
		{"1.3", 8, 32, "sequential", 2, 256},
		{"1.3", 4, 32, "uniform", 2, 64},
		// CC 1.0: thread k on word k of an aligned 64-B segment, else 16.
		{"1.0", 4, 32, "sequential", 2, 128},
		{"1.0", 4, 32, "offset:1", 32, 1024},
		{"1.0", 4, 32, "offset:16", 2, 128},
		{"1.0", 4, 32, "uniform", 32, 1024},
		{"1.1", 8, 32, "sequential", 2, 256},
		{"1.0", 16, 16, "sequential", 2, 256},
		{"1.0", 2, 16, "sequential", 16, 512},
		// A partial half-warp still coalesces.
		{"1.0", 4, 5, "sequential", 1, 64},
	}
	for _, tt := range tests {
		t.Run(tt.cc, func(t *testing.T) {
			p, err := ParsePattern(tt.pattern)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Predict(tt.cc, tt.elemBytes, tt.threads, p)
			if err != nil {
				t.Fatalf("Predict(%s, %d, %d, %s): %v", tt.cc, tt.elemBytes, tt.threads, tt.pattern, err)
			}
			if got.Transactions != tt.n || got.Bytes != tt.bytes || got.L1Transactions != 0 {
				t.Errorf("Predict(%s, %d B, %d threads, %s): got %v transactions, %v B, %v L1, want %v, %v, 0",
					tt.cc, tt.elemBytes, tt.threads, tt.pattern, got.Transactions, got.Bytes, got.L1Transactions, tt.n, tt.bytes)
			}
		})
	}
}

// CC 2.x–6.x caching modes, from the Harris Fermi slides: with L1 on a
// misaligned warp costs "2 x 128B segment"; with L1 off, scattered
// threads cost "32 x 32B segments, instead of 32 x 128B".
func TestPredictCachingModes(t *testing.T) {
	tests := []struct {
		name    string
		cc      string
		l1      L1Caching
		pattern Pattern
		tx      float64
		txBytes int
		l1Tx    float64
		sectors float64
	}{
		{"fermi default (L1 on) aligned", "2.0", L1Default, Pattern{Kind: Sequential}, 1, 128, 1, 4},
		{"fermi default misaligned", "2.0", L1Default, Pattern{Kind: Offset, Offset: 1}, 2, 128, 2, 8},
		{"fermi L1 off misaligned", "2.0", L1Off, Pattern{Kind: Offset, Offset: 1}, 5, 32, 0, 5},
		{"fermi L1 on stride 32", "2.0", L1Default, Pattern{Kind: Stride, Stride: 32}, 32, 128, 32, 128},
		{"fermi L1 off stride 32", "2.0", L1Off, Pattern{Kind: Stride, Stride: 32}, 32, 32, 0, 32},
		{"kepler default (L2 only)", "3.5", L1Default, Pattern{Kind: Sequential}, 4, 32, 0, 4},
		{"kepler L1 on", "3.5", L1On, Pattern{Kind: Offset, Offset: 1}, 2, 128, 2, 8},
		{"pascal default", "6.1", L1Default, Pattern{Kind: Stride, Stride: 2}, 8, 32, 0, 8},
		{"volta ignores L1 off", "7.0", L1Off, Pattern{Kind: Offset, Offset: 1}, 5, 32, 2, 5},
		{"hopper uniform", "9.0", L1Default, Pattern{Kind: Uniform}, 1, 32, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := PredictWith(tt.cc, 4, 32, tt.pattern, Options{L1: tt.l1})
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if p.Transactions != tt.tx || p.TransactionBytes != tt.txBytes || p.L1Transactions != tt.l1Tx || p.L2Sectors != tt.sectors {
				t.Errorf("%s: got %v × %d B transactions, %v L1, %v sectors, want %v × %d B, %v, %v",
					tt.name, p.Transactions, p.TransactionBytes, p.L1Transactions, p.L2Sectors, tt.tx, tt.txBytes, tt.l1Tx, tt.sectors)
			}
		})
	}
}

// CC ≥ 7.0 sectors per request for one full warp (32 B sectors, 128 B lines)
// C1: contiguous ceil(32·s/32); stride k: min(32, k·s); misaligned +1.
func TestPredictSectorsPerRequest(t *testing.T) {
	tests := []struct {
		elemBytes int
		pattern   string
		want      float64
	}{
		{1, "sequential", 1}, {2, "sequential", 2}, {4, "sequential", 4}, {8, "sequential", 8}, {16, "sequential", 16},
		{4, "offset:1", 5}, {4, "offset:8", 4}, {4, "offset:9", 5}, {8, "offset:1", 9}, {16, "offset:1", 17},
		{4, "stride:2", 8}, {4, "stride:3", 12}, {4, "stride:7", 28}, {4, "stride:8", 32}, {4, "stride:100", 32},
		{8, "stride:2", 16}, {8, "stride:4", 32}, {4, "uniform", 1}, {16, "uniform", 1},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			p, _ := ParsePattern(tt.pattern)
			got, err := Predict("8.0", tt.elemBytes, 32, p)
			if err != nil {
				t.Fatal(err)
			}
			if got.SectorsPerRequest != tt.want {
				t.Errorf("%d-byte %s: got %v sectors/request, want %v", tt.elemBytes, tt.pattern, got.SectorsPerRequest, tt.want)
			}
		})
	}
}

// Large launches walk warps through the memo; the counts scale linearly.
func TestPredictLarge(t *testing.T) {
	p, err := Predict("9.0", 4, 1<<24, Pattern{Kind: Stride, Stride: 3})
	if err != nil {
		t.Fatal(err)
	}
	warps := float64(1 << 19)
	if p.Requests != warps || p.L2Sectors != 12*warps || p.L1Transactions != 3*warps {
		t.Errorf("stride 3 over 2^24 threads: got %v requests, %v sectors, %v lines, want %v, %v, %v",
			p.Requests, p.L2Sectors, p.L1Transactions, warps, 12*warps, 3*warps)
	}
}

func TestIdealSectors(t *testing.T) {
	tests := []struct {
		elemBytes, threads float64
		want               Ideal
	}{
		// Pearson: floats 312.5 (profiler: 313 with the partial warp), 1250.
		{4, 10000, Ideal{L1: 312.5, L2: 1250, L1PerWarp: 1, L2PerWarp: 4}},
		{8, 10000, Ideal{L1: 625, L2: 2500, L1PerWarp: 2, L2PerWarp: 8}},
		{1, 32, Ideal{L1: 0.25, L2: 1, L1PerWarp: 1, L2PerWarp: 1}},
		{16, 64, Ideal{L1: 8, L2: 32, L1PerWarp: 4, L2PerWarp: 16}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.elemBytes), func(t *testing.T) {
			if got := IdealSectors(tt.elemBytes, tt.threads); got != tt.want {
				t.Errorf("IdealSectors(%v, %v): got %+v, want %+v", tt.elemBytes, tt.threads, got, tt.want)
			}
		})
	}
}

func TestParsePattern(t *testing.T) {
	tests := []struct {
		in   string
		want Pattern
	}{
		{"sequential", Pattern{Kind: Sequential}},
		{" Sequential ", Pattern{Kind: Sequential}},
		{"offset:3", Pattern{Kind: Offset, Offset: 3}},
		{"offset:0", Pattern{Kind: Offset}},
		{"stride:32", Pattern{Kind: Stride, Stride: 32}},
		{"UNIFORM", Pattern{Kind: Uniform}},
		{"random", Pattern{Kind: Random}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParsePattern(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("ParsePattern(%q): got %+v, %v, want %+v", tt.in, got, err, tt.want)
			}
			if rt, err := ParsePattern(got.String()); err != nil || rt != got {
				t.Errorf("ParsePattern(%q.String() = %q): got %+v, %v", tt.in, got.String(), rt, err)
			}
		})
	}
}

func TestParsePatternError(t *testing.T) {
	for _, in := range []string{"", "seq", "offset", "offset:", "offset:-1", "stride:0", "stride:x", "random:3", "stride:1:2"} {
		_, err := ParsePattern(in)
		if err == nil {
			t.Errorf("ParsePattern(%q): got no error", in)
		} else if !strings.HasPrefix(err.Error(), "parsing pattern") {
			t.Errorf("ParsePattern(%q): error %q does not name the stage", in, err)
		}
	}
}

func TestPredictError(t *testing.T) {
	tests := []struct {
		name      string
		cc        string
		elemBytes int
		threads   int
		p         Pattern
		opt       Options
	}{
		{"bad cc", "x", 4, 32, Pattern{}, Options{}},
		{"cc 4.0", "4.0", 4, 32, Pattern{}, Options{}},
		{"elem size 3", "7.0", 3, 32, Pattern{}, Options{}},
		{"elem size 32", "7.0", 32, 32, Pattern{}, Options{}},
		{"no threads", "7.0", 4, 0, Pattern{}, Options{}},
		{"negative stride", "7.0", 4, 32, Pattern{Kind: Stride, Stride: -1}, Options{}},
		{"negative offset", "7.0", 4, 32, Pattern{Kind: Offset, Offset: -1}, Options{}},
		{"unknown kind", "7.0", 4, 32, Pattern{Kind: 9}, Options{}},
		{"L1 on CC 1.3", "1.3", 4, 32, Pattern{}, Options{L1: L1On}},
		{"random over too few", "7.0", 4, 32, Pattern{Kind: Random}, Options{Elements: 16}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := PredictWith(tt.cc, tt.elemBytes, tt.threads, tt.p, tt.opt)
			if err == nil {
				t.Errorf("%s: got no error", tt.name)
			} else if !strings.HasPrefix(err.Error(), "predict: ") {
				t.Errorf("%s: error %q does not name the stage", tt.name, err)
			}
		})
	}
}

// Random on other rules, and over a larger array than the launch.
func TestPredictRandomRules(t *testing.T) {
	// L1 off on Fermi: scattered accesses cost ~32 sectors per warp
	// instead of ~32 lines (Harris).
	on, _ := PredictWith("2.0", 4, 32, Pattern{Kind: Random}, Options{Elements: 1 << 20})
	off, _ := PredictWith("2.0", 4, 32, Pattern{Kind: Random}, Options{L1: L1Off, Elements: 1 << 20})
	if on.Bytes < 3.9*off.Bytes {
		t.Errorf("random over 1M floats: got L1-on %v B vs L1-off %v B, want about 4×", on.Bytes, off.Bytes)
	}
	if !within(off.Transactions, 32, 0.01) {
		t.Errorf("random over 1M floats, L1 off: got %v transactions, want ~32", off.Transactions)
	}
	// CC 1.3 over a huge array: 16 transactions of 32 B per half-warp.
	p, _ := PredictWith("1.3", 4, 32, Pattern{Kind: Random}, Options{Elements: 1 << 24})
	if !within(p.Transactions, 32, 0.001) || !within(p.Bytes, 32*32, 0.001) {
		t.Errorf("CC 1.3 random over 16M floats: got %v transactions, %v B, want ~32, ~1024", p.Transactions, p.Bytes)
	}
	// CC 1.3 random over exactly one half-warp's 64 B: always one 64-B
	// transaction per half-warp.
	p, _ = PredictWith("1.3", 4, 16, Pattern{Kind: Random}, Options{Elements: 16})
	if math.Abs(p.Transactions-1) > 1e-12 || math.Abs(p.Bytes-64) > 1e-9 {
		t.Errorf("CC 1.3 random permutation of 16 floats: got %v transactions, %v B, want 1, 64", p.Transactions, p.Bytes)
	}
}
