package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"
)

const (
	benchRuns    = 1000
	benchKernels = 50
)

var bench struct {
	once sync.Once
	dir  string
	db   *DB
	err  error
}

func cleanupBench() {
	if bench.db != nil {
		bench.db.Close()
	}
	if bench.dir != "" {
		os.RemoveAll(bench.dir)
	}
}

// benchDBEnv names a database file that benchmarks keep and reuse between
// runs (built when missing), to skip the setup while tuning.
const benchDBEnv = "PROFAN_STORE_BENCH_DB"

// benchDB returns a database of benchRuns runs of benchKernels kernels (10
// kernel names, each launched 5 times per run), each with 40 canonical and
// 10 raw metrics, built once per test binary.
func benchDB(b *testing.B) *DB {
	bench.once.Do(func() {
		path := os.Getenv(benchDBEnv)
		if path == "" {
			bench.dir, bench.err = os.MkdirTemp("", "profan-store-bench-")
			if bench.err != nil {
				return
			}
			path = filepath.Join(bench.dir, "bench.db")
		}
		db, err := Open(path)
		if err != nil {
			bench.err = err
			return
		}
		bench.db = db
		if runs, err := db.Runs(context.Background(), RunFilter{}); err != nil || len(runs) == benchRuns {
			bench.err = err
			return
		}
		start := time.Now()
		ctx := context.Background()
		for r := range benchRuns {
			w, err := db.BeginRun(ctx, RunInfo{Digest: fmt.Sprintf("sha256:%d", r), Tool: "ncu", Format: "bench",
				Labels: map[string]string{"branch": []string{"main", "dev"}[r%2], "gpu": "h100"}})
			if err != nil {
				bench.err = err
				return
			}
			for i := range benchKernels {
				if err := w.AddKernel(synthKernel(r, i, 10, 10)); err != nil {
					bench.err = err
					return
				}
			}
			if _, err := w.Commit(); err != nil {
				bench.err = err
				return
			}
		}
		fmt.Fprintf(os.Stderr, "bench setup: %d runs × %d kernels × %d canonical values in %v\n",
			benchRuns, benchKernels, canonicalPerKernel, time.Since(start).Round(time.Millisecond))
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.db
}

// BenchmarkTrend times a trend query of one canonical metric of one kernel
// name (5 launches per run) over 1,000 runs × 50 kernels: 5,000 points.
func BenchmarkTrend(b *testing.B) { benchTrend(b, benchDB(b), benchRuns) }

// benchTrend times the trend of one canonical metric of one kernel name
// on db, filled with runs runs (BenchmarkTrend, BenchmarkTrendPG).
func benchTrend(b *testing.B, db *DB, runs int) {
	ctx := context.Background()
	q := TrendQuery{Kernel: regexp.MustCompile(`^kernel_07\(`), Metric: "canonical_13"}
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   int
	}{
		{"all", nil, runs * benchKernels / 10},
		{"label", map[string]string{"branch": "dev"}, runs * benchKernels / 20},
	} {
		b.Run(tc.name, func(b *testing.B) {
			q.Labels = tc.labels
			for b.Loop() {
				pts, err := db.Trend(ctx, q)
				if err != nil {
					b.Fatal(err)
				}
				if len(pts) != tc.want {
					b.Fatalf("got %d points, want %d", len(pts), tc.want)
				}
			}
		})
	}
}

// BenchmarkTrendRaw times the same query of a raw metric, read from blobs.
func BenchmarkTrendRaw(b *testing.B) {
	db := benchDB(b)
	ctx := context.Background()
	q := TrendQuery{Kernel: regexp.MustCompile(`^kernel_07\(`), Metric: "section__raw_metric_007.sum.per_second"}
	for b.Loop() {
		pts, err := db.Trend(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		if len(pts) != benchRuns*benchKernels/10 {
			b.Fatalf("got %d points", len(pts))
		}
	}
}

// BenchmarkIngest writes runs of 1,000 kernels with 300 raw metrics and 40
// canonical values each, the shape of a large ncu export.
func BenchmarkIngest(b *testing.B) {
	db, _ := mustOpen(b)
	ctx := context.Background()
	const kernels = 1000
	recs := make([]KernelRecord, kernels)
	var blobBytes int
	var d dict
	for i := range recs {
		recs[i] = synthKernel(0, i, 100, 300)
		blobBytes += len(d.encode(recs[i].Kernel))
	}
	n := 0
	for b.Loop() {
		w, err := db.BeginRun(ctx, RunInfo{Digest: fmt.Sprintf("sha256:%d", n), Tool: "ncu", Format: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range recs {
			if err := w.AddKernel(r); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := w.Commit(); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.SetBytes(int64(blobBytes))
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(n*kernels), "µs/kernel")
}
