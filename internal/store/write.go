package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/safe"
	"github.com/profan-dev/profan/internal/store/blob"
)

// RunInfo describes a run being written.
type RunInfo struct {
	// Digest is "sha256:<hex>" of the export; it identifies the run. It
	// may be left empty with DigestLater, and given to SetDigest before
	// Commit: a caller that hashes the export while it parses it.
	Digest      string
	DigestLater bool
	Source      string // path as given on the command line
	Tool        string // profan.ToolNCU, …
	Format      string // importer name
	ToolVersion string
	Device      string
	Labels      map[string]string
	Size        int64
	// Verdict is the version of the verdict maker whose verdicts the run
	// holds (analysis.VerdictVersion).
	Verdict int
	// Captured is when the capture was taken, where the export says;
	// zero else. SetCaptured gives it when it is read after Begin.
	Captured time.Time
	// Committed, when set, is told the run's ID once it is committed,
	// before Commit returns and before HoldCommits returns (see there):
	// a process ending on a signal then says every run it stored.
	Committed func(id int64)
}

// NamedValue is one canonical metric value of a kernel. NaN means the metric
// could not be derived; it is not stored (a row costs ingest time).
type NamedValue struct {
	Name  string
	Value float64
}

// KernelRecord is one kernel written to a run.
type KernelRecord struct {
	// Kernel is the kernel as imported. Every field is stored: identity in
	// columns, raw metrics, tool findings, source records and the rest in
	// one blob.
	Kernel    *profan.Kernel
	Canonical []NamedValue     // derived metrics, names unique within the kernel
	Findings  []profan.Finding // profan's findings about this kernel
	// The rest of the kernel's verdict.
	Limiter    Limiter
	Suppressed []Suppressed
	Skipped    []string
	Missing    []Missing
	// AsBefore says that Limiter, Suppressed, Skipped and Missing are
	// those of the record added before, which are then not compared
	// again (the launches of a trace repeat one verdict; verdictdb
	// knows it by the verdict's slices).
	AsBefore bool
}

// RunWriter writes one run in one transaction, one kernel at a time, so that
// the caller never holds all kernels. Nothing is visible to other readers
// until Commit; a process that dies before Commit leaves no trace of the run.
// A RunWriter is not safe for concurrent use. Call Commit or Rollback
// exactly once: until then, on SQLite, the writer holds the database's write
// lock, and other writers wait for it (up to the busy timeout); on
// PostgreSQL, writers run side by side (see pgDialect).
type RunWriter struct {
	db   *DB
	ctx  context.Context
	tx   *sql.Tx
	id   int64
	n    int   // kernels written
	err  error // first error; the writer is unusable after one
	done bool

	pending bool   // begun with DigestLater
	digest  string // what SetDigest gave
	// captured is when the capture was taken (RunInfo.Captured,
	// SetCaptured); zero when the export does not say.
	captured time.Time
	verdict  int // RunInfo.Verdict
	// committed is RunInfo.Committed.
	committed func(id int64)

	insKernel  *sql.Stmt
	insFinding *sql.Stmt
	selName    *sql.Stmt
	insName    *sql.Stmt
	selMetric  *sql.Stmt
	insMetric  *sql.Stmt
	insValues  *sql.Stmt // a full batch of valueBatch rows
	selKey     *sql.Stmt
	insKey     *sql.Stmt
	selText    *sql.Stmt
	insText    *sql.Stmt

	names         map[[2]string]int64 // kernel name, demangled → kernel_names.id
	lastName      [2]string           // the name nameID gave last, and its ID
	lastNameID    int64
	metrics       map[string]int64   // canonical name → metric_names.id
	keys          map[string][]keyID // raw metric name → its keys seen in this run
	keyFunc       func(*profan.Metric, int) (uint64, error)
	textFunc      func([]byte) (uint64, error)
	texts         map[string]uint64 // finding template → text_templates.id
	newTexts      int               // templates this run added
	lastKey       []keyID           // the keys of the previous kernel's metrics, by position
	seen          map[string]bool   // canonical names of the current kernel
	values        []any             // the arguments of a kernel_values batch
	pendingValues []pendingValue    // rows for the next batch
	sortSpare     []pendingValue    // sortValues' other slice
	pipe          *pipe             // the goroutine that runs the row statements (store/pipe.go)
	enc           blob.Encoder      // reused: its template scratch survives from kernel to kernel

	dictLocked bool // the transaction may add dictionary rows (see dictID)

	insSeries *sql.Stmt
	series    map[string]*series // series key (store/series.go) → its open series
	key       []byte
	masked    []byte
	blob      []byte // the kernel blob being encoded, handed to its op when one is needed

	lastVerdict verdictCache
	lastNotes   notesCache
	// last is the launch added last, when it started or joined a series:
	// a trace's next launch that repeats it but for ID, start and
	// duration joins that series without its blob and key (seriesAgain).
	last lastLaunch

	procs       WorkloadBuilder // the program's process names (writeWorkload)
	lastProcess string
}

// maxSeriesKey bounds the key of a launch that may start or join a series:
// trace rows have small blobs; launches with hundreds of raw metrics (ncu
// pages) never repeat exactly and are not worth a key.
const maxSeriesKey = 1024

// valueBatch is the number of kernel_values rows inserted by one statement.
// One multi-row INSERT per batch instead of one per value saves the
// per-statement overhead of database/sql and cgo; and on SQLite a multi-row
// INSERT keeps a statement journal of every page it touches (the rows of
// one batch land on a page per metric), so a few large statements cost far
// less than many small ones: 1,000 rows took 0.5 s of CPU off 100 MB of ncu
// details against 128 (bench/run.sh), with little gain beyond. 3,000 or
// 4,000 parameters stay well under either backend's bound (dialect.maxParams).
const valueBatch = 1000

// BeginRun starts writing a run. When a run with the same digest is stored
// already, it writes nothing and returns a *DuplicateError holding that run's
// ID. When two processes race to store one digest, the database's UNIQUE
// constraint picks the winner and the other gets a *DuplicateError too.
func (db *DB) BeginRun(ctx context.Context, info RunInfo) (*RunWriter, error) {
	if info.DigestLater {
		if info.Digest != "" {
			return nil, errors.New("begin run: a digest and DigestLater")
		}
		// Unique until SetDigest: the row is not visible before Commit.
		var b [16]byte
		rand.Read(b[:])
		info.Digest = pendingDigest + hex.EncodeToString(b[:])
	}
	if info.Digest == "" {
		return nil, errors.New("begin run: empty digest")
	}
	if err := checkLabels(info.Labels); err != nil {
		return nil, fmt.Errorf("begin run: %w", err)
	}
	// Check first without the write lock: re-ingesting is common, and
	// must not wait for other writers.
	if id, err := db.digestID(ctx, info.Digest); err != nil {
		return nil, fmt.Errorf("database %s: begin run: %w", db.name, err)
	} else if id != 0 {
		return nil, &DuplicateError{ID: id}
	}
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("database %s: begin run: %w", db.name, db.d.formatError(err))
	}
	if db.pending.Load() {
		if err := db.migrateIn(ctx, tx); err != nil {
			tx.Rollback()
			return nil, fmt.Errorf("database %s: begin run: %w", db.name, err)
		}
	}
	w := &RunWriter{db: db, ctx: ctx, tx: tx, pending: info.DigestLater, verdict: info.Verdict, captured: info.Captured, committed: info.Committed}
	if err := w.begin(info); err != nil {
		tx.Rollback()
		err = db.d.formatError(err)
		var dup *DuplicateError
		if errors.As(err, &dup) {
			dup.ID, _ = db.digestID(ctx, info.Digest)
			return nil, dup
		}
		return nil, fmt.Errorf("database %s: begin run: %w", db.name, err)
	}
	return w, nil
}

// pendingDigest starts the digest of a run begun with DigestLater.
const pendingDigest = "pending:"

// SetCaptured gives when the capture was taken, read from the export
// after the run began (zero: unknown).
func (w *RunWriter) SetCaptured(t time.Time) { w.captured = t }

// SetDigest gives the digest of a run begun with DigestLater. When a run
// with that digest is stored already, or is committed by another writer
// first, Commit returns a *DuplicateError holding its ID (and stores
// nothing).
func (w *RunWriter) SetDigest(digest string) error {
	if !w.pending {
		return errors.New("set digest: the run has its digest")
	}
	if digest == "" || strings.HasPrefix(digest, pendingDigest) {
		return fmt.Errorf("set digest: bad digest %q", digest)
	}
	w.digest = digest
	return nil
}

// DigestID returns the ID of the run with the given digest, 0 when none.
func (db *DB) DigestID(ctx context.Context, digest string) (int64, error) {
	return db.digestID(ctx, digest)
}

// digestID returns the ID of the run with the given digest, 0 when none.
func (db *DB) digestID(ctx context.Context, digest string) (int64, error) {
	var id int64
	err := db.db.QueryRowContext(ctx, db.d.rebind(`SELECT id FROM runs WHERE digest = ?`), digest).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

func (w *RunWriter) begin(info RunInfo) error {
	ctx, tx, q := w.ctx, w.tx, w.db.d.rebind
	err := tx.QueryRowContext(ctx, q(`INSERT INTO runs (digest, source, tool, format, tool_version, device, size, created, verdict)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		info.Digest, info.Source, info.Tool, info.Format, info.ToolVersion, info.Device, info.Size,
		formatTime(w.db.Now()), info.Verdict).Scan(&w.id)
	if err != nil {
		return err
	}
	for _, k := range sortedKeys(info.Labels) {
		if _, err := tx.ExecContext(ctx, q(`INSERT INTO run_labels (run_id, key, value) VALUES (?, ?, ?)`),
			w.id, k, info.Labels[k]); err != nil {
			return err
		}
	}
	return w.prepare()
}

// prepare readies the writer of run w.id for its kernels.
func (w *RunWriter) prepare() error {
	ctx, tx, q := w.ctx, w.tx, w.db.d.rebind
	var err error
	if w.metrics, err = queryMap[string, int64](ctx, tx, `SELECT name, id FROM metric_names`); err != nil {
		return err
	}
	w.names = map[[2]string]int64{}
	w.seen = map[string]bool{}
	w.dictLocked = w.db.d.dictLock == ""
	prep := func(s string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = tx.PrepareContext(ctx, q(s))
		return st
	}
	insKernel := `INSERT INTO kernels (run_id, ordinal, launch_id, name_id, device, cc, grid, block, invocations, duration, raw, verdict)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	if !w.db.d.lastInsertID {
		insKernel += ` RETURNING id`
	}
	w.insKernel = prep(insKernel)
	w.insFinding = prep(`INSERT INTO findings (kernel_id, rule, severity, kernel, message, advice, gain, evidence, locations)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	w.selName = prep(`SELECT id FROM kernel_names WHERE name = ? AND demangled = ?`)
	w.insName = prep(`INSERT INTO kernel_names (name, demangled) VALUES (?, ?) RETURNING id`)
	w.selMetric = prep(`SELECT id FROM metric_names WHERE name = ?`)
	w.insMetric = prep(`INSERT INTO metric_names (name) VALUES (?) RETURNING id`)
	w.insValues = prep(w.db.d.valuesInsert(valueBatch))
	w.selKey = prep(`SELECT id FROM raw_metric_keys WHERE name = ? AND section = ? AND unit = ? AND raw_unit = ?`)
	w.insKey = prep(`INSERT INTO raw_metric_keys (name, section, unit, raw_unit) VALUES (?, ?, ?, ?) RETURNING id`)
	w.selText = prep(`SELECT id FROM text_templates WHERE text = ?`)
	w.insText = prep(`INSERT INTO text_templates (text) VALUES (?) RETURNING id`)
	w.texts = map[string]uint64{}
	w.textFunc = w.textID
	w.insSeries = prep(`INSERT INTO launch_series (kernel_id, chunk, launches, data) VALUES (?, ?, ?, ?)`)
	w.keys = map[string][]keyID{}
	w.keyFunc = w.keyID
	w.series = map[string]*series{}
	return err
}

func (d *dialect) valuesInsert(rows int) string {
	var b strings.Builder
	row := "(?, ?, ?)"
	if d.valuesByName {
		b.WriteString(`INSERT INTO kernel_values (metric_id, name_id, kernel_id, value) VALUES `)
		row = "(?, ?, ?, ?)"
	} else {
		b.WriteString(`INSERT INTO kernel_values (metric_id, kernel_id, value) VALUES `)
	}
	for i := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
	}
	return b.String()
}

// AddKernel writes one kernel record. After an error the writer accepts
// nothing more: Commit returns the error, and Rollback is all that is left.
func (w *RunWriter) AddKernel(rec KernelRecord) error {
	if w.err != nil {
		return w.err
	}
	if w.done {
		return errors.New("add kernel: run already committed or rolled back")
	}
	if w.pipe != nil {
		// A kernel handed over earlier failed (already numbered).
		if err := w.pipe.failed(); err != nil {
			w.err = err
			return err
		}
	}
	if err := w.addKernel(rec); err != nil {
		w.err = fmt.Errorf("database %s: add kernel %d: %w", w.db.name, w.n, w.db.d.formatError(err))
		return w.err
	}
	w.n++
	return nil
}

// checkRecord refuses a record without a named kernel, or whose canonical
// metrics are unnamed or named twice.
func (w *RunWriter) checkRecord(rec *KernelRecord) error {
	k := rec.Kernel
	if k == nil {
		return errors.New("nil kernel")
	}
	if k.Name == "" {
		return errors.New("kernel has no name")
	}
	if len(rec.Canonical) > 16 {
		clear(w.seen)
	}
	for i, v := range rec.Canonical {
		if v.Name == "" {
			return errors.New("canonical metric without a name")
		}
		// A few names are compared in place (trace rows have two or
		// three), more through a map.
		dup := false
		if len(rec.Canonical) <= 16 {
			for _, u := range rec.Canonical[:i] {
				dup = dup || u.Name == v.Name
			}
		} else {
			dup = w.seen[v.Name]
			w.seen[v.Name] = true
		}
		if dup {
			return fmt.Errorf("canonical metric %s given twice", v.Name)
		}
	}
	return nil
}

func (w *RunWriter) addKernel(rec KernelRecord) error {
	if err := w.checkRecord(&rec); err != nil {
		return err
	}
	k := rec.Kernel
	nameID, err := w.nameID(k.Name, k.Demangled)
	if err != nil {
		return err
	}
	if k.Process != w.lastProcess {
		w.procs.addProcess(k.Process)
		w.lastProcess = k.Process
	}
	if w.pipe == nil {
		w.startPipe()
	}
	// A kernel with no metric, tool finding or source record (a trace's
	// launch) encodes a blob that adds no dictionary or template row:
	// its verdict may be encoded first, and the launch may join the
	// series of the launch before without a blob or a key.
	plain := len(k.Metrics) == 0 && len(k.Findings) == 0 && len(k.Source) == 0
	var verdict string
	if plain {
		if verdict, err = w.encodeVerdict(&rec); err != nil {
			return err
		}
		if s, canonDur, ok := w.last.again(nameID, k, &rec, verdict); ok {
			// The series of the launch before, as its key finds it.
			s.add(w.n, k, canonDur)
			if s.n == seriesChunk {
				return w.flushSeries(s)
			}
			return nil
		}
	}
	w.last.ok = false
	// One encoder for the run: its template scratch is reused. The blob
	// goes into the writer's buffer, handed to an op only for a new row: a
	// launch that joins a series (most of a trace's) takes no op of the
	// pipe.
	w.enc.B, w.enc.Key, w.enc.Text, w.enc.Err = w.blob[:0], w.keyFunc, w.textFunc, nil
	if w.blob, err = w.enc.Kernel(k); err != nil {
		return err
	}
	if !plain {
		if verdict, err = w.encodeVerdict(&rec); err != nil {
			return err
		}
	}
	// A launch that repeats an earlier one but for its ID, start and
	// duration joins that launch's series (store/series.go).
	var canonDur float64
	w.key = w.key[:0]
	if len(w.blob) <= maxSeriesKey {
		var ok bool
		if w.masked, ok = withoutStart(w.masked, w.blob); ok {
			w.key, canonDur = seriesKey(w.key, nameID, k, w.masked, &rec, verdict)
		}
	}
	if len(w.key) > 0 && len(w.key) <= maxSeriesKey {
		if s := w.series[string(w.key)]; s != nil {
			if plain {
				w.last.set(s, nameID, k, &rec, verdict)
			}
			s.add(w.n, k, canonDur)
			if s.n == seriesChunk {
				return w.flushSeries(s)
			}
			return nil
		}
	}
	op := w.pipe.take()
	sent := false
	defer func() {
		if !sent {
			w.pipe.free <- op
		}
	}()
	op.blob, w.blob = w.blob, op.blob[:0]
	op.verdict = verdict
	op.ordinal, op.launchID, op.nameID = w.n, k.ID, nameID
	op.device, op.cc, op.grid, op.block = k.Device, k.CC, dim(k.Grid), dim(k.Block)
	op.inv, op.dur = k.Invocations, nullFloat(k.Duration)
	for _, v := range rec.Canonical {
		if math.IsNaN(v.Value) {
			continue
		}
		mid, ok := w.metrics[v.Name]
		if !ok {
			if mid, err = w.dictID(w.selMetric, w.insMetric, v.Name); err != nil {
				return err
			}
			w.metrics[v.Name] = mid
		}
		op.values = append(op.values, valueRow{mid, v.Value})
	}
	for _, f := range rec.Findings {
		ev, err := json.Marshal(nonNil(f.Evidence))
		if err != nil {
			return err
		}
		loc, err := json.Marshal(nonNil(f.Locations))
		if err != nil {
			return err
		}
		op.findings = append(op.findings, findingRow{f.Rule, int(f.Severity), f.Kernel, f.Message, f.Advice,
			nullFloat(f.Gain), string(ev), string(loc)})
	}
	if len(w.key) > 0 && len(w.key) <= maxSeriesKey {
		s := &series{ordinal: w.n}
		s.id, _ = numericID(k.ID)
		w.series[string(w.key)] = s
		op.starts = s
		if plain {
			w.last.set(s, nameID, k, &rec, verdict)
		}
	}
	sent = true
	w.pipe.send(op)
	return nil
}

// flushSeries hands the launches s holds over as its next chunk.
func (w *RunWriter) flushSeries(s *series) error {
	if s.n == 0 {
		return nil
	}
	op := w.pipe.take()
	op.chunkOf, op.chunk, op.n, op.ordinal = s, s.chunk, s.n, s.ordinal
	next := op.data[:0]
	if cap(next) < len(s.buf) {
		// The pipe lets a chunk's buffer go (maxKeptBuffer): the next
		// chunk's is made at once at this one's size, not grown from
		// nothing by doubling (82 MB allocated for a 600,000-launch
		// trace's 37 chunks).
		next = make([]byte, 0, len(s.buf))
	}
	op.data, s.buf = s.buf, next
	w.pipe.send(op)
	s.chunk++
	s.n = 0
	return nil
}

func (w *RunWriter) nameID(name, demangled string) (int64, error) {
	if w.lastNameID != 0 && name == w.lastName[0] && demangled == w.lastName[1] {
		return w.lastNameID, nil // the launches of a trace repeat their names
	}
	key := [2]string{name, demangled}
	defer func() { w.lastName, w.lastNameID = key, w.names[key] }()
	if id, ok := w.names[key]; ok {
		return id, nil
	}
	id, err := w.dictID(w.selName, w.insName, name, demangled)
	if err != nil {
		return 0, err
	}
	w.names[key] = id
	return id, nil
}

// dictID returns the ID of a dictionary row (kernel_names, metric_names,
// raw_metric_keys): the row that sel finds, else a new one that ins adds.
// Dictionary rows are added in the run's transaction, so that a run rolled
// back leaves none. Where writers run concurrently (PostgreSQL), a writer
// about to add one first takes the dialect's dictLock, held until it
// commits or rolls back, and looks again: the row may have been committed
// meanwhile. So only the lock's holder ever has uncommitted dictionary rows,
// no writer waits on another's (writers adding the same names in different
// orders would deadlock), and dictionary IDs are committed in order.
func (w *RunWriter) dictID(sel, ins *sql.Stmt, args ...any) (int64, error) {
	w.pipe.sync()
	var id int64
	err := sel.QueryRowContext(w.ctx, args...).Scan(&id)
	if !errors.Is(err, sql.ErrNoRows) {
		return id, err
	}
	if !w.dictLocked {
		if _, err := w.tx.ExecContext(w.ctx, w.db.d.dictLock); err != nil {
			return 0, err
		}
		w.dictLocked = true
		err = sel.QueryRowContext(w.ctx, args...).Scan(&id)
		if !errors.Is(err, sql.ErrNoRows) {
			return id, err
		}
	}
	err = ins.QueryRowContext(w.ctx, args...).Scan(&id)
	return id, err
}

// maxTemplates bounds the templates one run may add: sentences that vary
// in more than numbers (names, addresses) are written out rather than
// growing the dictionary with every launch.
const maxTemplates = 4096

// textID returns the text_templates ID of a finding's template, adding a
// row for a new one; 0 (write the finding out) once the run has added
// maxTemplates.
func (w *RunWriter) textID(tmpl []byte) (uint64, error) {
	if id, ok := w.texts[string(tmpl)]; ok {
		return id, nil
	}
	if w.newTexts >= maxTemplates {
		return 0, nil
	}
	t := string(tmpl)
	id, err := w.dictID(w.selText, w.insText, t)
	if err != nil {
		return 0, err
	}
	w.newTexts++
	w.texts[t] = uint64(id)
	return uint64(id), nil
}

// keyID returns the raw_metric_keys ID of m's name, section and units,
// adding a row for a new combination.
func (w *RunWriter) keyID(m *profan.Metric, pos int) (uint64, error) {
	// Kernels of one export mostly list the same metrics in the same
	// order: try the previous kernel's metric at this position first.
	if pos >= 0 && pos < len(w.lastKey) && w.lastKey[pos].key == blob.KeyOf(m) {
		return w.lastKey[pos].id, nil
	}
	id, err := w.lookupKey(m)
	if err != nil || pos < 0 {
		return id, err
	}
	for len(w.lastKey) <= pos {
		w.lastKey = append(w.lastKey, keyID{})
	}
	w.lastKey[pos] = keyID{blob.KeyOf(m), id}
	return id, nil
}

func (w *RunWriter) lookupKey(m *profan.Metric) (uint64, error) {
	// Hash the name only: most names come with one section and unit.
	ks := w.keys[m.Name]
	for _, k := range ks {
		if k.key.Section == m.Section && k.key.Unit == m.Unit && k.key.RawUnit == m.RawUnit {
			return k.id, nil
		}
	}
	key := blob.KeyOf(m)
	for _, x := range []struct{ what, s string }{{"metric name", key.Name}, {"section", key.Section}, {"unit", key.Unit}, {"unit", key.RawUnit}} {
		if len(x.s) > maxName {
			return 0, fmt.Errorf("%s %q...: %d bytes, longer than the %d a run database stores", x.what, safe.Term(x.s[:40]), len(x.s), maxName)
		}
	}
	sid, err := w.dictID(w.selKey, w.insKey, key.Name, key.Section, key.Unit, key.RawUnit)
	if err != nil {
		return 0, err
	}
	id := uint64(sid)
	w.keys[m.Name] = append(ks, keyID{key, id})
	return id, nil
}

type keyID struct {
	key blob.Key
	id  uint64
}

// Commit makes the run visible and returns its ID. On error the run is
// rolled back.
func (w *RunWriter) Commit() (int64, error) {
	if w.done {
		return 0, errors.New("commit: run already committed or rolled back")
	}
	if w.err != nil {
		w.Rollback()
		return 0, w.err
	}
	if w.pending && w.digest == "" {
		w.Rollback()
		return 0, errors.New("commit: the run's digest was never set")
	}
	w.done = true
	commits.Lock()
	err := w.commit()
	if err == nil && w.committed != nil {
		w.committed(w.id)
	}
	commits.Unlock()
	if err != nil {
		w.tx.Rollback()
		err = w.db.d.formatError(err)
		var dup *DuplicateError
		if errors.As(err, &dup) {
			dup.ID, _ = w.db.digestID(w.ctx, w.digest)
			return 0, dup
		}
		return 0, fmt.Errorf("database %s: commit run: %w", w.db.name, err)
	}
	w.db.pending.Store(false) // the migrations were committed with the run
	w.db.checkpoint(w.ctx)
	return w.id, nil
}

func (w *RunWriter) commit() error {
	open := make([]*series, 0, len(w.series))
	for _, s := range w.series {
		open = append(open, s)
	}
	// In the order the series began (kernelID is the pipe's to set).
	sort.Slice(open, func(i, j int) bool { return open[i].ordinal < open[j].ordinal })
	for _, s := range open {
		if err := w.flushSeries(s); err != nil {
			return err
		}
	}
	if err := w.pipe.drain(); err != nil {
		return err
	}
	if err := w.flushValues(nil); err != nil {
		return err
	}
	if err := w.writeWorkload(); err != nil {
		return err
	}
	if !w.captured.IsZero() {
		if _, err := w.tx.ExecContext(w.ctx, w.db.d.rebind(`UPDATE runs SET captured = ? WHERE id = ?`), formatTime(w.captured), w.id); err != nil {
			return err
		}
	}
	if w.pending {
		if _, err := w.tx.ExecContext(w.ctx, w.db.d.rebind(`UPDATE runs SET kernels = ?, digest = ? WHERE id = ?`), w.n, w.digest, w.id); err != nil {
			return err
		}
	} else if _, err := w.tx.ExecContext(w.ctx, w.db.d.rebind(`UPDATE runs SET kernels = ?, verdict = ? WHERE id = ?`), w.n, w.verdict, w.id); err != nil {
		return err
	}
	return w.tx.Commit()
}

// Rollback abandons the run. It is safe to call after Commit (then it does
// nothing), so that callers may defer it.
func (w *RunWriter) Rollback() error {
	if w.done {
		return nil
	}
	w.done = true
	if w.pipe != nil {
		w.pipe.mu.Lock()
		if w.pipe.err == nil {
			w.pipe.err = errors.New("rolled back") // drop what is still queued
			w.pipe.hasErr.Store(true)
		}
		w.pipe.mu.Unlock()
		w.pipe.drain()
	}
	if err := w.tx.Rollback(); err != nil && !errors.Is(err, sql.ErrTxDone) {
		return fmt.Errorf("rollback run: %w", err)
	}
	return nil
}

// nullFloat stores NaN as NULL: SQL has no NaN.
func nullFloat(v float64) any {
	if math.IsNaN(v) {
		return nil
	}
	return v
}

func dim(d profan.Dim3) string {
	if d == (profan.Dim3{}) {
		return ""
	}
	return strconv.Itoa(d[0]) + "," + strconv.Itoa(d[1]) + "," + strconv.Itoa(d[2])
}

func parseDim(s string) (profan.Dim3, error) {
	var d profan.Dim3
	if s == "" {
		return d, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return d, fmt.Errorf("bad stored dimension %q", s)
	}
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil {
			return d, fmt.Errorf("bad stored dimension %q", s)
		}
		d[i] = v
	}
	return d, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
