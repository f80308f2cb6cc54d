package analysis_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/ingest"
)

// load reads one capture's details page with its source page attached.
func load(t *testing.T, capture string) (*profan.Run, []*analysis.Kernel) {
	return loadFrom(t, "../../fixtures/ncu/", capture)
}

// captureDirs are the real captures: the H200 set and the H100 subset.
var captureDirs = []string{"../../fixtures/ncu/", "../../fixtures/ncu-h100/"}

func loadFrom(t *testing.T, dir, capture string) (*profan.Run, []*analysis.Kernel) {
	t.Helper()
	src, _, err := ingest.SplitSourcePages([]string{dir + capture + ".source.cuda-sass.csv"})
	if err != nil {
		t.Fatal(err)
	}
	run, err := ingest.ReadFile(dir+capture+".import.details.csv", ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []*analysis.Kernel
	for _, k := range run.Kernels {
		src.AttachRun(nil, k)
		out = append(out, analysis.Analyze(run, k, analysis.Options{}))
	}
	return run, out
}

// TestIdealMatchesNCU checks, for every global load and store the H200
// captures executed, that the model's ideal sector count (Pearson's
// T_i = E·(S/8)/32 in sectors, rounded up per warp) equals the ideal that
// ncu itself reports on the source page.
func TestIdealMatchesNCU(t *testing.T) {
	n := 0
	for _, c := range []struct{ dir, capture string }{
		{captureDirs[0], "copy"}, {captureDirs[0], "indirect"}, {captureDirs[0], "transpose"},
		{captureDirs[1], "indirect"}, {captureDirs[1], "transpose"},
	} {
		t.Run(c.dir, func(t *testing.T) {
			capture := c.dir + c.capture
			_, ks := loadFrom(t, c.dir, c.capture)
			for _, a := range ks {
				for _, s := range a.Record.Source {
					if s.Address == "" {
						continue
					}
					c := counters(s)
					if c.text["address_space"] != "Global" {
						continue
					}
					e, bits, req := c.num["thread_inst_executed_pred_on"], c.num["access_size_bits"], c.num["inst_executed"]
					ncuIdeal := c.num["memory_l2_theoretical_sectors_global_ideal"]
					// Whole warps need ceil(32·S/32) sectors; the last, partial
					// warp of each launch needs ceil(threads·S/32).
					full := math.Floor(e / 32)
					rest := e - 32*full
					per := gpumodel.IdealSectors(bits/8, 32).L2
					model := full*per + math.Ceil(gpumodel.IdealSectors(bits/8, rest).L2)
					if req > full+1 {
						// Several partial warps (2-D blocks): the formula's total.
						model = math.Ceil(gpumodel.IdealSectors(bits/8, e).L2)
					}
					if model != ncuIdeal {
						t.Errorf("%s kernel %s %s (line %d): model ideal %v sectors, ncu %v (E=%v, S=%v bits)", capture, a.Record.ID, s.SASS, s.Line, model, ncuIdeal, e, bits)
					}
					n++
				}
			}
		})
	}
	if n < 50 {
		t.Fatalf("checked only %d instructions", n)
	}
}

type ctr struct {
	num  map[string]float64
	text map[string]string
}

func counters(s profan.SourceRecord) ctr {
	c := ctr{num: map[string]float64{}, text: map[string]string{}}
	for _, m := range s.Counter {
		if m.Text != "" {
			c.text[m.Name] = m.Text
		} else {
			c.num[m.Name] = m.Value
		}
	}
	return c
}

// TestPearsonOnHopper reproduces the Volta table of Pearson's Nsight Compute memory-efficiency article with the H200 and
// H100 captures of the same kernel: ncu's own counts for the loads of p[idx]
// equal the model's prediction (sequential exactly, random within 3%).
func TestPearsonOnHopper(t *testing.T) {
	for _, dir := range captureDirs {
		t.Run(dir, func(t *testing.T) { testPearson(t, dir) })
	}
}

func testPearson(t *testing.T, dir string) {
	_, ks := loadFrom(t, dir, "indirect")
	for _, tt := range []struct {
		kernel  string
		elem    int
		pattern string
		exact   bool
	}{
		{"0", 4, "sequential", true},
		{"1", 8, "sequential", true},
		{"2", 4, "random", false},
		{"3", 8, "random", false},
	} {
		t.Run(tt.kernel, func(t *testing.T) {
			a := ks[mustAtoi(tt.kernel)]
			p, _ := gpumodel.ParsePattern(tt.pattern)
			want, err := gpumodel.Predict("9.0", tt.elem, 10000, p)
			if err != nil {
				t.Fatal(err)
			}
			// The load of p[idx] is the global load on line 16.
			found := false
			for _, s := range a.Record.Source {
				c := counters(s)
				if s.Line != 16 || s.Address == "" || c.text["address_space"] != "Global" || c.text["access_operation"] != "Load" {
					continue
				}
				found = true
				got := [3]float64{c.num["inst_executed"], c.num["l1_tag_requests_global"], c.num["memory_l2_theoretical_sectors_global"]}
				exp := [3]float64{want.Requests, want.L1Transactions, want.L2Sectors}
				for i, name := range []string{"requests", "L1 transactions", "L2 sectors"} {
					if tt.exact && got[i] != exp[i] {
						t.Errorf("%s %d-byte %s: ncu %v, model %v", a.Record.Name, tt.elem, name, got[i], exp[i])
					}
					if !tt.exact && math.Abs(got[i]-exp[i]) > 0.03*exp[i] {
						t.Errorf("%s %d-byte %s: ncu %v, model %.1f: more than 3%% apart", a.Record.Name, tt.elem, name, got[i], exp[i])
					}
				}
			}
			if !found {
				t.Errorf("%s: no global load on line 16", a.Record.Name)
			}
		})
	}
}

func mustAtoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestPatterns checks the model's reading of every global access whose
// pattern the source code fixes (fixtures/gen/*.cu).
func TestPatterns(t *testing.T) {
	type want struct {
		capture, kernel, op string
		line                int
		pattern             string
		stride              float64
	}
	for _, w := range []want{
		{"copy", "0", "load", 8, "coalesced", 0},   // offset 0
		{"copy", "1", "load", 8, "misaligned", 0},  // offset 1 element
		{"copy", "1", "store", 8, "misaligned", 0}, //
		{"copy", "2", "load", 8, "coalesced", 0},   // offset 8 elements = 32 B: sector-aligned
		{"copy", "3", "load", 8, "coalesced", 0},   // offset 32 elements = 128 B
		{"copy", "4", "load", 14, "coalesced", 0},  // stride 1
		{"copy", "5", "load", 14, "strided", 8},    // stride 2 floats
		{"copy", "6", "store", 14, "strided", 16},  // stride 4
		{"copy", "7", "load", 14, "strided", 32},   // stride 8
		{"copy", "8", "load", 14, "strided", 0},    // stride 32 floats = 128 B: a line per thread
		{"indirect", "0", "load", 16, "coalesced", 0},
		{"indirect", "1", "store", 18, "coalesced", 0},
		{"indirect", "2", "load", 16, "scattered", 0},
		{"indirect", "3", "store", 18, "scattered", 0},
		{"indirect", "2", "load", 15, "coalesced", 0}, // off[i]
		{"transpose", "2", "store", 41, "strided", 0}, // column write
		{"transpose", "2", "load", 41, "coalesced", 0},
		{"transpose", "4", "store", 74, "coalesced", 0},
	} {
		_, ks := load(t, w.capture)
		a := ks[mustAtoi(w.kernel)]
		found := false
		for _, in := range a.Model.Instructions {
			if in.Space != "global" || in.Operation != w.op || in.Line != w.line {
				continue
			}
			found = true
			if in.Pattern.Kind.String() != w.pattern || in.Pattern.StrideBytes != w.stride {
				t.Errorf("%s %s %s line %d: got %s stride %v, want %s stride %v (%s)", w.capture, a.Record.Name, w.op, w.line, in.Pattern.Kind, in.Pattern.StrideBytes, w.pattern, w.stride, in.Pattern.Text())
			}
		}
		if !found {
			t.Errorf("%s %s: no global %s on line %d", w.capture, a.Record.Name, w.op, w.line)
		}
	}
}

// TestSharedConflicts reads the transposes' shared accesses.
func TestSharedConflicts(t *testing.T) {
	_, ks := load(t, "transpose")
	for _, tt := range []struct {
		kernel  string
		pattern string
		ways    float64
	}{{"1", "coalesced", 1}, {"3", "strided", 32}, {"4", "coalesced", 1}} {
		t.Run(tt.kernel, func(t *testing.T) {
			sh := ks[mustAtoi(tt.kernel)].Model.Shared()
			if sh == nil {
				t.Fatalf("kernel %s: no shared model", tt.kernel)
			}
			if sh.Pattern.Kind.String() != tt.pattern || math.Abs(math.Round(sh.Pattern.Ways)-tt.ways) > 0 && tt.ways > 1 {
				t.Errorf("kernel %s: shared %s %.2f-way, want %s %v-way", tt.kernel, sh.Pattern.Kind, sh.Pattern.Ways, tt.pattern, tt.ways)
			}
		})
	}
}

// TestDeviceFromExport: every capture is analysed against the GPU it ran
// on without --device: by name where the export prints one (raw and
// metrics pages), else from its device attributes (the details page's DRAM
// Frequency and # SMs: 3.2 GHz on the H200, 2.6 GHz on the H100), with one
// DRAM peak for every kernel of a run.
func TestDeviceFromExport(t *testing.T) {
	if testing.Short() {
		t.Skip("every capture: runs without -short, as CI does")
	}
	h200, _ := filepath.Glob("../../fixtures/ncu/*.csv")
	var h100 []string
	for _, g := range []string{"../../fixtures/ncu-h100/*.csv", "../../fixtures/calib/*.csv.gz", "../../fixtures/pytorch/*.csv.gz", "../../fixtures/series6/*.csv", "../../fixtures/variants/*.csv.gz"} {
		m, _ := filepath.Glob(g)
		h100 = append(h100, m...)
	}
	check := func(file, want string) {
		run, err := ingest.ReadFile(file, ingest.Options{})
		if err != nil || len(run.Kernels) == 0 || run.Format == "ncu-source" {
			return // error pages, source pages: no GPU to identify
		}
		peaks := map[float64]bool{}
		for _, k := range run.Kernels {
			a := analysis.Analyze(run, k, analysis.Options{})
			if a.Spec == nil || a.Spec.Name != want || a.GPU.Assumed() {
				name := "none"
				if a.Spec != nil {
					name = a.Spec.Name
				}
				t.Errorf("%s kernel %s: GPU %s from %v (%v), want %s", file, k.ID, name, a.GPU.Source, a.GPU.Evidence, want)
				return
			}
			if p, ok := a.Value("dram_peak_bandwidth"); ok {
				peaks[p] = true
			}
		}
		if len(peaks) > 1 {
			t.Errorf("%s: %d different DRAM peaks over one run, want one", file, len(peaks))
		}
	}
	for _, f := range h200 {
		check(f, "H200")
	}
	for _, f := range h100 {
		check(f, "H100 SXM5 80GB")
	}
}

// TestIdentifyAmbiguous: a details page of an unknown GPU, or one with no
// clue, is analysed against the compute capability's representative, and
// the note says so and how to name the GPU.
func TestIdentifyAmbiguous(t *testing.T) {
	id := gpumodel.Identify(gpumodel.Clues{CC: "9.0", SMs: 132})
	if !id.Assumed() || id.Spec.Name != "H100 SXM5 80GB" || len(id.Others) != 1 || !strings.Contains(id.Note(), "--device") {
		t.Errorf("132 SMs of cc 9.0: %+v, note %q; want H100 SXM5 assumed, H200 fitting as well", id, id.Note())
	}
	id = gpumodel.Identify(gpumodel.Clues{CC: "9.0", DRAMClockHz: 3.19e9, SMs: 132})
	if id.Assumed() || id.Source != gpumodel.SourceClues || id.Spec.Name != "H200" || id.Note() != "" {
		t.Errorf("DRAM 3.19 GHz, 132 SMs: %+v, want the H200 from its attributes", id)
	}
	id = gpumodel.Identify(gpumodel.Clues{CC: "9.0", DRAMClockHz: 1.2e9})
	if !id.Assumed() || len(id.Others) != 0 || !strings.Contains(id.Note(), "no GPU of the table fits DRAM 1.20 GHz") {
		t.Errorf("DRAM 1.2 GHz on cc 9.0: note %q", id.Note())
	}
	id = gpumodel.Identify(gpumodel.Clues{Name: "NVIDIA RTX 4000 Ada Generation", CC: "8.9"})
	if !id.Assumed() || !strings.Contains(id.Note(), "is not in profan's table") {
		t.Errorf("unlisted name: note %q", id.Note())
	}
}
