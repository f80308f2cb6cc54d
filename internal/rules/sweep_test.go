package rules_test

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// sweepPair is one broken kernel and its fix in fixtures/sweep (sources in
// fixtures/gen/sweep.cu), with the set it belongs to: the split into FIT
// and HELD-OUT was fixed in sweep.cu before the capture.
type sweepPair struct {
	calibPair
	heldOut bool
}

func sw(broken, fixed, what string, heldOut bool) sweepPair {
	return sweepPair{calibPair{broken, fixed, what}, heldOut}
}

const (
	agU   = "void atomicGlobal<unsigned int, %s, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)"
	asU   = "void atomicShared<unsigned int, %s>(T1 *, const unsigned int *, unsigned int, int)"
	fit   = false
	holdO = true
)

var sweepPairs = []sweepPair{
	sw("void atomicGlobal<unsigned int, 1, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<unsigned int, 1>(T1 *, const unsigned int *, unsigned int, int)", "int atomics on 1 address → privatised", fit),
	sw("void atomicGlobal<unsigned int, 8, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<unsigned int, 8>(T1 *, const unsigned int *, unsigned int, int)", "int atomics on 8 addresses → privatised", fit),
	sw("void atomicGlobal<unsigned int, 256, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<unsigned int, 256>(T1 *, const unsigned int *, unsigned int, int)", "int atomics on 256 addresses → privatised", fit),
	sw("void atomicGlobal<unsigned int, 1, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "atomicPerBlock(unsigned int *, const unsigned int *, unsigned int, int)", "int atomics on 1 address → one per block", fit),
	sw("atomicPerWarp(unsigned int *, const unsigned int *, unsigned int, int)", "atomicPerBlock(unsigned int *, const unsigned int *, unsigned int, int)", "one atomic per warp → per block", fit),
	sw("void atomicGlobal<unsigned int, 2, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<unsigned int, 2>(T1 *, const unsigned int *, unsigned int, int)", "int atomics on 2 addresses → privatised", holdO),
	sw("void atomicGlobal<unsigned int, 32, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<unsigned int, 32>(T1 *, const unsigned int *, unsigned int, int)", "int atomics on 32 addresses → privatised", holdO),
	sw("void atomicGlobal<unsigned int, 4096, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<unsigned int, 4096>(T1 *, const unsigned int *, unsigned int, int)", "int atomics on 4096 addresses → privatised", holdO),
	sw("void atomicGlobal<float, 1, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<float, 1>(T1 *, const unsigned int *, unsigned int, int)", "float atomics on 1 address → privatised", holdO),
	sw("void atomicGlobal<unsigned int, 1, 1>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<unsigned int, 1>(T1 *, const unsigned int *, unsigned int, int)", "int atomics, value used, 1 address → privatised", holdO),
	sw("histogramSkewed(unsigned int *, const unsigned int *, int)", "histogramSkewedPrivate(unsigned int *, const unsigned int *, int)", "skewed 256-bin histogram → privatised", holdO),

	sw("void localArray<8>(unsigned int *, const unsigned int *, int)", "void registerArray<8>(unsigned int *, const unsigned int *, int)", "h[8] indexed by data → registers", fit),
	sw("void localArray<32>(unsigned int *, const unsigned int *, int)", "void registerArray<32>(unsigned int *, const unsigned int *, int)", "h[32] indexed by data → registers", fit),
	sw("void localArray<4>(unsigned int *, const unsigned int *, int)", "void registerArray<4>(unsigned int *, const unsigned int *, int)", "h[4] indexed by data → registers", holdO),
	sw("void localArray<16>(unsigned int *, const unsigned int *, int)", "void registerArray<16>(unsigned int *, const unsigned int *, int)", "h[16] indexed by data → registers", holdO),
	sw("void spillAcc<8>(float *, const float *, int)", "void spillAcc<1>(float *, const float *, int)", "spills at 32 registers → none", fit),
	sw("void spillAcc<6>(float *, const float *, int)", "void spillAcc<1>(float *, const float *, int)", "spills at 40 registers → none", holdO),

	sw("void divergeWays<2, 0>(float *, const float *, int)", "void divergeWays<2, 1>(float *, const float *, int)", "2-way divergence → by warp", fit),
	sw("void divergeWays<32, 0>(float *, const float *, int)", "void divergeWays<32, 1>(float *, const float *, int)", "32-way divergence → by warp", fit),
	sw("void divergeWays<4, 0>(float *, const float *, int)", "void divergeWays<4, 1>(float *, const float *, int)", "4-way divergence → by warp", holdO),
	sw("void divergeData<0>(float *, const float *, const unsigned int *, int)", "void divergeData<1>(float *, const float *, const unsigned int *, int)", "branch on random bits → sorted", holdO),
	sw("reduceModulo(float *, const float *)", "reduceStridedIndex(float *, const float *)", "t % (2k) → strided index", fit),
	sw("reduceStridedIndex(float *, const float *)", "reduceSequential(float *, const float *)", "strided index → sequential", holdO),
	sw("reduceModulo(float *, const float *)", "reduceSequential(float *, const float *)", "t % (2k) → sequential", holdO),
	sw("void intDivMod<0, 64>(unsigned int *, const unsigned int *, unsigned int, unsigned int)", "void intDivMod<1, 64>(unsigned int *, const unsigned int *, unsigned int, unsigned int)", "/ and % by a power of two → shift, mask", fit),
	sw("void intDivMod<0, 16>(unsigned int *, const unsigned int *, unsigned int, unsigned int)", "void intDivMod<1, 16>(unsigned int *, const unsigned int *, unsigned int, unsigned int)", "/ and % (fewer) → shift, mask", holdO),

	sw("void strideCopySmall<2>(float *, const float *)", "void strideCopySmall<1>(float *, const float *)", "64 Ki threads: stride 8 B → 4 B", fit),
	sw("void strideCopySmall<8>(float *, const float *)", "void strideCopySmall<1>(float *, const float *)", "64 Ki threads: stride 32 B → 4 B", fit),
	sw("void strideCopySmall<4>(float *, const float *)", "void strideCopySmall<1>(float *, const float *)", "64 Ki threads: stride 16 B → 4 B", holdO),
	sw("void strideCopySmall<32>(float *, const float *)", "void strideCopySmall<1>(float *, const float *)", "64 Ki threads: stride 128 B → 4 B", holdO),
	sw("void strideCopyLarge<4>(float *, const float *)", "void strideCopyLarge<1>(float *, const float *)", "16 Mi threads: stride 16 B → 4 B", fit),
	sw("void strideCopyLarge<32>(float *, const float *)", "void strideCopyLarge<1>(float *, const float *)", "16 Mi threads: stride 128 B → 4 B", fit),
	sw("void strideCopyLarge<2>(float *, const float *)", "void strideCopyLarge<1>(float *, const float *)", "16 Mi threads: stride 8 B → 4 B", holdO),
	sw("void strideCopyLarge<8>(float *, const float *)", "void strideCopyLarge<1>(float *, const float *)", "16 Mi threads: stride 32 B → 4 B", holdO),
	sw("offsetCopySmall(float *, const float *)", "void strideCopySmall<1>(float *, const float *)", "64 Ki threads: 4 B misaligned", fit),
	sw("offsetCopyLarge(float *, const float *)", "void strideCopyLarge<1>(float *, const float *)", "16 Mi threads: 4 B misaligned", holdO),
	sw("matmulNaive(float *, const float *, const float *, int)", "matmulTiled(float *, const float *, const float *, int)", "n = 1024: naive → 16×16 tiles", holdO),
	sw("void tailWave<1>(float *, const float *, int, int)", "void tailWave<0>(float *, const float *, int, int)", "1⅛ waves → 1", fit),
	sw("void tailWave<2>(float *, const float *, int, int)", "void tailWave<0>(float *, const float *, int, int)", "1½ waves → 1", holdO),
	sw("transposeNaive(float *, const float *)", "transposeTiled(float *, const float *)", "4096²: naive → tiled", holdO),
	sw("transposeTiled(float *, const float *)", "transposePadded(float *, const float *)", "4096²: tile[32][32] → [32][33]", holdO),
}

// sweepClass names the class a pair's fix belongs to, for the classes
// whose rules were fitted on the sweep: their pairs are held to 0.1 each.
func sweepClass(what string) string {
	switch {
	case strings.Contains(what, "atomic") || strings.Contains(what, "histogram"):
		return "atomics"
	case strings.Contains(what, "indexed by data") || strings.Contains(what, "spills"):
		return "local memory"
	case strings.Contains(what, "divergence") || strings.Contains(what, "random bits"):
		return "divergence"
	}
	return ""
}

// TestSweepCalibration holds profan's estimated gains on the class sweep
// (fixtures/sweep, raw and source pages) against the measured ones, in two
// tables: the pairs the rules were fitted on and the held-out ones
// (docs/calibration.md keeps both; go test ./internal/rules -run
// TestSweepCalibration -update-calibration rewrites them). Pairs of the
// classes fitted on the sweep (atomics, local memory, divergence) must be
// within 0.1; the others are reported as they stand.
func TestSweepCalibration(t *testing.T) {
	skipShort(t)
	ks := calibration(t, "../../fixtures/sweep/sweep.raw.csv.gz", "../../fixtures/sweep/sweep.source.cuda-sass.csv.gz")
	var doc strings.Builder
	for _, set := range []bool{fit, holdO} {
		name, ps := part(sweepPairs, set, "HELD-OUT")
		fmt.Fprintf(&doc, "%s pairs:\n\n%s", name, pairTableHeader)
		pairRows(t, &doc, ks, ps, name, func(r calibRow, e float64) {
			if c := sweepClass(r.pair.what); c != "" && e > 0.1 {
				t.Errorf("%s (%s): estimated %.2f, measured %.2f", r.pair.what, c, r.estimate, r.measured)
			}
		})
		doc.WriteString("\n")
	}
	checkDocBlock(t, "../../docs/calibration.md", "sweep", doc.String())
}

// part returns the pairs of one part, FIT or held out, and its name
// (held names the held-out part).
func part(pairs []sweepPair, heldOut bool, held string) (string, []calibPair) {
	name := "FIT"
	if heldOut {
		name = held
	}
	var ps []calibPair
	for _, p := range pairs {
		if p.heldOut == heldOut {
			ps = append(ps, p.calibPair)
		}
	}
	return name, ps
}

// pairRows writes the table rows of pairs measured on ks and the line
// that sums them up under name, calls each with every row and its
// |estimated − measured|, and returns the mean and the worst of those.
func pairRows(t *testing.T, doc *strings.Builder, ks map[string]*calibKernel, pairs []calibPair, name string, each func(calibRow, float64)) (mean, worst float64) {
	t.Helper()
	sum, n := 0.0, 0
	for _, r := range calibRows(t, ks, pairs) {
		e := writePairRow(doc, r)
		t.Logf("pair %s %s: measured %.3f, estimated %.3f", name, shortName(r.pair.broken), r.measured, r.estimate)
		sum += e
		worst = math.Max(worst, e)
		n++
		if each != nil {
			each(r, e)
		}
	}
	mean = sum / float64(n)
	fmt.Fprintf(doc, "\n%s: %d pairs, mean |estimated − measured| %.3f, worst %.3f.\n", name, n, mean, worst)
	t.Logf("%s: %d pairs, mean |error| %.3f, worst %.3f", name, n, mean, worst)
	return mean, worst
}

// pairTableHeader heads the tables writePairRow fills.
const pairTableHeader = "| broken kernel | fixed kernel | what the fix changes | t broken | t fixed | measured gain | estimated gain | findings on the broken kernel |\n|---|---|---|---:|---:|---:|---:|---|\n"

// writePairRow writes one pair's row and returns |estimated − measured|.
func writePairRow(doc *strings.Builder, r calibRow) float64 {
	fmt.Fprintf(doc, "| %s | %s | %s | %.1f µs | %.1f µs | %.2f | %.2f | %s |\n", shortName(r.pair.broken), shortName(r.pair.fixed), r.pair.what,
		r.tBroken*1e6, r.tFixed*1e6, r.measured, r.estimate, r.rules)
	return math.Abs(r.estimate - r.measured)
}

func shortName(s string) string {
	s = strings.TrimPrefix(s, "void ")
	if i := strings.IndexByte(s, '('); i > 0 {
		s = s[:i]
	}
	return "`" + s + "`"
}

// checkDocBlock holds the block between <!-- NAME:begin --> and
// <!-- NAME:end --> of a document to want (-update-calibration rewrites it).
func checkDocBlock(t *testing.T, path, name, want string) {
	t.Helper()
	begin, end := "<!-- "+name+":begin -->\n", "<!-- "+name+":end -->"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i, j := strings.Index(string(doc), begin), strings.Index(string(doc), end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q block", path, strings.TrimSpace(begin), end)
	}
	if string(doc[i+len(begin):j]) == want {
		return
	}
	if *updateCalibration {
		out := string(doc[:i+len(begin)]) + want + string(doc[j:])
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the %s table is out of date: run go test ./internal/rules -run TestSweepCalibration -update-calibration", path, name)
}

// TestSweepDetailsNoTile holds the sweep's float shared-memory atomics on
// one address (a CAS loop of LDS and FADD) to no register-tile finding on
// the details page, as on the raw one: its FADDs, counted once per
// instruction of the source page, are no FMA kernel's.
func TestSweepDetailsNoTile(t *testing.T) {
	skipShort(t)
	k := "void atomicShared<float, 1>(T1 *, const unsigned int *, unsigned int, int)"
	for _, page := range []string{"raw", "details"} {
		checkExpectations(t, []string{"../../fixtures/sweep/sweep." + page + ".csv.gz", "../../fixtures/sweep/sweep.source.cuda-sass.csv.gz"},
			[]expectation{{kernel: k, forbid: []string{"register-tile", "tile-shared-memory"}}})
	}
}

// TestSweepSpillsDetails holds the sweep's register spills to one
// local-memory verdict on the raw and the details page: the details
// page's Local Memory Spilling Request Overhead names them spills (100 %
// of the local requests), priced as on the raw page (0.96, 0.92; 0.83
// each, as a data-indexed array, before it was read).
func TestSweepSpillsDetails(t *testing.T) {
	skipShort(t)
	src := "../../fixtures/sweep/sweep.source.cuda-sass.csv.gz"
	raw := calibration(t, "../../fixtures/sweep/sweep.raw.csv.gz", src)
	det := calibration(t, "../../fixtures/sweep/sweep.details.csv.gz", src)
	for _, k := range []string{"void spillAcc<8>(float *, const float *, int)", "void spillAcc<6>(float *, const float *, int)"} {
		want, okR := raw[k].rules["local-memory"]
		got, okD := det[k].rules["local-memory"]
		if !okR || !okD || math.Abs(got-want) > 0.02 {
			t.Errorf("%s: local-memory %.2f on the details page (found %v), %.2f on the raw page (found %v)", shortName(k), got, okD, want, okR)
		}
	}
	want := []expectation{{kernel: "void spillAcc<8>(float *, const float *, int)", require: []string{"local-memory"}, say: []string{"register spills"}}}
	checkExpectations(t, []string{"../../fixtures/sweep/sweep.details.csv.gz", src}, want)
}
