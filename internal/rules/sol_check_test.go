package rules_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/rules"
)

// solCheckPair is one broken kernel of a held-out set beside its fixed
// twin, with the rules whose findings name the fix (comma-separated, each
// required; "" for none: no rule is expected to price the fix), and the
// rules the broken kernel must not get.
type solCheckPair struct {
	calibPair
	rule      string
	forbidden []string
}

// solCheckPairs are the held-out set of the speed-of-light classes
// (sources in fixtures/gen/sol_check.cu and sol_triton.py check):
// captured with fixtures/sol but read only after the fit on it.
var solCheckPairs = []solCheckPair{
	{calibPair{"void invertBytes<1>(unsigned char *, const unsigned char *, int)", "void invertBytes<16>(unsigned char *, const unsigned char *, int)", "byte invert: 1-byte accesses → uint4"}, "narrow-access", nil},
	{calibPair{"void scaleBf16<1>(__nv_bfloat16 *, const __nv_bfloat16 *, float, float, int)", "void scaleBf16<8>(__nv_bfloat16 *, const __nv_bfloat16 *, float, float, int)", "bf16 scale: 2-byte accesses → uint4"}, "narrow-access", nil},
	{calibPair{"matmul32(float *, const float *, const float *, int)", "void matmulReg<4, 4>(float *, const float *, const float *, int)", "32×32-tile matmul, one output per thread → 4×4 register tile"}, "register-tile", nil},
	{calibPair{"void polyMap<1>(float *, const float *, int, int, int)", "void polyMap<0>(float *, const float *, int, int, int)", "polynomial map: 4·SMs+2 blocks of 512 → 4·SMs (tail)"}, "small-grid", nil},
	{calibPair{"void polyMap<2>(float *, const float *, int, int, int)", "void polyMap<0>(float *, const float *, int, int, int)", "polynomial map: 6·SMs blocks → 4·SMs"}, "", nil},
	{calibPair{"void sqrtScale<32>(float *, const float *, int)", "void sqrtScale<256>(float *, const float *, int)", "sqrt scale: 32-thread blocks → 256"}, "tiny-blocks", nil},
	{calibPair{"lookupLocal(float *, const unsigned int *, float, float, int)", "lookupShared(float *, const unsigned int *, float, float, int)", "32-entry table per thread in local memory → shared"}, "local-memory", nil},
	{calibPair{"sumLengths(unsigned long long *, const unsigned int *, int)", "sumLengthsBlock(unsigned long long *, const unsigned int *, int)", "64-bit atomicAdd on one address → one per block"}, "atomic-serialization", nil},
	{calibPair{"void embedGather<0>(float4 *, const float4 *, const int *, int)", "void embedGather<1>(float4 *, const float4 *, const int *, int)", "embedding rows gathered at random → in order"}, "uncoalesced-global", nil},
	{calibPair{"void indexMath<unsigned long long>(float *, const float *, T1, T1)", "void indexMath<unsigned int>(float *, const float *, T1, T1)", "i / C, i % C in 64 bits → 32 bits"}, "int-division", nil},
	{calibPair{"relu_b64_w2", "relu_b2048_w4", "Triton ReLU: BLOCK_SIZE=64, num_warps=2 → 2048, 4"}, "tiny-blocks", nil},
	{calibPair{"relu_b256_w1", "relu_b2048_w4", "Triton ReLU: BLOCK_SIZE=256, num_warps=1 → 2048, 4"}, "tiny-blocks", nil},
}

// solCheckFiles are the held-out set's pages: raw and details alike, each
// with its source page.
var solCheckFiles = map[string][]string{
	"raw": {"../../fixtures/sol-check/sol_check.raw.csv.gz", "../../fixtures/sol-check/sol_check.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check/sol_triton_check.raw.csv.gz", "../../fixtures/sol-check/sol_triton_check.source.cuda-sass.csv.gz"},
	"details": {"../../fixtures/sol-check/sol_check.details.csv.gz", "../../fixtures/sol-check/sol_check.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check/sol_triton_check.details.csv.gz", "../../fixtures/sol-check/sol_triton_check.source.cuda-sass.csv.gz"},
}

// TestSolCheck holds profan on the held-out set: on the raw and the
// details page each broken kernel gets its class's finding, with a line
// where the rule's evidence is per instruction, and that finding's gain
// against the fix's measured one (docs/calibration.md, block
// "sol-check", from the raw page). The issue asks for 0.08 and 0.2. The
// set measured 0.087 and 0.284 when first read; after the gather's L2
// lookups and the register tile's waves (fitted on fixtures/sol and the
// older calibration sets) it reads 0.061 and 0.154, and is held to the
// issue's bounds. It is no longer unseen: fixtures/sol-check2 is the
// held-out set captured after that fit.
func TestSolCheck(t *testing.T) {
	skipShort(t)
	heldOut(t, solCheckFiles, solCheckPairs, "sol-check", 0.08, 0.2)
}

// heldOut checks a held-out set's pairs on each page: the required
// findings (with their lines, and in Triton's terms for a Triton kernel),
// none forbidden, a gather named as one, and the gain of the required
// findings against the measured one, the mean and the worst error within
// their bounds; it keeps the raw page's table in docs/calibration.md's
// block.
func heldOut(t *testing.T, files map[string][]string, pairs []solCheckPair, block string, maxMean, maxWorst float64) {
	t.Helper()
	heldOutGaps(t, files, pairs, block, maxMean, maxWorst, nil)
}

// heldOutGaps is heldOut with the gaps its first read found, each
// "kernel rule" (a required finding missing or a forbidden one given,
// kernel as shortName writes it), "kernel rule line" (a required
// finding without its source line), "kernel rule terms" (a Triton
// kernel's required finding not in Triton's terms at a .py line) or
// "kernel uncoalesced-global gather" (a gather not named as one): logged,
// not failed, so that a set read once keeps its verdicts as they were
// written before that read.
func heldOutGaps(t *testing.T, files map[string][]string, pairs []solCheckPair, block string, maxMean, maxWorst float64, gaps []string) {
	t.Helper()
	for _, page := range []string{"raw", "details"} {
		ks := calibration(t, files[page]...)
		var doc strings.Builder
		doc.WriteString("| broken kernel | fixed kernel | what the fix changes | t broken | t fixed | measured gain | finding | estimated gain |\n|---|---|---|---:|---:|---:|---|---:|\n")
		sum, worst := 0.0, 0.0
		// The pairs designed with no rule ("(no rule)" in what the fix
		// changes: an algorithm no counter names) test that the headroom
		// is stated, not a gain; their errors are logged apart as well,
		// so that the mean over the classes profan names shows too.
		ruled, nRuled := 0.0, 0
		for _, p := range pairs {
			b, f := ks[p.broken], ks[p.fixed]
			if b == nil || f == nil {
				t.Fatalf("%s: %s or %s not in the capture", page, p.broken, p.fixed)
			}
			measured := 1 - median(f.dur)/median(b.dur)
			var want []string
			if p.rule != "" {
				want = strings.Split(p.rule, ",")
			}
			var gs []float64
			for _, a := range b.launches {
				gs = append(gs, b.eng.KernelGain(a, heldOutFindings(t, page, a, p, want, gaps)))
			}
			est := median(gs)
			e := math.Abs(est - measured)
			t.Logf("pair %s %s: measured %.3f, estimated %.3f", page, shortName(p.broken), measured, est)
			sum += e
			worst = math.Max(worst, e)
			if !strings.Contains(p.what, "(no rule") {
				ruled += e
				nRuled++
			}
			rule := p.rule
			if rule == "" {
				rule = "none"
			}
			// A description's own "|" (sol-check29's "(time << 32 | event)")
			// would end its cell: escaped, the row keeps its columns.
			fmt.Fprintf(&doc, "| %s | %s | %s | %.1f µs | %.1f µs | %.2f | %s | %.2f |\n", shortName(p.broken), shortName(p.fixed), strings.ReplaceAll(p.what, "|", `\|`),
				median(b.dur)*1e6, median(f.dur)*1e6, measured, strings.ReplaceAll(rule, ",", ", "), est)
		}
		mean := sum / float64(len(pairs))
		fmt.Fprintf(&doc, "\nHELD-OUT (%s page): %d pairs, mean |estimated − measured| %.3f, worst %.3f.\n", page, len(pairs), mean, worst)
		t.Logf("%s: %d pairs, mean |error| %.4f, worst %.4f; %d pairs with a class a rule names (the no-rule pairs left out), mean |error| %.4f", page, len(pairs), mean, worst, nRuled, ruled/float64(max(nRuled, 1)))
		if mean > maxMean || worst > maxWorst {
			t.Errorf("%s: mean |error| %.3f (want ≤ %.2f), worst %.3f (want ≤ %.2f)", page, mean, maxMean, worst, maxWorst)
		}
		if page == "raw" {
			checkDocBlock(t, "../../docs/calibration.md", block, doc.String())
		}
	}
}

// heldOutFindings checks one launch of a pair's broken kernel and returns
// the findings of the rules in want.
func heldOutFindings(t *testing.T, page string, a *analysis.Kernel, p solCheckPair, want, gaps []string) []profan.Finding {
	t.Helper()
	report := func(rule, format string, args ...any) {
		t.Helper()
		if slices.Contains(gaps, strings.Trim(shortName(p.broken), "`")+" "+rule) {
			t.Logf("known gap: "+format, args...)
			return
		}
		t.Errorf(format, args...)
	}
	var fs []profan.Finding
	for _, x := range a.Findings {
		if slices.Contains(p.forbidden, x.Rule) {
			report(x.Rule, "%s: %s: forbidden finding %s: %s", page, shortName(p.broken), x.Rule, x.Message)
		}
		if !slices.Contains(want, x.Rule) {
			continue
		}
		fs = append(fs, x)
		if r, _ := rules.ByID(x.Rule); r.Locates && !hasLine(x) {
			report(x.Rule+" line", "%s: %s: %s names no source line", page, shortName(p.broken), x.Rule)
		}
		// A Triton kernel's fix is said in Triton's terms, at its .py
		// line (program size: BLOCK_SIZE and num_warps; tile loads not
		// overlapped with tl.dot: num_stages; an fp32 tl.dot
		// off the tensor cores: input_precision "tf32"; a product with
		// no tl.dot at all: tl.dot; fp64 math on fp32 data: tl.float32;
		// libdevice's precise math: tl.inline_asm_elementwise);
		// a gather is named as one.
		terms := strings.Contains(x.Advice, "BLOCK_SIZE") && strings.Contains(x.Advice, "num_warps")
		if x.Rule == "fp64-on-float" {
			terms = strings.Contains(x.Advice, "tl.float32")
		}
		if x.Rule == "unpipelined-tiles" {
			terms = strings.Contains(x.Advice, "num_stages")
		}
		if x.Rule == "precise-math" {
			// libdevice's function → the hardware's approximation by
			// tl.inline_asm_elementwise (sol-check19's tanh_rec_precise)
			terms = strings.Contains(x.Advice, "tl.inline_asm_elementwise")
		}
		if x.Rule == "tensor-cores-unused" {
			terms = strings.Contains(x.Advice, "tf32")
			// A product written as a broadcast and tl.sum has no tl.dot
			// either (sol-check21's mm_bcast_sum).
			if strings.Contains(p.what, "no tl.dot") || strings.Contains(p.what, "tl.sum") {
				terms = strings.Contains(x.Advice, "tl.dot")
			}
		}
		if _, _, triton := rules.TritonKernel(a.Record); triton && !(terms && len(x.Locations) > 0 && strings.HasSuffix(x.Locations[0].File, ".py")) {
			report(x.Rule+" terms", "%s: %s: %s not in Triton's terms at a .py line: %s %v", page, p.broken, x.Rule, x.Advice, x.Locations)
		}
		if strings.Contains(p.what, "gather") && x.Rule == "uncoalesced-global" && !strings.Contains(x.Message+x.Advice, "gather") {
			report(x.Rule+" gather", "%s: %s: the gather is not named as one: %s", page, shortName(p.broken), x.Message)
		}
		// A division in 64 bits is named as one, on its 32-bit path too.
		if strings.Contains(p.what, "64 bits") && x.Rule == "int-division" && !strings.Contains(x.Message, "64-bit") {
			t.Errorf("%s: %s: the 64-bit division is not named as one: %s", page, shortName(p.broken), x.Message)
		}
	}
	for _, r := range want {
		if !slices.ContainsFunc(fs, func(x profan.Finding) bool { return x.Rule == r }) {
			report(r, "%s: %s: no %s finding (%v)", page, shortName(p.broken), r, rulesOf(a.Findings))
		}
	}
	return fs
}

// heldOutUnread says whether a fixture directory (its base name) is a
// held-out set whose one read has not happened: every test that reads
// the set (its own, TestNoUnmarkedZero, and those that read every
// fixture: TestNoSourceAdviceOnLibraries, TestReadsDeclared) leaves its
// pages out until its read switch is set, so that the one read is the
// first. A new set adds its switch here.
func heldOutUnread(dir string) bool {
	read, held := heldOutRead[dir]
	return held && !read
}

// heldOutRead holds each held-out set's read switch, by directory.
var heldOutRead = map[string]bool{
	"sol-check13": solCheck13Read,
	"sol-check14": solCheck14Read,
	"sol-check15": solCheck15Read,
	"sol-check16": solCheck16Read,
	"sol-check17": solCheck17Read,
	"sol-check18": solCheck18Read,
	"sol-check19": solCheck19Read,
	"sol-check20": solCheck20Read,
	"sol-check21": solCheck21Read,
	"sol-check22": solCheck22Read,
	"sol-check23": solCheck23Read,
	"sol-check24": solCheck24Read,
	"sol-check25": solCheck25Read,
	"sol-check26": solCheck26Read,
	"sol-check27": solCheck27Read,
	"sol-check28": solCheck28Read,
	"sol-check29": solCheck29Read,
	"sol-check30": solCheck30Read,
	"sol-check31": solCheck31Read,
	"host31":      host31Read,
	"host32":      host32Read,
	"host33":      host33Read,
	"host34":      host34Read,
	"host35":      host35Read,
	"host36":      host36Read,
	"host37":      host37Read,
	"host38":      host38Read,
	"host39":      host39Read,
	"host40":      host40Read,
}
