package ingestdb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/store"
)

const fx = "../../fixtures/ncu/"

func countRuns(t *testing.T, path string) int {
	t.Helper()
	db, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rs, err := db.Runs(context.Background(), store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(rs)
}

// TestStoredFirstThenNew ingests an export stored already followed by a
// new one. The first export's digest is computed beside its read, so it is
// found stored either before its run is begun or after: either way it is
// skipped, its transaction gives the write lock back, and the next export
// is stored (it once waited out the busy timeout on the abandoned run).
func TestStoredFirstThenNew(t *testing.T) {
	stored := "../../fixtures/pytorch/train.full.details.csv.gz"
	ctx := context.Background()
	for _, delay := range []time.Duration{0, 5 * time.Millisecond, 20 * time.Millisecond, 60 * time.Millisecond, time.Second} {
		t.Run(delay.String(), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "runs.db")
			if _, err := Ingest(ctx, db, []string{stored}, Options{}); err != nil {
				t.Fatal(err)
			}
			var errOut strings.Builder
			if _, err := ingestWith(ctx, db, []string{stored, fx + "saxpy.details.csv"}, options{Options: Options{ErrOut: &errOut}, digestDelay: delay}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(errOut.String(), "already stored as run 1") {
				t.Errorf("got %q, want the first export skipped as run 1", errOut.String())
			}
			if n := countRuns(t, db); n != 2 {
				t.Errorf("%d runs, want 2", n)
			}
		})
	}
}

// TestStoredAlready holds that what the user says when an export is
// stored already is kept or refused aloud, never dropped: new labels are
// added to the stored run, a different value for a stored label is an
// error, and a source page the stored run lacks is an error.
func TestStoredAlready(t *testing.T) {
	ctx := context.Background()
	details, source := fx+"transpose.import.details.csv", fx+"transpose.source.cuda-sass.csv"
	db := filepath.Join(t.TempDir(), "runs.db")
	if _, err := Ingest(ctx, db, []string{details}, Options{Labels: map[string]string{"branch": "main"}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name        string
		files       []string
		labels      map[string]string
		out, errOut string // substrings
		err         string
		want        map[string]string // run 1's labels after
	}{
		{"same labels", []string{details}, map[string]string{"branch": "main"}, "", "already stored as run 1 (identical content), skipped", "",
			map[string]string{"branch": "main"}},
		{"new label", []string{details}, map[string]string{"branch": "main", "commit": "c5"}, "already stored as run 1 (identical content): labels added: commit=c5", "", "",
			map[string]string{"branch": "main", "commit": "c5"}},
		{"changed label", []string{details}, map[string]string{"commit": "c6", "gpu": "h100"}, "", "",
			"which has label commit=c5, not commit=c6: a stored label is never replaced", map[string]string{"branch": "main", "commit": "c5"}},
		{"source page now", []string{details, source}, nil, "", "", "already stored as run 1 (identical content) without its source page",
			map[string]string{"branch": "main", "commit": "c5"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut strings.Builder
			_, err := Ingest(ctx, db, c.files, Options{Labels: c.labels, Out: &out, ErrOut: &errOut})
			if (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
				t.Errorf("error %v, want %q", err, c.err)
			}
			if !strings.Contains(out.String(), c.out) || !strings.Contains(errOut.String(), c.errOut) {
				t.Errorf("stdout %q, stderr %q; want %q, %q", out.String(), errOut.String(), c.out, c.errOut)
			}
			s, err := store.OpenReadOnly(db)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			rs, err := s.Runs(ctx, store.RunFilter{})
			if err != nil || len(rs) != 1 || fmt.Sprint(rs[0].Labels) != fmt.Sprint(c.want) {
				t.Errorf("runs %+v (%v), want one labelled %v", rs, err, c.want)
			}
		})
	}
}

// TestSourcePageAlone holds that a source page, which has no timing, is
// never stored as a run of its own: alone it is refused before the
// database is opened; with exports it matches nothing of, or of another
// capture, it is refused by name, and nothing is stored.
func TestSourcePageAlone(t *testing.T) {
	ctx := context.Background()
	source := fx + "transpose.source.cuda-sass.csv"
	db := filepath.Join(t.TempDir(), "runs.db")
	_, err := Ingest(ctx, db, []string{source}, Options{})
	if err == nil || !strings.Contains(err.Error(), "a source page is stored with the details page of its report, not alone") {
		t.Errorf("alone: %v", err)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("alone: the database was created (%v)", err)
	}
	_, err = Ingest(ctx, db, []string{fx + "saxpy.details.csv", source}, Options{})
	if err == nil || !strings.Contains(err.Error(), "this source page matches no kernel of the other exports given") {
		t.Errorf("with another export: %v", err)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("with another export: the database was created (%v); bad input stores nothing", err)
	}
	// A source page of another capture beside a details page whose
	// launches it names: refused, nothing stored.
	_, err = Ingest(ctx, db, []string{fx + "saxpy.details.csv", "../../fixtures/calib/calib.source.cuda-sass.csv.gz"}, Options{})
	if err == nil || !strings.Contains(err.Error(), "saxpy.details.csv:6: launch 0 of saxpy(int, float, const float *, float *) would get the source of launch 41") {
		t.Errorf("source page of another capture: %v", err)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("source page of another capture: the database was created (%v)", err)
	}
}

// TestPagesOneRun: the pages of one report are stored as one run holding
// each launch once; the same pages given again, in another order, are
// found stored already.
func TestPagesOneRun(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "runs.db")
	raw, details, source := "../../fixtures/atomics/atomics.raw.csv.gz", "../../fixtures/atomics/atomics.details.csv.gz", fx+"saxpy.details.csv"
	var out, errOut strings.Builder
	if _, err := Ingest(ctx, db, []string{source, details, raw}, Options{Out: &out}); err != nil {
		t.Fatal(err)
	}
	if want := raw + " + " + details + ": stored as run 2 (14 launches of 7 kernels)"; !strings.Contains(out.String(), want) {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	if _, err := Ingest(ctx, db, []string{raw, details}, Options{ErrOut: &errOut}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "already stored as run 2 (identical content), skipped") {
		t.Errorf("stderr %q, want the pages found stored as run 2", errOut.String())
	}
	if n := countRuns(t, db); n != 2 {
		t.Errorf("%d runs, want 2", n)
	}
}

// TestChangedAfterCheck: a file rewritten after the read that checks it
// and before it is stored is stored as it was checked, with the digest of
// what was read, never one version's kernels with the other's digest.
func TestChangedAfterCheck(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	path := filepath.Join(dir, "export.csv")
	first, err := os.ReadFile(fx + "saxpy.details.csv")
	if err != nil {
		t.Fatal(err)
	}
	later, err := os.ReadFile(fx + "copy.details.csv")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, first, 0o644)
	var out strings.Builder
	_, err = ingestWith(ctx, db, []string{fx + "transpose.details.csv", path}, options{Options: Options{Out: &out}, checked: func() {
		if err := os.WriteFile(path, later, 0o644); err != nil {
			t.Fatal(err)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), path+": stored as run 2 (1 launch of 1 kernel)") {
		t.Errorf("stdout %q, want the export stored as checked (saxpy: 1 kernel)", out.String())
	}
	// The export as it is now is not the one stored.
	os.WriteFile(path, first, 0o644)
	var errOut strings.Builder
	if _, err := Ingest(ctx, db, []string{path}, Options{ErrOut: &errOut}); err != nil || !strings.Contains(errOut.String(), "already stored as run 2") {
		t.Errorf("the checked export again: %v, %q; want it found stored as run 2", err, errOut.String())
	}
}

// countdown is a context whose Err reports it cancelled after n calls, as
// if Ctrl-C came in the middle of a read.
type countdown struct {
	context.Context
	n atomic.Int64
}

func (c *countdown) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestCancel: an ingest cancelled before its first kernel, or in the middle
// of a run, stores nothing of that run and says it was cancelled; so does
// one cancelled while it checks a second export.
func TestCancel(t *testing.T) {
	first, second := "../../fixtures/pytorch/train.full.details.csv.gz", fx+"saxpy.details.csv"
	for _, c := range []struct {
		n     int64
		files []string
	}{{0, []string{first}}, {3, []string{first}}, {0, []string{first, second}}} {
		t.Run(fmt.Sprint(c.n, len(c.files)), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "runs.db")
			ctx := &countdown{Context: context.Background()}
			ctx.n.Store(c.n)
			_, err := Ingest(ctx, db, c.files, Options{})
			// Cancelled inside the store, the error is the store's.
			if !errors.Is(err, context.Canceled) || c.n == 0 && !strings.Contains(err.Error(), "interrupted, not stored") {
				t.Fatalf("got %v, want it interrupted", err)
			}
			if _, statErr := os.Stat(db); statErr == nil {
				if k := countRuns(t, db); k != 0 {
					t.Errorf("%d runs stored, want none", k)
				}
			}
		})
	}
}

// TestFirstChangedWhileRead: the first export, stored as it is read with
// its digest computed beside, rewritten in place during the ingest (one
// value of its last launch, past what the reader holds in its buffer):
// the digest beside is the old text's, the reader's the new one's, and
// nothing of it is stored; had the digest beside read the new text too,
// the run would have the new text's digest.
func TestFirstChangedWhileRead(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	path := filepath.Join(dir, "export.csv")
	before, err := os.ReadFile(fx + "saxpy.full40.details.csv") // 40 launches, 850 kB
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.LastIndex(before, []byte(`"Elapsed Cycles","cycle","`)) + len(`"Elapsed Cycles","cycle","`)
	after := bytes.Clone(before)
	after[i] = '1' + (after[i]-'0')%9 // another leading digit
	os.WriteFile(path, before, 0o644)
	// A database made already: into a new one, the first export is
	// checked, from a copy, like the others.
	if _, err := Ingest(ctx, db, []string{fx + "saxpy.details.csv"}, Options{}); err != nil {
		t.Fatal(err)
	}
	var out0 strings.Builder
	_, err = ingestWith(ctx, db, []string{path, fx + "transpose.details.csv"}, options{Options: Options{Out: &out0}, checked: func() {
		time.Sleep(200 * time.Millisecond) // the digest beside is done
		os.WriteFile(path, after, 0o644)
	}})
	if err == nil {
		// The digest beside was late and read the new text: the run
		// holds one version, under its digest.
		found := false
		for _, v := range [][]byte{before, after} {
			os.WriteFile(path, v, 0o644)
			var errOut strings.Builder
			_, err := Ingest(ctx, db, []string{path}, Options{ErrOut: &errOut})
			found = found || err == nil && strings.Contains(errOut.String(), "already stored as run 2")
		}
		if !found {
			t.Errorf("stored %q: run 2 is neither version's", out0.String())
		}
		return
	}
	if !strings.Contains(err.Error(), "changed while it was read") {
		t.Fatal(err)
	}
	if n := countRuns(t, db); n != 1 {
		t.Errorf("refused, yet %d runs stored", n-1)
	}
}

// TestFreshDatabase ingests into a database not made yet: a refused export
// leaves no file in the directory (neither the database nor the fresh one
// it was stored into), a stored one leaves the database alone, and a
// database another process creates meanwhile gets the run, said once.
func TestFreshDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	bad := filepath.Join(dir, "cut.csv")
	whole, err := os.ReadFile(fx + "saxpy.details.csv")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, append(whole[:len(whole)/2:len(whole)/2], "\n\"x\",\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "runs.db")
	if _, err := Ingest(ctx, db, []string{bad}, Options{}); err == nil {
		t.Fatal("a cut export was stored")
	}
	entries := func() []string {
		var names []string
		des, _ := os.ReadDir(dir)
		for _, d := range des {
			names = append(names, d.Name())
		}
		return names
	}
	if got := entries(); len(got) != 1 {
		t.Fatalf("after a refused ingest into a new database the directory holds %v, want only cut.csv", got)
	}
	var out strings.Builder
	if _, err := Ingest(ctx, db, []string{fx + "saxpy.details.csv"}, Options{Out: &out}); err != nil {
		t.Fatal(err)
	}
	if n := countRuns(t, db); n != 1 || !strings.Contains(out.String(), "stored as run 1") {
		t.Errorf("%d runs, %q; want runs.db holding run 1", n, out.String())
	}

	meanwhile := filepath.Join(dir, "meanwhile.db")
	out.Reset()
	_, err = ingestWith(ctx, meanwhile, []string{fx + "saxpy.details.csv"}, options{Options: Options{Out: &out}, checked: func() {
		if _, err := Ingest(ctx, meanwhile, []string{fx + "transpose.details.csv"}, Options{}); err != nil {
			t.Fatal(err)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if n := countRuns(t, meanwhile); n != 2 || strings.Count(out.String(), "stored as run") != 1 || !strings.Contains(out.String(), "stored as run 2") {
		t.Errorf("%d runs, %q; want the run stored once, as run 2, into the database created meanwhile", n, out.String())
	}
	for _, name := range entries() {
		if strings.HasPrefix(name, ".") {
			t.Errorf("%s left in the directory", name)
		}
	}
}

// TestFreshDigest: into a fresh database the first export's digest is that
// of the text its read parses; into one made already, the digest computed
// beside the read. The two runs hold the same digest and size, the file's
// own, and a second ingest into the fresh one finds the run stored.
func TestFreshDigest(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := fx + "saxpy.details.csv"
	want, err := ingest.ReadFile(path, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	fresh, made := filepath.Join(dir, "fresh.db"), filepath.Join(dir, "made.db")
	if _, err := Ingest(ctx, made, []string{fx + "transpose.details.csv"}, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, db := range []string{fresh, made} {
		if _, err := Ingest(ctx, db, []string{path}, Options{}); err != nil {
			t.Fatal(err)
		}
		s, err := store.OpenReadOnly(db)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := s.Runs(ctx, store.RunFilter{})
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		r := rs[len(rs)-1]
		if r.Digest != want.Digest || r.Size != st.Size() || r.Source != path {
			t.Errorf("%s: run %d digest %s, size %d, source %s; want %s, %d, %s", filepath.Base(db), r.ID, r.Digest, r.Size, r.Source, want.Digest, st.Size(), path)
		}
	}
	var errOut strings.Builder
	if _, err := Ingest(ctx, fresh, []string{path}, Options{ErrOut: &errOut}); err != nil || !strings.Contains(errOut.String(), "already stored as run 1") {
		t.Errorf("ingest again: %v, %q; want it found stored as run 1", err, errOut.String())
	}
}

// TestKept: Kept hears of each run once it is stored for good, and of
// labels added to a run stored already: into an existing database at
// its commit; an ingest interrupted after a commit leaves it said (it
// once said nothing was written, the run stored).
func TestKept(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	whole, err := os.ReadFile(fx + "saxpy.details.csv")
	if err != nil {
		t.Fatal(err)
	}
	saxpy, transpose := fx+"saxpy.details.csv", fx+"transpose.details.csv"
	for _, c := range []struct {
		name  string
		files []string
		opt   Options
		ok    bool
		want  []string
	}{
		{"a new database", []string{saxpy, transpose}, Options{}, true, []string{saxpy + " as run 1", transpose + " as run 2"}},
		{"the same again", []string{saxpy}, Options{}, true, nil},
		{"labels added", []string{saxpy}, Options{Labels: map[string]string{"k": "v"}}, true, []string{"labels on run 1"}},
	} {
		var got []string
		c.opt.Kept = func(what string) { got = append(got, what) }
		if _, err := Ingest(ctx, filepath.Join(dir, "runs.db"), c.files, c.opt); (err == nil) != c.ok {
			t.Fatalf("%s: %v", c.name, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: kept %q, want %q", c.name, got, c.want)
		}
	}
	// A run stored, then the ingest cancelled (a signal) as the next is
	// stored: the first stays, and is said.
	var got []string
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	f := filepath.Join(dir, "z.csv")
	if err := os.WriteFile(f, bytes.ReplaceAll(whole, []byte("saxpy"), []byte("saxpz")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Ingest(ctx, filepath.Join(dir, "runs.db"), []string{f, "../../fixtures/pytorch/train.full.details.csv.gz"}, Options{Kept: func(what string) {
		got = append(got, what)
		cancel()
	}})
	if !errors.Is(err, context.Canceled) || len(got) != 1 || got[0] != f+" as run 3" {
		t.Errorf("cancelled after the first run: %v, kept %q; want interrupted, run 3 kept", err, got)
	}
	if n := countRuns(t, filepath.Join(dir, "runs.db")); n != 3 {
		t.Errorf("%d runs, want 3", n)
	}
}
