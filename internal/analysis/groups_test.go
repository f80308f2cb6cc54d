package analysis_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/rules"
)

// TestGroups groups the launches of the FP32 PyTorch training step
// (fixtures/pytorch) and checks the arithmetic against the launches
// themselves: counts, totals, shares, and each finding's share of the
// capture as the sum of its launches' gains weighted by their time.
func TestGroups(t *testing.T) {
	eng, err := rules.NewEngine("all")
	if err != nil {
		t.Fatal(err)
	}
	var all []*analysis.Kernel
	runs, err := ingest.ReadFiles([]string{"../../fixtures/pytorch/train.full.details.csv.gz"}, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		all = append(all, analysis.Analyze(run, k, analysis.Options{Rules: eng}))
		return nil
	})
	if err != nil || len(runs) != 1 {
		t.Fatal(err)
	}
	v := &analysis.RunVerdict{Run: runs[0], Kernels: all}
	v.Finish(analysis.Options{})
	gs := v.Groups
	if len(all) != 83 || len(gs) != 25 {
		t.Fatalf("%d launches in %d groups, want 83 in 25", len(all), len(gs))
	}
	var total float64
	for _, a := range all {
		total += a.Record.Duration
	}
	launches, share := 0, 0.0
	for i, g := range gs {
		if i > 0 && g.Duration > gs[i-1].Duration {
			t.Errorf("group %d (%s) longer than group %d", i, g.Info.Display, i-1)
		}
		checkGroup(t, g, launchesOf(all, g.Name), total)
		launches += g.Launches
		share += g.Share
	}
	if launches != 83 || math.Abs(share-1) > 1e-9 {
		t.Errorf("groups hold %d launches and %g of the time", launches, share)
	}
	// The FP32 GEMMs: 4 groups with 80% of the time, the top four.
	top := 0.0
	for _, g := range gs[:4] {
		if !g.Info.FP32SIMT || len(g.Findings) == 0 || g.Findings[0].Rule != "tensor-cores-unused" {
			t.Errorf("top group %s: FP32 SIMT %v, first finding %v", g.Info.Display, g.Info.FP32SIMT, g.Findings)
		}
		top += g.Share
	}
	if top < 0.79 || top > 0.80 {
		t.Errorf("the four FP32 GEMM groups take %.3f of the time, want 0.796", top)
	}
}

// groupLaunches is what a group's launches add up to, counted launch by
// launch.
type groupLaunches struct {
	n         int
	d, lo, hi float64
	saved     map[string]float64 // per rule, Σ gain × duration
	count     map[string]int     // per rule, the launches it holds for
}

// launchesOf adds up the launches called name.
func launchesOf(all []*analysis.Kernel, name string) groupLaunches {
	l := groupLaunches{lo: math.Inf(1), saved: map[string]float64{}, count: map[string]int{}}
	for _, a := range all {
		if a.Record.DisplayName() != name {
			continue
		}
		l.n++
		l.d += a.Record.Duration
		l.lo, l.hi = math.Min(l.lo, a.Record.Duration), math.Max(l.hi, a.Record.Duration)
		for _, f := range a.Findings {
			l.count[f.Rule]++
			if !math.IsNaN(f.Gain) {
				l.saved[f.Rule] += f.Gain * a.Record.Duration
			}
		}
	}
	return l
}

// checkGroup holds a group to the sums of its launches (l), of a capture
// of total seconds: counts, time, range, share, and each finding's
// launches and share of the capture, the findings ranked by it.
func checkGroup(t *testing.T, g *analysis.Group, l groupLaunches, total float64) {
	t.Helper()
	if l.n != g.Launches || g.IDs.Len() != l.n || math.Abs(l.d-g.Duration) > 1e-12 || g.Min != l.lo || g.Max != l.hi || g.Rep.Record.Duration != l.hi {
		t.Errorf("%s: %d launches %g s [%g, %g], want %d %g s [%g, %g]", g.Info.Display, g.Launches, g.Duration, g.Min, g.Max, l.n, l.d, l.lo, l.hi)
	}
	if math.Abs(g.Share-l.d/total) > 1e-12 {
		t.Errorf("%s: share %g, want %g", g.Info.Display, g.Share, l.d/total)
	}
	if len(g.Findings) != len(l.count) {
		t.Errorf("%s: %d group findings for %d rules", g.Info.Display, len(g.Findings), len(l.count))
	}
	for j, f := range g.Findings {
		if f.Launches != l.count[f.Rule] {
			t.Errorf("%s %s: %d launches, want %d", g.Info.Display, f.Rule, f.Launches, l.count[f.Rule])
		}
		if want := l.saved[f.Rule] / total; l.saved[f.Rule] > 0 && math.Abs(f.CaptureGain-want) > 1e-12 {
			t.Errorf("%s %s: capture gain %g, want %g", g.Info.Display, f.Rule, f.CaptureGain, want)
		}
		if j > 0 && !math.IsNaN(f.CaptureGain) && f.CaptureGain > g.Findings[j-1].CaptureGain {
			t.Errorf("%s: findings not sorted by capture gain", g.Info.Display)
		}
	}
}

// TestSummaryGroups holds that a summary row, which stands for many
// launches, gives its group the count, mean, range and spread the export
// printed, not its mean as every launch's duration.
func TestSummaryGroups(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		file, kernel           string
		launches               int
		mean, min, max, stddev float64 // seconds; NaN: not printed
	}{
		// nvprof's summary prints Calls, Avg, Min and Max, no deviation.
		{"../ingest/testdata/nvprof/nanzifan-titanxp-gpu-api-summary-um.csv", "cuda_compute_flux",
			6000, 50.392e-6, 43.49e-6, 1.989134e-3, nan},
		// nsys's cuda_gpu_kern_sum adds the sample standard deviation.
		{"../ingest/testdata/nsys/llmperfopt-nsys-stats-cuda-gpu-kern-sum.csv", "internal::gemvx::kernel",
			51146, 3729e-9, 2143e-9, 6592e-9, 382.6e-9 * math.Sqrt(51145.0/51146)},
	} {
		t.Run(c.kernel, func(t *testing.T) {
			run, err := ingest.ReadFile(c.file, ingest.Options{})
			if err != nil {
				t.Fatal(err)
			}
			gr := analysis.NewGrouper(false)
			for _, k := range run.Kernels {
				gr.Add(analysis.Analyze(run, k, analysis.Options{}))
			}
			var g *analysis.Group
			for _, x := range gr.Groups() {
				if strings.Contains(x.Name, c.kernel) && x.Launches == c.launches {
					g = x
				}
			}
			if g == nil {
				t.Fatalf("no group %s of %d launches", c.kernel, c.launches)
			}
			near := func(a, b float64) bool {
				return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= 1e-9*math.Abs(b)
			}
			if g.Launches != c.launches || !near(g.Mean(), c.mean) || !near(g.Min, c.min) || !near(g.Max, c.max) || !near(g.StdDev(), c.stddev) {
				t.Errorf("%d launches, mean %g, range [%g, %g], stddev %g; want %d, %g, [%g, %g], %g",
					g.Launches, g.Mean(), g.Min, g.Max, g.StdDev(), c.launches, c.mean, c.min, c.max, c.stddev)
			}
		})
	}
}

// TestGrouperBySource holds the grouping gate and diff read: the same
// export read as two, grouped by export and name, each group with the
// samples kept (one per record), its first launch's verdict, the
// findings analyze states, and its share of its own export's time.
func TestGrouperBySource(t *testing.T) {
	eng, err := rules.NewEngine("all")
	if err != nil {
		t.Fatal(err)
	}
	read := func(source string) []*analysis.Kernel {
		run, err := ingest.ReadFile("../../fixtures/ncu/series_v2.runs5.details.csv", ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		run.Source = source
		var out []*analysis.Kernel
		for _, k := range run.Kernels {
			out = append(out, analysis.Analyze(run, k, analysis.Options{Rules: eng}))
		}
		return out
	}
	sides := map[string][]*analysis.Kernel{"a.csv": read("a.csv"), "b.csv": read("b.csv")}
	byName, bySource := analysis.NewGrouper(false), analysis.NewGrouper(false)
	bySource.BySource = true
	bySource.KeepSamples("duration", "duration") // kept once
	for _, src := range []string{"a.csv", "b.csv"} {
		for _, a := range sides[src] {
			byName.Add(a)
			bySource.Add(a)
		}
	}
	if byName.Len() == 0 || bySource.Len() != 2*byName.Len() {
		t.Fatalf("%d groups by export and name, want twice the %d by name", bySource.Len(), byName.Len())
	}
	for _, g := range bySource.InOrder() {
		checkSourceGroup(t, bySource, g, sides[g.Source])
		if first, _ := bySource.Group(g.Name); first.Source != "a.csv" {
			t.Errorf("%s: the first group of the name is %s's", g.Name, first.Source)
		}
		if merged, _ := byName.Group(g.Name); merged.Launches != 2*g.Launches {
			t.Errorf("%s: %d launches by name, want %d", g.Name, merged.Launches, 2*g.Launches)
		}
	}
}

// checkSourceGroup holds g, of gr, to the launches of its export (all).
func checkSourceGroup(t *testing.T, gr *analysis.Grouper, g *analysis.Group, all []*analysis.Kernel) {
	t.Helper()
	var own []*analysis.Kernel
	total, mine := 0.0, 0.0
	for _, a := range all {
		total += a.Record.Duration
		if a.Record.DisplayName() == g.Name {
			own = append(own, a)
			mine += a.Record.Duration
		}
	}
	if len(own) == 0 || g.First != own[0] || g.Records != len(own) || len(g.Samples("duration")) != len(own) {
		t.Fatalf("%s %s: %d records, %d samples, want %d from its first launch", g.Source, g.Name, g.Records, len(g.Samples("duration")), len(own))
	}
	for i, x := range g.Samples("duration") {
		if v, _ := own[i].Value("duration"); x != v {
			t.Errorf("%s %s: sample %d is %g, want %g", g.Source, g.Name, i, x, v)
		}
	}
	if share := gr.ShareOf(g); math.Abs(share-mine/total) > 1e-12 {
		t.Errorf("%s %s: share %g of its export, want %g", g.Source, g.Name, share, mine/total)
	}
	// Each rule quotes the group's finding, the one analyze states: the
	// representative launch's where it reports the rule (gate once quoted
	// the first launch's, another message than analyze's).
	for rule, f := range g.Rules() {
		if want := g.ByRule()[rule].Message; f.Message != want {
			t.Errorf("%s %s: %s quotes %q, want the group's %q", g.Source, g.Name, rule, f.Message, want)
		}
		if i := slices.IndexFunc(g.Rep.Findings, func(f profan.Finding) bool { return f.Rule == rule }); i >= 0 && g.Rep.Findings[i].Message != f.Message {
			t.Errorf("%s %s: %s quotes %q, want the representative launch's %q", g.Source, g.Name, rule, f.Message, g.Rep.Findings[i].Message)
		}
	}
}
