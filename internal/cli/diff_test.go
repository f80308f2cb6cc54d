package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestDiffSides: each side of a diff is an export or a stored run chosen by
// ID, latest or labels, and --baseline/--run say the same as gate.
func TestDiffSides(t *testing.T) {
	db := series(t)
	for _, tt := range []struct {
		name string
		args []string
		code ExitCode
		out  string // in stdout
		err  string // in stderr
	}{
		{"two exports", []string{"diff", fx + "series_v0.runs5.details.csv", fx + "series_v1.runs5.details.csv"}, ExitOK,
			"series_v0.runs5.details.csv: 5 launches, ../../fixtures/ncu/series_v1.runs5.details.csv: 5)", ""},
		{"an export and a run", []string{"diff", "--db", db, fx + "series_v0.runs5.details.csv", "2"}, ExitOK, "../../fixtures/ncu/series_v0.runs5.details.csv: 5 launches, run 2: 5)", ""},
		{"labels and latest", []string{"diff", "--db", db, "build=v2", "latest"}, ExitOK, "(run 3: 5 launches, run 4: 5)", ""},
		{"latest twice", []string{"diff", "--db", db, "latest", "latest"}, ExitOK, "(run 3: 5 launches, run 4: 5)", ""},
		{"baseline and run", []string{"diff", "--db", db, "--baseline", "build=v0", "--run", "build=v2"}, ExitOK, "(run 1: 5 launches, run 3: 5)", ""},
		{"baseline alone", []string{"diff", "--db", db, "--baseline", "build=v1"}, ExitOK, "(run 2: 5 launches, run 4: 5)", ""},
		{"no such label", []string{"diff", "--db", db, "--baseline", "build=v9"}, ExitError, "", "old side build=v9: no stored run labelled build=v9 before run 4"},
		{"no such file", []string{"diff", "--db", db, "old.csv", "new.csv"}, ExitError, "", "old.csv: no such export file"},
		{"both forms", []string{"diff", "--db", db, "1", "2", "--baseline", "1"}, ExitError, "", "give two runs or exports, or --baseline"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
				t.Errorf("exit %d, want %d; stdout want %q:\n%s\nstderr want %q:\n%s", code, tt.code, tt.out, out, tt.err, errOut)
			}
		})
	}
}

// TestDiffVerdicts: a metric moved its better way while the time got worse
// is not "better" (v2 → v3 of the series: the L1 hit rate goes from 0 to
// 72% inside a 7.8× regression), and metrics only one side has are listed.
func TestDiffVerdicts(t *testing.T) {
	db := series(t)
	out, errOut, code := run(t, "diff", "--db", db, "--format", "json", "3", "4")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var d struct {
		Kernels []struct {
			Metrics []struct {
				Metric, Better, Verdict string
				A, B                    float64
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Kernels) != 1 {
		t.Fatalf("json: %v, %d kernels", err, len(d.Kernels))
	}
	got := map[string]string{}
	for _, m := range d.Kernels[0].Metrics {
		got[m.Metric] = m.Better + " " + m.Verdict
	}
	for metric, want := range map[string]string{
		"duration":    "lower worse",
		"l1_hit_rate": "higher better-but-slower",
		"l2_hit_rate": "higher better-but-slower",
	} {
		if got[metric] != want {
			t.Errorf("%s: %q, want %q (all: %v)", metric, got[metric], want, got)
		}
	}
	// The metrics page has the efficiencies; the details page does not.
	out, errOut, code = run(t, "diff", fx+"saxpy.details.csv", fx+"saxpy.metrics.details.csv")
	if code != ExitOK || !strings.Contains(out, "? only in ../../fixtures/ncu/saxpy.metrics.details.csv, not in ../../fixtures/ncu/saxpy.details.csv, so not compared: global_load_requests, gld_transactions,") {
		t.Errorf("exit %d (%s): the metrics one side lacks are not listed:\n%s", code, errOut, out)
	}
}

// TestDiffAgreesWithTrend: on one launch per run (series6), each step of
// consecutive runs gets the verdict, p-value and test trend states for it;
// a test of the two runs alone once gave other p-values.
func TestDiffAgreesWithTrend(t *testing.T) {
	db := series6(t)
	out, _, code := run(t, "trend", "--db", db, "-k", "transpose", "-m", "duration", "--format", "json")
	if code != ExitOK {
		t.Fatalf("trend: exit %d", code)
	}
	var tr struct {
		Changes []struct {
			Run    int64   `json:"run"`
			P      float64 `json:"p"`
			Rel    float64 `json:"rel_change"`
			Method string  `json:"method"`
		} `json:"changes"`
	}
	if err := json.Unmarshal([]byte(out), &tr); err != nil || len(tr.Changes) != 4 {
		t.Fatalf("trend json: %v, %d changes", err, len(tr.Changes))
	}
	changes := map[int64]int{}
	for i, c := range tr.Changes {
		changes[c.Run] = i
	}
	for b := int64(2); b <= 6; b++ {
		out, errOut, code := run(t, "diff", "--db", db, "--all", "--format", "json", fmt.Sprint(b-1), fmt.Sprint(b))
		if code != ExitOK {
			t.Fatalf("diff: exit %d: %s", code, errOut)
		}
		var d struct {
			Kernels []struct {
				Metrics []struct {
					Metric, Verdict, Test string
					P                     float64
					Rel                   float64 `json:"rel_change"`
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Kernels) != 1 {
			t.Fatalf("diff json: %v", err)
		}
		for _, m := range d.Kernels[0].Metrics {
			if m.Metric != "duration" {
				continue
			}
			i, changed := changes[b]
			switch {
			case changed && (m.Verdict == "same" || m.P != tr.Changes[i].P || m.Rel != tr.Changes[i].Rel || m.Test != tr.Changes[i].Method):
				t.Errorf("diff %d %d: %s p=%g %+g by %s; trend: p=%g %+g by %s", b-1, b, m.Verdict, m.P, m.Rel, m.Test, tr.Changes[i].P, tr.Changes[i].Rel, tr.Changes[i].Method)
			case !changed && m.Verdict != "same":
				t.Errorf("diff %d %d: %s, but trend states no change", b-1, b, m.Verdict)
			}
		}
	}
}
