package store

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
)

// AddVerdict writes one kernel's verdict, as the analysis made it: the
// kernel record, its canonical metrics, its findings, and the rest of the
// verdict (limiter, findings suppressed, rules skipped, counters missing).
// The writer keeps nothing of a once it returns.
func (w *RunWriter) AddVerdict(a *analysis.Kernel) error {
	w.vals = w.vals[:0]
	for _, v := range a.Metrics.Values {
		w.vals = append(w.vals, NamedValue{Name: v.Name, Value: v.Value})
	}
	return w.AddKernel(KernelRecord{Kernel: a.K, Canonical: w.vals, Findings: a.Findings,
		Limiter: a.Limiter, Suppressed: a.Suppressed, Skipped: a.Skipped, Missing: a.Missing})
}

// storedVerdict is the JSON of kernels.verdict.
type storedVerdict struct {
	Limiter    *storedLimiter     `json:"limiter,omitempty"`
	Suppressed []storedSuppressed `json:"suppressed,omitempty"`
	// Notes are the rules skipped and the counters missing, which repeat
	// from kernel to kernel: the ID of their JSON in text_templates, or
	// the JSON itself when the run added as many templates as it may.
	Notes     uint64          `json:"notes,omitempty"`
	NotesText json.RawMessage `json:"notes_text,omitempty"`
}

type storedLimiter struct {
	Unit     string   `json:"unit"`
	Pipe     string   `json:"pipe,omitempty"`
	Percent  *float64 `json:"percent,omitempty"` // nil: not measured
	Evidence string   `json:"evidence,omitempty"`
}

type storedSuppressed struct {
	Rule      string            `json:"rule"`
	Severity  int               `json:"severity"`
	Kernel    string            `json:"kernel,omitempty"`
	Message   string            `json:"message,omitempty"`
	Advice    string            `json:"advice,omitempty"`
	Gain      *float64          `json:"gain,omitempty"` // nil: unknown
	Evidence  []string          `json:"evidence,omitempty"`
	Locations []profan.Location `json:"locations,omitempty"`
	Reason    string            `json:"reason"`
}

type storedNotes struct {
	Skipped []string           `json:"skipped,omitempty"`
	Missing []analysis.Missing `json:"missing,omitempty"`
}

func optFloat(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func floatOr(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// encodeVerdict returns the kernels.verdict of rec: "" when it holds none
// of the verdict's other parts (a record written without its analysis).
func (w *RunWriter) encodeVerdict(rec *KernelRecord) (string, error) {
	// The launches of a trace repeat one verdict: encoded once, not
	// 600,000 times.
	c := &w.lastVerdict
	if c.ok && len(rec.Suppressed) == 0 && sameLimiter(c.limiter, rec.Limiter) &&
		slices.Equal(c.skipped, rec.Skipped) && slices.Equal(c.missing, rec.Missing) {
		return c.out, nil
	}
	out, err := w.encodeVerdictOnce(rec)
	if err == nil && len(rec.Suppressed) == 0 {
		// Copies: the caller may reuse its slices.
		*c = verdictCache{ok: true, limiter: rec.Limiter, skipped: slices.Clone(rec.Skipped), missing: slices.Clone(rec.Missing), out: out}
	}
	return out, err
}

// verdictCache is the last verdict encodeVerdict wrote.
type verdictCache struct {
	ok      bool
	limiter analysis.Limiter
	skipped []string
	missing []analysis.Missing
	out     string
}

func sameLimiter(a, b analysis.Limiter) bool {
	return a.Unit == b.Unit && a.Pipe == b.Pipe && a.Evidence == b.Evidence && math.Float64bits(a.Percent) == math.Float64bits(b.Percent)
}

func (w *RunWriter) encodeVerdictOnce(rec *KernelRecord) (string, error) {
	var v storedVerdict
	if rec.Limiter.Known() {
		l := rec.Limiter
		v.Limiter = &storedLimiter{Unit: l.Unit.String(), Pipe: l.Pipe, Percent: optFloat(l.Percent), Evidence: l.Evidence}
	}
	for _, s := range rec.Suppressed {
		f := s.Finding
		v.Suppressed = append(v.Suppressed, storedSuppressed{Rule: f.Rule, Severity: int(f.Severity), Kernel: f.Kernel, Message: f.Message,
			Advice: f.Advice, Gain: optFloat(f.Gain), Evidence: f.Evidence, Locations: f.Locations, Reason: s.Reason})
	}
	if len(rec.Skipped) > 0 || len(rec.Missing) > 0 {
		notes, err := json.Marshal(storedNotes{Skipped: rec.Skipped, Missing: rec.Missing})
		if err != nil {
			return "", err
		}
		id, err := w.textFunc(notes)
		if err != nil {
			return "", err
		}
		if id != 0 {
			v.Notes = id
		} else {
			v.NotesText = notes
		}
	}
	if v.Limiter == nil && v.Suppressed == nil && v.Notes == 0 && v.NotesText == nil {
		return "", nil
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// decodeVerdict reads a kernels.verdict into s.
func (db *DB) decodeVerdict(ctx context.Context, text string, s *analysis.Stored) error {
	if text == "" {
		return nil
	}
	var v storedVerdict
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return fmt.Errorf("stored verdict: %w", err)
	}
	if l := v.Limiter; l != nil {
		u, err := analysis.ParseUnit(l.Unit)
		if err != nil {
			return fmt.Errorf("stored verdict: %w", err)
		}
		s.Limiter = analysis.Limiter{Unit: u, Pipe: l.Pipe, Percent: floatOr(l.Percent), Evidence: l.Evidence}
		term(&s.Limiter.Pipe, &s.Limiter.Evidence)
	} else {
		s.Limiter = analysis.Limiter{Percent: math.NaN()}
	}
	for _, x := range v.Suppressed {
		f := profan.Finding{Rule: x.Rule, Severity: profan.Severity(x.Severity), Kernel: x.Kernel, Message: x.Message, Advice: x.Advice,
			Gain: floatOr(x.Gain), Evidence: x.Evidence, Locations: x.Locations}
		term(&f.Rule, &f.Kernel, &f.Message, &f.Advice, &x.Reason)
		s.Suppressed = append(s.Suppressed, analysis.Suppressed{Finding: f, Reason: x.Reason})
	}
	notes := []byte(v.NotesText)
	if v.Notes != 0 {
		t, ok, err := db.textTemplate(ctx, v.Notes)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("stored verdict: unknown text %d", v.Notes)
		}
		notes = []byte(t)
	}
	if len(notes) > 0 {
		var n storedNotes
		if err := json.Unmarshal(notes, &n); err != nil {
			return fmt.Errorf("stored verdict: %w", err)
		}
		for i := range n.Skipped {
			term(&n.Skipped[i])
		}
		for i := range n.Missing {
			m := &n.Missing[i]
			term(&m.Rule, &m.Needs, &m.Command)
		}
		s.Skipped, s.Missing = n.Skipped, n.Missing
	}
	return nil
}

// EachVerdict reads the verdict stored with run runID and calls fn with
// each kernel's, in the order EachKernel gives the records (the later
// launches of a launch series share their first launch's verdict but for
// their identity and duration). It returns the run's verdict without its
// kernels: the run and its run-level findings. Memory grows with the
// records stored, not with the launches a series stands for.
//
// A verdict stored by an older verdict maker than this profan's
// (analysis.VerdictVersion) is never taken as this one's: each kernel's is
// made again from its stored counters with opt (its rules, thresholds and
// suppressions), and RemadeFrom says the older version. The run-level
// findings stay as stored: the host transfers they were made from are
// not stored. opt's device serves both, for kernels whose export does not
// name their GPU.
func (db *DB) EachVerdict(ctx context.Context, runID int64, opt analysis.Options, fn func(*analysis.Kernel) error) (*analysis.RunVerdict, error) {
	rec, err := db.Run(ctx, runID)
	if err != nil {
		return nil, err
	}
	fs, err := db.RunFindings(ctx, runID)
	if err != nil {
		return nil, fmt.Errorf("reading run %d: %w", runID, err)
	}
	run := &profan.Run{Source: rec.Source, Tool: rec.Tool, Format: rec.Format, Digest: rec.Digest, Size: rec.Size, ToolVersion: rec.ToolVersion, Findings: fs}
	v := &analysis.RunVerdict{Run: run, Findings: fs}
	var memo *analysis.Memo
	if rec.Verdict < analysis.VerdictVersion {
		v.RemadeFrom = rec.Verdict
		memo = analysis.NewMemo(opt)
	}
	// The first launch's verdict of each record, by its kernels.id, for
	// the later launches of its series.
	firsts := map[int64]*analysis.Kernel{}
	gpu := false
	err = db.eachRecord(ctx, runID, func(id int64, sk StoredKernel) error {
		var a *analysis.Kernel
		if memo != nil {
			a = memo.Analyze(run, sk.Kernel)
		} else {
			s := analysis.Stored{Metrics: sk.Canonical, Findings: sk.Findings}
			if err := db.decodeVerdict(ctx, sk.verdict, &s); err != nil {
				return fmt.Errorf("kernel %s: %w", sk.Kernel.ID, err)
			}
			a = analysis.Restore(run, sk.Kernel, s, opt)
		}
		if id != 0 {
			firsts[id] = a
		}
		if !gpu {
			v.GPU, gpu = a.GPU, true
		}
		return fn(a)
	}, func(id int64, k *profan.Kernel, duration float64) error {
		a := firsts[id]
		if memo != nil {
			return fn(memo.Analyze(run, k))
		}
		return fn(a.Launch(k, duration))
	})
	if err != nil {
		return nil, fmt.Errorf("reading the verdict of run %d: %w", runID, err)
	}
	return v, nil
}

// Verdict returns the verdict stored with run runID, every kernel's
// included (EachVerdict says how it is read).
func (db *DB) Verdict(ctx context.Context, runID int64, opt analysis.Options) (*analysis.RunVerdict, error) {
	var ks []*analysis.Kernel
	v, err := db.EachVerdict(ctx, runID, opt, func(a *analysis.Kernel) error {
		ks = append(ks, a)
		return nil
	})
	if err != nil {
		return nil, err
	}
	v.Kernels = ks
	return v, nil
}
