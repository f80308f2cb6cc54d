package verdictdb

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	importer "github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/rules"
	"github.com/profan-dev/profan/internal/store"
	"github.com/profan-dev/profan/internal/store/storetest"
)

// read returns the verdict stored with run runID, every kernel's included
// (Each says how it is read).
func read(ctx context.Context, db *store.DB, runID int64, opt analysis.Options) (*analysis.RunVerdict, error) {
	var ks []*analysis.Kernel
	v, err := Each(ctx, db, runID, opt, func(a *analysis.Kernel) error {
		ks = append(ks, a)
		return nil
	})
	if err != nil {
		return nil, err
	}
	v.Kernels = ks
	return v, nil
}

// eachBackend opens a new, empty run database on each backend the tests run on
// (PostgreSQL where $PROFAN_TEST_PG names a server) and calls f with it.
func eachBackend(t *testing.T, f func(t *testing.T, db *store.DB)) {
	for _, b := range storetest.Backends {
		t.Run(b, func(t *testing.T) {
			db, err := store.Open(storetest.DSN(t, b))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			f(t, db)
		})
	}
}

// TestVerdictRoundTrip writes the verdicts the analysis makes on real
// exports (an ncu details page, with a finding suppressed; an nsys trace,
// whose repeated launches are stored as series) and holds that Each
// reads back the same verdicts: metrics, limiter, findings, suppressed
// findings, rules skipped, counters missing, run-level findings, and
// no re-make.
func TestVerdictRoundTrip(t *testing.T) {
	sel, err := rules.NewSelector("all", nil, []rules.Suppression{{Rule: "latency-bound", Reason: "a test"}})
	if err != nil {
		t.Fatal(err)
	}
	opt := analysis.Options{Rules: &rules.Engine{Sel: sel, Thresholds: rules.DefaultThresholds}}
	eachBackend(t, func(t *testing.T, db *store.DB) { roundTrip(t, db, opt) })
}

func roundTrip(t *testing.T, db *store.DB, opt analysis.Options) {
	ctx := context.Background()
	for _, file := range []string{"../../fixtures/ncu/transpose.metrics.details.csv", "../ingest/testdata/nsys/cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv"} {
		t.Run(file, func(t *testing.T) {
			run, err := importer.ReadFile(file, importer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			v := analysis.AnalyzeRun(run, opt)
			w, err := db.BeginRun(ctx, store.RunInfo{Digest: "sha256:" + file, Source: file, Tool: run.Tool, Format: run.Format, Verdict: analysis.VerdictVersion})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Rollback()
			var x Writer
			for _, a := range v.Kernels {
				if err := x.Add(w, a); err != nil {
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
			got, err := read(ctx, db, id, analysis.Options{})
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
				byID[a.Record.ID] = a
			}
			suppressed := 0
			for _, want := range v.Kernels {
				a := byID[want.Record.ID]
				if a == nil {
					t.Fatalf("launch %s not read back", want.Record.ID)
				}
				suppressed += len(a.Suppressed)
				if g, w := verdictText(a), verdictText(want); g != w {
					t.Errorf("launch %s:\ngot  %s\nwant %s", want.Record.ID, g, w)
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

// TestRemakeVerdict stores an export's kernels as an older profan did (no
// verdict but findings of other rules) under verdict version 1, and holds
// that Each re-makes each kernel's verdict in memory, and that
// Remake stores the verdict the analysis makes now, twice over.
func TestRemakeVerdict(t *testing.T) { eachBackend(t, remake) }

func remake(t *testing.T, db *store.DB) {
	ctx := context.Background()
	sel, err := rules.NewSelector("all", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	opt := analysis.Options{Rules: &rules.Engine{Sel: sel, Thresholds: rules.DefaultThresholds}}
	file := "../ingest/testdata/nsys/cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv"
	run, err := importer.ReadFile(file, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := analysis.AnalyzeRun(run, opt)
	// The metrics as the analysis makes them, the findings another rule's.
	w, err := db.BeginRun(ctx, store.RunInfo{Digest: "sha256:old", Source: file, Tool: run.Tool, Format: run.Format, Verdict: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Rollback()
	for _, a := range want.Kernels {
		var vals []store.NamedValue
		for _, v := range a.Metrics.Values {
			vals = append(vals, store.NamedValue{Name: v.Name, Value: v.Value})
		}
		if err := w.AddKernel(store.KernelRecord{Kernel: a.Record, Canonical: vals,
			Findings: []profan.Finding{{Rule: "old-rule", Kernel: a.Record.ID, Gain: math.NaN()}}}); err != nil {
			t.Fatal(err)
		}
	}
	id, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, remade int) {
		t.Helper()
		got, err := read(ctx, db, id, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got.RemadeFrom != remade {
			t.Errorf("%s: re-made from %d, want %d", what, got.RemadeFrom, remade)
		}
		byID := map[string]*analysis.Kernel{}
		for _, a := range got.Kernels {
			byID[a.Record.ID] = a
		}
		for _, w := range want.Kernels {
			if g := byID[w.Record.ID]; g == nil || verdictText(g) != verdictText(w) {
				t.Fatalf("%s: launch %s:\ngot  %v\nwant %s", what, w.Record.ID, g, verdictText(w))
			}
		}
	}
	check("read", 1)
	for range 2 {
		if err := Remake(ctx, db, id, opt); err != nil {
			t.Fatal(err)
		}
		check("stored", 0)
	}
	if old, err := Older(ctx, db); err != nil || len(old) != 0 {
		t.Errorf("older verdicts after the re-make: %v, %v", old, err)
	}
}
