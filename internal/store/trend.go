package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/profan-dev/profan/internal/store/blob"
	"math"
	"regexp"
	"sort"
	"strings"
	"time"
)

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
			v, ok, err := blob.FindMetric(raw, rawKeys)
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
