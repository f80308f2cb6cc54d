package report

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/verdict"
)

// maxRecommendationGroups bounds the groups a recommendation names in text.
const maxRecommendationGroups = 4

// app writes the application reading before the group table: scope notes,
// time by category, recommendations ranked by estimated gain.
func (t *textWriter) app(app *verdict.App) {
	if len(app.Scope) == 0 && len(app.Categories) < 2 && len(app.Recommendations) == 0 && len(app.InUse) == 0 {
		return
	}
	for _, n := range app.Scope {
		fmt.Fprintf(t.w, "%s\n", t.c("33", "scope: "+n))
	}
	if len(app.Categories) > 1 {
		fmt.Fprintf(t.w, "\n%s\n", t.c("1", "time by category"))
		tw := tabwriter.NewWriter(t.w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  SHARE\t\tLAUNCHES\tKERNELS\tCATEGORY\tLIMITED BY\n")
		for _, c := range app.Categories {
			fmt.Fprintf(tw, "  %s\t%s\t%d\t%d\t%s\t%s\n", metrics.ShareText(c.Share), bar(c.Share, 8), c.Launches, len(c.Groups), c.Category, categoryLimiter(c))
		}
		tw.Flush()
	}
	if len(app.Recommendations) > 0 {
		fmt.Fprintf(t.w, "\n%s\n", t.c("1", "what to change first, "+t.v.Together()))
		for i, r := range app.Recommendations {
			fmt.Fprintf(t.w, "  %d. %s  %s\n", i+1, t.c("1", r.Rule), t.v.GainText(r))
			fmt.Fprintf(t.w, "     %s\n", r.Message)
			fmt.Fprintf(t.w, "     fix: %s\n", r.Fix)
			if names := recGroups(r, maxRecommendationGroups); names != "" {
				fmt.Fprintf(t.w, "     %s\n", t.c("2", "acts on: "+names))
			}
			if r.Composes != "" {
				fmt.Fprintf(t.w, "     %s\n", t.c("2", "composes "+r.Composes))
			}
		}
	}
	for _, u := range app.InUse {
		fmt.Fprintf(t.w, "  %s %s\n", t.c("32", "in use:"), u.Message)
	}
	if n := len(app.Suppressed); n > 0 {
		fmt.Fprintf(t.w, "  %d recommendation(s) suppressed by the config (%s)\n", n, app.Suppressed[0].Rule+": "+app.Suppressed[0].Reason)
	}
	t.w.WriteString("\n")
}

func recGroups(r verdict.Recommendation, max int) string {
	var names []string
	for i, g := range r.Groups {
		if i == max {
			names = append(names, fmt.Sprintf("… %d more", len(r.Groups)-max))
			break
		}
		names = append(names, middle(g.Info.Display, 60))
	}
	return strings.Join(names, ", ")
}

// jsonCategory is the capture's time in one category.
type jsonCategory struct {
	Name     string   `json:"name"`
	Label    string   `json:"label"`
	Share    *float64 `json:"time_share"`
	Duration *float64 `json:"duration_s"`
	Launches int      `json:"launches"`
	Limiter  string   `json:"limited_by,omitempty"`
	// LimiterShare is the share of the category's time that limited_by
	// holds; the rest is limited otherwise or unknown.
	LimiterShare *float64 `json:"limited_by_share,omitempty"`
	Groups       []string `json:"groups"`
}

// categoryLimiter is a category's limiter, with the share of its time it
// holds when that is not all of it, and what the rest is: "launch size
// (12% of its time; the rest unknown)".
func categoryLimiter(c verdict.CategoryTime) string {
	switch {
	case c.Limiter == "":
		return "unknown"
	case c.LimiterShare >= 0.995:
		return c.Limiter
	}
	return fmt.Sprintf("%s (%s of its time)", c.Limiter, metrics.ShareText(c.LimiterShare))
}

// jsonRecommendation is one change by cause, ranked by estimated gain.
type jsonRecommendation struct {
	Rule   string   `json:"rule"`
	Groups []string `json:"groups"`
	jsonGain
	// KernelGainSeconds is the kernel time saved, where the change is
	// priced in kernel time.
	KernelGainSeconds *float64 `json:"kernel_gain_s"`
	// HostSide: the change saves host time, which a capture without a
	// timeline does not measure (gain_s and gain_share are null).
	HostSide bool     `json:"host_side,omitempty"`
	Gain     *float64 `json:"estimated_gain"` // share of the capture's kernel time
	// WallGain is the share of the step's wall time saved, for changes
	// priced in wall time.
	WallGain *float64 `json:"estimated_wall_gain,omitempty"`
	// Rank is the scale the recommendations are ranked on: the share of
	// the wall time the change gives back where the capture has a
	// timeline, else the share of the kernel time (schema 2).
	Rank     *float64 `json:"rank_wall_gain"`
	Message  string   `json:"message"`
	Fix      string   `json:"fix"`
	Basis    string   `json:"basis"`
	Composes string   `json:"composes,omitempty"`
	// Reason is a suppressed recommendation's suppression reason.
	Reason string `json:"reason,omitempty"`
}

// jsonLeverInUse is a change the capture shows already made.
type jsonLeverInUse struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// toJSONApp converts the application reading.
func toJSONApp(v *verdict.Verdict) ([]jsonCategory, []jsonRecommendation) {
	app := v.App
	cats := make([]jsonCategory, 0, len(app.Categories))
	for _, c := range app.Categories {
		jc := jsonCategory{Name: c.Category.ID(), Label: c.Category.String(), Share: ptr(c.Share), Duration: ptr(c.Duration),
			Launches: c.Launches, Limiter: c.Limiter, Groups: []string{}}
		if c.Limiter != "" {
			jc.LimiterShare = ptr(c.LimiterShare)
		}
		for _, g := range c.Groups {
			jc.Groups = append(jc.Groups, g.Name)
		}
		cats = append(cats, jc)
	}
	recs := make([]jsonRecommendation, 0, len(app.Recommendations))
	for _, r := range app.Recommendations {
		recs = append(recs, toJSONRecommendation(v, r, ""))
	}
	return cats, recs
}

func toJSONRecommendation(v *verdict.Verdict, r verdict.Recommendation, reason string) jsonRecommendation {
	g := v.GainOf(r)
	jr := jsonRecommendation{Rule: r.Rule, Groups: []string{}, Gain: ptr(r.Gain), Message: r.Message, Fix: r.Fix, Basis: r.Basis,
		Composes: r.Composes, Reason: reason, Rank: ptr(r.Rank),
		jsonGain: toJSONGain(g), KernelGainSeconds: ptr(g.KernelSeconds), HostSide: g.HostSide}
	if r.WallGain == r.WallGain {
		jr.WallGain = ptr(r.WallGain)
	}
	for _, g := range r.Groups {
		jr.Groups = append(jr.Groups, g.Name)
	}
	return jr
}

// jsonGain is a gain in time and share on the one basis the capture
// supports (verdict.Gain): a recommendation's, and together's.
type jsonGain struct {
	// GainBasis says what the gain is stated against: "wall" (the
	// capture's wall span; a capture with a timeline) or "kernel" (its
	// kernel time; a capture without one). GainSeconds is the time saved
	// over the capture, GainShare its share of GainOf (seconds): the one
	// gain to read (schema 2).
	GainBasis   string   `json:"gain_basis"`
	GainSeconds *float64 `json:"gain_s"`
	GainShare   *float64 `json:"gain_share"`
	GainOf      *float64 `json:"gain_of_s"`
	// GainSteps is the steps the wall span holds (ProfilerStep#N marks);
	// StepWall the wall of one step and GainStep the gain a step
	// (gain_share × step_wall_s): what text and Markdown say; absent
	// when none is marked.
	GainSteps int      `json:"gain_steps,omitempty"`
	StepWall  *float64 `json:"step_wall_s,omitempty"`
	GainStep  *float64 `json:"gain_step_s,omitempty"`
	// StepUnprofiled: step_wall_s is the replay's step, the profiler's
	// host cost taken off, not the trace's own (verdict.Gain.Unprofiled).
	StepUnprofiled bool `json:"step_unprofiled,omitempty"`
}

func toJSONGain(g verdict.Gain) jsonGain {
	j := jsonGain{GainBasis: g.Basis, GainSeconds: ptr(g.Seconds), GainShare: ptr(g.Share), GainOf: ptr(g.Of), GainSteps: g.Steps}
	if p := g.PerStep(); p == p {
		j.StepWall, j.GainStep, j.StepUnprofiled = ptr(g.StepWall), ptr(p), g.Unprofiled
	}
	return j
}

// jsonTogether is what the recommendations save together: a gain, and
// whether it clears the step's noise.
type jsonTogether struct {
	jsonGain
	// UnderNoise: replayed at once, the levers give back under 1% of
	// the wall (verdict.Quiet): no lever clears the step's noise, as the
	// other formats' list head says.
	UnderNoise bool `json:"under_noise,omitempty"`
	// WorkersFeed is, where UnderNoise, the pace a multi-process
	// DataLoader's workers feed the step at, seconds a step: what bounds
	// it (verdict.QuietFeed).
	WorkersFeed *float64 `json:"workers_feed_s,omitempty"`
}

// toJSONTogether is what the recommendations save together, on their own
// basis (verdict.TogetherGain): on a trace, their levers replayed at once;
// nil where nothing is advised.
func toJSONTogether(v *verdict.Verdict) *jsonTogether {
	g, ok := v.TogetherGain()
	if !ok {
		return nil
	}
	t := &jsonTogether{jsonGain: toJSONGain(g), UnderNoise: v.Quiet()}
	if f := v.QuietFeed(); f > 0 {
		t.WorkersFeed = &f
	}
	return t
}

// toJSONAdvice converts the levers in use and the suppressed
// recommendations.
func toJSONAdvice(v *verdict.Verdict) ([]jsonLeverInUse, []jsonRecommendation) {
	app := v.App
	inUse := make([]jsonLeverInUse, 0, len(app.InUse))
	for _, u := range app.InUse {
		inUse = append(inUse, jsonLeverInUse{Rule: u.Rule, Message: u.Message})
	}
	sup := make([]jsonRecommendation, 0, len(app.Suppressed))
	for _, s := range app.Suppressed {
		sup = append(sup, toJSONRecommendation(v, s.Recommendation, s.Reason))
	}
	return inUse, sup
}
