package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/tile"
)

const pytorchStep = "../../fixtures/pytorch/train.full.details.csv.gz"

// TestPyTorchSummary pins the application summary on an FP32 PyTorch
// training step captured on an H100: the text output starts with the group
// table and fits in 250 lines, the FP32 GEMM groups carry
// tensor-cores-unused, and no library kernel is told to change its source.
func TestPyTorchSummary(t *testing.T) {
	t.Parallel()
	out, errOut, code := run(t, "analyze", pytorchStep)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) > 250 {
		t.Errorf("text output has %d lines, want at most 250", len(lines))
	}
	if !strings.HasPrefix(lines[0], "83 launches of 25 kernels") {
		t.Errorf("first line %q, want the capture's launches and kernels", lines[0])
	}
	// The time by category and the recommendations come first, then the
	// group table.
	table, cats := -1, -1
	for i, l := range lines[:40] {
		if l == "time by category" && cats < 0 {
			cats = i
		}
		if strings.HasPrefix(l, "RANK  SHARE") {
			table = i
			break
		}
	}
	if cats < 0 || cats > table {
		t.Errorf("the summary does not open with the time by category:\n%s", strings.Join(lines[:10], "\n"))
	}
	if table < 0 {
		t.Fatalf("no group table in the first lines:\n%s", strings.Join(lines[:40], "\n"))
	}
	for _, l := range lines[table+1 : table+5] {
		if !strings.Contains(l, "tensor-cores-unused") || !regexp.MustCompile(`xmma_gemm|simt_sgemm`).MatchString(l) {
			t.Errorf("a top-4 row is no FP32 GEMM with tensor-cores-unused: %q", l)
		}
	}
	for _, bad := range []string{"more blocks", "__launch_bounds__", "maxrregcount", "grid-stride", "stage a tile", "low-occupancy"} {
		if strings.Contains(out, bad) {
			t.Errorf("library kernels are told %q", bad)
		}
	}

	out, errOut, code = run(t, "analyze", "--format", "json", "--launches", pytorchStep)
	if code != ExitOK {
		t.Fatalf("json: exit %d: %s", code, errOut)
	}
	var doc struct {
		Kernels []json.RawMessage `json:"kernels"`
		Groups  []struct {
			Name, DisplayName string
			Display           string   `json:"display_name"`
			Launches          int      `json:"launches"`
			Duration          float64  `json:"duration_s"`
			Share             float64  `json:"time_share"`
			Kernels           []string `json:"kernels"`
			Findings          []struct {
				Rule     string  `json:"rule"`
				Launches int     `json:"launches"`
				Gain     float64 `json:"estimated_gain"`
			} `json:"findings"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Kernels) != 83 || len(doc.Groups) != 25 {
		t.Fatalf("%d kernels in %d groups, want 83 in 25", len(doc.Kernels), len(doc.Groups))
	}
	launches, share := 0, 0.0
	for i, g := range doc.Groups {
		launches += g.Launches
		share += g.Share
		if len(g.Kernels) != g.Launches {
			t.Errorf("group %s: %d ids for %d launches", g.Display, len(g.Kernels), g.Launches)
		}
		if i > 0 && g.Duration > doc.Groups[i-1].Duration {
			t.Errorf("groups not sorted by duration_s at %d", i)
		}
		fp32 := regexp.MustCompile(`_ffma_|simt_sgemm`).MatchString(g.Name)
		tc := false
		for _, f := range g.Findings {
			tc = tc || f.Rule == "tensor-cores-unused"
		}
		if fp32 != tc {
			t.Errorf("group %s: FP32 GEMM %v, tensor-cores-unused %v", g.Display, fp32, tc)
		}
	}
	if launches != 83 || share < 0.999 || share > 1.001 {
		t.Errorf("groups hold %d launches and %.4f of the time, want 83 and 1", launches, share)
	}
}

// TestKernelFilter: --kernel vectorized_layer_norm keeps the forward
// LayerNorm group alone (the backward kernel is layer_norm_grad_input_kernel_vectorized).
func TestKernelFilter(t *testing.T) {
	t.Parallel()
	out, errOut, code := run(t, "analyze", "--format", "json", "--kernel", "vectorized_layer_norm", pytorchStep)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Groups []struct {
			Display  string `json:"display_name"`
			Launches int    `json:"launches"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Groups) != 1 || doc.Groups[0].Display != "at::vectorized_layer_norm_kernel<float, float, 0>" || doc.Groups[0].Launches != 3 {
		t.Errorf("--kernel vectorized_layer_norm: groups %+v, want the forward LayerNorm's 3 launches alone", doc.Groups)
	}
	if _, errOut, code := run(t, "analyze", "--kernel", "(", pytorchStep); code != ExitError || !strings.Contains(errOut, "--kernel") {
		t.Errorf("bad --kernel: exit %d, %q", code, errOut)
	}
}

// TestTop: --top 0 details every group, --top 2 two.
func TestTop(t *testing.T) {
	t.Parallel()
	count := func(args ...string) int {
		out, errOut, code := run(t, append([]string{"analyze"}, args...)...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return len(regexp.MustCompile(`(?m)^#\d+ `).FindAllString(out, -1))
	}
	if n := count("--top", "0", pytorchStep); n != 25 {
		t.Errorf("--top 0: %d group details, want 25", n)
	}
	if n := count("--top", "2", pytorchStep); n != 2 {
		t.Errorf("--top 2: %d group details, want 2", n)
	}
	if n := count(pytorchStep); n != 10 {
		t.Errorf("default: %d group details, want 10", n)
	}
}

// TestHTMLReportSize: the HTML report of the training step stays small.
func TestHTMLReportSize(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	outFile := filepath.Join(dir, "r.html")
	if _, errOut, code := run(t, "report", pytorchStep, "--html", outFile); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	fi, err := os.Stat(outFile)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > 1500000 {
		t.Errorf("HTML report is %d bytes, want under 1.5 MB", fi.Size())
	}
	b, _ := os.ReadFile(outFile)
	page := string(b)
	summary := strings.Index(page, `<table class="summary groups">`)
	cards := strings.Index(page, `<section id="kernels">`)
	if summary < 0 || cards < summary {
		t.Errorf("the group table does not come first (at %d, cards at %d)", summary, cards)
	}
	if n := strings.Count(page, `<article class="card"`); n != 25 {
		t.Errorf("%d cards, want one per group: 25", n)
	}
	if n := strings.Count(page, `<details class="launches">`); n != 14 {
		t.Errorf("%d folded launch lists, want 14 (the groups of more than one launch)", n)
	}
	if strings.Contains(page, "<script") {
		t.Error("the report has a script")
	}
	// Sorted by time: the first row is the 28.2% cuBLAS GEMM.
	if i := strings.Index(page[summary:], "28.2%"); i < 0 || i > 600 {
		t.Errorf("the first row is not the largest group")
	}
}

// TestLongTrace: a long nvprof trace (the public matrixMul gpu-trace tiled
// to 30,000 launches with shifted start times and correlation IDs) is
// summarised in a few lines, whatever its length, and its JSON lists each
// launch only with --launches. The 600,000-launch run
// is done by hand: go run ./bench/tile -trace 600000 (docs/commands.md).
func TestLongTrace(t *testing.T) {
	skipShort(t)
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "trace.csv")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	_, n, err := tile.Trace(f, "../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv", 30000, true)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "analyze", in)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if lines := strings.Count(out, "\n"); lines > 250 {
		t.Errorf("%d launches: %d lines of output, want at most 250", n, lines)
	}
	// A trace's timeline comes first, then the kernels' summary.
	if want := fmt.Sprintf("%d launches of 1 kernel", n); !strings.HasPrefix(out, "wall ") || !strings.Contains(out, "\n\n"+want) {
		t.Errorf("output starts %.80q, want the timeline then %q", out, want)
	}
	out, _, _ = run(t, "analyze", "--format", "json", in)
	// Summary-first: the JSON holds each group's representative launch and
	// says skipped rules once per run, so it grows only by the groups'
	// launch ids. 20 MB for 600,000 launches is 33 bytes a launch.
	if perLaunch := float64(len(out)) / float64(n); perLaunch > 20e6/600000 {
		t.Errorf("%d launches: %d bytes of JSON, %.1f a launch, want at most %.1f", n, len(out), perLaunch, 20e6/600000)
	}
	var doc struct {
		Kernels []json.RawMessage `json:"kernels"`
		Groups  []struct {
			Launches int      `json:"launches"`
			Kernels  []string `json:"kernels"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Groups) != 1 || doc.Groups[0].Launches != n || len(doc.Groups[0].Kernels) != n {
		t.Errorf("json groups: %d, want 1 of %d launches with their ids", len(doc.Groups), n)
	}
	if len(doc.Kernels) != 1 {
		t.Errorf("json kernels: %d, want the one group's representative", len(doc.Kernels))
	}
	out, _, _ = run(t, "analyze", "--format", "json", "--launches", in)
	doc.Kernels = nil
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Kernels) != n {
		t.Errorf("json --launches: %d kernels, want every one of %d launches", len(doc.Kernels), n)
	}
}

// TestDiffKernel: diff --kernel compares only the kernels it matches.
func TestDiffKernel(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "runs.db")
	for _, f := range []string{fx + "transpose.import.details.csv", fx + "transpose.full.details.csv"} {
		if _, errOut, code := run(t, "ingest", "--db", db, f); code != ExitOK {
			t.Fatalf("ingest %s: exit %d: %s", f, code, errOut)
		}
	}
	count := func(args ...string) int {
		out, errOut, code := run(t, append([]string{"diff", "--db", db, "--all", "--format", "json", "1", "2"}, args...)...)
		if code != ExitOK {
			t.Fatalf("diff %v: exit %d: %s", args, code, errOut)
		}
		var d struct {
			Kernels []struct {
				Kernel string `json:"kernel"`
			} `json:"kernels"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		return len(d.Kernels)
	}
	if all, one := count(), count("--kernel", "^transposeNaive"); all < 2 || one != 1 {
		t.Errorf("diff: %d kernels, with --kernel ^transposeNaive %d; want several and 1", all, one)
	}
}

// TestScopeUpFront: what a capture leaves out is said before what it
// holds, in text (before the time by category) and in JSON ("scope"): an
// NVTX-filtered step (optimizer, no backward) and a step a launch count
// and a timeout cut short (backward, no optimizer); a whole step says
// nothing.
func TestScopeUpFront(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ file, note string }{
		{"../../fixtures/pytorch2/inv.tf.nvtx-step.csv", "the capture holds optimizer kernels but no backward kernel"},
		{"../../fixtures/check5/mbv2.full.raw.csv.gz", "the capture holds backward kernels but no optimizer kernel"},
		{"../../fixtures/check/vit.full.raw.csv.gz", ""},
	} {
		if testing.Short() && strings.HasSuffix(tt.file, ".gz") {
			continue // the large raw pages; CI reads them
		}
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			out, errOut, code := run(t, "analyze", tt.file)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			scope, cats := strings.Index(out, "\nscope: "+tt.note), strings.Index(out, "\ntime by category")
			if tt.note == "" {
				if strings.Contains(out, "\nscope: ") {
					t.Errorf("a whole step with a scope note:\n%s", out[:min(len(out), 2000)])
				}
			} else if scope < 0 || cats < 0 || scope > cats {
				t.Errorf("scope note %q not before the time by category:\n%s", tt.note, out[:min(len(out), 2000)])
			}
			out, errOut, code = run(t, "analyze", "--format", "json", tt.file)
			if code != ExitOK {
				t.Fatalf("json: exit %d: %s", code, errOut)
			}
			var doc struct {
				Scope []string `json:"scope"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			if tt.note == "" && len(doc.Scope) > 0 || tt.note != "" && (len(doc.Scope) == 0 || !strings.HasPrefix(doc.Scope[0], tt.note)) {
				t.Errorf("JSON scope %q, want %q", doc.Scope, tt.note)
			}
		})
	}
}

// TestTimelineTrend: the GPU busy share of stored traces is a trend of its
// own ("timeline"), without --kernel; gate --run reads a stored run's
// timeline.
func TestTimelineTrend(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	for _, v := range []string{"decode_sync", "decode_graphs"} {
		if _, errOut, code := run(t, "ingest", "--db", db, "--label", "v="+v, "../../fixtures/timeline/"+v+".json.gz"); code != ExitOK {
			t.Fatalf("ingest %s: %s", v, errOut)
		}
	}
	out, errOut, code := run(t, "trend", "--db", db, "--metric", "gpu_busy", "--format", "csv")
	if code != ExitOK || !strings.Contains(out, "1,v=decode_sync,timeline,,8.11") || !strings.Contains(out, "2,v=decode_graphs,timeline,,75.98") {
		t.Errorf("trend: exit %d\n%s%s", code, out, errOut)
	}
	out, _, code = run(t, "gate", "--db", db, "--run", "1", "--require", "gpu_busy >= 50%")
	if code != ExitFailed || !strings.Contains(out, "gpu_busy 8.1% of the wall span") {
		t.Errorf("gate --run 1: exit %d\n%s", code, out)
	}
}

// TestAppChecks: the application rules are rules to every command:
// explain knows each, --checks drops one from the recommendations, and
// a lever in use is named in JSON.
func TestAppChecks(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"bf16-autocast", "cuda-graphs", "tf32", "torch-compile", "host-sync"} {
		out, errOut, code := run(t, "explain", id)
		if code != ExitOK || !strings.HasPrefix(out, id+": ") {
			t.Errorf("explain %s: exit %d, %q %q", id, code, out, errOut)
		}
	}
	step := "../../fixtures/check6/encoder.pair.fused.csv.gz"
	recs := func(args ...string) (rules, inUse []string) {
		out, errOut, code := run(t, append([]string{"analyze", "--format", "json"}, append(args, step)...)...)
		if code != ExitOK {
			t.Fatalf("analyze %v: exit %d: %s", args, code, errOut)
		}
		var doc struct {
			Recommendations []struct{ Rule string } `json:"recommendations"`
			InUse           []struct{ Rule string } `json:"levers_in_use"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		for _, r := range doc.Recommendations {
			rules = append(rules, r.Rule)
		}
		for _, r := range doc.InUse {
			inUse = append(inUse, r.Rule)
		}
		return rules, inUse
	}
	all, inUse := recs()
	if !slices.Contains(all, "torch-compile") || !slices.Contains(inUse, "fused-optimizer") || slices.Contains(all, "fused-optimizer") {
		t.Errorf("recommendations %v, in use %v: want torch-compile advised and the fused AdamW in use", all, inUse)
	}
	if some, _ := recs("--checks", "all,-torch-compile"); slices.Contains(some, "torch-compile") || len(some) != len(all)-1 {
		t.Errorf("--checks all,-torch-compile: %v (all: %v)", some, all)
	}
}

// TestReportTimeline: profan report draws a trace's timeline strip.
func TestReportTimeline(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.html")
	if _, errOut, code := run(t, "report", "--html", out, "../../fixtures/timeline/copy_stream.json.gz"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `<section id="timeline">`) || !strings.Contains(string(b), "stream 13") {
		t.Errorf("no timeline strip with the copy stream in the report")
	}
}

// TestNsysHostSide: an nsys export of the API and GPU traces is a
// timeline with its host calls as spans, its synchronisations named, and its API
// summaries listed (cuFCM on an RTX 2080 Ti: 1,403 cudaDeviceSynchronize
// calls, 93.2% of the CUDA API time); a damaged API summary exits 2.
func TestNsysHostSide(t *testing.T) {
	t.Parallel()
	dir := "../ingest/testdata/nsys/"
	out, errOut, code := run(t, "analyze", dir+"cufcm-rtx2080ti-nsys2022-stats-cudaapitrace-gputrace.csv.gz")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"wall 17.473 s · GPU busy 73.0% (12.764 s)",
		// The API trace's calls are the host's spans: the allocator's
		// cudaFree in the loop is named, launch-bound only inside a
		// launch call; a sync's only while the host is inside it, the
		// program's own host code after it returns other host work.
		"host sync 1.7% (cudaDeviceSynchronize ×1178, 1 more), launch-bound <0.1% (cudaLaunchKernel ×319)",
		"other host work 4.3%",
		"allocator 2.5%",
		"host CUDA API 13.495 s in 11176 calls: cudaDeviceSynchronize 12.583 s ×1403 (93.2%)",
		"the host spends 12583.11 ms in its 1403 cudaDeviceSynchronize calls, 93.2% of its CUDA API time",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out[:min(len(out), 3000)])
		}
	}
	sum := dir + "cufcm-rtx2080ti-nsys2022-stats-cudaapisum-osrtsum.csv"
	out, errOut, code = run(t, "analyze", sum)
	if code != ExitOK || !strings.Contains(out, "host OS runtime 34.890 s in 4685 calls: poll 17.430 s ×186 (50.0%)") {
		t.Errorf("API summaries: exit %d\n%s%s", code, out, errOut)
	}
	b, err := os.ReadFile(sum)
	if err != nil {
		t.Fatal(err)
	}
	// Cut inside a row, and at a line end (the shares then fall short of
	// 100%), into a database that must stay as it was.
	row := strings.Index(string(b), "cudaMemcpy")
	db := filepath.Join(t.TempDir(), "t.db")
	if _, errOut, code := run(t, "ingest", "--db", db, sum); code != ExitOK {
		t.Fatalf("ingest: exit %d: %s", code, errOut)
	}
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n    int
		line string
	}{{row, ":4: "}, {strings.LastIndex(string(b[:row]), "\n") + 1, ":3: "}} {
		cut := filepath.Join(t.TempDir(), "cut.csv")
		if err := os.WriteFile(cut, b[:c.n], 0o644); err != nil {
			t.Fatal(err)
		}
		if _, errOut, code := run(t, "ingest", "--db", db, cut); code != ExitError || !strings.Contains(errOut, "cut.csv"+c.line) {
			t.Errorf("an API summary cut at byte %d: exit %d, %q", c.n, code, errOut)
		}
		if after, err := os.ReadFile(db); err != nil || !bytes.Equal(after, before) {
			t.Errorf("an API summary cut at byte %d changed the database (%v)", c.n, err)
		}
	}
}
