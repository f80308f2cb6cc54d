package store

import (
	"context"
	"math"
	"slices"

	"github.com/profan-dev/profan/internal/store/blob"
)

// The parts of a kernel's verdict the store keeps beside its canonical
// metrics and findings (internal/store/blob encodes them).
type (
	Limiter    = blob.Limiter
	Headroom   = blob.Headroom
	Suppressed = blob.Suppressed
	Missing    = blob.Missing
	Verdict    = blob.Verdict
)

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
	var notesID uint64
	var notesText []byte
	if len(rec.Skipped) > 0 || len(rec.Missing) > 0 {
		// The launches of an ncu page differ in their limiter's numbers,
		// seldom in their notes: those of the verdict before are
		// encoded and looked up once.
		n := &w.lastNotes
		if !n.ok || !slices.Equal(n.skipped, rec.Skipped) || !slices.Equal(n.missing, rec.Missing) {
			notes, err := blob.NotesJSON(rec.Skipped, rec.Missing)
			if err != nil {
				return "", err
			}
			id, err := w.textFunc(notes)
			if err != nil {
				return "", err
			}
			*n = notesCache{ok: true, skipped: slices.Clone(rec.Skipped), missing: slices.Clone(rec.Missing), id: id, text: notes}
		}
		notesID, notesText = n.id, n.text
	}
	return blob.EncodeVerdict(rec.Limiter, rec.Suppressed, notesID, notesText)
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
	return blob.DecodeVerdict(text, func(id uint64) (string, bool, error) { return db.textTemplate(ctx, id) }, s)
}
