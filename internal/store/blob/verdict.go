package blob

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/safe"
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

// EncodeVerdict returns the kernels.verdict of a kernel's limiter, its
// suppressed findings and its notes (the text_templates ID of their JSON,
// NotesJSON, or that JSON itself where notesID is 0): "" when it holds
// none of them.
func EncodeVerdict(l Limiter, suppressed []Suppressed, notesID uint64, notesText []byte) (string, error) {
	var v storedVerdict
	if l.Unit != "" {
		v.Limiter = &storedLimiter{Unit: l.Unit, Pipe: l.Pipe, Percent: optFloat(l.Percent), Evidence: l.Evidence}
		if h := l.Headroom; h.Unit != "" && !math.IsNaN(h.Share) {
			v.Limiter.Headroom = &storedHeadroom{Share: h.Share, Unit: h.Unit, Held: h.Held, Ideal: optFloat(h.Ideal), Explained: h.Explained, Evidence: h.Evidence}
		} else if h.Missing != "" {
			v.Limiter.Headroom = &storedHeadroom{Missing: h.Missing}
		}
	}
	for _, s := range suppressed {
		f := s.Finding
		v.Suppressed = append(v.Suppressed, storedSuppressed{Rule: f.Rule, Severity: int(f.Severity), Kernel: f.Kernel, Message: f.Message,
			Advice: f.Advice, Gain: optFloat(f.Gain), Evidence: f.Evidence, Locations: f.Locations, Reason: s.Reason})
	}
	if notesID != 0 {
		v.Notes = notesID
	} else if notesText != nil {
		v.NotesText = notesText
	}
	if v.Limiter == nil && v.Suppressed == nil && v.Notes == 0 && v.NotesText == nil {
		return "", nil
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// NotesJSON returns the JSON of a verdict's notes: the rules skipped and
// the counters missing.
func NotesJSON(skipped []string, missing []Missing) ([]byte, error) {
	return json.Marshal(storedNotes{Skipped: skipped, Missing: missing})
}

// DecodeVerdict reads a kernels.verdict into s; notes returns the
// text_templates row of the verdict's notes (ok false: no such row).
func DecodeVerdict(text string, notes func(id uint64) (t string, ok bool, err error), s *Verdict) error {
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
	nb := []byte(v.NotesText)
	if v.Notes != 0 {
		t, ok, err := notes(v.Notes)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("stored verdict: unknown text %d", v.Notes)
		}
		nb = []byte(t)
	}
	if len(nb) > 0 {
		var n storedNotes
		if err := json.Unmarshal(nb, &n); err != nil {
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

// term makes strings read from the database safe to show, as strings read
// from an export are made at ingest: a shared database may hold what
// another program or an older profan wrote.
func term(ss ...*string) {
	for _, s := range ss {
		*s = safe.Term(*s)
	}
}
