package store

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/profan-dev/profan"
)

// Limiter is what limits a kernel, as the verdict maker named it; Unit
// is "" when the verdict names none.
type Limiter struct {
	Unit     string
	Pipe     string
	Percent  float64 // NaN: not measured
	Evidence string
	// Headroom is the kernel's distance to its speed of light; its Unit
	// is "" when the verdict measured none.
	Headroom Headroom
}

// Headroom is a kernel's distance to its speed of light, as the verdict
// maker measured it: the share of its time above its ideal, the unit
// that sets the ideal, the ideal in seconds, and the share its findings
// explain.
type Headroom struct {
	Share     float64
	Unit      string
	Held      string  // the unit that holds the kernel where not Unit's
	Ideal     float64 // NaN: unknown
	Explained float64
	Evidence  string
	Missing   string // what the export lacks, when the headroom is unknown
}

// Suppressed is a finding a suppression kept out of the verdict, with the
// suppression's reason.
type Suppressed struct {
	Finding profan.Finding
	Reason  string
}

// Missing is a rule that could not run for want of counters, and the
// command that would capture them.
type Missing struct {
	Rule    string
	Needs   string
	Command string
}

// Verdict is what the store keeps of a kernel's verdict beside its
// canonical metrics and findings.
type Verdict struct {
	Limiter    Limiter
	Suppressed []Suppressed
	Skipped    []string
	Missing    []Missing
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
	Unit     string          `json:"unit"`
	Pipe     string          `json:"pipe,omitempty"`
	Percent  *float64        `json:"percent,omitempty"` // nil: not measured
	Evidence string          `json:"evidence,omitempty"`
	Headroom *storedHeadroom `json:"headroom,omitempty"`
}

type storedHeadroom struct {
	Share     float64  `json:"share"`
	Unit      string   `json:"unit"`
	Held      string   `json:"held,omitempty"`
	Ideal     *float64 `json:"ideal,omitempty"` // nil: unknown
	Explained float64  `json:"explained,omitempty"`
	Evidence  string   `json:"evidence,omitempty"`
	Missing   string   `json:"missing,omitempty"`
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
	Skipped []string  `json:"skipped,omitempty"`
	Missing []Missing `json:"missing,omitempty"`
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
	if c.ok && len(rec.Suppressed) == 0 && (rec.AsBefore || SameLimiter(c.limiter, rec.Limiter) &&
		slices.Equal(c.skipped, rec.Skipped) && slices.Equal(c.missing, rec.Missing)) {
		// AsBefore: the record before had these parts and no
		// suppressed finding, so it left them in c.
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
	limiter Limiter
	skipped []string
	missing []Missing
	out     string
}

// notesCache is the notes of the last verdict encodeVerdictOnce wrote
// with notes: their text_templates ID, or their text where none.
type notesCache struct {
	ok      bool
	skipped []string
	missing []Missing
	id      uint64
	text    []byte
}

// SameLimiter reports whether a and b are one limiter (numbers by their
// bits: NaN is NaN).
func SameLimiter(a, b Limiter) bool {
	return a.Unit == b.Unit && a.Pipe == b.Pipe && a.Evidence == b.Evidence && math.Float64bits(a.Percent) == math.Float64bits(b.Percent) &&
		sameHeadroom(a.Headroom, b.Headroom)
}

func sameHeadroom(a, b Headroom) bool {
	return a.Unit == b.Unit && a.Held == b.Held && a.Evidence == b.Evidence && a.Missing == b.Missing && math.Float64bits(a.Share) == math.Float64bits(b.Share) &&
		math.Float64bits(a.Ideal) == math.Float64bits(b.Ideal) && math.Float64bits(a.Explained) == math.Float64bits(b.Explained)
}

func (w *RunWriter) encodeVerdictOnce(rec *KernelRecord) (string, error) {
	var v storedVerdict
	if rec.Limiter.Unit != "" {
		l := rec.Limiter
		v.Limiter = &storedLimiter{Unit: l.Unit, Pipe: l.Pipe, Percent: optFloat(l.Percent), Evidence: l.Evidence}
		if h := l.Headroom; h.Unit != "" && !math.IsNaN(h.Share) {
			v.Limiter.Headroom = &storedHeadroom{Share: h.Share, Unit: h.Unit, Held: h.Held, Ideal: optFloat(h.Ideal), Explained: h.Explained, Evidence: h.Evidence}
		} else if h.Missing != "" {
			v.Limiter.Headroom = &storedHeadroom{Missing: h.Missing}
		}
	}
	for _, s := range rec.Suppressed {
		f := s.Finding
		v.Suppressed = append(v.Suppressed, storedSuppressed{Rule: f.Rule, Severity: int(f.Severity), Kernel: f.Kernel, Message: f.Message,
			Advice: f.Advice, Gain: optFloat(f.Gain), Evidence: f.Evidence, Locations: f.Locations, Reason: s.Reason})
	}
	if len(rec.Skipped) > 0 || len(rec.Missing) > 0 {
		// The launches of an ncu page differ in their limiter's numbers,
		// seldom in their notes: those of the verdict before are
		// encoded and looked up once.
		n := &w.lastNotes
		if !n.ok || !slices.Equal(n.skipped, rec.Skipped) || !slices.Equal(n.missing, rec.Missing) {
			notes, err := json.Marshal(storedNotes{Skipped: rec.Skipped, Missing: rec.Missing})
			if err != nil {
				return "", err
			}
			id, err := w.textFunc(notes)
			if err != nil {
				return "", err
			}
			*n = notesCache{ok: true, skipped: slices.Clone(rec.Skipped), missing: slices.Clone(rec.Missing), id: id, text: notes}
		}
		if n.id != 0 {
			v.Notes = n.id
		} else {
			v.NotesText = n.text
		}
	}
	if v.Limiter == nil && v.Suppressed == nil && v.Notes == 0 && v.NotesText == nil {
		return "", nil
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// VerdictOf reads the verdict stored with the kernel record sk: a zero
// Verdict for a record written without one; its limiter's Percent is NaN
// when a verdict names no limiter.
func (db *DB) VerdictOf(ctx context.Context, sk StoredKernel) (Verdict, error) {
	var s Verdict
	err := db.decodeVerdict(ctx, sk.verdict, &s)
	return s, err
}

// decodeVerdict reads a kernels.verdict into s.
func (db *DB) decodeVerdict(ctx context.Context, text string, s *Verdict) error {
	if text == "" {
		return nil
	}
	s.Limiter = Limiter{Percent: math.NaN()}
	var v storedVerdict
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return fmt.Errorf("stored verdict: %w", err)
	}
	if l := v.Limiter; l != nil {
		s.Limiter = Limiter{Unit: l.Unit, Pipe: l.Pipe, Percent: floatOr(l.Percent), Evidence: l.Evidence, Headroom: Headroom{Share: math.NaN(), Ideal: math.NaN()}}
		term(&s.Limiter.Unit, &s.Limiter.Pipe, &s.Limiter.Evidence)
		if h := l.Headroom; h != nil && h.Unit != "" {
			s.Limiter.Headroom = Headroom{Share: h.Share, Unit: h.Unit, Held: h.Held, Ideal: floatOr(h.Ideal), Explained: h.Explained, Evidence: h.Evidence}
			term(&s.Limiter.Headroom.Unit, &s.Limiter.Headroom.Held, &s.Limiter.Headroom.Evidence)
		} else if h != nil {
			s.Limiter.Headroom.Missing = h.Missing
			term(&s.Limiter.Headroom.Missing)
		}
	}
	for _, x := range v.Suppressed {
		f := profan.Finding{Rule: x.Rule, Severity: profan.Severity(x.Severity), Kernel: x.Kernel, Message: x.Message, Advice: x.Advice,
			Gain: floatOr(x.Gain), Evidence: x.Evidence, Locations: x.Locations}
		term(&f.Rule, &f.Kernel, &f.Message, &f.Advice, &x.Reason)
		s.Suppressed = append(s.Suppressed, Suppressed{Finding: f, Reason: x.Reason})
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
