package metrics_test

import (
	"math"
	"testing"

	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/metrics"
)

// TestDerive checks canonical metrics derived from real exports of both
// tools against values worked out by hand from the printed counters.
func TestDerive(t *testing.T) {
	for _, tt := range []struct {
		file   string
		kernel int
		metric string
		want   float64
		tol    float64 // relative
	}{
		// ncu 2025.3, H200, Pearson's indirect increment (float, sequential):
		// two loads of 313 requests and 1,250 sectors each.
		{"../../fixtures/ncu/indirect.metrics.details.csv", 0, "gld_transactions", 2500, 0},
		{"../../fixtures/ncu/indirect.metrics.details.csv", 0, "global_load_requests", 626, 0},
		{"../../fixtures/ncu/indirect.metrics.details.csv", 0, "gld_transactions_per_request", 3.99, 1e-9},
		{"../../fixtures/ncu/indirect.metrics.details.csv", 0, "gld_ideal_transactions", 2500, 0},
		{"../../fixtures/ncu/indirect.metrics.details.csv", 0, "duration", 2.752e-6, 1e-9},
		{"../../fixtures/ncu/indirect.metrics.details.csv", 0, "achieved_occupancy", 0.061, 1e-9},   // 6.10 % as a fraction
		{"../../fixtures/ncu/indirect.metrics.details.csv", 0, "flop_count_sp", 10000, 0},           // 10,000 FADD
		{"../../fixtures/ncu/indirect.metrics.details.csv", 0, "dram_peak_bandwidth", 4.8e12, 1e-9}, // the H200's datasheet 4.8 TB/s, one peak for every kernel
		{"../../fixtures/ncu/indirect.metrics.details.csv", 2, "gld_transactions", 11149, 0},        // random permutation
		// nvprof, GTX 1080 Ti, matrixMul: units inside values, 1024-based
		// prefixes, levels and fractions.
		{"../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-metrics.csv", 0, "gld_efficiency", 100, 0},
		{"../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-metrics.csv", 0, "gld_transactions_per_request", 8, 0},
		{"../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-metrics.csv", 0, "achieved_occupancy", 0.935178, 1e-9},
		{"../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-metrics.csv", 0, "dram_read_throughput", 4.455447 * (1 << 30), 1e-9},
		{"../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-metrics.csv", 0, "dram_utilization", 10, 0}, // "Low (1)"
		{"../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-metrics.csv", 0, "flop_count_sp", 131072000, 0},
		// Kepler wide table, metrics named by description.
		{"../ingest/testdata/nvprof/ieee2017-gtxtitan-wide-per-kernel-events-metrics.csv", 0, "gld_efficiency", -1, 0},
	} {
		t.Run(tt.file, func(t *testing.T) {
			run, err := ingest.ReadFile(tt.file, ingest.Options{})
			if err != nil {
				t.Fatal(err)
			}
			k := run.Kernels[tt.kernel]
			var dev metrics.Device
			if s, ok := gpumodel.Lookup(k.Device); ok {
				dev = metrics.Device{Name: s.Name, SMs: s.SMs, PeakBandwidth: s.PeakBandwidth()}
			}
			got, ok := metrics.Derive(k, dev).Get(tt.metric)
			if tt.want < 0 { // only present
				if !ok {
					t.Errorf("%s kernel %d: no %s", tt.file, tt.kernel, tt.metric)
				}
				return
			}
			if !ok || math.Abs(got-tt.want) > tt.tol*math.Abs(tt.want) {
				t.Errorf("%s kernel %d: %s = %v (present %v), want %v", tt.file, tt.kernel, tt.metric, got, ok, tt.want)
			}
		})
	}
}

// TestDefs checks the table: unique names, documentation, sources.
func TestDefs(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range metrics.Defs {
		if seen[d.Name] {
			t.Errorf("%s defined twice", d.Name)
		}
		seen[d.Name] = true
		if d.Doc == "" || d.NCU == "" || d.Nvprof == "" {
			t.Errorf("%s: missing documentation or sources", d.Name)
		}
	}
	for _, name := range []string{"gld_efficiency", "gst_efficiency", "gld_transactions_per_request", "gst_transactions_per_request",
		"shared_load_transactions_per_request", "shared_store_transactions_per_request", "dram_read_throughput", "dram_write_throughput",
		"achieved_occupancy", "dram_peak_pct", "instruction_byte_ratio", "arithmetic_intensity"} {
		if !seen[name] {
			t.Errorf("canonical metric %s is missing", name)
		}
	}
}

// TestWarnings: impossible values are flagged, not hidden.
func TestWarnings(t *testing.T) {
	run, err := ingest.ReadFile("../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-metrics.csv", ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := metrics.Derive(run.Kernels[0], metrics.Device{})
	// shared_efficiency is 132% in this real export: broadcasts count
	// once, so it is no error.
	if len(s.Warnings) != 0 {
		t.Errorf("warnings for a plausible export: %v", s.Warnings)
	}
	k := run.Kernels[0]
	for i, m := range k.Metrics {
		if m.Name == "achieved_occupancy" {
			k.Metrics[i].Value = 1.7 // no GPU runs more warps than it has slots
		}
	}
	s = metrics.Derive(k, metrics.Device{})
	if len(s.Warnings) != 1 || s.Warnings[0] != "achieved_occupancy = 1.700 is outside 0–1" {
		t.Errorf("warnings = %v, want the impossible occupancy flagged", s.Warnings)
	}
}

func TestShareText(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{0.25, "25.0%"}, {0.0005, "0.1%"}, {0.0004, "<0.1%"}, {1e-9, "<0.1%"}, {0, "0.0%"}, {math.NaN(), "?"}} {
		t.Run(tc.want, func(t *testing.T) {
			if got := metrics.ShareText(tc.v); got != tc.want {
				t.Errorf("ShareText(%v) = %q, want %q", tc.v, got, tc.want)
			}
		})
	}
}

// TestNoisy: canonical metrics declare whether they are noisy; raw names
// are read from their words.
func TestNoisy(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"duration", true},
		{"achieved_occupancy", true},
		{"dram_throughput", true},
		{"theoretical_occupancy", false}, // from the launch configuration: exact
		{"gld_transactions_per_request", false},
		{"gpu__time_duration.sum", true},
		{"dram__bytes.sum.per_second", true},
		{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := metrics.Noisy(tt.name); got != tt.want {
				t.Errorf("Noisy(%q) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
}

// TestCountAgrees holds the nouns of the counts messages print to their
// figures: "1 byte per thread", never "1 bytes".
func TestCountAgrees(t *testing.T) {
	for _, c := range []struct {
		n    float64
		want string
	}{{1, "1 byte"}, {0.6, "1 byte"}, {2, "2 bytes"}, {16, "16 bytes"}, {0, "0 bytes"}, {1.5, "2 bytes"}} {
		if got := metrics.Count(c.n, "byte"); got != c.want {
			t.Errorf("Count(%g) = %q, want %q", c.n, got, c.want)
		}
	}
}
