package verdictdb

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	importer "github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/store"
)

// TestHostCallsRoundTrip stores the host calls of real nsys exports (an
// API trace joined with its GPU trace; the CUDA API and OS runtime
// summaries) with their runs and holds that Each gives the run back with
// the same calls, in the same order, on each backend; a number the export
// lacks (NaN, made here by mutating a real row) comes back NaN.
func TestHostCallsRoundTrip(t *testing.T) {
	eachBackend(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, file := range []string{
			"../ingest/testdata/nsys/tensoriterator-rtx3090-nsys2022-stats-cudaapitrace-gputrace.csv.gz",
			"../ingest/testdata/nsys/cufcm-rtx2080ti-nsys2022-stats-cudaapisum-osrtsum.csv",
		} {
			run, err := importer.ReadFile(file, importer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(run.APICalls) == 0 {
				t.Fatalf("%s: no host calls read", file)
			}
			got, err := read(ctx, db, storeCalls(t, db, file, run), analysis.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if g, w := callsText(got.Run.APICalls), callsText(run.APICalls); g != w {
				t.Errorf("%s: host calls read back\n%s\nwant\n%s", file, g, w)
			}
		}
		// A call whose total the export lacked.
		run, err := importer.ReadFile("../ingest/testdata/nsys/cufcm-rtx2080ti-nsys2022-stats-cudaapisum-osrtsum.csv", importer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		run.APICalls[0].Total = math.NaN()
		calls, err := db.HostCalls(ctx, storeCalls(t, db, "nan", run))
		if err != nil || len(calls) != len(run.APICalls) || !math.IsNaN(calls[0].Total) || calls[0].Avg != run.APICalls[0].Avg {
			t.Errorf("NaN total: read %v, %v", calls, err)
		}
	})
}

// storeCalls stores a run of source with run's host calls only, and
// returns its ID.
func storeCalls(t *testing.T, db *store.DB, source string, run *profan.Run) int64 {
	t.Helper()
	w, err := db.BeginRun(context.Background(), store.RunInfo{Digest: "sha256:" + source, Source: source, Tool: run.Tool, Format: run.Format, Verdict: analysis.VerdictVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Rollback()
	if err := w.SetHostCalls(run.APICalls); err != nil {
		t.Fatal(err)
	}
	id, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func callsText(cs []*profan.APICall) string {
	s := ""
	for _, c := range cs {
		s += fmt.Sprintf("%+v\n", *c)
	}
	return s
}
