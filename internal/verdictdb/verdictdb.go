// Package verdictdb keeps verdicts in the run database: it writes the
// verdict the analysis made through store, reads it back as the analysis
// restores it, and makes a verdict of an older maker again, in memory or
// in place. store persists; the analysis judges; this package is where the
// two meet, so that store imports no analysis.
package verdictdb

import (
	"context"
	"fmt"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/store"
	"github.com/profan-dev/profan/internal/verdict"
)

// Writer adds verdicts to runs being written. Its buffers are reused from
// kernel to kernel (the launches of a trace number in the hundreds of
// thousands); the zero Writer is ready for use. It is not safe for
// concurrent use.
type Writer struct {
	vals []store.NamedValue
	sup  []store.Suppressed
	miss []store.Missing
	// from is the verdict's Missing that miss converts: the launches of a
	// trace share their earlier launch's (analysis.Memo), converted once.
	from []analysis.Missing
	// The verdict parts of the record added last (see AsBefore).
	added   bool
	skipped []string
	limiter store.Limiter
	hadSup  bool
}

// Add writes one kernel's verdict to w, as the analysis made it: the kernel
// record, its canonical metrics, its findings, and the rest of the verdict
// (limiter, findings suppressed, rules skipped, counters missing). w keeps
// nothing of a once it returns; x keeps its Skipped and Missing slices,
// to know the next launch's by their address.
func (x *Writer) Add(w *store.RunWriter, a *analysis.Kernel) error {
	x.vals = x.vals[:0]
	for _, v := range a.Metrics.Values {
		if v.Estimate {
			// Not in the export: trends, diffs and baselines compare
			// measurements only.
			continue
		}
		x.vals = append(x.vals, store.NamedValue{Name: v.Name, Value: v.Value})
	}
	x.sup = x.sup[:0]
	for _, s := range a.Suppressed {
		x.sup = append(x.sup, store.Suppressed(s))
	}
	// The notes of a trace's launches are one slice (analysis.Memo):
	// then they are those of the record before.
	notesAsBefore := x.added && sameNotes(x.from, a.Missing) && sameNotes(x.skipped, a.Skipped)
	if !sameNotes(x.from, a.Missing) {
		x.miss = x.miss[:0]
		for _, m := range a.Missing {
			x.miss = append(x.miss, store.Missing(m))
		}
		x.from = a.Missing
	}
	var l store.Limiter
	if h := a.Limiter.Headroom; a.Limiter.Known() || h.Missing != "" {
		// A kernel with no limiter (a trace's) keeps what its headroom
		// lacks: every kernel states its headroom.
		l = store.Limiter{Unit: a.Limiter.Unit.String(), Pipe: a.Limiter.Pipe, Percent: a.Limiter.Percent, Evidence: a.Limiter.Evidence,
			Headroom: store.Headroom{Share: h.Share, Unit: h.Unit, Held: h.Held, Ideal: h.Ideal, Explained: h.Explained, Evidence: h.Evidence, Missing: h.Missing}}
	}
	asBefore := notesAsBefore && len(x.sup) == 0 && !x.hadSup && store.SameLimiter(l, x.limiter)
	x.added, x.skipped, x.limiter, x.hadSup = true, a.Skipped, l, len(x.sup) > 0
	return w.AddKernel(store.KernelRecord{Kernel: a.Record, Canonical: x.vals, Findings: a.Findings,
		Limiter: l, Suppressed: nilIfEmpty(x.sup), Skipped: a.Skipped, Missing: nilIfEmpty(x.miss), AsBefore: asBefore})
}

// sameNotes reports whether a and b are one slice, the same elements of
// the same array (a verdict's parts are not changed once made), or both
// empty.
func sameNotes[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// stored converts what the store read of a kernel's verdict into what
// analysis.Restore takes.
func stored(sk store.StoredKernel, v store.Verdict) (analysis.Stored, error) {
	s := analysis.Stored{Metrics: sk.Canonical, Findings: sk.Findings, Skipped: v.Skipped}
	if v.Limiter.Unit != "" {
		u, err := verdict.ParseUnit(v.Limiter.Unit)
		if err != nil {
			return s, fmt.Errorf("stored verdict: %w", err)
		}
		h := v.Limiter.Headroom
		s.Limiter = analysis.Limiter{Unit: u, Pipe: v.Limiter.Pipe, Percent: v.Limiter.Percent, Evidence: v.Limiter.Evidence,
			Headroom: analysis.Headroom{Share: h.Share, Unit: h.Unit, Held: h.Held, Ideal: h.Ideal, Explained: h.Explained, Evidence: h.Evidence, Missing: h.Missing}}
	} else {
		s.Limiter = analysis.Limiter{Percent: v.Limiter.Percent}
	}
	for _, x := range v.Suppressed {
		s.Suppressed = append(s.Suppressed, analysis.Suppressed(x))
	}
	for _, m := range v.Missing {
		s.Missing = append(s.Missing, analysis.Missing(m))
	}
	return s, nil
}

// Each reads the verdict stored with run runID and calls fn with each
// kernel's, in the order store.DB.EachRecord gives the records (the later
// launches of a launch series share their first launch's verdict but for
// their identity and duration). It returns the run's verdict without its
// kernels: the run, its run-level findings and its stored timeline. Memory grows with the
// records stored, not with the launches a series stands for.
//
// A verdict stored by an older verdict maker than this profan's
// (analysis.VerdictVersion) is never taken as this one's: each kernel's is
// made again from its stored counters with opt (its rules, thresholds and
// suppressions), and RemadeFrom says the older version. The run-level
// findings stay as stored: the host transfers they were made from are
// not stored. opt's device serves both, for kernels whose export does not
// name their GPU.
func Each(ctx context.Context, db *store.DB, runID int64, opt analysis.Options, fn func(*analysis.Kernel) error) (*analysis.RunVerdict, error) {
	rec, err := db.Run(ctx, runID)
	if err != nil {
		return nil, err
	}
	fs, err := db.RunFindings(ctx, runID)
	if err != nil {
		return nil, fmt.Errorf("reading run %d: %w", runID, err)
	}
	run := runOf(rec)
	run.Findings = fs
	if run.APICalls, err = db.HostCalls(ctx, runID); err != nil {
		return nil, fmt.Errorf("reading run %d: %w", runID, err)
	}
	v := &analysis.RunVerdict{Run: run, Findings: fs}
	tl, ok, err := db.Timeline(ctx, runID)
	if err != nil {
		return nil, fmt.Errorf("reading run %d: %w", runID, err)
	}
	if ok {
		v.Timeline = Timeline(tl)
	}
	var memo *analysis.Memo
	if rec.Verdict < analysis.VerdictVersion {
		v.RemadeFrom = rec.Verdict
		memo = analysis.NewMemo(opt)
	}
	// The first launch's verdict of each record, by its kernels.id, for
	// the later launches of its series.
	firsts := map[int64]*analysis.Kernel{}
	gpu := false
	err = db.EachRecord(ctx, runID, func(id int64, sk store.StoredKernel) error {
		var a *analysis.Kernel
		if memo != nil {
			a = memo.Analyze(run, sk.Kernel)
		} else {
			sv, err := db.VerdictOf(ctx, sk)
			if err == nil {
				var s analysis.Stored
				if s, err = stored(sk, sv); err == nil {
					a = analysis.Restore(run, sk.Kernel, s, opt)
				}
			}
			if err != nil {
				return fmt.Errorf("kernel %s: %w", sk.Kernel.ID, err)
			}
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

// runOf is the run a stored record stands for, without its kernels.
func runOf(rec store.RunRecord) *profan.Run {
	return &profan.Run{Source: rec.Source, Tool: rec.Tool, Format: rec.Format, Digest: rec.Digest, Size: rec.Size, ToolVersion: rec.ToolVersion}
}

// Older returns the runs whose stored verdict an older verdict maker than
// this profan's made, oldest first.
func Older(ctx context.Context, db *store.DB) ([]store.RunRecord, error) {
	return db.OlderVerdicts(ctx, analysis.VerdictVersion)
}

// Remake makes the verdict of run runID again from its stored counters
// with opt, as Each does on read, and stores it in place of the one
// stored, with this profan's verdict version, in one transaction: the
// run's kernel records are written again, launch by launch, as an ingest
// of the same export writes them now (a launch series the new verdicts
// tell apart is split). The run keeps its ID, digest, labels and
// run-level findings (the host transfers those were made from are not
// stored). The launches are held in memory meanwhile.
func Remake(ctx context.Context, db *store.DB, runID int64, opt analysis.Options) error {
	tl, hasTL, err := db.Timeline(ctx, runID)
	if err != nil {
		return fmt.Errorf("re-making the verdict of run %d: %w", runID, err)
	}
	return db.RewriteKernels(ctx, runID, analysis.VerdictVersion, func(rec store.RunRecord, ks []store.StoredKernel, w *store.RunWriter) error {
		run := runOf(rec)
		vs := analysis.NewStream(opt, false)
		r, _ := opt.Rules.(analysis.Recommender)
		b := analysis.NewBuilder(false, r)
		var x Writer
		for _, k := range ks {
			a := vs.Kernel(run, k.Kernel)
			b.Add(a)
			if err := x.Add(w, a); err != nil {
				return err
			}
		}
		// The advice made again from the stored kernels and timeline
		// figures (the host's launch calls and transfers are not stored).
		rv := &analysis.RunVerdict{Run: run}
		if hasTL {
			rv.Timeline = Timeline(tl)
		}
		doc, err := AdviceDoc(b.Finish([]*profan.Run{run}, []*analysis.RunVerdict{rv}).App)
		if err != nil {
			return err
		}
		return w.SetAdvice(doc)
	})
}
