package verdictdb

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/store"
)

// The application advice a run database keeps (store's run_advice): the
// recommendations as the analysis made them at ingest, from the run's
// whole timeline and host transfers, which the database does not keep.
// Groups are named by their name (a group's key), and numbers the
// analysis leaves unknown (NaN) are null.
type storedAdvice struct {
	Recommendations []storedRec           `json:"recommendations"`
	Suppressed      []storedRec           `json:"suppressed,omitempty"`
	InUse           []analysis.LeverInUse `json:"in_use,omitempty"`
	// WallGain is the levers' wall gain replayed together (App.WallGain),
	// which the stored recommendations, without their levers, cannot
	// replay again; absent in older runs' advice and where none was made.
	WallGain *float64 `json:"wall_gain,omitempty"`
	// PricedStep is the replayed step the gains a step are of
	// (App.PricedStep), seconds.
	PricedStep *float64 `json:"priced_step,omitempty"`
	// Feed is the DataLoader workers' pace the step was priced against
	// (App.Feed), seconds a step; absent where none bounds it.
	Feed *float64 `json:"feed,omitempty"`
	// Scope is the scope notes (App.Scope), made from the whole capture
	// (an optimizer step seen on the host, which the database does not
	// keep); absent in older runs' advice, which then make them again.
	Scope []string `json:"scope"`
}

type storedRec struct {
	Rule     string             `json:"rule"`
	Message  string             `json:"message"`
	Fix      string             `json:"fix"`
	Groups   []string           `json:"groups"`
	Gain     *float64           `json:"gain"`
	WallGain *float64           `json:"wall_gain"`
	Rank     *float64           `json:"rank"`
	Cost     *float64           `json:"cost"`
	Basis    string             `json:"basis,omitempty"`
	Composes string             `json:"composes,omitempty"`
	Replaces []string           `json:"replaces,omitempty"`
	Saves    map[string]float64 `json:"saves,omitempty"`
	Reason   string             `json:"reason,omitempty"`
}

func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func unnum(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

func toStoredRec(r analysis.Recommendation, reason string) storedRec {
	s := storedRec{Rule: r.Rule, Message: r.Message, Fix: r.Fix, Gain: num(r.Gain), WallGain: num(r.WallGain), Rank: num(r.Rank), Cost: num(r.Cost),
		Basis: r.Basis, Composes: r.Composes, Replaces: r.Replaces, Groups: []string{}, Reason: reason}
	for _, g := range r.Groups {
		s.Groups = append(s.Groups, g.Name)
	}
	for g, f := range r.Saves {
		if s.Saves == nil {
			s.Saves = map[string]float64{}
		}
		if !math.IsNaN(f) {
			s.Saves[g.Name] = f
		}
	}
	return s
}

// AdviceDoc encodes the advice of app for the run database.
func AdviceDoc(app *analysis.App) (string, error) {
	d := storedAdvice{Recommendations: []storedRec{}, InUse: app.InUse, WallGain: num(app.WallGain), Scope: append([]string{}, app.Scope...)}
	if app.PricedStep > 0 {
		d.PricedStep = &app.PricedStep
	}
	if app.Feed > 0 {
		d.Feed = &app.Feed
	}
	for _, r := range app.Recommendations {
		d.Recommendations = append(d.Recommendations, toStoredRec(r, ""))
	}
	for _, s := range app.Suppressed {
		d.Suppressed = append(d.Suppressed, toStoredRec(s.Recommendation, s.Reason))
	}
	b, err := json.Marshal(d)
	return string(b), err
}

// storedRecommender gives the stored advice back, its groups those of the
// stored kernels of the same names: an analysis.Recommender that runs no
// rule.
type storedRecommender struct{ d storedAdvice }

// adviceOf decodes a stored advice document.
func adviceOf(doc string) (analysis.Recommender, error) {
	var d storedAdvice
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		return nil, fmt.Errorf("stored advice: %w", err)
	}
	return storedRecommender{d}, nil
}

func (s storedRecommender) Recommend(ev *analysis.AppEvidence) analysis.Advice {
	by := map[string]*analysis.Group{}
	for _, g := range ev.Groups {
		by[g.Name] = g
	}
	rec := func(x storedRec) analysis.Recommendation {
		r := analysis.Recommendation{Rule: x.Rule, Message: x.Message, Fix: x.Fix, Gain: unnum(x.Gain), WallGain: unnum(x.WallGain), Rank: unnum(x.Rank),
			Cost: unnum(x.Cost), Basis: x.Basis, Composes: x.Composes, Replaces: x.Replaces, Saves: map[*analysis.Group]float64{}}
		for _, n := range x.Groups {
			if g, ok := by[n]; ok {
				r.Groups = append(r.Groups, g)
			}
		}
		for n, f := range x.Saves {
			if g, ok := by[n]; ok {
				r.Saves[g] = f
			}
		}
		return r
	}
	a := analysis.Advice{InUse: s.d.InUse, WallGain: s.d.WallGain, PricedStep: s.d.PricedStep, Feed: s.d.Feed, Scope: s.d.Scope}
	for _, x := range s.d.Recommendations {
		a.Recommendations = append(a.Recommendations, rec(x))
	}
	for _, x := range s.d.Suppressed {
		a.Suppressed = append(a.Suppressed, analysis.SuppressedRecommendation{Recommendation: rec(x), Reason: x.Reason})
	}
	return a
}

// Advice returns what gives run runID's application advice as the
// analysis made it at ingest (a Recommender that runs no rule); ok is
// false when the run has none stored (an older profan stored it).
func Advice(ctx context.Context, db *store.DB, runID int64) (rec analysis.Recommender, ok bool, err error) {
	doc, ok, err := db.Advice(ctx, runID)
	if err != nil || !ok {
		if err != nil {
			err = fmt.Errorf("reading run %d: %w", runID, err)
		}
		return nil, false, err
	}
	rec, err = adviceOf(doc)
	if err != nil {
		return nil, false, fmt.Errorf("reading run %d: %w", runID, err)
	}
	return rec, true, nil
}
