package ingestdb

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/store"
)

// TestTimelineStored: a trace's timeline is stored with its run and read
// back with the figures analyze states; an ncu export stores none.
func TestTimelineStored(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	trace := "../../fixtures/timeline/decode_sync.json.gz"
	if _, err := Ingest(ctx, path, []string{trace, fx + "saxpy.details.csv"}, Options{}); err != nil {
		t.Fatal(err)
	}
	db, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	run, err := ingest.ReadFile(trace, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := analysis.AnalyzeRun(run, analysis.Options{}).Timeline
	got, ok, err := db.Timeline(ctx, 1)
	if err != nil || !ok {
		t.Fatalf("run 1: timeline %v, %v", ok, err)
	}
	if got.Span != want.Span || got.BusyShare != want.BusyShare || got.Launches != want.LaunchCount || got.Device != want.Device {
		t.Errorf("stored %+v, analyze gives span %g busy %g launches %d", got, want.Span, want.BusyShare, want.LaunchCount)
	}
	calls := 0
	for _, i := range want.Idle {
		if math.Abs(got.Idle[i.Cause]-i.Seconds) > 1e-12 {
			t.Errorf("%s: stored %g s, analyze gives %g s", i.Cause, got.Idle[i.Cause], i.Seconds)
		}
		// The gaps and the calls behind them, which report --db once
		// said as "0 gaps" and left out.
		if got.Gaps[i.Cause] != i.Gaps || len(got.Calls[i.Cause]) != len(i.Calls) {
			t.Errorf("%s: stored %d gaps and %d calls, analyze gives %d and %d", i.Cause, got.Gaps[i.Cause], len(got.Calls[i.Cause]), i.Gaps, len(i.Calls))
			continue
		}
		for j, c := range i.Calls {
			if store.IdleCall(c) != got.Calls[i.Cause][j] {
				t.Errorf("%s: call %d stored %+v, analyze gives %+v", i.Cause, j, got.Calls[i.Cause][j], c)
			}
		}
		calls += len(i.Calls)
	}
	if calls == 0 {
		t.Error("the trace's idle time is behind no call: the test compares none")
	}
	if _, ok, err := db.Timeline(ctx, 2); ok || err != nil {
		t.Errorf("run 2 (ncu): a timeline (%v, %v)", ok, err)
	}
	all, err := db.Timelines(ctx)
	if err != nil || len(all) != 1 || all[0].Run != 1 {
		t.Errorf("Timelines: %+v, %v", all, err)
	}
}

// TestHostCallsStored: an nsys export's host calls (an API trace; the CUDA
// API and OS runtime summaries) are stored with its run as the reader
// gives them, in order; an ncu export stores none.
func TestHostCallsStored(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	files := []string{
		"../ingest/testdata/nsys/tensoriterator-rtx3090-nsys2022-stats-cudaapitrace-gputrace.csv.gz",
		"../ingest/testdata/nsys/cufcm-rtx2080ti-nsys2022-stats-cudaapisum-osrtsum.csv",
		fx + "saxpy.details.csv",
	}
	if _, err := Ingest(ctx, path, files, Options{}); err != nil {
		t.Fatal(err)
	}
	db, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i, file := range files {
		run, err := ingest.ReadFile(file, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.HostCalls(ctx, int64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(run.APICalls) {
			t.Fatalf("%s: %d host calls stored, the export has %d", file, len(got), len(run.APICalls))
		}
		for j, c := range run.APICalls {
			if *got[j] != *c {
				t.Errorf("%s: call %d stored %+v, read %+v", file, j, *got[j], *c)
			}
		}
	}
}
