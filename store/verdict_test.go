package store

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
	importer "github.com/profan-dev/profan/ingest"
	"github.com/profan-dev/profan/rules"
)

// TestVerdictRoundTrip writes the verdicts the analysis makes on real
// exports (an ncu details page, with a finding suppressed; an nsys trace,
// whose repeated launches are stored as series) and holds that EachVerdict
// reads back the same verdicts: metrics, limiter, findings, suppressed
// findings, rules skipped, counters missing, run-level findings, and
// no re-make.
func TestVerdictRoundTrip(t *testing.T) {
	sel, err := rules.NewSelector("all", nil, []rules.Suppression{{Rule: "latency-bound", Reason: "a test"}})
	if err != nil {
		t.Fatal(err)
	}
	opt := analysis.Options{Rules: &rules.Engine{Sel: sel, T: rules.DefaultThresholds}}
	db, _ := mustOpen(t)
	ctx := context.Background()
	for _, file := range []string{"../fixtures/ncu/transpose.metrics.details.csv", "../ingest/testdata/nsys/cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv"} {
		t.Run(file, func(t *testing.T) {
			run, err := importer.ReadFile(file, importer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			v := analysis.AnalyzeRun(run, opt)
			w, err := db.BeginRun(ctx, RunInfo{Digest: "sha256:" + file, Source: file, Tool: run.Tool, Format: run.Format})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Rollback()
			for _, a := range v.Kernels {
				if err := w.AddVerdict(a); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range v.Findings {
				if err := w.AddRunFinding(f); err != nil {
					t.Fatal(err)
				}
			}
			id, err := w.Commit()
			if err != nil {
				t.Fatal(err)
			}
			got, err := db.Verdict(ctx, id, analysis.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got.RemadeFrom != 0 {
				t.Errorf("a verdict of this maker re-made from version %d", got.RemadeFrom)
			}
			if len(got.Kernels) != len(v.Kernels) {
				t.Fatalf("%d verdicts read back, want %d", len(got.Kernels), len(v.Kernels))
			}
			byID := map[string]*analysis.Kernel{}
			for _, a := range got.Kernels {
				byID[a.K.ID] = a
			}
			suppressed := 0
			for _, want := range v.Kernels {
				a := byID[want.K.ID]
				if a == nil {
					t.Fatalf("launch %s not read back", want.K.ID)
				}
				suppressed += len(a.Suppressed)
				if g, w := verdictText(a), verdictText(want); g != w {
					t.Errorf("launch %s:\ngot  %s\nwant %s", want.K.ID, g, w)
				}
			}
			if suppressed == 0 {
				t.Errorf("no suppressed finding read back")
			}
			if g, w := fmt.Sprintf("%v", got.Findings), fmt.Sprintf("%v", v.Findings); g != w {
				t.Errorf("run findings:\ngot  %s\nwant %s", g, w)
			}
		})
	}
}

// verdictText is what a stored verdict must keep of a.
func verdictText(a *analysis.Kernel) string {
	var ms []string
	for _, d := range a.Metrics.Values {
		if !math.IsNaN(d.Value) {
			ms = append(ms, fmt.Sprintf("%s=%v", d.Name, d.Value))
		}
	}
	l := a.Limiter
	return fmt.Sprintf("metrics %v\nlimiter %v %q %v %q\nfindings %v\nsuppressed %v\nskipped %q\nmissing %v\nmodel %s",
		ms, l.Unit, l.Pipe, l.Percent, l.Evidence, findingsText(a.Findings), a.Suppressed, a.Skipped, a.Missing, modelText(a.Model))
}

func findingsText(fs []profan.Finding) string { return fmt.Sprintf("%+v", fs) }

func modelText(m analysis.Model) string {
	s := ""
	for _, x := range []*analysis.Access{m.GlobalLoad, m.GlobalStore, m.SharedLoad, m.SharedStore} {
		if x != nil {
			s += fmt.Sprintf("%+v ", *x)
		} else {
			s += "- "
		}
	}
	return s
}
