package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/profan-dev/profan/analysis"
)

// TimelineFigures are the figures of a run's timeline the database keeps:
// seconds, and the busy share of the span.
type TimelineFigures struct {
	Run       int64
	Device    string
	Span      float64
	Busy      float64
	BusyShare float64
	Idle      map[string]float64 // seconds by cause (analysis.IdleCauses)
	Launches  int
}

// FiguresOf are the figures of a timeline.
func FiguresOf(tl *analysis.Timeline) TimelineFigures {
	f := TimelineFigures{Device: tl.Device, Span: tl.Span, Busy: tl.Busy, BusyShare: tl.BusyShare, Idle: map[string]float64{}, Launches: tl.LaunchCount}
	for _, i := range tl.Idle {
		f.Idle[i.Cause] = i.Seconds
	}
	return f
}

// IdleShare is the share of the span idle for cause.
func (f TimelineFigures) IdleShare(cause string) float64 {
	if f.Span <= 0 {
		return 0
	}
	return f.Idle[cause] / f.Span
}

// SetTimeline writes a run's timeline with the run. After an error the
// writer accepts nothing more.
func (w *RunWriter) SetTimeline(tl *analysis.Timeline) error {
	if w.err != nil {
		return w.err
	}
	if w.done {
		return errors.New("set timeline: run already committed or rolled back")
	}
	w.pipe.sync()
	f := FiguresOf(tl)
	_, err := w.tx.ExecContext(w.ctx, w.db.d.rebind(`INSERT INTO run_timelines (run_id, device, span, busy, busy_share,
idle_launch, idle_sync, idle_copy, idle_queued, idle_leading, idle_trailing, idle_other, launches)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), w.id, f.Device, f.Span, f.Busy, f.BusyShare,
		f.Idle[analysis.IdleLaunch], f.Idle[analysis.IdleSync], f.Idle[analysis.IdleCopy], f.Idle[analysis.IdleQueued],
		f.Idle[analysis.IdleLeading], f.Idle[analysis.IdleTrailing], f.Idle[analysis.IdleOther], f.Launches)
	if err != nil {
		w.err = fmt.Errorf("run timeline: %w", w.db.d.formatError(err))
	}
	return w.err
}

const timelineColumns = `run_id, device, span, busy, busy_share, idle_launch, idle_sync, idle_copy, idle_queued, idle_leading, idle_trailing, idle_other, launches`

func scanTimeline(rows interface{ Scan(...any) error }) (TimelineFigures, error) {
	f := TimelineFigures{Idle: map[string]float64{}}
	var l, s, c, q, lead, trail, o float64
	if err := rows.Scan(&f.Run, &f.Device, &f.Span, &f.Busy, &f.BusyShare, &l, &s, &c, &q, &lead, &trail, &o, &f.Launches); err != nil {
		return f, err
	}
	term(&f.Device)
	for cause, v := range map[string]float64{analysis.IdleLaunch: l, analysis.IdleSync: s, analysis.IdleCopy: c, analysis.IdleQueued: q,
		analysis.IdleLeading: lead, analysis.IdleTrailing: trail, analysis.IdleOther: o} {
		if v > 0 {
			f.Idle[cause] = v
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

// Timeline is the stored figures as a timeline (its top-level figures
// only: no devices, streams or calls).
func (f TimelineFigures) Timeline() *analysis.Timeline {
	tl := &analysis.Timeline{Device: f.Device, Span: f.Span, Busy: f.Busy, BusyShare: f.BusyShare, LaunchCount: f.Launches}
	for _, cause := range analysis.IdleCauses {
		if v := f.Idle[cause]; v > 0 {
			tl.Idle = append(tl.Idle, analysis.Idle{Cause: cause, Seconds: v, Share: f.IdleShare(cause)})
		}
	}
	return tl
}
