package rules_test

import (
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/rules"
)

// calibPair is one broken kernel and its fix, captured in one ncu report
// (fixtures/calib, sources in fixtures/gen/calib.cu).
type calibPair struct {
	broken, fixed string // kernel names as ncu prints them (demangled)
	what          string // what the fix changes
}

var calibPairs = []calibPair{
	{"void strideCopy<2>(float *, const float *)", "void strideCopy<1>(float *, const float *)", "stride 8 B → 4 B"},
	{"void strideCopy<4>(float *, const float *)", "void strideCopy<1>(float *, const float *)", "stride 16 B → 4 B"},
	{"void strideCopy<8>(float *, const float *)", "void strideCopy<1>(float *, const float *)", "stride 32 B → 4 B"},
	{"void strideCopy<16>(float *, const float *)", "void strideCopy<1>(float *, const float *)", "stride 64 B → 4 B"},
	{"void strideCopy<32>(float *, const float *)", "void strideCopy<1>(float *, const float *)", "stride 128 B → 4 B"},
	{"void offsetCopyF<1>(float *, const float *)", "void offsetCopyF<0>(float *, const float *)", "float copy misaligned by 4 B"},
	{"void offsetCopyD<1>(double *, const double *)", "void offsetCopyD<0>(double *, const double *)", "double copy misaligned by 8 B"},
	{"aosUpdateX(Particle *, float, int)", "soaUpdateX(float *, const float *, float, int)", "one field of a 32 B struct → SoA"},
	{"aos3Scale(float3 *, float, int)", "soa3Scale(float *, float *, float *, float, int)", "float3 → SoA (every field used)"},
	{"transposeNaive(float *, const float *)", "transposePadded(float *, const float *)", "naive → padded tile transpose"},
	{"transposeTiled(float *, const float *)", "transposePadded(float *, const float *)", "tile[32][32] → tile[32][33]"},
	{"void sharedStrideLoop<2>(float *, const float *, int)", "void sharedStrideLoop<1>(float *, const float *, int)", "2-way conflict, shared-bound"},
	{"void sharedStrideLoop<4>(float *, const float *, int)", "void sharedStrideLoop<1>(float *, const float *, int)", "4-way conflict, shared-bound"},
	{"void sharedStrideLoop<8>(float *, const float *, int)", "void sharedStrideLoop<1>(float *, const float *, int)", "8-way conflict, shared-bound"},
	{"void sharedStrideLoop<32>(float *, const float *, int)", "void sharedStrideLoop<33>(float *, const float *, int)", "32-way conflict → stride 33"},
	{"void sharedStrideCopy<2>(float *, const float *)", "void sharedStrideCopy<1>(float *, const float *)", "2-way conflict, DRAM-bound"},
	{"void sharedStrideCopy<8>(float *, const float *)", "void sharedStrideCopy<1>(float *, const float *)", "8-way conflict, DRAM-bound"},
	{"void sharedStrideCopy<32>(float *, const float *)", "void sharedStrideCopy<1>(float *, const float *)", "32-way conflict, DRAM-bound"},
	{"reduceInterleaved(float *, const float *)", "reduceSequential(float *, const float *)", "interleaved → sequential reduction"},
	{"matvecThreadPerRow(float *, const float *, const float *, int, int)", "matvecWarpPerRow(float *, const float *, const float *, int, int)", "thread per row → warp per row"},
	{"saxpySmallWorkOneBlock(int, float, const float *, float *)", "saxpySmallWorkFullGrid(int, float, const float *, float *)", "128 elements: 1 block → 132"},
	{"saxpyBigWorkFewBlocks(int, float, const float *, float *)", "saxpyBigWorkFullGrid(int, float, const float *, float *)", "16 M elements: 8 blocks → 65536"},
	{"matmulNaive(float *, const float *, const float *, int)", "matmulTiled(float *, const float *, const float *, int)", "naive → 16×16 tiled matmul"},
}

// calibKernel is one kernel of the capture: its launches' median duration
// and the estimated gain of profan's findings (median over launches).
type calibKernel struct {
	dur   []float64
	gains []float64
	rules map[string]float64 // rule → largest gain seen
	// launches are the launches' verdicts, for the gain of the findings
	// a pair's fix addresses (calibRows).
	launches []*analysis.Kernel
	eng      *rules.Engine
}

func calibration(t *testing.T, files ...string) map[string]*calibKernel {
	t.Helper()
	// A capture is read once per test binary: the held-out tests and
	// TestNoUnmarkedZero read the same pages, and the callers only read
	// what comes back.
	e, _ := calibMemo.LoadOrStore(strings.Join(files, "\x00"), &calibEntry{})
	c := e.(*calibEntry)
	c.once.Do(func() { c.ks, c.err = readCalibration(files) })
	if c.err != nil {
		t.Fatal(c.err)
	}
	return c.ks
}

// calibMemo holds calibration's reads by their files.
var calibMemo sync.Map

type calibEntry struct {
	once sync.Once
	ks   map[string]*calibKernel
	err  error
}

// readCalibration analyses every launch of the files with every rule.
func readCalibration(files []string) (map[string]*calibKernel, error) {
	eng, err := rules.NewEngine("all")
	if err != nil {
		return nil, err
	}
	out := map[string]*calibKernel{}
	_, err = ingest.ReadFiles(files, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		a := analysis.Analyze(run, k, analysis.Options{Rules: eng})
		c := out[k.DisplayName()]
		if c == nil {
			c = &calibKernel{rules: map[string]float64{}}
			out[k.DisplayName()] = c
		}
		if d, ok := a.Value("duration"); ok {
			c.dur = append(c.dur, d)
		}
		c.gains = append(c.gains, eng.KernelGain(a, a.Findings))
		c.launches, c.eng = append(c.launches, a), eng
		for _, f := range a.Findings {
			if !math.IsNaN(f.Gain) && f.Gain > c.rules[f.Rule] {
				c.rules[f.Rule] = f.Gain
			} else if _, ok := c.rules[f.Rule]; !ok {
				c.rules[f.Rule] = f.Gain
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// calibRow is one line of the calibration table.
type calibRow struct {
	pair               calibPair
	tBroken, tFixed    float64 // median durations, seconds
	measured, estimate float64
	rules              string
}

func calibTable(t *testing.T, files ...string) []calibRow {
	return calibRows(t, calibration(t, files...), calibPairs)
}

// pairGain is the estimated gain of the broken kernel's findings that the
// fixed twin does not repeat (median over launches): a finding the twin
// reports with the same gain names a fix the pair does not make (a
// shared-memory request both builds share), which the pair cannot measure.
//
// So does a finding the twin repeats whose fix would still save the twin
// a tenth of its time or more and take both to about the same time
// (within 5 % of the broken kernel's): the twin made part of that fix
// and still lacks the rest (a naive matmul's register tile, which its
// shared-memory-tiled twin still has to make; a small grid both launch),
// so the pair measures another fix than that finding's.
func pairGain(b, f *calibKernel) float64 {
	tb, tf := median(b.dur), median(f.dur)
	var gs []float64
	for _, a := range b.launches {
		var fs []profan.Finding
		for _, x := range a.Findings {
			g, ok := f.rules[x.Rule]
			rest := g >= 0.1 && math.Abs(tb*(1-x.Gain)-tf*(1-g)) <= 0.05*tb
			if !ok || !(math.Abs(g-x.Gain) <= 0.05 || rest) {
				fs = append(fs, x)
			}
		}
		gs = append(gs, b.eng.KernelGain(a, fs))
	}
	return median(gs)
}

// calibRows measures each pair against the kernels of one capture: median
// durations, the measured gain and the estimated one with its findings.
func calibRows(t *testing.T, ks map[string]*calibKernel, pairs []calibPair) []calibRow {
	t.Helper()
	var rows []calibRow
	for _, p := range pairs {
		b, f := ks[p.broken], ks[p.fixed]
		if b == nil || f == nil || len(b.dur) == 0 || len(f.dur) == 0 {
			t.Fatalf("pair %s → %s: kernel missing from the capture", p.broken, p.fixed)
		}
		r := calibRow{pair: p, tBroken: median(b.dur), tFixed: median(f.dur), estimate: pairGain(b, f)}
		r.measured = 1 - r.tFixed/r.tBroken
		var names []string
		for rule, g := range b.rules {
			if math.IsNaN(g) {
				continue
			}
			names = append(names, fmt.Sprintf("%s %.2f", rule, g))
		}
		sort.Strings(names)
		r.rules = strings.Join(names, ", ")
		rows = append(rows, r)
	}
	return rows
}

// TestCalibration holds profan's estimated gains against the measured
// speedups of fixed kernels: 1 − t_fixed/t_broken from the median durations
// of the three launches of each kernel in one H100 report, against the
// estimated gain of profan's findings on the broken kernel, read from the
// details page with the source page (the table of docs/calibration.md), from the raw
// page with it, and from the raw page alone
// (Engine.KernelGain: the fixes of all its findings together, as the
// fixed kernel applies them).
func TestCalibration(t *testing.T) {
	skipShort(t)
	for _, tc := range []struct {
		name   string
		files  []string
		readme bool
	}{
		{"details+source", []string{"../../fixtures/calib/calib.details.csv.gz", "../../fixtures/calib/calib.source.cuda-sass.csv.gz"}, true},
		{"raw+source", []string{"../../fixtures/calib/calib.raw.csv.gz", "../../fixtures/calib/calib.source.cuda-sass.csv.gz"}, false},
		{"raw", []string{"../../fixtures/calib/calib.raw.csv.gz"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := calibTable(t, tc.files...)
			sum, worst := 0.0, 0.0
			for _, r := range rows {
				e := math.Abs(r.estimate - r.measured)
				sum += e
				worst = math.Max(worst, e)
				flag := ""
				if e > 0.2 {
					flag = "  <-- off by more than 0.2"
				}
				t.Logf("%-40.40s %8.2f %8.2f  measured %5.2f  estimated %5.2f  |err| %.2f  [%s]%s", r.pair.broken, r.tBroken*1e6, r.tFixed*1e6, r.measured, r.estimate, e, r.rules, flag)
			}
			mean := sum / float64(len(rows))
			t.Logf("%d pairs: mean |error| %.3f, worst %.3f", len(rows), mean, worst)
			if len(rows) < 15 {
				t.Errorf("%d pairs, want at least 15", len(rows))
			}
			if mean > 0.08 || worst > 0.2 {
				t.Errorf("calibration: mean |error| %.3f (want ≤ 0.08), worst %.3f (want ≤ 0.2)", mean, worst)
			}
			if tc.readme {
				checkReadmeCalibration(t, rows, mean, worst)
			}
		})
	}
}

// calibDoc holds the calibration table.
const calibDoc = "../../docs/calibration.md"

var updateCalibration = flag.Bool("update-calibration", false, "rewrite the calibration table in docs/calibration.md")

// checkReadmeCalibration holds docs/calibration.md's table to the one the
// test computes (go test ./internal/rules -run TestCalibration -update-calibration
// rewrites it).
func checkReadmeCalibration(t *testing.T, rows []calibRow, mean, worst float64) {
	t.Helper()
	var b strings.Builder
	b.WriteString("| broken kernel | fixed kernel | what the fix changes | t broken | t fixed | measured gain | estimated gain | findings on the broken kernel |\n")
	b.WriteString("|---|---|---|---:|---:|---:|---:|---|\n")
	short := func(s string) string {
		s = strings.TrimPrefix(s, "void ")
		if i := strings.IndexByte(s, '('); i > 0 {
			s = s[:i]
		}
		return "`" + s + "`"
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %.1f µs | %.1f µs | %.2f | %.2f | %s |\n", short(r.pair.broken), short(r.pair.fixed), r.pair.what,
			r.tBroken*1e6, r.tFixed*1e6, r.measured, r.estimate, r.rules)
	}
	fmt.Fprintf(&b, "\n%d pairs: mean |estimated − measured| %.3f, worst %.3f.\n", len(rows), mean, worst)
	const begin, end = "<!-- calibration:begin -->\n", "<!-- calibration:end -->"
	readme, err := os.ReadFile(calibDoc)
	if err != nil {
		t.Fatal(err)
	}
	i, j := strings.Index(string(readme), begin), strings.Index(string(readme), end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q block", calibDoc, strings.TrimSpace(begin), end)
	}
	got := string(readme[i+len(begin) : j])
	if got == b.String() {
		return
	}
	if *updateCalibration {
		out := string(readme[:i+len(begin)]) + b.String() + string(readme[j:])
		if err := os.WriteFile(calibDoc, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf(calibDoc + " calibration table is out of date: run go test ./internal/rules -run TestCalibration -update-calibration")
}

// TestCalibrationAtomics holds atomic-serialization's gain to measured
// fixes, each broken kernel and its fix in one H100 report:
// fixtures/atomics (a sum of 4 M floats with one atomicAdd on one address
// per thread, per warp, per block) and fixtures/variants (per warp with
// shuffles or cooperative groups, per block with CUB). Histograms into 4
// and 4096 bins get the finding too: privatising such histograms measured
// 0.98 and 0.79 in fixtures/sweep (TestSweepCalibration).
func TestCalibrationAtomics(t *testing.T) {
	skipShort(t)
	for _, tc := range []struct {
		file      string
		fixed     string
		broken    []string
		contended []string
		tBrokenUs []float64 // the broken kernels' median durations
	}{
		{"../../fixtures/atomics/atomics.raw.csv.gz", "sumAtomicPerBlock(float *, const float *, int)",
			[]string{"sumAtomicPerThread(float *, const float *, int)", "sumAtomicPerWarp(float *, const float *, int)"},
			[]string{"void histogram<4>(unsigned int *, const float *, int)", "void histogram<4096>(unsigned int *, const float *, int)"},
			[]float64{7360.7, 232.4}},
		{"../../fixtures/variants/variants.raw.csv.gz", "cubBlockReduce(float *, const float *, int)",
			[]string{"warpReduceShfl(float *, const float *, int)", "cgReduce(float *, const float *, int)"}, nil,
			[]float64{232.4, 232.4}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			ks := calibration(t, tc.file)
			f := ks[tc.fixed]
			if f == nil {
				t.Fatalf("%s: %s missing", tc.file, tc.fixed)
			}
			for i, broken := range tc.broken {
				b := ks[broken]
				if b == nil {
					t.Fatalf("%s: %s missing", tc.file, broken)
				}
				if got := median(b.dur) * 1e6; math.Abs(got-tc.tBrokenUs[i]) > 1 {
					t.Errorf("%s: %.1f µs, the capture says %.1f", broken, got, tc.tBrokenUs[i])
				}
				measured := 1 - median(f.dur)/median(b.dur)
				estimate := median(b.gains)
				t.Logf("%s → %s: measured %.3f, estimated %.3f [%v]", broken, tc.fixed, measured, estimate, b.rules)
				if _, ok := b.rules["atomic-serialization"]; !ok {
					t.Errorf("%s: no atomic-serialization finding", broken)
				}
				if math.Abs(estimate-measured) > 0.05 {
					t.Errorf("%s: estimated gain %.3f, measured %.3f", broken, estimate, measured)
				}
			}
			for _, name := range tc.contended {
				if k := ks[name]; k == nil {
					t.Errorf("%s missing", name)
				} else if _, ok := k.rules["atomic-serialization"]; !ok {
					t.Errorf("%s: contended histogram atomics not reported", name)
				}
			}
		})
	}
}
