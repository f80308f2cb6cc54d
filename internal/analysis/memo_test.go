package analysis_test

import (
	"fmt"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/rules"
)

// TestMemo checks that the memo's verdicts on the launches of real traces
// are those Analyze gives each launch: same findings (naming their own
// launch), limiter and metrics.
func TestMemo(t *testing.T) {
	eng, err := rules.NewEngine("all")
	if err != nil {
		t.Fatal(err)
	}
	opt := analysis.Options{Rules: eng}
	for _, f := range []string{
		"../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv",
		"../ingest/testdata/nsys/cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv",
	} {
		run, err := ingest.ReadFile(f, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		memo := analysis.NewMemo(opt)
		hits := 0
		seen := map[string]bool{}
		for _, k := range run.Kernels {
			got, want := memo.Analyze(run, k), analysis.Analyze(run, k, opt)
			key := fmt.Sprint(k.Name, k.Grid, k.Block, k.Duration)
			if seen[key] {
				hits++
			}
			seen[key] = true
			if got.Record != k {
				t.Fatalf("%s: verdict of another launch", k.ID)
			}
			if a, b := fmt.Sprintf("%+v", got.Findings), fmt.Sprintf("%+v", want.Findings); a != b {
				t.Fatalf("%s %s findings:\nmemo    %s\nanalyze %s", f, k.ID, a, b)
			}
			if a, b := fmt.Sprint(got.Limiter), fmt.Sprint(want.Limiter); a != b {
				t.Fatalf("%s %s limiter: memo %s, analyze %s", f, k.ID, a, b)
			}
			if a, b := fmt.Sprint(got.Metrics), fmt.Sprint(want.Metrics); a != b {
				t.Fatalf("%s %s metrics: memo %s, analyze %s", f, k.ID, a, b)
			}
		}
		if hits == 0 {
			t.Errorf("%s: no launch repeated an earlier one", f)
		}
	}
}
