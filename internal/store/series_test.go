package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"testing"

	"github.com/profan-dev/profan"
	importer "github.com/profan-dev/profan/internal/ingest"
)

// traceRecords reads the public nvprof trace of 301 matrixMul launches (and
// memcpys) into kernel records whose canonical duration is the launch's.
func traceRecords(t testing.TB) []KernelRecord {
	t.Helper()
	run, err := importer.ReadFile("../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv", importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var recs []KernelRecord
	for _, k := range run.Kernels {
		recs = append(recs, KernelRecord{Kernel: k, Canonical: []NamedValue{{"duration", k.Duration}, {"sm_count", 28}},
			Findings: []profan.Finding{{Rule: "small-grid", Severity: profan.Warning, Kernel: k.ID, Message: "the grid has 200 blocks", Gain: 0.1}}})
	}
	return recs
}

// TestLaunchSeries checks that the launches of a trace that differ only in
// ID, start and duration are stored as one kernels row plus a series, and
// read back, by Kernels and Trend, exactly as they were added.
func TestLaunchSeries(t *testing.T) {
	db, _ := mustOpen(t)
	ctx := context.Background()
	recs := traceRecords(t)
	if len(recs) != 301 {
		t.Fatalf("trace has %d launches, want 301", len(recs))
	}
	// One launch that differs in a finding is a row of its own.
	recs[7].Findings = []profan.Finding{{Rule: "small-grid", Severity: profan.Warning, Message: "other", Gain: 0.2}}
	id := ingest(t, db, testInfo("sha256:trace", nil), recs)

	if c := counts(t, db); c["kernels"] != 2 || c["launch_series"] != 1 {
		t.Errorf("stored %d kernels rows and %d series chunks, want 2 and 1", c["kernels"], c["launch_series"])
	}
	run, err := db.Run(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if run.Kernels != 301 {
		t.Errorf("run says %d kernels, want 301", run.Kernels)
	}
	got, err := db.Kernels(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) {
		t.Fatalf("read %d kernels, want %d", len(got), len(recs))
	}
	for i, r := range recs {
		if a, b := dumpKernel(got[i].Kernel), dumpKernel(r.Kernel.Clone()); a != b {
			t.Fatalf("kernel %d:\ngot  %s\nwant %s", i, a, b)
		}
		if g := got[i].Canonical["duration"]; g != r.Kernel.Duration || got[i].Canonical["sm_count"] != 28 {
			t.Fatalf("kernel %d canonical: got %v, want duration %v", i, got[i].Canonical, r.Kernel.Duration)
		}
		if a, b := fmt.Sprint(got[i].Findings), fmt.Sprint(r.Findings); a != b {
			t.Fatalf("kernel %d findings: got %s, want %s", i, a, b)
		}
	}

	pts, err := db.Trend(ctx, TrendQuery{Kernel: regexp.MustCompile("matrixMul"), Metric: "duration"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 301 {
		t.Fatalf("trend has %d points, want 301", len(pts))
	}
	for i, p := range pts {
		if p.Launch != recs[i].Kernel.ID || p.Value != recs[i].Kernel.Duration {
			t.Fatalf("point %d: got launch %s = %v, want %s = %v", i, p.Launch, p.Value, recs[i].Kernel.ID, recs[i].Kernel.Duration)
		}
	}
	pts, err = db.Trend(ctx, TrendQuery{Metric: "sm_count"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 301 || pts[300].Value != 28 || math.IsNaN(pts[0].Value) {
		t.Errorf("sm_count trend: %d points", len(pts))
	}
}

// TestSeriesChunks writes a series longer than one chunk.
func TestSeriesChunks(t *testing.T) {
	db, _ := mustOpen(t)
	base := traceRecords(t)[0]
	var recs []KernelRecord
	for i := range seriesChunk*2 + 5 {
		k := base.Kernel.Clone()
		k.ID = fmt.Sprint(1000 + 7*i)
		if i == 3 {
			k.ID = "x3" // not numeric
		}
		k.Start += float64(i) * 1e-4
		k.Duration = 7e-5 + float64(i%13)*1e-7
		recs = append(recs, KernelRecord{Kernel: k, Canonical: []NamedValue{{"duration", k.Duration}}})
	}
	id := ingest(t, db, testInfo("sha256:chunks", nil), recs)
	if c := counts(t, db); c["kernels"] != 1 || c["launch_series"] != 3 {
		t.Errorf("stored %d kernels rows and %d series chunks, want 1 and 3", c["kernels"], c["launch_series"])
	}
	got, err := db.Kernels(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		if a, b := dumpKernel(got[i].Kernel), dumpKernel(r.Kernel); a != b {
			t.Fatalf("kernel %d:\ngot  %s\nwant %s", i, a, b)
		}
	}
	// Streamed a chunk at a time, in the same order.
	i := 0
	err = db.EachKernel(context.Background(), id, func(k StoredKernel) error {
		if a, b := dumpKernel(k.Kernel), dumpKernel(recs[i].Kernel); a != b {
			t.Fatalf("EachKernel, kernel %d:\ngot  %s\nwant %s", i, a, b)
		}
		i++
		return nil
	})
	if err != nil || i != len(recs) {
		t.Errorf("EachKernel: %d kernels (%v), want %d", i, err, len(recs))
	}
}

// TestSeriesAgain changes one part of a series key at a time in one
// launch of ten alike: that launch is a row of its own, the ones after it
// join the first launch's series again (the writer knows a launch like
// the one before without its key: lastLaunch), and all read back as
// added.
func TestSeriesAgain(t *testing.T) {
	base := traceRecords(t)[0]
	for _, c := range []struct {
		name string
		edit func(r *KernelRecord)
	}{
		{"process", func(r *KernelRecord) { r.Kernel.Process = "other" }},
		{"context", func(r *KernelRecord) { r.Kernel.Context = "9" }},
		{"stream", func(r *KernelRecord) { r.Kernel.Stream = "9" }},
		{"device index", func(r *KernelRecord) { r.Kernel.DeviceIndex = 3 }},
		{"device", func(r *KernelRecord) { r.Kernel.Device = "other" }},
		{"cc", func(r *KernelRecord) { r.Kernel.CC = "9.0" }},
		{"registers", func(r *KernelRecord) { r.Kernel.Registers++ }},
		{"static smem", func(r *KernelRecord) { r.Kernel.StaticSMem = math.NaN() }},
		{"dynamic smem", func(r *KernelRecord) { r.Kernel.DynamicSMem = 1 }},
		{"grid", func(r *KernelRecord) { r.Kernel.Grid[2] = 2 }},
		{"block", func(r *KernelRecord) { r.Kernel.Block[0] = 64 }},
		{"invocations", func(r *KernelRecord) { r.Kernel.Invocations = 2 }},
		{"name", func(r *KernelRecord) { r.Kernel.Name = "other" }},
		{"demangled", func(r *KernelRecord) { r.Kernel.Demangled = "other()" }},
		{"canonical value", func(r *KernelRecord) { r.Canonical[1].Value = 29 }},
		{"canonical name", func(r *KernelRecord) { r.Canonical[1].Name = "sm_other" }},
		{"canonical more", func(r *KernelRecord) { r.Canonical = append(r.Canonical, NamedValue{"x", 1}) }},
		{"finding message", func(r *KernelRecord) { r.Findings[0].Message = "other" }},
		{"finding kernel", func(r *KernelRecord) { r.Findings[0].Kernel = "7" }},
		{"finding gain", func(r *KernelRecord) { r.Findings[0].Gain = math.NaN() }},
		{"finding evidence", func(r *KernelRecord) { r.Findings[0].Evidence = []string{"e"} }},
		{"findings more", func(r *KernelRecord) { r.Findings = append(r.Findings, r.Findings[0]) }},
		{"limiter", func(r *KernelRecord) { r.Limiter = Limiter{Unit: "dram", Percent: 80} }},
		{"missing", func(r *KernelRecord) { r.Missing = []Missing{{Rule: "r", Needs: "n"}} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, _ := mustOpen(t)
			var recs []KernelRecord
			for i := range 10 {
				k := base.Kernel.Clone()
				k.ID = fmt.Sprint(100 + i)
				k.Start += float64(i) * 1e-4
				k.Duration = 7e-5 + float64(i)*1e-7
				r := KernelRecord{Kernel: k, Canonical: []NamedValue{{"duration", k.Duration}, {"sm_count", 28}},
					Findings: []profan.Finding{{Rule: "small-grid", Severity: profan.Warning, Kernel: k.ID, Message: "m", Gain: 0.1}}}
				if i == 5 {
					c.edit(&r)
				}
				recs = append(recs, r)
			}
			id := ingest(t, db, testInfo("sha256:again", nil), recs)
			if n := counts(t, db)["kernels"]; n != 2 {
				t.Errorf("stored %d kernels rows, want 2", n)
			}
			got, err := db.Kernels(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range recs {
				if a, b := dumpKernel(got[i].Kernel), dumpKernel(r.Kernel.Clone()); a != b {
					t.Fatalf("kernel %d:\ngot  %s\nwant %s", i, a, b)
				}
				if a, b := fmt.Sprint(got[i].Findings), fmt.Sprint(r.Findings); a != b {
					t.Fatalf("kernel %d findings: got %s, want %s", i, a, b)
				}
			}
		})
	}
}

// TestSummaryRange holds that a summary row keeps what the export printed
// of its launches through the store: the count, mean, range and spread.
func TestSummaryRange(t *testing.T) {
	for i, file := range []string{
		"../ingest/testdata/nvprof/nanzifan-titanxp-gpu-api-summary-um.csv",
		"../ingest/testdata/nsys/llmperfopt-nsys-stats-cuda-gpu-kern-sum.csv",
	} {
		t.Run(file, func(t *testing.T) {
			db, _ := mustOpen(t)
			run, err := importer.ReadFile(file, importer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var recs []KernelRecord
			for _, k := range run.Kernels {
				recs = append(recs, KernelRecord{Kernel: k})
			}
			id := ingest(t, db, testInfo(fmt.Sprintf("sha256:%d", i), nil), recs)
			got, err := db.Kernels(context.Background(), id)
			if err != nil || len(got) != len(recs) {
				t.Fatalf("%d kernels back, want %d: %v", len(got), len(recs), err)
			}
			for j, r := range recs {
				k := got[j].Kernel
				lo, hi, sd, ok := r.Kernel.DurationSpread()
				glo, ghi, gsd, gok := k.DurationSpread()
				if !ok {
					t.Fatalf("kernel %d: no range in the export", j)
				}
				if k.Invocations != r.Kernel.Invocations || k.Duration != r.Kernel.Duration || glo != lo || ghi != hi || gok != ok ||
					fmt.Sprint(gsd) != fmt.Sprint(sd) {
					t.Errorf("kernel %d: %d launches, mean %g, [%g, %g] sd %g; want %d, %g, [%g, %g] sd %g", j,
						k.Invocations, k.Duration, glo, ghi, gsd, r.Kernel.Invocations, r.Kernel.Duration, lo, hi, sd)
				}
			}
		})
	}
}

// EachKernel calls fn with each kernel record of run runID, as Kernels
// returns them and in their order (the export's), a series' launches
// merged among the records. Memory grows with the records stored and the
// series open at once (a chunk each), not with the launches a series
// stands for (a trace of 600,000 launches of a few kernels is a few
// records).
func (db *DB) EachKernel(ctx context.Context, runID int64, fn func(StoredKernel) error) error {
	return db.EachRecord(ctx, runID, func(_ int64, k StoredKernel) error { return fn(k) }, nil)
}

// TestEachKernel holds that EachKernel yields what Kernels returns, every
// launch of a series included, in Kernels' order (the export's: it once
// gave the records first, then each series' launches), without holding
// the launches.
func TestEachKernel(t *testing.T) {
	db, _ := mustOpen(t)
	ctx := context.Background()
	recs := traceRecords(t)
	recs[7].Findings = []profan.Finding{{Rule: "small-grid", Severity: profan.Warning, Message: "other", Gain: 0.2}}
	id := ingest(t, db, testInfo("sha256:trace", nil), recs)
	all, err := db.Kernels(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, k := range all {
		want[k.Kernel.ID] = fmt.Sprintf("%v %v %v", k.Kernel.Duration, k.Canonical, k.Findings)
	}
	n := 0
	err = db.EachKernel(ctx, id, func(k StoredKernel) error {
		if n < len(all) && k.Kernel.ID != all[n].Kernel.ID {
			t.Fatalf("launch %d: %s, want %s (Kernels' order)", n, k.Kernel.ID, all[n].Kernel.ID)
		}
		n++
		if got := fmt.Sprintf("%v %v %v", k.Kernel.Duration, k.Canonical, k.Findings); got != want[k.Kernel.ID] {
			t.Errorf("launch %s: %s, want %s", k.Kernel.ID, got, want[k.Kernel.ID])
		}
		return nil
	})
	if err != nil || n != len(all) || n != 301 {
		t.Errorf("EachKernel: %d launches (%v), want %d", n, err, len(all))
	}
	if err := db.EachKernel(ctx, id+1, func(StoredKernel) error { return nil }); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing run: %v", err)
	}
}
