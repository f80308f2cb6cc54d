package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// TimelineFigures are the figures of a run's timeline the database keeps:
// seconds, and the busy share of the span.
type TimelineFigures struct {
	Run       int64
	Device    string
	Span      float64
	Busy      float64
	BusyShare float64
	Idle      map[string]float64 // seconds by cause, the analysis's names (idleCauses)
	Launches  int
	Steps     int     // the steps the span holds (ProfilerStep#N marks); 0 when none is marked
	StepWall  float64 // the wall of one step (the median marked step), seconds; 0 when none is marked
	// Gaps are the idle gaps by cause, and Calls the host calls behind
	// each cause's, most idle time first; Timeline reads them (a run
	// stored before migration 0014 has none), Timelines does not.
	Gaps  map[string]int
	Calls map[string][]IdleCall
	// Strips are the devices' strips and their streams', each device's
	// before its streams'; Timeline reads them (a run stored before
	// migration 0015 has none), Timelines does not.
	Strips []TimelineStrip
	// StepWalls are each marked step's wall, seconds, in order, and
	// StepBusy the GPU's busy share of each (nil where not known); Timeline
	// reads them (a run stored before migration 0016 has none).
	StepWalls, StepBusy []float64
}

// IdleCall is a host call behind idle time, as the analysis names it:
// the call, the aten op and the Python frame around it, the Tensor
// method called, how many gaps and how much idle time it is behind.
type IdleCall struct {
	Name, Op, Frame, Method string
	Count                   int
	Seconds                 float64
}

// IdleShare is the share of the span idle for cause.
func (f TimelineFigures) IdleShare(cause string) float64 {
	if f.Span <= 0 {
		return 0
	}
	return f.Idle[cause] / f.Span
}

// Idle causes as stored, one column each (the analysis's names; the
// column is idle_ and the name with '-' as '_'): 0007's, then 0010's,
// then 0017's.
var idleCauses = []string{"launch", "sync", "copy", "queued", "leading", "trailing", "other", "data", "python", "alloc", "op-host"}

// SetTimeline writes a run's timeline with the run. After an error the
// writer accepts nothing more.
func (w *RunWriter) SetTimeline(f TimelineFigures) error {
	if w.err != nil {
		return w.err
	}
	if w.done {
		return errors.New("set timeline: run already committed or rolled back")
	}
	w.pipe.sync()
	for c := range f.Idle {
		if !slices.Contains(idleCauses, c) {
			// A cause with no column would be dropped silently.
			w.err = fmt.Errorf("run timeline: idle cause %q has no column in run_timelines", c)
			return w.err
		}
	}
	args := []any{w.id, f.Device, f.Span, f.Busy, f.BusyShare}
	for _, c := range idleCauses {
		args = append(args, f.Idle[c])
	}
	args = append(args, f.Launches, f.Steps, f.StepWall)
	_, err := w.tx.ExecContext(w.ctx, w.db.d.rebind(`INSERT INTO run_timelines (`+timelineColumns+`)
VALUES (?`+strings.Repeat(", ?", len(args)-1)+`)`), args...)
	if err != nil {
		w.err = fmt.Errorf("run timeline: %w", w.db.d.formatError(err))
		return w.err
	}
	if err := w.setIdleCalls(f); err != nil {
		return err
	}
	if err := w.setStrips(f); err != nil {
		return err
	}
	return w.setStepWalls(f)
}

// setIdleCalls writes the gaps and calls of each idle cause of f.
func (w *RunWriter) setIdleCalls(f TimelineFigures) error {
	gaps := w.db.d.rebind(`INSERT INTO run_idle_gaps (run_id, cause, gaps) VALUES (?, ?, ?)`)
	calls := w.db.d.rebind(`INSERT INTO run_idle_calls (run_id, cause, seq, name, op, frame, method, calls, seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	for _, c := range idleCauses {
		if n := f.Gaps[c]; n > 0 {
			if _, err := w.tx.ExecContext(w.ctx, gaps, w.id, c, n); err != nil {
				w.err = fmt.Errorf("run timeline: idle gaps of %s: %w", c, w.db.d.formatError(err))
				return w.err
			}
		}
		for i, x := range f.Calls[c] {
			if _, err := w.tx.ExecContext(w.ctx, calls, w.id, c, i, x.Name, x.Op, x.Frame, x.Method, x.Count, x.Seconds); err != nil {
				w.err = fmt.Errorf("run timeline: idle call %s of %s: %w", x.Name, c, w.db.d.formatError(err))
				return w.err
			}
		}
	}
	return nil
}

// idleCalls reads the gaps and calls of each idle cause of run runID
// into f.
func (db *DB) idleCalls(ctx context.Context, runID int64, f *TimelineFigures) error {
	rows, err := db.db.QueryContext(ctx, db.d.rebind(`SELECT cause, gaps FROM run_idle_gaps WHERE run_id = ?`), runID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var c string
		var n int
		if err := rows.Scan(&c, &n); err != nil {
			return err
		}
		if f.Gaps == nil {
			f.Gaps = map[string]int{}
		}
		f.Gaps[c] = n
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows, err = db.db.QueryContext(ctx, db.d.rebind(`SELECT cause, name, op, frame, method, calls, seconds FROM run_idle_calls WHERE run_id = ? ORDER BY cause, seq`), runID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var c string
		var x IdleCall
		if err := rows.Scan(&c, &x.Name, &x.Op, &x.Frame, &x.Method, &x.Count, &x.Seconds); err != nil {
			return err
		}
		term(&x.Name, &x.Op, &x.Frame, &x.Method)
		if f.Calls == nil {
			f.Calls = map[string][]IdleCall{}
		}
		f.Calls[c] = append(f.Calls[c], x)
	}
	return rows.Err()
}

var timelineColumns = "run_id, device, span, busy, busy_share, idle_" + strings.ReplaceAll(strings.Join(idleCauses, ", idle_"), "-", "_") + ", launches, steps, step_wall"

func scanTimeline(rows interface{ Scan(...any) error }) (TimelineFigures, error) {
	f := TimelineFigures{Idle: map[string]float64{}}
	idle := make([]float64, len(idleCauses))
	dest := []any{&f.Run, &f.Device, &f.Span, &f.Busy, &f.BusyShare}
	for i := range idle {
		dest = append(dest, &idle[i])
	}
	if err := rows.Scan(append(dest, &f.Launches, &f.Steps, &f.StepWall)...); err != nil {
		return f, err
	}
	term(&f.Device)
	for i, v := range idle {
		if v > 0 {
			f.Idle[idleCauses[i]] = v
		}
	}
	return f, nil
}

// Timeline returns the timeline stored with a run; ok is false when the
// run has none (its export had no timeline).
func (db *DB) Timeline(ctx context.Context, runID int64) (TimelineFigures, bool, error) {
	f, err := scanTimeline(db.db.QueryRowContext(ctx, db.d.rebind(`SELECT `+timelineColumns+` FROM run_timelines WHERE run_id = ?`), runID))
	if errors.Is(err, sql.ErrNoRows) {
		return f, false, nil
	}
	if err == nil {
		err = db.idleCalls(ctx, runID, &f)
	}
	if err == nil {
		err = db.strips(ctx, runID, &f)
	}
	if err == nil {
		err = db.stepWalls(ctx, runID, &f)
	}
	return f, err == nil, err
}

// Timelines returns the stored timelines of every run, oldest run first.
func (db *DB) Timelines(ctx context.Context) ([]TimelineFigures, error) {
	rows, err := db.db.QueryContext(ctx, `SELECT `+timelineColumns+` FROM run_timelines ORDER BY run_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TimelineFigures
	for rows.Next() {
		f, err := scanTimeline(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}
