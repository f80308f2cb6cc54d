package html

import (
	"math"
	"strconv"

	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/verdict"
)

// groupView is what a group adds to its card and to the summary table.
type groupView struct {
	Launches    int
	Total, Mean string
	Range       string
	Share       string
	ShareWidth  string // CSS width of the share bar, "37.5%"
	Library     string
	TopFinding  string
	// Untopped is the headroom in brief where no finding tops the
	// group (verdict.Group.Untopped).
	Untopped     string
	Configs      []string
	LaunchRows   []launchRow
	MoreLaunches int
}

type launchRow struct {
	ID, Grid, Block, Duration string
	Findings                  int
}

// buildGroups lays the report out as an application's: the groups of
// launches sorted by time, one card each with its launches folded, and
// one roofline marker per group sized by its share of the time. The page
// grows with the number of distinct kernels, not with the launches.
func buildGroups(r *Report) *page {
	p := &page{Title: r.Title, Generated: r.Generated, CSP: csp, Grouped: true, Categories: r.Categories, Changes: r.Changes, Gain: r.Gain}
	if p.Title == "" {
		p.Title = "profan report"
	}
	var c collector
	reps := make([]*verdict.Kernel, len(r.Groups))
	total := 0.0 // the capture's kernel time
	for _, g := range r.Groups {
		total += g.Duration
	}
	for i, g := range r.Groups {
		a := g.Rep
		reps[i] = a
		p.Launches += g.Launches
		kv := kernel(i+1, a)
		// A name that fits stays whole; a long one (templates, lambdas)
		// shows its display form, the full name under it.
		kv.Symbol = ""
		if len(g.Name) > 120 {
			kv.Name, kv.Symbol = g.Info.Display, g.Name
		}
		gv := &groupView{Launches: g.Launches, Total: durOrNA(g.Duration, g.Timed), Mean: durOrNA(g.Mean(), g.Timed),
			Share: "n/a", ShareWidth: "0%"}
		if g.Info.IsLibrary() {
			gv.Library = g.Info.Library.String()
			if k := g.Info.Kind.String(); k != "" {
				gv.Library += " " + k
			}
		}
		if finite(g.Share) {
			gv.Share = metrics.ShareText(g.Share)
			gv.ShareWidth = fixed(100*g.Share, 1) + "%"
		}
		if g.Timed > 1 {
			gv.Range = metrics.Format(g.Min, "s") + " – " + metrics.Format(g.Max, "s")
		}
		for _, c := range g.Configs {
			gv.Configs = append(gv.Configs, "grid "+dim(c.Grid)+" block "+dim(c.Block)+" × "+strconv.Itoa(c.Launches))
		}
		for _, l := range g.Sample {
			d := "n/a"
			if finite(l.Duration) {
				d = metrics.Format(l.Duration, "s")
			}
			gv.LaunchRows = append(gv.LaunchRows, launchRow{ID: l.ID, Grid: dim(l.Grid), Block: dim(l.Block), Duration: d, Findings: l.Findings})
		}
		if n := len(g.Sample); n < g.Launches {
			sampled := 0
			for _, l := range g.Sample {
				sampled += l.Launches
			}
			gv.MoreLaunches = g.Launches - sampled
		}
		// The group's findings replace the longest launch's own.
		kv.Findings = nil
		shown, folded := verdict.Fold(g, false)
		if len(folded) > 0 {
			kv.Folded, kv.FoldedRules = verdict.FoldedHead(len(folded)), folded
		}
		for _, f := range shown {
			fv := finding(f.Finding)
			fv.Gain = plural(f.Launches, "launch") + " of " + strconv.Itoa(g.Launches)
			if finite(f.CaptureGain) {
				fv.GainKnown = true
				fv.Gain += " · estimated gain " + verdict.GroupGain(f.CaptureGain, total, g.Duration)
			} else {
				fv.Gain += " · gain unknown"
			}
			kv.Findings = append(kv.Findings, fv)
		}
		kv.tally()
		_, gv.TopFinding, _ = g.Top()
		gv.Untopped = g.Untopped()
		kv.Group = gv
		c.add(p, i, a, kv)
	}
	for _, spec := range c.order {
		rv := roof(spec, c.bySpec[spec], reps, p.Kernels)
		// One marker per group, its area in proportion to its share.
		var items []roofItem
		for _, i := range c.bySpec[spec] {
			if ai, perf, pl := rooflinePlace(reps[i]); pl == onRoofline {
				share := r.Groups[i].Share
				rad := 4.0
				if finite(share) {
					rad = 3 + 15*math.Sqrt(share)
				}
				items = append(items, roofItem{n: i + 1, ai: ai, perf: perf, r: rad})
			}
		}
		if len(items) > 0 {
			rv.Chart = roofline(items, spec)
		}
		p.Rooflines = append(p.Rooflines, rv)
	}
	for _, t := range r.Trends {
		p.Trends = append(p.Trends, &trendView{Kernel: t.Kernel, Metric: t.Metric, Unit: t.Unit, Summary: trendSummary(t), Chart: trendSVG(t)})
	}
	return p
}

func durOrNA(d float64, timed int) string {
	if timed == 0 || !finite(d) {
		return "n/a"
	}
	return metrics.Format(d, "s")
}
