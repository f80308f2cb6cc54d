package rules_test

import "testing"

// solCheck3Pairs are the third held-out set of the speed-of-light classes
// (sources in fixtures/gen/sol_check3.cu): new instances of the classes
// (other widths, tiles, sizes, grids and types than sol-check2), written
// and captured after the fixes fitted on sol-check2. The required
// findings were written before the set was first read.
var solCheck3Pairs = []solCheckPair{
	{calibPair{"void addByte<1>(unsigned char *, const unsigned char *, const unsigned char *, int)", "void addByte<16>(unsigned char *, const unsigned char *, const unsigned char *, int)", "uint8 add: 1-byte accesses → uint4"}, "narrow-access", nil},
	{calibPair{"matmul32(float *, const float *, const float *, int)", "void matmulPad<4, 4>(float *, const float *, const float *, int)", "32×32-tile matmul, one output per thread → 4×4 register tile"}, "register-tile", nil},
	{calibPair{"matmulNaive(float *, const float *, const float *, int)", "void matmulPad<4, 4>(float *, const float *, const float *, int)", "naive FP32 matmul (32×8 blocks) → shared-memory tiles, 4×4 register tile"}, "tile-shared-memory,register-tile", noUncoalesced},
	{calibPair{"void fmaTail<1>(float *, const float *, int, int, int)", "void fmaTail<0>(float *, const float *, int, int, int)", "FMA map: 4·SMs + 8 blocks of 512 → 4·SMs"}, "small-grid", nil},
	{calibPair{"void scaleF<16>(float *, const float *, float, int)", "void scaleF<256>(float *, const float *, float, int)", "float scale: 16-thread blocks → 256"}, "tiny-blocks", nil},
	{calibPair{"mixLocal(float *, const unsigned int *, const float *, int)", "mixShared(float *, const unsigned int *, const float *, int)", "32-float table per thread, read and written at run-time slots, in local memory → shared"}, "local-memory", nil},
	{calibPair{"laneBranch(float *, const float *, int, int)", "warpBranch(float *, const float *, int, int)", "two FMA chains chosen by lane parity → by warp parity"}, "thread-divergence", nil},
	{calibPair{"void gatherD<0>(double *, const double *, const int *, int)", "void gatherD<1>(double *, const double *, const int *, int)", "double gather, random indices → the same sorted"}, "uncoalesced-global", nil},
	{calibPair{"casMax(float *, const unsigned int *, const float *, int, int)", "redMax(float *, const unsigned int *, const float *, int, int)", "float max by a CAS loop on 64 Ki bins → atomicMax"}, "cas-loop", noUncoalesced},
	{calibPair{"void rowMod<unsigned long long>(float *, const float *, const float *, T1, T1)", "void rowMod<unsigned int>(float *, const float *, const float *, T1, T1)", "i % cols in 64 bits → 32 bits"}, "int-division", nil},
}

// solCheck3Files are the third held-out set's pages, raw and details
// (the default export) alike, each with the source page.
var solCheck3Files = map[string][]string{
	"raw":     {"../../fixtures/sol-check3/sol_check3.raw.csv.gz", "../../fixtures/sol-check3/sol_check3.source.cuda-sass.csv.gz"},
	"details": {"../../fixtures/sol-check3/sol_check3.details.csv.gz", "../../fixtures/sol-check3/sol_check3.source.cuda-sass.csv.gz"},
}

// TestSolCheck3 holds profan on the third held-out set: the required
// findings (with their lines), none forbidden, and the gain error, on the
// raw and the details page (docs/calibration.md, block "sol-check3").
// First read, by the model of main at 85c1098, both pages alike: mean
// |error| 0.117, worst 0.549, no forbidden finding, 9 of the 10 required
// findings; the one missed is the CAS max loop's cas-loop (the rule
// knows a float add by atomicCAS, not a max). Since, and so no longer
// unseen: cas-loop knows a CAS loop of a float maximum or minimum (0.47
// against 0.55): mean 0.070, worst 0.222 (details 0.226: the naive
// matmul's tile-shared-memory, 0.39 against 0.61). Its twin tiles in
// shared memory and in registers, so both findings are required and
// counted; register-tile reads its two L1-hit global loads per FMA
// (0.73 against 0.61): mean 0.060 (details 0.059), worst 0.120; cas-loop
// on L2's lookups: mean 0.053. local-memory then priced a table written
// at run-time slots by its fix to shared memory in the time model
// (mixLocal 0.83 against 0.84): mean 0.045 on both pages, worst 0.120,
// held there so that they only improve. The fit on sol-check5 priced a
// latency-bound kernel whose local loads mostly miss L1 at its units'
// remaining work: mixLocal reads 0.90 on the raw page (34 % of its local
// loads hit L1; raw mean 0.049), 0.83 on the details page, whose
// estimate of that hit rate (51 %) counts the local stores' hits too.
func TestSolCheck3(t *testing.T) {
	skipShort(t)
	heldOut(t, solCheck3Files, solCheck3Pairs, "sol-check3", 0.05, 0.125)
}
