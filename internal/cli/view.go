package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/store"
	"github.com/profan-dev/profan/internal/verdictdb"
)

// readVerdicts reads exports and gives fn each kernel's verdict as vs
// makes it (repeated launches of a trace share theirs): of the kernels
// match keeps (every one when nil; it sees every kernel read), each
// checked against --device and its source paths rewritten by pm first. It
// returns the runs read, for vs.Finish.
func readVerdicts(ctx context.Context, vs *analysis.Stream, files []string, in ingest.Options, opt analysis.Options, match func(*profan.Kernel) bool, pm pathMap, fn func(*analysis.Kernel) error) ([]*profan.Run, error) {
	return readWith(ctx, vs.Kernel, files, in, opt, match, pm, fn)
}

// readTransient is readVerdicts for a caller done with each verdict
// before it is given the next (Stream.Transient): a repeated launch's
// verdict is then not allocated.
func readTransient(ctx context.Context, vs *analysis.Stream, files []string, in ingest.Options, opt analysis.Options, match func(*profan.Kernel) bool, pm pathMap, fn func(*analysis.Kernel) error) ([]*profan.Run, error) {
	return readWith(ctx, vs.Transient, files, in, opt, match, pm, fn)
}

// readWith is readVerdicts with the stream's verdict function.
func readWith(ctx context.Context, verdictOf func(*profan.Run, *profan.Kernel) *analysis.Kernel, files []string, in ingest.Options, opt analysis.Options, match func(*profan.Kernel) bool, pm pathMap, fn func(*analysis.Kernel) error) ([]*profan.Run, error) {
	in.Context = ctx
	return ingest.ReadFiles(files, in, func(run *profan.Run, k *profan.Kernel) error {
		if match != nil && !match(k) {
			return nil
		}
		if err := analysis.CheckDevice(opt, run, k); err != nil {
			return err
		}
		pm.kernel(k)
		return fn(verdictOf(run, k))
	})
}

// eachStored reads the verdict stored with run id through the store's
// reader (verdictdb.Each), kernel by kernel, and says once on the
// command's standard error when the stored verdict was made by an older
// profan and was made again in memory.
func eachStored(ctx context.Context, io *IOStreams, db *store.DB, id int64, opt analysis.Options, fn func(*analysis.Kernel) error) (*analysis.RunVerdict, error) {
	// A named GPU that the stored run contradicts is refused, as on an
	// export.
	v, err := verdictdb.Each(ctx, db, id, opt, func(a *analysis.Kernel) error {
		if err := analysis.CheckDevice(opt, a.Run, a.Record); err != nil {
			return err
		}
		return fn(a)
	})
	if err != nil {
		return nil, err
	}
	if note := v.Remade(id); note != "" {
		fmt.Fprintln(io.ErrOut, note)
	}
	return v, nil
}

// suppressStored applies the config's suppressions to a stored verdict's
// findings, as the analysis applies them to the verdicts it makes: the
// stored verdict holds the suppressions of the ingest's config.
func suppressStored(st *settings, a *analysis.Kernel) {
	kept := a.Findings[:0:0]
	for _, f := range a.Findings {
		if why, ok := st.Sel.Suppressed(f.Rule, a.Record); ok {
			a.Suppressed = append(a.Suppressed[:len(a.Suppressed):len(a.Suppressed)], analysis.Suppressed{Finding: f, Reason: why})
		} else {
			kept = append(kept, f)
		}
	}
	a.Findings = kept
}

// olderTrendNote says, once, which runs of a trend (in) hold metrics
// an older profan made: trend reads the stored values as they are (making
// every run's verdict again would read every kernel of every run), and
// profan migrate makes them again.
func olderTrendNote(ctx context.Context, io *IOStreams, db *store.DB, in map[int64]bool) error {
	if len(in) == 0 {
		return nil
	}
	old, err := verdictdb.Older(ctx, db)
	if err != nil || len(old) == 0 {
		return err
	}
	var ids []string
	for _, r := range old {
		if in[r.ID] {
			ids = append(ids, fmt.Sprint(r.ID))
		}
	}
	if len(ids) > 0 {
		fmt.Fprintf(io.ErrOut, "runs %s: metrics made by an older profan, shown as stored; `profan migrate` makes them again with the current rules\n", strings.Join(ids, ", "))
	}
	return nil
}

// pointRuns adds the runs of pts to in.
func pointRuns(in map[int64]bool, pts []store.Point) map[int64]bool {
	for _, p := range pts {
		in[p.Run] = true
	}
	return in
}
