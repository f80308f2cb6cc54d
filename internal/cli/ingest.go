package cli

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
	"github.com/profan-dev/profan/gpumodel"
	"github.com/profan-dev/profan/ingest"
	"github.com/profan-dev/profan/store"
	"github.com/spf13/cobra"
)

// IngestOptions are the flags of profan ingest.
type IngestOptions struct {
	IO      *IOStreams
	Files   []string
	DB      string
	Labels  []string
	Device  string
	Input   string
	Config  string
	Verbose bool
}

// NewCmdIngest builds profan ingest.
func NewCmdIngest(io *IOStreams, runF func(*IngestOptions) error) *cobra.Command {
	opts := &IngestOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "ingest <file>... [--db <path>] [--label <key=value>]...",
		Short: "Store exports as runs in the run database",
		Long: `Store each export as one run: its kernels, their raw metrics, the canonical
metrics profan derives and its findings. Each run is written in one
transaction (all or nothing); an export whose content is already stored is
skipped with a message. The database is --db, else $PROFAN_DB, else
profan.db in the current directory (SQLite, created on first use).

Bad input stores nothing: a run is written in one transaction, rolled back on
an error, and when several files are given the others are read before the
first is written.`,
		Example: `  profan ingest fixtures/ncu/series_v*.runs5.details.csv --db runs.db --label branch=main
  PROFAN_DB=runs.db profan ingest run.csv --label commit=$(git rev-parse --short HEAD)`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Verbose, _ = cmd.Flags().GetBool("verbose")
			opts.Files = args
			if runF != nil {
				return runF(opts)
			}
			return ingestRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", "", "run database: a SQLite file (default $PROFAN_DB or profan.db) or a postgres:// URL")
	cmd.Flags().StringArrayVarP(&opts.Labels, "label", "l", nil, "label the runs: key=value (repeatable)")
	cmd.Flags().StringVar(&opts.Device, "device", "", "GPU to assume when the export does not name it")
	cmd.Flags().StringVar(&opts.Config, "config", "", "config file (TOML): the thresholds and suppressions the stored verdict is made with, as analyze reads it")
	cmd.Flags().StringVar(&opts.Input, "input-format", "", "skip sniffing and read every table as this format")
	return cmd
}

func ingestRun(opts *IngestOptions) error {
	labels, err := parseLabels(opts.Labels)
	if err != nil {
		return err
	}
	st, err := loadSettings("all", nil, opts.Config, opts.Device)
	if err != nil {
		return err
	}
	aopt := st.Opt
	src, files, err := splitSeekable(opts.Files, opts.Input)
	if err != nil {
		return err
	}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	// Read every file but the first before writing any, so that bad input
	// leaves the database unchanged; the first read also gives each its
	// digest. The first file is checked as it is stored: nothing is
	// written before it, and its run is one transaction, rolled back on
	// an error. (Reading it twice cost as much as storing it.)
	runs := make([]*profan.Run, len(files))
	var digest0 func() (string, error)
	for i, f := range files {
		if i == 0 {
			// Its digest is computed beside the storing read.
			format := f.Format()
			size, digest, err := f.HashAside()
			if err != nil {
				return err
			}
			digest0 = lateDigest(digest)
			tool := ""
			if imp, ok := ingest.ByName(format); ok {
				tool = imp.Tool()
			}
			runs[0] = &profan.Run{Source: f.Name(), Size: size, Format: format, Tool: tool}
			continue
		}
		if runs[i], err = f.Read(ingest.Options{Format: opts.Input}, ingest.Sink{
			Kernel: func(*profan.Run, *profan.Kernel) error { return nil },
		}); err != nil {
			return err
		}
		if err := f.Rewind(); err != nil {
			return err
		}
	}
	db, err := store.Open(dbPath(opts.DB, opts.IO))
	if err != nil {
		return err
	}
	defer db.Close()
	for i, f := range files {
		var digest func() (string, error)
		if i == 0 {
			digest = digest0
		}
		run, err := ingestFile(db, f, runs[i], digest, opts, labels, aopt, src)
		if err != nil {
			return err
		}
		if i == 0 && run != nil {
			runs[0] = run
		}
	}
	// Notes and -v accounting once everything is stored: the first file's
	// come from its storing read.
	reportReading(opts.IO, runs, opts.Verbose)
	for _, n := range src.Notes() {
		fmt.Fprintf(opts.IO.ErrOut, "warning: source page: %s\n", n)
	}
	for _, run := range src.Unused() {
		if err := ingestRunKernels(db, run, labels, aopt); err != nil {
			return err
		}
	}
	return nil
}

// lateDigest lets a test make the first export's digest come late, as a
// large export's does: found stored after its run was begun, or only at
// Commit.
var lateDigest = func(d func() (string, error)) func() (string, error) { return d }

// splitSeekable opens each file once: the source pages are read, the other
// exports are returned open and rewindable, for a checking read and a
// storing read.
func splitSeekable(paths []string, format string) (*ingest.SourcePages, []*ingest.File, error) {
	var files []*ingest.File
	for _, p := range paths {
		f, err := ingest.OpenSeekable(p)
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

// ingestFile streams one export, already read once (first), into one run.
// For the first export, which is not, digest waits for the digest that is
// computed beside this read: the run is begun without it, and an export
// stored already is found as soon as it is known.
func ingestFile(db *store.DB, f *ingest.File, first *profan.Run, digest func() (string, error), opts *IngestOptions, labels map[string]string, aopt analysis.Options, src *ingest.SourcePages) (*profan.Run, error) {
	path := f.Name()
	format := first.Format
	if opts.Input != "" {
		format = opts.Input
	}
	info := store.RunInfo{Digest: first.Digest, DigestLater: digest != nil, Source: path, Tool: first.Tool, Format: format, Labels: labels, Size: first.Size}
	var w *store.RunWriter
	dup := false
	skipped := func(id int64) error {
		fmt.Fprintf(opts.IO.ErrOut, "%s: already stored as run %d (identical content), skipped\n", path, id)
		dup = true
		return errStop
	}
	var stored atomic.Int64 // the run an identical export was stored as
	if digest != nil {
		go func() {
			if d, err := digest(); err == nil {
				if id, err := db.DigestID(bg, d); err == nil && id != 0 {
					stored.Store(id)
				}
			}
		}()
	}
	// The run is begun at its first kernel, when the device is known.
	begin := func(device string) error {
		info.Device = device
		var err error
		w, err = db.BeginRun(bg, info)
		var d *store.DuplicateError
		if errors.As(err, &d) {
			return skipped(d.ID)
		}
		return err
	}
	n := 0
	vs := analysis.NewStream(aopt, false)
	var vals []store.NamedValue
	run, err := f.Read(ingest.Options{Format: opts.Input, Digest: first.Digest, Concurrent: true}, ingest.Sink{Kernel: func(run *profan.Run, k *profan.Kernel) error {
		if id := stored.Load(); id != 0 {
			return skipped(id)
		}
		src.AttachRun(run, k)
		// The store is done with the verdict and its values when
		// AddKernel returns: neither is kept past the call.
		a := vs.Transient(run, k)
		if w == nil {
			if err := begin(deviceName(a)); err != nil {
				return err
			}
		}
		n++
		var rec store.KernelRecord
		rec, vals = recordInto(vals, a)
		return w.AddKernel(rec)
	}})
	if digest != nil && run != nil {
		run.Digest, _ = digest() // an error is returned below, unless the run is skipped
	}
	if err != nil && w != nil {
		// A bad row, or an export found stored already once the run was
		// begun (its digest comes beside the read): nothing of it stays,
		// and the write lock goes with the transaction.
		w.Rollback()
	}
	if errors.Is(err, errStop) && dup {
		return run, nil
	}
	if err != nil {
		return nil, err
	}
	if w == nil {
		if err := begin(""); err != nil {
			if dup {
				return run, nil
			}
			return nil, err
		}
	}
	if err := addRunFindings(w, vs, run); err != nil {
		w.Rollback()
		return nil, err
	}
	if digest != nil {
		d, err := digest()
		if err != nil {
			w.Rollback()
			return nil, err
		}
		if err := w.SetDigest(d); err != nil {
			w.Rollback()
			return nil, err
		}
	}
	id, err := w.Commit()
	var d *store.DuplicateError
	if errors.As(err, &d) {
		skipped(d.ID)
		return run, nil
	}
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(opts.IO.Out, "%s: stored as run %d (%d kernels)\n", path, id, n)
	return run, nil
}

// ingestRunKernels stores a run already in memory (a source page without
// its details page).
func ingestRunKernels(db *store.DB, run *profan.Run, labels map[string]string, aopt analysis.Options) error {
	info := store.RunInfo{Digest: run.Digest, Source: run.Source, Tool: run.Tool, Format: run.Format, Labels: labels, Size: run.Size}
	vs := analysis.NewStream(aopt, false)
	var as []*analysis.Kernel
	for _, k := range run.Kernels {
		as = append(as, vs.Kernel(run, k))
	}
	if len(as) > 0 {
		info.Device = deviceName(as[0])
	}
	w, err := db.BeginRun(bg, info)
	var d *store.DuplicateError
	if errors.As(err, &d) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, a := range as {
		if err := w.AddKernel(record(a)); err != nil {
			w.Rollback()
			return err
		}
	}
	if err := addRunFindings(w, vs, run); err != nil {
		w.Rollback()
		return err
	}
	_, err = w.Commit()
	return err
}

var errStop = errors.New("stop")

// addRunFindings stores the run-level part of the run's verdict (host
// transfers), so that gate --run reads what analyze states.
func addRunFindings(w *store.RunWriter, vs *analysis.Stream, run *profan.Run) error {
	if run == nil {
		return nil
	}
	for _, v := range vs.Finish([]*profan.Run{run}) {
		if v.Run != run {
			continue
		}
		for _, f := range v.Findings {
			if err := w.AddRunFinding(f); err != nil {
				return err
			}
		}
	}
	return nil
}

func deviceName(a *analysis.Kernel) string {
	if a.K.Device != "" {
		return a.K.Device
	}
	if a.Spec != nil && (a.GPU.Source == gpumodel.SourceFlag || a.GPU.Source == gpumodel.SourceClues) {
		return a.Spec.Name
	}
	if a.K.CC != "" {
		return "cc " + a.K.CC
	}
	return ""
}

// record converts an analysed kernel to what the store keeps.
func record(a *analysis.Kernel) store.KernelRecord {
	rec, _ := recordInto(make([]store.NamedValue, 0, len(a.Metrics.Values)), a)
	return rec
}

// recordInto is record with the canonical values appended to buf[:0];
// it returns the buffer for the next kernel.
func recordInto(buf []store.NamedValue, a *analysis.Kernel) (store.KernelRecord, []store.NamedValue) {
	buf = buf[:0]
	for _, v := range a.Metrics.Values {
		buf = append(buf, store.NamedValue{Name: v.Name, Value: v.Value})
	}
	return store.KernelRecord{Kernel: a.K, Canonical: buf, Findings: a.Findings}, buf
}
