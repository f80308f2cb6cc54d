package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
)

// TestDiffSides: each side of a diff is an export or a stored run chosen by
// ID, latest or labels, and --baseline/--run say the same as gate.
func TestDiffSides(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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

// diff reads like benchstat: the kernels that changed, the largest change
// first; the unchanged ones counted, not listed, unless --all; a geomean
// and total line; the test and p where there are repeats; a warning when
// the sides share no kernel.
func TestDiffLikeBenchstat(t *testing.T) {
	// Two captures of the transposes: only copy's SM throughput moved
	// (+7.7%, one launch each: the 5% floor decides).
	a, b := fx+"transpose.import.details.csv", fx+"transpose.full.details.csv"
	out, errOut, code := run(t, "diff", a, b)
	// The step first: no wall without a timeline, the kernel time.
	if code != ExitOK || !strings.HasPrefix(out, "step: wall: neither side has a timeline (nsys or torch.profiler measures the wall) · kernel time 125.57 us → 124.77 us (-0.6%) · launches 5 → 5\n") ||
		!strings.Contains(out, "\ncopy(float *, const float *)  (") || strings.Count(out, "launches, ") != 1 ||
		!strings.Contains(out, "\ngeomean duration ×1.004 (+0.4%) over 5 shared kernels · 4 unchanged kernels not listed (--all lists them)\n") {
		t.Errorf("diff: exit %d\n%s%s", code, out, errOut)
	}
	if out, _, _ := run(t, "diff", "--all", a, b); strings.Count(out, "launches, ") != 5 || strings.Contains(out, "not listed") {
		t.Errorf("diff --all lists every kernel:\n%s", out)
	}
	// Repeats: five launches a side, Mann-Whitney U.
	if out, _, _ := run(t, "diff", fx+"series_v0.runs5.details.csv", fx+"series_v1.runs5.details.csv"); !regexp.MustCompile(`duration +71.10 us +±1% n=5 +22.82 us +±1% n=5 +-67.9% +better +Mann-Whitney U p=0.008`).MatchString(out) {
		t.Errorf("diff of repeats:\n%s", out)
	}
	// Largest change first: ResNet step, default against channels_last.
	out, errOut, code = run(t, "diff", "--format", "json", "../../fixtures/check6/resnet.pair.default.csv.gz", "../../fixtures/check6/resnet.pair.cl.csv.gz")
	if code != ExitOK {
		t.Fatal(errOut)
	}
	var d struct {
		Kernels []struct {
			Status  string
			Metrics []struct {
				Metric, Verdict string
				Rel             float64 `json:"rel_change"`
			}
		}
		Summary struct {
			Shared    int      `json:"kernels_shared"`
			Unchanged int      `json:"kernels_unchanged"`
			Geomean   *float64 `json:"geomean_ratio"`
		}
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	last, onlyOne := 10.0, false
	for _, k := range d.Kernels {
		if k.Status != "both" {
			onlyOne = true
			continue
		}
		if onlyOne {
			t.Errorf("a kernel of both sides after one of only one")
		}
		for _, m := range k.Metrics {
			if m.Metric == "duration" && m.Verdict != "same" {
				if r := max(m.Rel, -m.Rel); r > last {
					t.Errorf("duration move %g after %g: not largest first", m.Rel, last)
				} else {
					last = r
				}
			}
		}
	}
	if d.Summary.Shared != 32 || d.Summary.Unchanged != 27 || d.Summary.Geomean == nil || len(d.Kernels) != 32-27+24+18 {
		t.Errorf("summary %+v, %d kernels listed", d.Summary, len(d.Kernels))
	}
	// No kernel in common.
	out, _, _ = run(t, "diff", a, fx+"copy.details.csv")
	if !strings.Contains(out, "share no kernel: nothing is compared") {
		t.Errorf("diff of two programs:\n%s", out)
	}
	_, errOut, _ = run(t, "diff", "--format", "json", a, fx+"copy.details.csv")
	if !strings.Contains(errOut, "share no kernel") {
		t.Errorf("diff --format json of two programs: stderr %q", errOut)
	}
	out, _, code = run(t, "diff", "--format", "markdown", a, b)
	if code != ExitOK || !strings.HasPrefix(out, "**profan diff** ") || !strings.Contains(out, "| copy | 10.69 us → 11.17 us | +4.5% | same |") ||
		!strings.Contains(out, "<details><summary>every metric of 1 kernel</summary>") {
		t.Errorf("diff --format markdown:\n%s", out)
	}
}

// diff of two traces leads with the step: the wall and the busy share,
// then what moved by cause and by lever, then the kernels.
func TestDiffLeadsWithTheStep(t *testing.T) {
	t.Parallel()
	out, errOut, code := run(t, "diff", "../../fixtures/timeline/train_small.json.gz", "../../fixtures/timeline/train_small_graphs.json.gz")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.SplitN(out, "\n", 5)
	if !strings.HasPrefix(lines[0], "step: wall 62.961 ms → 8.635 ms (-86.3%) · GPU busy 10.6% → 82.2% · kernel time ") ||
		!strings.HasPrefix(lines[1], "idle by cause: launch-bound 53.968 ms → 0 s") ||
		!regexp.MustCompile(`changes advised: cuda-graphs ~[0-9.]+ ms a step → in use \(resolved\)`).MatchString(out) {
		t.Errorf("diff of two traces:\n%s", strings.Join(lines[:4], "\n"))
	}
	out, _, _ = run(t, "diff", "-f", "json", "../../fixtures/timeline/train_small.json.gz", "../../fixtures/timeline/train_small_graphs.json.gz")
	var d struct {
		Step struct {
			WallA float64 `json:"wall_a_s"`
			WallB float64 `json:"wall_b_s"`
		} `json:"step"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || math.Abs(d.Step.WallA-0.062961) > 1e-5 || math.Abs(d.Step.WallB-0.008635) > 1e-5 {
		t.Errorf("diff --format json step: %+v %v", d.Step, err)
	}
}

// A diff of two traces that mark several steps leads with the wall per
// step, its spread and the test of the move; one of single steps with
// the wall.
func TestDiffWallPerStep(t *testing.T) {
	t.Parallel()
	out, errOut, code := run(t, "diff", "../../fixtures/host9/copy.default.json.gz", "../../fixtures/host9/copy.pinned.json.gz")
	if code != ExitOK || !strings.HasPrefix(out, "step: wall per step 9.516 ms ±11% n=3 → 5.699 ms ±13% n=3 (-40.1%, Mann-Whitney U p=0.100, not significant) · GPU busy per step 71.6% ±7% n=3 → 70.3% ±11% n=3 (Mann-Whitney U p=1.000, not significant) · kernel time") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	out, _, _ = run(t, "diff", "-f", "json", "../../fixtures/host9/copy.default.json.gz", "../../fixtures/host9/copy.pinned.json.gz")
	if !strings.Contains(out, `"wall_per_step":{"a_s":`) && !strings.Contains(out, `"wall_per_step": {`) {
		t.Errorf("diff -f json has no wall_per_step:\n%.2000s", out)
	}
	out, _, _ = run(t, "diff", "../../fixtures/timeline/train_small.json.gz", "../../fixtures/timeline/train_small_graphs.json.gz")
	if !strings.HasPrefix(out, "step: wall 62.961 ms → 8.635 ms (-86.3%) · GPU busy 10.6% → 82.2%") {
		t.Errorf("diff of single steps:\n%.500s", out)
	}
}
