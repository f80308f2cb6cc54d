package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
)

// setStepWalls writes the walls of f's marked steps, and their busy
// shares where f has one per wall.
func (w *RunWriter) setStepWalls(f TimelineFigures) error {
	if len(f.StepWalls) == 0 {
		return nil
	}
	q := w.db.d.rebind(`INSERT INTO run_step_walls (run_id, seq, wall, busy) VALUES (?, ?, ?, ?)`)
	for i, wall := range f.StepWalls {
		if math.IsNaN(wall) || math.IsInf(wall, 0) {
			w.err = fmt.Errorf("run timeline: step %d's wall is %v", i, wall)
			return w.err
		}
		var busy any
		if len(f.StepBusy) == len(f.StepWalls) {
			busy = nullNaN(f.StepBusy[i])
		}
		if _, err := w.tx.ExecContext(w.ctx, q, w.id, i, wall, busy); err != nil {
			w.err = fmt.Errorf("run timeline: step %d: %w", i, w.db.d.formatError(err))
			return w.err
		}
	}
	return nil
}

// stepWalls reads the walls of run runID's marked steps into f, and
// their busy shares when every step has one.
func (db *DB) stepWalls(ctx context.Context, runID int64, f *TimelineFigures) error {
	rows, err := db.db.QueryContext(ctx, db.d.rebind(`SELECT wall, busy FROM run_step_walls WHERE run_id = ? ORDER BY seq`), runID)
	if err != nil {
		return err
	}
	defer rows.Close()
	all := true
	for rows.Next() {
		var wall float64
		var busy sql.NullFloat64
		if err := rows.Scan(&wall, &busy); err != nil {
			return err
		}
		f.StepWalls = append(f.StepWalls, wall)
		f.StepBusy = append(f.StepBusy, busy.Float64)
		all = all && busy.Valid
	}
	if !all {
		f.StepBusy = nil
	}
	return rows.Err()
}
