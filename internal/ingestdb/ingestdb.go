// Package ingestdb stores exports as runs: read, analyse, store, with the
// digest that finds an export stored already and the all-or-nothing rule
// that bad input leaves the database unchanged.
package ingestdb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/safe"
	"github.com/profan-dev/profan/internal/store"
	"github.com/profan-dev/profan/internal/verdictdb"
)

// Options control one ingest.
type Options struct {
	// Labels label every stored run.
	Labels map[string]string
	// Format skips sniffing: every table is read as this format.
	Format string
	// Analysis makes the stored verdicts.
	Analysis analysis.Options
	// Out receives a line per stored run, ErrOut one per export skipped as
	// stored already; either may be nil.
	Out, ErrOut io.Writer
	// Kept, when set, is told what the ingest has written for good, as it
	// happens ("a.csv as run 3", "labels on run 3"): a run once it
	// is committed (into a database not made yet, once that is put in
	// place), labels once added. An ingest stopped later (a signal, a bad
	// export after a good one) keeps them, and its caller can say so.
	Kept func(what string)
}

// options are Options with the tests' hooks, which Ingest leaves unset.
type options struct {
	Options
	// digestDelay makes the first export's digest come late, as a large
	// export's does.
	digestDelay time.Duration
	// checked runs once every capture but the first is checked, before
	// the database is opened (a file rewritten meanwhile).
	checked func()
}

// Result is what was read: the runs (with their messages and accounting).
type Result struct {
	Runs []*profan.Run
}

// Ingest stores each capture of paths as one run in the database at
// dbPath: an export, or the pages of one ncu report given together (see
// ingest.Captures). It opens the database (creating a SQLite file) only
// once every capture but the first has been read whole: bad input stores
// nothing. Source pages are attached to the kernels of the other exports;
// a source page whose details page was not given, or that does not match
// the launches given, is refused: then every capture is checked first.
//
// Each file is read once: the read that checks a capture copies its files
// aside, and the storing read reads the copy, so that a file rewritten
// meanwhile cannot give a run one read's kernels and the other's digest.
// The first capture, when it is one export, is checked as it is stored
// (its run is one transaction, rolled back on an error); its digest is
// computed beside that read, to find it stored already early, and must
// equal the digest of what the read parsed. Into a database not made yet,
// the runs go into a fresh one beside it (store.OpenFresh), put in place
// once a run is stored in it: an export refused as it is stored leaves no
// empty database; as no run is stored in it, the first export's digest is
// that of the text its read parses, and the file is read once.
//
// A cancelled ctx (Ctrl-C) stops the read at its next kernel, or the
// checking read at its next page: the run being written is rolled back, and
// the runs stored before it stay.
func Ingest(ctx context.Context, dbPath string, paths []string, opt Options) (*Result, error) {
	return ingestWith(ctx, dbPath, paths, options{Options: opt})
}

// ingestWith is Ingest with the tests' hooks.
func ingestWith(ctx context.Context, dbPath string, paths []string, opt options) (*Result, error) {
	if opt.Out == nil {
		opt.Out = io.Discard
	}
	if opt.ErrOut == nil {
		opt.ErrOut = io.Discard
	}
	src, files, err := splitSeekable(ctx, paths, opt.Format)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	captures, err := ingest.Captures(files, ingest.Options{Format: opt.Format, Context: ctx})
	if err != nil {
		return nil, err
	}
	runs := make([]*profan.Run, len(captures))
	// Into a database not made yet, the runs are stored into a fresh one
	// that is put in place only once a run is stored: an export refused as
	// it is stored leaves no empty database, and is read once.
	missing := store.NotCreated(dbPath)
	// One export is checked as it is stored, unless the database must be
	// migrated first: then it is read whole before, so that an export
	// refused leaves the database unmigrated.
	first := len(captures) > 0 && len(captures[0].Pages) == 1 && !src.Any() && !store.Behind(ctx, dbPath)
	for i, c := range captures {
		if i == 0 && first {
			continue // checked as it is stored
		}
		if runs[i], err = check(ctx, c, src, opt, missing && opt.Analysis.Device != nil && !opt.Analysis.DeviceForce); err != nil {
			return nil, err
		}
	}
	if unused := src.Unused(); len(unused) > 0 {
		return nil, sourceAloneError(unused[0], len(captures) > 0)
	}
	if err := src.Check(); err != nil {
		return nil, err
	}
	if opt.checked != nil {
		opt.checked()
	}
	if missing {
		err := storeFresh(ctx, dbPath, captures, runs, first, src, opt)
		if !errors.Is(err, store.ErrCreatedMeanwhile) {
			if err != nil {
				return nil, err
			}
			return &Result{Runs: runs}, nil
		}
		// Another process created the database meanwhile: store into it.
		for _, c := range captures {
			for _, f := range c.Pages {
				if err := f.Rewind(); err != nil {
					return nil, err
				}
			}
		}
	}
	// The migrations the database lacks are applied with the first run
	// stored, in its transaction: a run refused leaves them unapplied.
	db, err := store.OpenDeferred(ctx, dbPath)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if _, err := storeAll(ctx, db, false, captures, runs, first, src, opt); err != nil {
		return nil, err
	}
	return &Result{Runs: runs}, nil
}

// storeFresh stores the captures into a fresh database for dbPath, and
// puts it in place if a capture was stored (the lines said of each are
// written then), as the runs stored before an error stay in a database
// that exists.
func storeFresh(ctx context.Context, dbPath string, captures []ingest.Capture, runs []*profan.Run, first bool, src *ingest.SourcePages, opt options) error {
	db, err := store.OpenFresh(dbPath)
	if err != nil {
		return err
	}
	var out, errOut bytes.Buffer
	var kept []string
	o := opt
	o.Out, o.ErrOut = &out, &errOut
	o.Kept = func(what string) { kept = append(kept, what) }
	stored, err := storeAll(ctx, db.DB, true, captures, runs, first, src, o)
	if stored == 0 {
		db.Discard()
		return err
	}
	if perr := db.Publish(); perr != nil {
		return perr
	}
	for _, k := range kept {
		opt.kept(k)
	}
	opt.Out.Write(out.Bytes())
	opt.ErrOut.Write(errOut.Bytes())
	return err
}

// kept tells Kept what, if it is set.
func (o options) kept(what string) {
	if o.Kept != nil {
		o.Kept(what)
	}
}

// storeAll stores each capture as a run; the first, when it is one export
// (first), is checked as it is stored (its run is one transaction, rolled
// back on an error) and its digest computed beside that read, or, into a
// fresh database (fresh), by that read itself. It returns how many
// captures were stored (or found stored already).
func storeAll(ctx context.Context, db *store.DB, fresh bool, captures []ingest.Capture, runs []*profan.Run, first bool, src *ingest.SourcePages, opt options) (int, error) {
	for i, c := range captures {
		var digest func() (string, error)
		if i == 0 && first {
			f := c.Pages[0]
			format := f.Format()
			var size int64
			var err error
			if fresh {
				// No run is stored in a fresh database: the digest need
				// not come early to find one, and the read hashes the
				// text it parses (no second read of the file, and no
				// check hash to compare the two reads).
				size, err = f.Size()
			} else {
				var d func() (string, error)
				size, d, err = f.HashAside()
				digest = d
				if delay := opt.digestDelay; delay > 0 {
					digest = func() (string, error) { time.Sleep(delay); return d() }
				}
			}
			if err != nil {
				return i, err
			}
			// Its tool is the one the reader that reads it says (see
			// storeCapture).
			runs[0] = &profan.Run{Source: f.Name(), Size: size, Format: format}
		}
		run, err := storeCapture(ctx, db, c, runs[i], digest, src, opt)
		if err != nil {
			return i, err
		}
		if i == 0 && first && run != nil {
			runs[0] = run
		}
	}
	return len(captures), nil
}

// check reads a capture whole before anything is stored, each file into a
// copy that the storing read then reads, and matches its launches with
// the source pages; it returns the capture's run.
//
// With device, the launches are also checked against the GPU --device
// names, as the storing read checks them: into a database not made yet,
// a contradiction found there would leave an empty database.
func check(ctx context.Context, c ingest.Capture, src *ingest.SourcePages, opt options, device bool) (*profan.Run, error) {
	var run *profan.Run
	for _, f := range c.Pages {
		if err := interrupted(ctx, f.Name()); err != nil {
			return nil, err
		}
		r, err := f.Copy(ingest.Options{Format: opt.Format, Context: ctx})
		if err != nil {
			return nil, err
		}
		run = r
	}
	if len(c.Pages) == 1 && !src.Any() && !device {
		return run, nil
	}
	// The pages agree launch by launch, and with the source pages: read
	// them together.
	digest := run.Digest
	run, err := ingest.ReadCapture(c, ingest.Options{Format: opt.Format, Context: ctx}, func(run *profan.Run, k *profan.Kernel) error {
		if err := interrupted(ctx, c.Name()); err != nil {
			return err
		}
		if err := analysis.CheckDevice(opt.Analysis, run, k); err != nil {
			return err
		}
		return src.AttachRun(run, k)
	})
	if err != nil {
		return nil, err
	}
	if len(c.Pages) == 1 {
		run.Digest = digest
	}
	for _, f := range c.Pages {
		if err := f.Rewind(); err != nil {
			return nil, err
		}
	}
	return run, nil
}

// sourceAloneError refuses a source page whose details page was not given:
// alone it has no timing, so a run of it would have no duration and no
// device, and would then be the "latest" run that gates compare with.
func sourceAloneError(run *profan.Run, others bool) error {
	msg := fmt.Sprintf("%s: a source page is stored with the details page of its report, not alone: give both, e.g. profan ingest details.csv %s",
		safe.Term(run.Source), safe.Term(run.Source))
	if others {
		msg = fmt.Sprintf("%s: this source page matches no kernel of the other exports given (nothing stored): give it with the details page of its report",
			safe.Term(run.Source))
	}
	return errors.New(msg)
}

// splitSeekable opens each file once: the source pages are read, the other
// exports are returned open and rewindable, for a checking read and a
// storing read.
func splitSeekable(ctx context.Context, paths []string, format string) (*ingest.SourcePages, []*ingest.File, error) {
	var files []*ingest.File
	for _, p := range paths {
		f, err := ingest.OpenSeekable(p, ingest.Options{Format: format, Context: ctx})
		if err != nil {
			for _, f := range files {
				f.Close()
			}
			return nil, nil, err
		}
		files = append(files, f)
	}
	src := ingest.NewSourcePages()
	var rest []*ingest.File
	for _, f := range files {
		if f.Format() == "ncu-source" && (format == "" || format == "ncu-source") {
			run, err := f.Read(ingest.Options{}, ingest.Sink{})
			f.Close()
			if err != nil {
				for _, g := range rest {
					g.Close()
				}
				return nil, nil, err
			}
			src.Add(run)
			continue
		}
		rest = append(rest, f)
	}
	return src, rest, nil
}

var errStop = errors.New("stop")

// interrupted is the error of a read whose context was cancelled (Ctrl-C),
// nil while it is not.
func interrupted(ctx context.Context, path string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: interrupted, not stored: %w", safe.Term(path), err)
	}
	return nil
}

// storeCapture streams one capture, already read once (first), into one
// run. For the first export, which is not, the run is begun without its
// digest: digest waits for the digest that is computed beside this read,
// and an export stored already is found as soon as it is known; without
// digest (into a fresh database), the digest is that of the text this read
// parses.
func storeCapture(ctx context.Context, db *store.DB, c ingest.Capture, first *profan.Run, digest func() (string, error), src *ingest.SourcePages, opt options) (*profan.Run, error) {
	path := c.Name()
	format := first.Format
	if opt.Format != "" {
		format = opt.Format
	}
	later := digest != nil || first.Digest == "" // the digest comes with or after the read
	info := store.RunInfo{Digest: first.Digest, DigestLater: later, Source: path, Tool: first.Tool, Format: format, Labels: opt.Labels, Size: first.Size,
		Verdict: analysis.VerdictVersion,
		// Said as the commit ends, before a signal's end can say what
		// was stored (store.HoldCommits).
		Committed: func(id int64) { opt.kept(fmt.Sprintf("%s as run %d", path, id)) }}
	var w *store.RunWriter
	dup := false
	var dupID int64
	skipped := func(id int64) error {
		dupID, dup = id, true
		return errStop
	}
	attached := false       // a source page gave this export's kernels their source
	var stored atomic.Int64 // the run an identical export was stored as
	if digest != nil {
		// Looked up beside the read; waited for before the database
		// can be closed.
		defer lookAside(ctx, db, c, digest, &stored)()
	}
	// The run is begun at its first kernel, when the device is known, and
	// the tool as the reader that read the export says it (set before its
	// first kernel, never changed after).
	begin := func(run *profan.Run, device string) error {
		info.Device = device
		if run != nil && run.Tool != "" {
			info.Tool = run.Tool
		}
		var err error
		w, err = db.BeginRun(ctx, info)
		var d *store.DuplicateError
		if errors.As(err, &d) {
			return skipped(d.ID)
		}
		return err
	}
	n := 0                         // launches: an aggregate record stands for its invocations
	names := map[string]struct{}{} // kernels: distinct names
	var vw verdictdb.Writer
	vs := analysis.NewStream(opt.Analysis, false)
	vs.SkipJoins() // one run: it joins with nothing
	// The launches are grouped as they are stored, for the application
	// advice stored with the run (verdictdb.AdviceDoc).
	rec, _ := opt.Analysis.Rules.(analysis.Recommender)
	b := analysis.NewBuilder(false, rec)
	b.Transient() // the store and the groups are done with each verdict before the next
	run, err := ingest.ReadCapture(c, ingest.Options{Format: opt.Format, Digest: first.Digest, Concurrent: true, Context: ctx}, func(run *profan.Run, k *profan.Kernel) error {
		// Cancelled (Ctrl-C): stop at this kernel; the run's transaction
		// is rolled back below.
		if err := interrupted(ctx, path); err != nil {
			return err
		}
		if err := src.AttachRun(run, k); err != nil {
			return err
		}
		attached = attached || len(k.Source) > 0
		if id := stored.Load(); id != 0 {
			return skipped(id)
		}
		// A named GPU the export contradicts stores nothing.
		if err := analysis.CheckDevice(opt.Analysis, run, k); err != nil {
			return err
		}
		// The store is done with the verdict and its values when
		// AddKernel returns; the group keeps a copy of the verdicts it
		// holds (Builder.Transient).
		a := vs.Transient(run, k)
		b.Add(a)
		if w == nil {
			if err := begin(run, deviceName(a)); err != nil {
				return err
			}
		}
		n += max(k.Invocations, 1)
		names[k.Name] = struct{}{}
		return vw.Add(w, a)
	})
	read := ""
	if later && run != nil {
		read = run.Digest
		if digest != nil {
			run.Digest, _ = digest() // an error is returned below, unless the run is skipped
		}
	}
	if err != nil && w != nil {
		// A bad row, or an export found stored already once the run was
		// begun (its digest comes beside the read): nothing of it stays,
		// and the write lock goes with the transaction.
		w.Rollback()
	}
	if errors.Is(err, errStop) && dup {
		return run, storedAlready(ctx, db, path, dupID, attached, opt)
	}
	if err != nil {
		return nil, err
	}
	if w == nil {
		if err := begin(run, ""); err != nil {
			if dup {
				return run, storedAlready(ctx, db, path, dupID, attached, opt)
			}
			return nil, err
		}
	}
	if err := endRun(w, vs, b, run, path, later, digest, read); err != nil {
		w.Rollback()
		return nil, err
	}
	w.SetCaptured(run.Captured)
	id, err := w.Commit()
	var d *store.DuplicateError
	if errors.As(err, &d) {
		return run, storedAlready(ctx, db, path, d.ID, attached, opt)
	}
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(opt.Out, "%s: stored as run %d (%s of %s)\n", path, id, plural(n, "launch", "launches"), plural(len(names), "kernel", "kernels"))
	return run, nil
}

// lookAside looks the digest of the capture's first export up in the
// database beside the read, and stores the ID of the run it was stored
// as, if any, in stored. It returns the function that waits for the
// look-up, once the read has stopped the digest if it had to (a read
// that failed or was skipped need not wait for the digest of the rest of
// the file; a finished one is kept).
func lookAside(ctx context.Context, db *store.DB, c ingest.Capture, digest func() (string, error), stored *atomic.Int64) func() {
	var wg sync.WaitGroup
	wg.Go(func() {
		if d, err := digest(); err == nil {
			if id, err := db.DigestID(ctx, d); err == nil && id != 0 {
				stored.Store(id)
			}
		}
	})
	return func() {
		c.Pages[0].StopAside()
		wg.Wait()
	}
}

// endRun adds the run's findings to the run w writes and, for a run begun
// without its digest (later), sets it: that of the text parsed (read),
// checked against the digest computed beside the read (digest) where one
// was.
func endRun(w *store.RunWriter, vs *analysis.Stream, b *analysis.Builder, run *profan.Run, path string, later bool, digest func() (string, error), read string) error {
	if err := addRunFindings(w, vs, b, run); err != nil {
		return err
	}
	if !later {
		return nil
	}
	if digest == nil {
		return w.SetDigest(read)
	}
	d, err := digest()
	if err != nil {
		return err
	}
	if d != read {
		// The file was written to while it was read: the kernels
		// read are not the export of that digest.
		return fmt.Errorf("%s: changed while it was read (the digest of the file differs from that of the text parsed): nothing of it stored; ingest it again once it is complete", safe.Term(path))
	}
	return w.SetDigest(d)
}

// plural is "1 launch", "2 launches".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// storedAlready handles an export whose content is stored as run id: the
// run is kept, and gains the labels given now that it lacks (said on Out).
// A label it has with another value, or a source page given now that the
// stored run lacks, is an error: a stored run is never changed, and what
// the user said is never dropped without a word.
func storedAlready(ctx context.Context, db *store.DB, path string, id int64, attached bool, opt options) error {
	// The stored run is read (and labelled) with this profan's schema.
	if err := db.MigratePending(ctx); err != nil {
		return err
	}
	name := safe.Term(path)
	if attached {
		ks, err := db.Kernels(ctx, id)
		if err != nil {
			return err
		}
		has := false
		for _, k := range ks {
			has = has || len(k.Kernel.Source) > 0
		}
		if !has {
			return fmt.Errorf("%s: already stored as run %d (identical content) without its source page, and a stored run is never changed: the source page given is not stored", name, id)
		}
	}
	added, err := db.AddLabels(ctx, id, opt.Labels)
	var conflict *store.LabelConflictError
	if errors.As(err, &conflict) {
		k := safe.Term(conflict.Key)
		return fmt.Errorf("%s: already stored as run %d (identical content), which has label %s=%s, not %s=%s: a stored label is never replaced (nothing written)",
			name, id, k, safe.Term(conflict.Have), k, safe.Term(conflict.Want))
	}
	if err != nil {
		return fmt.Errorf("%s: already stored as run %d (identical content): %w", name, id, err)
	}
	if len(added) == 0 {
		fmt.Fprintf(opt.ErrOut, "%s: already stored as run %d (identical content), skipped\n", name, id)
		return nil
	}
	opt.kept(fmt.Sprintf("labels on run %d", id))
	var kv []string
	for _, k := range added {
		kv = append(kv, safe.Term(k)+"="+safe.Term(opt.Labels[k]))
	}
	fmt.Fprintf(opt.Out, "%s: already stored as run %d (identical content): labels added: %s\n", name, id, strings.Join(kv, ", "))
	return nil
}

// addRunFindings stores the run-level part of the run's verdict (host
// transfers, the timeline, the application advice b makes with them) and
// its host calls, so that gate --run and report --db read what analyze
// states.
func addRunFindings(w *store.RunWriter, vs *analysis.Stream, b *analysis.Builder, run *profan.Run) error {
	if run == nil {
		return nil
	}
	if err := w.SetHostCalls(run.APICalls); err != nil {
		return err
	}
	rvs := vs.Finish([]*profan.Run{run})
	doc, err := verdictdb.AdviceDoc(b.Finish([]*profan.Run{run}, rvs).App)
	if err != nil {
		return err
	}
	if err := w.SetAdvice(doc); err != nil {
		return err
	}
	for _, v := range rvs {
		if v.Run != run {
			continue
		}
		for _, f := range v.Findings {
			if err := w.AddRunFinding(f); err != nil {
				return err
			}
		}
		if v.Timeline != nil {
			if err := w.SetTimeline(verdictdb.TimelineFigures(v.Timeline)); err != nil {
				return err
			}
		}
	}
	return nil
}

// deviceName is the device a run is stored under: as the export names it,
// else the GPU given or recognised, else the compute capability.
func deviceName(a *analysis.Kernel) string {
	if a.Record.Device != "" {
		return a.Record.Device
	}
	if a.Spec != nil && (a.GPU.Source == gpumodel.SourceFlag || a.GPU.Source == gpumodel.SourceClues) {
		return a.Spec.Name
	}
	if a.Record.CC != "" {
		return "cc " + a.Record.CC
	}
	return ""
}
