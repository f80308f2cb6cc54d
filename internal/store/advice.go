package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SetAdvice writes a run's application advice (an opaque document its
// caller encodes) with the run, replacing any stored before. After an
// error the writer accepts nothing more.
func (w *RunWriter) SetAdvice(doc string) error {
	if w.err != nil {
		return w.err
	}
	if w.done {
		return errors.New("set advice: run already committed or rolled back")
	}
	w.pipe.sync()
	if _, err := w.tx.ExecContext(w.ctx, w.db.d.rebind(`DELETE FROM run_advice WHERE run_id = ?`), w.id); err != nil {
		w.err = fmt.Errorf("run advice: %w", w.db.d.formatError(err))
		return w.err
	}
	if _, err := w.tx.ExecContext(w.ctx, w.db.d.rebind(`INSERT INTO run_advice (run_id, advice) VALUES (?, ?)`), w.id, doc); err != nil {
		w.err = fmt.Errorf("run advice: %w", w.db.d.formatError(err))
	}
	return w.err
}

// Advice returns the application advice stored with a run; ok is false
// when none is (a run an older profan stored).
func (db *DB) Advice(ctx context.Context, runID int64) (doc string, ok bool, err error) {
	err = db.db.QueryRowContext(ctx, db.d.rebind(`SELECT advice FROM run_advice WHERE run_id = ?`), runID).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return doc, err == nil, err
}
