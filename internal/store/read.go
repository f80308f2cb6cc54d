package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

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
	Created     time.Time         // UTC: when the run was stored
	Captured    time.Time         // UTC: when the capture was taken, where its export says; zero else
	Kernels     int               // kernel records: the launches
	Names       int               // distinct kernel names: the kernels
	// Verdict is the version of the verdict maker that made the run's
	// stored verdict (analysis.VerdictVersion then).
	Verdict int
}

// RunFilter selects runs. The zero value selects all.
type RunFilter struct {
	Labels map[string]string // runs having every one of these labels
	Limit  int               // when > 0, only the newest Limit runs
	// Launches keeps the runs that hold a kernel launch: not an API
	// summary's (nsys cuda_api_sum, host calls only), stored as a run of
	// its own beside the trace of its capture.
	Launches bool
}

// Runs returns the runs that match f in ID order (oldest first).
func (db *DB) Runs(ctx context.Context, f RunFilter) ([]RunRecord, error) {
	where, args := labelWhere("r.id", f.Labels)
	if f.Launches {
		if where == "" {
			where = " WHERE r.kernels > 0"
		} else {
			where += " AND r.kernels > 0"
		}
	}
	q := `SELECT r.id, r.digest, r.source, r.tool, r.format, r.tool_version, r.device, r.size, r.created, r.captured, r.kernels, r.verdict,
(SELECT count(*) FROM run_kernel_names n WHERE n.run_id = r.id)
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
	runs, err := db.queryRuns(ctx, `SELECT r.id, r.digest, r.source, r.tool, r.format, r.tool_version, r.device, r.size, r.created, r.captured, r.kernels, r.verdict,
(SELECT count(*) FROM run_kernel_names n WHERE n.run_id = r.id)
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
	runs, err := db.queryRuns(ctx, `SELECT r.id, r.digest, r.source, r.tool, r.format, r.tool_version, r.device, r.size, r.created, r.captured, r.kernels, r.verdict,
(SELECT count(*) FROM run_kernel_names n WHERE n.run_id = r.id)
FROM runs r WHERE r.id = ?`, id)
	if err != nil {
		return RunRecord{}, fmt.Errorf("reading run %d: %w", id, err)
	}
	if len(runs) == 0 {
		return RunRecord{}, fmt.Errorf("%s: run %d: %w", db.name, id, ErrNotFound)
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
		var created, captured string
		if err := rows.Scan(&r.ID, &r.Digest, &r.Source, &r.Tool, &r.Format, &r.ToolVersion, &r.Device, &r.Size, &created, &captured, &r.Kernels, &r.Verdict, &r.Names); err != nil {
			return nil, err
		}
		term(&r.Digest, &r.Source, &r.Tool, &r.Format, &r.ToolVersion, &r.Device)
		if r.Created, err = parseTime(created); err != nil {
			return nil, err
		}
		if captured != "" {
			if r.Captured, err = parseTime(captured); err != nil {
				return nil, err
			}
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
