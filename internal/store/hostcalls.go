package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"

	"github.com/profan-dev/profan"
)

// SetHostCalls writes a run's host calls (its API summary rows) with the
// run, in their order. A number the export did not give (NaN) is stored
// as NULL and read back as NaN. After an error the writer accepts nothing
// more.
func (w *RunWriter) SetHostCalls(calls []*profan.APICall) error {
	if w.err != nil {
		return w.err
	}
	if w.done {
		return errors.New("set host calls: run already committed or rolled back")
	}
	if len(calls) == 0 {
		return nil
	}
	w.pipe.sync()
	q := w.db.d.rebind(`INSERT INTO run_host_calls (run_id, seq, name, os_runtime, calls, total, avg, min, max) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	for i, c := range calls {
		os := 0
		if c.OS {
			os = 1
		}
		if _, err := w.tx.ExecContext(w.ctx, q, w.id, i, c.Name, os, c.Calls, nullNaN(c.Total), nullNaN(c.Avg), nullNaN(c.Min), nullNaN(c.Max)); err != nil {
			w.err = fmt.Errorf("run host call %s: %w", c.Name, w.db.d.formatError(err))
			return w.err
		}
	}
	return nil
}

// nullNaN is v, or NULL for NaN (which SQLite would store as NULL anyway,
// and a NOT NULL column would refuse).
func nullNaN(v float64) any {
	if math.IsNaN(v) {
		return nil
	}
	return v
}

// HostCalls returns the host calls stored with a run, in the export's
// order; none when its export had none.
func (db *DB) HostCalls(ctx context.Context, runID int64) ([]*profan.APICall, error) {
	rows, err := db.db.QueryContext(ctx, db.d.rebind(`SELECT name, os_runtime, calls, total, avg, min, max FROM run_host_calls WHERE run_id = ? ORDER BY seq`), runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*profan.APICall
	for rows.Next() {
		var c profan.APICall
		var os int
		var v [4]sql.NullFloat64
		if err := rows.Scan(&c.Name, &os, &c.Calls, &v[0], &v[1], &v[2], &v[3]); err != nil {
			return nil, err
		}
		term(&c.Name)
		c.OS = os != 0
		for i, p := range []*float64{&c.Total, &c.Avg, &c.Min, &c.Max} {
			*p = math.NaN()
			if v[i].Valid {
				*p = v[i].Float64
			}
		}
		out = append(out, &c)
	}
	return out, rows.Err()
}
