package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/safe"
)

// RunRecord is a stored run.
type RunRecord struct {
	ID          int64
	Digest      string
	Source      string
	Tool        string
	Format      string
	ToolVersion string
	Device      string
	Size        int64
	Labels      map[string]string // never nil
	Created     time.Time         // UTC
	Kernels     int               // kernel records
	// Verdict is the version of the verdict maker that made the run's
	// stored verdict (analysis.VerdictVersion then).
	Verdict int
}

// RunFilter selects runs. The zero value selects all.
type RunFilter struct {
	Labels map[string]string // runs having every one of these labels
	Limit  int               // when > 0, only the newest Limit runs
}

// Runs returns the runs that match f in ID order (oldest first).
func (db *DB) Runs(ctx context.Context, f RunFilter) ([]RunRecord, error) {
	where, args := labelWhere("r.id", f.Labels)
	q := `SELECT r.id, r.digest, r.source, r.tool, r.format, r.tool_version, r.device, r.size, r.created, r.kernels, r.verdict
FROM runs r` + where + ` ORDER BY r.id DESC`
	if f.Limit > 0 {
		q += ` LIMIT ?`
		args = append(args, f.Limit)
	}
	runs, err := db.queryRuns(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("listing runs: %w", err)
	}
	for i, j := 0, len(runs)-1; i < j; i, j = i+1, j-1 {
		runs[i], runs[j] = runs[j], runs[i]
	}
	return runs, nil
}

// LatestRun returns the newest run having every one of labels (any run when
// labels is empty) whose ID is below before when before > 0: the baseline of
// a run, "the latest run of main". The error wraps ErrNotFound when no run
// qualifies.
func (db *DB) LatestRun(ctx context.Context, labels map[string]string, before int64) (RunRecord, error) {
	where, args := labelWhere("r.id", labels)
	if before > 0 {
		if where == "" {
			where = " WHERE r.id < ?"
		} else {
			where += " AND r.id < ?"
		}
		args = append(args, before)
	}
	runs, err := db.queryRuns(ctx, `SELECT r.id, r.digest, r.source, r.tool, r.format, r.tool_version, r.device, r.size, r.created, r.kernels, r.verdict
FROM runs r`+where+` ORDER BY r.id DESC LIMIT 1`, args...)
	if err != nil {
		return RunRecord{}, fmt.Errorf("finding the latest run: %w", err)
	}
	if len(runs) == 0 {
		return RunRecord{}, ErrNotFound
	}
	return runs[0], nil
}

// Run returns the run with the given ID, or an error wrapping ErrNotFound.
func (db *DB) Run(ctx context.Context, id int64) (RunRecord, error) {
	runs, err := db.queryRuns(ctx, `SELECT r.id, r.digest, r.source, r.tool, r.format, r.tool_version, r.device, r.size, r.created, r.kernels, r.verdict
FROM runs r WHERE r.id = ?`, id)
	if err != nil {
		return RunRecord{}, fmt.Errorf("reading run %d: %w", id, err)
	}
	if len(runs) == 0 {
		return RunRecord{}, fmt.Errorf("run %d: %w", id, ErrNotFound)
	}
	return runs[0], nil
}

// labelWhere returns a WHERE clause requiring every label of labels on the
// run whose ID is the column col, with its arguments.
func labelWhere(col string, labels map[string]string) (string, []any) {
	var where []string
	var args []any
	for _, k := range sortedKeys(labels) {
		where = append(where, col+` IN (SELECT run_id FROM run_labels WHERE key = ? AND value = ?)`)
		args = append(args, k, labels[k])
	}
	if len(where) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(where, " AND "), args
}

func (db *DB) queryRuns(ctx context.Context, q string, args ...any) ([]RunRecord, error) {
	rows, err := db.db.QueryContext(ctx, db.d.rebind(q), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var runs []RunRecord
	for rows.Next() {
		var r RunRecord
		var created string
		if err := rows.Scan(&r.ID, &r.Digest, &r.Source, &r.Tool, &r.Format, &r.ToolVersion, &r.Device, &r.Size, &created, &r.Kernels, &r.Verdict); err != nil {
			return nil, err
		}
		term(&r.Digest, &r.Source, &r.Tool, &r.Format, &r.ToolVersion, &r.Device)
		if r.Created, err = parseTime(created); err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return runs, nil
	}
	labels, err := db.labels(ctx, runs[len(runs)-1].ID, runs[0].ID)
	if err != nil {
		return nil, err
	}
	for i := range runs {
		runs[i].Labels = labels[runs[i].ID]
		if runs[i].Labels == nil {
			runs[i].Labels = map[string]string{}
		}
	}
	return runs, nil
}

// labels returns the labels of the runs with IDs in [lo, hi] (either order).
func (db *DB) labels(ctx context.Context, lo, hi int64) (map[int64]map[string]string, error) {
	if lo > hi {
		lo, hi = hi, lo
	}
	rows, err := db.db.QueryContext(ctx, db.d.rebind(`SELECT run_id, key, value FROM run_labels WHERE run_id BETWEEN ? AND ?`), lo, hi)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[int64]map[string]string{}
	for rows.Next() {
		var id int64
		var k, v string
		if err := rows.Scan(&id, &k, &v); err != nil {
			return nil, err
		}
		term(&k, &v)
		if m[id] == nil {
			m[id] = map[string]string{}
		}
		m[id][k] = v
	}
	return m, rows.Err()
}

// StoredKernel is a kernel record read back.
type StoredKernel struct {
	Kernel    *profan.Kernel     // as written, raw metrics included
	Canonical map[string]float64 // the canonical metrics derived (never NaN)
	Findings  []profan.Finding

	verdict string // kernels.verdict (store/verdict.go)
}

// Kernels returns the kernel records of run runID in the order written, or
// an error wrapping ErrNotFound when there is no such run.
func (db *DB) Kernels(ctx context.Context, runID int64) ([]StoredKernel, error) {
	ks, err := db.kernels(ctx, runID)
	if err != nil {
		return nil, fmt.Errorf("reading kernels of run %d: %w", runID, err)
	}
	return ks, nil
}

func (db *DB) kernels(ctx context.Context, runID int64) ([]StoredKernel, error) {
	out, ordinals, index, err := db.records(ctx, runID)
	if err != nil {
		return nil, err
	}
	return db.expandSeries(ctx, runID, out, ordinals, index)
}

// EachRecord calls record with each kernel record of run runID as stored
// (a launch series as its first launch) and, for a series' first launch,
// its kernels.id (else 0), then launch
// with each later launch of each series: the kernels.id of its first
// launch, its kernel and its canonical duration (NaN when none). A nil
// launch gets StoredKernel records of the later launches from record,
// with kernels.id 0.
func (db *DB) EachRecord(ctx context.Context, runID int64, record func(int64, StoredKernel) error, launch func(int64, *profan.Kernel, float64) error) error {
	out, ordinals, index, err := db.records(ctx, runID)
	if err != nil {
		return fmt.Errorf("reading kernels of run %d: %w", runID, err)
	}
	// Records that start no series are given kernels.id 0: nothing need
	// be kept of them for later launches.
	starts := map[int64]bool{}
	if launch != nil {
		starts, err = querySet[int64](ctx, db.db, db.d.rebind(`SELECT DISTINCT s.kernel_id FROM launch_series s JOIN kernels k ON k.id = s.kernel_id WHERE k.run_id = ?`), runID)
		if err != nil {
			return fmt.Errorf("reading kernels of run %d: %w", runID, err)
		}
	}
	ids := make([]int64, len(out))
	for id, i := range index {
		if starts[id] {
			ids[i] = id
		}
	}
	for i, k := range out {
		if err := record(ids[i], k); err != nil {
			return err
		}
	}
	var ferr error
	err = db.eachSeries(ctx, `k.run_id = ?`, []any{runID}, func(id int64) (int, string, bool, error) {
		i, ok := index[id]
		if !ok {
			return 0, "", false, fmt.Errorf("launch series of unknown kernel %d", id)
		}
		return ordinals[i], out[i].Kernel.ID, true, nil
	}, func(id int64, l seriesLaunch) {
		if ferr != nil {
			return
		}
		if launch == nil {
			ferr = record(0, out[index[id]].launch(l))
			return
		}
		k := out[index[id]].Kernel.Clone()
		k.ID, k.Start, k.Duration = l.id, l.start, l.duration
		ferr = launch(id, k, l.canonDur)
	})
	if err != nil {
		return fmt.Errorf("reading kernels of run %d: %w", runID, err)
	}
	return ferr
}

// records reads the kernel records of run runID as stored (a launch
// series as its first launch), with their ordinals and their index by
// kernel ID.
func (db *DB) records(ctx context.Context, runID int64) ([]StoredKernel, []int, map[int64]int, error) {
	if _, err := db.Run(ctx, runID); err != nil {
		return nil, nil, nil, err
	}
	q := db.d.rebind
	rows, err := db.db.QueryContext(ctx, q(`SELECT k.id, k.ordinal, k.name_id, k.launch_id, n.name, n.demangled, k.device, k.cc, k.grid, k.block, k.invocations, k.duration, k.raw, k.verdict
FROM kernels k JOIN kernel_names n ON n.id = k.name_id WHERE k.run_id = ? ORDER BY k.ordinal`), runID)
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	var out []StoredKernel
	var ordinals []int
	index := map[int64]int{}
	nameIDs := map[int64]bool{}
	for rows.Next() {
		k := &profan.Kernel{}
		var id, nameID int64
		var ordinal int
		var grid, block string
		var dur sql.NullFloat64
		var raw []byte
		var verdict string
		if err := rows.Scan(&id, &ordinal, &nameID, &k.ID, &k.Name, &k.Demangled, &k.Device, &k.CC, &grid, &block, &k.Invocations, &dur, &raw, &verdict); err != nil {
			return nil, nil, nil, err
		}
		term(&k.ID, &k.Name, &k.Demangled, &k.Device, &k.CC)
		k.Duration = floatOrNaN(dur)
		if k.Grid, err = parseDim(grid); err != nil {
			return nil, nil, nil, err
		}
		if k.Block, err = parseDim(block); err != nil {
			return nil, nil, nil, err
		}
		var keyErr error
		err := decodeKernel(raw, k, func(id uint64) (metricKey, bool) {
			key, ok, err := db.metricKey(ctx, id)
			if err != nil && keyErr == nil {
				keyErr = err
			}
			return key, ok
		}, func(id uint64) (string, bool) {
			t, ok, err := db.textTemplate(ctx, id)
			if err != nil && keyErr == nil {
				keyErr = err
			}
			return t, ok
		})
		if keyErr != nil {
			return nil, nil, nil, keyErr
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("kernel %s: %w", k.ID, err)
		}
		index[id] = len(out)
		nameIDs[nameID] = true
		out = append(out, StoredKernel{Kernel: k, Canonical: map[string]float64{}, verdict: verdict})
		ordinals = append(ordinals, ordinal)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, nil, err
	}

	if len(out) > 0 {
		// Values are keyed by metric first: read each metric's range of
		// this run's kernel IDs. (Within one write transaction the IDs are
		// consecutive; IDs of other runs in the range are skipped.)
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for id := range index {
			lo, hi = min(lo, id), max(hi, id)
		}
		query, args := db.d.kernelValuesSQL(nameIDs, lo, hi)
		rows, err = db.db.QueryContext(ctx, q(query), args...)
		if err != nil {
			return nil, nil, nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var name string
			var v float64
			if err := rows.Scan(&name, &id, &v); err != nil {
				return nil, nil, nil, err
			}
			if i, ok := index[id]; ok {
				out[i].Canonical[name] = v
			}
		}
		if err := rows.Err(); err != nil {
			return nil, nil, nil, err
		}
	}

	rows, err = db.db.QueryContext(ctx, q(`SELECT f.kernel_id, f.rule, f.severity, f.kernel, f.message, f.advice, f.gain, f.evidence, f.locations
FROM kernels k JOIN findings f ON f.kernel_id = k.id WHERE k.run_id = ? ORDER BY f.id`), runID)
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var f profan.Finding
		var sev int
		var gain sql.NullFloat64
		var ev, loc string
		if err := rows.Scan(&id, &f.Rule, &sev, &f.Kernel, &f.Message, &f.Advice, &gain, &ev, &loc); err != nil {
			return nil, nil, nil, err
		}
		term(&f.Rule, &f.Kernel, &f.Message, &f.Advice)
		f.Severity = profan.Severity(sev)
		f.Gain = floatOrNaN(gain)
		if err := json.Unmarshal([]byte(ev), &f.Evidence); err != nil {
			return nil, nil, nil, fmt.Errorf("finding %s: evidence: %w", f.Rule, err)
		}
		if err := json.Unmarshal([]byte(loc), &f.Locations); err != nil {
			return nil, nil, nil, fmt.Errorf("finding %s: locations: %w", f.Rule, err)
		}
		if len(f.Evidence) == 0 {
			f.Evidence = nil
		}
		if len(f.Locations) == 0 {
			f.Locations = nil
		}
		sk := &out[index[id]]
		sk.Findings = append(sk.Findings, f)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, nil, err
	}
	return out, ordinals, index, nil
}

// expandSeries adds the later launches of every launch series of run runID
// to out (whose records have the given ordinals and kernel IDs index), in
// the order written.
func (db *DB) expandSeries(ctx context.Context, runID int64, out []StoredKernel, ordinals []int, index map[int64]int) ([]StoredKernel, error) {
	type ordered struct {
		ord int
		k   StoredKernel
	}
	var more []ordered
	err := db.eachSeries(ctx, `k.run_id = ?`, []any{runID}, func(id int64) (int, string, bool, error) {
		i, ok := index[id]
		if !ok {
			return 0, "", false, fmt.Errorf("launch series of unknown kernel %d", id)
		}
		return ordinals[i], out[i].Kernel.ID, true, nil
	}, func(id int64, l seriesLaunch) {
		more = append(more, ordered{l.ordinal, out[index[id]].launch(l)})
	})
	if err != nil {
		return nil, err
	}
	if len(more) == 0 {
		return out, nil
	}
	all := make([]ordered, 0, len(out)+len(more))
	for i, k := range out {
		all = append(all, ordered{ordinals[i], k})
	}
	all = append(all, more...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].ord < all[j].ord })
	out = out[:0]
	for _, o := range all {
		out = append(out, o.k)
	}
	return out, nil
}

// launch returns the record of a later launch of sk's series.
func (sk StoredKernel) launch(l seriesLaunch) StoredKernel {
	k := sk.Kernel.Clone()
	k.ID, k.Start, k.Duration = l.id, l.start, l.duration
	c := make(map[string]float64, len(sk.Canonical))
	for name, v := range sk.Canonical {
		c[name] = v
	}
	delete(c, "duration")
	if !math.IsNaN(l.canonDur) {
		c["duration"] = l.canonDur
	}
	fs := sk.Findings
	for i, f := range sk.Findings {
		if f.Kernel == sk.Kernel.ID { // findings that name the first launch name this one
			if &fs[0] == &sk.Findings[0] {
				fs = append([]profan.Finding(nil), sk.Findings...)
			}
			fs[i].Kernel = l.id
		}
	}
	return StoredKernel{Kernel: k, Canonical: c, Findings: fs, verdict: sk.verdict}
}

// kernelValuesSQL reads the canonical values of a range of kernel IDs,
// one primary-key range per metric.
const kernelValuesSQL = `SELECT m.name, v.kernel_id, v.value
FROM metric_names m CROSS JOIN kernel_values v
WHERE v.metric_id = m.id AND v.kernel_id BETWEEN ? AND ?`

// kernelValuesSQL returns the query of the canonical values of the kernels
// with IDs in [lo, hi] and names nameIDs: kernelValuesSQL, or where the key
// of kernel_values holds the name (valuesByName, PostgreSQL), one range per
// metric and name, the names passed as one array.
func (d *dialect) kernelValuesSQL(nameIDs map[int64]bool, lo, hi int64) (string, []any) {
	if !d.valuesByName {
		return kernelValuesSQL, []any{lo, hi}
	}
	ids := make([]int64, 0, len(nameIDs))
	for id := range nameIDs {
		ids = append(ids, id)
	}
	return `SELECT m.name, v.kernel_id, v.value
FROM metric_names m CROSS JOIN kernel_values v
WHERE v.metric_id = m.id AND v.name_id = ANY(?) AND v.kernel_id BETWEEN ? AND ?`, []any{ids, lo, hi}
}

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }

// TrendQuery selects the values of one metric of some kernels across runs.
type TrendQuery struct {
	// Kernel matches the kernel's name or its demangled name; nil matches
	// every kernel.
	Kernel *regexp.Regexp
	// Metric is a canonical metric name, or else the name of a raw metric
	// as exported. Raw metrics are read from each matching kernel's blob,
	// which is slower. A name that is both is read as the canonical metric.
	Metric string
	// Labels restricts the runs to those having every one of these labels.
	Labels map[string]string
}

// Point is the value of the metric for one kernel record of one run.
type Point struct {
	Run     int64
	Labels  map[string]string // the run's labels; shared by the points of one run, do not modify
	Created time.Time
	Kernel  string // display name: demangled when known, else the name
	Launch  string // the kernel record's launch ID within its run (profan.Kernel.ID)
	Value   float64
}

// maxNameFilter is the most kernel name IDs passed to SQL as an IN list;
// with more, the names are filtered while reading.
const maxNameFilter = 500

// Trend returns the value of q.Metric for every kernel record that q selects,
// ordered by run ID and then by the kernel's order in the run. A run with
// several matching records (repeated launches, or several kernels matching
// the regexp) gives several points. Records whose value is missing or not
// numeric give no point, so Value is never NaN. An unknown metric or no
// matching kernel gives no points and no error.
func (db *DB) Trend(ctx context.Context, tq TrendQuery) ([]Point, error) {
	pts, err := db.trend(ctx, tq)
	if err != nil {
		return nil, fmt.Errorf("trend of %s: %w", tq.Metric, err)
	}
	return pts, nil
}

func (db *DB) trend(ctx context.Context, tq TrendQuery) ([]Point, error) {
	names, all, err := db.kernelNames(ctx, tq.Kernel)
	if err != nil || len(names) == 0 {
		return nil, err
	}
	pts, at, canonical, err := db.trendPoints(ctx, tq, names, all)
	if err != nil || len(pts) == 0 {
		return nil, err
	}
	lo, hi := pts[0].Run, pts[len(pts)-1].Run
	if pts, err = db.trendSeries(ctx, pts, at, lo, hi, tq.Metric == "duration" && canonical); err != nil {
		return nil, err
	}
	if err := db.datePoints(ctx, pts, lo, hi); err != nil {
		return nil, err
	}
	return pts, nil
}

// kernelNames returns the kernel names re matches (all when nil), by
// kernel_names.id, demangled where known; all says whether every name
// matched. The table is small, and matched here since SQLite has no REGEXP.
func (db *DB) kernelNames(ctx context.Context, re *regexp.Regexp) (names map[int64]string, all bool, err error) {
	rows, err := db.db.QueryContext(ctx, `SELECT id, name, demangled FROM kernel_names`)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	names = map[int64]string{}
	all = true
	for rows.Next() {
		var id int64
		var name, dem string
		if err := rows.Scan(&id, &name, &dem); err != nil {
			return nil, false, err
		}
		term(&name, &dem)
		if re == nil || re.MatchString(name) || (dem != "" && re.MatchString(dem)) {
			names[id] = cmp.Or(dem, name)
		} else {
			all = false
		}
	}
	return names, all, rows.Err()
}

// trendPoints returns the points of tq among the kernels of names, each
// with its kernel row, and whether tq.Metric is a canonical metric (else
// a raw one, read from the blobs); no points for a metric never stored.
func (db *DB) trendPoints(ctx context.Context, tq TrendQuery, names map[int64]string, all bool) ([]Point, []pointAt, bool, error) {
	q := db.d.rebind
	var metricID int64
	err := db.db.QueryRowContext(ctx, q(`SELECT id FROM metric_names WHERE name = ?`), tq.Metric).Scan(&metricID)
	canonical := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, nil, false, err
	}
	var rawKeys map[uint64]bool
	if !canonical {
		if rawKeys, err = db.rawKeys(ctx, tq.Metric); err != nil || len(rawKeys) == 0 {
			return nil, nil, false, err
		}
	}
	var ids []int64
	if !all && len(names) <= maxNameFilter {
		for id := range names {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	}
	query, args := trendSQL(db.d, canonical, metricID, ids, tq.Labels)
	rows, err := db.db.QueryContext(ctx, q(query), args...)
	if err != nil {
		return nil, nil, false, err
	}
	defer rows.Close()
	var pts []Point
	var at []pointAt // each point's kernel row, for launch series
	// The scan targets are reused: a trend may have many points.
	var p Point
	var nameID, kid int64
	var ordinal int
	var value float64
	var raw sql.RawBytes
	dest := []any{&p.Run, &nameID, &p.Launch, &value, &kid, &ordinal}
	if !canonical {
		dest[3] = &raw
	}
	for rows.Next() {
		p = Point{}
		if err := rows.Scan(dest...); err != nil {
			return nil, nil, false, err
		}
		name, ok := names[nameID]
		if !ok {
			continue
		}
		p.Kernel = name
		if canonical {
			p.Value = value
		} else {
			v, ok, err := findMetric(raw, rawKeys)
			if err != nil {
				return nil, nil, false, fmt.Errorf("run %d kernel %s: %w", p.Run, p.Launch, err)
			}
			if !ok || math.IsNaN(v) {
				continue
			}
			p.Value = v
		}
		pts = append(pts, p)
		at = append(at, pointAt{kid, ordinal})
	}
	return pts, at, canonical, rows.Err()
}

// datePoints gives each point its run's creation time and labels (runs lo
// to hi).
func (db *DB) datePoints(ctx context.Context, pts []Point, lo, hi int64) error {
	labels, err := db.labels(ctx, lo, hi)
	if err != nil {
		return err
	}
	texts, err := queryMap[int64, string](ctx, db.db, db.d.rebind(`SELECT id, created FROM runs WHERE id BETWEEN ? AND ?`), lo, hi)
	if err != nil {
		return err
	}
	created := map[int64]time.Time{}
	for id, cr := range texts {
		if created[id], err = parseTime(cr); err != nil {
			return err
		}
	}
	empty := map[string]string{}
	for i := range pts {
		p := &pts[i]
		p.Created = created[p.Run]
		if p.Labels = labels[p.Run]; p.Labels == nil {
			p.Labels = empty
		}
	}
	return nil
}

// trendSQL returns the query of a trend: the canonical metric metricID, or
// the raw blobs, of the kernels whose name IDs are nameIDs (all when empty)
// in the runs having labels. CROSS JOIN fixes the join order in SQLite
// (other databases ignore it): from the kernels of the names, through the
// covering index kernels_name_run, to each value by primary key. Left to
// itself, SQLite would rather walk all values of the metric. Where
// kernel_values holds name IDs (valuesByName), each name's values are one
// range of its key, in kernel ID order, as are the kernels of each name in
// PostgreSQL's kernels_name: a merge join.
func trendSQL(d *dialect, canonical bool, metricID int64, nameIDs []int64, labels map[string]string) (string, []any) {
	var where []string
	var args []any
	var b strings.Builder
	if canonical {
		b.WriteString(`SELECT k.run_id, k.name_id, k.launch_id, v.value, k.id, k.ordinal
FROM kernels k CROSS JOIN kernel_values v`)
		where = append(where, `v.metric_id = ?`, `v.kernel_id = k.id`)
		args = append(args, metricID)
		if d.valuesByName {
			where = append(where, `v.name_id = k.name_id`)
			if len(nameIDs) > 0 {
				where = append(where, `v.name_id IN (`+placeholders(len(nameIDs))+`)`)
				for _, id := range nameIDs {
					args = append(args, id)
				}
			}
		}
	} else {
		b.WriteString(`SELECT k.run_id, k.name_id, k.launch_id, k.raw, k.id, k.ordinal
FROM kernels k`)
	}
	if len(nameIDs) > 0 {
		where = append(where, `k.name_id IN (`+placeholders(len(nameIDs))+`)`)
		for _, id := range nameIDs {
			args = append(args, id)
		}
	}
	if lw, largs := labelWhere("k.run_id", labels); lw != "" {
		where = append(where, strings.TrimPrefix(lw, " WHERE "))
		args = append(args, largs...)
	}
	if len(where) > 0 {
		b.WriteString(" WHERE " + strings.Join(where, " AND "))
	}
	b.WriteString(" ORDER BY k.run_id, k.ordinal")
	return b.String(), args
}

// eachSeries decodes the launch series of the kernels rows that where (over
// kernels k) selects, in kernel and chunk order: first gives a series' first
// launch's ordinal and ID (ok false skips the series), each receives its
// later launches.
func (db *DB) eachSeries(ctx context.Context, where string, args []any, first func(kernelID int64) (ordinal int, id string, ok bool, err error), each func(kernelID int64, l seriesLaunch)) error {
	rows, err := db.db.QueryContext(ctx, db.d.rebind(`SELECT s.kernel_id, s.launches, s.data
FROM launch_series s JOIN kernels k ON k.id = s.kernel_id WHERE `+where+` ORDER BY s.kernel_id, s.chunk`), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var ls []seriesLaunch
	for rows.Next() {
		var id int64
		var n int
		var data []byte
		if err := rows.Scan(&id, &n, &data); err != nil {
			return err
		}
		ord, firstID, ok, err := first(id)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if ls, err = decodeSeries(data, n, ord, firstID, ls[:0]); err != nil {
			return fmt.Errorf("kernel %s: %w", firstID, err)
		}
		for _, l := range ls {
			each(id, l)
		}
	}
	return rows.Err()
}

// pointAt is the kernels row behind a trend point.
type pointAt struct {
	kernel  int64
	ordinal int
}

// trendSeries adds to pts (read from the kernels rows at, of runs lo to hi)
// a point for every later launch of a launch series whose first launch has
// a point: the same value, or the launch's own for duration.
func (db *DB) trendSeries(ctx context.Context, pts []Point, at []pointAt, lo, hi int64, duration bool) ([]Point, error) {
	type ordered struct {
		ord int
		p   Point
	}
	var more []ordered
	var byKernel map[int64]int
	err := db.eachSeries(ctx, `k.run_id BETWEEN ? AND ?`, []any{lo, hi}, func(id int64) (int, string, bool, error) {
		if byKernel == nil {
			byKernel = make(map[int64]int, len(at))
			for i, a := range at {
				byKernel[a.kernel] = i
			}
		}
		i, ok := byKernel[id]
		if !ok {
			return 0, "", false, nil // a kernel the query did not select
		}
		return at[i].ordinal, pts[i].Launch, true, nil
	}, func(id int64, l seriesLaunch) {
		p := pts[byKernel[id]]
		p.Launch = l.id
		if duration {
			if math.IsNaN(l.canonDur) {
				return
			}
			p.Value = l.canonDur
		}
		more = append(more, ordered{l.ordinal, p})
	})
	if err != nil || len(more) == 0 {
		return pts, err
	}
	all := make([]ordered, 0, len(pts)+len(more))
	for i, p := range pts {
		all = append(all, ordered{at[i].ordinal, p})
	}
	all = append(all, more...)
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].p.Run != all[j].p.Run {
			return all[i].p.Run < all[j].p.Run
		}
		return all[i].ord < all[j].ord
	})
	pts = pts[:0]
	for _, o := range all {
		pts = append(pts, o.p)
	}
	return pts, nil
}

func floatOrNaN(v sql.NullFloat64) float64 {
	if !v.Valid {
		return math.NaN()
	}
	return v.Float64
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// rawKeys returns the raw_metric_keys IDs of the raw metric called name.
func (db *DB) rawKeys(ctx context.Context, name string) (map[uint64]bool, error) {
	return querySet[uint64](ctx, db.db, db.d.rebind(`SELECT id FROM raw_metric_keys WHERE name = ?`), name)
}

// term makes strings read from the database safe to show, as strings read
// from an export are made at ingest: a shared database may hold what
// another program or an older profan wrote, and labels are the user's.
func term(ss ...*string) {
	for _, s := range ss {
		*s = safe.Term(*s)
	}
}
